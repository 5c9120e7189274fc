"""Where a quote is in the sources: exact fast path, then local alignment.

1. Exact: every fragment of the quote (split at ellipses, and at editorial
   insertions within a fragment) occurs word for word, in order, in one
   document, the gaps within bounds. Looked up through the quote's rarest word;
   which place is taken, and how many there are, is quoteverify.search.places.
2. Otherwise the quote is covered with pieces: the best local alignment of
   the fragment against the BM25 candidate regions, then the uncovered rest
   searched on its own, up to ``max_pieces`` pieces. One piece is a quote
   found with edits; several are a splice, a reordering or an elision.
3. Ends left uncovered (a slip in the first word) are absorbed by a
   semi-global alignment that must use every quote word.

4. With a claimed speaker who has turns in the document found, and the
   place found outside them, the quote is aligned again within those turns
   and taken there when it is a quotation there.

Alignment compares word ids. Skipping a source filler, stage direction or
repeated word is cheap (``weak_gap``); an editorial slot may stand for any
number of source words at a small cost.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np
from rapidfuzz.distance import OSA

from ..model.config import AlignConfig
from ..model.types import Alignment, Candidate, Segment, Window
from ..sources.corpus import CLITIC, EDITORIAL, Corpus, PreparedQuote
from ..sources.turns import speaker_key
from .index import Bm25Index, Retrieval
from .places import counted, exact_align


def _near_word(a: str, b: str) -> bool:
    """One slip apart with the first letter kept, one word inflected ("tablet", "tablets"), or one written
    with a clitic ("joe", "joe's")."""
    if a[:1] != b[:1] or min(len(a), len(b)) < 3:
        return False
    short, long_ = sorted((a, b), key=len)
    if long_ == short + CLITIC:
        return True
    if long_.startswith(short) and len(short) >= 4 and len(long_) - len(short) <= 3:
        return True
    return abs(len(a) - len(b)) <= 1 and OSA.distance(a, b) <= 1


@dataclass(frozen=True)
class _Local:
    score: int
    segment: Segment


def _costs(d_weak, p):
    left = np.where(d_weak, p.weak_gap, p.gap).astype(np.int64)
    return np.concatenate(([0], np.cumsum(left))), np.arange(len(d_weak) + 1, dtype=np.int64)


@dataclass(frozen=True)
class Sides:
    """What one alignment compares: the quote's word ids and which of them are weak (fillers, repeats: cheap to
    skip), and the source stretch's likewise."""

    q_ids: np.ndarray
    q_weak: np.ndarray
    d_ids: np.ndarray
    d_weak: np.ndarray


def _dp(sides: Sides, p: AlignConfig, *, local: bool) -> np.ndarray:
    """Score matrix H[i, j] of quote words [:i] against source words [:j].

    Local (Smith-Waterman) or semi-global (all quote words, any source stretch).
    Horizontal moves are resolved per row with a running maximum:
    H[j] = max_k<=j (T[k] - (C[j] - C[k])) = cummax(T + C)[j] - C[j].
    """
    q_ids, q_weak, d_ids = sides.q_ids, sides.q_weak, sides.d_ids
    n, m = len(q_ids), len(d_ids)
    H = np.zeros((n + 1, m + 1), dtype=np.int64)
    skip, skip_editorial = _costs(sides.d_weak, p)
    for i in range(1, n + 1):
        prev = H[i - 1]
        qi = q_ids[i - 1]
        if qi == EDITORIAL:
            diag = prev[:-1] - 1
            up = prev.copy()
            cost = skip_editorial
        else:
            diag = prev[:-1] + np.where(d_ids == qi, p.match, -p.mismatch)
            up = prev - (p.weak_gap if q_weak[i - 1] else p.gap)
            cost = skip
        t = up
        np.maximum(t[1:], diag, out=t[1:])
        if local:
            np.maximum(t, 0, out=t)
        H[i] = np.maximum.accumulate(t + cost) - cost
    return H


