"""Results of quotes kept between runs, so a re-run redoes only what can change.

The exact fast path runs on every quote in every run: it is cheap, and it is
what says whether a quote is verbatim in the documents as they are now. Then:

- a quote it settles is keyed by that alignment (document, spans) and the
  matched document's text hash: what follows (the diff, the verdict, context,
  line, speaker) reads nothing else, so editing any other document keeps it;
- any other quote is keyed by every document's id and text hash: it is ranked
  with BM25, whose word weights and ``bm25_score``/``bm25_ratio`` depend on
  every document, so editing any document checks these quotes again.

Both keys also hold the whole quote row (text, claimed document, id, row,
extra columns), whether the claimed document exists, the configuration (less
what only spreads the work), the embedding model, and a hash of the package's
own files (a result computed by other code is another result).

Each entry is a row of the table ``results`` in the cache's database
(``embeddings.sqlite``, quoteverify.plumbing.database): its key, its payload
(the result as JSON) and a checksum of both; a run's new entries are written
in one transaction. The table ``runs`` records, per run (its quote table,
documents, configuration, model and code), the key of each of its results in
order, the windows it searched and the warnings its results gave, checksummed
the same way: a run of the same inputs whose entries are all there and sound
is replayed from them (``replay``), without preparing the documents or loading
the model. An entry whose checksum, JSON or fields do not match is deleted and
the quote checked again, with one warning per run; a damaged cache costs time,
never a wrong result. Several processes (a cluster's workers, runs sharing a
cache) may write at once: SQLite makes each wait for the other's transaction.

Versions before 4 kept one file per entry under ``<cache>/results/``; that
folder is no longer read nor written, nor removed (removing thousands of files
would slow the first run of a new version): delete it at any time.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..model.types import Quote, QuoteResult
from .cache import digest
from .database import CacheDatabase

# Bump when the entry layout changes (2: page, page_kind; 3: occurrences; 4: rows of the cache's database;
# 5: cite, the documents' layouts).
RESULT_VERSION = "6"
_FIELDS = frozenset(f.name for f in fields(QuoteResult))


@lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """Hash of the package's own files: a result computed by other code is another result."""
    root = Path(__file__).resolve().parents[1]  # the package, not this floor
    h = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        if path.is_file() and path.suffix not in (".pyc",) and "__pycache__" not in path.parts:
            h.update(str(path.relative_to(root)).encode())
            h.update(path.read_bytes())
    return h.hexdigest()[:32]


