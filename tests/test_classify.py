"""classify(): status, match type, confidence and reasons from the evidence, rule by rule."""
from __future__ import annotations

import pytest

from quoteverify.classify import band, classify
from quoteverify.config import load_config
from quoteverify.types import Elision, Alignment, Comparison, Difference, Quote, Segment

VERDICT = load_config().verdict
WORDS = 10


def evidence(*differences: tuple[str, str, str], matched: int = WORDS, ratio: float = 1.0,
             elided: tuple[str, ...] = (), document: str = "interview-01", located: bool = True):
    """An alignment of a 10-word quote with ``matched`` words equal, and its comparison."""
    segments = (Segment(0, 0, WORDS, 100, 100 + WORDS, 0, matched),) if located else ()
    nearest = None if located else Segment(0, 0, WORDS, 100, 100 + WORDS, 0, matched)
    alignment = Alignment("fuzzy", segments, WORDS, 3.0, 2.0, nearest)
    comparison = Comparison(tuple(Difference(*d) for d in differences), ratio, "source text",
                            document, 10, 60, (), elided, "source text")
    return alignment, comparison


def verdict(alignment, comparison, cosine=None, *, quote: Quote | None = None, claimed_known: bool = True,
            speaker: str = "", **overrides):
    settings = load_config(overrides={"verdict": overrides}).verdict if overrides else VERDICT
    quote = quote or Quote(row=2, quote_id="q1", text="a quote of ten words")
    v = classify(quote, alignment, comparison, cosine, verdict=settings, claimed_known=claimed_known,
                 speaker=speaker)
    return v.status, v.match_type, list(v.reasons)


# differences -> status, match type, reasons
RULES = [
    pytest.param((), ("verified", "exact", []), id="no-difference"),
    pytest.param((("normalization", "The", "the"),), ("verified", "normalized", []), id="normalization"),
    pytest.param((("punctuation", ";", ","),), ("verified", "normalized", []), id="punctuation"),
    pytest.param((("editorial", "[her]", "Dr. Okafor"),), ("verified", "normalized", []), id="editorial"),
    pytest.param((("elision", "...", " in the end "),), ("verified", "elided", []), id="elision"),
    pytest.param((("disfluency", "", "um"),),
                 ("verified", "edited", ["disfluency: quote has nothing, source has 'um'"]), id="disfluency"),
    pytest.param((("typo", "aprove", "approve"),),
                 ("verified", "edited", ["typo: quote has 'aprove', source has 'approve'"]), id="typo"),
    pytest.param((("number", "50", "15"),),
                 ("review", "altered", ["number differs: quote says '50', source says '15'"]), id="number"),
    pytest.param((("negation", "", "not"),),
                 ("review", "altered", ["negation differs: quote says nothing, source says 'not'"]), id="negation"),
    pytest.param((("name", "Simon", "Peter"),),
                 ("review", "altered", ["name differs: quote says 'Simon', source says 'Peter'"]), id="name"),
    pytest.param((("word", "classes", "sessions"),),
                 ("review", "paraphrase", ["wording differs: quote says 'classes', source says 'sessions'"]),
                 id="word"),
    pytest.param((("splice", "the second piece", "interview-02 line 2, while the piece before is in interview-01 "
                                                 "line 8"),),
                 ("review", "spliced", ["spliced: 'the second piece' is from interview-02 line 2, while the piece "
                                        "before is in interview-01 line 8"]), id="splice"),
    pytest.param((("order", "the second piece", "interview-02 line 2, before the piece quoted ahead of it (line 4)"),),
                 ("review", "reordered", ["out of order: 'the second piece' is in interview-02 line 2, before the "
                                          "piece quoted ahead of it (line 4)"]), id="order"),
    pytest.param((("typo", "aprove", "approve"), ("number", "50", "15")),
                 ("review", "altered", ["number differs: quote says '50', source says '15'"]),
                 id="load-bearing-beats-edit"),
    pytest.param((("number", "50", "15"), ("splice", "piece", "interview-02 line 2")),
                 ("review", "spliced", ["spliced: 'piece' is from interview-02 line 2"]), id="splice-first"),
]


