"""Checking with the documents in shards: no worker holds the whole corpus.

The documents are split by size into one shard per worker (``shards``); a
worker reads, prepares and keeps its shard (``prepare_shard``). Every quote's
exact fast path runs on the shards: a quote that names its document goes to
that document's shard first, the rest (and a claim not found there) to every
shard. Each shard reports, per document, how often the quote's first run
occurs and which occurrence starts a whole match (``align.exact_summary``);
``pick_exact`` then finds the document the whole-corpus ``exact_align`` would:
the claimed document first, then the others in document order, within the
first ``EXACT_TRIES`` occurrences corpus-wide. A quote the fast path settles
(found word for word where claimed, or anywhere when nothing is claimed) is
then checked on the one shard that holds its document, with the same
``pipeline.check_quotes``, and gives the in-process result byte for byte.

Every other quote (not verbatim, or verbatim elsewhere than claimed) is
checked against the documents it can match, gathered from the shards. Each
shard's BM25 index is weighted with the whole corpus's stats (``use_stats``),
so a window scores to the bit what it scores in the whole-corpus index; the
shards rank the quote (``top_windows``) and the caller sends it to one worker
with the documents of its best windows, its claimed document and the one it
is verbatim in. That worker checks it with ``pipeline.check_quotes`` against
those documents alone (``check_gathered``: scores joined from the indexes
that hold them, nothing prepared again) and records every retrieval the
alignment made with the score of the last window it took in (``_Asks``).
Every shard then says whether a window of another document scores as much
(``beaten``); if one does, the quote is checked again with that document too.
So each retrieval took in the windows the whole corpus would have, and the
result is the in-process one. What cannot be gathered (quoteverify.pipeline.cluster.client
says which) is checked against the whole corpus.
"""
from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any
from weakref import WeakKeyDictionary

import numpy as np

from ...model.config import Config, as_config
from ...model.types import Document, Quote, QuoteResult
from ...plumbing.cache import Cache, digest
from ...plumbing.resultcache import ResultCache
from ...search.align import Aligner
from ...search.index import Bm25Index, Bm25Stats
from ...search.places import ExactSummary, exact_summary, pick_document
from ...search.window import make_windows
from ...sources.corpus import Corpus, PreparedDocument, Source, prepare_document, prepare_quote
from ..stages import Prepared, _embedder, check_quotes, prepare

# What a worker keeps between tasks: its shards of the current run's documents, by key, with the
# whole corpus's BM25 stats, and other shards' documents it prepared for a gathered check, newest last.
_held: dict[str, Prepared] = {}
_stats: dict[str, Bm25Stats] = {}
_guests: OrderedDict[tuple[str, str, str, str], tuple[int, Any]] = OrderedDict()
_vocab: dict[str, dict[str, int]] = {}
_entries_of: WeakKeyDictionary[Bm25Index, tuple[np.ndarray, np.ndarray, np.ndarray]] = WeakKeyDictionary()
_embedders: dict[str, Any] = {}
_making_embedder = threading.Lock()

Ask = tuple[tuple[str, ...], float]  # a retrieval's words, and the score a window must reach to enter it
Window = tuple[float, int, int]  # (score, document in the shard, window in the shard)

Summary = list[ExactSummary]  # per document of a shard where a quote's first run occurs


def shards(documents: Sequence[Document], n: int) -> list[list[Document]]:
    """Documents in ``n`` shards of about equal size: the longest first, each to the smallest shard so far."""
    parts: list[list[Document]] = [[] for _ in range(max(1, n))]
    sizes = [0] * len(parts)
    for document in sorted(documents, key=lambda d: (-len(d.text), d.doc_id)):
        k = sizes.index(min(sizes))
        parts[k].append(document)
        sizes[k] += len(document.text)
    return [p for p in parts if p]