class ResultCache:
    """Per-quote results in the database of the cache folder ``root``; every method is a no-op miss when
    ``root`` is None."""

    def __init__(self, root: str | Path | None, *, warnings: list[str] | None = None, documents: str = "",
                 run: str = "", hold: bool = False, corpus: str = ""):
        """``documents``: ``documents_key`` of the whole corpus, when the corpus a quote is checked
        against is only the part of it the quote can match (quoteverify.pipeline.cluster); ``run``: the ``run_key`` of
        the run whose results these are, which records them (``keep_run``, ``replay``); ``hold``: ``save`` keeps
        the results in ``held`` instead, for the caller to save once they are known to be final (a check
        against part of the corpus may be beaten by a document it did not have); ``corpus``: the
        ``corpus_key`` of the run, recorded with it (``checked_before``)."""
        self.root = Path(root) if root is not None else None
        self.documents = documents
        self.run = run
        self.corpus = corpus
        self.hold = hold
        self.held: dict[str, QuoteResult] = {}
        self.warnings = warnings if warnings is not None else []
        self.hits = 0
        self.damaged = 0
        self._writable = True
        self._database = CacheDatabase(self.root, self._warn, self._unwritable, lambda: self._writable)
        self._discarded: set[str] = set()
        self._run_keys: list[str] | None = None
        self._corpus_keys: dict[int, str] = {}
        self._document_keys: dict[tuple[int, int], str] = {}
        self._settings: tuple[Any, str] | None = None  # the last configuration and its settings text

    def _warn(self, message: str) -> None:
        if message not in self.warnings:
            self.warnings.append(message)

    def _unwritable(self, exc: BaseException) -> None:
        # Not warned here: the cache's own writes say it (quoteverify.plumbing.cache); kept results only save time.
        self._writable = False

    def _document_key(self, corpus: Any, k: int) -> str:
        if (id(corpus), k) not in self._document_keys:
            self._document_keys[id(corpus), k] = _document_key(corpus.sources[k].document)
        return self._document_keys[id(corpus), k]

    def key(self, quote: Quote, config: Any, embed: Any, corpus: Any, *, exact: Any = None,
            language: str = "") -> str:
        """What a quote's result depends on; ``exact``: its alignment, if the exact fast path settled it."""
        if exact is not None:
            documents = digest("exact", repr(exact), self._document_key(corpus, exact.segments[0].doc))
        elif self.documents:
            documents = self.documents
        else:
            if id(corpus) not in self._corpus_keys:
                self._corpus_keys[id(corpus)] = documents_key(s.document for s in corpus.sources)
            documents = self._corpus_keys[id(corpus)]
        claimed_known = quote.claimed_document in corpus.by_id
        return digest("result", RESULT_VERSION, code_fingerprint(), repr(quote), repr(language), claimed_known,
                      self._settings_of(config), embed.name if embed is not None else "", documents)

    def _settings_of(self, config: Any) -> str:
        """``_settings`` of a run's one configuration, made once rather than per quote."""
        if self._settings is None or self._settings[0] is not config:
            self._settings = (config, _settings(config))
        return self._settings[1]

    def replay(self) -> Replay | None:
        """Every result of a run of the same inputs (``run``), in order, if that run was recorded
        (``keep_run``) and all its entries are still here and sound: then this run checks nothing again, and
        needs neither the documents prepared nor the model. None otherwise; a wrong answer costs time, never a
        result (a damaged record is deleted, and written again by this run)."""
        if self.root is None or not self.run:
            return None
        payload = self._database.load_kept("runs", [self.run])[0].get(self.run)
        if payload is None:
            return None
        try:
            record = json.loads(payload.decode("utf-8", "surrogatepass"))
            keys, windows, warnings = record["keys"], int(record["windows"]), [str(w) for w in record["warnings"]]
            layouts = {str(doc): str(layout) for doc, layout in record["layouts"].items()}
        except (ValueError, KeyError, TypeError, AttributeError):
            return None
        found = self.load(dict(enumerate(keys)))
        if len(found) != len(keys):
            return None
        return Replay([found[k] for k in range(len(keys))], windows, warnings, layouts)

    def checked_before(self) -> bool:
        """Whether a run recorded here checked quotes against the same documents with the same settings, model
        and code (``corpus``): then this one is a re-run, most of whose quotes are kept here already."""
        if self.root is None or not self.corpus:
            return False
        return self.corpus in self._database.load_kept("corpora", [self.corpus])[0]

    def keep_run(self, *, windows: int, warnings: Sequence[str], layouts: Mapping[str, str]) -> None:
        """Record this run (``run``): the key of each of its results in order (those of the last ``save``), the
        number of windows searched, the warnings the results gave and the documents' layouts (``replay``); and
        that its corpus was checked (``checked_before``)."""
        if self.root is None or not self.run or self._run_keys is None:
            return
        payload = json.dumps({"keys": self._run_keys, "windows": windows, "warnings": list(warnings),
                              "layouts": dict(layouts)}, ensure_ascii=False).encode("utf-8", "surrogatepass")
        self._database.save_kept("runs", {self.run: payload})
        if self.corpus:
            self._database.save_kept("corpora", {self.corpus: b"{}"})

    def load(self, keys: Mapping[int, str]) -> dict[int, QuoteResult]:
        """The kept results among ``keys`` (position -> key); damaged entries are deleted, and counted once a
        run (an entry that cannot be deleted is not read again)."""
        if self.root is None:
            return {}
        wanted = {k: key for k, key in keys.items() if key not in self._discarded}
        payloads, damaged = self._database.load_kept("results", sorted(set(wanted.values())))
        found: dict[int, QuoteResult] = {}
        forged: set[str] = set()
        for k, key in wanted.items():
            result = _decode(payloads[key]) if key in payloads and key not in forged else None
            if result is not None:
                found[k] = result
            elif key in payloads:
                forged.add(key)  # sound checksum, not a result's fields
        self._database.forget_kept("results", sorted(forged))
        bad = len(damaged) + len(forged)
        self._discarded.update(damaged, forged)
        self.hits += len(found)
        if bad:
            self.damaged += bad
            self.warnings.append(f"result cache: {bad} damaged entr{'y' if bad == 1 else 'ies'} "
                                 f"in {self._database.path()} discarded; those quotes were checked again")
        return found

    def save(self, results: Mapping[str, QuoteResult], *, run: Sequence[str] | None = None) -> None:
        """Keep results by key, in one transaction; a cache that cannot be written is skipped (it only saves
        time). ``run``: the key of every result of the run in order, kept before or now, for ``keep_run`` to
        record."""
        if self.root is None:
            return
        if self.hold:
            self.held.update(results)
            return
        self._run_keys = list(run) if run is not None else None
        self._database.save_kept("results", {
            key: json.dumps(result.to_dict(), ensure_ascii=False, sort_keys=True).encode("utf-8", "surrogatepass")
            for key, result in results.items()})
        if not self._writable:
            self._run_keys = None  # a run whose entries are not all written is not recorded