@pytest.mark.parametrize(("differences", "expected"), RULES)
def test_rules(differences, expected) -> None:
    assert verdict(*evidence(*differences)) == expected


@pytest.mark.parametrize("differences", [r.values[0] for r in RULES if r.values[1][0] == "review"])
def test_no_cosine_rescues_a_changed_meaning(differences) -> None:
    assert verdict(*evidence(*differences), cosine=1.0)[0] == "review"


@pytest.mark.parametrize(("gap", "reasons"), [
    (Elision(" and then ", 2, 0), []),
    (Elision(" did not ", 2, 0, hidden=(("negation", "not"),)), ["ellipsis hides 'not'"]),
    (Elision(" unless we agree ", 3, 0, hidden=(("condition", "unless"),)), ["ellipsis hides 'unless'"]),
    (Elision(" Nobody came. ", 2, 1), ["ellipsis leaves out 1 whole sentence of the same turn"]),
    (Elision(" Yes. ", 1, 1, speakers=("Maria", "Interviewer")), ["the ellipsis joins Maria's words to Interviewer's"]),
    (Elision(" x " * 40, 40, 0, hidden=tuple(("negation", f"n{k}") for k in range(9)) + tuple(
        ("number", str(k)) for k in range(5))), ["ellipsis omits 40 words, including 9 negations and 5 numbers"]),
])
def test_what_an_ellipsis_may_hide(gap: Elision, reasons: list[str]) -> None:
    status, match_type, why = verdict(*evidence(("elision", "...", gap.text), elided=(gap,)))
    benign = not gap.hidden and not gap.speakers
    assert (status, match_type, why) == ("verified" if benign else "review", "elided", reasons)


def test_an_ellipsis_in_a_language_without_lexicon_needs_review() -> None:
    gap = Elision(" and then ", 2, 0)
    alignment, comparison = evidence(("elision", "...", gap.text), elided=(gap,))
    v = classify(Quote(row=2, quote_id="q1", text="a quote"), alignment, comparison, None, verdict=VERDICT,
                 claimed_known=True, language="hu", has_lexicon=False)
    assert (v.status, v.reasons) == ("review", ("ellipsis inside a sentence: the language (hu) has no lexicon "
                                                "to check what it hides",))


def test_long_elision_needs_review() -> None:
    gap = Elision(" word" * 151, 151, 0)
    assert verdict(*evidence(("elision", "...", gap.text), elided=(gap,))) == (
        "review", "elided", ["ellipsis stands for 151 source words (more than 150)"])
    assert verdict(*evidence(("elision", "...", gap.text), elided=(gap,)), max_elided_words=200)[0] == "verified"


def test_edited_can_be_made_to_need_review() -> None:
    assert verdict(*evidence(("disfluency", "", "um")), edited_is_verified=False) == (
        "review", "edited", ["disfluency: quote has nothing, source has 'um'",
                             "edited quotes need review (verdict.edited_is_verified is off)"])


def test_many_typos_need_review() -> None:
    typos = [("typo", f"wrd{k}", f"word{k}") for k in range(3)]
    status, match_type, reasons = verdict(*evidence(*typos))
    assert (status, match_type, reasons[-1]) == ("review", "edited", "3 misspelt words out of 10")


def test_low_match_ratio_is_a_paraphrase() -> None:
    assert verdict(*evidence(("normalization", "a", "A"), ratio=0.5))[:2] == ("review", "paraphrase")


# ----------------------------------------------------------- locating at all

