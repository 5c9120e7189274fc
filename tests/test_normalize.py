"""normalize(): the normalized form of real-world text, and the offset map back to the original."""
from __future__ import annotations

import numpy as np
import pytest

from quoteverify.sources.normalize import normalize
from quoteverify.sources.tokenize import word_tokens

# (original, normalized): what quotes and transcripts really contain.
CASES = [
    # curly quotes and apostrophes
    ("\u201cHello,\u201d she said.", '"hello," she said.'),
    ("don\u2019t", "don't"),
    ("It\u2019s \u2018fine\u2019", "it's 'fine'"),
    ("\u201eGut\u201c, sagte er", '"gut", sagte er'),
    ("\u00abOui\u00bb", '"oui"'),
    ("the 90\u2032s", "the 90's"),
    # dashes
    ("yes\u2014no", "yes-no"),
    ("10\u201312 people", "10-12 people"),
    ("I think \u2013 I think", "i think - i think"),
    ("\u22125 degrees", "-5 degrees"),
    ("non\u2011breaking hyphen", "non-breaking hyphen"),
    # ellipsis character
    ("wait\u2026 what", "wait... what"),
    # NBSP and other spaces
    ("15\u00a0volunteers", "15 volunteers"),
    ("a\u00a0\u00a0b", "a b"),
    ("a\u2009thin\u202fspace", "a thin space"),
    ("line\u2028separator", "line separator"),
    # zero-width characters and the byte-order mark are removed
    ("zero\u200bwidth", "zerowidth"),
    ("join\u200ders", "joiners"),
    ("word\u2060joiner", "wordjoiner"),
    ("\ufeffThe start", "the start"),
    # soft hyphen
    ("co\u00adoperate", "cooperate"),
    # line endings and wraps
    ("line one\r\nline two", "line one line two"),
    ("old mac\rline", "old mac line"),
    ("the first\nmonth", "the first month"),
    ("paragraph.\n\nNext one.", "paragraph. next one."),
    ("ends with a wrap \r\n", "ends with a wrap"),
    # runs of whitespace, tabs, leading and trailing space
    ("  lead  and   trail  ", "lead and trail"),
    ("tab\t\there", "tab here"),
    # case
    ("MiXeD CaSe", "mixed case"),
    ("Stra\u00dfe", "strasse"),
    ("\u0391\u0392\u0393", "\u03b1\u03b2\u03b3"),  # Greek stays Greek
    # ligatures and compatibility forms (NFKC)
    ("the \ufb01rst \ufb02oor", "the first floor"),
    ("e\ufb00ort", "effort"),
    ("\uff21\uff22\uff23\uff11\uff12", "abc12"),
    # emoji are kept
    ("great \U0001F600 work", "great \U0001F600 work"),
    # combining marks are composed, precomposed letters kept: no diacritic stripping
    ("cafe\u0301", "caf\u00e9"),
    ("CAFE\u0301", "caf\u00e9"),
    ("caf\u00e9", "caf\u00e9"),
    ("na\u00efve", "na\u00efve"),
    ("e\u0301te\u0301", "\u00e9t\u00e9"),
    # nothing at all
    ("", ""),
    (" \r\n\t ", ""),
]


@pytest.mark.parametrize(("original", "expected"), CASES)
def test_normalized_text(original: str, expected: str) -> None:
    assert normalize(original).text == expected


@pytest.mark.parametrize(("original", "expected"), CASES)
def test_offsets_point_into_the_original(original: str, expected: str) -> None:
    norm = normalize(original)
    assert len(norm.offsets) == len(norm.text)
    assert norm.original == original
    if len(norm.offsets):
        assert np.all(np.diff(norm.offsets) >= 0)
        assert 0 <= norm.offsets[0] and norm.offsets[-1] < len(original)


@pytest.mark.parametrize(("original", "expected"), CASES)
def test_every_token_round_trips(original: str, expected: str) -> None:
    """The original slice under each normalized word normalizes back to that word."""
    norm = normalize(original)
    tokens = word_tokens(norm.text)
    for word, lo, hi in zip(tokens.words, tokens.starts, tokens.ends):
        a, b = norm.to_original(int(lo), int(hi))
        assert normalize(original[a:b]).text == word


# (original, normalized passage, the original slice it must map to)
SPANS = [
    ("We lost 15\r\nvolunteers.", "lost 15 volunteers", "lost 15\r\nvolunteers"),
    ("We lost 15\u00a0volunteers.", "15 volunteers.", "15\u00a0volunteers."),
    ("the \ufb01rst month", "first", "\ufb01rst"),
    ("the \ufb01rst month", "the first", "the \ufb01rst"),
    ("Stra\u00dfe 5", "strasse", "Stra\u00dfe"),
    ("un cafe\u0301 noir", "caf\u00e9", "cafe\u0301"),
    ("un cafe\u0301 noir", "caf\u00e9 noir", "cafe\u0301 noir"),
    ("zero\u200bwidth", "zerowidth", "zero\u200bwidth"),
    ("She said \u201cno\u201d.", '"no"', "\u201cno\u201d"),
    ("wait\u2026 what", "...", "\u2026"),
    ("a  \t b", "a b", "a  \t b"),
    ("  Indented", "indented", "Indented"),
    ("I think \u2014 I think", "think - i", "think \u2014 I"),
]


@pytest.mark.parametrize(("original", "passage", "expected"), SPANS)
def test_to_original(original: str, passage: str, expected: str) -> None:
    norm = normalize(original)
    lo = norm.text.index(passage)
    a, b = norm.to_original(lo, lo + len(passage))
    assert original[a:b] == expected


def test_empty_span_maps_to_a_position() -> None:
    norm = normalize("ab cd")
    assert norm.to_original(3, 3) == (3, 3)
    assert norm.to_original(5, 5) == (5, 5)


def test_crlf_counts_as_two_characters() -> None:
    text = "one\r\ntwo\r\nthree"
    norm = normalize(text)
    lo = norm.text.index("three")
    assert norm.to_original(lo, lo + 5) == (10, 15)
    assert text[10:15] == "three"


def test_normalizing_twice_changes_nothing() -> None:
    for original, expected in CASES:
        assert normalize(expected).text == expected
