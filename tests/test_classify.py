"""classify(): status, match type, confidence and reasons from the evidence, rule by rule."""
from __future__ import annotations

import pytest

from quoteverify.judge.classify import Setting, band, classify
from quoteverify.model.config import load_config
from quoteverify.model.types import Alignment, Comparison, Difference, Elision, Quote, Segment

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
    v = classify(quote, alignment, comparison, cosine, verdict=settings,
                 setting=Setting(claimed_known, speaker))
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
                 ("review", "spliced", ["spliced: 'piece' is from interview-02 line 2",
                                        "number differs: quote says '50', source says '15'"]), id="splice-first"),
    pytest.param((("near_word", "prize", "price"),),
                 ("review", "paraphrase", ["wording differs: quote says 'prize', source says 'price' (a slip into "
                                           "another word, or another word)"]), id="near-word"),
    pytest.param((("speech_act", ".", "?"),),
                 ("review", "edited", ["speech act differs: quote says '.', source says '?'"]), id="speech-act"),
    pytest.param((("case", "US", "us"),),
                 ("review", "edited", ["case differs: quote says 'US', source says 'us'"]), id="case"),
    pytest.param((("homoglyph", "lаst", "last"),),
                 ("review", "edited", ["script differs: quote says 'lаst', source says 'last'"]), id="homoglyph"),
]


@pytest.mark.parametrize(("differences", "expected"), RULES)
def test_rules(differences, expected) -> None:
    assert verdict(*evidence(*differences)) == expected


@pytest.mark.parametrize("differences", [r.values[0] for r in RULES if r.values[1][0] == "review"])
def test_no_cosine_rescues_a_changed_meaning(differences) -> None:
    assert verdict(*evidence(*differences), cosine=1.0)[0] == "review"


@pytest.mark.parametrize(("gap", "status", "reasons"), [
    (Elision(" um, uh, ", 2, 0, shown="disfluency"), "verified",
     ["ellipsis leaves out only fillers, repeats, false starts, timecodes or the speaker's own label: 'um, uh,'"]),
    (Elision(", which we discussed, ", 3, 0, shown="aside"), "verified",
     ["ellipsis leaves out an aside: ', which we discussed,'"]),
    (Elision(" Nobody came. ", 2, 1, shown="sentences"), "verified",
     ["ellipsis leaves out 1 whole sentence of the same turn"]),
    (Elision(" proper ", 1, 0, left_out="proper"), "review", ["ellipsis leaves out 'proper'"]),
    (Elision(" did not ", 2, 0, hidden=(("negation", "not"),), left_out="did not"), "review",
     ["ellipsis leaves out 'did not', which holds 'not'"]),
    (Elision(" unless we agree ", 3, 0, hidden=(("condition", "unless"),), left_out="unless we agree"), "review",
     ["ellipsis leaves out 'unless we agree', which holds 'unless'"]),
    (Elision(" Nobody came. ", 2, 1, left_out="Nobody came.", points_back="that"), "review",
     ["the sentence kept after the ellipsis opens with 'that', which may point back into the 1 sentence it "
      "leaves out: 'Nobody came.'"]),
    (Elision(" Yes. ", 1, 1, speakers=("Maria", "Interviewer")), "review",
     ["the ellipsis joins Maria's words to Interviewer's"]),
    (Elision(" x " * 40, 40, 0, hidden=tuple(("negation", f"n{k}") for k in range(9)) + tuple(
        ("number", str(k)) for k in range(5)), left_out="x x x"), "review",
     ["ellipsis leaves out 'x x x': 40 words, including 9 negations and 5 numbers"]),
])
def test_what_an_ellipsis_may_leave_out(gap: Elision, status: str, reasons: list[str]) -> None:
    """Only what a test showed empty (fillers, an aside, whole sentences of the turn) may be left out."""
    assert verdict(*evidence(("elision", "...", gap.text), elided=(gap,))) == (status, "elided", reasons)


def _p_change(*differences, elided: tuple[Elision, ...] = ()):
    alignment, comparison = evidence(*differences, elided=elided)
    v = classify(Quote(row=2, quote_id="q1", text="x"), alignment, comparison, None, verdict=VERDICT,
                 setting=Setting(True))
    assert v.status == "review" and v.p_change is not None
    return v


def test_what_is_at_stake_in_an_omission() -> None:
    """An omission that inverts (a negation, a number) or joins two speakers is likelier a change than one of a
    content word, which is likelier one than words that name nothing ("you --")."""
    def omitting(gap: Elision):
        return _p_change(("elision", "...", gap.text), elided=(gap,))

    negation = omitting(Elision(" did not ", 2, 0, hidden=(("negation", "not"),), left_out="did not"))
    number = omitting(Elision(" in 2019 ", 2, 0, hidden=(("number", "2019"),), left_out="in 2019"))
    speakers = omitting(Elision(" Yes. ", 1, 1, speakers=("Maria", "Interviewer")))
    content = omitting(Elision(" proper ", 1, 0, left_out="proper"))
    nothing = omitting(Elision(" you -- ", 1, 0, left_out="you --"))
    assert min(negation.p_change, number.p_change, speakers.p_change) > content.p_change > nothing.p_change
    assert (negation.severity, number.severity, speakers.severity) == ("high", "high", "high")


