"""The cache's database, ``embeddings.sqlite`` in the cache folder (quoteverify.plumbing.cache): rows keyed by
a text's sha256 or a result's key, each with a checksum of its scope, key and payload. Four tables: the vector
of each text by embedding model, the language detected in each text, and the results of quotes and the
records of runs kept between runs (quoteverify.plumbing.resultcache). A row that does not match its checksum
is deleted and counted; a database that cannot be read is discarded and made again; one that cannot be
written is read as long as it can be, and the run goes on without writing to it. Every read is a miss when
the cache has no folder. Several runs (or a cluster's workers) may write at once: a writer waits up to
``SQLITE_TIMEOUT`` for another's transaction.
"""
from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress
from pathlib import Path
from typing import Any

import numpy as np

from ..model.text import plural

# Seconds a run waits for another run writing embeddings to the same cache.
SQLITE_TIMEOUT = 60.0
# The tables of kept results, run records and the corpora runs checked (quoteverify.plumbing.resultcache): a JSON
# payload by key.
KEPT_TABLES = ("results", "runs", "corpora")
_COLUMNS = {"languages": "key TEXT PRIMARY KEY, code TEXT, checksum TEXT",
            **dict.fromkeys(KEPT_TABLES, "key TEXT PRIMARY KEY, payload BLOB, checksum TEXT")}


class DamagedEntry(Exception):
    """A cache entry whose content does not match its checksum."""


def damage_reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    text = " ".join(str(exc).split())
    return (text[:120] if text else type(exc).__name__)


def _row_checksum(scope: str, key: str, blob: bytes) -> str:
    """A database row's checksum: its scope (a model's name, or "language"), key and payload."""
    return hashlib.sha256(f"{scope}\x00{key}\x00".encode("utf-8", "surrogatepass") + blob).hexdigest()[:32]



class CacheDatabase:
    """The database of a cache folder ``root`` (None: no cache). ``warn``, ``unwritable`` and ``writable``
    are the folder's: what goes wrong is said once for the whole cache, and a folder that cannot be written
    is not written here either."""

    def __init__(self, root: Path | None, warn: Callable[[str], None], unwritable: Callable[[BaseException], None],
                 writable: Callable[[], bool]):
        self.root = root
        self._warn, self._unwritable, self._writable = warn, unwritable, writable
        self._db: sqlite3.Connection | None = None
        self._usable = True
        self._bad_vectors = 0

    def damaged_rows(self) -> list[str]:
        """The warning for the damaged vectors found and discarded this run, if any."""
        if not self._bad_vectors:
            return []
        return [f"cache entry {self.path()} holds {plural(self._bad_vectors, 'damaged vector')}; "
                "discarded and recomputed"]

    def path(self) -> Path:
        assert self.root is not None
        return self.root / "embeddings.sqlite"

    def _open_db(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path(), timeout=SQLITE_TIMEOUT)
        try:
            tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if "vectors" in tables and "vectors2" not in tables and self._writable():
                db.execute("DROP TABLE vectors")  # rows without checksums, from an earlier version
            if "vectors2" not in tables:
                with db:
                    db.execute("CREATE TABLE IF NOT EXISTS vectors2 (model TEXT, key TEXT, vector BLOB, "
                               "checksum TEXT, PRIMARY KEY (model, key))")
            # A cache only read (read-only, or locked for long) still serves its vectors; languages are detected,
            # quotes checked again.
            for table in ("languages", *KEPT_TABLES):
                if table not in tables and self._writable():
                    with suppress(sqlite3.OperationalError), db:
                        db.execute(f"CREATE TABLE IF NOT EXISTS {table} ({_COLUMNS[table]})")
        except BaseException:
            db.close()
            raise
        return db

    def _conn(self) -> sqlite3.Connection | None:
        """The embeddings database, opened (and rebuilt if damaged) on first use; None when unusable."""
        if self._db is not None or not self._usable or self.root is None:
            return self._db
        try:
            self.root.mkdir(parents=True, exist_ok=True)  # a new cache's first entry may be a detected language
            self._db = self._open_db()
        except (sqlite3.OperationalError, OSError) as exc:  # cannot be opened or created, locked: not damaged
            self._usable = False
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
        path = self.path()
        self._warn(f"cache entry {path} is damaged ({damage_reason(exc)}); discarded and rebuilt")
        try:
            for suffix in ("", "-journal", "-wal", "-shm"):
                Path(f"{path}{suffix}").unlink(missing_ok=True)
        except OSError as err:
            self._usable = False
            self._unwritable(err)

    # Detected languages -----------------------------------------------------
    def load_languages(self, keys: Sequence[str]) -> dict[str, str]:
        """The languages detected before for texts by their keys (``language.document_languages``)."""
        return self._checked("languages", "code", keys, str)[0]

    def save_languages(self, codes: dict[str, str]) -> None:
        self._insert("languages", [(key, code, _row_checksum("language", key, code.encode()))
                                   for key, code in codes.items()])

    # Kept results and run records ------------------------------------------
    def load_kept(self, table: str, keys: Sequence[str]) -> tuple[dict[str, bytes], list[str]]:
        """The payloads kept in ``table`` (one of ``KEPT_TABLES``) under ``keys`` whose rows match their
        checksums, and the keys of those that do not, which are deleted."""
        return self._checked(table, "payload", keys, bytes)

    def save_kept(self, table: str, payloads: Mapping[str, bytes]) -> None:
        """Keep payloads in ``table`` by key, all in one transaction."""
        self._insert(table, [(key, payload, _row_checksum(table, key, payload)) for key, payload in payloads.items()])

    def forget_kept(self, table: str, keys: Sequence[str]) -> None:
        """Delete rows whose checksums hold but whose payloads are not what their reader expects."""
        if keys:
            self._forget(table, keys)

    def _checked(self, table: str, column: str, keys: Sequence[str], kind: type[str] | type[bytes]
                 ) -> tuple[dict[str, Any], list[str]]:
        """The values of ``column`` in ``table`` under ``keys`` whose rows match their checksums (the scope is
        the table's name, "language" for languages), and the keys of the rows that do not, deleted."""
        scope = "language" if table == "languages" else table
        rows = self._select(table, f"key, {column}, checksum", keys)
        found = {key: value for key, value, checksum in rows
                 if isinstance(value, kind) and checksum == _row_checksum(
                     scope, key, value.encode() if isinstance(value, str) else value)}
        bad = [row[0] for row in rows if row[0] not in found]
        if bad:
            self._forget(table, bad)
        return found, bad

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
        if db is None or not self._writable():
            return
        scope, params = ("model = ? AND ", [model]) if model is not None else ("", [])
        try:
            with db:
                db.executemany(f"DELETE FROM {table} WHERE {scope}key = ?",
                               [(*params, k) for k in keys if isinstance(k, str)])
        except sqlite3.DatabaseError as exc:
            self._unwritable(exc)

    def _insert(self, table: str, rows: list[tuple[Any, ...]]) -> None:
        if self.root is None or not rows or not self._writable():
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
