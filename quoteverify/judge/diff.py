"""Labelled differences between a quote and the source span it was found at.

Each located piece of the quote is compared token by token (words and
punctuation) with its source span; every difference gets a kind:

- ``normalization``: case, curly quotes, dashes, spacing, line wraps, hyphenation
- ``punctuation``: a punctuation mark added, dropped or changed
- ``editorial``: a bracketed insertion or ``[sic]``
- ``elision``: what an ellipsis stands for
- ``disfluency``: fillers, stage directions, repeats or ``--`` left out
- ``typo``: one word misspelt into no word of the language
- ``contraction``: a contraction spelt out or made ("isn't" for "is not")
- ``spelling``: one word in another spelling of the language (colour/color)
- ``clitic``: the quote ends on a word the source writes with 's or s' ("Joe" for "Joe's")
- ``cut``: the quote starts or ends inside a source word ("isual" for "visual")
- ``markup``: a timecode, or the same speaker's label again, between quoted words
- ``number_format``: the same number in another form ("8 million" for "eight million")
- ``number``, ``negation``, ``name``: load-bearing changes
- ``word``: any other word added, dropped or changed
- ``splice``, ``order``: pieces joined from distant places, or out of order
"""
from __future__ import annotations

import re
from dataclasses import replace
from difflib import SequenceMatcher
from typing import Literal, NamedTuple

import numpy as np
from rapidfuzz import fuzz

from ..model.lexicon import lexicon_for, straight
from ..model.types import BENIGN, EDITS, Alignment, Comparison, Difference, DifferenceKind, Elision, Segment
from ..sources.corpus import Corpus, PreparedQuote, Source
from ..sources.numbers import phrases as number_phrases
from ..sources.tokenize import FILLERS, TIMECODE, TOKEN, WORD
from ..sources.turns import speaker_key
from .omissions import (
    addressed,
    aside,
    broken_off,
    corrects,
    edge_shown,
    gap_text,
    hidden,
    left_out,
    names_in,
    plainly_said,
    points_back,
    set_off,
    stop_before,
    turning,
)
from .rules import (
    BracketSite,
    Contract,
    benign_join,
    bracket,
    case_changes_word,
    clitic,
    contraction_readings,
    cut_word,
    function_word,
    mixed_script,
    narrows_sense,
    near_word,
    number_in_sense,
    slip,
    spelling_variant,
    spelt_out,
    spelt_out_as_said,
    with_clitic,
)

CARDINALS = frozenset("""zero one two three four five six seven eight nine ten eleven twelve thirteen
fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety
hundred thousand million billion trillion dozen""".split())
# Words of quantity and rank: changing one alters a claim, but eliding "half way"
# or "the first time" hides no number.
QUANTITIES = CARDINALS | frozenset("""half quarter first second third fourth fifth sixth seventh eighth ninth
tenth once twice double triple percent""".split())
# Signs that belong to a number: dropping or changing one changes the number.
NUMBER_SIGNS = frozenset("-+%$€£¥°‰")
_DIGIT = re.compile(r"\d")
# What may stand before a sentence's first word: an end mark, an opening
# bracket or quote, a dash, a stage direction like "(laughs)", or nothing.
_BOUNDARY_BEFORE = re.compile(r"(?:[.!?:;\"(\[\-]|\([^()]{0,30}\)|\[[^\[\]]{0,30}\])\s*$|^\s*$")
# A stage direction or bracket just before a word: "(laughs) Conservative".
_ASIDE_AT_END = re.compile(r"(?:\([^()]{0,30}\)|\[[^\[\]]{0,30}\])\s*$")


def _opens_sentence(before: str) -> bool:
    """Whether a word after the text ``before`` it may open a sentence: after a stop, a colon, a dash, an
    opening mark, or a stage direction that itself follows one ("Right. (laughs) So", not "a more, uh,
    (laughs) Conservative")."""
    bare = before
    while (aside := _ASIDE_AT_END.search(bare)) and bare[:aside.start()].strip():
        bare = bare[:aside.start()]
    return bool(_BOUNDARY_BEFORE.search(bare))


# "Dr. Okafor": the point after a title ends no sentence.
_TITLE = re.compile(r"\b(?:Dr|Mr|Mrs|Ms|Mx|Prof|Rev|Sr|Jr|St|Gen|Col|Capt|Lt|Sgt|Hon)\.\s*$")
# A sentence ends at . ! or ? (and the quotes or brackets closing it) before a space or the end.
_SENTENCE_STOP = re.compile(r"[.!?]+[\"')\]]*(?=\s|$)")
_STOP_BEFORE = re.compile(r"[.!?]+[\"')\]]*$")
# Where a text without speaker labels starts a new paragraph: a blank line, or a line that is indented.
_STOP_INSIDE = re.compile(r"[.!?]")
_ALPHA_WORD = re.compile(r"[^\W\d_]+")
_STOP_AHEAD = re.compile(r"\s*[.!?]+[\"')\]]*")
# Marks that part a word from the next: a determiner is not followed by one ("this, computer").
_PARTS = re.compile(r"[^\w\s']")
_BLANK_LINE = re.compile(r"(?:\r\n|\r|\n)[ \t]*(?:\r\n|\r|\n)")
_PARAGRAPH_BREAK = re.compile(r"(?:\r\n|\r|\n)[ \t]*(?:\r\n|\r|\n)|(?:\r\n|\r|\n)[ \t]+\S")


class Tok(NamedTuple):
    text: str   # normalized
    lo: int     # normalized offsets
    hi: int
    kind: str   # word | punct | editorial
    weak: bool  # a filler, stage direction or repeat (source side)


def is_number(word: str, *, strict: bool = False) -> bool:
    """A numeral or number word; ``strict`` leaves out ranks and words like 'half' and 'once'."""
    return bool(_DIGIT.search(word)) or word in (CARDINALS if strict else QUANTITIES)


def is_negation(word: str, language: str = "en") -> bool:
    """A negating word of the language (its lexicon's negations)."""
    lexicon = lexicon_for(language)
    return lexicon is not None and lexicon.is_negation(word)


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


def _markup_between(src: Source, a: int, b: int) -> bool:
    """Whether original text [a, b) holds only timecodes, or labels that open turns in which the speaker
    before them goes on: "[00:05:10]", "01:02:03:04", or "P1:" again in P1's words."""
    text = src.document.text
    if not TIMECODE.sub("", text[a:b]).strip(" \t\r\n-"):
        return True
    return src.turns.continued_label(text, a, b)