@pytest.mark.parametrize(("gap", "words", "expected"), [
    (Elision(", but I never did them", 5, 0, hidden=(("contrast", "but"),), left_out=", but I never did them",
             where="after", marked=False), 7,
     ("review", ["the quote ends inside a sentence that goes on ', but I never did them', whose 'but' may turn "
                 "what it says"])),
    (Elision("They say", 2, 0, hidden=(("reporting", "they say"),), left_out="They say", where="before",
             marked=False), 3,
     ("verified", ["a short quote: the sentence it starts in goes on 'They say' ('they say'); read it in context"])),
    (Elision(", and then we went home", 5, 0, left_out=", and then we went home", where="after", shown="clause"),
     7, ("verified", [])),
    (Elision(" for those who use it", 5, 0, left_out="for those who use it", where="after"), 7,
     ("review", ["the ellipsis where the quote ends leaves out 'for those who use it', which is part of the "
                 "sentence it cuts"])),
])
def test_what_a_cut_sentence_goes_on_with(gap: Elision, words: int, expected) -> None:
    """An excerpt's cut edge: the rest of its sentence must not turn it (a short quote gets a note); an
    ellipsis at either end leaves out only what a test shows empty."""
    alignment, comparison = evidence(("excerpt" if not gap.marked else "elision", "", gap.text), elided=(gap,))
    alignment = Alignment("fuzzy", alignment.segments, words, 3.0, 2.0)
    v = classify(Quote(row=2, quote_id="q1", text="x"), alignment, comparison, None, verdict=VERDICT,
                 setting=Setting(True))
    assert (v.status, list(v.reasons)) == expected


def test_an_ellipsis_in_a_language_without_lexicon_needs_review() -> None:
    gap = Elision(" and then ", 2, 0, left_out="and then")
    alignment, comparison = evidence(("elision", "...", gap.text), elided=(gap,))
    v = classify(Quote(row=2, quote_id="q1", text="a quote"), alignment, comparison, None, verdict=VERDICT,
                 setting=Setting(True, language="hu", has_lexicon=False))
    assert (v.status, v.reasons) == ("review", ("ellipsis inside a sentence: the language (hu) has no lexicon "
                                                "to check what it leaves out: 'and then'",))


def test_long_elision_needs_review() -> None:
    gap = Elision(" word" * 151, 151, 0, shown="disfluency")
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


@pytest.mark.parametrize(("differences", "severity"), [
    ((("number", "50", "15"),), "high"),
    ((("negation", "", "not"),), "high"),
    ((("word", "classes", "sessions"),), "high"),
    ((("splice", "piece", "interview-02 line 2"),), "high"),
    ((("word", "", "you"),), "low"),
    ((("typo", "aprove", "approve"), ("speech_act", ".", "?"), ("number", "50", "15")), "high"),
    ((("normalization", "The", "the"),), ""),
])
def test_every_review_says_what_is_at_stake(differences, severity: str) -> None:
    """high: a claim altered or inverted is the likeliest change (p_change at least confidence.change_high); low:
    only words that name nothing; a verified quote has none. The severity is p_change's, by the config's
    thresholds."""
    alignment, comparison = evidence(*differences)
    v = classify(Quote(2, "q1", "x"), alignment, comparison, None, verdict=VERDICT, setting=Setting(True))
    assert v.severity == severity
    if v.status == "review":
        c = load_config().confidence
        assert v.severity == ("high" if v.p_change >= c.change_high else
                              "medium" if v.p_change >= c.change_medium else "low")


def test_a_misattribution_is_high() -> None:
    quote = Quote(row=2, quote_id="q1", text="x", claimed_document="interview-03")
    alignment, comparison = evidence(("speech_act", ".", "?"))
    v = classify(quote, alignment, comparison, None, verdict=VERDICT, setting=Setting(True))
    assert (v.status, v.severity) == ("review", "high")


def test_review_is_never_high_confidence() -> None:
    for rule in RULES:
        alignment, comparison = evidence(*rule.values[0])
        v = classify(Quote(2, "q1", "x"), alignment, comparison, 1.0, verdict=VERDICT, setting=Setting(True))
        assert 0.0 <= v.confidence <= 1.0
        assert v.band == band(v.confidence)
        if v.status == "review":
            assert v.confidence < 0.8
        else:
            assert v.confidence >= 0.8
