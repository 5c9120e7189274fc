"""Labelled differences between a quote and the source span it was found at.

Each located piece of the quote is compared token by token (words and
punctuation) with its source span; every difference gets a kind:

- ``normalization``: case, curly quotes, dashes, spacing, line wraps, hyphenation
- ``punctuation``: a punctuation mark added, dropped or changed
- ``editorial``: a bracketed insertion or ``[sic]``
- ``elision``: what an ellipsis stands for
- ``disfluency``: fillers, stage directions, repeats or ``--`` left out
- ``typo``: one word misspelt
- ``contraction``: a contraction spelt out or made ("isn't" for "is not")
- ``number``, ``negation``, ``name``: load-bearing changes
- ``word``: any other word added, dropped or changed
- ``splice``, ``order``: pieces joined from distant places, or out of order
"""
from __future__ import annotations

import re
from difflib import SequenceMatcher
from typing import NamedTuple

import numpy as np
from rapidfuzz import fuzz
from rapidfuzz.distance import OSA

from .corpus import Corpus, PreparedQuote, Source
from .tokenize import FILLERS, TOKEN, WORD
from .types import Alignment, Comparison, Difference, Segment

BENIGN = frozenset({"normalization", "punctuation", "editorial"})
EDITS = frozenset({"disfluency", "typo", "contraction"})
LOAD_BEARING = frozenset({"number", "negation", "name"})

CARDINALS = frozenset("""zero one two three four five six seven eight nine ten eleven twelve thirteen
fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety
hundred thousand million billion trillion dozen""".split())
# Words of quantity and rank: changing one alters a claim, but eliding "half way"
# or "the first time" hides no number.
QUANTITIES = CARDINALS | frozenset("""half quarter first second third fourth fifth sixth seventh eighth ninth
tenth once twice double triple percent""".split())
# Signs that belong to a number: dropping or changing one changes the number.
NUMBER_SIGNS = frozenset("-+%$€£¥°‰")
NEGATIONS = frozenset("""not no never nothing nobody none nowhere neither nor cannot without""".split())
_DIGIT = re.compile(r"\d")
# What may stand before a sentence's first word: an end mark, an opening
# bracket or quote, a dash, a stage direction like "(laughs)", or nothing.
_SENTENCE_END = re.compile(r"(?:[.!?:;\"(\[\-]|\([^()]{0,30}\)|\[[^\[\]]{0,30}\])\s*$|^\s*$")
# "Dr. Okafor": the point after a title ends no sentence.
_TITLE = re.compile(r"\b(?:Dr|Mr|Mrs|Ms|Mx|Prof|Rev|Sr|Jr|St|Gen|Col|Capt|Lt|Sgt|Hon)\.\s*$")
# Contractions and what they stand for; 'd and 's stand for either of two words.
_CONTRACTED = {"n't": (("not",),), "'m": (("am",),), "'re": (("are",),), "'ve": (("have",),),
               "'ll": (("will",),), "'d": (("would",), ("had",)), "'s": (("is",), ("has",))}
_IRREGULAR = {"can't": ("can", "not"), "cannot": ("can", "not"), "won't": ("will", "not"),
              "shan't": ("shall", "not"), "let's": ("let", "us")}


class Tok(NamedTuple):
    text: str   # normalized
    lo: int     # normalized offsets
    hi: int
    kind: str   # word | punct | editorial
    weak: bool  # a filler, stage direction or repeat (source side)


def is_number(word: str, *, strict: bool = False) -> bool:
    """A numeral or number word; ``strict`` leaves out ranks and words like 'half' and 'once'."""
    return bool(_DIGIT.search(word)) or word in (CARDINALS if strict else QUANTITIES)


def is_negation(word: str) -> bool:
    return word in NEGATIONS or word.endswith("n't")


def _misspelt(qw: list[str], sw: list[str], *, name: bool) -> bool:
    """One or two words against one or two, the same but for a slip of the keyboard.

    A slip keeps the first letter and is one edit away (two in a long word), so
    'happy'/'unhappy', 'increased'/'decreased', 'he'/'she' and 'would'/'could' are
    other words. A name must be long and one edit away: 'Governmennt' is a typo,
    'Jon' for 'Jan' is another person.
    """
    if not qw or not sw or len(qw) > 2 or len(sw) > 2:
        return False
    q, s = " ".join(qw), " ".join(sw)
    shortest = min(len(q), len(s))
    if q[0] != s[0] or shortest < 4:
        return False
    edits = OSA.distance(q, s)  # a swap of two neighbours ("aimde") is one slip
    if name:
        return shortest >= 5 and edits <= 1
    return edits <= (1 if shortest < 7 else 2)


