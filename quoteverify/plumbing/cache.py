"""A cache of what does not change between runs: prepared documents, the BM25
index, embeddings, and the results of quotes.

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
- ``embeddings.sqlite``: vectors by model name and text sha256, the
  language detected in each document (by the sha256 of the text sampled and
  the detector's version), each quote's result and each run's record of its
  results (quoteverify.plumbing.resultcache), each row with a checksum: the
  cache's ``database`` (quoteverify.plumbing.database). (A ``results/`` folder
  is from versions that kept one file per result; it is no longer read.)

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
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from platformdirs import user_cache_path

from .database import CacheDatabase, DamagedEntry, damage_reason
from .tempfiles import clean_stale, temp_name

# Bump when normalization or tokenization changes what a prepared document holds.
# 4: apostrophes U+02BC and ` normalized; 5: checksummed entries; 6: page furniture skipped, pages kept;
# 7: filler phrases weak, keyed by the language; 8: line-numbered transcripts (line numbers, the record's people)
PREPARE_VERSION = "8"
CHECKSUM_FILE = "checksum.json"


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


class Cache:
    """The cache folder: its file entries (prepared documents, vocabularies, BM25 indexes) here, its
    database of vectors and detected languages in ``database``; every method is a no-op miss when ``root``
    is None."""

    def __init__(self, root: str | Path | None):
        self.root = Path(root) if root is not None else None
        self._writable = True
        self._messages: list[str] = []
        self.database = CacheDatabase(self.root, self._warn, self._unwritable, lambda: self._writable)
        if self.root is not None:
            for sub in ("sources", "corpus", "index"):
                clean_stale(self.root / sub)

    @property
    def enabled(self) -> bool:
        return self.root is not None

    @property
    def warnings(self) -> list[str]:
        """What went wrong with the cache, one line each, for the run to print (once each: a worker's copy
        told its own, which ``heard`` took in)."""
        return list(dict.fromkeys([*self._messages, *self.database.damaged_rows()]))

    @property
    def writable(self) -> bool:
        """False once a write failed: the run then writes nothing more to the cache."""
        return self._writable

    def heard(self, messages: Iterable[str], *, writable: bool = True) -> None:
        """Take in what a worker process's copy of this cache warned about, and whether it could write there
        (if not, nothing more is written here either)."""
        for message in messages:
            self._warn(message)
        if not writable:
            self._writable = False

    def _warn(self, message: str) -> None:
        if message not in self._messages:
            self._messages.append(message)

    def _name(self, path: Path) -> str:
        assert self.root is not None
        return path.relative_to(self.root).as_posix()

    def _damaged(self, path: Path, exc: BaseException) -> None:
        """Warn about an entry that cannot be trusted, and remove it so that it is rebuilt."""
        self._warn(f"cache entry {path} is damaged ({damage_reason(exc)}); discarded and rebuilt")
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
        self._warn(f"cache folder {self.root} cannot be written ({damage_reason(exc)}); "
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
        except (FileNotFoundError, NotADirectoryError):  # no entry (a file where the cache folder should be)
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
            # Not over an entry there already: another run wrote it meanwhile, and a third may be reading it.
            os.replace(tmp, final)
        except OSError as exc:
            shutil.rmtree(tmp, ignore_errors=True)
            # ENOTEMPTY/EEXIST: another run sharing the cache wrote the same entry meanwhile; theirs serves.
            if exc.errno not in (errno.ENOTEMPTY, errno.EEXIST):
                self._unwritable(exc)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
