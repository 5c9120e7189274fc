"""The documents in shards, as the client sees them: no worker holds the whole corpus.

The documents are split by size into one shard per worker (``split``); a worker reads, prepares and keeps
its shard (``WorkerState.prepare_shard``). Every quote's exact fast path runs on the shards: a quote that
names its document goes to that document's shard first, the rest (and a claim not found there) to every
shard. Each shard reports, per document, how often the quote's first run occurs and which occurrence
starts a whole match (``places.exact_summary``); ``pick_exact`` then finds the document the whole-corpus
``exact_align`` would: the claimed document first, then the others in document order, within the first
``EXACT_TRIES`` occurrences corpus-wide. A quote the fast path settles (found word for word where claimed,
or anywhere when nothing is claimed) is then checked on the one shard that holds its document, with the
same ``stages.check_quotes``, and gives the in-process result byte for byte. The others are checked
against the documents they can match, gathered from the shards (quoteverify.pipeline.cluster.gathering).
"""
from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import CancelledError
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, TypeVar

from ...model.config import Config
from ...model.errors import QuoteverifyError
from ...model.types import Document, Quote
from ...search.index import Bm25Stats
from ...search.places import ExactSummary, pick_document
from . import session
from .worker import Checking, Holding, WorkerState, run_task, shard_key

if TYPE_CHECKING:
    import distributed

T = TypeVar("T")

LOST_WORKER_POLL_SECONDS = 1.0  # how often a wait on a shard's worker looks whether it is still there
# What a wait that timed out raises: Dask's asyncio timeout, not the built-in TimeoutError before Python 3.11.
WAITED_TOO_LONG = (TimeoutError, asyncio.TimeoutError)


def split(documents: Sequence[Document], n: int) -> list[list[Document]]:
    """Documents in ``n`` shards of about equal size: the longest first, each to the smallest shard so far."""
    parts: list[list[Document]] = [[] for _ in range(max(1, n))]
    sizes = [0] * len(parts)
    for document in sorted(documents, key=lambda d: (-len(d.text), d.doc_id)):
        k = sizes.index(min(sizes))
        parts[k].append(document)
        sizes[k] += len(document.text)
    return [p for p in parts if p]


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


def lost_worker(what: str, address: str) -> QuoteverifyError:
    """The error of a run whose shard went with its worker (the cluster restarts a lost worker empty)."""
    return QuoteverifyError(f"the Dask cluster failed while {what}: the worker holding a shard of the documents "
                            f"({address}) was lost; run again")