def _asks(toks: list[Tok]) -> bool:
    return any(t.text == "?" for t in toks)


def _ends(toks: list[Tok]) -> bool:
    return any(t.text in ".?!" for t in toks)


# Quotation marks as normalized text has them (straight), and the ones it may keep; the single ones are
# apostrophes too.
QUOTE_MARKS = frozenset("\"'\u201c\u201d\u2018\u2019\u00ab\u00bb\u201e\u201a\u2039\u203a")
SINGLE_MARKS = frozenset("'\u2018\u2019\u201a")


# Kinds of difference that stand where the words do, one for one, though they are not benign: a piece's edge
# that ends on one is where it belongs, not moved to another word (_refit: "I would" for "I'd", not "hard. I'd").
IN_PLACE: frozenset[DifferenceKind] = frozenset({"sense", "quote_marks"})


def _quote_marks(toks: list[Tok]) -> int:
    return sum(1 for t in toks if t.text in QUOTE_MARKS)


def _line_end_after(norm, at: int) -> bool:
    """Whether only spaces stand between the normalized offset ``at`` and a line break of the original text
    (normalization makes a line break a space)."""
    original = norm.to_original(max(0, at - 1), at)[1]
    rest = norm.original[original:original + 4]
    return any(c in rest for c in "\r\n") and not re.split(r"[\r\n]", rest)[0].strip()


def _next_words(src: Source, lo: int, most: int = 4) -> list[str]:
    """The source's words after the one at normalized offset ``lo``, up to ``most`` of them, within its
    sentence, without fillers and stage directions."""
    k = int(np.searchsorted(src.tokens.starts, lo))
    words: list[str] = []
    for j in range(k + 1, len(src.tokens)):
        if len(words) == most or stop_before(src, j):
            break
        if not src.tokens.weak[j]:
            words.append(src.tokens.words[j])
    return words


def _neighbours(tokens: list[Tok], j1: int, j2: int) -> tuple[str, ...]:
    """The source words just before and just after tokens [j1, j2)."""
    before = next((t.text for t in reversed(tokens[:j1]) if t.kind == "word"), "")
    after = next((t.text for t in tokens[j2:] if t.kind == "word"), "")
    return before, after


def _repeated(word: str, run: list[str], around: tuple[str, ...], contract: Contract) -> bool:
    """A word said twice, or a false start of the next word ('it' before "it's"); a word that carries
    meaning is no false start ("can" before "cancel")."""
    if run.count(word) > 1 or word in around:
        return True
    after = around[-1] if around else ""
    return (bool(after) and after.startswith(word) and len(word) < len(after)
            and not contract.meaning_words([word]) and not contract.is_negation(word))


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


Opcode = tuple[Literal["replace", "delete", "insert", "equal"], int, int, int, int]  # get_opcodes()


