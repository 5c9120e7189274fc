"""A run repeated, and what makes it repeatable: results as a DataFrame, a run's manifest written, a
manifest's rerun, a stored run's recheck.

Between the pipeline and the renderers: it imports stages and the pipeline, and hands the renderers
results and findings as data.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..judge.embed import Embedder, model_path
from ..model.config import ConfigGiven, load_config
from ..model.decoders import shown
from ..model.errors import ConfigError, InputError
from ..model.lexicon import languages
from ..model.manuscript import MANUSCRIPT_FORMATS
from ..model.rows import to_frame
from ..model.text import plural
from ..model.types import LAYOUTS, Escalation, Progress, QuoteResult, Recheck, Run, count_by_decision, count_by_status
from ..model.version import __version__
from ..pipeline.stages import run, verify
from ..plumbing.manifest import (
    PROJECT_SOURCE,
    WEIGHTS_FILE,
    Embedding,
    InputChange,
    InputFile,
    Manifest,
    environment,
    manifest_bytes,
    relative_path,
    results_sha256,
    sha256_file,
    summarize,
    verdicts_sha256,
)
from ..plumbing.transaction import write_bytes_atomic
from ..sources.documents import DocumentsGiven
from ..sources.qdpx import read_qdpx
from ..sources.quotes import load_quotes
from .manuscript import read_manuscript
from .store import RECHECK_BELOW, CorpusFile, Store, StoreError

if TYPE_CHECKING:
    import pandas as pd

    from ..sources.quotes import QuotesGiven


def verify_frame(documents: DocumentsGiven, quotes: QuotesGiven, config: ConfigGiven = None, *,
                 embedder: Embedder | None = None, progress: Progress | None = None,
                 cache_dir: str | Path | None = None) -> pd.DataFrame:
    """verify() as a pandas DataFrame, one row per quote in input order.

    ``row``, ``start``, ``end`` and ``line`` are nullable integers (Int64): an
    unlocated quote has <NA> there, and located ones stay integers."""
    return to_frame(verify(documents, quotes, config, embedder=embedder, progress=progress, cache_dir=cache_dir))


def _weights_file(model: str) -> Path | None:
    """The weights of a model that ``embed.model_path`` can find; None for a test's fake embedder."""
    try:
        path = model_path(model) / WEIGHTS_FILE
    except ConfigError:
        return None
    return path if path.is_file() else None


def embedding_record(model: str | None) -> Embedding:
    if model is None:
        return Embedding(enabled=False)
    weights = _weights_file(model)
    if weights is None:
        return Embedding(enabled=True, model=model)
    return Embedding(enabled=True, model=model, weights_file=weights.name, weights_sha256=sha256_file(weights))


def build_manifest(run: Run, *, base: str | Path = ".", quotes_path: str | Path | None = None,
                   sheet: str | None = None, outputs: Iterable[str | Path] = (), command: str = "") -> Manifest:
    """The manifest of a finished run; paths are made relative to ``base``, the manifest's folder.

    ``quotes_path`` is the quote table the run read (with ``sheet`` for a workbook);
    ``outputs`` the result files written; ``command`` the command line, if any.
    """
    base = Path(base)
    documents = tuple(
        InputFile(path=relative_path(d.path, base) if d.path else "", sha256=d.sha256, doc_id=d.doc_id,
                  encoding=d.encoding, language=d.language, layout=run.layouts.get(d.doc_id, ""))
        for d in run.documents)
    quotes = None
    if quotes_path is not None:
        if not run.quotes_sha256:
            raise ValueError("this run was given quotes in Python, not a quote table file; "
                             "pass the file to run() to record it in the manifest")
        quotes = InputFile(path=relative_path(quotes_path, base), sha256=run.quotes_sha256, sheet=sheet or "")
    return Manifest(
        tool_version=__version__, created=datetime.now(timezone.utc).isoformat(timespec="seconds"),
        command=command, config=run.config.as_dict(), embedding=embedding_record(run.embedder), windows=run.windows,
        documents=documents, quotes=quotes, outputs=tuple(relative_path(o, base) for o in outputs),
        results_sha256=results_sha256(run.results), summary=summarize(run.results), environment=environment(),
        warnings=tuple(run.warnings), languages=_languages(run), layouts=_layouts(run),
        verdicts_sha256=verdicts_sha256(run.results))


