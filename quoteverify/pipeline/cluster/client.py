"""verify() on a Dask cluster: documents in shards, quotes checked on the workers.

The documents are split by size into one shard per worker, prepared there and
kept (quoteverify.pipeline.cluster.shards). The exact fast path runs on the shards and a
reduce step picks the document the whole-corpus run finds; each quote it
settles is checked on the shard that holds its document. The other quotes
are ranked on every shard with the corpus-wide BM25 weights and checked on one
worker against the documents they can match, gathered from the shards, until
every shard confirms that none of its windows would have entered their
retrievals (``_gathered``). No worker then holds more than its shard and
``cluster.gather_chars`` characters of the others'. When the whole corpus is no
larger than that, and for what cannot be gathered, the whole corpus is sent to
every worker, each reads it once and keeps it. A worker calls the same
``pipeline.check_quotes`` as the in-process run, so every result is the one
the in-process run gives (README: "Beyond one machine").

``--cluster local[:N]`` starts a ``distributed.LocalCluster`` of N worker
processes with one thread each; ``--cluster tcp://HOST:PORT`` uses a running
scheduler, whose workers need quoteverify installed and, for a shared
``cache_dir``, the same path.
"""
from __future__ import annotations

import atexit
import logging
import multiprocessing
import multiprocessing.forkserver
import os
import re
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext, suppress
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ...model.config import Config, as_config
from ...model.errors import InputError, QuoteverifyError
from ...model.types import Document, Quote, QuoteResult, Run
from ...plumbing.archive import ArchiveLimits
from ...plumbing.cache import Cache, digest
from ...plumbing.resultcache import ResultCache, documents_key
from ...search.index import Bm25Stats
from ...search.places import ExactSummary
from ...sources.corpus import prepare_document
from ...sources.language import detect_quote_languages, with_languages
from ...sources.quotes import check_claims
from ...sources.turns import Turns, label_warnings
from ..stages import _documents, _quotes, check_quotes, prepare
from .shards import (
    Ask,
    beaten,
    check_gathered,
    check_on_shard,
    embedder_here,
    exact_summaries,
    held_documents,
    pick_exact,
    prepare_shard,
    settles,
    shard_key,
    shard_stats,
    shards,
    top_windows,
    use_stats,
    warm_embedder,
)

_LOCAL = re.compile(r"local(?::(\d+))?")
_REMOTE = re.compile(r"tcp://[^\s:/]+:\d{1,5}")


@dataclass(frozen=True)
class ClusterSpec:
    """Where to run: a local cluster of ``workers`` processes, or a scheduler's ``address``."""

    address: str | None
    workers: int


def parse_cluster(value: str) -> ClusterSpec:
    """``local``, ``local:N`` or ``tcp://HOST:PORT``."""
    local = _LOCAL.fullmatch(value)
    if local:
        workers = int(local.group(1)) if local.group(1) else (os.cpu_count() or 1)
        if not 1 <= workers <= 256:
            raise InputError(f"--cluster {value}: the number of local workers must be 1 to 256")
        return ClusterSpec(None, workers)
    if _REMOTE.fullmatch(value):
        return ClusterSpec(value, 0)
    raise InputError(f"--cluster {value!r} is not local, local:N (N workers) or tcp://HOST:PORT "
                     "(a running Dask scheduler)")


@contextmanager
def connect(spec: ClusterSpec, *, timeout: float = 10, preload: Sequence[str] = ()) -> Iterator[Any]:
    """A Dask client for ``spec``, closed (and a local cluster stopped) on exit.

    ``timeout``: seconds to wait for a remote scheduler. ``preload``: modules a local cluster's workers
    need (sentence_transformers, when they embed), imported once for all of them (``_local_cluster``).
    """
    try:
        # Dask is an optional extra and slow to import; only --cluster needs it.
        from distributed import Client
    except ImportError:
        raise InputError("--cluster needs Dask: pip install 'quoteverify[dask]'") from None
    if spec.address is None:
        cluster = _local_cluster(spec.workers, preload)
        try:
            with Client(cluster) as client:
                client.run(_exit_quickly)
                yield client
        finally:
            cluster.close()
        return
    try:
        client = Client(spec.address, timeout=timeout)
    except (OSError, TimeoutError):
        raise InputError(f"cannot reach the Dask scheduler at {spec.address} within {timeout:g} s; "
                         "start one with 'dask scheduler' or use --cluster local:N") from None
    with client:
        yield client


