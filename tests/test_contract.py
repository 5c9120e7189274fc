"""The verdict contract: each benign kind of difference passes a positive test; anything else is review.

Every case runs the whole pipeline on a small interview, so what is tested is
what a user gets: the status, the match type and the named differences.
"""
from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from wordfreq import zipf_frequency

import quoteverify
from quoteverify.judge.rules import Contract, bracket, slip
from quoteverify.model.config import load_config
from quoteverify.model.types import Difference

INTERVIEW = """Interviewer: Can you tell me about the clinic?
Maria: The clinic opened in 2019. My sister had bronchitis that winter, and she could not get an appointment.
Maria: The new director promised a 33 percent increase in staff, but only if the council agreed.
Maria: We were not able to hire anyone for six months. The bill would have made it easier. It would make it a criminal offence to close a rural clinic. Nobody voted for it.
Interviewer: And the volunteers?
Tom: The volunteers usually came on Mondays. They brought fifteen boxes of food every week, unless it rained.
Tom: Honestly, I think the plaintiffs failed to show that the clinic was at fault. We lost 50 volunteers in the first month.
[00:12:40]
Tom: It was a typical winter. The colour of the walls was grey. I’ve learned a lot since then.
Maria: Nowhere else in the county had a clinic like ours. Dr. Welsh ran it for ten years.
"""
DOCS = {"int-07": INTERVIEW}
CONFIG = {"embed": {"enabled": False}}


def check(quote: str):
    (result,) = quoteverify.verify(DOCS, [quote], config=CONFIG)
    return result


def kinds(result) -> set[str]:
    return {d.kind for d in result.differences}


# quote, status, match type, a difference kind it must name (None: any)
CASES = [
    # Slips: a spelling that is no word is a typo; another real word is a change of meaning.
    pytest.param("They brought fifteen boxes of food evrey week, unless it rained.", "verified", "edited", "typo",
                 id="slip-into-no-word"),
    pytest.param("The volunteers unusually came on Mondays.", "review", "paraphrase", "word", id="slip-into-a-word"),
    pytest.param("They bought fifteen boxes of food every week, unless it rained.", "review", "paraphrase",
                 "near_word", id="brought-bought"),
    pytest.param("Dr. Walsh ran it for ten years.", "review", "altered", "name", id="name-one-letter"),
    # Brackets: compared with what they replace.
    pytest.param("The new director promised a 33 percent [decrease] in staff, but only if the council agreed.",
                 "review", "paraphrase", "word", id="bracket-swaps-a-word"),
    pytest.param("The volunteers [rarely] came on Mondays.", "review", None, None, id="bracket-inserts-a-limiter"),
    pytest.param("My sister had bronchitis that winter, and [Mum] could not get an appointment.", "review",
                 "paraphrase", "word", id="bracket-referent-not-in-context"),
    pytest.param("[The bill] would make it a criminal offence to close a rural clinic.", "verified", "normalized",
                 "editorial", id="bracket-referent-in-context"),
    pytest.param("[T]he volunteers usually came on Mondays.", "verified", "normalized", "editorial",
                 id="bracket-case-change"),
    pytest.param("The volunteers usually came on Mondays [to the clinic].", "review", "paraphrase", "word",
                 id="bracket-adds-content"),
    pytest.param("They brought fifteen boxes of food [to] every week, unless it rained.", "verified", "normalized",
                 "editorial", id="bracket-adds-a-function-word"),
    # Ellipses: whole sentences of one turn, or words that carry nothing load-bearing.
    pytest.param("The new director promised a 33 percent increase in staff ... if the council agreed.", "review",
                 "elided", "elision", id="ellipsis-hides-only"),
    pytest.param("They brought fifteen boxes of food every week ...", "review", "elided", "elision",
                 id="ellipsis-hides-unless-at-the-end"),
    pytest.param("Honestly, I think the plaintiffs ... the clinic was at fault.", "review", "elided", "elision",
                 id="ellipsis-hides-failed-to-show"),
    pytest.param("We were not able to hire anyone for six months. ... Nobody voted for it.", "verified", "elided",
                 "elision", id="ellipsis-whole-sentences"),
    pytest.param("We were not able to hire anyone for six months. ... It would make it a criminal offence to "
                 "close a rural clinic.", "review", "elided", "elision", id="ellipsis-kept-sentence-points-back"),
    pytest.param("And the volunteers? ... The volunteers usually came on Mondays.", "review", "elided", "elision",
                 id="ellipsis-across-speakers"),
    # Joins and splits are checked in both forms.
    pytest.param("We were notable to hire anyone for six months.", "review", None, None, id="not-able-notable"),
    pytest.param("It was atypical winter. The colour of the walls was grey.", "review", "paraphrase", "word", id="a-typical-atypical"),
    pytest.param("Now here else in the county had a clinic like ours.", "review", "altered", "negation",
                 id="nowhere-now-here"),
    # Numbers: the same value in another form is benign, another value is not.
    pytest.param("They brought 15 boxes of food every week, unless it rained.", "verified", "normalized",
                 "number_format", id="number-digits-for-words"),
    pytest.param("The new director promised a 33% increase in staff, but only if the council agreed.", "verified",
                 "normalized", "number_format", id="number-percent-sign"),
    pytest.param("They brought sixteen boxes of food every week, unless it rained.", "review", "altered", "number",
                 id="number-another-value"),
    # Spelling variants, contractions, markup.
    pytest.param("The color of the walls was gray.", "verified", "normalized", "spelling", id="us-spelling"),
    pytest.param("I have learned a lot since then.", "verified", "edited", "contraction",
                 id="contraction-spelt-out-curly"),
    pytest.param("We lost 50 volunteers in the first month. It was a typical winter.", "verified", "normalized",
                 "markup", id="timecode-and-same-speaker-label"),
]