@pytest.mark.parametrize(("matched", "located", "cosine", "expected"), [
    (4, True, None, ("unverified", "unlocated",
                     ["no passage in the sources aligns with this quote (at best 40% of its words)"])),
    (4, True, VERDICT.paraphrase_cosine - 0.01, ("unverified", "unlocated",
                     ["no passage in the sources aligns with this quote (at best 40% of its words)"])),
    (4, True, VERDICT.paraphrase_cosine, ("review", "paraphrase",
                     ["reworded: only 40% of the quote's words align, but the passage means much the same "
                      f"(cosine {VERDICT.paraphrase_cosine:.2f})"])),
    (3, False, 0.9, ("review", "paraphrase",
                     ["reworded: only 30% of the quote's words align, but the passage means much the same "
                      "(cosine 0.90)"])),
    (2, False, 1.0, ("unverified", "unlocated",
                     ["no passage in the sources aligns with this quote (at best 20% of its words)"])),
    (0, False, 1.0, ("unverified", "unlocated",
                     ["no passage in the sources aligns with this quote (at best 0% of its words)"])),
    (5, True, None, ("verified", "exact", [])),
])
def test_coverage_and_cosine(matched: int, located: bool, cosine, expected) -> None:
    """Half the words must align to locate a quote; below that only a close cosine over a related passage
    makes it a paraphrase, and a high cosine over a barely related one never does."""
    assert verdict(*evidence(matched=matched, located=located), cosine=cosine) == expected


def test_nothing_found_at_all() -> None:
    alignment = Alignment("none", (), WORDS)
    comparison = Comparison((), None, "")
    assert verdict(alignment, comparison, 0.99) == (
        "unverified", "unlocated", ["no passage in the sources aligns with this quote"])


def test_quote_with_a_problem() -> None:
    quote = Quote(row=3, quote_id="q2", text="", problem="empty quote: nothing to verify")
    assert verdict(Alignment("none", (), 0), Comparison((), None, ""), quote=quote) == (
        "unverified", "unlocated", ["empty quote: nothing to verify"])


# ------------------------------------------------------------ attribution

def test_misattributed() -> None:
    quote = Quote(row=2, quote_id="q1", text="x", claimed_document="interview-03")
    assert verdict(*evidence(), quote=quote) == (
        "review", "misattributed", ["found in interview-01, not in claimed interview-03"])


def test_altered_and_misattributed_stays_altered_with_both_reasons() -> None:
    quote = Quote(row=2, quote_id="q1", text="x", claimed_document="interview-03")
    assert verdict(*evidence(("number", "50", "15")), quote=quote) == (
        "review", "altered", ["found in interview-01, not in claimed interview-03",
                              "number differs: quote says '50', source says '15'"])


def test_unknown_claimed_document_is_a_note() -> None:
    quote = Quote(row=2, quote_id="q1", text="x", claimed_document="interview-99",
                  notes=("claimed document 'interview-99' is not among the documents; searched all",))
    assert verdict(*evidence(), quote=quote, claimed_known=False) == (
        "verified", "exact", ["claimed document 'interview-99' is not among the documents; searched all"])


@pytest.mark.parametrize(("claimed", "found", "expected"), [
    ("Maria", "Maria", ("verified", "exact", [])),
    ("maria", "Maria", ("verified", "exact", [])),
    ("James", "Maria", ("review", "misattributed", ["said by Maria, not by claimed James"])),
    ("", "Interviewer", ("review", "misattributed",
                         ["from the interviewer's turn (Interviewer), not a participant's"])),
    ("", "Maria", ("verified", "exact", [])),
])
def test_speakers(claimed: str, found: str, expected) -> None:
    quote = Quote(row=2, quote_id="q1", text="x", speaker=claimed)
    assert verdict(*evidence(), quote=quote, speaker=found) == expected


# ------------------------------------------------------------ confidence

@pytest.mark.parametrize(("confidence", "expected"), [
    (1.0, "high"), (0.8, "high"), (0.79, "medium"), (0.6, "medium"), (0.59, "low"), (0.0, "low")])
def test_band(confidence: float, expected: str) -> None:
    assert band(confidence) == expected


def test_review_is_never_high_confidence() -> None:
    for rule in RULES:
        alignment, comparison = evidence(*rule.values[0])
        v = classify(Quote(2, "q1", "x"), alignment, comparison, 1.0, verdict=VERDICT, claimed_known=True)
        assert 0.0 <= v.confidence <= 1.0
        assert v.band == band(v.confidence)
        if v.status == "review":
            assert v.confidence < 0.8
        else:
            assert v.confidence >= 0.8
