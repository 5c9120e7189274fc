"""Per-quote work spread over worker processes, results in input order.

Workers are forked once the corpus and its BM25 index are built, so they share
them with the parent (copy-on-write) instead of receiving them; only the quote
indexes go out and the named results come back. Where fork is not available,
or the work is too small to repay starting workers, everything runs in this
process.

Each worker has a pipe of its own, fed one chunk at a time by a thread of this
process (``_Workers``), rather than sharing multiprocessing.Pool's queue: a
Pool worker that dies while it waits for a task holds the queue's lock for
ever, and the Pool's clean-up then waits for that lock for ever too. Here a
worker that dies is an error at once, and the workers are ended, within
seconds, however the work ends: done, failed, given up (the caller stopped
reading) or interrupted.
"""
from __future__ import annotations

import contextlib
import multiprocessing
import queue
import signal
import threading
import traceback
from collections.abc import Callable, Iterator, Sequence
from multiprocessing.connection import Connection, wait
from typing import Any, cast

MIN_ITEMS = 100  # fewer items than this run in this process: starting workers costs more
CHUNK = 16
# Seconds a worker has to end by itself once it is told to (its chunk done, or SIGTERM): then it is killed.
STOP_SECONDS = 2.0

_task: Callable[[Any], Any] | None = None


def ordered_map(task: Callable[[Any], Any], items: Sequence[Any], *, workers: int,
                on_done: Callable[[int], None] | None = None, min_items: int | None = None,
                chunk: int | None = None, beside: Callable[[], None] | None = None) -> list[Any]:
    """``[task(item) for item in items]``, in up to ``workers`` processes (when there are ``min_items`` at
    least, default MIN_ITEMS), ``chunk`` items to a task (default CHUNK); ``on_done(n)`` after each chunk.

    ``beside``: work for this process while the workers run (once they are forked: a process must not fork
    while one of its threads imports); not done when there are no workers."""
    results: list[Any] = []
    for part in ordered_chunks(task, items, workers=workers, min_items=min_items, chunk=chunk, beside=beside):
        results.extend(part)
        if on_done:
            on_done(len(results))
    return results


def ordered_chunks(task: Callable[[Any], Any], items: Sequence[Any], *, workers: int, min_items: int | None = None,
                   chunk: int | None = None, beside: Callable[[], None] | None = None) -> Iterator[list[Any]]:
    """What ``ordered_map`` returns, as it comes back: chunk by chunk in order (item by item in this process),
    so that the caller can use each while the workers go on. An exception of ``task`` in a worker is raised
    here (the worker's traceback as its cause)."""
    global _task
    min_items = MIN_ITEMS if min_items is None else min_items
    chunk = chunk or CHUNK
    if workers <= 1 or len(items) < min_items or "fork" not in multiprocessing.get_all_start_methods():
        for item in items:
            yield [task(item)]
        return
    chunks = [items[i:i + chunk] for i in range(0, len(items), chunk)]
    _task = task
    try:
        pool = _Workers(min(workers, len(chunks)), chunks)
    finally:
        _task = None  # the workers have their copy
    try:
        if beside:
            beside()
        yield from pool.in_order()
    finally:
        pool.stop()


class RemoteTraceback(Exception):
    """Where a worker's exception was raised: its traceback, as text."""

    def __str__(self) -> str:
        return str(self.args[0])


class _Workers:
    """``count`` forked worker processes, each with a pipe of its own, and a thread here that sends each idle
    worker the next chunk and queues what comes back: (chunk index, whether the task ran, its value or the
    exception)."""

    def __init__(self, count: int, chunks: Sequence[Sequence[Any]]):
        context = multiprocessing.get_context("fork")
        self._chunks = chunks
        self._back: queue.SimpleQueue[tuple[int, bool, Any]] = queue.SimpleQueue()
        self._stopping = threading.Event()
        self._pipes: list[Connection] = []
        self._processes: list[Any] = []
        for _ in range(count):
            ours, theirs = context.Pipe()
            process = context.Process(target=_work, args=(theirs, tuple(self._pipes)), name="quoteverify-worker",
                                      daemon=True)
            process.start()
            theirs.close()  # before the next fork: a worker that dies is then an end of file here at once
            self._pipes.append(ours)
            self._processes.append(process)
        self._feeder = threading.Thread(target=self._fed, name="quoteverify-feeder", daemon=True)
        self._feeder.start()

    def _fed(self) -> None:
        try:
            self._feed()
        except Exception as exc:  # a fault of the feeder itself: raised where the results are read, not waited for
            self._back.put((-1, False, (exc, None)))

    def _feed(self) -> None:
        waiting = iter(range(len(self._chunks)))
        busy: dict[Connection, int] = {}

        def send_next(pipe: Connection) -> None:
            index = next(waiting, None)
            if index is None or self._stopping.is_set():
                return
            try:
                pipe.send(self._chunks[index])
                busy[pipe] = index
            except OSError:  # it has ended already: said as such
                self._back.put((index, False, _lost(self._processes[self._pipes.index(pipe)])))

        for pipe in self._pipes:
            send_next(pipe)
        while busy:
            for ready in wait(list(busy)):
                pipe = cast(Connection, ready)
                index = busy.pop(pipe)
                try:
                    ran, value = pipe.recv()
                except (EOFError, OSError):
                    ran, value = False, _lost(self._processes[self._pipes.index(pipe)])
                self._back.put((index, ran, value))
                if ran:
                    send_next(pipe)
        for pipe in self._pipes:  # all done: each worker ends
            with contextlib.suppress(OSError):
                pipe.send(None)

    def in_order(self) -> Iterator[list[Any]]:
        """Each chunk's results, in the chunks' order, as they come back."""
        held: dict[int, list[Any]] = {}
        for index in range(len(self._chunks)):
            while index not in held:
                done, ran, value = self._back.get()
                if not ran:
                    raise value[0] from value[1]
                held[done] = value
            yield held.pop(index)

    def stop(self) -> None:
        """End the workers: at once when the work did not finish (SIGTERM, then SIGKILL after STOP_SECONDS),
        else as they end by themselves; none is left behind."""
        self._stopping.set()
        if self._feeder.is_alive():  # the work did not finish: whatever the workers are doing is not wanted
            for process in self._processes:
                with contextlib.suppress(OSError):
                    process.terminate()
        for process in self._processes:
            process.join(STOP_SECONDS)
            if process.exitcode is None:
                process.kill()
                process.join()
        self._feeder.join(STOP_SECONDS)  # every worker gone, it has read the end of each pipe and ended
        for pipe in self._pipes:
            pipe.close()


