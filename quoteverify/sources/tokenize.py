"""Tokens of normalized text, and the editorial markup of quotes.

Matching works on word tokens; punctuation tokens only matter to the diff.
The patterns are plain regular expressions in the manner of NLTK's
``RegexpTokenizer`` (importing nltk itself costs about two seconds a run).
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

# A word: word characters, joined across an apostrophe between word characters
# ("don't") and across a point or comma between digits ("2.5", "30,000").
# _word_mask() below is the same definition, vectorised for whole documents.
WORD = re.compile(r"\w+(?:(?:'|(?<=[0-9])[.,](?=[0-9]))\w+)*")
TOKEN = re.compile(WORD.pattern + r"|[^\w\s]")
FILLERS = frozenset(
    "um uh er erm ah eh hm hmm mm mhm uhm huh mm-hmm uh-huh".split())
# Stage directions in transcripts: "(laughs)", "[inaudible 00:12]", "(vocalsound)", "[long pause]";
# not any aside in brackets: "(except the doctors)" is something the speaker said.
_NONSPEECH = re.compile(
    r"[(\[](?:\w+ )?(?:laugh\w*|chuckl\w*|giggl\w*|inaudible|unintelligible|indistinct|crosstalk|"
    r"overlapping|pause\w*|silence|sigh\w*|cough\w*|clears throat|vocalsound|noise|music|applause|"
    r"interruption|unclear|background|beep\w*|breath\w*|gap|static|sound)\b[\w' :.-]{0,20}[)\]]",
    re.IGNORECASE)
# A timecode in a transcript's text: bracketed ("[12:31]", "(00:12:40)", "[01:02:03:04]") or, without brackets,
# with hours ("00:12:40", "01:02:03:04"); "10:30 we met" is a time someone said, not a timecode.
TIMECODE = re.compile(r"[\[(]\d{1,2}(?::\d{2}){1,3}(?:[.,]\d{1,3})?[\])]"
                      r"|(?<![\w:])\d{1,2}(?::\d{2}){2,3}(?:[.,]\d{1,3})?(?![\w:])")
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


_ASCII_WORD = np.array([chr(c).isalnum() or chr(c) == "_" for c in range(128)], dtype=bool)


def _per_character(cp: np.ndarray, ascii_table: np.ndarray, test: Callable[[str], bool]) -> np.ndarray:
    """Per code point of ``cp``: ``ascii_table`` at an ASCII one, else ``test`` of the character, which is
    asked once for each distinct character."""
    found = np.zeros(len(cp), dtype=bool)
    ascii_ = cp < 128
    found[ascii_] = ascii_table[cp[ascii_]]
    if not ascii_.all():
        other = np.flatnonzero(~ascii_)
        chars, inverse = np.unique(cp[other], return_inverse=True)
        found[other] = np.array([test(chr(c)) for c in chars.tolist()], dtype=bool)[inverse]
    return found


def _word_mask(text: str) -> tuple[np.ndarray, np.ndarray]:
    """The code points of ``text`` and, per code point, whether it belongs to a WORD token."""
    cp = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)
    is_word = _per_character(cp, _ASCII_WORD, str.isalnum)
    if len(cp) > 2:
        digit = (cp >= 48) & (cp <= 57)
        mid = cp[1:-1]
        joins = ((mid == 39) & is_word[:-2] & is_word[2:]) | (((mid == 46) | (mid == 44)) & digit[:-2] & digit[2:])
        is_word[1:-1] |= joins
    return cp, is_word


def _spans(is_word: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Start and end offsets of the runs of word characters."""
    edges = np.diff(is_word.astype(np.int8), prepend=np.int8(0), append=np.int8(0))
    return np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)


_DIGIT_COLON = re.compile(r"\d:")


def _timecodes(text: str) -> Iterator[re.Match[str]]:
    """``TIMECODE.finditer(text)``, found faster: a timecode's first colon follows a digit, one to three
    characters after its start, so only the three places before such a colon are tried, in order, from the
    end of the last timecode."""
    pos = 0
    for found in _DIGIT_COLON.finditer(text):
        colon = found.end() - 1
        for start in range(max(colon - 3, pos), colon):
            m = TIMECODE.match(text, start)
            if m:
                yield m
                pos = m.end()
                break