def shard_key(documents: Sequence[Document], settings: Mapping[str, Any]) -> str:
    """What a prepared shard depends on: its documents and the window and index settings."""
    config = as_config(settings)
    return digest("shard", *(f"{d.doc_id}\x01{d.sha256}" for d in documents), config.window.size,
                  config.window.overlap, config.index.backend, config.index.k1, config.index.b)


def prepare_shard(key: str, documents: tuple[Document, ...], settings: Mapping[str, Any],
                  cache_dir: str | None, keep: Sequence[str]) -> dict[str, int]:
    """Runs on a worker: prepare a shard (documents in corpus order) and keep it, forgetting the shards
    not in ``keep``. Returns what this worker now holds, for the caller to report."""
    for old in [k for k in _held if k not in keep and k != key]:
        del _held[old]
        _stats.pop(old, None)
        _vocab.pop(old, None)
    if key not in _held:
        _held[key] = prepare(documents, as_config(settings), cache=Cache(cache_dir))
    return {**held(), "windows": _held[key].windows}


def held() -> dict[str, int]:
    """The documents and characters this worker holds in its shards, and its process id."""
    documents = [s.document for p in _held.values() for s in p.corpus.sources]
    return {"pid": os.getpid(), "shards": len(_held), "documents": len(documents),
            "chars": sum(len(d.text) for d in documents)}


def held_documents() -> dict[tuple[str, str], PreparedDocument]:
    """The documents this worker's shards hold, normalized and tokenized, by (document id, sha256)."""
    return {(s.document.doc_id, s.document.sha256): PreparedDocument(s.norm, s.tokens, s.pages)
            for p in _held.values() for s in p.corpus.sources}


def exact_summaries(key: str, quotes: Sequence[Quote], settings: Mapping[str, Any]) -> list[Summary]:
    """Runs on a worker: each quote's exact fast path over this shard (see ``align.exact_summary``)."""
    prepared = _held[key]
    config = as_config(settings)
    return [[] if q.problem else exact_summary(prepare_quote(q.text, prepared.corpus), prepared.corpus, config.align,
                                               q.speaker) for q in quotes]


def pick_exact(summaries: Sequence[ExactSummary], claimed: int | None) -> ExactSummary | None:
    """The document exact_align takes (``places.pick_document``), from every shard's summary in corpus-wide
    document numbers: the claimed document's occurrences are tried first, then the others in corpus order."""
    return pick_document(sorted(summaries, key=lambda s: (s.doc != claimed, s.doc)), claimed)


def settles(summary: ExactSummary | None, claimed: int | None) -> bool:
    """Whether the exact fast path settles a quote whose picked document is ``summary``'s (as
    ``Aligner.align_exact`` does): found there, where claimed or with nothing claimed, and in a turn of the
    claimed speaker if that speaker has turns there."""
    return (summary is not None and claimed in (None, summary.doc)
            and not (summary.heard and summary.spoken < 0))


def embedder_here(config: Config, embedder: Any, cache_dir: str | None) -> Any:
    """The embedder this worker keeps: the model is loaded once per worker."""
    if embedder is not None:
        return _embedder(config, embedder, Cache(cache_dir))
    key = digest("embed", cache_dir, config.embed.enabled, config.embed.model)
    with _making_embedder:  # a task and warm_embedder (run outside the task thread) may ask at once
        if key not in _embedders:
            _embedders[key] = _embedder(config, None, Cache(cache_dir))
        return _embedders[key]


def warm_embedder(settings: Mapping[str, Any], cache_dir: str | None) -> None:
    """Runs on a worker, first: the model begins to load in the background while the worker prepares its
    shard, instead of in the first task that embeds."""
    embed = embedder_here(as_config(settings), None, cache_dir)
    if embed is not None:
        embed.warm()


