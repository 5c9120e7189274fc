"""Per-quote work spread over worker processes, results in input order.

Workers are forked once the corpus and its BM25 index are built, so they share
them with the parent (copy-on-write) instead of receiving them; only the quote
indexes go out and the named results come back. Where fork is not available,
or the work is too small to repay starting workers, everything runs in this
process.
"""
from __future__ import annotations

import contextlib
import multiprocessing
import signal
from collections.abc import Callable, Iterator, Sequence
from multiprocessing.connection import Connection
from typing import Any

MIN_ITEMS = 100  # fewer items than this run in this process: starting workers costs more
CHUNK = 16

_task: Callable[[Any], Any] | None = None


def _run_chunk(chunk: Sequence[Any]) -> list[Any]:
    assert _task is not None
    return [_task(item) for item in chunk]


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
    so that the caller can use each while the workers go on."""
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
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            parts = pool.imap(_run_chunk, chunks)
            if beside:
                beside()
            yield from parts
    finally:
        _task = None


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
        """End the process (if it is still running: its value is not wanted)."""
        if self._process.is_alive():
            self._process.terminate()
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