def word_tokens(text: str, fillers: frozenset[tuple[str, ...]] = frozenset()) -> WordTokens:
    """Word tokens of a normalized text, with weak tokens marked; ``fillers``: the language's filler
    phrases ("you know"), weak where the text sets them off by punctuation (set_off_fillers)."""
    cp, is_word = _word_mask(text)
    starts, ends = _spans(is_word)
    # One str.split of the text with every character outside a word made a space (no word character is
    # whitespace): far cheaper than a slice per word.
    words = np.where(is_word, cp, np.uint32(32)).tobytes().decode("utf-32-le").split()
    # Words as small ints, so that comparing words is a vector operation.
    local = {w: i for i, w in enumerate(dict.fromkeys(words))}
    ids = np.fromiter(map(local.__getitem__, words), dtype=np.int32, count=len(words))
    weak = _among(ids, len(local), [local[w] for w in FILLERS if w in local])
    asides = [m.span() for m in (*_NONSPEECH.finditer(text), *_timecodes(text))]
    if asides:  # the words of each stage direction and timecode
        bounds = np.searchsorted(starts, np.asarray(asides, dtype=np.int64))
        weak |= _in_ranges(len(words), bounds[:, 0], bounds[:, 1])
    # A word or a phrase of up to three words said again at once: "the the", "of the of the";
    # not a sentence said twice ("It is. It is.").
    marks = np.concatenate(([0], np.cumsum((cp == 46) | (cp == 33) | (cp == 63), dtype=np.int32)))  # . ! ?
    new_sentence = np.zeros(len(words), dtype=bool)
    if len(words) > 1:
        new_sentence[1:] = marks[starts[1:]] > marks[ends[:-1]]
    for n in (1, 2, 3):
        if len(words) < 2 * n:
            break
        # same[j]: word j + n repeats word j, in the same sentence; the phrase at j is said
        # again when n of them hold in a row.
        same = (ids[n:] == ids[:-n]) & ~new_sentence[n:]
        again = same[:len(same) - n + 1].copy()
        for k in range(1, n):
            again &= same[k:len(same) - n + 1 + k]
        for k in range(n):
            weak[n + k:n + k + len(again)] |= again
    if fillers:
        firsts = _among(ids, len(local), [local[phrase[0]] for phrase in fillers if phrase[0] in local])
        set_off_fillers(words, np.flatnonzero(firsts).tolist(), _set_off_gaps(cp, starts, ends), weak, fillers)
    return WordTokens(words, starts, ends, weak)


def _among(ids: np.ndarray, size: int, wanted: list[int]) -> np.ndarray:
    """Per id (each below ``size``): whether it is one of ``wanted`` (``np.isin``, by a table)."""
    table = np.zeros(size, dtype=bool)
    table[wanted] = True
    return table[ids]


def _in_ranges(n: int, los: np.ndarray, his: np.ndarray) -> np.ndarray:
    """Per index below ``n``: whether it lies in one of the ranges [los[k], his[k]) (each lo <= hi)."""
    delta = np.zeros(n + 1, dtype=np.int64)
    np.add.at(delta, los, 1)
    np.add.at(delta, his, -1)
    return np.cumsum(delta[:-1]) > 0


# What sets a word off from its neighbour: punctuation, a point, or a dash with a space beside it (the "-" of
# "well-known" joins its words).
_SET_OFF_MARKS = np.array([ord(c) for c in ',;:()[]!?\n".'], dtype=np.uint32)
_SET_OFF = np.isin(np.arange(128), _SET_OFF_MARKS)  # by ASCII code: each one a mark (all marks are ASCII)
_ASCII_SPACE = np.array([chr(c).isspace() for c in range(128)], dtype=bool)


