"""Honest edits the verdict contract shows benign since 39c2e5f, each beside the meaning changes that look like it.

docs/contract.md ("Each test added on 2026-12-07, measured both ways", "What may be left out", the rows
"editorial bracket" and "markup"). Every case runs the whole pipeline on a small document written for it, so
what is tested is what a user gets: status, match type and the exact reasons. The ids say what a case is:

- ``honest-``: an edit a careful editor makes, which the rules of 39c2e5f verify (review on 28f8fea; for the
  source's own "[inaudible]" and a speaker's label the quote opens with, verified there as another match type);
- ``caught-``: a change of meaning those rules newly send to review (verified on 28f8fea);
- ``control-``: a look-alike change of meaning, review before and after (a few with other reasons on 28f8fea),
  or an honest edit verified before and after;
- ``leak-``: a change of meaning the first version of those rules (39c2e5f) verified (review on 28f8fea), caught
  since they were narrowed (and two of them taken back: a name for he/she, a gloss of we/you, from earlier in the
  turn) after these tests and the adversarial probe (benchmarks/adversarial_rules) found the leaks.

Cases marked xfail (strict) are honest edits still in review: the mark's reason says why; the test asserts the right
status.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import NO_EMBED
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import quoteverify
from quoteverify.model.types import Difference


def verify(text: str, quote: str | dict):
    (result,) = quoteverify.verify({"doc": text}, [quote], NO_EMBED)
    assert result.document == "doc", result.reasons
    return result


def check(text: str, quote: str | dict, status: str, match_type: str | None, reasons: list[str] | None) -> None:
    """The verdict; a case that only fixes the status (a bug's right verdict, whose reason is not written yet) gives
    no match type and no reasons."""
    result = verify(text, quote)
    if match_type is None:
        assert result.status == status, (result.reasons, result.differences)
        return
    # The reasons' order is p_change's (those that raise it most first: tests/test_odds.py); here, which they are.
    assert (result.status, result.match_type, sorted(result.reasons)) == (status, match_type, sorted(reasons)), \
        result.differences


def bug(reason: str):
    return pytest.mark.xfail(strict=True, reason=reason)


# --- the rest of a sentence a quote cuts (no ellipsis) -------------------------------------------------------------

# An encyclopedia's passage, as people quote phrases out of it: a title, a blank line, the text; no speaker labels.
ARTICLE = (
    "Pongal\n\n"
    "Pongal is a harvest festival celebrated in various states of India. Jane Roe sued the company under the False "
    "Claims Act in 2009. Jane Roe, an assistant professor of law at the University of Leeds, said, \"The ruling is "
    "narrow.\" The Municipal Council of Leeds stated in 1922 that the bridge was unsafe. You Don't Know Jack is a quiz "
    "video game released in 1995. If You Leave is a song by the band, released in 1986. The album was reissued on "
    "vinyl in 2004, No 1 in the indie charts for a week. The single was played on every station that spring, No. 1 in "
    "four countries. The vicar ended the sermon by saying, \"There is none like God.\" The lens allows the eye -- the "
    "muscles around it -- to focus on near objects.\n"
)
# The same shapes where the rest does turn the kept words.
TURNED = (
    "The bridge was unsafe for heavy traffic, he said. The road was closed to all lorries, according to the engineer. "
    "The ferry was cheaper than the tunnel, said the minister. You don't know that it is a quiz video game released "
    "in 1995. The single was played on every station that summer, no one bought it though. The vicar never said "
    "\"There is none like God.\" The preacher ended by saying, \"Nothing is like the sea, and nothing like the sky.\" "
    "The board may not -- may withdraw from the whole project next year.\n"
)


def _goes_on(side: str, rest: str, words: str) -> list[str]:
    return [f"the quote {side} inside a sentence that goes on {rest}, whose {words} may turn what it says"]


CUT = [
    # A turning word one further on in a clause of the rest turns nothing ("states", "claims": verbs of saying).
    pytest.param(ARTICLE, "Pongal is a harvest festival celebrated", "verified", "exact", [],
                 id="honest-turning-word-not-opening-a-clause"),
    pytest.param(ARTICLE, "Jane Roe sued the company", "verified", "exact", [], id="honest-the-false-claims-act"),
    # A verb of saying with no subject of its own takes the kept words for its subject.
    pytest.param(ARTICLE, "an assistant professor of law at the University of Leeds", "verified", "exact", [],
                 id="honest-said-without-a-subject"),
    pytest.param(ARTICLE, "The Municipal Council of Leeds", "verified", "exact", [], id="honest-stated-in-1922"),
    pytest.param(TURNED, "The bridge was unsafe for heavy traffic", "review", "elided",
                 _goes_on("ends", "', he said'", "'said'"), id="control-he-said"),
    pytest.param(TURNED, "The road was closed to all lorries", "review", "elided",
                 _goes_on("ends", "', according to the engineer'", "'according to'"), id="control-according-to"),
    pytest.param(TURNED, "The ferry was cheaper than the tunnel", "review", "elided",
                 _goes_on("ends", "', said the minister'", "'said'"), id="control-said-the-minister"),
    # A clause written in capitals word by word is a title: no frame, no condition.
    pytest.param(ARTICLE, "is a quiz video game released in 1995.", "verified", "exact", [],
                 id="honest-a-title-before-the-cut"),
    pytest.param(ARTICLE, "is a song by the band, released in 1986.", "verified", "exact", [],
                 id="honest-a-title-that-opens-with-if"),
    pytest.param(TURNED, "it is a quiz video game released in 1995.", "review", "elided",
                 _goes_on("starts", "'You don't know that'", "'don't'"), id="control-no-title-before-the-cut"),
    # "No" before a number is no negation.
    pytest.param(ARTICLE, "The album was reissued on vinyl in 2004", "verified", "exact", [], id="honest-no-1"),
    pytest.param(ARTICLE, "The single was played on every station that spring", "verified", "exact", [],
                 id="honest-no.-1",
                 marks=bug("the sentence is read as ending at 'No.': the rest is ', No', a negation")),
    pytest.param(TURNED, "The single was played on every station that summer", "review", "elided",
                 _goes_on("ends", "', no one bought it though'", "'no'"), id="control-no-one"),
    # A quotation of the source, whole, is turned only by a denial or a doubt.
    pytest.param(ARTICLE, "There is none like God.", "verified", "exact", [], id="honest-a-whole-quotation"),
    pytest.param(ARTICLE, '"There is none like God."', "verified", "exact", [],
                 id="honest-a-whole-quotation-in-its-marks"),
    pytest.param(TURNED, "There is none like God.", "review", "elided",
                 _goes_on("starts", "'The vicar never said \"'", "'never', 'said'"), id="control-never-said"),
    pytest.param(TURNED, "Nothing is like the sea", "review", "elided",
                 _goes_on("starts", "'The preacher ended by saying, \"'", "'saying'"),
                 id="control-part-of-a-quotation"),
    # A pair of dashes sets an aside off; one dash and a restart take a word back.
    pytest.param(ARTICLE, "The lens allows the eye", "verified", "exact", [], id="honest-a-pair-of-dashes"),
    pytest.param(TURNED, "The board may not", "review", "elided",
                 _goes_on("ends", "'-- may withdraw from the whole project next year'", "'may withdraw from'"),
                 id="control-a-false-start-taken-back"),
]


@pytest.mark.parametrize(("text", "quote", "status", "match_type", "reasons"), CUT)
def test_the_rest_of_a_cut_sentence(text: str, quote: str, status: str, match_type: str, reasons: list[str]) -> None:
    check(text, quote, status, match_type, reasons)


# Changes of meaning at a cut edge that the rules of 39c2e5f let through (all review on 28f8fea).
LEAKS = (
    "The bridge was unsafe for heavy lorries, said Jane Roe, the county engineer. The tunnel was cheaper to run, "
    "Jane Roe said. The ferry was safer in winter, engineers said. The plan worked well in the towns, all of them "
    "except Leeds. We paid the staff on time, every month until March. The nurses were paid in full, or so the "
    "managers claim. In 2009, the council told the press that the road was unsafe for cyclists. The vicar denied "
    "saying, \"Nothing is like the sea.\" I doubt the bishop said \"The church will stay open.\" Nobody heard the "
    "mayor say \"The budget is safe.\"\n"
)


@pytest.mark.parametrize("quote", [
    pytest.param("The bridge was unsafe for heavy lorries", id="leak-said-jane-roe"),
    pytest.param("The tunnel was cheaper to run", id="leak-jane-roe-said"),
    pytest.param("The ferry was safer in winter", id="leak-engineers-said"),
    pytest.param("The plan worked well in the towns", id="leak-all-of-them-except-leeds"),
    pytest.param("We paid the staff on time", id="leak-every-month-until-march"),
    pytest.param("The nurses were paid in full", id="leak-or-so-the-managers-claim"),
    pytest.param("the road was unsafe for cyclists.", id="leak-told-the-press-after-an-opening-phrase"),
    pytest.param("Nothing is like the sea.", id="leak-denied-saying"),
    pytest.param("The church will stay open.", id="leak-i-doubt-the-bishop-said"),
    pytest.param("The budget is safe.", id="leak-nobody-heard-the-mayor-say"),
])
def test_a_cut_that_drops_what_turns_the_quote_is_not_verified(quote: str) -> None:
    result = verify(LEAKS, quote)
    assert result.status == "review", result.reasons
    assert "excerpt" in {d.kind for d in result.differences}, result.differences


def test_a_frame_before_the_cut_in_a_source_written_in_capitals() -> None:
    result = verify("CDR: OKAY. I DON'T THINK THE HATCH IS SAFE FOR THE NIGHT.\nCC: ROGER.\n",
                    "THE HATCH IS SAFE FOR THE NIGHT.")
    assert result.status == "review", result.reasons


# --- false starts left out -----------------------------------------------------------------------------------------

FALSE_STARTS = (
    "Interviewer: What worries you most about the winter?\n"
    "P1: Looking back, it is a -- it's a question I would put to the Treasury.\n"
    "P1: Looking back, I feel that I, um, that I helped them more than I knew.\n"
    "P2: I've enjoyed new ideas, and I wanna see -- you know, I'm looking for a place where the kids can play.\n"
    "P2: My worry is that these -- the GPs don't have the time.\n"
    "P3: So we can't -- we will open the ward in May.\n"
    "P3: To be frank, it is not a -- it's a matter for the council.\n"
    "P3: In the end I knew that I never, um, that I saved the practice.\n"
    "P4: We've tried new schools, and I don't wanna see -- you know, I'm hoping for a house by the sea.\n"
    "P4: Our fear is that these nurses -- the surgeons won't cope.\n"
    "P5: Well, it is a -- it's a question of money in the end.\n"
)


def _left_out(words: str) -> list[str]:
    return [f"disfluency: quote has nothing, source has '{words}'"]


FALSE_START_CASES = [
    pytest.param("Looking back, it's a question I would put to the Treasury.", "verified", "edited",
                 _left_out("it is a --"), id="honest-begun-again-through-a-contraction"),
    pytest.param("Looking back, I feel that I helped them more than I knew.", "verified", "edited",
                 _left_out("that I, um,"), id="honest-broken-off-with-a-filler"),
    pytest.param("I've enjoyed new ideas, and I'm looking for a place where the kids can play.", "verified", "edited",
                 _left_out("I wanna see -- you know,"), id="honest-past-a-filler-phrase"),
    pytest.param("My worry is that the GPs don't have the time.", "verified", "edited", _left_out("these --"),
                 id="honest-words-that-name-nothing-broken-off"),
    # A negation in the broken-off phrase must be said again; a content word broken off is content.
    pytest.param("So we will open the ward in May.", "review", "altered",
                 ["negation differs: quote says nothing, source says 'we can't --'"], id="control-we-can't--we-will"),
    pytest.param("To be frank, it's a matter for the council.", "review", "altered",
                 ["negation differs: quote says nothing, source says 'it is not a --'"],
                 id="control-a-negation-before-the-contraction"),
    pytest.param("In the end I knew that I saved the practice.", "review", "altered",
                 ["negation differs: quote says nothing, source says 'never, um, that I'"],
                 id="control-a-negation-before-the-filler"),
    pytest.param("We've tried new schools, and I'm hoping for a house by the sea.", "review", "altered",
                 ["negation differs: quote says nothing, source says 'I don't wanna see -- you know,'"],
                 id="control-a-negation-before-the-filler-phrase"),
    pytest.param("Our fear is that the surgeons won't cope.", "review", "paraphrase",
                 ["the quote leaves out 'these nurses --'"], id="control-a-content-word-broken-off"),
    pytest.param("Well, it's a question of money in the end.", "verified", "edited", _left_out("it is a --"),
                 id="honest-one-word-before-a-contraction-restart"),
]


@pytest.mark.parametrize(("quote", "status", "match_type", "reasons"), FALSE_START_CASES)
def test_a_false_start_left_out(quote: str, status: str, match_type: str, reasons: list[str]) -> None:
    check(FALSE_STARTS, quote, status, match_type, reasons)


# --- an ellipsis at a quote's edge ---------------------------------------------------------------------------------

EDGES = (
    "Interviewer: How did the team cope with the new rules?\n"
    "P1: We tried everything that spring. And actually, one of the nurses found the answer in an old manual.\n"
    "P1: Nobody had a plan at first. But, um, we built a rubric for it in the end.\n"
    "P1: We stayed at home all week, because it rained.\n"
    "P2: We kept the clinic open, unless it snowed.\n"
    "P2: We opened the hall on weekdays, but not on Sundays.\n"
    "P2: It was a long year. I don't think we wrote a single report about it.\n"
    "P2: We waited for months. No, the council paid for the van.\n"
    "P3: We have paid the staff on time, since March.\n"
)


def _edge(side: str, words: str, holds: str) -> list[str]:
    return [f"the ellipsis where the quote {side} leaves out '{words}', which holds {holds}"]


EDGE_CASES = [
    # Before the quote, words that join the sentence to the one before; after it, a clause giving a reason.
    pytest.param("... one of the nurses found the answer in an old manual.", "verified", "elided", [],
                 id="honest-and-actually"),
    pytest.param("... we built a rubric for it in the end.", "verified", "elided", [], id="honest-but-um"),
    pytest.param("We stayed at home all week ...", "verified", "elided", [], id="honest-because-it-rained"),
    pytest.param("We kept the clinic open ...", "review", "elided", _edge("ends", ", unless it snowed", "'unless'"),
                 id="control-unless"),
    pytest.param("We opened the hall on weekdays ...", "review", "elided",
                 _edge("ends", ", but not on Sundays", "'not', 'but'"), id="control-but-not"),
    pytest.param("... we wrote a single report about it.", "review", "elided",
                 _edge("starts", "I don't think", "'don't', 'think'"), id="control-i-don't-think"),
    pytest.param("... the council paid for the van.", "review", "elided", _edge("starts", "No,", "'no'"),
                 id="control-no-is-no-connective"),
    pytest.param("We have paid the staff on time ...", "review", None, None, id="leak-since-march"),
]


@pytest.mark.parametrize(("quote", "status", "match_type", "reasons"), EDGE_CASES)
def test_an_ellipsis_at_the_edge(quote: str, status: str, match_type: str, reasons: list[str]) -> None:
    check(EDGES, quote, status, match_type, reasons)


# --- whole sentences left out --------------------------------------------------------------------------------------

SENTENCES = (
    "Interviewer: Can you choose your own shifts?\n"
    "P1: Well, no. They tell you at the interview that you can pick your hours. No, you don't.\n"
    "Interviewer: And the weekends?\n"
    "P2: Not really. Do they let you swap a Saturday with a colleague? No, they don't. The rota comes out on Friday.\n"
)
# A transcript without labels: the sentence after a question may be another speaker's answer.
UNLABELLED = ("We moved to the coast in 1998. Was it the right call for the children? Oh, I don't think so. "
              "The schools there were good. The children loved the beach.\n")
_ONE = "ellipsis leaves out 1 whole sentence of the same turn"


def _answers(word: str, question: str) -> list[str]:
    return [f"the sentence kept after the ellipsis opens with '{word}', which may answer a question among the 1 "
            f"sentence it leaves out: '. {question}'"]


SENTENCE_CASES = [
    # What is left out holds a claim of its own, which the kept "No" may answer (a look-alike of the adversarial
    # probe's "So it has the energy source. ... No, we don't use that."): a person must look.
    pytest.param(SENTENCES, "Well, no. ... No, you don't.", "review", "elided",
                 ["the sentence kept after the ellipsis opens with 'no', which may point back into the 1 sentence it "
                  "leaves out: '. They tell you at the interview that you can pick your hou\u2026'"],
                 id="control-no-after-a-statement"),
    pytest.param(SENTENCES, "Not really. ... No, they don't.", "review", "elided",
                 _answers("no", "Do they let you swap a Saturday with a colleague?"), id="control-no-after-a-question"),
    pytest.param(SENTENCES, "Not really. ... The rota comes out on Friday.", "verified", "elided",
                 ["ellipsis leaves out 2 whole sentences of the same turn"], id="control-labelled-no-answer"),
    pytest.param(UNLABELLED, "We moved to the coast in 1998. ... Oh, I don't think so.", "review", "elided",
                 _answers("oh", "Was it the right call for the children?"), id="caught-unlabelled-after-a-question"),
    pytest.param(UNLABELLED, "Oh, I don't think so. ... The children loved the beach.", "verified", "elided", [_ONE],
                 id="control-unlabelled-after-a-statement"),
]


@pytest.mark.parametrize(("text", "quote", "status", "match_type", "reasons"), SENTENCE_CASES)
def test_whole_sentences_left_out(text: str, quote: str, status: str, match_type: str, reasons: list[str]) -> None:
    check(text, quote, status, match_type, reasons)


# --- editorial brackets ----------------------------------------------------------------------------------------------

MARKET = ("Interviewer: Where will the growth come from?\n"
          "P1: I think that market is going to grow in the next few years.\n")
QUESTIONS = ("Interviewer: What happens on the ward at night?\n"
             "P1: Not much, to be honest. It is quiet, mostly, until the pubs close.\n"
             "Interviewer: What about the care homes?\n"
             "P2: Well, that is a long story. They were the last to get any testing at all.\n")
# One long sentence that names no one and nothing a bracket below names: what the turn said before it is out of
# reach of "the sentence before" (verdict.bracket_context_words).
LONG = ("We started with two people on every shift, and the plan changed every week because people left for jobs in "
        "town, which paid more, and the managers had no budget to match them, so the gaps stayed open for months and "
        "the day staff covered what they could between their own long shifts upstairs and downstairs. ")
NIGHTS = "Interviewer: Who ran the night shift?\nP1: "
BUILT = "He was the one who built the rota in the end.\n"
STAYED = "We stayed late every night that winter.\n"


def _unmentioned(word: str, put_in: str) -> list[str]:
    return [f"the bracket names '{word}', which the speaker has not just mentioned",
            f"the quote puts in '{put_in}', which the source does not say"]


def _as_near_taken_back(pronoun: str) -> list[str]:
    return ["the bracket names 'matt', which the speaker has not just mentioned",
            f"wording differs: quote says '[Matt Westgate]', source says '{pronoun}'"]


_MATT = "[Matt Westgate] was the one who built the rota in the end."
_BRACKETED = ("verified", "normalized", [])

BRACKETS = [
    # A word put between a determiner and its noun is content, however common.
    pytest.param(MARKET, "I think that [good] market is going to grow in the next few years.", "review", "paraphrase",
                 ["the bracket adds 'good' to 'that market', which the speaker did not say",
                  "the quote puts in '[good]', which the source does not say"], id="caught-that-good-market"),
    pytest.param(MARKET, "I think that [organic] market is going to grow in the next few years.", "review",
                 "paraphrase", ["the bracket adds 'organic' to 'that market', which the speaker did not say",
                                "the quote puts in '[organic]', which the source does not say"],
                 id="control-that-organic-market"),
    # What the question before the turn named, among the turn's first words.
    pytest.param(QUESTIONS, "It [the ward] is quiet, mostly, until the pubs close.", *_BRACKETED,
                 id="honest-the-question-names-it"),
    pytest.param(QUESTIONS, "[The ward] is quiet, mostly, until the pubs close.", *_BRACKETED,
                 id="honest-the-question-names-what-it-replaces"),
    pytest.param(QUESTIONS, "They [care homes] were the last to get any testing at all.", *_BRACKETED,
                 id="honest-they-care-homes"),
    pytest.param(QUESTIONS, "It [the canteen] is quiet, mostly, until the pubs close.", "review", "paraphrase",
                 _unmentioned("canteen", "[the canteen]"), id="control-the-question-does-not-name-it"),
    pytest.param(QUESTIONS, "They [the hospitals] were the last to get any testing at all.", "review", "paraphrase",
                 _unmentioned("hospitals", "[the hospitals]"), id="control-they-the-hospitals"),
    # A name for he or she from earlier in the turn (a test taken back after the adversarial probe: a name of
    # the other sex, or of a body, was as often the one the turn named last), but from the question it answers.
    pytest.param(NIGHTS + "Matt Westgate ran it when I started. " + LONG + BUILT, _MATT, "review", "paraphrase",
                 _as_near_taken_back("He"), id="control-a-name-from-the-turn"),
    pytest.param("Interviewer: Tell me about Matt Westgate.\nP1: Oh, a long story. " + BUILT, _MATT, *_BRACKETED,
                 id="honest-a-name-from-the-question"),
    pytest.param(NIGHTS + "Matt Westgate ran it when I started, with Sarah Lee. " + LONG + BUILT, _MATT,
                 "review", "paraphrase", _as_near_taken_back("He"), id="control-another-name-in-the-sentence"),
    pytest.param(NIGHTS + "Matt Westgate ran it when I started. Sarah Lee took over later. " + LONG +
                 BUILT.replace("He", "She"), _MATT, "review", "paraphrase", _as_near_taken_back("She"),
                 id="control-another-name-nearer"),
    pytest.param(NIGHTS + "Matt Westgate ran it when I started. " + LONG + BUILT,
                 "[Sarah Lee] was the one who built the rota in the end.", "review", "paraphrase",
                 ["the bracket names 'sarah', which the speaker has not just mentioned",
                  "wording differs: quote says '[Sarah Lee]', source says 'He'"], id="control-a-name-not-said"),
    # A gloss of we or you from the turn or the question, not from the transcriber's parentheses.
    # A gloss of we or you from earlier in the turn: taken back after the probe (seven leaks: "we [the provinces]"
    # where "we" is the government set against them).
    pytest.param(NIGHTS + "The agency nurses came in at six. " + LONG + STAYED,
                 "We [the agency nurses] stayed late every night that winter.", "review", "paraphrase",
                 _unmentioned("agency", "[the agency nurses]"), id="control-we-glossed-from-the-turn"),
    pytest.param("Interviewer: How did the junior doctors manage?\nP1: Not well. Not well at all. "
                 "You stayed late every night that winter.\n",
                 "You [junior doctors] stayed late every night that winter.", *_BRACKETED,
                 id="honest-you-glossed-from-the-question"),
    pytest.param(NIGHTS + "The agency nurses came in at six. " + LONG + STAYED,
                 "We [the junior doctors] stayed late every night that winter.", "review", "paraphrase",
                 _unmentioned("junior", "[the junior doctors]"), id="control-we-glossed-with-words-not-said"),
    pytest.param(NIGHTS + "Yes. (The agency nurses laugh.) " + LONG + STAYED,
                 "We [the agency nurses] stayed late every night that winter.", "review", "paraphrase",
                 _unmentioned("agency", "[the agency nurses]"), id="control-we-glossed-from-parentheses"),
    pytest.param(NIGHTS + "(The agency nurses laugh.) " + LONG + STAYED,
                 "We [the agency nurses] stayed late every night that winter.", "review", None, None,
                 id="leak-we-glossed-from-parentheses-opening-the-turn"),
    pytest.param(NIGHTS + "Yes. (Matt Westgate nods.) " + LONG + BUILT, _MATT, "review", None, None,
                 id="leak-a-name-only-in-a-stage-direction"),
]


@pytest.mark.parametrize(("text", "quote", "status", "match_type", "reasons"), BRACKETS)
def test_an_editorial_bracket(text: str, quote: str, status: str, match_type: str, reasons: list[str]) -> None:
    check(text, quote, status, match_type, reasons)


# --- asides an ellipsis leaves out ----------------------------------------------------------------------------------

ASIDES = (
    "Interviewer: What went wrong that year?\n"
    "P1: We knew, and the statistics prove that, that the ward was short of staff all winter.\n"
    "P1: The captain decided, since he's the pilot, to turn the plane back to Denver.\n"
    "P1: People at the top, like Mr. McFarlane or Admiral Poindexter, knew about the shipments.\n"
    "P2: We had a number of, and a range of clinicians, so the rota worked in the end.\n"
    "P2: The board agreed, and not for the first time, that the budget was too small.\n"
    "P2: The council found, and the 2019 figures prove it, that the roads were unsafe.\n"
    "P2: The pilot waited, since he's not the captain, for the order to land.\n"
    "P2: Officials in the ministry, like Mr. Grant but not Admiral Hale, signed the letter.\n"
    "P2: People in the office, and Mr. Grant agreed, knew about the letter.\n"
)


def _holds(words: str, holds: str = "") -> list[str]:
    return [f"ellipsis leaves out '{words}'" + (f", which holds {holds}" if holds else "")]


ASIDE_CASES = [
    pytest.param("We knew ... that the ward was short of staff all winter.", "verified", "elided",
                 ["ellipsis leaves out an aside: ', and the statistics prove that,'"],
                 id="honest-a-clause-joined-by-and"),
    pytest.param("The captain decided ... to turn the plane back to Denver.", "verified", "elided",
                 ["ellipsis leaves out an aside: ', since he's the pilot,'"], id="honest-a-reason"),
    pytest.param("People at the top ... knew about the shipments.", "verified", "elided",
                 ["ellipsis leaves out an aside: ', like Mr. McFarlane or Admiral Poindexter,'"],
                 id="honest-examples-with-names"),
    pytest.param("We had a number of ... so the rota worked in the end.", "review", "elided",
                 _holds("and a range of clinicians"), id="control-after-a-word-that-names-nothing"),
    pytest.param("The board agreed ... that the budget was too small.", "review", "elided",
                 _holds("and not for the first time", "'not', 'first'"), id="control-an-aside-holding-not"),
    pytest.param("The council found ... that the roads were unsafe.", "review", "elided",
                 _holds("and the 2019 figures prove it", "'2019'"), id="control-an-aside-holding-a-number"),
    pytest.param("The pilot waited ... for the order to land.", "review", "elided",
                 _holds("since he's not the captain", "'not'"), id="control-a-reason-holding-not"),
    pytest.param("Officials in the ministry ... signed the letter.", "review", "elided",
                 _holds("like Mr. Grant but not Admiral Hale", "'not', 'but'"), id="control-examples-holding-but-not"),
    pytest.param("People in the office ... knew about the letter.", "review", "elided",
                 _holds("and Mr. Grant agreed"), id="control-a-name-in-a-clause-of-its-own"),
]


@pytest.mark.parametrize(("quote", "status", "match_type", "reasons"), ASIDE_CASES)
def test_an_aside_left_out(quote: str, status: str, match_type: str, reasons: list[str]) -> None:
    check(ASIDES, quote, status, match_type, reasons)


# --- speakers: a quote across two turns, a speaker's label a quote opens with ----------------------------------------

# Timecoded turns, as an air-to-ground transcript writes them: the timecode and label between two turns are markup.
RADIO = ("[00:01:05]\nLMP: Okay. Jack, how do you read?\n\n"
         "[00:01:09]\nCC: Fred, Houston is reading you loud and clear.\n\n"
         "[00:01:15]\nLMP: Okay. The pressure is holding at twenty.\n")
PLAIN = ("Maria: We lost fifteen volunteers.\n"
         "Interviewer: Why?\n"
         "Maria: The budget never came.\n"
         "James: The nurses stayed anyway.\n")
_LMP_CC = "runs across 2 speaker turns (LMP, CC)"

TURN_CASES = [
    pytest.param(RADIO, "Jack, how do you read? Fred, Houston is reading you loud and clear.", "review",
                 "misattributed", [_LMP_CC, "disfluency: quote has nothing, source has '[00:01:09] CC:'"],
                 id="caught-into-another-turn-without-its-label"),
    pytest.param(RADIO, "Fred, Houston is reading you loud and clear. Okay. The pressure is holding at twenty.",
                 "review", "misattributed", ["runs across 2 speaker turns (CC, LMP)",
                                             "disfluency: quote has nothing, source has '[00:01:15] LMP:'"],
                 id="caught-into-another-turn-without-its-label-2"),
    pytest.param(RADIO, "Jack, how do you read? CC: Fred, Houston is reading you loud and clear.", "verified",
                 "normalized", [_LMP_CC], id="control-the-label-kept"),
    pytest.param(PLAIN, "The budget never came. The nurses stayed anyway.", "review", "paraphrase",
                 ["runs across 2 speaker turns (Maria, James)", "the quote leaves out 'James:'"],
                 id="control-a-label-in-the-text-left-out"),
]


@pytest.mark.parametrize(("text", "quote", "status", "match_type", "reasons"), TURN_CASES)
def test_a_quote_across_turns(text: str, quote: str, status: str, match_type: str, reasons: list[str]) -> None:
    check(text, quote, status, match_type, reasons)


RECORDS = ("Interviewer: Where do you keep the records?\n"
           "P2: We kept all the files [in one location] for years, and the money went to [inaudible] after that.\n"
           "P1: We get a phone call every night from the ward.\n"
           "P3 [00:04:12]: The boxes stay in the office upstairs.\n")

MARKUP_CASES = [
    # The source's own brackets, quoted as it writes them, are verbatim.
    pytest.param("We kept all the files [in one location] for years", "verified", "exact", [], [],
                 id="honest-the-sources-own-bracket"),
    pytest.param("the money went to [inaudible] after that.", "verified", "exact", [], [],
                 id="honest-the-sources-inaudible"),
    pytest.param("the money went to [the council] after that.", "review", "paraphrase",
                 ["the bracket replaces 'inaudible'",
                  "wording differs: quote says '[the council]', source says '[inaudible]'"],
                 [Difference("word", "[the council]", "[inaudible]")], id="control-a-bracket-for-inaudible"),
    # A speaker's label the quote opens with claims that speaker.
    pytest.param("P1: We get a phone call every night from the ward.", "verified", "exact", [], [],
                 id="honest-the-speakers-label"),
    pytest.param("P3: The boxes stay in the office upstairs.", "verified", "normalized", [],
                 [Difference("markup", "P3:", "P3 [00:04:12]:")], id="honest-the-label-without-its-timecode"),
    pytest.param("P2: We get a phone call every night from the ward.", "review", "misattributed",
                 ["said by P1, not by claimed P2"], [Difference("markup", "P2:", "P1:")],
                 id="control-another-speakers-label"),
    pytest.param({"quote": "P1: We get a phone call every night from the ward.", "speaker": "P2"}, "review",
                 "misattributed", ["said by P1, not by claimed P2"], [],
                 id="control-a-speaker-claimed-beside-the-label"),
]


@pytest.mark.parametrize(("quote", "status", "match_type", "reasons", "differences"), MARKUP_CASES)
def test_brackets_and_labels_of_the_source(quote, status: str, match_type: str, reasons: list[str],
                                           differences: list[Difference]) -> None:
    result = verify(RECORDS, quote)
    # The reasons' order is p_change's (those that raise it most first: tests/test_odds.py); here, which they are.
    assert (result.status, result.match_type, sorted(result.reasons)) == (status, match_type, sorted(reasons)), \
        result.differences
    assert list(result.differences) == differences


VTT = """WEBVTT

00:00:01.000 --> 00:00:04.000
<v Interviewer>Where do you keep the records?</v>

00:00:04.500 --> 00:00:09.000
<v P1>We get a phone call every night from the ward.</v>

00:00:09.000 --> 00:00:12.000
<v P2>The files stay in the office upstairs.</v>
"""


@pytest.mark.parametrize(("quote", "status", "match_type", "reasons", "differences"), [
    pytest.param("P1: We get a phone call every night from the ward.", "verified", "normalized", [],
                 [Difference("markup", "P1:", "")], id="honest-the-speakers-label"),
    pytest.param("P2: We get a phone call every night from the ward.", "review", "misattributed",
                 ["said by P1, not by claimed P2"], [Difference("markup", "P2:", "")],
                 id="control-another-speakers-label"),
    pytest.param("from the ward. The files stay in the office upstairs.", "review", "misattributed",
                 ["runs across 2 speaker turns (P1, P2)"], [Difference("normalization", "ward. The files",
                                                                       "ward.\nThe files")],
                 id="caught-into-another-cue-without-its-label"),
    pytest.param("from the ward. P2: The files stay in the office upstairs.", "verified", "normalized",
                 ["runs across 2 speaker turns (P1, P2)"], None, id="honest-into-another-cue-with-its-label",
                 marks=bug("in a .vtt the label is not in the text: kept inside the quote it is a 'number' change, "
                           "left out the quote runs into another speaker's turn, so no quote across cues verifies")),
])
def test_a_speakers_label_in_subtitles(tmp_path: Path, quote: str, status: str, match_type: str,
                                       reasons: list[str], differences: list[Difference] | None) -> None:
    (tmp_path / "interview-07.vtt").write_text(VTT, encoding="utf-8")
    (result,) = quoteverify.verify([tmp_path], [quote], NO_EMBED)
    assert result.document == "interview-07", result.reasons
    # The reasons' order is p_change's (those that raise it most first: tests/test_odds.py); here, which they are.
    assert (result.status, result.match_type, sorted(result.reasons)) == (status, match_type, sorted(reasons)), \
        result.differences
    if differences is not None:
        assert list(result.differences) == differences


# --- properties: an aside joined by and/so or giving a reason -----------------------------------------------

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# Two halves of a sentence an aside may stand between; the halves hold no word of a contract class.
HALVES = [("We knew", "that the ward was short of staff all winter."),
          ("The captain decided", "to turn the plane back to Denver."),
          ("Our neighbours brought the boxes", "to the school on the hill."),
          ("The committee met the delegation", "in the hall after lunch.")]
OPENERS = ["and", "since", "because"]
SUBJECTS = ["the statistics", "the figures", "our records", "the inspectors", "they"]
VERBS = [("prove", "proved"), ("show", "showed"), ("confirm", "confirmed"), ("back", "backed")]


def _aside_case(data, *, negated: bool) -> tuple[str, str]:
    before, after = data.draw(st.sampled_from(HALVES))
    opener, subject = data.draw(st.sampled_from(OPENERS)), data.draw(st.sampled_from(SUBJECTS))
    verb, past = data.draw(st.sampled_from(VERBS))
    if negated:
        verb = data.draw(st.sampled_from([f"do not {verb}", f"never {past}", f"no longer {verb}", f"did not {verb}"]))
    text = f"Interviewer: Why?\nP1: {before}, {opener} {subject} {verb} it, {after}\n"
    return text, f"{before} ... {after}"


@SETTINGS
@given(st.data())
def test_an_aside_holding_a_negation_is_never_verified(data) -> None:
    text, quote = _aside_case(data, negated=True)
    result = verify(text, quote)
    assert result.status == "review", (text, result.reasons)
    assert result.match_type == "elided"


@SETTINGS
@given(st.data())
def test_the_same_aside_without_the_negation_is_verified(data) -> None:
    text, quote = _aside_case(data, negated=False)
    result = verify(text, quote)
    assert (result.status, result.match_type) == ("verified", "elided"), (text, result.reasons)
    assert result.reasons[0].startswith("ellipsis leaves out an aside: ', "), result.reasons
