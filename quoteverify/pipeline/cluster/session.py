"""The cluster itself, as the client sees it: where to run (``--cluster local[:N]`` or ``tcp://HOST:PORT``),
the connection, a local cluster's workers started from a fork server, and a worker's failure said in one
line.

``--cluster local[:N]`` starts a ``distributed.LocalCluster`` of N worker processes with one thread each;
``--cluster tcp://HOST:PORT`` uses a running scheduler, whose workers need quoteverify installed and, for
a shared ``cache_dir``, the same path.
"""
from __future__ import annotations

import atexit
import logging
import multiprocessing
import multiprocessing.forkserver
import os
import re
import sys
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext, suppress
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar, Union

from ...model.config import Config
from ...model.errors import InputError, QuoteverifyError
from ...search.index import BACKEND_MODULES

if TYPE_CHECKING:
    import distributed

T = TypeVar("T")

_LOCAL = re.compile(r"local(?::(\d+))?")
_REMOTE = re.compile(r"tcp://[^\s:/]+:\d{1,5}")


@dataclass(frozen=True)
class ClusterSpec:
    """Where to run: a local cluster of ``workers`` processes, or a scheduler's ``address``."""

    address: str | None
    workers: int


# A cluster as run_on_cluster takes it: a --cluster value, a ClusterSpec, or a connected distributed.Client.
ClusterGiven = Union[str, ClusterSpec, "distributed.Client"]


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
def connect(spec: ClusterSpec, *, timeout: float = 10, preload: Sequence[str] = ()) -> Iterator[distributed.Client]:
    """A Dask client for ``spec``, closed (and a local cluster stopped) on exit.

    ``timeout``: seconds to wait for a remote scheduler. ``preload``: modules a local cluster's workers
    need (``open_session``), imported once for all of them (``_local_cluster``).
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


def is_local(cluster: ClusterGiven) -> bool:
    """Whether the workers of ``cluster`` run on this machine: a local cluster this run starts (``local[:N]``),
    or a client of a ``distributed.LocalCluster``."""
    if isinstance(cluster, (str, ClusterSpec)):
        return (parse_cluster(cluster) if isinstance(cluster, str) else cluster).address is None
    from distributed import LocalCluster  # a connected client was given: Dask is there

    return isinstance(getattr(cluster, "cluster", None), LocalCluster)


def open_session(cluster: ClusterGiven, config: Config, embeds: bool
                 ) -> AbstractContextManager[distributed.Client]:
    """A client for ``cluster``, connected on entry; ``embeds``: its workers load the embedding model. A
    local cluster's fork server starts now, importing what every worker imports on its first check (the
    BM25 backend, wordfreq for the real-word test, and sentence-transformers when they embed)."""
    if not isinstance(cluster, (str, ClusterSpec)):
        return nullcontext(cluster)
    spec = parse_cluster(cluster) if isinstance(cluster, str) else cluster
    preload = (BACKEND_MODULES[config.index.backend], "wordfreq", *(("sentence_transformers",) if embeds else ()))
    if spec.address is None:
        with suppress(ImportError):  # without Dask, connect says what to install
            _fork_server(preload)  # its imports run while this process reads the input
    return connect(spec, timeout=config.cluster.connect_seconds, preload=preload)


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
    context.set_forkserver_preload(["distributed", "quoteverify.pipeline.cluster.worker", *preload])
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


@contextmanager
def failures(what: str) -> Iterator[None]:
    """A failure on a worker (a worker lost, or a task that failed there) as one QuoteverifyError."""
    try:
        yield
    except QuoteverifyError:
        raise
    except Exception as exc:  # say which, in one line
        said = " ".join(str(exc).split())  # one line: Dask's messages may run over several
        raise QuoteverifyError(f"the Dask cluster failed while {what}: {exc.__class__.__name__}: {said}") from exc


# Lists of quotes longer than this go to the workers as data, not inside the task graph (which Dask
# warns about past a few megabytes, and sends through the scheduler).
SCATTER_ITEMS = 1000


def sent_ahead(client: distributed.Client, value: T, workers: list[str] | None = None, *,
               everywhere: bool = False) -> T | distributed.Future:
    """A long list (or a tuple of lists, a chunk of quotes and their languages) sent ahead to ``workers`` as
    data (``everywhere``: to every worker, so that it outlives any one of them, for a task any worker may
    run); anything else as it is."""
    items = len(value[0]) if isinstance(value, tuple) and value and isinstance(value[0], list) else (
        len(value) if isinstance(value, list) else 0)
    if items <= SCATTER_ITEMS:
        return value
    return client.scatter([value], workers=workers, hash=False, broadcast=everywhere)[0]