def _trace(H: np.ndarray, sides: Sides, p: AlignConfig, i: int, j: int, *, local: bool) -> tuple[int, int, int]:
    """Walk back from (i, j): (quote start, source start, words matched)."""
    q_ids, q_weak, d_ids, d_weak = sides.q_ids, sides.q_weak, sides.d_ids, sides.d_weak
    matched = 0
    while i > 0 and j > 0:
        h = H[i, j]
        if local and h == 0:
            break
        qi = q_ids[i - 1]
        if qi == EDITORIAL:
            s, up, left = -1, 0, 1
        else:
            s = p.match if d_ids[j - 1] == qi else -p.mismatch
            up = p.weak_gap if q_weak[i - 1] else p.gap
            left = p.weak_gap if d_weak[j - 1] else p.gap
        if h == H[i - 1, j - 1] + s:
            matched += s == p.match and qi != EDITORIAL
            i, j = i - 1, j - 1
        elif h == H[i - 1, j] - up:
            i -= 1
        elif h == H[i, j - 1] - left:
            j -= 1
        else:  # unreachable: every cell comes from one of the three moves
            raise AssertionError("alignment traceback lost its way")
    return i, j, matched


def local_align(pq: PreparedQuote, a: int, b: int, corpus: Corpus, region: Candidate, fragment: int,
                p: AlignConfig) -> _Local | None:
    """Best local alignment of quote words [a, b) within a source region."""
    src = corpus.sources[region.doc]
    d_ids = src.ids[region.start:region.end]
    d_weak = src.tokens.weak[region.start:region.end]
    sides = Sides(pq.ids[a:b], pq.weak[a:b], d_ids, d_weak)
    if not len(d_ids) or not len(sides.q_ids):
        return None
    H = _dp(sides, p, local=True)
    flat = int(np.argmax(H))
    i, j = divmod(flat, H.shape[1])
    score = int(H[i, j])
    if score <= 0:
        return None
    i0, j0, matched = _trace(H, sides, p, i, j, local=True)
    return _Local(score, Segment(region.doc, a + i0, a + i, region.start + j0, region.start + j, fragment,
                                 int(matched)))


def glocal_align(pq: PreparedQuote, a: int, b: int, corpus: Corpus, stretch: Window, fragment: int,
                 p: AlignConfig) -> Segment:
    """Semi-global alignment: every quote word in [a, b), any part of the source ``stretch`` (word tokens)."""
    src = corpus.sources[stretch.doc]
    lo, hi = max(0, stretch.start), min(len(src.ids), stretch.end)
    sides = Sides(pq.ids[a:b], pq.weak[a:b], src.ids[lo:hi], src.tokens.weak[lo:hi])
    H = _dp(sides, p, local=False)
    j = int(np.argmax(H[-1]))
    i0, j0, matched = _trace(H, sides, p, len(sides.q_ids), j, local=False)
    # The walk may end in column 0 with quote words left: they align to nothing.
    return Segment(stretch.doc, a, b, lo + j0, lo + j, fragment, int(matched))