@dataclass(frozen=True)
class Replay:
    """A recorded run's results, in order, the number of windows it searched, the warnings its results
    gave and its documents' layouts (``ResultCache.replay``)."""

    results: list[QuoteResult]
    windows: int
    warnings: list[str]
    layouts: dict[str, str]


def run_key(quotes: Iterable[Quote], documents: Iterable[Any], config: Any, embed: Any) -> str:
    """A run's inputs as its results see them: every quote row, every document, the configuration, the model
    and the code (``ResultCache.replay``)."""
    return digest("run", RESULT_VERSION, code_fingerprint(), _settings(config), embed.name if embed else "",
                  documents_key(documents), *(repr(q) for q in quotes))


def corpus_key(documents: Iterable[Any], config: Any, embed: Any) -> str:
    """A run's documents, configuration, model and code: what runs that check other quotes against the same
    corpus share (``ResultCache.checked_before``)."""
    return digest("corpus", RESULT_VERSION, code_fingerprint(), _settings(config), embed.name if embed else "",
                  documents_key(documents))


def _settings(config: Any) -> str:
    """The configuration as a result depends on it."""
    settings = config.as_dict()
    # How the work is spread changes no result: a local run and a cluster run share entries.
    settings.pop("cluster", None)
    settings["align"] = {k: v for k, v in settings["align"].items() if k != "workers"}
    return json.dumps(settings, sort_keys=True, default=str)


def documents_key(documents: Iterable[Any]) -> str:
    """Every document as a result sees it: what a quote not found word for word depends on."""
    return digest("documents", *(_document_key(d) for d in documents))


def _document_key(document: Any) -> str:
    """A document as a result sees it: its id, text, cues and a PDF's layout, which its pages are read from
    (the file hash alone is the caller's word)."""
    text = hashlib.sha256(document.text.encode("utf-8", "surrogatepass")).hexdigest()
    # repr: a document id from a file name that is not UTF-8 holds lone surrogates.
    return digest(repr(document.doc_id), text, document.sha256, document.encoding, repr(document.cues),
                  repr(document.language), *((repr(document.layout),) if document.layout else ()))


def _decode(payload: bytes) -> QuoteResult | None:
    """A kept result, if its payload is a JSON object of exactly a result's fields."""
    try:
        data = json.loads(payload.decode("utf-8", "surrogatepass"))
    except (UnicodeDecodeError, ValueError):
        return None
    if not isinstance(data, dict) or set(data) != _FIELDS:
        return None
    return QuoteResult(**data)
