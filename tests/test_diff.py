"""The diff stage: every difference between a quote and its source span, labelled."""
from __future__ import annotations

import pytest
from conftest import NO_EMBED, TINY_CORPUS

import quoteverify
from quoteverify.judge.diff import is_negation, is_number


def differences(quote: str) -> list[tuple[str, str, str]]:
    (result,) = quoteverify.verify(TINY_CORPUS, [quote], NO_EMBED)
    return [(d.kind, d.quote_text, d.source_text) for d in result.differences]


# quote -> its differences, in order: (kind, as the quote has it, as the source has it), original text both sides
CASES = [
    pytest.param("The committee did not approve the budget until March.", [], id="none"),
    pytest.param("the committee did not approve the budget until march.",
                 [("normalization", "the", "The"), ("normalization", "march", "March")], id="case"),
    pytest.param("the committee did NOT approve the budget until march.",
                 [("normalization", "the", "The"), ("case", "NOT", "not"),
                  ("normalization", "march", "March")], id="capitals-for-emphasis"),
    pytest.param("The Committee did not approve the budget until March.", [("case", "Committee", "committee")],
                 id="a-capital-inside-a-sentence"),
    pytest.param("I think we were naive about the paperwork.",
                 [("normalization", "we were naive about", "we were\nnaive about")], id="line-wrap"),
    pytest.param("well I said uh we\u2019re working on a project",
                 [("normalization", "we\u2019re", "we're")], id="curly-apostrophe"),
    pytest.param("The council sent a boat; but it arrived two days later!",
                 [("punctuation", ";", ","), ("punctuation", "!", ",")], id="punctuation-changed"),
    pytest.param("The council sent a boat but it arrived two days later when everything was already over",
                 [("punctuation", "", ","), ("punctuation", "", ","),
                  ("normalization", "when everything was already", "when everything\r\nwas already")],
                 id="punctuation-dropped"),
    pytest.param("We should have asked [her] for help much earlier.",
                 [("editorial", "[her]", "Dr. Okafor")], id="editorial-replacement"),
    pytest.param("The committee [sic] did not approve the budget until March.",
                 [("editorial", "[sic]", "")], id="sic"),
    pytest.param("[T]he nurses never gave up, they came in every weekend.",
                 [("editorial", "[T]", ""), ("normalization", "The", "the")], id="capital-in-brackets"),
    pytest.param("The training was useful ... Three days is not enough to learn a new system.",
                 [("elision", "...", ", but it was far too short. ")], id="elision"),
    pytest.param("The committee did ... approve the budget until March.",
                 [("elision", "...", " not ")], id="elision-of-not"),
    pytest.param("Honestly, it was harder than we expected.", [("disfluency", "", ", um")], id="filler"),
    pytest.param("I think I think we were naive about the paperwork.",
                 [("disfluency", "", "--"), ("normalization", "we were naive about", "we were\nnaive about")],
                 id="restart-dash"),
    pytest.param("I think we were naive about the paperwork. But the nurses never gave up",
                 [("normalization", "we were naive about", "we were\nnaive about"), ("disfluency", "", "(laughs)")],
                 id="stage-direction"),
    pytest.param("The committee did not aprrove the budget until March.", [("typo", "aprrove", "approve")], id="typo"),
    pytest.param("The committee did not aprove the budget until March.", [("near_word", "aprove", "approve")],
                 id="slip-into-a-spelling-the-word-list-holds"),
    pytest.param("We lost 50 volunteers in the first month",
                 [("number", "50", "15"), ("normalization", "the first month", "the first\nmonth")], id="number"),
    pytest.param("Five days is not enough to learn a new system.", [("number", "Five", "Three")], id="number-word"),
    pytest.param("Three days is enough to learn a new system.", [("negation", "", "not")], id="negation"),
    pytest.param("I asked Simon about it on Monday and he said the money had run out.",
                 [("name", "Simon", "Peter")], id="name"),
    pytest.param("Some of them stopped coming to the evening classes altogether.",
                 [("word", "classes", "sessions")], id="word"),
]


@pytest.mark.parametrize(("quote", "expected"), CASES)
def test_differences(quote: str, expected: list[tuple[str, str, str]]) -> None:
    assert differences(quote) == expected


def test_splice_names_both_places() -> None:
    assert differences("We should have asked Dr. Okafor for help much earlier. The training was useful, but it "
                       "was far too short.") == [
        ("splice", "The training was useful, but it was far too short",
         "interview-02 line 2, while the piece before is in interview-01 line 8")]


def test_order_names_both_places() -> None:
    assert differences("They said they would send extra staff, and they never did. The training was useful, "
                       "but it was far too short.") == [
        ("order", "The training was useful, but it was far too short",
         "interview-02 line 2, before the piece quoted ahead of it (line 4)")]


def test_texts_are_original_slices() -> None:
    """Both sides of every difference are text as written, never the normalized form."""
    quote = "We lost 50\u00a0volunteers in the first month, and the remote clinic had to close twice."
    for kind, quote_text, source_text in differences(quote):
        assert quote_text in quote
        assert source_text in TINY_CORPUS["interview-01"]


@pytest.mark.parametrize(("word", "expected"), [
    ("15", True), ("3.5", True), ("1,500", True), ("2020", True), ("n95", True),
    ("three", True), ("fifteen", True), ("hundred", True), ("twice", True), ("first", True), ("half", True),
    ("percent", True), ("the", False), ("none", False), ("often", False), ("tone", False),
])
def test_is_number(word: str, expected: bool) -> None:
    assert is_number(word) is expected


@pytest.mark.parametrize(("word", "strict"), [("first", False), ("half", False), ("once", False),
                                             ("three", True), ("15", True)])
def test_strict_numbers_leave_out_ranks_and_fractions(word: str, strict: bool) -> None:
    assert is_number(word, strict=True) is strict


@pytest.mark.parametrize(("word", "expected"), [
    ("not", True), ("no", True), ("never", True), ("nothing", True), ("nobody", True), ("cannot", True),
    ("don't", True), ("isn't", True), ("won't", True), ("wasn't", True), ("without", True),
    ("now", False), ("note", False), ("know", False), ("knot", False), ("nation", False),
])
def test_is_negation(word: str, expected: bool) -> None:
    assert is_negation(word) is expected
