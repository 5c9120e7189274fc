"""Where a quote stands word for word: every place in a document, which one is taken, and how many there are.

The exact fast path looks a quote up through its literal runs (its words between
ellipses and editorial brackets): a *place* is a whole match, every run in
order in one document, the gaps within bounds. A run that ends a fragment may
end on the word with a clitic (``corpus.clitic_ids``): "Grandpa Joe" stands at
"Grandpa Joe's stories".

Which place is taken, in this order of precedence:

1. the claimed document, if it holds the quote at all;
2. else, with a claimed speaker, the first document holding it in a turn of that speaker;
3. else the first document holding it (documents in corpus order);

and within that document, a place in a turn of the claimed speaker before one
outside them, a place without a clitic before one with, a place written in
the quote's case before one in another, an earlier place before a later one.
Only the first ``EXACT_TRIES`` occurrences of the first run are tried (the
claimed document's first): a phrase said thousands of times costs no more
than that. A shard of a corpus reports what it finds per
document (``exact_summary``) and ``pick_document`` reduces those reports to the
document the whole corpus's ``exact_align`` takes (quoteverify.pipeline.cluster.shards).

Every place in the document taken counts towards the quote's ``occurrences``;
``counted`` gives the same count for a quote found with edits: the places
where the source words it was found at stand again.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace

import numpy as np

from ..model.config import AlignConfig
from ..model.types import Alignment, Segment
from ..sources.corpus import EDITORIAL, Corpus, PreparedQuote
from ..sources.turns import speaker_key

EXACT_TRIES = 2000  # occurrences of a quote's first run tried as the start of an exact match
OTHERS_LISTED = 20  # the other places of a quote named by where they start (the count holds them all)

Run = tuple[int, int, int]  # (fragment, first word, end): quote words, or a piece's length from 0


@dataclass(frozen=True)
class ExactSummary:
    """What the exact fast path finds of a quote in one document; indices count the document's
    occurrences of the quote's first run, in order (-1: none)."""

    doc: int
    firsts: int   # occurrences of the first run there (at most EXACT_TRIES are tried)
    found: int    # the first that starts a whole match
    spoken: int   # the first that starts a whole match in a turn of the claimed speaker
    heard: bool   # whether the claimed speaker has a turn there at all


@dataclass(frozen=True)
class _Literal:
    """A quote's literal runs and where each occurs corpus-wide; ``clitics``: the occurrences that end on
    the word with a clitic."""

    runs: list[Run]
    hits: list[np.ndarray]
    clitics: list[np.ndarray]


@dataclass(frozen=True)
class _InDocument:
    """Every place of a quote in one document: distinct whole matches in order, each with the index of the
    first-run occurrence that starts it and whether it lies in a turn of the claimed speaker."""

    doc: int
    firsts: int
    chains: list[tuple[int, tuple[int, ...]]]
    spoken: list[bool]
    heard: bool

    @property
    def summary(self) -> ExactSummary:
        found = min((i for i, _ in self.chains), default=-1)
        spoken = min((i for (i, _), said in zip(self.chains, self.spoken) if said), default=-1)
        return ExactSummary(self.doc, self.firsts, found, spoken, self.heard)


def _exact_runs(pq: PreparedQuote) -> list[Run]:
    """Literal runs of quote words: (fragment, start, end), split at editorial slots."""
    runs = []
    start = 0
    for i in range(len(pq.ids) + 1):
        boundary = i == len(pq.ids) or pq.ids[i] == EDITORIAL or (i > 0 and pq.fragment[i] != pq.fragment[i - 1])
        if boundary:
            if i > start:
                runs.append((int(pq.fragment[start]), start, i))
            start = i + 1 if i < len(pq.ids) and pq.ids[i] == EDITORIAL else i
    return runs


def occurrences(corpus: Corpus, ids: np.ndarray) -> np.ndarray:
    """Corpus-wide start positions where the id sequence occurs (within one document)."""
    r = int(np.argmin(corpus.frequencies(ids)))
    starts = corpus.positions(int(ids[r])) - r
    n = len(ids)
    starts = starts[(starts >= 0) & (starts + n <= len(corpus.all_ids))]
    if n > 1 and len(starts):
        window = corpus.all_ids[starts[:, None] + np.arange(n)]
        starts = starts[(window == ids).all(axis=1)]
    if len(starts):  # no run may cross from one document into the next
        doc = np.searchsorted(corpus.doc_starts, starts, side="right") - 1
        doc_end = np.append(corpus.doc_starts[1:], len(corpus.all_ids))[doc]
        starts = starts[starts + n <= doc_end]
    return starts


