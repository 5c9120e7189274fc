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
``bm25_ratio``), aligned against the ``top_k * 3`` best windows of the whole
corpus and against further retrievals for the pieces left over, and may be a
splice across documents or a verbatim find in another document than the
claimed one (misattribution): the caller checks those quotes against the whole
corpus (quoteverify.cluster), so results stay identical. Checking them on one
shard with the corpus-wide BM25 statistics, and keeping a result only when the
other shards confirm that no window of theirs would have entered any of its
retrievals, was built and measured (git log: "Sharded fuzzy path, measured"): byte-identical, but on the
scale set the best windows of 540 of 541 such quotes span both shards, so it
settled one and cost a second index; it was taken out again. Checking them
sharded needs a retrieval merged across shards at every step of the alignment.
"""
from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

from .align import EXACT_TRIES, exact_summary
from .cache import Cache, digest
from .config import Config, as_config
from .corpus import prepare_quote
from .pipeline import Prepared, _embedder, check_quotes, prepare
from .resultcache import ResultCache
from .types import Document, Quote, QuoteResult

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
                  cache_dir: str | None, keep: Sequence[str]) -> dict[str, int]:
    """Runs on a worker: prepare a shard (documents in corpus order) and keep it, forgetting the shards
    not in ``keep``. Returns what this worker now holds, for the caller to report."""
    for old in [k for k in _held if k not in keep and k != key]:
        del _held[old]
    if key not in _held:
        _held[key] = prepare(documents, as_config(settings), cache=Cache(cache_dir))
    return {**held(), "windows": _held[key].windows}


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