def _source_tokens(src: Source, lo: int, hi: int) -> list[Tok]:
    found = [(m.group(), m.start(), m.end()) for m in TOKEN.finditer(src.norm.text, lo, hi)]
    # A word is weak when a word token of the source starts where it starts and is marked weak.
    starts, marks = src.tokens.starts, src.tokens.weak
    at = np.fromiter((start for _, start, _ in found), dtype=np.int64, count=len(found))
    k = np.searchsorted(starts, at)
    inside = k < len(starts)
    weak = np.zeros(len(found), dtype=bool)
    weak[inside] = (starts[k[inside]] == at[inside]) & marks[k[inside]]
    tokens: list[Tok] = []
    for (text, start, end), is_weak in zip(found, weak.tolist()):
        if text[0].isalnum() or text[0] == "_":
            tokens.append(Tok(text, start, end, "word", is_weak))
        else:
            tokens.append(Tok(text, start, end, "punct", False))
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

    def __init__(self, pq: PreparedQuote, corpus: Corpus, contract: Contract):
        self.pq = pq
        self.corpus = corpus
        self.contract = contract
        self.differences: list[Difference] = []
        self.bracket_reasons: list[str] = []
        self.bracket_signals: list[str] = []
        self.bracket_replaces = False
        self.spacing = False
        self._diffs: dict[tuple[int, int, int], tuple[list[Tok], list[Opcode]]] = {}

    def q_orig(self, lo: int, hi: int) -> str:
        a, b = self.pq.norm.to_original(lo, hi)
        return self.pq.text[a:b]

    def s_orig(self, src: Source, lo: int, hi: int) -> str:
        a, b = src.norm.to_original(lo, hi)
        return src.document.text[a:b]

    def add(self, kind: DifferenceKind, quote_text: str, source_text: str) -> None:
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
        s_hi, left_off = self._clitic_edge(seg, src, s_hi)
        if (self.q_orig(q_lo, q_hi) == self.s_orig(src, s_lo, s_hi)
                and not src.pages.skipped(src.document.text, *src.norm.to_original(s_lo, s_hi))):
            self.differences += left_off
            # Character for character, and no page furniture copied with it: nothing else to name. Brackets
            # included: "[in one location]" where the source writes it so is the source's own, not the editor's.
            return s_lo, s_hi
        q = self._numbers(_quote_tokens(self.pq, q_lo, q_hi))
        self._diffs.clear()  # the diffs of this piece's quote tokens only
        s_lo, s_hi = self._refit(q, src, s_lo, s_hi)
        s, ops = self._diff(q, src, s_lo, s_hi)
        first_word = int(np.searchsorted(src.tokens.starts, s_lo))
        for op, i1, i2, j1, j2 in ops:
            if op == "equal":
                self._equal_run(src, q[i1:i2], s[j1:j2])
            else:
                before = first_word + sum(1 for t in s[:j1] if t.kind == "word")
                kind = self.label(q[i1:i2], s[j1:j2], src, _neighbours(s, j1, j2), before)
                self.add(kind, self._q_text(q[i1:i2]), self._s_text(src, s[j1:j2]))
        # Page furniture between the quoted words (quoteverify.sources.pages): the words align across it.
        for skipped in src.pages.skipped(src.document.text, *src.norm.to_original(s_lo, s_hi)):
            self.add(skipped.kind, "", src.document.text[skipped.start:skipped.end])
        self.differences += left_off
        return s_lo, s_hi

    def _number_keys(self, text: str) -> list[str]:
        tokens = [m.group() for m in TOKEN.finditer(straight(text))]
        return sorted(p.key for p in number_phrases(tokens, self.contract.language))

    def _refit(self, q: list[Tok], src: Source, s_lo: int, s_hi: int) -> tuple[int, int]:
        """Move an end of the source span by a word or two where that makes the difference at the quote's
        edge benign: words align one for one, so "I'll be" first finds "will be" of "I will be", and a
        ragged end may take in the end of the sentence before ("it. I'm" for "I am")."""
        for at_start in (True, False):
            kind = self._edge_kind(q, src, s_lo, s_hi, at_start)
            if kind is None or kind in BENIGN | EDITS | IN_PLACE | {"speech_act"}:
                continue  # a question mark is not moved out of the span to make a statement of it
            for lo, hi in self._alternatives(src, s_lo, s_hi, at_start, back=self.contract.false_start_words):
                kind = self._edge_kind(q, src, lo, hi, at_start)
                if kind is None or kind in BENIGN | EDITS | IN_PLACE:
                    s_lo, s_hi = lo, hi
                    break
        return s_lo, s_hi

    def _edge_kind(self, q: list[Tok], src: Source, s_lo: int, s_hi: int, at_start: bool) -> str | None:
        """The kind of the difference at the start (or end) of a piece; None when the edge matches."""
        s, ops = self._diff(q, src, s_lo, s_hi)
        if not ops:
            return None
        op, i1, i2, j1, j2 = ops[0] if at_start else ops[-1]
        if op == "equal":
            return None
        if any(t.kind == "editorial" for t in q[i1:i2]):
            return "editorial"  # a bracket is judged once, where it stands
        return self.label(q[i1:i2], s[j1:j2], src, _neighbours(s, j1, j2))

    def _diff(self, q: list[Tok], src: Source, s_lo: int, s_hi: int) -> tuple[list[Tok], list[Opcode]]:
        """The source's tokens in [s_lo, s_hi) and the word diff of the piece's quote tokens ``q`` with them;
        each span's once per piece (its two edges and the whole are judged on the same diff)."""
        key = (id(src), s_lo, s_hi)
        if key not in self._diffs:
            s = self._numbers(_source_tokens(src, s_lo, s_hi))
            ops = SequenceMatcher(None, [t.text for t in q], [t.text for t in s], autojunk=False).get_opcodes()
            self._diffs[key] = (s, ops)
        return self._diffs[key]

    @staticmethod
    def _alternatives(src: Source, s_lo: int, s_hi: int, at_start: bool, *, back: int):
        """Source spans wider within the sentence (at the start by up to ``back`` words, as far as a false start
        the quote leaves out may reach: "Well, [what bus configuration -] What main bus"; at the end by one or
        two), or cut after (before) a sentence stop."""
        starts, ends = src.tokens.starts, src.tokens.ends
        first = int(np.searchsorted(starts, s_lo))
        last = int(np.searchsorted(ends, s_hi, side="right"))  # one past the span's last word
        if at_start:
            for n in range(1, src.reach(first, back, back=True) + 1):
                yield int(starts[first - n]), s_hi
            stop = _SENTENCE_STOP.search(src.norm.text, s_lo, int(ends[min(last, first + 3) - 1]))
            if stop and (k := int(np.searchsorted(starts, stop.end()))) < last:
                yield int(starts[k]), s_hi
            for n in (1, 2):
                if first + n < last:
                    yield int(starts[first + n]), s_hi
        else:
            for n in range(1, src.reach(last, 2, back=False) + 1):
                yield s_lo, int(ends[last + n - 1])
            tail = int(starts[max(first, last - 3)])
            stops = list(_SENTENCE_STOP.finditer(src.norm.text, tail, s_hi))
            if stops and (k := int(np.searchsorted(ends, stops[-1].start(), side="right"))) > first:
                yield s_lo, int(ends[k - 1])

    @staticmethod
    def _markup(s: list[Tok], src: Source) -> bool:
        words = [t for t in s if t.kind == "word"]
        if not words:
            return False
        a, b = src.norm.to_original(s[0].lo, s[-1].hi)
        return _markup_between(src, a, b)

    def _numbers(self, toks: list[Tok]) -> list[Tok]:
        """Each number written in several tokens or in words made one token whose text is its value."""
        found = number_phrases([t.text for t in toks], self.contract.language)
        if not found:
            return toks
        out: list[Tok] = []
        k = 0
        for phrase in found:
            out += toks[k:phrase.start]
            first, last = toks[phrase.start], toks[phrase.end - 1]
            out.append(Tok(phrase.key, first.lo, last.hi, "word", False))
            k = phrase.end
        return out + toks[k:]

    def _q_text(self, toks: list[Tok]) -> str:
        return self.q_orig(toks[0].lo, toks[-1].hi) if toks else ""

    def _s_text(self, src: Source, toks: list[Tok]) -> str:
        return self.s_orig(src, toks[0].lo, toks[-1].hi) if toks else ""

    def _equal_run(self, src: Source, q: list[Tok], s: list[Tok]) -> None:
        """Equal after normalization: name each stretch whose original text differs."""
        run_q: list[Tok] = []
        run_s: list[Tok] = []
        for tq, ts in zip(q, s):
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
            quote_text, source_text = self._q_text(q), self._s_text(src, s)
            spelt = any(is_number(t.text) for t in q) and quote_text.casefold() != source_text.casefold()
            kind: DifferenceKind = "number_format" if spelt else "normalization"
            if any(mixed_script(self.q_orig(t.lo, t.hi)) for t in q if t.kind == "word"):
                kind = "homoglyph"  # letters of another script that look the same: found, never benign
            elif spelt and not all(self._in_number_sense(src, tq, ts) for tq, ts in zip(q, s)):
                kind = "sense"  # "no 1" for "no one", "in a 2nd" for "in a second": no number there
            elif any(self._case_changes(src, tq, ts) for tq, ts in zip(q, s) if tq.kind == "word"):
                kind = "case"
            self.add(kind, quote_text, source_text)

    def _in_number_sense(self, src: Source, tq: Tok, ts: Tok) -> bool:
        """Whether a source word the quote writes in digits is a number where it stands
        (rules.number_in_sense: not "one" of "no one", not "second" of "in a second")."""
        lexicon = self.contract.lexicon
        word = straight(self.s_orig(src, ts.lo, ts.hi))
        if lexicon is None or not is_number(tq.text) or not word.isalpha():
            return True
        k = int(np.searchsorted(src.tokens.starts, ts.lo))
        return number_in_sense(lexicon, word, src.tokens.words[k - 1] if k > 0 else "")

    def _case_changes(self, src: Source, tq: Tok, ts: Tok) -> bool:
        """A word written in another case that makes it another word (rules.case_changes_word), where
        nothing shows the change to be style: not a sentence's first word, not "I", and neither the quote
        nor the source passage written in one case throughout."""
        quote_word, source_word = self.q_orig(tq.lo, tq.hi), self.s_orig(src, ts.lo, ts.hi)
        if not case_changes_word(quote_word, source_word) or tq.text == "i":
            return False
        capitals = len(quote_word) > 1 and quote_word.isupper() and not self.pq.text.isupper()
        if self._one_case(self.pq.text) and not capitals:
            return False  # a quote in small letters throughout; a word in capitals in it is emphasis or a name
        a, b = src.norm.to_original(ts.lo, ts.hi)
        passage = src.document.text[max(0, a - 200):b + 200]
        if self._one_case(passage):
            return False
        q_at = self.pq.norm.to_original(tq.lo, tq.hi)[0]
        return not (_opens_sentence(self.pq.text[:q_at]) or _opens_sentence(src.document.text[max(0, a - 40):a]))

    @staticmethod
    def _one_case(text: str) -> bool:
        """Written in one case throughout: all capitals, or all small letters but for a sentence's first
        word, words in capitals (emphasis, acronyms: those are judged word by word) and "I"."""
        if all(ch.isupper() for ch in text if ch.isalpha() and ch not in "Ii"):
            return True
        words = [m.group() for m in _ALPHA_WORD.finditer(text)
                 if not _opens_sentence(text[max(0, m.start() - 40):m.start()])]  # not a sentence's first
        return all(w.islower() for w in words if not (len(w) > 1 and w.isupper()) and w != "I")

    def label(self, q: list[Tok], s: list[Tok], src: Source, around: tuple[str, ...] = (), at: int = 0
              ) -> DifferenceKind:
        """The kind of one difference; ``around`` holds the source words either side of it, ``at`` the
        index of its first source word. Benign only by a positive test of the verdict contract (rules)."""
        qw = [t.text for t in q if t.kind == "word"]
        sw = [t.text for t in s if t.kind == "word"]
        contract = self.contract
        if any(t.kind == "editorial" for t in q):
            return self._editorial(q, qw, sw, src, at, s)
        if not qw and not sw:
            if _signs_a_number(q, self.pq.norm.text) or _signs_a_number(s, src.norm.text):
                return "number"  # "-5" for "5", "€5" for "$5", "5%" for "5"
            if _asks(q) != _asks(s) and _ends(q) and _ends(s):
                return "speech_act"  # "It was easy." for "It was easy?"
            if self._inner_marks(q) > _quote_marks(s):
                return "quote_marks"  # "a "fair" bit" for "a fair bit": scare quotes, a stance put in
            dash_dropped = any(t.text == "-" for t in s) and not q
            return "disfluency" if dash_dropped else "punctuation"
        if not qw and self._markup(s, src):
            return "markup"  # a timecode or the same speaker's label again, inside the quoted words
        if not qw and self._left_out_empty(s, src, sw, around):
            return "disfluency"  # a repeat or false start, "no -- no", even of a number or a negation
        if sorted(w for w in qw if is_number(w)) != sorted(w for w in sw if is_number(w)):
            return "number"
        if sum(map(contract.is_negation, qw)) != sum(map(contract.is_negation, sw)):
            return "negation"
        if "".join(qw).replace("'", "") == "".join(sw).replace("'", "") and len(qw) != len(sw):
            if contract.lexicon is not None and contract.lexicon.same_spelling(" ".join(qw), " ".join(sw)):
                return "spelling"  # "all right" for "alright"
            # An apostrophe between the pieces ("it [sic]'s"), or a hyphen at a line end ("equi-/pment").
            split, norm = (q, self.pq.norm) if len(qw) > len(sw) else (s, src.norm)
            marked = any(t.text == "'" or (t.text == "-" and _line_end_after(norm, t.hi))
                         for t in split if t.kind == "punct")
            if benign_join(contract, qw, sw, hyphenated=marked):
                return "normalization"
            return "hyphenation" if any(t.text == "-" for t in split) else "word"
        edge = self._word_edge(q, qw, sw)
        if edge:
            return edge  # "Joe" for "Joe's" (clitic), "isual" for "visual" (cut)
        if self._names(q, self.pq.norm, self.pq.text) ^ self._names(s, src.norm, src.document.text):
            return "name"  # any change to a name is another person or place, one letter or more
        readings = contraction_readings(contract.lexicon, qw) & contraction_readings(contract.lexicon, sw)
        if readings:
            return "contraction" if self._spelt_out_as_said(readings, s, src) else "sense"
        if not sw and all(t.weak for t in q if t.kind == "word"):
            return "disfluency"
        if spelling_variant(contract, qw, sw):
            assert contract.lexicon is not None  # spelling_variant finds none without one
            return "sense" if narrows_sense(contract.lexicon, qw, sw) else "spelling"
        capitalised = self._capitalised(q, self.pq.norm, self.pq.text) or self._capitalised(
            s, src.norm, src.document.text)
        if len(qw) == 1 and len(sw) == 1 and not capitalised and slip(contract, qw[0], sw[0]):
            return "typo"
        if len(qw) == 1 and len(sw) == 1 and not capitalised and near_word(contract, qw[0], sw[0]):
            return "near_word"
        return "word"

    def _inner_marks(self, q: list[Tok]) -> int:
        """Quotation marks among the quote's tokens ``q`` that stand between words of one fragment of the quote:
        not the marks it (or a part between ellipses) is wrapped in ("“He said we are done.”"), and of single
        marks only one that opens before a letter (not the apostrophe of "workers' union" or "'80s")."""
        pq, text = self.pq, self.pq.norm.text
        count = 0
        for t in q:
            k = int(np.searchsorted(pq.starts, t.lo))
            if t.text not in QUOTE_MARKS or not 0 < k < len(pq.words) or pq.fragment[k - 1] != pq.fragment[k]:
                continue
            opens = not text[t.lo - 1:t.lo].isalnum() and text[t.hi:t.hi + 1].isalpha()
            count += t.text not in SINGLE_MARKS or opens
        return count

    def _spelt_out_as_said(self, readings: set[tuple[str, ...]], s: list[Tok], src: Source) -> bool:
        """Whether, in one of the ``readings`` the quote and the source words ``s`` share, each contraction of
        the source that reads two ways ("I'd", "it's") is spelt out as the source's next words allow
        (rules.spelt_out_as_said): "I had like" for "I'd like" is not."""
        lexicon = self.contract.lexicon
        assert lexicon is not None  # contraction_readings found none without one
        words = [t for t in s if t.kind == "word"]
        sw = [t.text for t in words]
        return any(all(spelt_out_as_said(lexicon, word, _next_words(src, words[k].lo))
                       for k, word in spelt_out(lexicon, sw, reading)) for reading in sorted(readings))

    def _left_out_empty(self, s: list[Tok], src: Source, sw: list[str], around: tuple[str, ...]) -> bool:
        """Whether source words the quote leaves out are disfluencies (omissions.disfluent) or repeats."""
        words = [t for t in s if t.kind == "word"]
        first = int(np.searchsorted(src.tokens.starts, words[0].lo))
        mask = left_out(src, self.contract, first, first + len(words))
        return all(m or _repeated(t.text, sw, around, self.contract) for t, m in zip(words, mask))

    def _fragment_edges(self, tok: Tok) -> tuple[bool, bool]:
        """Whether a quote word opens and whether it closes its fragment (the quote, or a part between
        ellipses)."""
        pq = self.pq
        k = int(np.searchsorted(pq.starts, tok.lo))
        if k >= len(pq.words) or pq.starts[k] != tok.lo:
            return False, False
        return (k == 0 or pq.fragment[k - 1] != pq.fragment[k],
                k + 1 == len(pq.words) or pq.fragment[k + 1] != pq.fragment[k])

    def _word_edge(self, q: list[Tok], qw: list[str], sw: list[str]) -> DifferenceKind | Literal[""]:
        """The kind of one quote word against one source word at the edge of the quote: "clitic" for a word
        the source writes with a clitic where the quote ends ("Joe" for "Joe's"), "cut" for a piece of the
        source word ("isual" for "visual"); a clitic left off inside the quote is a word change; '' else."""
        words = [t for t in q if t.kind == "word"]
        if len(words) != 1 or len(sw) != 1:
            return ""
        opens, closes = self._fragment_edges(words[0])
        if with_clitic(qw[0], sw[0]):
            return "clitic" if closes and clitic(self.contract, qw[0], sw[0]) else "word"
        if opens and cut_word(self.contract, qw[0], sw[0], at_start=True):
            return "cut"
        # One letter short at the end is a slip as well ("budge" for "budget"): the typo test decides that.
        return "cut" if closes and cut_word(self.contract, qw[0], sw[0], at_start=False) and not slip(
            self.contract, qw[0], sw[0]) else ""

    def _clitic_edge(self, seg: Segment, src: Source, s_hi: int) -> tuple[int, list[Difference]]:
        """A piece ending a fragment on the word the source writes with a benign clitic (rules.clitic: "Grandpa
        Joe" found at "Grandpa Joe's stories", or "parties" at "parties' views"): the clitic is named, and the
        span ends at the word's edge, where the quote does. Returns the span's (normalized) end and the
        clitic's difference, to be named after the piece's others."""
        k, d = seg.q_end - 1, seg.d_end - 1
        if d < seg.d_start or not self.pq.words[k] or not self._fragment_edges(
                Tok("", int(self.pq.starts[k]), 0, "word", False))[1]:
            return s_hi, []
        word, end = src.tokens.words[d], int(src.tokens.ends[d])
        text = src.norm.text
        if word == self.pq.words[k] and word.endswith("s") and text[end:end + 1] == "'" and s_hi == end and not (
                text[end + 1:end + 2].isalnum() or _opening_quote_before(text, int(src.tokens.starts[d]))):
            word, end = word + "'", end + 1  # "parties' views": the apostrophe stands outside the word token
        elif s_hi != end:
            return s_hi, []
        if not clitic(self.contract, self.pq.words[k], word):
            return s_hi, []  # "early 30" at "early 30's": the diff names what differs
        left_off = Difference("clitic", self.q_orig(int(self.pq.starts[k]), int(self.pq.ends[k])),
                              self.s_orig(src, int(src.tokens.starts[d]), end))
        return min(s_hi, end - (len(word) - len(self.pq.words[k]))), [left_off]

    @staticmethod
    def _capitalised(toks: list[Tok], norm, original: str) -> bool:
        """Whether a word is written with a capital (not 'I', not shouting)."""
        return any(word[:1].isupper() and not word.isupper() for _, word, _ in _originals(toks, norm, original))

    def _editorial(self, q: list[Tok], qw: list[str], sw: list[str], src: Source, at: int, s: list[Tok]
                   ) -> DifferenceKind:
        """A bracket against the source words it stands for (rules.bracket); the quote's own words
        beside it must be the source's."""
        inside = " ".join(t.text[1:].replace("[", " ").replace("]", " ") for t in q if t.kind == "editorial")
        inserted = WORD.findall(inside)
        said = inserted + qw
        if sorted(w for w in said if is_number(w)) != sorted(w for w in sw if is_number(w)):
            return "number"
        if self._number_keys(inside + " " + " ".join(qw)) != self._number_keys(self._s_text(src, s).casefold()):
            return "number"  # "[15%]" for "fifteen": the value with its unit
        if sum(map(self.contract.is_negation, said)) != sum(map(self.contract.is_negation, sw)):
            return "negation"
        if any(w not in sw for w in qw):
            return "word"
        replaced = list(sw)
        for w in qw:  # the quote's own words beside the bracket are not replaced by it
            replaced.remove(w)
        mark = next(t for t in q if t.kind == "editorial")
        before = list(WORD.finditer(self.pq.norm.text, 0, mark.lo))
        site = self._site(src, at, len(sw), before[-1].group() if before else "")
        test = bracket(self.contract, inserted, replaced, site)
        if test.reason:
            self.bracket_reasons.append(test.reason)
            self.bracket_signals.append(test.signal)
            self.bracket_replaces |= bool(replaced)
        return test.kind

    def _site(self, src: Source, at: int, replaced: int, after: str) -> BracketSite:
        """What a reader has heard where a bracket stands for source words [at, at + replaced)."""
        reach = self.contract.bracket_context_words
        asked = _asked_before(src, at, reach, self.contract)
        spoken = _spoken_before(src, at, reach) + asked
        turn = src.turn_at(src.span(at, at + 1)[0]) if at < len(src.tokens) else None
        speaker = frozenset(straight(w) for w in WORD.findall(turn.speaker.casefold())) if turn else frozenset()
        body = src.word_at(turn.body) if turn is not None else 0
        named = tuple(n for n in names_in(src, body, at) if straight(n.casefold()) not in speaker)
        following = at + replaced
        while following < len(src.tokens) and src.tokens.weak[following]:
            following += 1
        next_word = ""
        if following < len(src.tokens) and not _PARTS.search(src.norm.text, int(src.tokens.ends[following - 1]),
                                                              int(src.tokens.starts[following])):
            next_word = src.tokens.words[following]
        return BracketSite(frozenset(src.tokens.words[k] for k in spoken), speaker, after, named, next_word)

    @staticmethod
    def _names(toks: list[Tok], norm, original: str) -> frozenset[str]:
        """Words written with a capital that are not sentence-initial, shouting or 'I'."""
        names = set()
        for t, word, a in _originals(toks, norm, original):
            if not word[:1].isupper() or word.isupper() or straight(word).startswith("i'") or word == "I":
                continue
            before = original[max(0, a - 40):a]
            if _BOUNDARY_BEFORE.search(before) and not _TITLE.search(before):
                continue
            names.add(t.text)
        return frozenset(names)


