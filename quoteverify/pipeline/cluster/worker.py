"""What runs on a Dask worker: the state a worker keeps between tasks, in one class, and the tasks.

A worker keeps its shard of the documents, prepared (``prepare_shard``), weighted with the whole corpus's
BM25 stats (``use_stats``); other shards' documents it was sent for a gathered check, newest last, up to
``cluster.gather_chars`` characters (``guest``); the whole corpus where a run falls back to it
(``whole_corpus``; without a cache, the other shards' documents shipped by their workers,
``shipped_shard``); and the embedding model, loaded once. The client (quoteverify.pipeline.cluster.client)
sends each task as ``run_task(WorkerState.method, ...)``: the method runs on the state of the worker process
it lands on (``this_worker``).

A quote checked against the documents it can match, gathered from the shards (``check_gathered``), is
checked with the same ``stages.check_quotes`` as the in-process run against those documents alone: scores
joined from the indexes that hold them (``JoinedPostings``), nothing prepared again; every retrieval the
alignment made is recorded with the score of the last window it took in (``RetrievalLog``). Every shard then
says whether a window of another document scores as much (``beaten``); if one does, the quote is checked
again with that document too. So each retrieval took in the windows the whole corpus would have, and the
result is the in-process one.
"""
from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import TypeVar
from weakref import WeakKeyDictionary

import numpy as np

from ...judge.embed import CachedEmbedder, Embedder, ModelAddress, SharedModel
from ...model.config import Config
from ...model.types import Alignment, Document, Quote, QuoteResult
from ...plumbing.cache import Cache, digest
from ...plumbing.resultcache import ResultCache
from ...search.align import Aligner
from ...search.index import Bm25Index, Bm25Settings, Bm25Stats
from ...search.places import ExactSummary, exact_summary
from ...search.window import make_windows
from ...sources.corpus import (
    Corpus,
    PackedDocument,
    PreparedDocument,
    PreparedQuote,
    Source,
    prepare_document,
    prepare_row,
)
from ...sources.pages import layout_of
from ..stages import Prepared, QuoteLanguages, check_quotes, embedder_for, prepare

T = TypeVar("T")


@dataclass(frozen=True)
class Checking:
    """How a worker checks quotes: the run's config (the cluster is the parallelism: ``align.workers`` 1),
    the embedder the caller gave (None: the configured model, loaded once per worker, or asked of the
    process that holds it loaded at ``model``: a local cluster's client's, ``judge.embed.shared_model``),
    and the cache folder the workers share (None: no cache)."""

    config: Config
    embedder: Embedder | None
    cache_dir: str | None
    model: ModelAddress | None = None


@dataclass(frozen=True)
class ShippedDocument:
    """A document of a shard as its worker prepared it, sent to another worker (``WorkerState.shipped_shard``)."""

    doc_id: str
    sha256: str
    packed: PackedDocument


@dataclass(frozen=True)
class Holding:
    """What a worker holds: its process, its shards, their documents and characters (and the windows of
    the shard just prepared), the characters of other shards' documents kept for gathered checks, and
    the documents of a whole corpus kept where a run fell back to it."""

    pid: int
    shards: int
    documents: int
    chars: int
    windows: int = 0
    guest_chars: int = 0
    whole_documents: int = 0


@dataclass(frozen=True)
class Retrieval:
    """One retrieval an alignment made: its query words, and the score a window must reach to enter it."""

    words: tuple[str, ...]
    at_least: float


@dataclass(frozen=True)
class RankedWindow:
    """A window of a shard's index that a quote's words score: its score, its document in the shard, and
    its number in the shard's index."""

    score: float
    doc: int
    window: int


@dataclass(frozen=True)
class ChunkChecked:
    """A chunk of quotes checked against the whole corpus: their results, the warnings, the corpus's windows."""

    results: list[QuoteResult]
    warnings: list[str]
    windows: int


@dataclass(frozen=True)
class GatheredCheck:
    """A quote checked against the documents gathered for it: its result, and the retrievals the shards
    must confirm took in every window the whole corpus would have."""

    result: QuoteResult
    retrievals: list[Retrieval]
    kept_as: str = ""  # its result cache key, to save it under once confirmed ("": nothing to save)


