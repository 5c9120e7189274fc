"""verify() on a Dask cluster, as the client runs it: documents in shards, quotes checked on the workers.

The documents are split by size into one shard per worker, prepared there and kept
(quoteverify.pipeline.cluster.shards). The exact fast path runs on the shards and a reduce step picks the
document the whole-corpus run finds; each quote it settles is checked on the shard that holds its document.
The other quotes are ranked on every shard with the corpus-wide BM25 weights and checked on one worker
against the documents they can match, gathered from the shards, until every shard confirms that none of its
windows would have entered their retrievals (quoteverify.pipeline.cluster.gathering). When the whole corpus
is no larger than ``cluster.gather_chars``, and for what cannot be gathered, the whole corpus is sent to
every worker, each reads it once and keeps it (``WholeCorpusChecks``): its own shard as prepared, the others
read from the cache the workers share or, without one, prepared there, except when no quote is to be gathered
at all: then the shards' workers send theirs prepared (``shipped_shard``) from the start. A worker lost after
the shards' checks costs time, not the run: what is left runs elsewhere and does without its shard; lost
before, a task only it could run fails the run in one line (``ShardSet.wait``), not a wait without end. A
worker calls the same ``stages.check_quotes`` as the in-process run (quoteverify.pipeline.cluster.worker),
so every result is the one the in-process run gives (README: "Beyond one machine").
"""
from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from ...judge.embed import Embedder, shared_model
from ...model.config import Config, ConfigGiven, as_config
from ...model.types import Document, Progress, Quote, QuoteResult, Run
from ...plumbing.cache import Cache
from ...sources.corpus import document_layout, document_turns
from ...sources.documents import DocumentsGiven
from ...sources.language import detect_quote_languages, with_languages
from ...sources.lined import partly_read
from ...sources.quotes import speaker_claims
from ...sources.turns import documents_labelled, label_warnings
from ..stages import QuoteLanguages, read_inputs
from . import session
from .gathering import check_in_rounds, documents_needed, gathers
from .session import ClusterGiven, open_session
from .shards import ShardSet, exact_owners, split
from .worker import Checking, ChunkChecked, WorkerState, run_task

if TYPE_CHECKING:
    import distributed

    from ...sources.quotes import QuotesGiven


CHUNK_RETRIES = 2  # times a chunk of quotes cancelled by the scheduler (its inputs lost) is submitted again


@dataclass
class WholeCorpusChecks:
    """Chunks of quotes being checked, every worker holding the whole corpus: the quotes' numbers in the
    run, in the chunks' order, the chunks' futures, and what they were given (kept until collected, so that
    a chunk whose result is lost with its worker can be checked again)."""

    quotes: list[int]
    futures: list[distributed.Future]
    given: list[object] = field(default_factory=list)
    again: Callable[[int], distributed.Future] | None = None  # chunk i submitted again, its inputs sent anew

    def collect(self, progress: Callable[[int], None] | None) -> Found:
        """The chunks' results by quote, their warnings, and the windows of the whole corpus, as they finish;
        a failure there as one QuoteverifyError.

        A chunk cancelled by the scheduler is submitted again, up to CHUNK_RETRIES times: a worker lost
        after checking it took its result along, and the documents it needs to be checked again when the
        scheduler had let go of their other copies (Dask keeps one copy of data no task waits for)."""
        # Dask is an optional extra and slow to import; only --cluster needs it.
        from distributed import as_completed

        order = {f.key: i for i, f in enumerate(self.futures)}
        tries = [0] * len(self.futures)
        chunks: dict[int, ChunkChecked] = {}
        done = 0
        with session.failures("checking quotes"):
            pending = as_completed(self.futures)
            for future in pending:
                i = order[future.key]
                if future.cancelled() and self.again is not None and tries[i] < CHUNK_RETRIES:
                    tries[i] += 1
                    retried = self.again(i)
                    order[retried.key] = i
                    pending.add(retried)
                    continue
                chunk = future.result()
                chunks[i] = chunk
                done += len(chunk.results)
                if progress:
                    progress(done)
        ordered = [chunks[i] for i in range(len(self.futures))]
        results = [r for chunk in ordered for r in chunk.results]
        return Found(dict(zip(self.quotes, results)), [w for chunk in ordered for w in chunk.warnings],
                     max((chunk.windows for chunk in ordered), default=0))


