"""Word tokens, weak tokens and the editorial markup of quotes."""
from __future__ import annotations

import pytest

from quoteverify.sources.normalize import normalize
from quoteverify.sources.tokenize import all_tokens, quote_parts, word_tokens


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