def shard_key(documents: Sequence[Document], config: Config) -> str:
    """What a prepared shard depends on: its documents and the window and index settings."""
    return digest("shard", *(f"{d.doc_id}\x01{d.sha256}" for d in documents), config.window.size,
                  config.window.overlap, config.index.backend, config.index.k1, config.index.b)


def best_windows(index: Bm25Index, scores: np.ndarray, take: int, keep: np.ndarray | None = None
                 ) -> list[RankedWindow]:
    """The ``take`` best windows (of those ``keep`` marks, if given) with a score above 0, best first
    (ties: the first window first)."""
    hits = np.flatnonzero(scores > 0 if keep is None else keep & (scores > 0))
    if len(hits) > take:
        hits = hits[np.argpartition(-scores[hits], take - 1)[:take]]
    hits = hits[np.lexsort((hits, -scores[hits]))]
    return [RankedWindow(float(scores[w]), int(index.win_doc[w]), int(w)) for w in hits]


class WorkerState:
    """What one worker keeps between tasks, and the tasks that use it (each runs on a worker)."""

    def __init__(self) -> None:
        self.held: dict[str, Prepared] = {}  # its shards of the current run's documents, by shard key
        self.stats: dict[str, Bm25Stats] = {}  # the whole corpus's BM25 stats, by shard key
        self.vocab: dict[str, dict[str, int]] = {}  # a shard's vocabulary, grown by the documents gathered
        # Other shards' documents prepared here for gathered checks, newest last, with their characters.
        self.guests: OrderedDict[tuple[str, str, str, str], tuple[int, tuple[Source, Bm25Index]]] = OrderedDict()
        self.entries: WeakKeyDictionary[Bm25Index, tuple[np.ndarray, np.ndarray, np.ndarray]] = WeakKeyDictionary()
        self.whole: dict[str, Prepared] = {}  # the whole corpus, where a run falls back to it
        self.embedders: dict[str, CachedEmbedder | None] = {}
        self.making_embedder = threading.Lock()

    # The whole corpus ----------------------------------------------------------------------------------

    def prepare_documents(self, documents: Sequence[Document], cache_dir: str) -> int:
        """Normalize and tokenize some of the documents into the shared cache, for the others to read."""
        cache = Cache(cache_dir)
        for document in documents:
            prepare_document(document, cache)
        return len(documents)

    def whole_corpus(self, documents: tuple[Document, ...], config: Config, cache_dir: str | None,
                     shipped: Sequence[Sequence[ShippedDocument]] = ()) -> Prepared:
        """The whole corpus, prepared (or read from the cache) on first use and kept; ``shipped``: other
        shards' documents as their workers prepared them (``shipped_shard``), when there is no cache."""
        key = digest("prepared", cache_dir, *(f"{d.doc_id}\x01{d.sha256}" for d in documents),
                     config.window.size, config.window.overlap, config.index.backend, config.index.k1,
                     config.index.b, config.index.top_k)
        if key not in self.whole:
            self.whole.clear()  # one corpus at a time: a worker's memory is for its current run
            cache = Cache(cache_dir)
            # The documents of this worker's shard are prepared already, and those shipped from the other
            # shards' workers: only the others are read or prepared.
            held = self.held_documents()
            sent = {(one.doc_id, one.sha256): one.packed for shard in shipped for one in shard}

            def prepared(document: Document) -> PreparedDocument:
                name = (document.doc_id, document.sha256)
                if name in held:
                    return held[name]
                if name in sent:
                    return sent[name].unpacked(document.text)
                return prepare_document(document, cache)

            self.whole[key] = prepare(documents, config, cache=cache, normalized=[prepared(d) for d in documents])
        return self.whole[key]

    def shipped_shard(self, key: str) -> list[ShippedDocument]:
        """The documents of this worker's shard ``key`` as prepared here, for the other workers' whole corpus;
        none if this worker does not hold it (its worker was lost: the receiver prepares them itself)."""
        held = self.held.get(key)
        return [] if held is None else [
            ShippedDocument(s.document.doc_id, s.document.sha256,
                            PreparedDocument(s.norm, s.tokens, s.pages, s.turns).packed(s.document))
            for s in held.corpus.sources]

    def build_index(self, documents: tuple[Document, ...], config: Config, cache_dir: str, *shards_done: int) -> int:
        """Once every shard is prepared: the whole corpus's BM25 index built into the cache."""
        prepared = self.whole_corpus(documents, config, cache_dir)
        prepared.index.build()
        return prepared.windows

    def check_chunk(self, documents: tuple[Document, ...], quotes: Sequence[Quote], languages: Sequence[str],
                    told: Sequence[str] | None, checking: Checking, shipped: Sequence[Sequence[ShippedDocument]],
                    *ready: int) -> ChunkChecked:
        """A chunk of quotes (and their languages as given, and as told against the whole corpus, or None: told
        here) checked against the whole corpus (``shipped``: as for ``whole_corpus``)."""
        prepared = self.whole_corpus(documents, checking.config, checking.cache_dir, shipped)
        warnings: list[str] = []
        embed = self.embedder(checking)
        results = check_quotes(prepared, quotes, checking.config, embed, languages=QuoteLanguages(languages, told),
                               cached=ResultCache(checking.cache_dir, warnings=warnings))
        warnings += prepared.index.cache.warnings  # the cache the corpus and the index were read with
        if embed is not None:
            warnings += embed.store.warnings
        return ChunkChecked(results, warnings, prepared.windows)

    # The embedder -------------------------------------------------------------------------------------

    def embedder(self, checking: Checking) -> CachedEmbedder | None:
        """The embedder this worker keeps: the model is loaded once per worker, or asked of the process that
        holds it (``Checking.model``)."""
        config, cache_dir, model = checking.config, checking.cache_dir, checking.model
        if checking.embedder is not None:
            return embedder_for(config, checking.embedder, Cache(cache_dir))
        key = digest("embed", cache_dir, config.embed.enabled, config.embed.model, model.path if model else "")
        with self.making_embedder:  # a task and warm_embedder (run outside the task thread) may ask at once
            if key not in self.embedders:
                asked = None if model is None else SharedModel(model, config.embed.model, threads=config.embed.threads,
                                                               batch_size=config.embed.batch_size)
                self.embedders[key] = embedder_for(config, asked, Cache(cache_dir))
            return self.embedders[key]

    def warm_embedder(self, checking: Checking) -> None:
        """First: the model begins to load in the background while the worker prepares its shard, instead
        of in the first task that embeds."""
        embed = self.embedder(checking)
        if embed is not None:
            embed.warm()

    # The shard ----------------------------------------------------------------------------------------

    def prepare_shard(self, key: str, documents: tuple[Document, ...], config: Config, cache_dir: str | None,
                      keep: Sequence[str]) -> Holding:
        """Prepare a shard (documents in corpus order) and keep it, forgetting the shards not in ``keep``.
        Returns what this worker now holds, for the caller to report."""
        for old in [k for k in self.held if k not in keep and k != key]:
            del self.held[old]
            self.stats.pop(old, None)
            self.vocab.pop(old, None)
        if key not in self.held:
            self.held[key] = prepare(documents, config, cache=Cache(cache_dir))
        return replace(self.holding(), windows=self.held[key].windows)

    def holding(self) -> Holding:
        """The documents and characters this worker holds: in its shards, kept for gathered checks, and as
        a whole corpus where a run fell back to it."""
        documents = [s.document for p in self.held.values() for s in p.corpus.sources]
        return Holding(os.getpid(), len(self.held), len(documents), sum(len(d.text) for d in documents),
                       guest_chars=sum(n for n, _ in self.guests.values()),
                       whole_documents=max((len(p.corpus.sources) for p in self.whole.values()), default=0))

    def held_documents(self) -> dict[tuple[str, str], PreparedDocument]:
        """The documents this worker's shards hold, normalized and tokenized, by (document id, sha256)."""
        return {(s.document.doc_id, s.document.sha256): PreparedDocument(s.norm, s.tokens, s.pages, s._turns)
                for p in self.held.values() for s in p.corpus.sources}

    def turn_starts(self, key: str, doc_ids: Sequence[str]) -> dict[str, list[int]]:
        """Where the speaker turns start in the documents ``doc_ids`` of shard ``key`` (built here already
        where a quote was found), for the run's warnings about speaker labels (``turns.label_warnings``); none
        if this worker does not hold the shard (its worker was lost: the client reads them itself)."""
        held = self.held.get(key)
        if held is None:
            return {}
        corpus = held.corpus
        return {doc_id: corpus.sources[corpus.by_id[doc_id]].turns.starts() for doc_id in doc_ids}

    def layouts(self, key: str) -> dict[str, tuple[str, tuple[str, ...]]]:
        """How each document of shard ``key`` is laid out, and what of a line-numbered transcript's layout was not
        read (for the manifest and the run's warnings); none if this worker does not hold the shard (its worker
        was lost: the client reads them itself)."""
        held = self.held.get(key)
        if held is None:
            return {}
        return {s.document.doc_id: (layout_of(s.pages), s.pages.partly) for s in held.corpus.sources}

    def exact_summaries(self, key: str, quotes: Sequence[Quote], config: Config) -> list[list[ExactSummary]]:
        """Each quote's exact fast path over this shard: per document where its first run occurs (see
        ``places.exact_summary``)."""
        prepared = self.held[key]
        return [[] if q.problem else exact_summary(prepare_row(q, prepared.corpus), prepared.corpus,
                                                   config.align, q.speaker) for q in quotes]

    def check_on_shard(self, key: str, quotes: Sequence[Quote], languages: Sequence[str], checking: Checking
                       ) -> tuple[list[QuoteResult | None], list[str]]:
        """Check quotes that the exact fast path settles in this shard (and quotes with a problem, which
        match nothing). A quote this shard does not settle after all comes back as None."""
        prepared = self.held[key]
        embed = self.embedder(checking)
        corpus = prepared.corpus
        settled = [k for k, q in enumerate(quotes) if q.problem or prepared.aligner.align_exact(
            prepare_row(q, corpus), corpus.by_id.get(q.claimed_document), q.speaker) is not None]
        warnings: list[str] = []
        results = check_quotes(prepared, [quotes[k] for k in settled], checking.config, embed,
                               languages=QuoteLanguages([languages[k] for k in settled]),
                               cached=ResultCache(checking.cache_dir, warnings=warnings))
        out: list[QuoteResult | None] = [None] * len(quotes)
        for k, result in zip(settled, results):
            out[k] = result
        warnings += prepared.index.cache.warnings
        if embed is not None:
            warnings += embed.store.warnings
        return out, warnings

    def shard_stats(self, key: str) -> Bm25Stats:
        """The shard's own BM25 stats, for the caller to sum into the whole corpus's."""
        return self.held[key].index.own_stats()

    def use_stats(self, key: str, stats: Bm25Stats) -> None:
        """Weight the shard's BM25 index (and every gathered one) with the whole corpus's stats, so each
        window scores what it scores in the whole corpus's index."""
        index = self.held[key].index
        if index.stats is None or index.stats.key != stats.key:
            index.use_stats(stats)
        self.stats[key] = stats

    def top_windows(self, key: str, quotes: Sequence[Quote], take: int) -> list[list[RankedWindow]]:
        """For each quote, the shard's ``take`` best windows for its words (the first retrieval of its
        alignment), weighted corpus-wide."""
        prepared = self.held[key]
        out = []
        for quote in quotes:
            words = [w for w in prepare_row(quote, prepared.corpus).words if w] if not quote.problem else []
            out.append(best_windows(prepared.index, prepared.index.scores(words), take) if words else [])
        return out

    def beaten(self, key: str, skip: Sequence[int], asked: Sequence[Sequence[Retrieval]], take: int
               ) -> list[list[int]]:
        """For each quote checked against the same documents (``skip``, this shard's among them) with some
        retrievals, this shard's other documents with a window that would have entered one of those
        retrievals: the quote must be checked again with them."""
        index = self.held[key].index
        elsewhere = ~np.isin(index.win_doc, np.asarray(skip, dtype=index.win_doc.dtype))
        out = []
        for retrievals in asked:
            strictest: dict[tuple[str, ...], float] = {}
            for retrieval in retrievals:  # the same words asked twice: the lower score decides
                words = retrieval.words
                strictest[words] = min(retrieval.at_least, strictest.get(words, retrieval.at_least))
            docs: set[int] = set()
            for words, at_least in strictest.items():
                scores = index.scores(list(words))
                docs.update(w.doc for w in best_windows(index, scores, take, elsewhere & (scores >= at_least)))
            out.append(sorted(docs))
        return out

    # Gathered checks ----------------------------------------------------------------------------------

    def index_entries(self, index: Bm25Index, vocab: Mapping[str, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``index.entries``, kept with the index (the worker's vocabulary only grows)."""
        if index not in self.entries:
            self.entries[index] = index.entries(vocab)
        return self.entries[index]

    def guest(self, document: Document, key: str, config: Config, cache: Cache) -> tuple[Source, Bm25Index]:
        """Another shard's document prepared on this worker (its word ids in the worker's vocabulary for the
        shard ``key``), with its windows indexed with the whole corpus's stats; kept (up to
        ``cluster.gather_chars`` characters) for the next task that needs it."""
        stats = self.stats[key]
        name = (key, document.doc_id, document.sha256, stats.key)
        if name in self.guests:
            self.guests.move_to_end(name)
            return self.guests[name][1]
        prepared = prepare_document(document, cache)
        tokens = prepared.tokens
        vocab = self.vocab[key]
        for word in dict.fromkeys(tokens.words):
            vocab.setdefault(word, len(vocab))
        ids = np.fromiter(map(vocab.__getitem__, tokens.words), dtype=np.int32, count=len(tokens))
        source = Source(document, prepared.norm, tokens, ids, 0, prepared.pages)
        alone = Corpus([document], prepared=[prepared])
        index = Bm25Index(alone, make_windows(alone, size=config.window.size, overlap=config.window.overlap),
                          bm25=Bm25Settings.of(config.index), stats=stats)
        index.build()
        self.guests[name] = (len(document.text), (source, index))
        while len(self.guests) > 1 and sum(n for n, _ in self.guests.values()) > config.cluster.gather_chars:
            self.guests.popitem(last=False)
        return source, index

    def gathered_corpus(self, key: str, members: Sequence[int | Document], config: Config, cache: Cache) -> Prepared:
        """The documents a task's quotes can match, in corpus order: this shard's (by number) and others'
        (sent along), scored with the whole corpus's BM25 stats. Nothing is prepared or indexed again: the
        documents' words, ids, turns and window scores are read from the shard and from the other documents
        this worker keeps."""
        shard = self.held[key]
        if key not in self.vocab:
            self.vocab[key] = dict(shard.corpus.vocab)  # grows with the words of other shards' documents
        bounds = np.searchsorted(shard.index.win_doc, np.arange(len(shard.corpus.sources) + 1))
        sources, pieces = [], []
        for member in members:
            if isinstance(member, int):
                sources.append(shard.corpus.sources[member])
                pieces.append((shard.index, int(bounds[member]), int(bounds[member + 1])))
            else:
                source, index = self.guest(member, key, config, cache)
                sources.append(source)
                pieces.append((index, 0, len(index)))
        vocab = self.vocab[key]
        corpus = Corpus.assembled(sources, vocab)
        windows = make_windows(corpus, size=config.window.size, overlap=config.window.overlap)
        index = Bm25Index(corpus, windows, bm25=Bm25Settings.of(config.index),
                          stats=self.stats[key])
        index.score_with(JoinedPostings([(self.index_entries(i, vocab), a, b) for i, a, b in pieces], vocab))
        return Prepared(corpus, index, Aligner(corpus, index, align=config.align, top_k=config.index.top_k),
                        len(windows))

    def check_gathered(self, key: str, quotes: Sequence[Quote], languages: QuoteLanguages,
                       members: Sequence[int | Document], checking: Checking, documents: str
                       ) -> tuple[list[GatheredCheck | None], list[str]]:
        """Check quotes not found word for word against ``members``, the documents they can match (this
        shard's by number, others' sent along), each result with the retrievals the shards must confirm
        (``beaten``). ``languages``: each quote's as given, and as told against the whole corpus;
        ``documents``: the whole corpus's ``resultcache.documents_key``. A quote found word for word here
        after all (past the exact fast path's tries in the whole corpus) comes back as None: the caller
        checks it against the whole corpus."""
        config = checking.config
        part = self.gathered_corpus(key, members, config, Cache(checking.cache_dir))
        corpus = part.corpus
        pqs = [prepare_row(q, corpus) for q in quotes]
        mine = [k for k, q in enumerate(quotes) if q.problem or part.aligner.align_exact(
            pqs[k], corpus.by_id.get(q.claimed_document), q.speaker) is None]
        log = RetrievalLog(part, 3 * config.index.top_k)
        embed = self.embedder(checking)
        warnings: list[str] = []
        told = languages.told or languages.given
        # Kept results are read, but this check's are held back: the client saves those it confirms.
        cached = ResultCache(checking.cache_dir, warnings=warnings, documents=documents, hold=True)
        results = check_quotes(part, [quotes[k] for k in mine], config, embed,
                               languages=QuoteLanguages([languages.given[k] for k in mine], [told[k] for k in mine]),
                               cached=cached)
        kept_as = {id(result): key for key, result in cached.held.items()}
        out: list[GatheredCheck | None] = [None] * len(quotes)
        for k, result in zip(mine, results):
            out[k] = GatheredCheck(result, log.of(pqs[k], corpus.by_id.get(quotes[k].claimed_document),
                                                  quotes[k].speaker), kept_as.get(id(result), ""))
        if embed is not None:
            warnings += embed.store.warnings
        return out, warnings


class RetrievalLog:
    """What a check against part of the corpus must ask the rest: each quote's retrievals, with the score
    of the last window each took in. A window elsewhere that scores less would not have entered it;
    one that scores as much or more would (ties go to the first window in corpus order): the quote is then
    checked again with that window's document. A retrieval that took in fewer windows than it may
    (``take``) took every window with a word of the query: no window elsewhere may have one."""

    def __init__(self, prepared: Prepared, take: int):
        self.take = take
        self.by_quote: dict[tuple[str, int | None, str], list[Retrieval]] = {}
        self.current: list[Retrieval] = []
        prepared.index.listener = self.heard
        align = prepared.aligner.align

        def watched(pq: PreparedQuote, prefer_doc: int | None = None, speaker: str = "") -> Alignment:
            self.current = self.by_quote.setdefault((pq.text, prefer_doc, speaker), [])
            return align(pq, prefer_doc, speaker)

        prepared.aligner.align = watched  # type: ignore[method-assign]

    def heard(self, words: Sequence[str], scores: np.ndarray, only_doc: int | None) -> None:
        if only_doc is not None:
            return  # one document's windows: every other document's score 0 there
        positive = scores[scores > 0]
        at_least = 0.0
        if len(positive) >= self.take:
            at_least = float(-np.partition(-positive, self.take - 1)[self.take - 1])
        self.current.append(Retrieval(tuple(words), at_least))

    def of(self, pq: PreparedQuote, prefer_doc: int | None, speaker: str) -> list[Retrieval]:
        return self.by_quote.get((pq.text, prefer_doc, speaker), [])


class JoinedPostings:
    """The BM25 scores of a gathered corpus's windows for any query, read from the indexes that already
    hold them (the shard's for its documents, each other document's own for it), joined in one table:
    word -> its windows here and their scores. A window scores the same in any index weighted with the
    whole corpus's stats, and the scores of a query's words are added up as bm25s adds them (in query
    order, in float32), so each window's score is the bit-identical one: no index is built again.
    ``pieces``: each document's windows [a, b) of an index, as that index's (words, windows, scores)
    entries, in corpus order."""

    def __init__(self, pieces: Sequence[tuple[tuple[np.ndarray, np.ndarray, np.ndarray], int, int]],
                 vocab: Mapping[str, int]):
        words, rows, data = [], [], []
        offset = 0
        for (word, row, score), a, b in pieces:
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


@cache
def this_worker() -> WorkerState:
    """The state this worker process keeps: one per process (a Dask worker runs in a process of its own, one
    thread each as a local cluster starts them), made on its first task."""
    return WorkerState()


def run_task(method: Callable[..., T], *args: object) -> T:
    """Runs on a worker: ``method`` of WorkerState on the state this worker keeps, with ``args``."""
    return method(this_worker(), *args)