def check_on_shard(key: str, quotes: Sequence[Quote], languages: Sequence[str], settings: Mapping[str, Any],
                   embedder: Any, cache_dir: str | None) -> tuple[list[QuoteResult | None], list[str]]:
    """Runs on a worker: check quotes that the exact fast path settles in this shard (and quotes with a
    problem, which match nothing). A quote this shard does not settle after all comes back as None."""
    prepared = _held[key]
    config: Config = as_config(settings)
    embed = embedder_here(config, embedder, cache_dir)
    corpus = prepared.corpus
    settled = [k for k, q in enumerate(quotes) if q.problem or prepared.aligner.align_exact(
        prepare_quote(q.text, corpus), corpus.by_id.get(q.claimed_document), q.speaker) is not None]
    warnings: list[str] = []
    results = check_quotes(prepared, [quotes[k] for k in settled], config, embed,
                           own_languages=[languages[k] for k in settled],
                           cached=ResultCache(cache_dir, warnings=warnings))
    out: list[QuoteResult | None] = [None] * len(quotes)
    for k, result in zip(settled, results):
        out[k] = result
    warnings += prepared.index.cache.warnings
    if embed is not None:
        warnings += embed.store.warnings
    return out, warnings


def shard_stats(key: str) -> Bm25Stats:
    """Runs on a worker: the shard's own BM25 stats, for the caller to sum into the whole corpus's."""
    return _held[key].index.own_stats()


def use_stats(key: str, stats: Bm25Stats) -> None:
    """Runs on a worker: weight the shard's BM25 index (and every gathered one) with the whole corpus's
    stats, so each window scores what it scores in the whole corpus's index."""
    index = _held[key].index
    if index.stats is None or index.stats.key != stats.key:
        index.use_stats(stats)
    _stats[key] = stats


def best_windows(index: Bm25Index, scores: np.ndarray, take: int, keep: np.ndarray | None = None) -> list[Window]:
    """The ``take`` best windows (of those ``keep`` marks, if given) with a score above 0, best first
    (ties: the first window first)."""
    hits = np.flatnonzero(scores > 0 if keep is None else keep & (scores > 0))
    if len(hits) > take:
        hits = hits[np.argpartition(-scores[hits], take - 1)[:take]]
    hits = hits[np.lexsort((hits, -scores[hits]))]
    return [(float(scores[w]), int(index.win_doc[w]), int(w)) for w in hits]


def top_windows(key: str, quotes: Sequence[Quote], take: int) -> list[list[Window]]:
    """Runs on a worker: for each quote, the shard's ``take`` best windows for its words (the first
    retrieval of its alignment), weighted corpus-wide."""
    prepared = _held[key]
    out = []
    for quote in quotes:
        words = [w for w in prepare_quote(quote.text, prepared.corpus).words if w] if not quote.problem else []
        out.append(best_windows(prepared.index, prepared.index.scores(words), take) if words else [])
    return out


def beaten(key: str, skip: Sequence[int], asks: Sequence[Sequence[Ask]], take: int) -> list[list[int]]:
    """Runs on a worker: for each quote checked against the same documents (``skip``, this shard's among
    them) with some retrievals, this shard's other documents with a window that would have entered one
    of those retrievals: the quote must be checked again with them."""
    index = _held[key].index
    elsewhere = ~np.isin(index.win_doc, np.asarray(skip, dtype=index.win_doc.dtype))
    out = []
    for retrievals in asks:
        strictest: dict[tuple[str, ...], float] = {}
        for words, at_least in retrievals:  # the same words asked twice: the lower score decides
            strictest[words] = min(at_least, strictest.get(words, at_least))
        docs: set[int] = set()
        for words, at_least in strictest.items():
            scores = index.scores(list(words))
            docs.update(d for _, d, _ in best_windows(index, scores, take, elsewhere & (scores >= at_least)))
        out.append(sorted(docs))
    return out