class Aligner:
    """Aligns prepared quotes against a corpus with its BM25 index."""

    def __init__(self, corpus: Corpus, index: Bm25Index, *, align: AlignConfig, top_k: int):
        self.corpus = corpus
        self.index = index
        self.p = align
        self.top_k = top_k

    def _exact(self, pq: PreparedQuote, prefer_doc: int | None, speaker: str) -> Alignment | None:
        exact = exact_align(pq, self.corpus, self.p, prefer_doc, speaker)
        if exact is None:
            return None
        return replace(exact, segments=tuple(self._editorial_edges(pq, list(exact.segments))))

    def align_exact(self, pq: PreparedQuote, prefer_doc: int | None = None, speaker: str = "") -> Alignment | None:
        """The exact fast path alone: the alignment if it settles the quote, else None."""
        exact = self._exact(pq, prefer_doc, speaker)
        if exact is None or (prefer_doc is not None and exact.segments[0].doc != prefer_doc):
            return None  # not found verbatim, or found elsewhere than claimed: align() decides
        if self._speaker_elsewhere(exact, speaker):
            return None  # the claimed speaker speaks there, but not these words verbatim: align() looks closer
        return exact

    def align(self, pq: PreparedQuote, prefer_doc: int | None = None, speaker: str = "") -> Alignment:
        """Locate a quote; ``prefer_doc`` is the document the quote claims, if any, ``speaker`` the speaker.

        Precedence (README, "How a place is chosen"): the claimed speaker's turns, then the rest of the
        claimed document, then elsewhere."""
        found = self._exact(pq, prefer_doc, speaker)
        if found is None:
            found = self._located(pq, prefer_doc)
            if prefer_doc is not None and any(s.doc != prefer_doc for s in found.segments):
                # The corpus's best regions may all lie elsewhere when the quote's words are common ones: the
                # claimed document's own best regions are searched too, and win when they hold as much.
                claimed = self._fuzzy(pq, prefer_doc, only_doc=prefer_doc)
                if sum(s.matched for s in claimed.segments) >= sum(s.matched for s in found.segments):
                    found = claimed
        elif prefer_doc is not None and found.segments[0].doc != prefer_doc:
            # Verbatim elsewhere, but perhaps in the claimed document with a slip: the claim wins then.
            claimed = self._fuzzy(pq, prefer_doc, only_doc=prefer_doc)
            matched = sum(s.matched for s in claimed.segments)
            if len(claimed.segments) == 1 and matched >= self.p.claimed_coverage * pq.content_words:
                found = claimed
        if self._speaker_elsewhere(found, speaker):
            found = self._in_turns_of(pq, found, speaker)
        return found if found.method == "exact" else counted(found, self.corpus, self.p, speaker)

    def _located(self, pq: PreparedQuote, prefer_doc: int | None) -> Alignment:
        """A quote not found verbatim: local alignment, then again with near words if too little aligns."""
        found = self._fuzzy(pq, prefer_doc)
        if sum(s.matched for s in found.segments) >= self.p.near_retry * pq.content_words:
            return found
        near = self._fuzzy_near(pq, prefer_doc, sum(s.matched for s in found.segments))
        # Only when near words make it a quotation: a rewording stays what it was.
        if near is not None and sum(s.matched for s in near.segments) >= self.p.near_retry * pq.content_words:
            return near
        return found

    def _speaker_elsewhere(self, found: Alignment, speaker: str) -> bool:
        """Whether a speaker is claimed who has turns in the document the quote was found in, and the place
        found is in none of them."""
        if not speaker_key(speaker) or not found.segments:
            return False
        first = min(found.segments, key=lambda s: s.q_start)
        src = self.corpus.sources[first.doc]
        keys = src.turns.keys_of(speaker)
        if first.d_start >= len(src.tokens) or not keys:
            return False
        return not src.turns.said_by(src.span(first.d_start, first.d_start + 1)[0], keys)

    def _in_turns_of(self, pq: PreparedQuote, found: Alignment, speaker: str) -> Alignment:
        """The quote aligned within the claimed speaker's turns of the document it was found in: taken when
        it is a quotation there (as many words match as where it was found, or ``claimed_coverage`` of
        them), else what was found."""
        doc = min(found.segments, key=lambda s: s.q_start).doc
        src = self.corpus.sources[doc]
        regions = []
        for body, end in src.turns.spans_of(src.turns.keys_of(speaker)):
            start, stop = src.words_in(body, end if end is not None else len(src.document.text))
            if stop > start:
                regions.append(Candidate(doc, start, stop, 0.0))
        there = self._fuzzy(pq, doc, only_doc=doc, regions=regions)
        need = min(sum(s.matched for s in found.segments), math.ceil(self.p.claimed_coverage * pq.content_words))
        pieces = sorted(there.segments, key=lambda s: s.q_start)
        # One piece per fragment, in the source's order: a quotation, not words gathered from here and there.
        whole = [s.fragment for s in pieces] == list(range(pq.fragments)) and all(
            s.doc == doc for s in pieces) and all(a.d_end <= b.d_start for a, b in zip(pieces, pieces[1:]))
        if not whole or self._speaker_elsewhere(there, speaker) or sum(s.matched for s in pieces) < need:
            return found
        return replace(there, bm25_score=found.bm25_score, bm25_ratio=found.bm25_ratio)

    def _fuzzy(self, pq: PreparedQuote, prefer_doc: int | None, only_doc: int | None = None,
               regions: list[Candidate] | None = None) -> Alignment:
        """Cover the quote with locally aligned pieces, in the regions BM25 ranks best (or in ``regions``)."""
        words = [w for w in pq.words if w]
        if not words:
            return Alignment("none", (), 0)
        retrieval = Retrieval(tuple(regions), None, None) if regions is not None else self.index.retrieve(
            words, top_k=self.top_k, span_words=len(pq.words), prefer_doc=prefer_doc, only_doc=only_doc)
        segments: list[Segment] = []
        nearest: _Local | None = None
        for f in range(pq.fragments):
            a, b = pq.fragment_range(f)
            near: list[Candidate] = []
            if segments:
                last = segments[-1]
                near.append(Candidate(last.doc, last.d_end, last.d_end + self.p.max_gap_words + 2 * (b - a), 0.0))
            found, best = self._cover(pq, a, b, f, near + list(retrieval.candidates), prefer_doc, only_doc)
            segments.extend(found)
            if best is not None and (nearest is None or best.score > nearest.score):
                nearest = best
        segments = self._editorial_edges(pq, self._absorb_ends(pq, segments))
        anchor = max(segments, key=lambda s: s.matched) if segments else (nearest.segment if nearest else None)
        return Alignment("fuzzy" if segments else "none", tuple(segments), pq.content_words,
                         retrieval.best_score, retrieval.ratio, nearest.segment if nearest else None,
                         self._passage(anchor, len(pq.words)) if anchor else None)

    def _fuzzy_near(self, pq: PreparedQuote, prefer_doc: int | None, matched: int) -> Alignment | None:
        """Align again with each quote word that occurs in no candidate region read as a near word that does:
        one slip away ("taxt", "text") or the same word inflected ("tablets", "tablet"). In a short quote
        one such word is too many to locate it; the diff then names the difference as usual."""
        words = [w for w in pq.words if w]
        retrieval = self.index.retrieve(words, top_k=self.top_k, span_words=len(pq.words), prefer_doc=prefer_doc)
        vocab: dict[str, int] = {}
        for c in retrieval.candidates:
            src = self.corpus.sources[c.doc]
            vocab.update(zip(src.tokens.words[c.start:c.end], src.ids[c.start:c.end].tolist()))
        ids = pq.ids.copy()
        changed = 0
        for k, word in enumerate(pq.words):
            if not word or ids[k] == EDITORIAL or word in vocab:
                continue
            near = next((v for v in vocab if _near_word(word, v)), None)
            if near is not None:
                ids[k], changed = vocab[near], changed + 1
        if matched + changed < self.p.near_retry * pq.content_words:
            return None  # near words could not make it a quotation (a shuffled sentence has none to read)
        return self._fuzzy(replace(pq, ids=ids), prefer_doc)

    def _passage(self, anchor: Segment, words: int) -> Segment:
        """Whole sentences around the quote's best piece, about as long as the quote, within one paragraph.

        A reworded quote shares only some words with its source; its meaning is
        compared with this passage rather than with the few words that align.
        """
        # A rewording is often wordier than what it rewords.
        start, end = self.corpus.sources[anchor.doc].passage_words(anchor.d_start, anchor.d_end,
                                                                   math.ceil(self.p.passage_share * words))
        return Segment(anchor.doc, 0, words, min(start, anchor.d_start), max(end, anchor.d_end), 0, anchor.matched)

    def _best(self, pq, a, b, fragment, regions, prefer_doc) -> _Local | None:
        best: _Local | None = None
        words = pq.ids[a:b]
        # No alignment scores more than a full match for every region word the quote has:
        # regions are tried best bound first, and the rest skipped once none can win.
        # By word id: whether it is one of the quote's words (ids of source words are below the vocabulary's size).
        in_quote = np.zeros(max(len(self.corpus.vocab), int(words.max(initial=-1)) + 1), dtype=bool)
        in_quote[words[words >= 0]] = True
        bounds = [self.p.match * min(len(words), int(np.count_nonzero(
            in_quote[self.corpus.sources[r.doc].ids[r.start:r.end]]))) for r in regions]
        for k in sorted(range(len(regions)), key=lambda k: -bounds[k]):
            region = regions[k]
            if best is not None and bounds[k] < best.score:
                break
            hit = local_align(pq, a, b, self.corpus, region, fragment, self.p)
            if hit is None:
                continue
            if (best is None or hit.score > best.score
                    or (hit.score == best.score and region.doc == prefer_doc != best.segment.doc)):
                best = hit
        return best

    def _cover(self, pq, a, b, fragment, regions, prefer_doc, only_doc) -> tuple[list[Segment], _Local | None]:
        """Cover quote words [a, b) with up to max_pieces locally aligned pieces."""
        p = self.p
        pending = [(a, b)]
        found: list[Segment] = []
        first_best: _Local | None = None
        while pending and len(found) < p.max_pieces:
            lo, hi = pending.pop(0)
            content = int(np.count_nonzero(pq.ids[lo:hi] != EDITORIAL))
            if content == 0 or (found and content < p.min_piece_words):
                continue
            search = regions
            if found:
                words = [w for w in pq.words[lo:hi] if w]
                extra = self.index.retrieve(words, top_k=self.top_k, span_words=hi - lo, prefer_doc=prefer_doc,
                                            only_doc=only_doc)
                search = list(extra.candidates) + [
                    Candidate(s.doc, max(0, s.d_start - p.max_gap_words), s.d_end + p.max_gap_words, 0.0)
                    for s in found]
            hit = self._best(pq, lo, hi, fragment, search, prefer_doc)
            if first_best is None:
                first_best = hit
            if hit is None or hit.score < p.match * min(p.min_piece_words, content) * p.piece_min_score:
                continue
            piece = hit.segment
            if found and hit.segment.matched < p.piece_density * (piece.q_end - piece.q_start):
                continue  # a splice is made of passages quoted nearly word for word
            found.append(hit.segment)
            pending += [(lo, hit.segment.q_start), (hit.segment.q_end, hi)]
        found.sort(key=lambda s: s.q_start)
        return found, first_best

    def _editorial_edges(self, pq: PreparedQuote, segments: list[Segment]) -> list[Segment]:
        """A bracket opening or closing a piece stands for source words there too: "[Dr. Okafor] knew"
        for "She knew". Take in as many words as the bracket holds, within the sentence."""
        out = []
        for s in segments:
            src = self.corpus.sources[s.doc]
            d_start, d_end = s.d_start, s.d_end
            if pq.ids[s.q_start] == EDITORIAL:
                d_start -= src.reach(d_start, pq.editorial_words(s.q_start), back=True)
            if s.q_end > s.q_start + 1 and pq.ids[s.q_end - 1] == EDITORIAL:
                d_end += src.reach(d_end, pq.editorial_words(s.q_end - 1), back=False)
            out.append(replace(s, d_start=d_start, d_end=d_end))
        return out

    def _absorb_ends(self, pq: PreparedQuote, segments: list[Segment]) -> list[Segment]:
        """Let each fragment's first and last piece take in the short uncovered ends."""
        out = list(segments)
        for f in range(pq.fragments):
            a, b = pq.fragment_range(f)
            idx = [k for k, s in enumerate(out) if s.fragment == f]
            if not idx:
                continue
            first, last = idx[0], idx[-1]
            # The ends are looked for within the piece's paragraph: never in the next speaker's turn.
            s = out[first]
            if 0 < s.q_start - a < self.p.min_piece_words:
                lo, _ = self.corpus.sources[s.doc].paragraph_words(s.d_start, s.d_end)
                pad = 2 * (s.q_start - a) + 2
                stretch = Window(s.doc, max(lo, s.d_start - pad), s.d_end)
                out[first] = glocal_align(pq, a, s.q_end, self.corpus, stretch, f, self.p)
            s = out[last]
            if 0 < b - s.q_end < self.p.min_piece_words:
                _, hi = self.corpus.sources[s.doc].paragraph_words(s.d_start, s.d_end)
                pad = 2 * (b - s.q_end) + 2
                stretch = Window(s.doc, s.d_start, min(hi, s.d_end + pad))
                out[last] = glocal_align(pq, s.q_start, b, self.corpus, stretch, f, self.p)
        return out
