"""Normalization with an offset map back to the original text.

Quotes and sources differ in ways nobody cares about: case, curly quotes, the
kind of dash, NBSP and zero-width characters, line wraps, runs of spaces. Both
sides are mapped to one normalized form for matching; every normalized
character remembers the original character it came from, so a span found in
the normalized text is reported as a slice of the original.

Letters are never changed beyond NFKC and case folding: no transliteration, no
diacritic stripping.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

_ZERO_WIDTH = frozenset("\u200b\u200c\u200d\u2060\ufeff\u00ad\u180e")
_DASHES = frozenset("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d")
# U+02BC (modifier letter apostrophe) is how some keyboards type the apostrophe of "nʼest", "dellʼItalia".
_SINGLE_QUOTES = frozenset("\u2018\u2019\u201a\u201b\u2032\u00b4\u0060\u02bc")
_DOUBLE_QUOTES = frozenset("\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb")

# Printable ASCII other than space runs and the backtick (an apostrophe) is copied (lower-cased) in bulk; everything
# else goes through the per-character table below. A run that opens with a
# combining mark takes the letter before it along (see normalize): "e" + U+0301
# must be composed into one "é".
_SPECIAL = re.compile(r"[^\x20-\x5f\x61-\x7e]+| {2,}")


@lru_cache(maxsize=65536)
def _replace(ch: str) -> str:
    """The normalized form of one character ('' to drop it)."""
    if ch in _ZERO_WIDTH:
        return ""
    if ch.isspace():
        return " "
    if ch in _DASHES:
        return "-"
    if ch in _SINGLE_QUOTES:
        return "'"
    if ch in _DOUBLE_QUOTES:
        return '"'
    if ch == "\u2026":
        return "..."
    if unicodedata.category(ch) in ("Cc", "Cf", "Cs"):
        return ""
    folded = unicodedata.normalize("NFKC", ch).casefold()
    if len(folded) == 1 or not folded:
        return folded
    return "".join(_replace(c) if c != ch else c for c in folded)


@lru_cache(maxsize=4096)
def _is_mark(ch: str) -> bool:
    return unicodedata.category(ch).startswith("M")


def _replace_cluster(cluster: str) -> str:
    """A base character and the combining marks after it, composed (NFKC) first."""
    composed = unicodedata.normalize("NFKC", cluster)
    return "".join(_replace(c) for c in composed)


@dataclass(frozen=True)
class NormalizedText:
    """A normalized text and, per normalized character, the original index."""

    original: str
    text: str
    offsets: np.ndarray = field(repr=False)

    def to_original(self, start: int, end: int) -> tuple[int, int]:
        """Map the normalized span [start, end) to the original [start, end)."""
        if end <= start:
            pos = int(self.offsets[start]) if start < len(self.text) else len(self.original)
            return pos, pos
        stop = int(self.offsets[end - 1]) + 1
        # A composed character stands for its base and the marks after it.
        while stop < len(self.original) and _is_mark(self.original[stop]):
            stop += 1
        return int(self.offsets[start]), stop


WHOLE_TEXT_CHARS = 2_000  # texts this long are normalized on whole arrays where they can be (_normalize_whole)


def normalize(text: str) -> NormalizedText:
    """Normalize ``text`` (NFKC, casefold, quotes, dashes, spaces) with an offset map."""
    if len(text) >= WHOLE_TEXT_CHARS:
        whole = _normalize_whole(text)
        if whole is not None:
            return whole
    return _normalize_runs(text)


def _normalize_runs(text: str) -> NormalizedText:
    """``normalize``, run of characters by run: printable ASCII copied in bulk, the rest character by
    character (a base character and the combining marks after it composed together)."""
    pieces: list[str] = []
    shifts: list[int] = []   # original index minus normalized index, per segment
    lengths: list[int] = []
    out_len = 0
    last_space = True  # drops leading whitespace

    def emit_plain(a: int, b: int) -> None:
        nonlocal out_len, last_space
        if last_space and text[a] == " ":
            a += 1
        if a >= b:
            return
        pieces.append(text[a:b].lower())
        shifts.append(a - out_len)
        lengths.append(b - a)
        out_len += b - a
        last_space = text[b - 1] == " "

    pos = 0
    for m in _SPECIAL.finditer(text):
        a, b = m.span()
        if a > pos and text[a - 1] != " " and _is_mark(text[a]):
            a -= 1
        if a > pos:
            emit_plain(pos, a)
        if text[a:b].isspace():  # line breaks, tabs, runs of spaces: one space at most
            if not last_space:
                pieces.append(" ")
                shifts.append(a - out_len)
                lengths.append(1)
                out_len += 1
                last_space = True
            pos = b
            continue
        i = a
        while i < b:
            k = i + 1
            while k < b and _is_mark(text[k]):
                k += 1
            rep = _replace(text[i]) if k == i + 1 else _replace_cluster(text[i:k])
            for ch in rep:
                if ch == " ":
                    if last_space:
                        continue
                    last_space = True
                else:
                    last_space = False
                pieces.append(ch)
                shifts.append(i - out_len)
                lengths.append(1)
                out_len += 1
            i = k
        pos = b
    if pos < len(text):
        emit_plain(pos, len(text))
    return _with_offsets(text, pieces, shifts, lengths, out_len)


WHOLE_BLOCK_CHARS = 1 << 20  # a long text is normalized on arrays this many characters long at a time (memory)


def _normalize_whole(text: str) -> NormalizedText | None:
    """``normalize`` on arrays of code points, ``WHOLE_BLOCK_CHARS`` at a time, for a text without combining
    marks (else None): each character becomes its replacement (``_replace``; printable ASCII lower-cased),
    each character of a replacement keeps the original index of the character it replaces, and a space is
    kept only after a character that is no space (none at the start or the end), as the run-by-run
    normalization does."""
    kind = np.int32 if len(text) < 2**31 else np.int64
    texts: list[str] = []
    offsets: list[np.ndarray] = []
    after_space = True  # a space at the start is dropped
    for lo in range(0, len(text), WHOLE_BLOCK_CHARS):
        block = _normalize_block(text[lo:lo + WHOLE_BLOCK_CHARS], after_space)
        if block is None:
            return None  # a mark composes with the character before it: _normalize_runs
        codes, origin = block
        if len(codes):
            texts.append(codes.tobytes().decode("utf-32-le"))
            offsets.append((origin + lo).astype(kind))
            after_space = bool(codes[-1] == 0x20)
    norm, at = "".join(texts), np.concatenate(offsets) if offsets else np.zeros(0, dtype=kind)
    if norm.endswith(" "):
        norm, at = norm[:-1], at[:-1]
    return NormalizedText(original=text, text=norm, offsets=at)


def _normalize_block(block: str, after_space: bool) -> tuple[np.ndarray, np.ndarray] | None:
    """The normalized code points of ``block`` and the index in it each comes from, a space dropped after a
    space (``after_space``: the text before it ended with one); None if it holds a combining mark."""
    cp = np.frombuffer(block.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    special = ((cp < 0x20) | (cp > 0x7E)) | (cp == 0x60)
    chars, inverse = np.unique(cp[special], return_inverse=True)
    distinct = [chr(c) for c in chars.tolist()]
    if any(map(_is_mark, distinct)):
        return None
    codes, origin = _replaced(cp, special, inverse, [_replace(ch) for ch in distinct])
    space = codes == 0x20
    dropped = space.copy()
    dropped[1:] &= space[:-1]  # a space after a space
    if len(dropped):
        dropped[0] &= after_space
    return codes[~dropped], origin[~dropped]


def _replaced(cp: np.ndarray, special: np.ndarray, inverse: np.ndarray, replaced: list[str]
              ) -> tuple[np.ndarray, np.ndarray]:
    """The code points of the text ``cp`` with each character replaced, and for each the index of the
    character it replaces: printable ASCII lower-cased, each ``special`` character by its replacement
    (``replaced``, by its index in ``inverse``), which may be empty or longer than one character."""
    lengths = np.fromiter(map(len, replaced), dtype=np.int64, count=len(replaced))
    lowered = np.where((cp >= 0x41) & (cp <= 0x5A), cp + 32, cp)
    if (lengths <= 1).all():  # one character for one, or none: no character moves
        lowered[special] = np.fromiter((ord(r) if r else 0 for r in replaced), dtype=np.uint32,
                                       count=len(replaced))[inverse]
        kept = np.ones(len(cp), dtype=bool)
        kept[special] = (lengths == 1)[inverse]
        return lowered[kept], np.flatnonzero(kept)
    per_char = np.ones(len(cp), dtype=np.int64)
    per_char[special] = lengths[inverse]
    codes = np.repeat(lowered, per_char)
    origin = np.repeat(np.arange(len(cp), dtype=np.int64), per_char)
    # Where each special character's replacement starts among all replacements' characters, then its others.
    flat = np.fromiter((ord(c) for rep in replaced for c in rep), dtype=np.uint32, count=int(lengths.sum()))
    starts = (np.cumsum(lengths) - lengths)[inverse]
    each = lengths[inverse]
    before = np.cumsum(each) - each  # characters of the special characters' replacements before each one
    picks = np.repeat(starts - before, each) + np.arange(int(each.sum()))
    codes[np.repeat(special, per_char)] = flat[picks]
    return codes, origin


def _with_offsets(text: str, pieces: list[str], shifts: list[int], lengths: list[int], out_len: int
                  ) -> NormalizedText:
    """The ``out_len`` normalized characters joined, with the offset of each into ``text``: segment by
    segment, ``shifts`` is the original index minus the normalized one over ``lengths`` characters."""
    norm = "".join(pieces)
    kind = np.int32 if len(text) < 2**31 else np.int64  # half the memory for any real document
    offsets = np.arange(out_len, dtype=kind) + np.repeat(np.asarray(shifts, dtype=kind),
                                                         np.asarray(lengths, dtype=np.int64))
    if norm.endswith(" "):
        norm = norm[:-1]
        offsets = offsets[:-1]
    return NormalizedText(original=text, text=norm, offsets=offsets)


# Letters of other scripts that look like Latin ones (lower case: the text is case-folded first). A quote
# that hides one inside a Latin word ("lаst" with a Cyrillic а) is found as if it were Latin and the diff
# reports the letter; the document's text is never changed.
_CONFUSABLES = str.maketrans({
    "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "і": "i", "ј": "j", "ѕ": "s",
    "ԁ": "d", "ӏ": "l", "һ": "h", "ԛ": "q", "ԝ": "w", "ɡ": "g", "ο": "o", "ν": "v", "ι": "i", "κ": "k",
    "α": "a", "τ": "t", "υ": "u", "χ": "x", "ε": "e", "ρ": "p",
})
_WORD_RUN = re.compile(r"\w+")


def fold_confusables(norm: NormalizedText) -> NormalizedText:
    """``norm`` with the look-alike letters of other scripts inside mostly Latin words made Latin, the offsets
    kept (one character for one)."""
    text = norm.text
    if text.isascii():
        return norm
    parts = []
    last = 0
    for m in _WORD_RUN.finditer(text):
        word = m.group()
        if word.isascii():
            continue
        folded = word.translate(_CONFUSABLES)
        latin = sum(1 for ch in word if "a" <= ch <= "z")
        if folded != word and latin >= len(word) - sum(1 for a, b in zip(word, folded) if a != b) and latin:
            parts.append(text[last:m.start()])
            parts.append(folded)
            last = m.end()
    if not parts:
        return norm
    parts.append(text[last:])
    return NormalizedText(norm.original, "".join(parts), norm.offsets)
