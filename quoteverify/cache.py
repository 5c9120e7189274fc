"""A cache of what does not change between runs: prepared documents, the BM25
index, and embeddings.

Layout under the cache folder (default ``$XDG_CACHE_HOME/quoteverify``, else
``~/.cache/quoteverify``):

- ``sources/<key>.npz``: one normalized, tokenized document; the key is the
  sha256 of the document's text (as extracted from its file) and the
  preparation version, so a changed document invalidates its entry alone.
- ``corpus/<key>.npz``: the vocabulary and word ids of a set of documents; the
  key hashes the document keys in order.
- ``index/<key>/``: a bm25s index; the key adds the window and BM25 settings.
- ``embeddings.sqlite``: vectors by model name and text sha256.

Files are written to a temporary name and renamed, so a crash leaves no
half-written entry; an unreadable entry is rebuilt. Only numpy arrays and
JSON are stored (``allow_pickle=False``).
"""
from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import tempfile
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

# Bump when normalization or tokenization changes what a prepared document holds.
PREPARE_VERSION = "4"


def default_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "quoteverify"


def digest(*parts: Any) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(str(part).encode("utf-8"))
        h.update(b"\x00")
    return h.hexdigest()[:32]


def _bytes(text: str) -> np.ndarray:
    return np.frombuffer(text.encode("utf-8", "surrogatepass"), dtype=np.uint8)


def _text(array: np.ndarray) -> str:
    return array.tobytes().decode("utf-8", "surrogatepass")


class Cache:
    """The cache folder; every method is a no-op miss when ``root`` is None."""

    def __init__(self, root: str | Path | None):
        self.root = Path(root) if root is not None else None
        self._db: sqlite3.Connection | None = None

    @property
    def enabled(self) -> bool:
        return self.root is not None

    def _save_npz(self, path: Path, arrays: dict[str, np.ndarray]) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".npz", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as f:
                np.savez(f, **arrays)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    def _load_npz(self, path: Path) -> dict[str, np.ndarray] | None:
        try:
            with np.load(path, allow_pickle=False) as data:
                return {k: data[k] for k in data.files}
        except (OSError, ValueError, KeyError, EOFError):
            return None

    # Prepared documents ---------------------------------------------------
    def source_key(self, text_sha256: str) -> str:
        return digest("source", PREPARE_VERSION, text_sha256)

    def load_source(self, text_sha256: str) -> dict[str, Any] | None:
        if self.root is None:
            return None
        data = self._load_npz(self.root / "sources" / f"{self.source_key(text_sha256)}.npz")
        if data is None:
            return None
        words = _text(data["words"])
        return {"text": _text(data["text"]), "offsets": data["offsets"],
                "starts": data["starts"].astype(np.int64), "ends": data["ends"].astype(np.int64),
                "weak": data["weak"], "words": words.split("\n") if words else []}

    def save_source(self, text_sha256: str, *, text: str, offsets: np.ndarray, starts: np.ndarray,
                    ends: np.ndarray, weak: np.ndarray, words: Sequence[str]) -> None:
        if self.root is None:
            return
        small = np.int32 if len(offsets) and offsets.max() < 2**31 else np.int64
        self._save_npz(self.root / "sources" / f"{self.source_key(text_sha256)}.npz", {
            "text": _bytes(text), "offsets": offsets.astype(small), "starts": starts.astype(small),
            "ends": ends.astype(small), "weak": weak, "words": _bytes("\n".join(words))})

    # Corpus-wide vocabulary -----------------------------------------------
    def load_vocab(self, key: str) -> dict[str, np.ndarray] | None:
        if self.root is None:
            return None
        return self._load_npz(self.root / "corpus" / f"{key}.npz")

    def save_vocab(self, key: str, *, words: Sequence[str], all_ids: np.ndarray, order: np.ndarray) -> None:
        if self.root is None:
            return
        self._save_npz(self.root / "corpus" / f"{key}.npz",
                       {"words": _bytes("\n".join(words)), "all_ids": all_ids, "order": order})

    # BM25 index -----------------------------------------------------------
    def index_dir(self, key: str) -> Path | None:
        return None if self.root is None else self.root / "index" / key

    def store_dir(self, key: str, write: Callable[[Path], None]) -> None:
        """Write a folder entry through a temporary folder renamed into place."""
        if self.root is None:
            return
        final = self.root / "index" / key
        final.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=".tmp-", dir=final.parent))
        try:
            write(tmp)
            if final.exists():
                shutil.rmtree(final, ignore_errors=True)
            os.replace(tmp, final)
        except OSError:
            # Another run sharing the cache wrote the same entry meanwhile: theirs serves.
            shutil.rmtree(tmp, ignore_errors=True)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise

    # Embeddings -----------------------------------------------------------
    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            assert self.root is not None
            self.root.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.root / "embeddings.sqlite")
            self._db.execute("CREATE TABLE IF NOT EXISTS vectors (model TEXT, key TEXT, vector BLOB, "
                             "PRIMARY KEY (model, key))")
        return self._db

    def load_vectors(self, model: str, keys: Sequence[str]) -> dict[str, np.ndarray]:
        if self.root is None or not keys:
            return {}
        found: dict[str, np.ndarray] = {}
        db = self._conn()
        for start in range(0, len(keys), 500):
            chunk = list(keys[start:start + 500])
            marks = ",".join("?" * len(chunk))
            for key, blob in db.execute(f"SELECT key, vector FROM vectors WHERE model = ? AND key IN ({marks})",
                                        [model, *chunk]):
                found[key] = np.frombuffer(blob, dtype=np.float32)
        return found

    def save_vectors(self, model: str, vectors: dict[str, np.ndarray]) -> None:
        if self.root is None or not vectors:
            return
        db = self._conn()
        with db:
            db.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?, ?)",
                           [(model, k, np.asarray(v, dtype=np.float32).tobytes()) for k, v in vectors.items()])