def _spoken_before(src: Source, at: int, reach: int) -> list[int]:
    """The words spoken just before source word ``at``: back to the start of the sentence before, at most
    ``reach`` words; no speaker labels, fillers or stage directions."""
    spoken: list[int] = []
    stops = 0
    for k in range(at - 1, -1, -1):
        if len(spoken) >= reach:
            break
        first, last = src.span(k, k + 1)
        if _STOP_INSIDE.search(gap_text(src, k + 1)) and not _TITLE.search(src.document.text[first:last + 2]):
            stops += 1
            if stops == 2:
                break
        turn = src.turn_at(first)
        if (turn is None or not turn.start <= first < turn.body) and not src.tokens.weak[k]:
            spoken.append(k)
    return spoken


def _asked_before(src: Source, at: int, reach: int, contract: Contract) -> list[int]:
    """The words of the turn before the one source word ``at`` stands in, when another speaker said them, word
    ``at`` is among the first ``reach`` words of its turn and opens its sentence (only words that name nothing
    before it: "Yes, there were. They [the meetings] started ..."; not "from the students that they [...]",
    where the sentence names its own): the question it answers ("What happens on the ward?" -- "It [the ward]
    is ..."); at most its last ``reach`` words, without fillers or stage directions."""
    turn = src.turn_at(src.span(at, at + 1)[0]) if at < len(src.tokens) else None
    body = src.word_at(turn.body) if turn is not None else 0
    if turn is None or at - body > reach or turn.start == 0:
        return []
    start = next((k for k in range(at, body, -1) if stop_before(src, k)), body)
    if not all(src.tokens.weak[k] or function_word(contract, src.tokens.words[k]) for k in range(start, at)):
        return []
    before = src.turn_at(turn.start - 1)
    if before is None or speaker_key(before.speaker) == speaker_key(turn.speaker):
        return []
    lo, hi = src.word_at(before.body), src.word_at(turn.start)
    return [k for k in range(max(lo, hi - reach), hi) if not src.tokens.weak[k]]