def _literal(pq: PreparedQuote, corpus: Corpus) -> _Literal | None:
    """The quote's runs and their occurrences; None when it has no literal words."""
    if not len(pq.ids):
        return None
    runs = _exact_runs(pq)
    if not runs:
        return None
    hits, clitics = [], []
    for _, a, b in runs:
        plain = occurrences(corpus, pq.ids[a:b])
        clitic = plain[:0]
        if len(pq.clitic_ids) and pq.clitic_ids[b - 1] >= 0:
            ids = pq.ids[a:b].copy()
            ids[-1] = pq.clitic_ids[b - 1]
            clitic = occurrences(corpus, ids)
        hits.append(np.union1d(plain, clitic) if len(clitic) else plain)
        clitics.append(clitic)
    return _Literal(runs, hits, clitics)


def _by_document(firsts: np.ndarray, corpus: Corpus, claimed: int | None) -> Iterator[tuple[int, np.ndarray]]:
    """The first run's occurrences by document, in the order tried: the claimed document, then corpus order."""
    docs = np.searchsorted(corpus.doc_starts, firsts, side="right") - 1
    if claimed is not None and (docs == claimed).any():
        yield claimed, firsts[docs == claimed]
    for doc in np.unique(docs).tolist():
        if doc != claimed:
            yield int(doc), firsts[docs == doc]


def _chain(first: int, runs: list[Run], hits: list[np.ndarray], corpus: Corpus, p: AlignConfig) -> list[int] | None:
    """The runs' positions from the first run's at ``first`` on, each next one the nearest within its gap."""
    chain = [first]
    doc, _ = corpus.locate(first)
    # Every run must end inside the first run's document.
    doc_end = int(corpus.doc_starts[doc]) + len(corpus.sources[doc].ids)
    for k in range(1, len(runs)):
        prev_frag, prev_a, prev_b = runs[k - 1]
        frag, a, b = runs[k]
        end = chain[-1] + (prev_b - prev_a)
        max_gap = p.max_gap_words if frag != prev_frag else p.editorial_max_words
        nxt = hits[k][(hits[k] >= end) & (hits[k] <= min(end + max_gap, doc_end - (b - a)))]
        if not len(nxt):
            return None
        chain.append(int(nxt[0]))
    return chain


def _tighten(runs: list[Run], hits: list[np.ndarray], chain: list[int]) -> list[int]:
    """Move each run to its last occurrence before the next run: the smallest gaps win."""
    chain = list(chain)
    for k in range(len(runs) - 2, -1, -1):
        _, a, b = runs[k]
        before = hits[k][hits[k] + (b - a) <= chain[k + 1]]
        if len(before) and before[-1] > chain[k]:
            chain[k] = int(before[-1])
    return chain


def _in_document(doc: int, firsts: np.ndarray, literal: _Literal, corpus: Corpus, p: AlignConfig,
                 speaker: str) -> _InDocument:
    """Every place starting at one of the document's first ``EXACT_TRIES`` first-run occurrences; ``speaker``:
    the claimed speaker, or ''."""
    chains: dict[tuple[int, ...], int] = {}
    if all(len(h) for h in literal.hits):
        for i, first in enumerate(firsts[:EXACT_TRIES].tolist()):
            chain = _chain(first, literal.runs, literal.hits, corpus, p)
            if chain is not None and not _in_a_label(corpus, doc, chain[0], chain[-1] + literal.runs[-1][2]
                                                     - literal.runs[-1][1]):
                chains.setdefault(tuple(_tighten(literal.runs, literal.hits, chain)), i)
    ordered = sorted(((i, c) for c, i in chains.items()), key=lambda ic: (ic[1][0], ic[0]))
    keys = corpus.sources[doc].turns.keys_of(speaker) if speaker else frozenset()
    spoken = [_said_by(corpus, doc, c[0], keys) for _, c in ordered] if keys else [False] * len(ordered)
    return _InDocument(doc, len(firsts), ordered, spoken, bool(keys))