class ShardSet:
    """The documents in one shard per worker, each prepared and kept on its worker; documents are numbered
    corpus-wide (``order``) and within their shard (``local``)."""

    def __init__(self, client: distributed.Client, documents: tuple[Document, ...], checking: Checking):
        self.client, self.checking, self.documents = client, checking, documents
        self.sent: list[distributed.Future] = []
        self.pinned: dict[object, str] = {}  # tasks that only a shard's worker can run: its address, by task key
        self.addresses = sorted(client.scheduler_info().get("workers", {}))
        order = {d.doc_id: i for i, d in enumerate(documents)}
        self.order = order
        parts = [sorted(p, key=lambda d: order[d.doc_id]) for p in split(documents, len(self.addresses))]
        self.keys = [shard_key(p, checking.config) for p in parts]
        self.docs = [[order[d.doc_id] for d in p] for p in parts]  # corpus-wide numbers, by shard
        self.where = {g: s for s, gs in enumerate(self.docs) for g in gs}
        self.local = {g: i for gs in self.docs for i, g in enumerate(gs)}  # a document's number in its shard
        # Each shard's documents go to its worker alone, as data (not inside the task graph).
        sent = [client.scatter([tuple(p)], workers=[self.addresses[s]])[0] for s, p in enumerate(parts)]
        self.held: list[Holding] = self.settle("preparing the shards", [
            self.on(s, WorkerState.prepare_shard, self.keys[s], sent[s], checking.config, checking.cache_dir,
                    [self.keys[s]]) for s in range(len(parts))])

    @property
    def config(self) -> Config:
        return self.checking.config

    def on(self, shard: int, task: Callable[..., Any], *args: object, anywhere: bool = False) -> distributed.Future:
        """Run ``task`` (a WorkerState method) on the worker that holds ``shard``; ``anywhere``: on another
        worker if that one is lost (the task then answers without the shard, and the caller does without)."""
        # Dask is an optional extra and slow to import; only --cluster needs it.
        from distributed import Future

        where = [self.addresses[shard]]
        args = tuple(self.send(shard, a, anywhere=anywhere) for a in args)
        # What was sent ahead is kept until the task is done: a future no one holds is forgotten.
        self.sent.extend(a for a in args if isinstance(a, Future))
        future = self.client.submit(run_task, task, *args, workers=where, allow_other_workers=anywhere, pure=False)
        if not anywhere:
            self.pinned[future.key] = where[0]
        return future

    def send(self, shard: int, value: T, *, anywhere: bool = False) -> T | distributed.Future:
        """``value`` sent ahead to the worker that holds ``shard`` (to any, ``anywhere``) if it is long
        (``session.sent_ahead``)."""
        with self._to_worker(shard):
            return session.sent_ahead(self.client, value, None if anywhere else [self.addresses[shard]])

    def send_data(self, shard: int, value: object) -> distributed.Future:
        """``value`` sent to the worker that holds ``shard`` as data, whatever its length."""
        with self._to_worker(shard):
            return self.client.scatter([value], workers=[self.addresses[shard]], hash=False)[0]

    @contextmanager
    def _to_worker(self, shard: int) -> Iterator[None]:
        try:
            yield
        except (KeyError, OSError):  # the scheduler knows no such worker now, or it closed as we sent
            raise lost_worker("sending quotes to a shard", self.addresses[shard]) from None

    def settle(self, what: str, futures: list[distributed.Future]) -> list[Any]:
        """The tasks' answers (a failure as one QuoteverifyError); what was sent ahead for them is let go."""
        try:
            self.wait(what, futures, every=True)
            return [self.answer(what, future) for future in futures]
        finally:
            self.sent.clear()
            for future in futures:
                self.pinned.pop(future.key, None)

    def wait(self, what: str, futures: Sequence[distributed.Future], *, every: bool) -> None:
        """Until ``every`` task of ``futures`` is done (else one at least), watched (``_watched``)."""
        # Dask is an optional extra and slow to import; only --cluster needs it.
        from distributed import wait

        self._watched(what, futures, lambda: wait(futures, timeout=LOST_WORKER_POLL_SECONDS,
                                                  return_when="ALL_COMPLETED" if every else "FIRST_COMPLETED"))

    def answer(self, what: str, future: distributed.Future) -> Any:
        """A finished task's answer, watched (``_watched``): a task whose answer went with its worker since it
        finished is run again, which only the lost worker may do."""
        try:
            return self._watched(what, [future], lambda: future.result(timeout=LOST_WORKER_POLL_SECONDS))
        finally:
            self.pinned.pop(future.key, None)

    def _watched(self, what: str, futures: Sequence[distributed.Future], attempt: Callable[[], T]) -> T:
        """``attempt()`` (a wait on ``futures`` of at most ``LOST_WORKER_POLL_SECONDS``) until it succeeds; a
        failure as one QuoteverifyError, and a task that only a lost worker could run (its shard went with it:
        the cluster restarts a worker empty), or one cancelled because its input went with it, as the
        lost-worker error, not a wait without end."""
        with session.failures(what):
            while True:
                try:
                    return attempt()
                except WAITED_TOO_LONG:
                    self.raise_if_lost(what, futures)
                except CancelledError:
                    self.raise_if_lost(what, futures, cancelled=True)
                    raise

    def raise_if_lost(self, what: str, futures: Sequence[distributed.Future], *, cancelled: bool = False) -> None:
        """The lost-worker error if a task of ``futures`` not done (or, with ``cancelled``, cancelled) can run
        only on a worker the scheduler no longer has."""
        alive = set(self.client.nthreads())  # every worker (scheduler_info may list only some)
        lost = sorted({self.pinned[f.key] for f in futures if f.key in self.pinned and self.pinned[f.key] not in alive
                       and (not f.done() or (cancelled and f.cancelled()))})
        if lost:
            raise lost_worker(what, lost[0]) from None

    def weigh(self) -> None:
        """Weight every shard's BM25 index with the whole corpus's stats, the sum of the shards'."""
        stats = self.settle("weighting the shards", [self.on(s, WorkerState.shard_stats, self.keys[s])
                                                   for s in range(len(self.keys))])
        whole = self.client.scatter(sum(stats, Bm25Stats({}, 0, 0)), broadcast=True)
        self.settle("weighting the shards", [self.on(s, WorkerState.use_stats, self.keys[s], whole)
                                             for s in range(len(self.keys))])

    def summaries(self, asks: dict[int, list[int]], quote_list: Sequence[Quote],
                  found: dict[int, list[ExactSummary]]) -> None:
        """Each shard's exact summary of the quotes asked of it, added to ``found`` in corpus-wide numbers."""
        shard_ids = [s for s in asks if asks[s]]
        answers = self.settle("looking quotes up", [
            self.on(s, WorkerState.exact_summaries, self.keys[s], [quote_list[k] for k in asks[s]], self.config)
            for s in shard_ids])
        for s, answer in zip(shard_ids, answers):
            for k, summary in zip(asks[s], answer):
                found.setdefault(k, []).extend(replace(one, doc=self.docs[s][one.doc]) for one in summary)


