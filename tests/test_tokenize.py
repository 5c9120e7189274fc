"""Word tokens, weak tokens and the editorial markup of quotes."""
from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quoteverify.sources.normalize import normalize
from quoteverify.sources.tokenize import FILLERS, TIMECODE, WORD, _timecodes, all_tokens, quote_parts, word_tokens


def words(text: str) -> list[str]:
    return word_tokens(normalize(text).text).words


def weak(text: str) -> list[str]:
    tokens = word_tokens(normalize(text).text)
    return [w for w, is_weak in zip(tokens.words, tokens.weak) if is_weak]


@pytest.mark.parametrize(("text", "expected"), [
    ("We lost 15 volunteers.", ["we", "lost", "15", "volunteers"]),
    ("I don\u2019t know, they\u2019re gone", ["i", "don't", "know", "they're", "gone"]),
    ("It cost 1,500 euros, about 3.5 per cent.", ["it", "cost", "1,500", "euros", "about", "3.5", "per", "cent"]),
    ("a well-known -- er -- problem", ["a", "well", "known", "er", "problem"]),
    ("Project Manager: Okay.", ["project", "manager", "okay"]),
    ("(laughs) Yes [inaudible].", ["laughs", "yes", "inaudible"]),
    ("caf\u00e9 na\u00efve", ["caf\u00e9", "na\u00efve"]),
    ("", []),
    ("... -- !", []),
])
def test_word_tokens(text: str, expected: list[str]) -> None:
    assert words(text) == expected


def test_word_token_offsets_index_the_normalized_text() -> None:
    norm = normalize("Honestly,  um, it was\nharder.")
    tokens = word_tokens(norm.text)
    assert [norm.text[a:b] for a, b in zip(tokens.starts, tokens.ends)] == tokens.words
    assert len(tokens) == 5


@pytest.mark.parametrize(("text", "expected"), [
    ("Honestly, um, it was harder than we expected.", ["um"]),
    ("uh I hope uh er erm ah hmm mhm", ["uh", "uh", "er", "erm", "ah", "hmm", "mhm"]),
    ("Mm-hmm. Okay.", ["mm", "hmm"]),
    ("I said (laughs) we were naive", ["laughs"]),
    ("Let's start with the ladies (laughs) (laughs).", ["laughs", "laughs"]),
    ("and then [inaudible] we left", ["inaudible"]),
    ("[crosstalk] right", ["crosstalk"]),
    ("I I think the the plan", ["i", "the"]),
    ("so so so", ["so", "so"]),
    ("The committee did not approve the budget.", []),
    ("It is. It is.", []),  # a repeated sentence is not a stutter
])
def test_weak_tokens(text: str, expected: list[str]) -> None:
    assert weak(text) == expected


def test_all_tokens_keep_punctuation() -> None:
    text = normalize("Well -- I said \u201cno\u201d.").text
    assert [t for t, _, _ in all_tokens(text)] == ["well", "-", "-", "i", "said", '"', "no", '"', "."]
    assert all(text[a:b] == t for t, a, b in all_tokens(text))


def parts(quote: str) -> list[tuple[str, str]]:
    text = normalize(quote).text
    return [(p.kind, text[p.start:p.end]) for p in quote_parts(text)]


@pytest.mark.parametrize(("quote", "expected"), [
    ("We lost 15 volunteers", [("text", "we lost 15 volunteers")]),
    ("We lost ... the clinic", [("text", "we lost "), ("ellipsis", "..."), ("text", " the clinic")]),
    ("We lost \u2026 the clinic", [("text", "we lost "), ("ellipsis", "..."), ("text", " the clinic")]),
    ("We lost [...] the clinic", [("text", "we lost "), ("ellipsis", "[...]"), ("text", " the clinic")]),
    ("We lost (...) the clinic", [("text", "we lost "), ("ellipsis", "(...)"), ("text", " the clinic")]),
    ("We lost [ \u2026 ] the clinic", [("text", "we lost "), ("ellipsis", "[ ... ]"), ("text", " the clinic")]),
    ("We lost. . . the clinic", [("text", "we lost"), ("ellipsis", ". . ."), ("text", " the clinic")]),
    ("...and then", [("ellipsis", "..."), ("text", "and then")]),
    ("and then...", [("text", "and then"), ("ellipsis", "...")]),
    ("[the committee] did not", [("editorial", "[the committee]"), ("text", " did not")]),
    ("Then [the committee] did", [("text", "then "), ("editorial", "[the committee]"), ("text", " did")]),
    ("[the remote]'s the thing", [("editorial", "[the remote]'s"), ("text", " the thing")]),
    ("we [sic] looked", [("text", "we "), ("sic", "[sic]"), ("text", " looked")]),
    ("we [SIC] looked", [("text", "we "), ("sic", "[sic]"), ("text", " looked")]),
    ("we [sic!] looked", [("text", "we "), ("sic", "[sic!]"), ("text", " looked")]),
    ("a [...] b [it] c [sic] d", [("text", "a "), ("ellipsis", "[...]"), ("text", " b "), ("editorial", "[it]"),
                                  ("text", " c "), ("sic", "[sic]"), ("text", " d")]),
    ("two dots.. are not an ellipsis", [("text", "two dots.. are not an ellipsis")]),
    ("(laughs) is not editorial", [("text", "(laughs) is not editorial")]),
])
def test_quote_parts(quote: str, expected: list[tuple[str, str]]) -> None:
    assert parts(quote) == expected