def _fork_server(preload: Sequence[str]) -> str:
    """How a local cluster's worker processes start: where the OS has it, forked from multiprocessing's
    fork server, started now, which imports quoteverify and ``preload`` once (some 3 s of a core for
    sentence-transformers) while this process goes on, instead of each worker importing them. The fork
    server lives as long as this process: the first local cluster's preload is what later ones get."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return "spawn"
    # Dask is an optional extra and slow to import; only --cluster needs it.
    import dask
    from distributed.utils import get_mp_context

    with dask.config.set({"distributed.worker.multiprocessing-method": "forkserver"}):
        get_mp_context()  # Dask sets its own preload once a process; this one replaces it
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["distributed", "quoteverify.pipeline.cluster.client", *preload])
    multiprocessing.forkserver.ensure_running()
    return "forkserver"


def _local_cluster(workers: int, preload: Sequence[str]) -> Any:
    """A LocalCluster of ``workers`` processes, one thread each (started as ``_fork_server`` says)."""
    # Dask is an optional extra and slow to import; only --cluster needs it.
    import dask
    from distributed import LocalCluster

    with dask.config.set({"distributed.worker.multiprocessing-method": _fork_server(preload)}):
        # Port 0: a free port, not 8787 (often taken), for the scheduler's HTTP routes. Workers log
        # heartbeat tracebacks while the cluster shuts down; a failed task reaches us as its exception.
        return LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0",
                            silence_logs=logging.CRITICAL)


def _exit_quickly() -> None:
    """Runs on each worker of a LocalCluster this run starts: the worker process, once it has closed, leaves
    without the interpreter's teardown, which takes about a second once torch and sentence-transformers are
    loaded. Nothing is lost: what a worker writes to the cache is renamed into place or committed when
    written."""
    def leave() -> None:
        for stream in (sys.stdout, sys.stderr):
            with suppress(Exception):
                stream.flush()
        os._exit(0)

    atexit.register(leave)  # registered last, so run first at exit


# What a worker keeps between tasks: prepared corpora and embedders, by what they depend on.
_prepared: dict[str, Any] = {}


def _prepare_shard(shard: Sequence[Document], cache_dir: str) -> int:
    """Runs on a worker: normalize and tokenize a shard of the documents into the cache."""
    cache = Cache(cache_dir)
    for document in shard:
        prepare_document(document, cache)
    return len(shard)


def _prepared_here(documents: tuple[Document, ...], config: Config, cache_dir: str | None) -> Any:
    """The corpus this worker keeps, prepared (or read from the cache) on first use."""
    key = digest("prepared", cache_dir, *(f"{d.doc_id}\x01{d.sha256}" for d in documents),
                 config.window.size, config.window.overlap, config.index.backend, config.index.k1,
                 config.index.b, config.index.top_k)
    if key not in _prepared:
        _prepared.clear()  # one corpus at a time: a worker's memory is for its current run
        cache = Cache(cache_dir)
        # The documents of this worker's shard are prepared already: only the others are read or prepared.
        held = held_documents()
        _prepared[key] = prepare(documents, config, cache=cache, normalized=[
            held.get((d.doc_id, d.sha256)) or prepare_document(d, cache) for d in documents])
    return _prepared[key]


def _build_index(documents: tuple[Document, ...], settings: Mapping[str, Any], cache_dir: str,
                 *shards_done: int) -> int:
    """Runs on one worker, once every shard is prepared: the BM25 index built into the cache."""
    prepared = _prepared_here(documents, as_config(settings), cache_dir)
    prepared.index.build()
    return prepared.windows


def _check_chunk(documents: tuple[Document, ...], chunk: tuple[Sequence[Quote], Sequence[str]],
                 settings: Mapping[str, Any], embedder: Any, cache_dir: str | None,
                 *ready: int) -> tuple[list[QuoteResult], list[str], int]:
    """Runs on a worker: one chunk of quotes (and their languages) checked against the corpus this worker keeps."""
    config = as_config(settings)
    quotes, languages = chunk
    prepared = _prepared_here(documents, config, cache_dir)
    warnings: list[str] = []
    embed = embedder_here(config, embedder, cache_dir)
    results = check_quotes(prepared, quotes, config, embed, own_languages=languages,
                           cached=ResultCache(cache_dir, warnings=warnings))
    warnings += prepared.index.cache.warnings  # the cache the corpus and the index were read with
    if embed is not None:
        warnings += embed.store.warnings
    return results, warnings, prepared.windows


def _load(documents: Any, quotes: Any, config: Config, cache: Cache
          ) -> tuple[Any, list[Quote], list[str], list[str], str]:
    """The documents and quotes as pipeline.run() reads them, with their languages, on this machine."""
    limits = ArchiveLimits.of(config)
    loaded = _documents(documents, limits)
    quote_list, warnings, quotes_sha256 = _quotes(quotes, vars(config.columns), limits)
    warnings = list(loaded.warnings) + warnings
    quote_list = check_claims(quote_list, (d.doc_id for d in loaded.documents))
    documents_with_languages, quote_list, own_languages = with_languages(loaded.documents, quote_list,
                                                                          config.language, cache=cache)
    warnings += cache.warnings
    return replace(loaded, documents=documents_with_languages), quote_list, own_languages, warnings, quotes_sha256


Parts = dict[int, tuple[list[QuoteResult], list[str]]]  # by chunk: its results and its warnings


def _gather(futures: list[Any], progress: Any, total: int) -> tuple[Parts, int]:
    """The chunks' results and warnings by chunk, as they finish; a failure there as one QuoteverifyError."""
    # Dask is an optional extra and slow to import; only --cluster needs it.
    from distributed import as_completed

    order = {f.key: i for i, f in enumerate(futures)}
    parts: Parts = {}
    done = windows = 0
    with _failures("checking quotes"):
        for future in as_completed(futures):
            results, chunk_warnings, windows = future.result()
            parts[order[future.key]] = results, chunk_warnings
            done += len(results)
            if progress:
                progress(done, total)
    return parts, windows


