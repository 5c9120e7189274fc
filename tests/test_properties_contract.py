"""Properties of the verdict contract on generated transcripts: what a quote leaves out must be shown empty.

- a content word (noun, adjective, adverb, possessor) left out by an ellipsis inside a sentence is never verified;
- a filler, a repeat or a false start left out always is, with or without an ellipsis;
- a word with letters of two scripts is never verified;
- a slip into a real word of the language, however rare, is never a typo.
"""
from __future__ import annotations

from conftest import NO_EMBED
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from wordfreq import zipf_frequency

import quoteverify
from quoteverify.judge.rules import Contract, slip
from quoteverify.model.config import load_config

CONFIG = load_config(overrides=NO_EMBED)
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Sentence frames with one slot for a content word; the words around it carry no contract class.
FRAMES = [
    ("The nurses were denied access to {} protective equipment for the whole winter.", "adjective"),
    ("We spent the {} money on new beds for the ward upstairs.", "possessor"),
    ("The committee met the {} delegation in the hall after lunch.", "adjective"),
    ("She walked {} across the bridge to the old market every morning.", "adverb"),
    ("They painted the {} wall of the clinic a bright shade of green.", "adjective"),
    ("Our neighbours brought the {} boxes to the school on the hill.", "adjective"),
]
CONTENT = {
    "adjective": ["proper", "secret", "northern", "broken", "wooden", "foreign", "second-hand", "expensive"],
    "possessor": ["donors'", "council's", "parents'", "hospital's", "union's"],
    "adverb": ["slowly", "quietly", "happily", "carefully"],
}
ELLIPSES = ["...", "\u2026", "[...]", "(...)"]


def verify(text: str, quote: str):
    (result,) = quoteverify.verify({"int-01": "Maria: " + text + "\n"}, [quote], CONFIG)
    return result


@SETTINGS
@given(st.data())
def test_a_content_word_left_out_inside_a_sentence_is_never_verified(data) -> None:
    frame, role = data.draw(st.sampled_from(FRAMES))
    word = data.draw(st.sampled_from(CONTENT[role]))
    mark = data.draw(st.sampled_from(ELLIPSES))
    text = frame.format(word)
    before, after = frame.split("{}")
    quote = before.rstrip() + " " + mark + " " + after.lstrip()
    result = verify(text, quote)
    assert result.status != "verified", result.reasons
    assert result.document == "int-01"
    assert any(word.rstrip("'") in reason for reason in result.reasons), result.reasons


@SETTINGS
@given(st.data())
def test_a_filler_repeat_or_false_start_left_out_is_verified(data) -> None:
    frame, _ = data.draw(st.sampled_from(FRAMES))
    said = data.draw(st.sampled_from(["um", "uh, uh", ", you know,", ", I mean,", "(laughs)"]))
    before, after = frame.format("tidy").split(" tidy ")
    text = f"{before} {said} tidy {after}".replace(" ,", ",")
    quote = f"{before} tidy {after}"
    marked = data.draw(st.booleans())
    if marked:
        quote = f"{before} ... tidy {after}"
    result = verify(text, quote)
    assert result.status == "verified", (text, quote, result.reasons)
    assert result.document == "int-01"


@SETTINGS
@given(st.data())
def test_a_false_start_begun_again_left_out_is_verified(data) -> None:
    frame, _ = data.draw(st.sampled_from(FRAMES))
    words = frame.format("tidy").split()
    n = data.draw(st.integers(1, min(4, len(words) - 2)))
    broken = data.draw(st.integers(1, n))  # the false start breaks off after this many of the first n words
    false_start = " ".join(words[:broken])
    text = false_start + " -- " + " ".join(words)
    result = verify(text, " ".join(words))
    assert result.status == "verified", (text, result.reasons)
    assert result.document == "int-01"


HOMOGLYPHS = {"a": "\u0430", "e": "\u0435", "o": "\u043e", "p": "\u0440", "c": "\u0441"}


@SETTINGS
@given(st.data())
def test_a_word_with_two_scripts_is_never_verified(data) -> None:
    frame, role = data.draw(st.sampled_from(FRAMES))
    text = frame.format(CONTENT[role][0])
    words = text.split()
    candidates = [k for k, w in enumerate(words) if any(ch in HOMOGLYPHS for ch in w)]
    k = data.draw(st.sampled_from(candidates))
    letter = data.draw(st.sampled_from([ch for ch in words[k] if ch in HOMOGLYPHS]))
    words[k] = words[k].replace(letter, HOMOGLYPHS[letter], 1)
    result = verify(text, " ".join(words))
    assert result.status != "verified", result.reasons
    assert result.document == "int-01"


CONTRACT = Contract.of("en", CONFIG.verdict)
# Pairs one slip apart whose first is a real English word, rare or common.
REAL_WORD_SLIPS = [("indited", "invited"), ("captious", "cautious"), ("prize", "price"), ("form", "from"),
                   ("lat", "late"), ("aprove", "approve"), ("chip", "ship"), ("plastic", "elastic"),
                   ("then", "than"), ("quiet", "quite"), ("lose", "loose"), ("desert", "dessert")]


@given(st.sampled_from(REAL_WORD_SLIPS))
def test_a_real_word_of_any_frequency_is_never_a_typo(pair) -> None:
    quote_word, source_word = pair
    assert zipf_frequency(quote_word, "en") > 0  # the premise: the word list holds it
    assert not slip(CONTRACT, quote_word, source_word)


@given(st.sampled_from([("aprrove", "approve"), ("goverment", "government"), ("recieve", "receive")]))
def test_a_spelling_no_list_holds_is_a_typo_if_the_list_lacks_it(pair) -> None:
    quote_word, source_word = pair
    assert slip(CONTRACT, quote_word, source_word) == (zipf_frequency(quote_word, "en") == 0)