def _set_off_gaps(cp: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> list[bool]:
    """Per word: whether the characters between it and the word before hold a mark that sets it off (one of
    ``,;:()[]!?"`` or a line break or a point, or a dash with whitespace beside it); False for the first."""
    space = _per_character(cp, _ASCII_SPACE, str.isspace)
    dash = cp == 45
    pair = (space[:-1] & dash[1:]) | (dash[:-1] & space[1:])  # pair[i]: characters i and i + 1
    marks = np.concatenate(([0], np.cumsum(_SET_OFF[np.minimum(cp, 127)], dtype=np.int32)))  # 127 (DEL): no mark
    pairs = np.concatenate(([0], np.cumsum(pair, dtype=np.int32)))
    gaps = np.zeros(len(starts), dtype=bool)
    if len(starts) > 1:
        after, before = ends[:-1], starts[1:]  # the gap between word k - 1 and word k
        gaps[1:] = (marks[before] > marks[after]) | (pairs[np.maximum(before - 1, after)] > pairs[after])
    return gaps.tolist()


def set_off_fillers(words: list[str], candidates: list[int], gaps: list[bool], weak: np.ndarray,
                    fillers: frozenset[tuple[str, ...]]) -> None:
    """Mark as weak each filler phrase the text sets off on both sides (", you know,", "I mean, ..."):
    by punctuation (``gaps``: per word, whether a mark sets it off from the word before), the start or end of
    the text, or a filler beside it. Elsewhere the same words are words ("you know the answer", "a sort of
    fruit"). ``candidates``: where a phrase's first word stands, in order (a filler marked weak sets off the
    one after it)."""
    by_first: dict[str, list[tuple[str, ...]]] = {}
    for phrase in sorted(fillers, key=len, reverse=True):
        by_first.setdefault(phrase[0], []).append(phrase)

    def off(k: int, neighbour: int) -> bool:
        if k <= 0 or k >= len(words):
            return True
        return gaps[k] or bool(weak[neighbour])

    for k in candidates:
        for phrase in by_first[words[k]]:
            n = len(phrase)
            if tuple(words[k:k + n]) == phrase and off(k, k - 1) and off(k + n, min(k + n, len(words) - 1)):
                weak[k:k + n] = True
                break


def all_tokens(text: str) -> list[tuple[str, int, int]]:
    """Word and punctuation tokens of a normalized text: (text, start, end)."""
    return [(m.group(), m.start(), m.end()) for m in TOKEN.finditer(text)]


@dataclass(frozen=True)
class QuotePart:
    """One stretch of a quote: literal text or an editorial mark.

    kind: ``text`` (to be found in the source), ``editorial`` (a bracketed
    insertion standing for source words), ``sic`` (a bracketed note standing for
    nothing), ``ellipsis``, or ``label`` (a speaker's label the quote opens with:
    who says it, not what is said). start/end index the normalized quote.
    """

    kind: str
    start: int
    end: int


def quote_parts(text: str, *, label: int = 0) -> list[QuotePart]:
    """Split a normalized quote into literal text, brackets and ellipses; its first ``label`` characters are a
    speaker's label."""
    marks: list[QuotePart] = [QuotePart("label", 0, label)] if label else []
    for m in _ELLIPSIS.finditer(text):
        marks.append(QuotePart("ellipsis", m.start(), m.end()))
    for m in _BRACKET.finditer(text):
        if any(p.start <= m.start() < p.end for p in marks):
            continue
        inner = m.group(1).strip()
        a, b = m.span()
        if TIMECODE.fullmatch(m.group()):
            continue  # "[12:31]": the transcript's own timecode, quoted with the words around it
        if inner.rstrip("!.") == "sic":
            marks.append(QuotePart("sic", a, b))
            continue
        # An insertion swallows the word characters glued to it: "[the remote]'s", "T[he committee]".
        while b < len(text) and (text[b].isalnum() or text[b] == "'"):
            b += 1
        while a > 0 and text[a - 1].isalnum() and not any(p.start < a <= p.end for p in marks):
            a -= 1
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