@dataclass
class _Whole:
    """Chunks of quotes being checked, every worker holding the whole corpus."""

    quotes: list[int]  # the quotes' numbers in the run, in the chunks' order
    futures: list[Any]


def _whole_corpus(client: Any, documents: tuple[Document, ...], quote_list: Sequence[Quote], quotes: list[int],
                  own_languages: Sequence[str], settings: dict[str, Any], embedder: Any, cache: str | None,
                  sharded: bool, index_on: str | None = None) -> _Whole:
    """Start checking the quotes numbered ``quotes`` in chunks, every worker holding the whole corpus.
    ``sharded``: the workers hold the documents in shards, prepared (into ``cache``) already;
    ``index_on``: the worker to build the index (it has the least else to do)."""
    config = as_config(settings)
    workers = max(1, len(client.scheduler_info().get("workers", {})))
    size = max(config.cluster.min_chunk, -(-len(quotes) // (workers * config.cluster.chunks_per_worker)))
    parts = [quotes[i:i + size] for i in range(0, len(quotes), size)]
    if not parts:
        return _Whole([], [])
    docs = client.scatter(documents, broadcast=True)
    ready = []
    if cache is not None:
        # With a cache the workers share, each prepares a shard of the documents and one builds the
        # index, first; the others read both from the cache instead of doing the same work again.
        done_shards = [] if sharded else [client.submit(_prepare_shard, shard, cache, pure=False)
                                          for shard in shards(documents, workers)]
        ready = [client.submit(_build_index, docs, settings, cache, *done_shards, pure=False, priority=1,
                               workers=index_on and [index_on])]
    futures = [client.submit(_check_chunk, docs, _as_data(client, ([quote_list[k] for k in part],
                                                                   [own_languages[k] for k in part])),
                             settings, embedder, cache, *ready, pure=False)
               for part in parts]
    return _Whole(quotes, futures)


def _whole_results(whole: _Whole, progress: Any, total: int
                   ) -> tuple[dict[int, QuoteResult], list[str], int]:
    """The results of ``_whole_corpus``'s chunks by quote, their warnings, and the windows of the whole corpus."""
    parts, windows = _gather(whole.futures, progress, total)
    results = [r for i in range(len(whole.futures)) for r in parts[i][0]]
    return dict(zip(whole.quotes, results)), [w for i in range(len(whole.futures)) for w in parts[i][1]], windows


# Lists of quotes longer than this go to the workers as data, not inside the task graph (which Dask
# warns about past a few megabytes, and sends through the scheduler).
SCATTER_ITEMS = 1000


def _as_data(client: Any, value: Any, workers: list[str] | None = None) -> Any:
    """A long list (or a chunk of two lists) sent ahead to ``workers`` as data; anything else as it is."""
    items = len(value[0]) if isinstance(value, tuple) and value and isinstance(value[0], list) else (
        len(value) if isinstance(value, list) else 0)
    if items <= SCATTER_ITEMS:
        return value
    return client.scatter([value], workers=workers, hash=False)[0]


@contextmanager
def _failures(what: str) -> Iterator[None]:
    """A failure on a worker (a worker lost, or a task that failed there) as one QuoteverifyError."""
    try:
        yield
    except QuoteverifyError:
        raise
    except Exception as exc:  # say which, in one line
        raise QuoteverifyError(f"the Dask cluster failed while {what}: {exc.__class__.__name__}: {exc}") from exc


def _failing(what: str, futures: list[Any]) -> list[Any]:
    """The futures' results; a failure on a worker as one QuoteverifyError."""
    with _failures(what):
        return [future.result() for future in futures]


class _Shards:
    """The documents in one shard per worker, each prepared and kept on its worker."""

    def __init__(self, client: Any, documents: tuple[Document, ...], settings: dict[str, Any], cache: str | None):
        self.client, self.settings, self.documents = client, settings, documents
        self.sent: list[Any] = []
        self.addresses = sorted(client.scheduler_info().get("workers", {}))
        order = {d.doc_id: i for i, d in enumerate(documents)}
        self.order = order
        parts = [sorted(p, key=lambda d: order[d.doc_id]) for p in shards(documents, len(self.addresses))]
        self.keys = [shard_key(p, settings) for p in parts]
        self.docs = [[order[d.doc_id] for d in p] for p in parts]  # corpus-wide numbers, by shard
        self.where = {g: s for s, gs in enumerate(self.docs) for g in gs}
        self.local = {g: i for gs in self.docs for i, g in enumerate(gs)}  # a document's number in its shard
        # Each shard's documents go to its worker alone, as data (not inside the task graph).
        sent = [client.scatter([tuple(p)], workers=[self.addresses[s]])[0] for s, p in enumerate(parts)]
        self.held = self.settle("preparing the shards", [
            self.on(s, prepare_shard, self.keys[s], sent[s], settings, cache, [self.keys[s]])
            for s in range(len(parts))])

    def on(self, shard: int, function: Any, *args: Any) -> Any:
        # Dask is an optional extra and slow to import; only --cluster needs it.
        from distributed import Future

        where = [self.addresses[shard]]
        args = tuple(_as_data(self.client, a, where) for a in args)
        # What was sent ahead is kept until the task is done: a future no one holds is forgotten.
        self.sent.extend(a for a in args if isinstance(a, Future))
        return self.client.submit(function, *args, workers=where, allow_other_workers=False, pure=False)

    def settle(self, what: str, futures: list[Any]) -> list[Any]:
        """The tasks' answers (a failure as one QuoteverifyError); what was sent ahead for them is let go."""
        try:
            return _failing(what, futures)
        finally:
            self.sent.clear()

    def weigh(self) -> None:
        """Weight every shard's BM25 index with the whole corpus's stats, the sum of the shards'."""
        stats = self.settle("weighting the shards", [self.on(s, shard_stats, self.keys[s])
                                                   for s in range(len(self.keys))])
        whole = self.client.scatter(sum(stats, Bm25Stats({}, 0, 0)), broadcast=True)
        self.settle("weighting the shards", [self.on(s, use_stats, self.keys[s], whole) for s in range(len(self.keys))])

    def summaries(self, asks: dict[int, list[int]], quote_list: Sequence[Quote],
                  found: dict[int, list[ExactSummary]]) -> None:
        """Each shard's exact summary of the quotes asked of it, added to ``found`` in corpus-wide numbers."""
        shard_ids = [s for s in asks if asks[s]]
        answers = self.settle("looking quotes up", [
            self.on(s, exact_summaries, self.keys[s], [quote_list[k] for k in asks[s]], self.settings)
            for s in shard_ids])
        for s, answer in zip(shard_ids, answers):
            for k, summary in zip(asks[s], answer):
                found.setdefault(k, []).extend(replace(one, doc=self.docs[s][one.doc]) for one in summary)


def _doc(summary: ExactSummary | None) -> int | None:
    return summary.doc if summary is not None else None


def _exact_owners(parts: _Shards, quote_list: Sequence[Quote]
                  ) -> tuple[dict[int, int], dict[int, list[ExactSummary]]]:
    """The shard that settles each quote the exact fast path settles (and each quote with a problem), and
    every quote's exact summaries in corpus-wide document numbers."""
    claims = {k: parts.order.get(q.claimed_document) for k, q in enumerate(quote_list)}
    home = {k: -1 if doc is None else parts.where[doc] for k, doc in claims.items()}  # the claimed shard
    everywhere = range(len(parts.keys))
    found: dict[int, list[ExactSummary]] = {}
    checkable = [k for k, q in enumerate(quote_list) if not q.problem]
    # A quote that names its document is looked up in that document's shard first.
    parts.summaries({s: [k for k in checkable if home[k] in (-1, s)] for s in everywhere}, quote_list, found)
    again = [k for k in checkable if home[k] >= 0 and _doc(pick_exact(found.get(k, []), claims[k])) != claims[k]]
    parts.summaries({s: [k for k in again if home[k] != s] for s in everywhere}, quote_list, found)
    owners = {}
    for k, q in enumerate(quote_list):
        if q.problem:  # it matches nothing; its claimed document (for its language) is in its claimed shard
            owners[k] = max(home[k], 0)
            continue
        picked = pick_exact(found.get(k, []), claims[k])
        if picked is not None and settles(picked, claims[k]):
            owners[k] = parts.where[picked.doc]
    return owners, found


def _sharded(parts: _Shards, quote_list: Sequence[Quote], own_languages: Sequence[str], embedder: Any,
             cache: str | None, progress: Any) -> tuple[dict[int, QuoteResult], list[str], _Whole | None]:
    """The quotes the shards settle, checked there (found word for word) or against the documents they
    can match, gathered from the shards: results by quote, and warnings. When none is to be gathered,
    the others are checked against the whole corpus meanwhile: those chunks come back to be collected."""
    owners, found = _exact_owners(parts, quote_list)
    config = as_config(parts.settings)
    jobs = []
    for s in range(len(parts.keys)):
        mine = [k for k in sorted(owners) if owners[k] == s]
        size = max(config.cluster.min_chunk, -(-len(mine) // config.cluster.chunks_per_worker))
        for i in range(0, len(mine), size):
            chunk = mine[i:i + size]
            jobs.append((chunk, parts.on(s, check_on_shard, parts.keys[s], [quote_list[k] for k in chunk],
                                         [own_languages[k] for k in chunk], parts.settings, embedder, cache)))
    need = _gatherable(parts, quote_list, owners, found)
    whole = None
    if not need:
        # The rest are checked against the whole corpus while the shards check theirs; the index is built
        # by the worker with the fewest quotes to check on its shard.
        busy = [sum(owners[k] == s for k in owners) for s in range(len(parts.keys))]
        whole = _whole_corpus(parts.client, parts.documents, quote_list,
                              [k for k in range(len(quote_list)) if k not in owners], own_languages, parts.settings,
                              embedder, cache, True, parts.addresses[busy.index(min(busy))])
    answers = parts.settle("checking quotes", [future for _, future in jobs])
    results: dict[int, QuoteResult] = {}
    warnings: list[str] = []
    for (chunk, _), (out, chunk_warnings) in zip(jobs, answers):
        results.update((k, r) for k, r in zip(chunk, out) if r is not None)
        warnings += chunk_warnings
    if progress:
        progress(len(results), len(quote_list))
    if need:
        told = list(own_languages)
        detect_quote_languages(parts.documents, quote_list, told, sorted(need), config.language)
        gathered, gathered_warnings = _gathered(
            parts, quote_list, list(zip(own_languages, told)), need, embedder, cache,
            progress and (lambda done: progress(len(results) + done, len(quote_list))))
        results.update(gathered)
        warnings += gathered_warnings
    return results, warnings, whole


def _gatherable(parts: _Shards, quote_list: Sequence[Quote], owners: dict[int, int],
                found: dict[int, list[ExactSummary]]) -> dict[int, set[int]]:
    """The quotes left to check against the documents they can match, each with the documents it needs
    whatever BM25 ranks first: its claimed document and the one it is found in word for word."""
    config = as_config(parts.settings)
    if config.index.backend != "bm25s":
        return {}  # only bm25s's windows can be weighted with the whole corpus's stats
    if sum(len(d.text) for d in parts.documents) <= config.cluster.gather_chars:
        return {}  # what a worker may gather holds the whole corpus: each worker keeps it, read once
    need: dict[int, set[int]] = {}
    for k, quote in enumerate(quote_list):
        if k in owners or quote.problem:
            continue
        claimed = parts.order.get(quote.claimed_document)
        doc = _doc(pick_exact(found.get(k, []), claimed))
        if doc is None and any(one.found >= 0 for one in found.get(k, [])):
            continue  # found word for word past the exact fast path's tries: the whole corpus decides
        need[k] = {d for d in (claimed, doc) if d is not None}
    return need


Task = tuple[int, list[int], list[int]]  # the shard to check on, the quotes, the documents they need


def _tasks(parts: _Shards, need: Mapping[int, set[int]], pending: Sequence[int]) -> tuple[list[Task], list[int]]:
    """The pending quotes in tasks, each on the shard that holds most of its documents' characters, with
    at most ``cluster.gather_chars`` characters of documents; and the quotes that need more than that."""
    config = as_config(parts.settings).cluster
    chars = [len(d.text) for d in parts.documents]
    home: dict[int, int] = {}
    too_big = []
    for k in pending:
        by_shard = [0] * len(parts.keys)
        for d in need[k]:
            by_shard[parts.where[d]] += chars[d]
        if sum(by_shard) > config.gather_chars:
            too_big.append(k)
        else:
            home[k] = by_shard.index(max(by_shard))
    tasks: list[Task] = []
    for s in range(len(parts.keys)):
        mine = sorted((k for k in home if home[k] == s), key=lambda k: sorted(need[k]))
        size = max(config.min_chunk, -(-len(mine) // config.chunks_per_worker))
        quotes: list[int] = []
        docs: set[int] = set()
        held = 0  # the characters of ``docs``
        for k in mine:
            more = need[k] - docs
            if quotes and (len(quotes) >= size or held + sum(chars[d] for d in more) > config.gather_chars):
                tasks.append((s, quotes, sorted(docs)))
                quotes, docs, held, more = [], set(), 0, need[k]
            quotes.append(k)
            docs |= more
            held += sum(chars[d] for d in more)
        if quotes:
            tasks.append((s, quotes, sorted(docs)))
    return tasks, too_big


def _run_tasks(parts: _Shards, tasks: Sequence[Task], submit: Any) -> list[Any]:
    """The tasks' answers in task order, at most two tasks on a worker at a time (what a task gathers
    stays bounded); ``submit(task)`` starts one."""
    # Dask is an optional extra and slow to import; only --cluster needs it.
    from distributed import as_completed

    waiting: dict[int, list[int]] = {}
    for i, (s, _, _) in enumerate(tasks):
        waiting.setdefault(s, []).append(i)
    answers: list[Any] = [None] * len(tasks)
    running: dict[str, int] = {}
    flow = as_completed()

    def start(s: int) -> None:
        if waiting.get(s):
            i = waiting[s].pop(0)
            future = submit(tasks[i])
            running[future.key] = i
            flow.add(future)

    for s in list(waiting):
        start(s)
        start(s)
    with _failures("checking quotes"):
        for future in flow:
            i = running.pop(future.key)
            answers[i] = future.result()
            start(tasks[i][0])
    return answers


def _gathered(parts: _Shards, quote_list: Sequence[Quote], languages: Sequence[tuple[str, str]],
              need: dict[int, set[int]],
            embedder: Any, cache: str | None, progress: Any) -> tuple[dict[int, QuoteResult], list[str]]:
    """Quotes not found word for word (or found elsewhere than claimed), each checked on one worker against
    the documents it can match, gathered from the shards, with the whole corpus's BM25 weights: first the
    documents of its best windows; then, as long as a shard has a window that would have entered one
    of its retrievals, with that window's document too (README: "Beyond one machine"). What is still
    unsettled after ``cluster.gather_rounds`` rounds is left to the caller."""
    config = as_config(parts.settings)
    take = 3 * config.index.top_k
    parts.weigh()
    every = sorted(need)
    size = SCATTER_ITEMS  # quotes per task: a shard ranks them in several tasks, each small enough to send inline
    chunks = [every[i:i + size] for i in range(0, len(every), size)]
    answers = parts.settle("ranking quotes", [parts.on(s, top_windows, parts.keys[s], [quote_list[k] for k in chunk],
                                                       take) for s in range(len(parts.keys)) for chunk in chunks])
    tops = [[w for part in answers[s * len(chunks):(s + 1) * len(chunks)] for w in part]
            for s in range(len(parts.keys))]
    for i, k in enumerate(every):
        ranked = sorted((-score, parts.docs[s][d], w) for s, top in enumerate(tops) for score, d, w in top[i])
        need[k].update(doc for _, doc, _ in ranked[:take])
    documents = documents_key(parts.documents)
    results: dict[int, QuoteResult] = {}
    warnings: list[str] = []
    pending = every
    for _ in range(config.cluster.gather_rounds):
        tasks, _ = _tasks(parts, need, pending)
        if not tasks:
            break

        def submit(task: Task) -> Any:
            s, ks, docs = task
            members = [parts.local[d] if parts.where[d] == s else parts.documents[d] for d in docs]
            sent = parts.client.scatter([members], workers=[parts.addresses[s]], hash=False)[0]
            parts.sent.append(sent)  # kept until the task is done
            return parts.on(s, check_gathered, parts.keys[s], [quote_list[k] for k in ks],
                            [languages[k] for k in ks], sent, parts.settings, embedder, cache, documents)

        answers = _run_tasks(parts, tasks, submit)
        parts.sent.clear()
        checked: dict[int, tuple[QuoteResult, list[Ask], list[int]]] = {}
        for (_, ks, docs), (out, task_warnings) in zip(tasks, answers):
            warnings += task_warnings
            checked.update((k, (*found, docs)) for k, found in zip(ks, out) if found is not None)
        again = _confirm(parts, checked, need, take)
        results.update((k, checked[k][0]) for k in checked if k not in again)
        pending = sorted(again)
        if progress:
            progress(len(results))
        if not pending:
            break
    return results, warnings


def _confirm(parts: _Shards, checked: Mapping[int, tuple[QuoteResult, list[Ask], list[int]]],
             need: dict[int, set[int]], take: int) -> set[int]:
    """Ask every shard whether a window of a document a quote was not checked against would have entered
    one of its retrievals: the quotes to check again, their ``need`` grown by those documents. The
    quotes of one task were checked against the same documents: each shard is told those once."""
    tasks: dict[int, tuple[list[int], list[int]]] = {}
    for k in sorted(checked):
        if checked[k][1]:
            tasks.setdefault(id(checked[k][2]), (checked[k][2], []))[1].append(k)
    jobs = [(docs, ks[i:i + SCATTER_ITEMS]) for docs, ks in tasks.values() for i in range(0, len(ks), SCATTER_ITEMS)]
    answers = parts.settle("confirming candidates", [
        parts.on(s, beaten, parts.keys[s], [parts.local[d] for d in docs if parts.where[d] == s],
                 [checked[k][1] for k in ks], take)
        for s in range(len(parts.keys)) for docs, ks in jobs])
    again: set[int] = set()
    for i, answer in enumerate(answers):
        s, job = divmod(i, len(jobs))
        for k, docs in zip(jobs[job][1], answer):
            if docs:
                need[k].update(parts.docs[s][d] for d in docs)
                again.add(k)
    return again


def _session(cluster: Any, config: Config, embeds: bool) -> AbstractContextManager[Any]:
    """A client for ``cluster`` (a ``--cluster`` value, a ClusterSpec or a client), connected on entry;
    ``embeds``: its workers load the embedding model. A local cluster's fork server starts now."""
    if hasattr(cluster, "submit"):
        return nullcontext(cluster)
    spec = parse_cluster(cluster) if isinstance(cluster, str) else cluster
    preload = ("sentence_transformers",) if embeds else ()
    if spec.address is None:
        with suppress(ImportError):  # without Dask, connect says what to install
            _fork_server(preload)  # its imports run while this process reads the input
    return connect(spec, timeout=config.cluster.connect_seconds, preload=preload)


def _check_all(client: Any, documents: tuple[Document, ...], quote_list: Sequence[Quote],
               own_languages: Sequence[str], settings: dict[str, Any], embedder: Any, cache: str | None,
               progress: Any, sharded: bool, held_by: list[dict[str, int]] | None
               ) -> tuple[dict[int, QuoteResult], list[str], int]:
    """Every quote checked on the cluster: results by quote, warnings, and the windows of the corpus."""
    found: dict[int, QuoteResult] = {}
    warnings: list[str] = []
    windows = [0, 0]  # the shards' together, the whole corpus's once a worker held it
    on_shards = sharded and bool(quote_list and documents)
    whole: _Whole | None = None
    if on_shards:
        parts = _Shards(client, documents, settings, cache)
        windows[0] = sum(h["windows"] for h in parts.held)
        if held_by is not None:
            held_by.extend(parts.held)
        found, warnings, whole = _sharded(parts, quote_list, own_languages, embedder, cache, progress)

    def collect(chunks: _Whole) -> None:
        settled = len(found)
        checked, more, n = _whole_results(
            chunks, progress and (lambda done, _: progress(settled + done, len(quote_list))), len(quote_list))
        found.update(checked)
        warnings.extend(more)
        windows[1] = windows[1] or n

    if whole is not None:  # begun against the whole corpus while the shards checked theirs
        collect(whole)
    rest = [k for k in range(len(quote_list)) if k not in found]
    if rest:
        collect(_whole_corpus(client, documents, quote_list, rest, own_languages, settings, embedder, cache,
                              on_shards))
    return found, warnings, windows[1] or windows[0]


def run_on_cluster(documents: Any, quotes: Any, config: Config | Mapping[str, Any] | str | Path | None = None, *,
                   cluster: Any, embedder: Any = None, progress: Any = None,
                   cache_dir: str | Path | None = None, sharded: bool = True,
                   held_by: list[dict[str, int]] | None = None) -> Any:
    """pipeline.run() with the quotes checked on a Dask cluster; the same Run, result for result.

    ``cluster``: a ``--cluster`` value, a ClusterSpec, or a connected ``distributed.Client``.
    ``sharded``: documents in one shard per worker (quoteverify.pipeline.cluster.shards); the quotes the shards cannot
    settle alone, and every quote without it, are checked against the whole corpus. ``held_by``: filled
    with what each worker held in its shard.
    """
    config = as_config(config)
    timings: dict[str, float] = {}
    # The cluster is the parallelism: a worker process does not fork workers of its own.
    settings = config.as_dict()
    settings["align"] = {**settings["align"], "workers": 1}
    cache = str(cache_dir) if cache_dir is not None else None
    embeds = config.embed.enabled and embedder is None
    session = _session(cluster, config, embeds)
    started = time.perf_counter()
    loaded, quote_list, own_languages, warnings, quotes_sha256 = _load(documents, quotes, config, Cache(cache))
    timings["load"] = time.perf_counter() - started
    with session as client:
        if embeds:
            # Each worker loads the model (seconds, less once the fork server has imported it) while the
            # shards are made.
            with _failures("starting the workers"):
                client.run(warm_embedder, settings, cache)
        clock = time.perf_counter()
        found, found_warnings, windows = _check_all(client, loaded.documents, quote_list, own_languages, settings,
                                                    embedder, cache, progress, sharded, held_by)
        timings["cluster"] = time.perf_counter() - clock
    results = [found[k] for k in range(len(quote_list))]
    warnings.extend(dict.fromkeys(w for w in found_warnings if w not in warnings))
    warnings += label_warnings(loaded.documents, results, lambda d: Turns(d.text, cues=d.cues))
    embed_name = None
    if config.embed.enabled:
        embed_name = getattr(embedder, "name", None) or config.embed.model
    return Run(results, loaded.documents, config, embed_name, timings, warnings, windows, quotes_sha256,
               tuple(quote_list))
