"""A cache of what does not change between runs: prepared documents, the BM25
index, and embeddings.

Layout under the cache folder (default ``$XDG_CACHE_HOME/quoteverify``, else
``~/.cache/quoteverify``):

- ``sources/<key>.npz``: one normalized, tokenized document and its pages
  (quoteverify.sources.pages); the key is the sha256 of the document's text (as
  extracted from its file, with a PDF's layout) and the preparation version,
  so a changed document invalidates its entry alone.
- ``corpus/<key>.npz``: the vocabulary and word ids of a set of documents; the
  key hashes the document keys in order.
- ``index/<key>/``: a bm25s index, with ``checksum.json``; the key adds the
  window and BM25 settings.
- ``embeddings.sqlite``: vectors by model name and text sha256, and the
  language detected in each document (by the sha256 of the text sampled and
  the detector's version), each row with a checksum.

The cache can only be right or absent: every entry carries a sha256 of its
name and content, checked on every read, and an entry that cannot be read,
parsed or checked is discarded with a warning naming it and rebuilt, so a
damaged file never changes a verdict. A cache that cannot be written (full,
read-only) is warned about once, and the run goes on without writing to it.
Files are written to a temporary name and renamed; those of a killed run are
removed by the next one. Only numpy arrays and JSON are stored
(``allow_pickle=False``).
"""
from __future__ import annotations

import errno
import hashlib
import json
import os
import shutil
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from platformdirs import user_cache_path

from ..model.text import plural
from .tempfiles import clean_stale, temp_name

# Bump when normalization or tokenization changes what a prepared document holds.
# 4: apostrophes U+02BC and ` normalized; 5: checksummed entries; 6: page furniture skipped, pages kept;
# 7: filler phrases weak, keyed by the language
PREPARE_VERSION = "7"
CHECKSUM_FILE = "checksum.json"
# Seconds a run waits for another run writing embeddings to the same cache.
SQLITE_TIMEOUT = 60.0


def default_dir() -> Path:
    """The user's cache folder for quoteverify (Linux: $XDG_CACHE_HOME/quoteverify or ~/.cache/quoteverify)."""
    return user_cache_path("quoteverify", appauthor=False)


def digest(*parts: Any) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(str(part).encode("utf-8", "surrogatepass"))
        h.update(b"\x00")
    return h.hexdigest()[:32]


def _bytes(text: str) -> np.ndarray:
    return np.frombuffer(text.encode("utf-8", "surrogatepass"), dtype=np.uint8)


def _text(array: np.ndarray) -> str:
    return array.tobytes().decode("utf-8", "surrogatepass")


def _checksum(name: str, arrays: dict[str, np.ndarray]) -> np.ndarray:
    """sha256 of an entry's name and of every array's name, type, shape and bytes."""
    h = hashlib.sha256(name.encode("utf-8"))
    for key in sorted(arrays):
        array = np.ascontiguousarray(arrays[key])
        h.update(f"\x00{key}\x00{array.dtype.str}\x00{array.shape}\x00".encode())
        h.update(array.tobytes())
    return np.frombuffer(h.digest(), dtype=np.uint8)


def _file_sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _row_checksum(scope: str, key: str, blob: bytes) -> str:
    """A database row's checksum: its scope (a model's name, or "language"), key and payload."""
    return hashlib.sha256(f"{scope}\x00{key}\x00".encode("utf-8", "surrogatepass") + blob).hexdigest()[:32]


@dataclass(frozen=True)
class StoredSource:
    """A prepared document as the cache keeps it: its normalized text and the offsets back to the original,
    its word tokens (starts, ends, which are weak, the words), and its page structure as arrays
    (quoteverify.sources.pages)."""

    text: str
    offsets: np.ndarray
    starts: np.ndarray
    ends: np.ndarray
    weak: np.ndarray
    words: list[str]
    pages: Mapping[str, np.ndarray] = field(default_factory=dict)


class DamagedEntry(Exception):
    """A cache entry whose content does not match its checksum."""


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    text = " ".join(str(exc).split())
    return (text[:120] if text else type(exc).__name__)