def _languages(run: Run) -> dict[str, dict[str, Any]]:
    documents = Counter(d.language or "unknown" for d in run.documents)
    quotes = Counter(r.language or "unknown" for r in run.results)
    return {code: {"documents": documents[code], "quotes": quotes[code], "lexicon": code in languages()}
            for code in sorted(set(documents) | set(quotes))}


def _layouts(run: Run) -> dict[str, int]:
    """How many documents have each layout (all of types.LAYOUTS listed); empty when the run read none."""
    counts = Counter(run.layouts.get(d.doc_id, "") for d in run.documents)
    return {layout: counts[layout] for layout in LAYOUTS} if run.layouts else {}


def write_manifest(path: str | Path, run: Run, **options: Any) -> Manifest:
    """Build the manifest of ``run`` (options as for ``build_manifest``) and write it to ``path``."""
    path = Path(path)
    manifest = build_manifest(run, base=path.parent, **options)
    data = manifest_bytes(manifest)
    write_bytes_atomic(path, data)
    return manifest


def _project_source_sha256(path: Path) -> str:
    """The sha256 of a project's source as it is now; empty when the project or the source is gone."""
    project = Path(str(path).split("!", 1)[0])
    if not project.is_file():
        return ""
    try:
        documents = read_qdpx(project).documents
    except InputError:
        return ""
    name = str(path).split("!", 1)[1]
    return next((d.sha256 for d in documents if d.path.split("!", 1)[1] == name), "")


def document_paths(manifest: Manifest, base: Path) -> list[Path]:
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
    base = Path(base)
    if manifest.quotes is None or not manifest.documents or not all(d.path for d in manifest.documents):
        raise InputError("this manifest was written for documents or quotes given in Python, not as files, "
                         "so it cannot be rerun; run quoteverify.run() again with the same inputs")
    try:
        config = load_config(overrides=manifest.config)
    except ConfigError as exc:
        raise ConfigError(f"the manifest's config does not fit quoteverify as installed ({exc}); "
                          f"install quoteverify {manifest.tool_version}, which wrote it") from None
    path = base / manifest.quotes.path
    quotes = (read_manuscript(path, min_words=config.extract.min_words).quotes
              if path.suffix.lower() in MANUSCRIPT_FORMATS else
              load_quotes(path, sheet=manifest.quotes.sheet or None, columns=vars(config.columns)))
    return run(document_paths(manifest, base), quotes, config, embedder=embedder, progress=progress)


@dataclass(frozen=True)
class Repeated:
    """How a rerun's results compare with those of the run its manifest records: what the check found (every
    field of every result but the decisions and notes: ``same``; None when an older manifest, whose run held
    decisions, cannot tell them apart), and, apart, how many decisions each holds."""

    same: bool | None
    then: dict[str, int]  # counts by status
    now: dict[str, int]
    decided_then: int | None  # None: an older manifest does not say
    decided_now: int

    def lines(self, carried_from: Path | None) -> list[str]:
        """What rerun says: the results, then the decisions."""
        now, then = _counts(self.now), _counts(self.then)
        if self.same:
            lines = [f"Results are identical to the recorded run: the same status and result for every quote ({now})."]
        elif self.same is None:
            lines = [f"Results differ from the recorded run in their results or their decisions ({now}; then {then}): "
                     "its manifest, written by an older quoteverify, does not tell the two apart."]
        elif self.now == self.then:
            lines = [f"Results differ from the recorded run: the same counts ({now}), but the result of some quote "
                     "changed (where it was found, its match or its reasons)."]
        else:
            lines = [f"Results differ from the recorded run: {now}; it had {then}."]
        source = f", carried from {carried_from}" if carried_from is not None else ""
        if self.decided_then is None:
            lines.append(f"Decisions, apart from the results: {plural(self.decided_now, 'quote')} decided now{source}.")
        elif self.decided_then or self.decided_now:
            lines.append(f"Decisions, apart from the results: {self.decided_then} in the recorded run, "
                         f"{self.decided_now} now{source}.")
        return lines


