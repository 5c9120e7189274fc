"""Tokens of normalized text, and the editorial markup of quotes.

Matching works on word tokens; punctuation tokens only matter to the diff.
The patterns are plain regular expressions in the manner of NLTK's
``RegexpTokenizer`` (importing nltk itself costs about two seconds a run).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

WORD = re.compile(r"\d+(?:[.,]\d+)+|\w+(?:'\w+)*")
TOKEN = re.compile(r"\d+(?:[.,]\d+)+|\w+(?:'\w+)*|[^\w\s]")
FILLERS = frozenset(
    "um uh er erm ah eh hm hmm mm mhm uhm huh mm-hmm uh-huh".split())
# Stage directions in transcripts: "(laughs)", "[inaudible]", "(vocalsound)".
_NONSPEECH = re.compile(r"[(\[][\w' -]{1,30}[)\]]")
_ELLIPSIS = re.compile(r"[\[(] ?(?:\. ?){3,}[\])]|(?:\. ?){2,}\.")
_BRACKET = re.compile(r"\[([^\[\]]{0,200})\]")


@dataclass(frozen=True)
class WordTokens:
    """The word tokens of one normalized text: text and normalized char spans.

    ``weak`` marks tokens a speaker did not mean as content (fillers, stage
    directions, a word repeated): leaving them out of a quote is a disfluency edit.
    """

    words: list[str]
    starts: np.ndarray
    ends: np.ndarray
    weak: np.ndarray

    def __len__(self) -> int:
        return len(self.words)


def word_tokens(text: str) -> WordTokens:
    """Word tokens of a normalized text, with weak tokens marked."""
    words, starts, ends = [], [], []
    for m in WORD.finditer(text):
        words.append(m.group())
        starts.append(m.start())
        ends.append(m.end())
    starts_a = np.asarray(starts, dtype=np.int64)
    ends_a = np.asarray(ends, dtype=np.int64)
    weak = np.fromiter((w in FILLERS for w in words), dtype=bool, count=len(words))
    for m in _NONSPEECH.finditer(text):
        lo, hi = np.searchsorted(starts_a, [m.start(), m.end()])
        weak[lo:hi] = True
    for i in range(1, len(words)):
        if words[i] == words[i - 1]:
            weak[i] = True
    return WordTokens(words, starts_a, ends_a, weak)


def all_tokens(text: str) -> list[tuple[str, int, int]]:
    """Word and punctuation tokens of a normalized text: (text, start, end)."""
    return [(m.group(), m.start(), m.end()) for m in TOKEN.finditer(text)]


@dataclass(frozen=True)
class QuotePart:
    """One stretch of a quote: literal text or an editorial mark.

    kind: ``text`` (to be found in the source), ``editorial`` (a bracketed
    insertion standing for source words), ``sic`` (a bracketed note standing for
    nothing) or ``ellipsis``. start/end index the normalized quote.
    """

    kind: str
    start: int
    end: int


def quote_parts(text: str) -> list[QuotePart]:
    """Split a normalized quote into literal text, brackets and ellipses."""
    marks: list[QuotePart] = []
    for m in _ELLIPSIS.finditer(text):
        marks.append(QuotePart("ellipsis", m.start(), m.end()))
    for m in _BRACKET.finditer(text):
        if any(p.start <= m.start() < p.end for p in marks):
            continue
        inner = m.group(1).strip()
        a, b = m.span()
        if inner.rstrip("!.") == "sic":
            marks.append(QuotePart("sic", a, b))
            continue
        # An insertion swallows the word characters glued to it: "[the remote]'s".
        while b < len(text) and (text[b].isalnum() or text[b] == "'"):
            b += 1
        marks.append(QuotePart("editorial", a, b))
    marks.sort(key=lambda p: p.start)
    parts: list[QuotePart] = []
    pos = 0
    for mark in marks:
        if mark.start > pos:
            parts.append(QuotePart("text", pos, mark.start))
        parts.append(mark)
        pos = mark.end
    if pos < len(text):
        parts.append(QuotePart("text", pos, len(text)))
    return parts