def _doc(summary: ExactSummary | None) -> int | None:
    return summary.doc if summary is not None else None


@dataclass(frozen=True)
class ExactOwners:
    """The shard that settles each quote the exact fast path settles (and each quote with a problem), and
    every quote's exact summaries in corpus-wide document numbers."""

    shard_of: dict[int, int]
    found: dict[int, list[ExactSummary]]

    def picked(self, k: int, claimed: int | None) -> int | None:
        """The document the whole corpus's exact fast path would take for quote ``k``, if any."""
        return _doc(pick_exact(self.found.get(k, []), claimed))


def exact_owners(shards: ShardSet, quote_list: Sequence[Quote]) -> ExactOwners:
    """Which shard settles each quote the exact fast path settles, from every shard's exact summaries."""
    claims = {k: shards.order.get(q.claimed_document) for k, q in enumerate(quote_list)}
    home = {k: -1 if doc is None else shards.where[doc] for k, doc in claims.items()}  # the claimed shard
    everywhere = range(len(shards.keys))
    found: dict[int, list[ExactSummary]] = {}
    checkable = [k for k, q in enumerate(quote_list) if not q.problem]
    # A quote that names its document is looked up in that document's shard first.
    shards.summaries({s: [k for k in checkable if home[k] in (-1, s)] for s in everywhere}, quote_list, found)
    again = [k for k in checkable if home[k] >= 0 and _doc(pick_exact(found.get(k, []), claims[k])) != claims[k]]
    shards.summaries({s: [k for k in again if home[k] != s] for s in everywhere}, quote_list, found)
    owners = {}
    for k, q in enumerate(quote_list):
        if q.problem:  # it matches nothing; its claimed document (for its language) is in its claimed shard
            owners[k] = max(home[k], 0)
            continue
        picked = pick_exact(found.get(k, []), claims[k])
        if picked is not None and settles(picked, claims[k]):
            owners[k] = shards.where[picked.doc]
    return ExactOwners(owners, found)