def _in_a_label(corpus: Corpus, doc: int, first: int, end: int) -> bool:
    """Whether corpus-wide words [first, end) of document ``doc`` lie within a speaker label ("Professor C:"
    holds no one's "professor")."""
    src = corpus.sources[doc]
    base = int(corpus.doc_starts[doc])
    start, stop = src.span(first - base, end - base)
    return src.turns.in_label(start, stop)


def _said_by(corpus: Corpus, doc: int, position: int, keys: frozenset[str]) -> bool:
    """Whether the word at corpus-wide ``position`` of document ``doc`` is in a turn of a speaker with one of
    ``keys`` (Turns.keys_of)."""
    src = corpus.sources[doc]
    word = position - int(corpus.doc_starts[doc])
    return src.turns.said_by(src.span(word, word + 1)[0], keys)


def pick_document(summaries: Iterable[ExactSummary], claimed: int | None, *, speaker: bool = True
                  ) -> ExactSummary | None:
    """The document whose place the exact fast path takes, from each document's summary in the order tried
    (the claimed document first, then corpus order): the claimed document if it holds the quote, else the
    first holding it in a turn of the claimed speaker, else the first holding it, among the first
    ``EXACT_TRIES`` occurrences tried. ``speaker``: whether a speaker is claimed (if not, the first
    document holding the quote is taken without looking further)."""
    tried = 0
    fallback = None
    for summary in summaries:
        if summary.found >= 0 and tried + summary.found < EXACT_TRIES:
            if not speaker or summary.doc == claimed or 0 <= summary.spoken < EXACT_TRIES - tried:
                return summary
            fallback = fallback or summary
        tried += summary.firsts
        if tried >= EXACT_TRIES:
            break
    return fallback


def exact_align(pq: PreparedQuote, corpus: Corpus, p: AlignConfig, prefer_doc: int | None,
                speaker: str = "") -> Alignment | None:
    """The place the exact fast path takes (module docstring), counted among the others of its document."""
    literal = _literal(pq, corpus)
    if literal is None or not all(len(h) for h in literal.hits):
        return None
    seen: dict[int, _InDocument] = {}

    def summaries() -> Iterator[ExactSummary]:
        for doc, firsts in _by_document(literal.hits[0], corpus, prefer_doc):
            seen[doc] = _in_document(doc, firsts, literal, corpus, p, speaker)
            yield seen[doc].summary

    chosen = pick_document(summaries(), prefer_doc, speaker=bool(speaker_key(speaker)))
    if chosen is None:
        return None
    there = seen[chosen.doc]
    best = 0 if len(there.chains) == 1 else _best_place(pq, corpus, literal, there)
    chain = list(there.chains[best][1])
    alignment = Alignment("exact", _chain_segments(pq, corpus, literal.runs, chain), pq.content_words)
    return _with_places(alignment, corpus, there, best, speaker)


def _best_place(pq: PreparedQuote, corpus: Corpus, literal: _Literal, there: _InDocument) -> int:
    """Which of a document's places the exact fast path takes: one in the claimed speaker's turn, then one
    with fewer words read through a clitic, then one written more as quoted, then the first."""
    clitics = [sum(int(np.isin(pos, c)) for pos, c in zip(chain, literal.clitics)) for _, chain in there.chains]
    return min(range(len(there.chains)), key=lambda k: (not there.spoken[k], clitics[k], _case_differences(
        pq, corpus, literal.runs, there.chains[k][1]), there.chains[k][1][0]))


def _case_differences(pq: PreparedQuote, corpus: Corpus, runs: list[Run], chain: tuple[int, ...]) -> int:
    """How many of a place's words the source writes in another case than the quote: among places equally good
    otherwise, the one written as quoted ("people People" at "people People", not at "people people")."""
    doc, _ = corpus.locate(chain[0])
    src = corpus.sources[doc]
    base = int(corpus.doc_starts[doc])
    differ = 0
    for (_, a, b), pos in zip(runs, chain):
        for j in range(b - a):
            qa, qb = pq.norm.to_original(int(pq.starts[a + j]), int(pq.ends[a + j]))
            da, db = src.span(pos - base + j, pos - base + j + 1)
            differ += pq.norm.original[qa:qb] != src.document.text[da:db]
    return differ