@pytest.mark.parametrize(("quote", "status", "match_type", "kind"), CASES)
def test_contract(quote: str, status: str, match_type: str | None, kind: str | None) -> None:
    result = check(quote)
    assert result.document == "int-07", result.reasons
    assert result.status == status, (result.reasons, result.differences)
    if match_type:
        assert result.match_type == match_type, (result.reasons, result.differences)
    if kind:
        assert kind in kinds(result), result.differences


def test_an_ellipsis_names_what_it_hides() -> None:
    result = check("The new director promised a 33 percent increase in staff ... if the council agreed.")
    assert result.reasons == ["ellipsis leaves out 'but only', which holds 'only', 'but'"]
    assert result.severity == "medium"


def test_an_ellipsis_across_speakers_names_them() -> None:
    result = check("And the volunteers? ... The volunteers usually came on Mondays.")
    assert "the ellipsis joins Interviewer's words to Tom's" in result.reasons


def test_whole_sentences_left_out_are_said() -> None:
    result = check("We were not able to hire anyone for six months. ... Nobody voted for it.")
    assert "ellipsis leaves out 2 whole sentences of the same turn" in result.reasons


def test_a_bracket_says_what_it_replaced() -> None:
    result = check("My sister had bronchitis that winter, and [Mum] could not get an appointment.")
    assert Difference("word", "[Mum]", "she") in result.differences
    assert "the bracket names 'mum', which the speaker has not just mentioned" in result.reasons


# --- a language without a lexicon: nothing but verbatim and normalization is benign ------------------------------

HUNGARIAN = Contract("hu", None, 1.5, 60)


def test_no_lexicon_no_slip() -> None:
    assert slip(HUNGARIAN, "házat", "házak") is False


def test_no_lexicon_no_bracket_that_replaces_words() -> None:
    assert bracket(HUNGARIAN, ["a", "tanács"], ["ő"], frozenset({"tanács"})).kind == "word"


# --- properties --------------------------------------------------------------------------------------------------

SENTENCES = [
    "The volunteers usually came on Mondays.",
    "My sister had bronchitis that winter, and she could not get an appointment.",
    "We were not able to hire anyone for six months.",
    "The bill would have made it easier.",
    "The colour of the walls was grey.",
]
ENGLISH = Contract.of("en", load_config().verdict)
_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def _one_edit(word: str) -> list[str]:
    """Every spelling one edit from ``word`` that keeps its first letter."""
    out = set()
    for k in range(1, len(word) + 1):
        out.add(word[:k] + word[k + 1:])
        for c in _LETTERS:
            out.add(word[:k] + c + word[k + 1:])
            out.add(word[:k] + c + word[k:])
    for k in range(1, len(word) - 1):
        out.add(word[:k] + word[k + 1] + word[k] + word[k + 2:])
    out.discard(word)
    return sorted(w for w in out if len(w) > 1)


def _substituted(sentence: str, index: int, real: bool, choice: int) -> str | None:
    words = [m for m in re.finditer(r"\b[a-z]{4,}\b", sentence)]  # lower-case content words: no names
    if not words:
        return None
    m = words[index % len(words)]
    word = m.group()
    if ENGLISH.is_negation(word):
        return None
    threshold = load_config().verdict.word_min_zipf
    candidates = [w for w in _one_edit(word) if not ENGLISH.lexicon.same_spelling(word, w)  # colour/color is benign
                  and (zipf_frequency(w, "en") >= 3.0 if real else zipf_frequency(w, "en") < threshold)]
    if not candidates:
        return None
    return sentence[:m.start()] + candidates[choice % len(candidates)] + sentence[m.end():]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, len(SENTENCES) - 1), st.integers(0, 20), st.integers(0, 500))
def test_a_real_word_for_another_is_never_verified(s: int, index: int, choice: int) -> None:
    quote = _substituted(SENTENCES[s], index, True, choice)
    assume(quote is not None)
    assert check(quote).status != "verified", quote


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, len(SENTENCES) - 1), st.integers(0, 20), st.integers(0, 500))
def test_a_slip_into_no_word_is_verified(s: int, index: int, choice: int) -> None:
    quote = _substituted(SENTENCES[s], index, False, choice)
    assume(quote is not None)
    result = check(quote)
    assert (result.status, result.match_type) == ("verified", "edited"), (quote, result.reasons)


def test_a_slip_that_misleads_the_language_detector_leaves_the_quote_in_its_sources_language() -> None:
    # lingua's trigrams read "six monthz" as Tswana (0.95 sure); nine of the ten words are the English source's.
    from quoteverify.sources.language import detect

    quote = "We were not able to hire anyone for six monthz."
    assert detect(quote, min_confidence=0.9) == "tn"
    result = check(quote)
    assert (result.status, result.match_type, result.language) == ("verified", "edited", "en"), result.reasons
    assert kinds(result) == {"typo"}
    # A language given with the quote is never overridden.
    (given,) = quoteverify.verify(DOCS, [{"quote": quote, "language": "de"}], config=CONFIG)
    assert given.language == "de"