class _Asks:
    """What a check against part of the corpus must ask the rest: each quote's retrievals, with the score
    of the last window each took in. A window elsewhere that scores less would not have entered it;
    one that scores as much or more would (ties go to the first window in corpus order): the quote is then
    checked again with that window's document. A retrieval that took in fewer windows than it may
    (``take``) took every window with a word of the query: no window elsewhere may have one."""

    def __init__(self, prepared: Prepared, take: int):
        self.take = take
        self.by_quote: dict[tuple[str, int | None, str], list[Ask]] = {}
        self._current: list[Ask] = []
        prepared.index.listener = self._heard
        align = prepared.aligner.align

        def watched(pq: Any, prefer_doc: int | None = None, speaker: str = "") -> Any:
            self._current = self.by_quote.setdefault((pq.text, prefer_doc, speaker), [])
            return align(pq, prefer_doc, speaker)

        prepared.aligner.align = watched  # type: ignore[method-assign]

    def _heard(self, words: Sequence[str], scores: np.ndarray, only_doc: int | None) -> None:
        if only_doc is not None:
            return  # one document's windows: every other document's score 0 there
        positive = scores[scores > 0]
        at_least = 0.0
        if len(positive) >= self.take:
            at_least = float(-np.partition(-positive, self.take - 1)[self.take - 1])
        self._current.append((tuple(words), at_least))


class _Postings:
    """The BM25 scores of a gathered corpus's windows for any query, read from the indexes that already
    hold them (the shard's for its documents, each other document's own for it), joined in one table:
    word -> its windows here and their scores. A window scores the same in any index weighted with the
    whole corpus's stats, and the scores of a query's words are added up as bm25s adds them (in query
    order, in float32), so each window's score is the bit-identical one: no index is built again."""

    def __init__(self, pieces: Sequence[tuple[Bm25Index, int, int]], vocab: Mapping[str, int]):
        words, rows, data = [], [], []
        offset = 0
        for index, a, b in pieces:  # each document's windows [a, b) of ``index``, in corpus order
            word, row, score = _entries(index, vocab)
            keep = (row >= a) & (row < b)
            words.append(word[keep])
            rows.append(row[keep] - a + offset)
            data.append(score[keep])
            offset += b - a
        word = np.concatenate(words) if words else np.zeros(0, np.int64)
        order = np.argsort(word, kind="stable")
        self.rows = np.concatenate(rows)[order] if rows else np.zeros(0, np.int64)
        self.data = np.concatenate(data)[order] if data else np.zeros(0, np.float32)
        self.bounds = np.concatenate(([0], np.cumsum(np.bincount(word, minlength=len(vocab)))))
        self.windows = offset
        self.vocab = vocab

    def get_scores(self, words: list[str]) -> np.ndarray:
        scores = np.zeros(self.windows, dtype=self.data.dtype)
        for word in words:
            w = self.vocab.get(word)
            if w is not None and w + 1 < len(self.bounds):
                a, b = self.bounds[w], self.bounds[w + 1]
                np.add.at(scores, self.rows[a:b], self.data[a:b])
        return scores