def _counts(status: dict[str, int]) -> str:
    return ", ".join(f"{status.get(s, 0)} {s}" for s in ("verified", "review", "unverified"))


def compare_with_recorded(manifest: Manifest, results: list[QuoteResult]) -> Repeated:
    """``results`` (a rerun's, with the decisions it carried) against the run ``manifest`` records."""
    decided = sum(count_by_decision(results).values())
    if manifest.verdicts_sha256:
        same: bool | None = verdicts_sha256(results) == manifest.verdicts_sha256
    elif verdicts_sha256(results) == manifest.results_sha256 or results_sha256(results) == manifest.results_sha256:
        same = True  # the recorded run held no decisions, or these same ones
    else:
        same = None
    recorded = manifest.summary.decisions
    return Repeated(same, dict(manifest.summary.status), count_by_status(results),
                    sum(recorded.values()) if recorded else None, decided)


def recorded_outputs(manifest: Manifest, *, base: str | Path, source: str | Path) -> tuple[Path, ...]:
    """The outputs ``manifest`` records, as paths under ``base`` (its folder). An edited manifest must not
    make a rerun write elsewhere: an absolute path, or one that leaves the folder, is refused."""
    base = Path(base)
    inside = base.resolve()
    paths = []
    for output in manifest.outputs:
        path = base / output
        if Path(output).is_absolute() or not path.resolve().is_relative_to(inside):
            raise InputError(f"{source}: refused: it records the output {shown(output)}, outside the manifest's folder "
                             f"{base}; rerun writes there only, unless you name the outputs with -o")
        paths.append(path)
    return tuple(paths)


def _corpus_changes(recorded: Iterable[CorpusFile], current: Iterable[Any]) -> tuple[str, ...]:
    before = {d.doc_id: d.sha256 for d in recorded}
    now = {d.doc_id: d.sha256 for d in current}
    changes = []
    for doc_id in sorted(before.keys() | now.keys()):
        if doc_id not in now:
            changes.append(f"{doc_id} (gone)")
        elif doc_id not in before:
            changes.append(f"{doc_id} (new)")
        elif before[doc_id] != now[doc_id]:
            changes.append(f"{doc_id} (changed)")
    return tuple(changes)


def recheck(store: Store, run_id: int, documents: DocumentsGiven, *, below: float = RECHECK_BELOW,
            embedder: Embedder | None = None, cache_dir: str | Path | None = None,
            progress: Progress | None = None) -> Recheck:
    """Check the quotes of run ``run_id`` whose confidence was below ``below`` again, with the run's
    settings, against ``documents`` (as for quoteverify.run); those still below are escalations."""
    stored = store.run(run_id)
    try:
        config = load_config(overrides=stored.config)
    except ConfigError as exc:
        raise StoreError(f"run {run_id} was recorded by quoteverify {stored.version} with settings this version "
                         f"cannot use ({exc}); check it with that version") from None
    low = [(result, quote) for result, quote in zip(store.results(run_id), store.quotes(run_id))
           if result.confidence < below]
    again = run(documents, [quote for _, quote in low], config, embedder=embedder, progress=progress,
                cache_dir=cache_dir)
    escalations = tuple(
        Escalation(run_id=run_id, quote_id=old.quote_id, row=old.row, quote=old.quote,
                   claimed_document=old.claimed_document, finding=old.finding, recorded_status=old.status,
                   recorded_confidence=old.confidence, status=new.status, match_type=new.match_type,
                   confidence=new.confidence, document=new.document, start=new.start, end=new.end,
                   reasons=tuple(new.reasons), suggestion=new.suggestion)
        for (old, _), new in zip(low, again.results) if new.confidence < below)
    return Recheck(run_id, below, len(low), escalations, _corpus_changes(stored.corpus, again.documents))