@dataclass
class Found:
    """Results by quote number, the warnings that came with them, and the windows of the corpus they were
    checked against."""

    results: dict[int, QuoteResult] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    windows: int = 0
    turn_starts: dict[str, list[int]] = field(default_factory=dict)  # of the documents the label warnings ask
    # By document: its layout and what of a transcript's layout was not read (WorkerState.layouts)
    layouts: dict[str, tuple[str, tuple[str, ...]]] = field(default_factory=dict)


@dataclass(frozen=True)
class ClusterRun:
    """One run's work on a cluster: the client, the documents and quotes (with each quote's language as
    given), and how the workers check them."""

    client: distributed.Client
    documents: tuple[Document, ...]
    quotes: Sequence[Quote]
    languages: Sequence[str]
    checking: Checking
    progress: Progress | None


def start_whole_corpus_checks(run: ClusterRun, quotes: list[int], *, sharded: bool,
                              index_on: str | None = None,
                              shipped: Sequence[distributed.Future] = ()) -> WholeCorpusChecks:
    """Start checking the quotes numbered ``quotes`` in chunks, every worker holding the whole corpus.
    ``sharded``: the workers hold the documents in shards, prepared (into the cache) already;
    ``index_on``: the worker to build the index (it has the least else to do); ``shipped``: each shard's
    documents as its worker prepared them (``WorkerState.shipped_shard``), for a run without a cache to
    read them from."""
    client, documents, config, cache = run.client, run.documents, run.checking.config, run.checking.cache_dir
    workers = max(1, len(client.scheduler_info().get("workers", {})))
    size = max(config.cluster.min_chunk, -(-len(quotes) // (workers * config.cluster.chunks_per_worker)))
    parts = [quotes[i:i + size] for i in range(0, len(quotes), size)]
    if not parts:
        return WholeCorpusChecks([], [])
    # The languages of the quotes the shards did not settle, told here against the whole corpus (as the
    # in-process run tells them), once: a worker that told them would first load every language's model.
    told = _told(run, quotes) if sharded else None
    docs = client.scatter(documents, broadcast=True)
    ready: list[distributed.Future] = []
    if cache is not None:
        # With a cache the workers share, each prepares a shard of the documents and one builds the
        # index, first; the others read both from the cache instead of doing the same work again.
        done_shards = [] if sharded else [client.submit(run_task, WorkerState.prepare_documents, shard, cache,
                                                        pure=False) for shard in split(documents, workers)]
        ready = [client.submit(run_task, WorkerState.build_index, docs, config, cache, *done_shards, pure=False,
                               priority=1, workers=index_on and [index_on], allow_other_workers=bool(index_on))]
    given: list[object] = [docs, *ready, *shipped]

    def submit(part: list[int], docs: object, ready: list[distributed.Future]) -> distributed.Future:
        # Sent to every worker: a chunk whose worker is lost runs on another, which holds its quotes too.
        chunk = (session.sent_ahead(client, [run.quotes[k] for k in part], everywhere=True),
                 session.sent_ahead(client, [run.languages[k] for k in part], everywhere=True),
                 None if told is None else session.sent_ahead(client, [told[k] for k in part], everywhere=True))
        given.extend(chunk)
        return client.submit(run_task, WorkerState.check_chunk, docs, *chunk, run.checking, list(shipped), *ready,
                             pure=False)

    anew: list[Sequence[distributed.Future]] = []  # a tuple of futures, as the documents are a tuple

    def again(i: int) -> distributed.Future:
        # The documents sent anew, under new keys (the lost ones are forgotten), once for all the chunks checked
        # again while that copy stays whole; the worker builds or reads the index itself.
        if not anew or any(f.status != "finished" for f in anew[-1]):
            anew.append(client.scatter(documents, broadcast=True, hash=False))
            given.append(anew[-1])
        return submit(parts[i], anew[-1], [])

    return WholeCorpusChecks(quotes, [submit(part, docs, ready) for part in parts], given, again)


def _told(run: ClusterRun, quotes: list[int]) -> list[str]:
    """Each quote's language as given, or for the quotes numbered ``quotes``, as told against the whole
    corpus where it was not given (``detect_quote_languages``)."""
    told = list(run.languages)
    detect_quote_languages(run.documents, run.quotes, told, quotes, run.checking.config.language)
    return told


def _on_shards(run: ClusterRun, shards: ShardSet) -> tuple[Found, WholeCorpusChecks | None]:
    """The quotes the shards settle, checked there (found word for word) or against the documents they
    can match, gathered from the shards. When none is to be gathered, the others are checked against the
    whole corpus meanwhile: those chunks come back to be collected."""
    quote_list, config = run.quotes, run.checking.config
    # Without a cache the workers share, a worker checking against the whole corpus takes the other shards'
    # documents from their workers, prepared: packed for it from the start (by another worker if one is lost).
    shipped = [shards.on(s, WorkerState.shipped_shard, shards.keys[s], anywhere=True)
               for s in range(len(shards.keys))] if run.checking.cache_dir is None and not gathers(shards) else []
    owners = exact_owners(shards, quote_list)
    need = documents_needed(shards, quote_list, owners)
    jobs = []
    for s in range(len(shards.keys)):
        mine = [k for k in sorted(owners.shard_of) if owners.shard_of[k] == s]
        size = max(config.cluster.min_chunk, -(-len(mine) // config.cluster.chunks_per_worker))
        for i in range(0, len(mine), size):
            chunk = mine[i:i + size]
            jobs.append((chunk, shards.on(s, WorkerState.check_on_shard, shards.keys[s],
                                          [quote_list[k] for k in chunk], [run.languages[k] for k in chunk],
                                          run.checking)))
    whole = None
    rest = [k for k in range(len(quote_list)) if k not in owners.shard_of]
    if not need and rest:
        # The rest are checked against the whole corpus while the shards check theirs (submitted after them,
        # which only the shards' workers can run, so that they start while this process sends the corpus;
        # the chunks fill in around them); the index is built by the worker with the fewest quotes to check
        # on its shard.
        busy = [sum(owner == s for owner in owners.shard_of.values()) for s in range(len(shards.keys))]
        whole = start_whole_corpus_checks(run, rest, sharded=True, index_on=shards.addresses[busy.index(min(busy))],
                                          shipped=shipped)
    found = Found()
    for (chunk, _), (out, chunk_warnings) in zip(jobs, shards.settle("checking quotes", [f for _, f in jobs])):
        found.results.update((k, r) for k, r in zip(chunk, out) if r is not None)
        found.warnings += chunk_warnings
    progress = run.progress
    if progress:
        progress(len(found.results), len(quote_list))
    if need:
        told = _told(run, sorted(need))
        settled = len(found.results)
        gathered = check_in_rounds(shards, quote_list, QuoteLanguages(run.languages, told), need,
                                  progress and (lambda done: progress(settled + done, len(quote_list))))
        found.results.update(gathered.results)
        found.warnings += gathered.warnings
    return found, whole


def _check_everywhere(run: ClusterRun) -> Found:
    """Every quote checked on the cluster: results by quote, warnings, and the windows of the corpus."""
    found = Found()
    windows = [0, 0]  # the shards' together, the whole corpus's once a worker held it
    on_shards = run.checking.config.cluster.sharded and bool(run.quotes and run.documents)
    whole: WholeCorpusChecks | None = None
    if on_shards:
        shards = ShardSet(run.client, run.documents, run.checking)
        windows[0] = sum(h.windows for h in shards.held)
        found, whole = _on_shards(run, shards)

    def collect(chunks: WholeCorpusChecks) -> None:
        settled, progress, total = len(found.results), run.progress, len(run.quotes)
        checked = chunks.collect(progress and (lambda done: progress(settled + done, total)))
        found.results.update(checked.results)
        found.warnings.extend(checked.warnings)
        windows[1] = windows[1] or checked.windows

    if whole is not None:  # begun against the whole corpus while the shards checked theirs
        collect(whole)
    rest = [k for k in range(len(run.quotes)) if k not in found.results]
    if rest:
        collect(start_whole_corpus_checks(run, rest, sharded=on_shards))
    found.windows = windows[1] or windows[0]
    if on_shards:
        # The speaker turns of the documents quoted, from the workers that built them.
        results = [found.results[k] for k in range(len(run.quotes))]
        asked = {d.doc_id for d in documents_labelled(run.documents, results)}
        wanted = [[run.documents[g].doc_id for g in shards.docs[s] if run.documents[g].doc_id in asked]
                  for s in range(len(shards.keys))]
        # A lost worker's are read in the client (run_on_cluster).
        for starts in shards.settle("reading speaker turns", [shards.on(s, WorkerState.turn_starts, shards.keys[s],
                                                                         wanted[s], anywhere=True)
                                                              for s in range(len(shards.keys))]):
            found.turn_starts.update(starts)
        for layouts in shards.settle("reading layouts", [
                shards.on(s, WorkerState.layouts, shards.keys[s], anywhere=True) for s in range(len(shards.keys))]):
            found.layouts.update(layouts)
    return found


def run_on_cluster(documents: DocumentsGiven, quotes: QuotesGiven, config: ConfigGiven = None, *,
                   cluster: ClusterGiven, embedder: Embedder | None = None, progress: Progress | None = None,
                   cache_dir: str | Path | None = None) -> Run:
    """stages.run() with the quotes checked on a Dask cluster; the same Run, result for result.

    ``cluster``: a ``--cluster`` value, a ClusterSpec, or a connected ``distributed.Client``.
    With ``cluster.sharded`` (the default), the documents go in one shard per worker
    (quoteverify.pipeline.cluster.shards); the quotes the shards cannot settle alone, and every quote
    without it, are checked against the whole corpus. What each worker holds in its shards, it says when
    asked (``WorkerState.holding``).
    """
    config = as_config(config)
    timings: dict[str, float] = {}
    cache = str(cache_dir) if cache_dir is not None else None
    # The cluster is the parallelism: a worker process does not fork workers of its own.
    embeds = config.embed.enabled and embedder is None
    # A local cluster's workers ask one model, loaded here in a process of its own from now on, for their
    # vectors, instead of each importing torch and loading it (seconds of a core each).
    model = shared_model(config.embed.model, config.embed.threads) if embeds and session.is_local(cluster) else None
    checking = Checking(replace(config, align=replace(config.align, workers=1)), embedder, cache, model)
    connecting = open_session(cluster, config, embeds and model is None)  # a local cluster's fork server starts now
    started = time.perf_counter()
    read = _read(documents, quotes, config, Cache(cache))
    timings["load"] = time.perf_counter() - started
    with connecting as client:
        if embeds and model is None:
            # Each worker loads the model (seconds, less once the fork server has imported it) while the
            # shards are made.
            with session.failures("starting the workers"):
                client.run(run_task, WorkerState.warm_embedder, checking)
        clock = time.perf_counter()
        run = ClusterRun(client, read.documents, read.quotes, read.languages, checking, progress)
        found = _check_everywhere(run)
        timings["cluster"] = time.perf_counter() - clock
    results = [found.results[k] for k in range(len(read.quotes))]
    warnings = read.warnings
    warnings.extend(dict.fromkeys(w for w in found.warnings if w not in warnings))
    warnings += label_warnings(read.documents, results, lambda d: found.turn_starts[d.doc_id]
                               if d.doc_id in found.turn_starts else document_turns(d).starts())
    # A lost worker's documents (or all, without shards) are read here.
    layouts = {d.doc_id: found.layouts.get(d.doc_id) or document_layout(d) for d in read.documents}
    warnings += partly_read({doc: partly for doc, (_, partly) in layouts.items()})
    embed_name = None
    if config.embed.enabled:
        embed_name = getattr(embedder, "name", None) or config.embed.model
    return Run(results, read.documents, config, embed_name, timings, warnings, found.windows, read.quotes_sha256,
               tuple(read.quotes), {doc: layout for doc, (layout, _) in layouts.items()})


@dataclass(frozen=True)
class _Read:
    """The documents and quotes of a run as stages.run() reads them, with each one's language."""

    documents: tuple[Document, ...]
    quotes: list[Quote]
    languages: list[str]
    warnings: list[str]
    quotes_sha256: str


def _read(documents: DocumentsGiven, quotes: QuotesGiven, config: Config, cache: Cache) -> _Read:
    """The documents and quotes read on this machine, with their languages."""
    inputs = read_inputs(documents, quotes, config)
    with_langs, quote_list, languages = with_languages(inputs.documents.documents, inputs.quotes, config.language,
                                                       cache=cache)
    speakers = speaker_claims(quote_list, lambda: [document_turns(d) for d in with_langs],
                              column=inputs.speaker_column, source=inputs.table)
    return _Read(with_langs, quote_list, languages, [*inputs.warnings, *speakers, *cache.warnings],
                 inputs.quotes_sha256)