def _entries(index: Bm25Index, vocab: Mapping[str, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``index.entries``, kept with the index (the worker's vocabulary only grows)."""
    if index not in _entries_of:
        _entries_of[index] = index.entries(vocab)
    return _entries_of[index]


def _guest(document: Document, key: str, config: Config, cache: Cache) -> tuple[Source, Bm25Index]:
    """Another shard's document prepared on this worker (its word ids in the worker's vocabulary for the
    shard ``key``), with its windows indexed with the whole corpus's stats; kept (up to
    ``cluster.gather_chars`` characters) for the next task that needs it."""
    stats = _stats[key]
    name = (key, document.doc_id, document.sha256, stats.key)
    if name in _guests:
        _guests.move_to_end(name)
        return _guests[name][1]
    prepared = prepare_document(document, cache)
    tokens = prepared.tokens
    vocab = _vocab[key]
    for word in dict.fromkeys(tokens.words):
        vocab.setdefault(word, len(vocab))
    ids = np.fromiter(map(vocab.__getitem__, tokens.words), dtype=np.int32, count=len(tokens))
    source = Source(document, prepared.norm, tokens, ids, 0, prepared.pages)
    alone = Corpus([document], prepared=[prepared])
    index = Bm25Index(alone, make_windows(alone, size=config.window.size, overlap=config.window.overlap),
                      backend=config.index.backend, k1=config.index.k1, b=config.index.b, stats=stats)
    index.build()
    _guests[name] = (len(document.text), (source, index))
    while len(_guests) > 1 and sum(n for n, _ in _guests.values()) > config.cluster.gather_chars:
        _guests.popitem(last=False)
    return source, index


def _gathered_corpus(key: str, members: Sequence[int | Document], config: Config, cache: Cache) -> Prepared:
    """The documents a task's quotes can match, in corpus order: this shard's (by number) and others'
    (sent along), scored with the whole corpus's BM25 stats. Nothing is prepared or indexed again: the
    documents' words, ids, turns and window scores are read from the shard and from the other documents
    this worker keeps."""
    shard = _held[key]
    if key not in _vocab:
        _vocab[key] = dict(shard.corpus.vocab)  # grows with the words of other shards' documents
    bounds = np.searchsorted(shard.index.win_doc, np.arange(len(shard.corpus.sources) + 1))
    sources, pieces = [], []
    for member in members:
        if isinstance(member, int):
            sources.append(shard.corpus.sources[member])
            pieces.append((shard.index, int(bounds[member]), int(bounds[member + 1])))
        else:
            source, index = _guest(member, key, config, cache)
            sources.append(source)
            pieces.append((index, 0, len(index)))
    corpus = Corpus.assembled(sources, _vocab[key])
    windows = make_windows(corpus, size=config.window.size, overlap=config.window.overlap)
    index = Bm25Index(corpus, windows, backend=config.index.backend, k1=config.index.k1, b=config.index.b,
                      stats=_stats[key])
    index.score_with(_Postings(pieces, _vocab[key]))
    return Prepared(corpus, index, Aligner(corpus, index, align=config.align, top_k=config.index.top_k),
                    len(windows))


def check_gathered(key: str, quotes: Sequence[Quote], languages: Sequence[tuple[str, str]],
                   members: Sequence[int | Document],
                   settings: Mapping[str, Any], embedder: Any, cache_dir: str | None, documents: str
                   ) -> tuple[list[tuple[QuoteResult, list[Ask]] | None], list[str]]:
    """Runs on a worker: check quotes not found word for word against ``members``, the documents they
    can match (this shard's by number, others' sent along), each result with the retrievals the shards
    must confirm (``beaten``). ``languages``: each quote's as given, and as told against the whole corpus;
    ``documents``: the whole corpus's ``resultcache.documents_key``. A quote found word for word here after
    all (past the exact fast path's tries in the whole corpus) comes back as None: the caller checks it
    against the whole corpus."""
    config: Config = as_config(settings)
    cache = Cache(cache_dir)
    part = _gathered_corpus(key, members, config, cache)
    corpus = part.corpus
    pqs = [prepare_quote(q.text, corpus) for q in quotes]
    mine = [k for k, q in enumerate(quotes) if q.problem or part.aligner.align_exact(
        pqs[k], corpus.by_id.get(q.claimed_document), q.speaker) is None]
    asks = _Asks(part, 3 * config.index.top_k)
    embed = embedder_here(config, embedder, cache_dir)
    warnings: list[str] = []
    results = check_quotes(part, [quotes[k] for k in mine], config, embed,
                           own_languages=[languages[k][0] for k in mine], told=[languages[k][1] for k in mine],
                           cached=ResultCache(cache_dir, warnings=warnings, documents=documents))
    out: list[tuple[QuoteResult, list[Ask]] | None] = [None] * len(quotes)
    for k, result in zip(mine, results):
        out[k] = result, asks.by_quote.get((pqs[k].text, corpus.by_id.get(quotes[k].claimed_document),
                                            quotes[k].speaker), [])
    if embed is not None:
        warnings += embed.store.warnings
    return out, warnings