def exact_summary(pq: PreparedQuote, corpus: Corpus, p: AlignConfig, speaker: str = "") -> list[ExactSummary]:
    """What exact_align needs to know of this corpus when it is one shard of a larger one: a summary for
    each document where the quote's first run occurs, for ``pick_document`` to reduce."""
    literal = _literal(pq, corpus)
    if literal is None:
        return []
    return [_in_document(doc, firsts, literal, corpus, p, speaker).summary
            for doc, firsts in _by_document(literal.hits[0], corpus, None)]


def _with_places(alignment: Alignment, corpus: Corpus, there: _InDocument, chosen: int, speaker: str) -> Alignment:
    """The alignment with its document's places counted: all of them, and those in turns of the claimed
    speaker (with none claimed, of the speaker of the place taken); None where the document has no turns."""
    base = int(corpus.doc_starts[there.doc])
    turns = corpus.sources[there.doc].turns
    spoken: int | None = None
    if speaker_key(speaker):
        spoken = sum(there.spoken) if len(turns) else None
    elif len(turns):
        at = turns.at(corpus.sources[there.doc].span(there.chains[chosen][1][0] - base,
                                                      there.chains[chosen][1][0] - base + 1)[0])
        own = frozenset({speaker_key(at.speaker)} - {""}) if at is not None else frozenset()
        spoken = sum(_said_by(corpus, there.doc, c[0], own) for _, c in there.chains) if own else None
    others = tuple(c[0] - base for k, (_, c) in enumerate(there.chains) if k != chosen)[:OTHERS_LISTED]
    return replace(alignment, occurrences=len(there.chains), speaker_occurrences=spoken, others=others)


def counted(alignment: Alignment, corpus: Corpus, p: AlignConfig, speaker: str = "") -> Alignment:
    """An alignment found with edits, with its places counted: where the source words it was found at stand
    again in its document, in the same order and gaps. A splice or a reordering counts once."""
    segments = sorted(alignment.segments, key=lambda s: s.q_start)
    if (not segments or any(s.doc != segments[0].doc or s.d_end <= s.d_start for s in segments)
            or any(b.d_start < a.d_end for a, b in zip(segments, segments[1:]))):
        return replace(alignment, occurrences=1 if segments else 0)
    doc = segments[0].doc
    src = corpus.sources[doc]
    runs = [(s.fragment, 0, s.d_end - s.d_start) for s in segments]
    hits = [occurrences(corpus, src.ids[s.d_start:s.d_end]) for s in segments]
    literal = _Literal(runs, hits, [h[:0] for h in hits])
    firsts = hits[0][np.searchsorted(corpus.doc_starts, hits[0], side="right") - 1 == doc]
    there = _in_document(doc, firsts, literal, corpus, p, speaker)
    start = int(corpus.doc_starts[doc]) + segments[0].d_start
    chosen = next((k for k, (_, c) in enumerate(there.chains) if c[0] == start), None)
    if chosen is None:  # its pieces lie further apart than a place's may: it is its only place
        return replace(alignment, occurrences=1)
    return _with_places(alignment, corpus, there, chosen, speaker)


def _chain_segments(pq: PreparedQuote, corpus: Corpus, runs: list[Run], chain: list[int]) -> tuple[Segment, ...]:
    """One segment per fragment, from its first run's start to its last run's end.

    Editorial slots at a fragment's edges belong to the fragment too.
    """
    doc, _ = corpus.locate(chain[0])
    base = int(corpus.doc_starts[doc])
    spans: dict[int, list[int]] = {}
    for (frag, a, b), pos in zip(runs, chain):
        start, end = pos - base, pos - base + (b - a)
        if frag in spans:
            spans[frag][1] = end
            spans[frag][2] += b - a
        else:
            spans[frag] = [start, end, b - a]
    segments = []
    for f, (start, end, matched) in spans.items():
        q_start, q_end = pq.fragment_range(f)
        segments.append(Segment(doc, q_start, q_end, start, end, f, matched))
    return tuple(segments)