def _expanded(words: list[str], limit: int = 6) -> set[tuple[str, ...]]:
    """Every reading of some words with their contractions spelt out ("isn't" -> "is not")."""
    if len(words) > limit:
        return set()
    readings: list[tuple[str, ...]] = [()]
    for word in words:
        options: list[tuple[str, ...]] = [(word,)]
        if word in _IRREGULAR:
            options = [_IRREGULAR[word]]
        else:
            for ending, meanings in _CONTRACTED.items():
                if word.endswith(ending) and len(word) > len(ending):
                    stem = word[: -len(ending)]
                    options = [(stem, *meaning) for meaning in meanings]
                    if ending == "'s":
                        options.append((word,))  # or a possessive
                    break
        readings = [r + o for r in readings for o in options]
    return set(readings)


def _originals(toks: list[Tok], norm, original: str):
    """(token, its original spelling, its original start) for each word token."""
    for t in toks:
        if t.kind == "word":
            a, b = norm.to_original(t.lo, t.hi)
            yield t, original[a:b], a


def _signs_a_number(toks: list[Tok], text: str) -> bool:
    """Whether a sign among the tokens is glued to digits: the "-" of "-5", the "%" of "5%"."""
    for t in toks:
        if t.text in NUMBER_SIGNS:
            before = text[t.lo - 1] if t.lo > 0 else ""
            after = text[t.hi] if t.hi < len(text) else ""
            if before.isdigit() or after.isdigit():
                return True
    return False


def _neighbours(tokens: list[Tok], j1: int, j2: int) -> tuple[str, ...]:
    """The source words just before and just after tokens [j1, j2)."""
    before = next((t.text for t in reversed(tokens[:j1]) if t.kind == "word"), "")
    after = next((t.text for t in tokens[j2:] if t.kind == "word"), "")
    return before, after


def _repeated(word: str, run: list[str], around: tuple[str, ...]) -> bool:
    """A word said twice, or a false start of the next word ('it' before "it's")."""
    if run.count(word) > 1 or word in around:
        return True
    after = around[-1] if around else ""
    return bool(after) and after.startswith(word) and len(word) < len(after)


def _quote_tokens(pq: PreparedQuote, lo: int, hi: int) -> list[Tok]:
    tokens: list[Tok] = []
    for part in pq.parts:
        a, b = max(part.start, lo), min(part.end, hi)
        if a >= b and not (part.kind == "editorial" and lo <= part.start < hi):
            continue
        if part.kind == "editorial":
            tokens.append(Tok("\x00" + pq.norm.text[part.start:part.end], part.start, part.end, "editorial", False))
        elif part.kind == "text":
            for m in TOKEN.finditer(pq.norm.text, a, b):
                word = m.group()[0].isalnum() or m.group()[0] == "_"
                tokens.append(Tok(m.group(), m.start(), m.end(), "word" if word else "punct",
                                  word and m.group() in FILLERS))
    return tokens


def _source_tokens(src: Source, lo: int, hi: int) -> list[Tok]:
    tokens: list[Tok] = []
    starts = src.tokens.starts
    for m in TOKEN.finditer(src.norm.text, lo, hi):
        if m.group()[0].isalnum() or m.group()[0] == "_":
            k = int(np.searchsorted(starts, m.start()))
            weak = bool(k < len(starts) and starts[k] == m.start() and src.tokens.weak[k])
            tokens.append(Tok(m.group(), m.start(), m.end(), "word", weak))
        else:
            tokens.append(Tok(m.group(), m.start(), m.end(), "punct", False))
    return tokens


def _extend_punct(text: str, lo: int, hi: int, limit_lo: int, limit_hi: int, *,
                  most: tuple[int, int] = (1 << 30, 1 << 30)) -> tuple[int, int]:
    """Widen [lo, hi) over punctuation glued to it (no spaces), within limits and by at most ``most``
    characters each side. A span never ends on an opening bracket nor starts on a closing one."""
    start, end = lo, hi
    while lo > limit_lo and start - lo < most[0] and _glued(text[lo - 1]) and text[lo - 1] not in _CLOSERS:
        lo -= 1
    while hi < limit_hi and hi - end < most[1] and _glued(text[hi]) and text[hi] not in _OPENERS:
        hi += 1
    return lo, hi