def _opening_quote_before(text: str, at: int) -> bool:
    """Whether a single quotation mark opens before ``at`` on its line ("the word 'parties' here"), so that
    an apostrophe after the word closes it rather than marking a possessive."""
    line = text[text.rfind("\n", 0, at) + 1:at]
    open_marks = 0
    for i, ch in enumerate(line):
        if ch != "'":
            continue
        before = i > 0 and line[i - 1].isalnum()
        after = i + 1 < len(line) and line[i + 1].isalnum()
        if not before and after:
            open_marks += 1
        elif before and not after and open_marks:
            open_marks -= 1
    return open_marks > 0


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


def _elision(src: Source, contract: Contract, prev: Segment, seg: Segment, p_end: int, start: int) -> Elision:
    """What one ellipsis stands for: the source between two pieces, and whether a test shows it empty
    (omissions): whole sentences of one turn, disfluencies, or an aside."""
    text = src.document.text
    gap = src.pages.author_text(text, p_end, start)  # a page's header and footer are nothing left out
    lo, hi = prev.d_end, seg.d_start
    ends = list(_SENTENCE_STOP.finditer(gap))
    lead = len(gap) - len(gap.lstrip())
    opens_with_stop = bool(ends) and ends[0].start() == lead
    after_stop = opens_with_stop or bool(_STOP_BEFORE.search(text[max(0, p_end - 4):p_end]))
    # Whole sentences, and perhaps the "And then" the next one opens with: it goes with them.
    whole = bool(ends) and after_stop and _only_joins(contract, gap[ends[-1].end():])
    between = src.turns.speakers([(max(0, p_end - 1), start)]) if src.turns.crossed(p_end, start) else ()
    if len({speaker_key(x) for x in between}) > 1:
        # The turns the ellipsis runs over, one speaker once: any other speaker than the quoted one joins in.
        return Elision(gap, hi - lo, 0, between, tuple(hidden(contract, [gap])), left_out=gap.strip())
    if whole and _one_turn(src, gap):
        sentences = len(ends) - opens_with_stop
        opener = points_back(contract, src.tokens.words[hi:hi + 4], left_out=src.tokens.words[lo:hi], asked="?" in gap,
                             labelled=len(src.turns) > 0)
        if not opener:
            return Elision(gap, hi - lo, sentences, shown="sentences")
        return Elision(gap, hi - lo, sentences, left_out=gap.strip(), points_back=opener)
    # Only the sentences the kept words belong to can be qualified by what is left out of them;
    # whole sentences in between say their own things.
    found = tuple(hidden(contract, [gap] if not ends else [gap[:ends[0].end()], gap[ends[-1].end():]]))
    mask = left_out(src, contract, lo, hi)
    if mask.all():
        return Elision(gap, hi - lo, 0, hidden=found, shown="disfluency")
    if aside(src, contract, lo, hi):
        return Elision(gap, hi - lo, 0, hidden=found, shown="aside")
    if addressed(src, contract, lo, hi):
        return Elision(gap, hi - lo, 0, hidden=found, shown="address")
    return Elision(gap, hi - lo, 0, hidden=found, left_out=_shown_words(src, lo, mask),
                   set_off=set_off(src, contract, lo, hi))