class Cache:
    """The cache folder; every method is a no-op miss when ``root`` is None."""

    def __init__(self, root: str | Path | None):
        self.root = Path(root) if root is not None else None
        self._db: sqlite3.Connection | None = None
        self._writable = True
        self._vectors = True
        self._messages: list[str] = []
        self._bad_vectors = 0
        if self.root is not None:
            for sub in ("sources", "corpus", "index"):
                clean_stale(self.root / sub)

    @property
    def enabled(self) -> bool:
        return self.root is not None

    @property
    def warnings(self) -> list[str]:
        """What went wrong with the cache, one line each, for the run to print."""
        if not self._bad_vectors:
            return list(self._messages)
        n = self._bad_vectors
        return [*self._messages, f"cache entry {self._vectors_path()} holds {plural(n, 'damaged vector')}; "
                                 "discarded and recomputed"]

    def _warn(self, message: str) -> None:
        if message not in self._messages:
            self._messages.append(message)

    def _name(self, path: Path) -> str:
        assert self.root is not None
        return path.relative_to(self.root).as_posix()

    def _damaged(self, path: Path, exc: BaseException) -> None:
        """Warn about an entry that cannot be trusted, and remove it so that it is rebuilt."""
        self._warn(f"cache entry {path} is damaged ({_reason(exc)}); discarded and rebuilt")
        try:
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)
            else:
                path.unlink(missing_ok=True)
        except OSError:
            pass  # a read-only cache: the entry is ignored this run and checked again the next

    def _unwritable(self, exc: BaseException) -> None:
        if not self._writable:
            return  # warned once: the first reason is the one that matters
        self._writable = False
        self._warn(f"cache folder {self.root} cannot be written ({_reason(exc)}); "
                   "running without writing to the cache")

    def _save_npz(self, path: Path, arrays: dict[str, np.ndarray]) -> None:
        if not self._writable:
            return
        payload: dict[str, Any] = dict(arrays, checksum=_checksum(self._name(path), arrays))
        tmp = path.parent / temp_name("npz")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(tmp, "wb") as f:
                np.savez(f, **payload)
            os.replace(tmp, path)
        except OSError as exc:
            tmp.unlink(missing_ok=True)
            self._unwritable(exc)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise

    def _load_npz(self, path: Path) -> dict[str, np.ndarray] | None:
        try:
            with np.load(path, allow_pickle=False) as data:
                arrays = {k: data[k] for k in data.files}
            stored = arrays.pop("checksum", None)
            if stored is None:
                raise DamagedEntry("no checksum")
            if not np.array_equal(stored, _checksum(self._name(path), arrays)):
                raise DamagedEntry("checksum mismatch")
            return arrays
        except FileNotFoundError:
            return None
        except Exception as exc:  # any failure to read, parse or check: the entry cannot be trusted
            self._damaged(path, exc)
            return None

    # Prepared documents ---------------------------------------------------
    def source_key(self, text_sha256: str) -> str:
        return digest("source", PREPARE_VERSION, text_sha256)

    def load_source(self, text_sha256: str) -> StoredSource | None:
        if self.root is None:
            return None
        path = self.root / "sources" / f"{self.source_key(text_sha256)}.npz"
        data = self._load_npz(path)
        if data is None:
            return None
        try:
            words = _text(data["words"])
            return StoredSource(_text(data["text"]), data["offsets"], data["starts"].astype(np.int64),
                                data["ends"].astype(np.int64), data["weak"], words.split("\n") if words else [],
                                {k.removeprefix("page_"): v for k, v in data.items() if k.startswith("page_")})
        except (KeyError, ValueError, UnicodeDecodeError) as exc:
            self._damaged(path, exc)
            return None

    def save_source(self, text_sha256: str, source: StoredSource) -> None:
        if self.root is None:
            return
        offsets = source.offsets
        small = np.int32 if len(offsets) and offsets.max() < 2**31 else np.int64
        self._save_npz(self.root / "sources" / f"{self.source_key(text_sha256)}.npz", {
            "text": _bytes(source.text), "offsets": offsets.astype(small), "starts": source.starts.astype(small),
            "ends": source.ends.astype(small), "weak": source.weak, "words": _bytes("\n".join(source.words)),
            **{f"page_{k}": v for k, v in source.pages.items()}})

    # Corpus-wide vocabulary -----------------------------------------------
    def load_vocab(self, key: str) -> dict[str, np.ndarray] | None:
        if self.root is None:
            return None
        path = self.root / "corpus" / f"{key}.npz"
        data = self._load_npz(path)
        if data is not None and not {"words", "all_ids", "order"} <= set(data):
            self._damaged(path, DamagedEntry("arrays missing"))
            return None
        return data

    def save_vocab(self, key: str, *, words: Sequence[str], all_ids: np.ndarray, order: np.ndarray) -> None:
        if self.root is None:
            return
        self._save_npz(self.root / "corpus" / f"{key}.npz",
                       {"words": _bytes("\n".join(words)), "all_ids": all_ids, "order": order})

    # BM25 index -----------------------------------------------------------
    def index_dir(self, key: str) -> Path | None:
        """The folder of a stored index entry whose files match their checksums, else None."""
        if self.root is None:
            return None
        path = self.root / "index" / key
        if not path.exists():
            return None
        try:
            manifest = json.loads((path / CHECKSUM_FILE).read_text(encoding="utf-8"))
            if manifest.get("key") != key or not isinstance(manifest.get("files"), dict):
                raise DamagedEntry("checksum file does not match the entry")
            for name, expected in manifest["files"].items():
                if "/" in name or name.startswith(".") or _file_sha256(path / name) != expected:
                    raise DamagedEntry(f"checksum mismatch in {name}")
        except Exception as exc:  # any failure to read or check: the entry cannot be trusted
            self._damaged(path, exc)
            return None
        return path

    def index_damaged(self, key: str, exc: BaseException) -> None:
        """An index entry whose checksums held but which its library could not load."""
        if self.root is not None:
            self._damaged(self.root / "index" / key, exc)

    def store_dir(self, key: str, write: Callable[[Path], None]) -> None:
        """Write a folder entry through a temporary folder renamed into place."""
        if self.root is None or not self._writable:
            return
        final = self.root / "index" / key
        tmp = final.parent / temp_name()
        try:
            tmp.mkdir(parents=True)
            write(tmp)
            files = {p.name: _file_sha256(p) for p in sorted(tmp.iterdir()) if p.is_file()}
            (tmp / CHECKSUM_FILE).write_text(json.dumps({"key": key, "files": files}, indent=1), encoding="utf-8")
            if final.exists():
                shutil.rmtree(final, ignore_errors=True)
            os.replace(tmp, final)
        except OSError as exc:
            shutil.rmtree(tmp, ignore_errors=True)
            # ENOTEMPTY/EEXIST: another run sharing the cache wrote the same entry meanwhile; theirs serves.
            if exc.errno not in (errno.ENOTEMPTY, errno.EEXIST):
                self._unwritable(exc)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise

    # Embeddings -----------------------------------------------------------
    def _vectors_path(self) -> Path:
        assert self.root is not None
        return self.root / "embeddings.sqlite"

    def _open_db(self) -> sqlite3.Connection:
        db = sqlite3.connect(self._vectors_path(), timeout=SQLITE_TIMEOUT)
        try:
            tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if "vectors" in tables and "vectors2" not in tables and self._writable:
                db.execute("DROP TABLE vectors")  # rows without checksums, from an earlier version
            if "vectors2" not in tables:
                with db:
                    db.execute("CREATE TABLE IF NOT EXISTS vectors2 (model TEXT, key TEXT, vector BLOB, "
                               "checksum TEXT, PRIMARY KEY (model, key))")
            if "languages" not in tables and self._writable:
                # A cache only read (read-only, or locked for long) still serves its vectors; languages are detected.
                with suppress(sqlite3.OperationalError), db:
                    db.execute("CREATE TABLE IF NOT EXISTS languages (key TEXT PRIMARY KEY, code TEXT, checksum TEXT)")
        except BaseException:
            db.close()
            raise
        return db

    def _conn(self) -> sqlite3.Connection | None:
        """The embeddings database, opened (and rebuilt if damaged) on first use; None when unusable."""
        if self._db is not None or not self._vectors or self.root is None:
            return self._db
        try:
            self.root.mkdir(parents=True, exist_ok=True)  # a new cache's first entry may be a detected language
            self._db = self._open_db()
        except (sqlite3.OperationalError, OSError) as exc:  # cannot be opened or created, locked: not damaged
            self._vectors = False
            self._unwritable(exc)
        except sqlite3.DatabaseError as exc:  # not a database, malformed
            self._discard_db(exc)
            return self._conn()
        return self._db

    def _discard_db(self, exc: BaseException) -> None:
        """Warn about a damaged embeddings database and remove it; stop using it if it cannot be removed."""
        if self._db is not None:
            self._db.close()
            self._db = None
        path = self._vectors_path()
        self._warn(f"cache entry {path} is damaged ({_reason(exc)}); discarded and rebuilt")
        try:
            for suffix in ("", "-journal", "-wal", "-shm"):
                Path(f"{path}{suffix}").unlink(missing_ok=True)
        except OSError as err:
            self._vectors = False
            self._unwritable(err)

    # Detected languages -----------------------------------------------------
    def load_languages(self, keys: Sequence[str]) -> dict[str, str]:
        """The languages detected before for texts by their keys (``language.document_languages``)."""
        rows = self._select("languages", "key, code, checksum", keys)
        found = {key: code for key, code, checksum in rows
                 if isinstance(code, str) and checksum == _row_checksum("language", key, code.encode())}
        if len(found) < len(rows):
            self._forget("languages", [row[0] for row in rows if row[0] not in found])
        return found

    def save_languages(self, codes: dict[str, str]) -> None:
        self._insert("languages", [(key, code, _row_checksum("language", key, code.encode()))
                                   for key, code in codes.items()])

    def load_vectors(self, model: str, keys: Sequence[str]) -> dict[str, np.ndarray]:
        rows = self._select("vectors2", "key, vector, checksum", keys, model)
        found: dict[str, np.ndarray] = {}
        bad: list[str] = []
        for key, blob, checksum in rows:
            if (isinstance(blob, bytes) and blob and len(blob) % 4 == 0
                    and checksum == _row_checksum(model, key, blob)):
                found[key] = np.frombuffer(blob, dtype=np.float32)
            else:
                bad.append(key)
        if len({len(v) for v in found.values()}) > 1:
            # Checksummed rows of one model all have its length; several lengths mean a damaged file.
            self._discard_db(DamagedEntry("vectors of different lengths"))
            return {}
        if bad:
            self._bad_vectors += len(bad)
            self._forget("vectors2", bad, model)
        return found

    def _select(self, table: str, columns: str, keys: Sequence[str], model: str | None = None) -> list[tuple[Any, ...]]:
        """The rows of ``table`` (of ``model``, for vectors) whose key is one of ``keys``."""
        if self.root is None or not keys:
            return []
        db = self._conn()
        if db is None:
            return []
        scope, params = ("model = ? AND ", [model]) if model is not None else ("", [])
        rows: list[tuple[Any, ...]] = []
        try:
            for start in range(0, len(keys), 500):
                chunk = list(keys[start:start + 500])
                marks = ",".join("?" * len(chunk))
                rows += db.execute(f"SELECT {columns} FROM {table} WHERE {scope}key IN ({marks})",
                                   [*params, *chunk]).fetchall()
        except sqlite3.OperationalError:
            return []  # locked by another run, or a table a read-only cache does not have: a miss
        except sqlite3.DatabaseError as exc:
            self._discard_db(exc)
            return []
        return rows

    def _forget(self, table: str, keys: Sequence[str], model: str | None = None) -> None:
        """Delete damaged rows, where the cache can be written."""
        db = self._db
        if db is None or not self._writable:
            return
        scope, params = ("model = ? AND ", [model]) if model is not None else ("", [])
        try:
            with db:
                db.executemany(f"DELETE FROM {table} WHERE {scope}key = ?",
                               [(*params, k) for k in keys if isinstance(k, str)])
        except sqlite3.DatabaseError as exc:
            self._unwritable(exc)

    def _insert(self, table: str, rows: list[tuple[Any, ...]]) -> None:
        if self.root is None or not rows or not self._writable:
            return
        db = self._conn()
        if db is None:
            return
        try:
            with db:
                db.executemany(f"INSERT OR REPLACE INTO {table} VALUES ({','.join('?' * len(rows[0]))})", rows)
        except sqlite3.DatabaseError as exc:  # read-only, full disk, locked too long
            self._unwritable(exc)

    def save_vectors(self, model: str, vectors: dict[str, np.ndarray]) -> None:
        rows = []
        for key, vector in vectors.items():
            blob = np.asarray(vector, dtype=np.float32).tobytes()
            rows.append((model, key, blob, _row_checksum(model, key, blob)))
        self._insert("vectors2", rows)