_OPENERS = frozenset("([{<")
_CLOSERS = frozenset(")]}>")


def _glued(ch: str) -> bool:
    return not ch.isspace() and not ch.isalnum()


class _Differ:
    """Builds the differences of one quote; one instance per quote."""

    def __init__(self, pq: PreparedQuote, corpus: Corpus):
        self.pq = pq
        self.corpus = corpus
        self.differences: list[Difference] = []
        self.spacing = False

    def q_orig(self, lo: int, hi: int) -> str:
        a, b = self.pq.norm.to_original(lo, hi)
        return self.pq.text[a:b]

    def s_orig(self, src: Source, lo: int, hi: int) -> str:
        a, b = src.norm.to_original(lo, hi)
        return src.document.text[a:b]

    def add(self, kind: str, quote_text: str, source_text: str) -> None:
        self.differences.append(Difference(kind, quote_text, source_text))

    def spans(self, seg: Segment) -> tuple[tuple[int, int], tuple[int, int]]:
        """Normalized spans of a segment: quote side and source side, punctuation included."""
        pq, src = self.pq, self.corpus.sources[seg.doc]
        f_lo, f_hi = pq.extents[seg.fragment] if seg.fragment < len(pq.extents) else (0, len(pq.norm.text))
        q_lo, q_hi = int(pq.starts[seg.q_start]), int(pq.ends[seg.q_end - 1])
        q_lo, q_hi = _extend_punct(pq.norm.text, q_lo, q_hi, f_lo, f_hi)
        if seg.d_end > seg.d_start:
            s_lo, s_hi = int(src.tokens.starts[seg.d_start]), int(src.tokens.ends[seg.d_end - 1])
            # As much of the source's punctuation as the quote has at either end.
            most = (int(pq.starts[seg.q_start]) - q_lo, q_hi - int(pq.ends[seg.q_end - 1]))
            s_lo, s_hi = _extend_punct(src.norm.text, s_lo, s_hi, 0, len(src.norm.text), most=most)
        else:
            s_lo = s_hi = int(src.tokens.starts[seg.d_start]) if seg.d_start < len(src.tokens) else len(src.norm.text)
        return (q_lo, q_hi), (s_lo, s_hi)

    def compare_piece(self, seg: Segment) -> tuple[int, int]:
        """Differences within one piece; returns its normalized source span."""
        src = self.corpus.sources[seg.doc]
        (q_lo, q_hi), (s_lo, s_hi) = self.spans(seg)
        if not self.pq.parts_within(q_lo, q_hi) and self.q_orig(q_lo, q_hi) == self.s_orig(src, s_lo, s_hi):
            return s_lo, s_hi  # character for character: nothing to name
        q = _quote_tokens(self.pq, q_lo, q_hi)
        s = _source_tokens(src, s_lo, s_hi)
        matcher = SequenceMatcher(None, [t.text for t in q], [t.text for t in s], autojunk=False)
        for op, i1, i2, j1, j2 in matcher.get_opcodes():
            if op == "equal":
                self._equal_run(src, q[i1:i2], s[j1:j2])
            else:
                kind = self.label(q[i1:i2], s[j1:j2], src, _neighbours(s, j1, j2))
                self.add(kind, self._q_text(q[i1:i2]), self._s_text(src, s[j1:j2]))
        return s_lo, s_hi

    def _q_text(self, toks: list[Tok]) -> str:
        return self.q_orig(toks[0].lo, toks[-1].hi) if toks else ""

    def _s_text(self, src: Source, toks: list[Tok]) -> str:
        return self.s_orig(src, toks[0].lo, toks[-1].hi) if toks else ""

    def _equal_run(self, src: Source, q: list[Tok], s: list[Tok]) -> None:
        """Equal after normalization: name each stretch whose original text differs."""
        run_q: list[Tok] = []
        run_s: list[Tok] = []
        for k, (tq, ts) in enumerate(zip(q, s)):
            if self.q_orig(tq.lo, tq.hi) != self.s_orig(src, ts.lo, ts.hi):
                run_q.append(tq)
                run_s.append(ts)
                continue
            self._flush(src, run_q, run_s)
            run_q, run_s = [], []
        self._flush(src, run_q, run_s)
        for k in range(1, len(q)):
            if any(q[k - 1].hi <= mark.start < q[k].lo for mark in self.pq.parts if mark.kind == "sic"):
                continue  # the space around a [sic] is the editor's, not the speaker's
            gap_q = self.q_orig(q[k - 1].hi, q[k].lo) if q[k].lo > q[k - 1].hi else ""
            gap_s = self.s_orig(src, s[k - 1].hi, s[k].lo) if s[k].lo > s[k - 1].hi else ""
            if gap_q != gap_s and not self.spacing:
                self.spacing = True
                self.add("normalization", self._q_text(q[max(0, k - 2):k + 2]),
                         self._s_text(src, s[max(0, k - 2):k + 2]))

    def _flush(self, src: Source, q: list[Tok], s: list[Tok]) -> None:
        if q:
            self.add("normalization", self._q_text(q), self._s_text(src, s))

    def label(self, q: list[Tok], s: list[Tok], src: Source, around: tuple[str, ...] = ()) -> str:
        """The kind of one difference; ``around`` holds the source words either side of it."""
        qw = [t.text for t in q if t.kind == "word"]
        sw = [t.text for t in s if t.kind == "word"]
        if any(t.kind == "editorial" for t in q):
            return self._editorial(q, qw, sw)
        if not qw and not sw:
            if _signs_a_number(q, self.pq.norm.text) or _signs_a_number(s, src.norm.text):
                return "number"  # "-5" for "5", "€5" for "$5", "5%" for "5"
            dash_dropped = any(t.text == "-" for t in s) and not q
            return "disfluency" if dash_dropped else "punctuation"
        if "".join(qw) == "".join(sw):
            return "normalization"
        if sorted(w for w in qw if is_number(w)) != sorted(w for w in sw if is_number(w)):
            return "number"
        if sum(map(is_negation, qw)) != sum(map(is_negation, sw)):
            return "negation"
        if self._names(q, self.pq.norm, self.pq.text) ^ self._names(s, src.norm, src.document.text):
            return "typo" if _misspelt(qw, sw, name=True) else "name"
        if _expanded(qw) & _expanded(sw):
            return "contraction"
        if not qw and all(t.weak or _repeated(t.text, sw, around) for t in s if t.kind == "word"):
            return "disfluency"
        if not sw and all(t.weak for t in q if t.kind == "word"):
            return "disfluency"
        capitalised = self._capitalised(q, self.pq.norm, self.pq.text) or self._capitalised(
            s, src.norm, src.document.text)
        if _misspelt(qw, sw, name=capitalised):  # "Mark" for "Mary" is another person, even first in a sentence
            return "typo"
        return "word"

    @staticmethod
    def _capitalised(toks: list[Tok], norm, original: str) -> bool:
        """Whether a word is written with a capital (not 'I', not shouting)."""
        return any(word[:1].isupper() and not word.isupper() for _, word, _ in _originals(toks, norm, original))

    @staticmethod
    def _editorial(q: list[Tok], qw: list[str], sw: list[str]) -> str:
        """A bracket stands for source words, but may not hide a number or a negation,
        and the quote's own words beside it must be the source's."""
        inserted = [w for t in q if t.kind == "editorial" for w in WORD.findall(t.text)]
        said = inserted + qw
        if sorted(w for w in said if is_number(w)) != sorted(w for w in sw if is_number(w)):
            return "number"
        if sum(map(is_negation, said)) != sum(map(is_negation, sw)):
            return "negation"
        if any(w not in sw for w in qw):
            return "word"
        return "editorial"

    @staticmethod
    def _names(toks: list[Tok], norm, original: str) -> frozenset[str]:
        """Words written with a capital that are not sentence-initial, shouting or 'I'."""
        names = set()
        for t, word, a in _originals(toks, norm, original):
            if not word[:1].isupper() or word.isupper() or word.lower().startswith("i'") or word == "I":
                continue
            before = original[max(0, a - 40):a]
            if _SENTENCE_END.search(before) and not _TITLE.search(before):
                continue
            names.add(t.text)
        return frozenset(names)