def _shown_words(src: Source, lo: int, mask: np.ndarray) -> str:
    """The source words from ``lo`` that ``mask`` leaves unmarked, each unbroken stretch as the source writes
    it ("second-hand", "the donors'")."""
    stretches, k = [], 0
    while k < len(mask):
        if mask[k]:
            k += 1
            continue
        start = k
        while k < len(mask) and not mask[k]:
            k += 1
        a, b = src.span(lo + start, lo + k)
        stretches.append(src.document.text[a:b])
    return " ".join(stretches)


def _only_joins(contract: Contract, text: str) -> bool:
    """Whether ``text`` holds no words, or only a coordinator ("and", "and then", "so") that joins a sentence
    to the one before."""
    words = tuple(straight(w) for w in WORD.findall(text.casefold()))
    return not words or contract.lexicon is not None and words in contract.lexicon.phrases["coordinator"]


def _one_turn(src: Source, gap: str) -> bool:
    """Whether the source text an ellipsis stands for is shown to be one turn: the transcript has speaker
    labels (and the gap crosses no other speaker's, checked before), or it holds no paragraph break."""
    return len(src.turns) > 0 or not _PARAGRAPH_BREAK.search(gap)


def _open_ends(pq: PreparedQuote) -> tuple[bool, bool]:
    """Whether the quote opens and whether it closes with an ellipsis ("... and then we left ...")."""
    marks = [p for p in pq.parts if p.kind not in ("text", "label") or pq.norm.text[p.start:p.end].strip(" .,;:!?\"'")]
    return (bool(marks) and marks[0].kind == "ellipsis", bool(marks) and marks[-1].kind == "ellipsis")