def _lost(process: Any) -> tuple[Exception, Exception | None]:
    """What is raised for a worker that ended before it sent back its chunk."""
    process.join(STOP_SECONDS)
    code = process.exitcode
    how = (f"was killed (signal {-code}{', out of memory?' if code == -signal.SIGKILL else ''})" if code and code < 0
           else f"ended with exit code {code}" if code is not None else "stopped answering")
    return RuntimeError(f"a worker process {how} before it sent back its work"), None


def _work(pipe: Connection, others: Sequence[Connection]) -> None:
    """A worker: run the task on each chunk sent, send back its results or its exception, until told to end
    (None) or this process's parent has gone. Ctrl-C is for the parent, which ends the workers."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _stopped)
    for other in others:  # the parent's ends of the workers forked before: theirs alone
        other.close()
    assert _task is not None
    while True:
        try:
            chunk = pipe.recv()
        except (EOFError, OSError):
            return
        if chunk is None:
            return
        try:
            back: tuple[bool, Any] = (True, [_task(item) for item in chunk])
        except Exception as exc:
            back = (False, (exc, RemoteTraceback("".join(traceback.format_exception(exc)))))
        try:
            pipe.send(back)
        except Exception as exc:  # a value that cannot be pickled
            pipe.send((False, (RuntimeError(f"a worker could not send back its results ({exc})"), None)))


class Beside:
    """``task()`` run in a forked process while this one goes on (``possible`` says whether it can be: fork is
    available and this process is no daemon); ``result()`` waits for its value, sent back pickled.

    The process ignores Ctrl-C, which this one answers; it ends with this one (a daemon), or at ``stop``. A
    parent killed outright leaves it to end by itself, when the task is done."""

    def __init__(self, task: Callable[[], Any]):
        context = multiprocessing.get_context("fork")
        self._receiving, sending = context.Pipe(duplex=False)
        self._process = context.Process(target=_send_result, args=(task, sending, self._receiving),
                                        name="quoteverify-beside", daemon=True)
        self._process.start()
        sending.close()

    @staticmethod
    def possible() -> bool:
        return "fork" in multiprocessing.get_all_start_methods() and not multiprocessing.current_process().daemon

    def result(self) -> Any | None:
        """The task's value, or None when it gave none (it raised, or the process ended first)."""
        try:
            done, value = self._receiving.recv()
        except (EOFError, OSError):
            done, value = False, None
        self.stop()
        return value if done else None

    def stop(self) -> None:
        """End the process (if it is still running: its value is not wanted): SIGTERM, then SIGKILL when it has
        not ended within STOP_SECONDS."""
        if self._process.is_alive():
            self._process.terminate()
        self._process.join(STOP_SECONDS)
        if self._process.exitcode is None:
            self._process.kill()
            self._process.join()
        self._receiving.close()


def _send_result(task: Callable[[], Any], sending: Connection, theirs: Connection) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _stopped)
    theirs.close()
    try:
        done = (True, task())
    except Exception:  # the parent does the work itself, and meets the failure there
        done = (False, None)
    with contextlib.suppress(Exception):  # it stopped listening, or the value cannot be sent: None there
        sending.send(done)


def _stopped(signum: int, frame: Any) -> None:
    """``Beside.stop`` (or a parent's SIGTERM): end now, but through the task's own clean-up (a cache entry's
    temporary folder removed), and quietly."""
    raise SystemExit(1)
