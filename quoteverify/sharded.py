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

Everything else is ranked with BM25 (corpus-wide word weights and
``bm25_ratio``), aligned against candidate regions from any document, and may
be a splice across documents or a verbatim find in another document than the
claimed one (misattribution): the caller checks those quotes against the whole
corpus (quoteverify.cluster), so results stay identical.
"""
from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .align import EXACT_TRIES, exact_summary
from .cache import Cache, digest
from .config import Config, as_config
from .corpus import prepare_quote
from .index import Bm25Stats
from .pipeline import (
    Prepared,
    _align_and_compare,
    _contract,
    _cosine_scores,
    _embedder,
    _language,
    _result,
    _say_unjudged,
    check_quotes,
    prepare,
)
from .types import Alignment, Comparison, Document, Quote, QuoteResult

# What a worker keeps between tasks: its shards of the current run's documents, by key.
_held: dict[str, Prepared] = {}
_embedders: dict[str, Any] = {}

Summary = list[tuple[int, int, int]]  # (document, first-run occurrences there, first whole match or -1)


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
                  cache_dir: str | None, keep: Sequence[str]) -> tuple[dict[str, int], Bm25Stats]:
    """Runs on a worker: prepare a shard (documents in corpus order) and keep it, forgetting the shards
    not in ``keep``. Returns what this worker now holds, for the caller to report, and the shard's
    BM25 stats, for the caller to sum."""
    for old in [k for k in _held if k not in keep and k != key]:
        del _held[old]
    if key not in _held:
        _held[key] = prepare(documents, as_config(settings), cache=Cache(cache_dir))
        # A shard's index is weighted with the whole corpus's stats, which its cache key does not hold.
        _held[key].index.cache = Cache(None)
    index = _held[key].index
    return {**held(), "windows": _held[key].windows}, index.own_stats()


def use_stats(key: str, stats: Bm25Stats) -> None:
    """Runs on a worker: weight the shard's BM25 index with the whole corpus's stats (its words' only)."""
    index = _held[key].index
    if index.stats != stats:
        index.stats, index._model = stats, None


def held() -> dict[str, int]:
    """The documents and characters this worker holds in its shards, and its process id."""
    documents = [s.document for p in _held.values() for s in p.corpus.sources]
    return {"pid": os.getpid(), "shards": len(_held), "documents": len(documents),
            "chars": sum(len(d.text) for d in documents)}


def exact_summaries(key: str, quotes: Sequence[Quote], settings: Mapping[str, Any]) -> list[Summary]:
    """Runs on a worker: each quote's exact fast path over this shard (see ``align.exact_summary``)."""
    prepared = _held[key]
    config = as_config(settings)
    return [[] if q.problem else exact_summary(prepare_quote(q.text, prepared.corpus), prepared.corpus, config.align)
            for q in quotes]


def pick_exact(summaries: Sequence[tuple[int, int, int]], claimed: int | None) -> int | None:
    """The document exact_align finds, from every shard's summary in corpus-wide document numbers:
    the claimed document's occurrences are tried first, then the others in corpus order."""
    tried = 0
    for doc, occurrences, found in sorted(summaries, key=lambda s: (s[0] != claimed, s[0])):
        if found >= 0 and tried + found < EXACT_TRIES:
            return doc
        tried += occurrences
        if tried >= EXACT_TRIES:
            return None
    return None


def embedder_here(config: Config, embedder: Any, cache_dir: str | None) -> Any:
    """The embedder this worker keeps: the model is loaded once per worker."""
    if embedder is not None:
        return _embedder(config, embedder, Cache(cache_dir))
    key = digest("embed", cache_dir, config.embed.enabled, config.embed.model)
    if key not in _embedders:
        _embedders[key] = _embedder(config, None, Cache(cache_dir))
    return _embedders[key]


def check_on_shard(key: str, quotes: Sequence[Quote], languages: Sequence[str], settings: Mapping[str, Any],
                   embedder: Any, cache_dir: str | None) -> tuple[list[QuoteResult | None], list[str]]:
    """Runs on a worker: check quotes that the exact fast path settles in this shard (and quotes with a
    problem, which match nothing). A quote this shard does not settle after all comes back as None."""
    prepared = _held[key]
    config: Config = as_config(settings)
    embed = embedder_here(config, embedder, cache_dir)
    corpus = prepared.corpus
    settled = [k for k, q in enumerate(quotes) if q.problem or prepared.aligner.align_exact(
        prepare_quote(q.text, corpus), corpus.by_id.get(q.claimed_document)) is not None]
    results = check_quotes(prepared, [quotes[k] for k in settled], config, embed,
                           own_languages=[languages[k] for k in settled])
    out: list[QuoteResult | None] = [None] * len(quotes)
    for k, result in zip(settled, results):
        out[k] = result
    warnings = list(prepared.index.cache.warnings)
    if embed is not None:
        warnings += embed.store.warnings
    return out, warnings


Ask = tuple[tuple[str, ...], float]  # a query, and the score no window elsewhere may reach (0: none above 0)


class _Watch:
    """Every retrieval one shard makes for a quote, and whether the whole corpus would retrieve the same.

    The index's ``top_k * 3`` best windows are the same corpus-wide when they are all in this shard, the
    last of them scores strictly more than the next one here, and no window in another shard scores as
    much: the reduce step asks the other shards the last. Searching one document (``only_doc``) needs
    no other shard: every window elsewhere scores 0 there.
    """

    def __init__(self, index: Any):
        self.index = index
        self.asks: list[Ask] = []
        self.unsafe = False
        self._scores = index.scores
        self._retrieve = index.retrieve
        self._last: tuple[tuple[str, ...], Any] | None = None
        index.scores, index.retrieve = self.scores, self.retrieve

    def close(self) -> None:
        del self.index.scores, self.index.retrieve

    def scores(self, words: Sequence[str]) -> Any:
        if self._last is None or self._last[0] != tuple(words):
            self._last = tuple(words), self._scores(words)
        return self._last[1]

    def retrieve(self, words: Sequence[str], *, top_k: int, span_words: int, prefer_doc: int | None = None,
                 only_doc: int | None = None) -> Any:
        scores = self.scores(words)
        if only_doc is not None:
            scores = np.where(self.index.win_doc == only_doc, scores, 0.0)
        take = top_k * 3
        if not len(scores) or scores.max() <= 0:
            if only_doc is None:
                self.asks.append((tuple(words), 0.0))
        elif len(scores) <= take:
            self.unsafe = True
        else:
            best = -np.sort(np.partition(-scores, take)[:take + 1])
            if not best[take - 1] > max(best[take], 0):
                self.unsafe = True
            elif only_doc is None:
                self.asks.append((tuple(words), float(best[take - 1])))
        return self._retrieve(words, top_k=top_k, span_words=span_words, prefer_doc=prefer_doc, only_doc=only_doc)


def top_scores(key: str, quotes: Sequence[Quote], take: int) -> list[tuple[float, float]]:
    """Runs on a worker: for each quote's first retrieval, the best window score in this shard and the
    ``take``-th best if the ``take + 1``-th scores less (else 0), with the corpus-wide weights."""
    prepared = _held[key]
    prepared.index.build()
    out = []
    for quote in quotes:
        words = [w for w in prepare_quote(quote.text, prepared.corpus).words if w]
        scores = prepared.index.scores(words) if words else np.zeros(0)
        if len(scores) <= take:
            out.append((float(scores.max(initial=0.0)), 0.0))
            continue
        best = -np.sort(np.partition(-scores, take)[:take + 1])
        out.append((float(best[0]), float(best[take - 1]) if best[take - 1] > best[take] else 0.0))
    return out


def beaten(key: str, asks: Sequence[Ask]) -> list[bool]:
    """Runs on a worker: for each ask of another shard, whether a window here reaches its score."""
    index = _held[key].index
    index.build()
    out = []
    for words, score in asks:
        best = float(index.scores(list(words)).max(initial=0.0)) if words else 0.0
        out.append(best > 0 if score == 0 else best >= score)
    return out


def check_fuzzy(key: str, quotes: Sequence[Quote], languages: Sequence[str], settings: Mapping[str, Any],
                embedder: Any, cache_dir: str | None) -> tuple[list[tuple[QuoteResult, list[Ask]] | None], list[str]]:
    """Runs on a worker: check quotes the exact fast path found nowhere against this shard alone, with
    the corpus-wide BM25 weights, each with the retrievals the other shards must confirm (or None: a
    retrieval here cannot be the corpus-wide one). ``languages``: each quote's, told as in-process."""
    prepared = _held[key]
    config: Config = as_config(settings)
    corpus = prepared.corpus
    prepared.index.build()
    checked: dict[int, tuple[Alignment, Comparison]] = {}
    asks: dict[int, list[Ask]] = {}
    for k, quote in enumerate(quotes):
        watch = _Watch(prepared.index)
        try:
            pq = prepare_quote(quote.text, corpus)
            contract = _contracts(languages[k], quote, corpus, config)
            alignment, comparison = _align_and_compare(pq, quote, prepared, config, contract)
        finally:
            watch.close()
        if not watch.unsafe:
            checked[k], asks[k] = (alignment, comparison), watch.asks
    embed = embedder_here(config, embedder, cache_dir)
    scores, unjudged = _cosine_scores(checked, quotes, languages, corpus, config, embed)
    out: list[tuple[QuoteResult, list[Ask]] | None] = [None] * len(quotes)
    for k in checked:
        result = _result(quotes[k], *checked[k], scores.get(k), corpus, config, languages[k])
        _say_unjudged([result], {0} if k in unjudged else set())
        out[k] = result, asks[k]
    warnings = list(prepared.index.cache.warnings)
    if embed is not None:
        warnings += embed.store.warnings
    return out, warnings


def _contracts(language: str, quote: Quote, corpus: Any, config: Config) -> Any:
    return lambda alignment: _contract(_language(language, alignment, corpus, quote.claimed_document),
                                       config.verdict)