def _rest_of_sentence(src: Source, contract: Contract, start: int, end: int, *, before: bool) -> Elision | None:
    """What the quote leaves out of the sentence it starts (``before``) or ends in, within its paragraph; None
    where it leaves out nothing of it."""
    text = src.document.text
    turn = src.turn_at(start)
    if before:
        lo = max(turn.body if turn is not None and turn.body <= start else 0, start - 2000)
        stops = [m for m in _SENTENCE_STOP.finditer(text, lo, start)
                 if not _TITLE.search(text[max(0, m.end() - 8):m.end()])]
        a, b = stops[-1].end() if stops else lo, start
    else:
        if _STOP_BEFORE.search(text[max(0, end - 4):end]):
            return None  # the quote ends its sentence
        following = src.turns.next_start(end)
        hi = min(len(text), end + 2000, following if following is not None else len(text))
        stop = _SENTENCE_STOP.search(text, end, hi)
        a, b = end, stop.start() if stop else hi
    return _left_out_of(src, contract, a, b, before=before)


def _left_out_of(src: Source, contract: Contract, a: int, b: int, *, before: bool,
                 found: tuple[tuple[str, str], ...] | None = None) -> Elision | None:
    """Original text [a, b) beside a quote, within the paragraph that holds the quote (the last one for the
    text ``before`` it), as the author wrote it (no page furniture); None when it holds no word."""
    breaks = list(_BLANK_LINE.finditer(src.document.text, a, b))
    if breaks:
        a, b = (breaks[-1].end(), b) if before else (a, breaks[0].start())
    rest = src.pages.author_text(src.document.text, a, b)
    if not WORD.search(rest):
        return None
    hidden_words = found if found is not None else tuple(hidden(contract, [rest]))
    return Elision(rest, len(WORD.findall(rest)), 0, hidden=hidden_words, left_out=rest.strip(),
                   where="before" if before else "after", span=(a, b))


def _corrected_after(src: Source, contract: Contract, end: int) -> Elision | None:
    """The next sentence of the turn, when it opens by correcting the one the quote ends with ("... two
    million of them. Oh sorry, four million")."""
    text = src.document.text
    following = src.turns.next_start(end)
    hi = min(len(text), end + 300, following if following is not None else len(text))
    closing = _STOP_AHEAD.match(text, end, hi)
    if closing:
        end = closing.end()  # the quote left its sentence's stop out
    stop = _SENTENCE_STOP.search(text, end, hi)
    sentence = _left_out_of(src, contract, end, stop.end() if stop else hi, before=False, found=())
    found = corrects(contract, sentence.text) if sentence is not None else []
    return replace(sentence, hidden=tuple(found)) if sentence is not None and found else None


# Quotation marks that open and that close a quotation in a source's text.
_OPENING_MARKS = frozenset("\"\u201c\u201e\u00ab")
_CLOSING_MARKS = frozenset("\"\u201d\u00bb")


def _whole_quotation(text: str, start: int, end: int) -> bool:
    """Whether original text [start, end) is a quotation of the source whole: it opens at an opening
    quotation mark (or just after one) and ends at the closing one (or just before it, its stop aside), and the
    sentence does not ask it ('Did you say, "..."?')."""
    opens = text[start:start + 1] in _OPENING_MARKS or text[max(0, start - 1):start] in _OPENING_MARKS
    after = text[end:end + 3].lstrip(".,;:!?")
    closes = text[end - 1:end] in _CLOSING_MARKS or after[:1] in _CLOSING_MARKS
    closing = end if text[end - 1:end] in _CLOSING_MARKS else end + text[end:end + 3].find(after[:1]) + 1
    return opens and closes and end > start and not text[closing:closing + 3].lstrip().startswith("?")