def _uncovered(pq: PreparedQuote, segments: list[Segment]) -> list[tuple[int, int]]:
    covered = np.zeros(len(pq.words), dtype=bool)
    for seg in segments:
        covered[seg.q_start:seg.q_end] = True
    runs = []
    k = 0
    while k < len(covered):
        if covered[k] or pq.words[k] == "":
            k += 1
            continue
        start = k
        while k < len(covered) and not covered[k]:
            k += 1
        runs.append((start, k))
    return runs


def compare(pq: PreparedQuote, alignment: Alignment, corpus: Corpus, *, splice_gap_words: int) -> Comparison:
    """Name every difference between the quote and where it was found.

    Two pieces of one fragment (no ellipsis between them) with at most
    ``splice_gap_words`` source words between are one passage with words left
    out; further apart, they are a splice.
    """
    if not alignment.segments:
        return Comparison((), None, "")
    differ = _Differ(pq, corpus)
    for completion in pq.completions:
        differ.add("editorial", completion, "")
    for part in pq.parts:
        if part.kind == "sic":
            differ.add("editorial", differ.q_orig(part.start, part.end), "")
    segments = sorted(alignment.segments, key=lambda s: s.q_start)
    spans: list[tuple[int, int, int]] = []   # (doc, original start, original end)
    elided: list[str] = []
    for k, seg in enumerate(segments):
        s_lo, s_hi = differ.compare_piece(seg)
        src = corpus.sources[seg.doc]
        start, end = src.norm.to_original(s_lo, s_hi)
        spans.append((seg.doc, start, end))
        if k == 0:
            continue
        prev = segments[k - 1]
        _, p_start, p_end = spans[k - 1]
        # Lines, not character offsets: what a reader can find in the transcript.
        prev_src = corpus.sources[prev.doc]
        here = f"{src.document.doc_id} line {src.line_of(start)}"
        if seg.doc != prev.doc:
            differ.add("splice", differ.q_orig(int(pq.starts[seg.q_start]), int(pq.ends[seg.q_end - 1])),
                       f"{here}, while the piece before is in "
                       f"{prev_src.document.doc_id} line {prev_src.line_of(p_start)}")
        elif seg.d_start < prev.d_end:
            differ.add("order", differ.q_orig(int(pq.starts[seg.q_start]), int(pq.ends[seg.q_end - 1])),
                       f"{here}, before the piece quoted ahead of it (line {prev_src.line_of(p_start)})")
        else:
            gap = src.document.text[p_end:start]
            if seg.fragment != prev.fragment:
                elided.append(gap)
                differ.add("elision", "...", gap)
            elif 0 < seg.d_start - prev.d_end <= splice_gap_words:
                left_out = src.tokens.weak[prev.d_end:seg.d_start].all()
                differ.add("disfluency" if left_out else "word", "", gap.strip())
            elif seg.d_start - prev.d_end > 0:
                differ.add("splice", differ.q_orig(int(pq.starts[seg.q_start]), int(pq.ends[seg.q_end - 1])),
                           f"{here}; {seg.d_start - prev.d_end} source words after the piece before, "
                           "joined without an ellipsis")
    for a, b in _uncovered(pq, segments):
        differ.add("word", differ.q_orig(int(pq.starts[a]), int(pq.ends[b - 1])), "")
    docs = {doc for doc, _, _ in spans}
    if len(docs) == 1:
        doc = spans[0][0]
        start, end = min(s for _, s, _ in spans), max(e for _, _, e in spans)
    else:
        main = max(range(len(segments)), key=lambda k: segments[k].matched)
        doc, start, end = spans[main]
    src = corpus.sources[doc]
    quote_words = " ".join(w for w in pq.words if w)
    source_words = " ".join(" ".join(corpus.sources[s.doc].tokens.words[s.d_start:s.d_end]) for s in segments)
    ratio = fuzz.ratio(quote_words, source_words) / 100.0
    pieces = tuple((corpus.sources[d].document.doc_id, s, e) for d, s, e in spans)
    pieces_text = " ... ".join(corpus.sources[d].document.text[a:b] for d, a, b in spans)
    return Comparison(tuple(differ.differences), round(ratio, 4), src.document.text[start:end],
                      src.document.doc_id, start, end, pieces, tuple(elided), pieces_text)
