"""Quotes not found word for word (or found elsewhere than claimed), checked without the whole corpus: each
on one worker against the documents it can match, gathered from the shards, with the whole corpus's BM25
weights. First the documents of its best windows; then, as long as a shard has a window that would have
entered one of its retrievals, with that window's document too (README: "Beyond one machine"). No worker
then holds more than its shard and ``cluster.gather_chars`` characters of the others'. What cannot be
gathered is left to the whole corpus (quoteverify.pipeline.cluster.client).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...model.types import Quote, QuoteResult
from ...plumbing.resultcache import ResultCache, documents_key
from ..stages import QuoteLanguages
from . import session
from .shards import ExactOwners, ShardSet
from .worker import GatheredCheck, WorkerState

if TYPE_CHECKING:
    import distributed


@dataclass(frozen=True)
class GatherTask:
    """Quotes to check on the worker of ``shard``, against the documents they need (corpus-wide numbers)."""

    shard: int
    quotes: list[int]
    documents: list[int]


@dataclass
class Gathered:
    """What the gathered checks settled: results by quote, and the warnings they gave."""

    results: dict[int, QuoteResult]
    warnings: list[str]


def gathers(shards: ShardSet) -> bool:
    """Whether a quote the shards do not settle is checked against the documents it can match, gathered from
    the shards; if not, against the whole corpus, which each worker keeps."""
    config = shards.config
    if config.index.backend != "bm25s":
        return False  # only bm25s's windows can be weighted with the whole corpus's stats
    # What a worker may gather holds the whole corpus: each worker keeps it, read once.
    return sum(len(d.text) for d in shards.documents) > config.cluster.gather_chars


def documents_needed(shards: ShardSet, quote_list: Sequence[Quote], owners: ExactOwners) -> dict[int, set[int]]:
    """The quotes left to check against the documents they can match, each with the documents it needs
    whatever BM25 ranks first: its claimed document and the one it is found in word for word. Empty when
    the whole corpus is to be used instead."""
    if not gathers(shards):
        return {}
    need: dict[int, set[int]] = {}
    for k, quote in enumerate(quote_list):
        if k in owners.shard_of or quote.problem:
            continue
        claimed = shards.order.get(quote.claimed_document)
        doc = owners.picked(k, claimed)
        if doc is None and any(one.found >= 0 for one in owners.found.get(k, [])):
            continue  # found word for word past the exact fast path's tries: the whole corpus decides
        need[k] = {d for d in (claimed, doc) if d is not None}
    return need


def plan_tasks(shards: ShardSet, need: Mapping[int, set[int]], pending: Sequence[int]
               ) -> tuple[list[GatherTask], list[int]]:
    """The pending quotes in tasks, each on the shard that holds most of its documents' characters, with
    at most ``cluster.gather_chars`` characters of documents; and the quotes that need more than that."""
    config = shards.config.cluster
    chars = [len(d.text) for d in shards.documents]
    home: dict[int, int] = {}
    too_big = []
    for k in pending:
        by_shard = [0] * len(shards.keys)
        for d in need[k]:
            by_shard[shards.where[d]] += chars[d]
        if sum(by_shard) > config.gather_chars:
            too_big.append(k)
        else:
            home[k] = by_shard.index(max(by_shard))
    tasks: list[GatherTask] = []
    for s in range(len(shards.keys)):
        mine = sorted((k for k in home if home[k] == s), key=lambda k: sorted(need[k]))
        size = max(config.min_chunk, -(-len(mine) // config.chunks_per_worker))
        quotes: list[int] = []
        docs: set[int] = set()
        held = 0  # the characters of ``docs``
        for k in mine:
            more = need[k] - docs
            if quotes and (len(quotes) >= size or held + sum(chars[d] for d in more) > config.gather_chars):
                tasks.append(GatherTask(s, quotes, sorted(docs)))
                quotes, docs, held, more = [], set(), 0, need[k]
            quotes.append(k)
            docs |= more
            held += sum(chars[d] for d in more)
        if quotes:
            tasks.append(GatherTask(s, quotes, sorted(docs)))
    return tasks, too_big


def two_at_a_time(shards: ShardSet, tasks: Sequence[GatherTask], submit: Callable[[GatherTask], distributed.Future]
                  ) -> list[Any]:
    """The tasks' answers in task order, at most two tasks on a worker at a time (what a task gathers
    stays bounded); ``submit(task)`` starts one."""
    waiting: dict[int, list[int]] = {}
    for i, task in enumerate(tasks):
        waiting.setdefault(task.shard, []).append(i)
    answers: list[Any] = [None] * len(tasks)
    running: dict[object, tuple[int, distributed.Future]] = {}  # by task key: the task's number, its future

    def start(s: int) -> None:
        if waiting.get(s):
            i = waiting[s].pop(0)
            future = submit(tasks[i])
            running[future.key] = (i, future)

    with session.failures("checking quotes"):
        for s in list(waiting):
            start(s)
            start(s)
        while running:
            # One done at least (a lost shard's worker said in one line), its answer taken, its worker's next begun.
            shards.wait("checking quotes", [future for _, future in running.values()], every=False)
            for key in [key for key, (_, future) in running.items() if future.done()]:
                i, future = running.pop(key)
                answers[i] = shards.answer("checking quotes", future)
                start(tasks[i].shard)
    return answers


@dataclass(frozen=True)
class _Checked:
    """A quote checked in a gathered task: its check, and the documents it was checked against."""

    check: GatheredCheck
    documents: list[int]


def check_in_rounds(shards: ShardSet, quote_list: Sequence[Quote], languages: QuoteLanguages,
                   need: dict[int, set[int]], progress: Callable[[int], None] | None) -> Gathered:
    """Check each quote of ``need`` on one worker against the documents it can match, round after round,
    until every shard confirms that none of its windows would have entered its retrievals. What is still
    unsettled after ``cluster.gather_rounds`` rounds is left to the caller."""
    config = shards.config
    take = 3 * config.index.top_k
    shards.weigh()
    every = sorted(need)
    _rank(shards, quote_list, need, every, take)
    documents = documents_key(shards.documents)
    gathered = Gathered({}, [])
    pending = every
    for _ in range(config.cluster.gather_rounds):
        tasks, _ = plan_tasks(shards, need, pending)
        if not tasks:
            break

        def submit(task: GatherTask) -> distributed.Future:
            members = [shards.local[d] if shards.where[d] == task.shard else shards.documents[d]
                       for d in task.documents]
            sent = shards.send_data(task.shard, members)
            shards.sent.append(sent)  # kept until the task is done
            told = languages.told or languages.given
            return shards.on(task.shard, WorkerState.check_gathered, shards.keys[task.shard],
                             [quote_list[k] for k in task.quotes],
                             QuoteLanguages([languages.given[k] for k in task.quotes], [told[k] for k in task.quotes]),
                             sent, shards.checking, documents)

        answers = two_at_a_time(shards, tasks, submit)
        shards.sent.clear()
        checked: dict[int, _Checked] = {}
        for task, (out, task_warnings) in zip(tasks, answers):
            gathered.warnings.extend(task_warnings)
            checked.update((k, _Checked(found, task.documents)) for k, found in zip(task.quotes, out)
                           if found is not None)
        again = _confirm(shards, checked, need, take)
        confirmed = [k for k in checked if k not in again]
        gathered.results.update((k, checked[k].check.result) for k in confirmed)
        # Only a confirmed result is kept between runs: one a document it lacked beats is checked again.
        ResultCache(shards.checking.cache_dir, warnings=gathered.warnings).save(
            {checked[k].check.kept_as: checked[k].check.result for k in confirmed if checked[k].check.kept_as})
        pending = sorted(again)
        if progress:
            progress(len(gathered.results))
        if not pending:
            break
    return gathered


def _rank(shards: ShardSet, quote_list: Sequence[Quote], need: dict[int, set[int]], every: list[int],
          take: int) -> None:
    """Every shard ranks the quotes (their first retrieval, weighted corpus-wide): each quote's ``need``
    grows by the documents of its ``take`` best windows in the whole corpus."""
    size = session.SCATTER_ITEMS  # quotes per task: a shard ranks them in several tasks, each small enough to send
    chunks = [every[i:i + size] for i in range(0, len(every), size)]
    answers = shards.settle("ranking quotes", [
        shards.on(s, WorkerState.top_windows, shards.keys[s], [quote_list[k] for k in chunk], take)
        for s in range(len(shards.keys)) for chunk in chunks])
    tops = [[w for part in answers[s * len(chunks):(s + 1) * len(chunks)] for w in part]
            for s in range(len(shards.keys))]
    for i, k in enumerate(every):
        ranked = sorted((-w.score, shards.docs[s][w.doc], w.window) for s, top in enumerate(tops) for w in top[i])
        need[k].update(doc for _, doc, _ in ranked[:take])


def _confirm(shards: ShardSet, checked: Mapping[int, _Checked], need: dict[int, set[int]], take: int) -> set[int]:
    """Ask every shard whether a window of a document a quote was not checked against would have entered
    one of its retrievals: the quotes to check again, their ``need`` grown by those documents. The
    quotes of one task were checked against the same documents: each shard is told those once."""
    tasks: dict[int, tuple[list[int], list[int]]] = {}
    for k in sorted(checked):
        if checked[k].check.retrievals:
            tasks.setdefault(id(checked[k].documents), (checked[k].documents, []))[1].append(k)
    items = session.SCATTER_ITEMS
    jobs = [(docs, ks[i:i + items]) for docs, ks in tasks.values() for i in range(0, len(ks), items)]
    answers = shards.settle("confirming candidates", [
        shards.on(s, WorkerState.beaten, shards.keys[s], [shards.local[d] for d in docs if shards.where[d] == s],
                  [checked[k].check.retrievals for k in ks], take)
        for s in range(len(shards.keys)) for docs, ks in jobs])
    again: set[int] = set()
    for i, answer in enumerate(answers):
        s, job = divmod(i, len(jobs))
        for k, docs in zip(jobs[job][1], answer):
            if docs:
                need[k].update(shards.docs[s][d] for d in docs)
                again.add(k)
    return again