def _cut_edges(differ: _Differ, spans: list[tuple[int, int, int]]) -> list[Elision]:
    """What the quote leaves out of the sentences it starts and ends in: the rest an ellipsis at either end
    stands for, and the rest of a sentence it cuts without one when that rest turns the kept words."""
    opens, closes = _open_ends(differ.pq)
    cuts: list[Elision] = []
    for (doc, a, b), before, marked in ((spans[0], True, opens), (spans[-1], False, closes)):
        src = differ.corpus.sources[doc]
        rest = _rest_of_sentence(src, differ.contract, a, b, before=before)
        if rest is None and not before and not marked:
            rest = _corrected_after(src, differ.contract, b)
        if rest is None:
            continue
        assert rest.span is not None
        lo, hi = src.word_at(rest.span[0]), src.word_at(rest.span[1])
        shown = edge_shown(src, differ.contract, lo, hi, before=before)
        if marked:
            cuts.append(replace(rest, shown=shown))
            differ.add("elision", "...", rest.text)
            continue
        if shown == "disfluency":
            continue  # "I think -- [I guess we can ...]": a false start the quote rightly leaves behind
        # A short quote is checked against as few words of the rest as it has itself: "whether it's a sort
        # of [recognisable product]" names a product, "..., but I never did" turns a claim.
        reach = min(differ.contract.turning_reach_words, sum(1 for w in differ.pq.words if w))
        turns = turning(differ.contract, rest.text, before=before, reach=reach) or (
            [] if before else broken_off(src, differ.contract, lo))
        if before and len({doc for doc, _, _ in spans}) == 1 and _whole_quotation(
                src.document.text, spans[0][1], spans[-1][2]) and plainly_said(differ.contract, rest.text):
            # The quote is a quotation of the source, whole, that the sentence says plainly was said ('saying,
            # "..."', 'if ..., go "..."'; not 'Did you say, "..."?', 'they could have said "..."'): what introduces
            # it says who said it, and its marks show it; only a denial or a doubt turns it.
            turns = [hit for hit in turns if hit[0] in ("negation", "frame")]
        if turns:
            cuts.append(replace(rest, hidden=tuple(turns), marked=False))
            differ.add("excerpt", "", rest.text.strip())
    return cuts


def _labelled(differ: _Differ, span: tuple[int, int, int], label: str) -> tuple[int, int, int]:
    """The span of a quote that opens with a speaker's label (``label``, as the quote writes it): where the turn's
    label stands just before the words, the span takes it in; a label written otherwise than the turn's is named
    as markup beside it."""
    doc, start, end = span
    src = differ.corpus.sources[doc]
    turn = src.turn_at(start)
    said = src.document.text[turn.start:turn.body].strip() if turn is not None else ""
    if said != label:
        differ.add("markup", label, said)
    if turn is not None and said and not src.document.text[turn.body:start].strip():
        return doc, turn.start + src.document.text[turn.start:turn.body].find(said), end
    return span


def _between(differ: _Differ, prev: Segment, seg: Segment, prev_span: tuple[int, int], start: int, *,
             splice_gap_words: int) -> Elision | None:
    """Name how a piece follows the one before: another document, out of order, an ellipsis (returned),
    words left out in passing, or a splice."""
    pq, corpus = differ.pq, differ.corpus
    src, prev_src = corpus.sources[seg.doc], corpus.sources[prev.doc]
    p_start, p_end = prev_span
    piece = differ.q_orig(int(pq.starts[seg.q_start]), int(pq.ends[seg.q_end - 1]))
    # Lines, not character offsets: what a reader can find in the transcript.
    here = f"{src.document.doc_id} line {src.line_of(start)}"
    if seg.doc != prev.doc:
        differ.add("splice", piece, f"{here}, while the piece before is in "
                                    f"{prev_src.document.doc_id} line {prev_src.line_of(p_start)}")
    elif seg.d_start < prev.d_end:
        differ.add("order", piece, f"{here}, before the piece quoted ahead of it (line {prev_src.line_of(p_start)})")
    else:
        gap = src.document.text[p_end:start]
        if seg.fragment != prev.fragment:
            differ.add("elision", "...", gap)
            return _elision(src, differ.contract, prev, seg, p_end, start)
        if 0 < seg.d_start - prev.d_end <= splice_gap_words:
            empty = left_out(src, differ.contract, prev.d_end, seg.d_start).all()
            first, last = src.span(prev.d_end, seg.d_start)
            markup = _markup_between(src, first, last)
            differ.add("markup" if markup else "disfluency" if empty else "word", "", gap.strip())
        elif seg.d_start - prev.d_end > 0:
            differ.add("splice", piece, f"{here}; {seg.d_start - prev.d_end} source words after the piece before, "
                                        "joined without an ellipsis")
    return None


def compare(pq: PreparedQuote, alignment: Alignment, corpus: Corpus, *, splice_gap_words: int,
            contract: Contract) -> Comparison:
    """Name every difference between the quote and where it was found.

    Two pieces of one fragment (no ellipsis between them) with at most
    ``splice_gap_words`` source words between are one passage with words left
    out; further apart, they are a splice.
    """
    if not alignment.segments:
        return Comparison((), None, "")
    differ = _Differ(pq, corpus, contract)
    for completion in pq.completions:
        differ.add("editorial", completion, "")
    for part in pq.parts:
        if part.kind == "sic":
            differ.add("editorial", differ.q_orig(part.start, part.end), "")
    segments = sorted(alignment.segments, key=lambda s: s.q_start)
    spans: list[tuple[int, int, int]] = []   # (doc, original start, original end)
    elided: list[Elision] = []
    for k, seg in enumerate(segments):
        s_lo, s_hi = differ.compare_piece(seg)
        start, end = corpus.sources[seg.doc].norm.to_original(s_lo, s_hi)
        spans.append((seg.doc, start, end))
        if k:
            elision = _between(differ, segments[k - 1], seg, spans[k - 1][1:], start,
                               splice_gap_words=splice_gap_words)
            if elision is not None:
                elided.append(elision)
    elided += _cut_edges(differ, spans)
    for part in pq.parts:
        if part.kind == "label":  # "P1: We get ...": who says it; whether it is the right speaker is classify's
            spans[0] = _labelled(differ, spans[0], differ.q_orig(part.start, part.end).strip())
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
    pieces_text = " ... ".join(corpus.sources[d].pages.author_text(corpus.sources[d].document.text, a, b)
                               for d, a, b in spans)
    return Comparison(tuple(differ.differences), round(ratio, 4), src.document.text[start:end],
                      src.document.doc_id, start, end, pieces, tuple(elided), pieces_text,
                      tuple(differ.bracket_reasons), differ.bracket_replaces, tuple(differ.bracket_signals))