def test_quote_parts_tile_the_text() -> None:
    text = normalize("A [the] b ... c [sic] d [...] e").text
    spans = quote_parts(text)
    assert spans[0].start == 0 and spans[-1].end == len(text)
    assert all(x.end == y.start for x, y in zip(spans, spans[1:]))


# ------------------------------------------------------------------------------------------------
# The vectorised tokenizer equals the plain one it replaced: words by the WORD pattern, timecodes by
# TIMECODE.finditer, set-off fillers by the _SET_OFF pattern between the words.

_SET_OFF = re.compile(r'[,;:()\[\]!?\n"]|\.|\s-|-\s')
_FILLER_PHRASES = frozenset({("you", "know"), ("i", "mean"), ("sort", "of"), ("like",), ("you", "know", "what")})


def _plain_tokens(text: str, fillers: frozenset[tuple[str, ...]]) -> tuple[list[str], list[int], list[bool]]:
    """The tokenizer written the slow, obvious way: (words, starts, weak)."""
    found = list(WORD.finditer(text))
    words, starts = [m.group() for m in found], [m.start() for m in found]
    ends = [m.end() for m in found]
    tokens = word_tokens(text)  # its weak marks before fillers are the repeats and stage directions
    weak = [w in FILLERS or bool(tokens.weak[k]) for k, w in enumerate(words)]
    for m in TIMECODE.finditer(text):
        for k in range(len(words)):
            if starts[k] >= m.start() and starts[k] < m.end():
                weak[k] = True

    def off(k: int, neighbour: int) -> bool:
        if k <= 0 or k >= len(words):
            return True
        return bool(_SET_OFF.search(text, ends[k - 1], starts[k])) or weak[neighbour]

    for k in range(len(words)):
        for phrase in sorted((p for p in fillers if p[0] == words[k]), key=len, reverse=True):
            n = len(phrase)
            if tuple(words[k:k + n]) == phrase and off(k, k - 1) and off(k + n, min(k + n, len(words) - 1)):
                weak[k:k + n] = [True] * n
                break
    return words, starts, weak


_WORDS = st.sampled_from(["you", "know", "i", "mean", "sort", "of", "like", "what", "the", "um", "12", "3", "00",
                          "don't", "2.5", "é", "_x", "10:30", "[01:02]", "00:12:40", "(laughs)", ""])
_GAPS = st.sampled_from([" ", " ", " ", "  ", "\t", "\u00a0", ", ", ".", ":", "; ", "-", " -", "- ", " - ", "'",
                         " (", ") ", "[", "]", "! ", "?", '"', "\n", ""])
_PIECES = st.tuples(_WORDS, _GAPS).map("".join)


@settings(max_examples=500, deadline=None)
@given(st.lists(_PIECES, max_size=40).map("".join))
def test_word_tokens_equal_the_plain_tokenizer(text: str) -> None:
    tokens = word_tokens(text, _FILLER_PHRASES)
    words, starts, weak_marks = _plain_tokens(text, _FILLER_PHRASES)
    assert tokens.words == words
    assert tokens.starts.tolist() == starts
    assert [bool(w) for w in tokens.weak] == weak_marks
    assert [m.span() for m in _timecodes(text)] == [m.span() for m in TIMECODE.finditer(text)]
