"""The commands of ``quoteverify``, one library function each: a typed request in, the work done in order,
the messages said to a Console on the way, and a named Outcome back (its exit status).

cli.py parses the arguments into a request and prints through the Console; errors are raised as
QuoteverifyError (and a Ctrl-C as Interrupted) for the command line's one error handler to say.
This is the face's library side: it sequences the application, the pipeline and the renderers.
"""
from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import partial
from pathlib import Path

from .app import repeat
from .app.decision_files import Review
from .app.extract import QUOTE_TABLE_FORMATS, extract_quotes, quotes_csv_bytes, write_quotes
from .app.manuscript import Manuscript, propose_fixes, read_manuscript
from .app.review import (
    REVIEW_FORMATS,
    Held,
    carry_decisions,
    held_decisions,
    read_previous,
    read_review,
    review_bytes,
    write_review,
)
from .app.store import RECHECK_BELOW, Store, open_store, store_file
from .app.support import claim_cards, summarize_findings
from .export import write_results
from .export.appendix import APPENDIX_FORMATS, read_results, render_appendix, write_appendix
from .export.escalation import ESCALATION_FORMATS, write_escalation
from .export.findings import CARDS_FORMATS, FINDINGS_FORMATS, REPORT_FORMATS, write_cards, write_findings, write_report
from .export.manuscript import Entry, check_checked_output, checked_already, write_checked
from .export.page import PAGE_FORMATS, load_results, write_page
from .export.tables import FORMATS
from .model.config import Config, load_config
from .model.errors import InputError
from .model.lexicon import AUTO
from .model.manuscript import MANUSCRIPT_FORMATS, NoteOptions
from .model.rows import jsonl_bytes
from .model.text import plural
from .model.types import Progress, QuoteResult, Run, count_by_severity, count_by_status, unchecked_claim
from .model.version import __version__
from .pipeline import stages
from .pipeline.cluster.client import run_on_cluster
from .pipeline.cluster.session import parse_cluster
from .plumbing.archive import ArchiveLimits
from .plumbing.cache import default_dir as default_cache_dir
from .plumbing.guard import Guard
from .plumbing.manifest import Manifest, read_manifest
from .plumbing.transaction import OutputTransaction, output_transaction
from .sources.language import known_codes
from .sources.quotes import LoadedQuotes, load_quotes, naming_nothing_said

FAIL_ON = ("review", "unverified")
# Warnings printed by a run; a messy table can have thousands (one per duplicate quote_id).
WARNINGS_SHOWN = 50
# Quotes named when --fail-on is hit; the outputs have them all.
FAIL_ON_SHOWN = 10
# Problem rows listed after the review summary; the output file has every row.
REVIEW_SHOWN = 50


@dataclass(frozen=True)
class Console:
    """Where a command's messages go: ``say`` a line on stderr; ``echo`` text and ``write`` bytes on stdout."""
    say: Callable[[str], None]
    echo: Callable[[str], None]
    write: Callable[[bytes], object]
    progress: Progress | None = None


@dataclass(frozen=True)
class Outcome:
    """How a command ended: its exit status, and the run it made, if any."""
    exit_code: int = 0
    run: Run | None = None


class Interrupted(Exception):
    """Ctrl-C during a command; ``replaced``: whether the outputs were all written by then."""

    def __init__(self, replaced: bool = False) -> None:
        super().__init__("Interrupted after the run was complete; all its outputs were written." if replaced
                         else "Interrupted; no output was written or replaced.")


def _interrupted(written: OutputTransaction | None) -> Interrupted:
    # The renames at the end are not interrupted, so either every output of the run was replaced or none was.
    return Interrupted(written is not None and bool(written.replaced))


@dataclass(frozen=True)
class VerifyRequest:
    """The options of ``quoteverify verify``; ``paths`` is DOCS... QUOTES as given."""
    paths: tuple[Path, ...]
    outputs: tuple[Path, ...] = ()
    config_path: Path | None = None
    no_embed: bool = False
    fail_on: str | None = None
    sheet: str | None = None
    previous: Path | None = None
    manifest_path: Path | None = None
    cache_dir: Path | None = None
    no_cache: bool = False
    findings_path: Path | None = None
    report_path: Path | None = None
    cards_path: Path | None = None
    store_target: str | None = None
    record: bool = False
    quote_col: str | None = None
    id_col: str | None = None
    doc_col: str | None = None
    speaker_col: str | None = None
    finding_col: str | None = None
    quiet: bool = False
    language: str | None = None
    cluster: str | None = None
    notes: str | None = None           # a checked manuscript's notes (manuscript.notes)
    verified_notes: str | None = None  # ... at a verified quote (manuscript.verified_notes)
    no_fixes: bool = False             # ... without its fixes as tracked changes
    command: str = ""  # the command line, for the manifest

    @property
    def named_columns(self) -> dict[str, str | None]:
        return {"quote": self.quote_col, "quote_id": self.id_col, "document": self.doc_col,
                "speaker": self.speaker_col, "finding": self.finding_col}


def _warn(console: Console, warnings: Sequence[str]) -> None:
    # Once each: a QDA project read as documents and as quotes says the same things twice.
    warnings = list(dict.fromkeys(warnings))
    for warning in warnings[:WARNINGS_SHOWN]:
        console.say(f"Warning: {warning}")
    if len(warnings) > WARNINGS_SHOWN:
        console.say(f"Warning: ... and {len(warnings) - WARNINGS_SHOWN} more (all in the manifest, with --manifest)")


def _usable_cache(folder: Path, console: Console) -> Path | None:
    """The cache folder, or None with a warning when it cannot be created: no run fails for its cache."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        console.say(f"Warning: cache folder {folder} cannot be used ({exc.strerror}); running without a cache")
        return None
    return folder


# The output that names standard output (``-o -``): the results as JSONL there.
STDOUT = Path("-")


def _files(outputs: Sequence[Path]) -> list[Path]:
    """The outputs that are files: all but standard output."""
    return [o for o in outputs if o != STDOUT]


def _write_outputs(result: Run, outputs: Sequence[Path], console: Console) -> None:
    """Write each output in the format its extension names; JSONL to standard output for ``-o -`` (a checked
    manuscript is written by _write_manuscripts)."""
    findings = summarize_findings(result.results)
    for output in outputs:
        if output == STDOUT:
            console.write(jsonl_bytes(result.results))
        elif output.suffix.lower() not in MANUSCRIPT_FORMATS:
            write_results(output, result.results, run=result, findings=findings)


def _write_findings(request: VerifyRequest, results: list[QuoteResult], checked_at: datetime,
                    console: Console) -> None:
    """The findings table, report and claim cards that were asked for."""
    if request.findings_path is None and request.report_path is None and request.cards_path is None:
        return
    summary = summarize_findings(results)
    for warning in summary.warnings:
        console.say(f"Warning: {warning}")
    if not summary.findings:
        console.say("Warning: no quote names a finding (QUOTES has no 'finding' column, or it is empty); "
                    "the findings outputs list none")
    if request.findings_path is not None:
        write_findings(request.findings_path, summary.findings)
    if request.report_path is not None:
        write_report(request.report_path, results, summary)
    if request.cards_path is not None:
        write_cards(request.cards_path, claim_cards(results, checked_at=checked_at))


def _summary(result: Run, started: float, console: Console) -> None:
    counts = count_by_status(result.results)
    severities = ", ".join(f"{n} {s}" for s, n in count_by_severity(result.results).items() if n)
    elapsed = time.perf_counter() - started
    console.say(f"{plural(len(result.results), 'quote')}: {counts['verified']} verified, {counts['review']} review"
                f"{f' ({severities})' if severities else ''}, {counts['unverified']} unverified ({elapsed:.1f} s)")
    ids = {d.doc_id for d in result.documents}
    if unknown := [r.claimed_document for r in result.results if r.claimed_document and r.claimed_document not in ids]:
        console.say(naming_nothing_said(unknown))
    if unchecked := sum(bool(unchecked_claim(r)) for r in result.results):
        console.say(f"{plural(unchecked, 'quote')} verified on the words alone: the document or speaker named for "
                    f"{'it' if unchecked == 1 else 'them'} was not checked (pale green in the workbook and on the "
                    "page; the reasons say why)")


# What each kind of output is, in the line that names what a run wrote.
OUTPUT_KINDS = {".xlsx": "triage workbook", ".html": "review page", ".jsonl": "results", ".csv": "results",
                **dict.fromkeys(MANUSCRIPT_FORMATS, "checked manuscript")}


def _wrote(request: VerifyRequest, results: Sequence[QuoteResult], console: Console) -> None:
    """Name every file the run wrote, and what to open next."""
    named = [f"{o} ({OUTPUT_KINDS.get(o.suffix.lower(), 'results')})" for o in _files(request.outputs)]
    named += [f"{path} ({what})" for path, what in ((request.manifest_path, "manifest"),
                                                     (request.findings_path, "findings"),
                                                     (request.report_path, "findings report"),
                                                     (request.cards_path, "claim cards")) if path is not None]
    named += ["the results to standard output (JSONL)"] if STDOUT in request.outputs else []
    if named:
        console.say("Wrote " + ", ".join(named))
    console.say(_next_step(_files(request.outputs), results))


def _next_step(outputs: Sequence[Path], results: Sequence[QuoteResult]) -> str:
    """What to open next: the review page, else the workbook, else how to make one."""
    to_decide = sum(r.status != "verified" for r in results)
    undecided = sum(r.status != "verified" and not r.decision for r in results)
    if not results:
        return "Next: nothing to decide: the quote table holds no quotes"
    if not to_decide:
        return "Next: nothing needs a decision: every quote is verified"
    if not undecided:
        return ("Next: nothing left to decide: " + ("the quote in review or unverified is" if to_decide == 1 else
                f"all {to_decide} quotes in review or unverified are") + " decided")
    them = f"the {plural(to_decide, 'quote')} in review or unverified" if to_decide > 1 else \
        "the quote in review or unverified"
    if undecided < to_decide:
        them = f"the {undecided} still undecided of {them}"
    by_kind = {o.suffix.lower(): o for o in reversed(outputs)}
    if ".html" in by_kind:
        also = f" (or {by_kind['.xlsx']} in a spreadsheet)" if ".xlsx" in by_kind else ""
        return f"Next: open {by_kind['.html']} in a browser to decide {them}{also}"
    if ".xlsx" in by_kind:
        return f"Next: open {by_kind['.xlsx']} to decide {them} (the Guide sheet says how)"
    if checked := [o for o in outputs if o.suffix.lower() in MANUSCRIPT_FORMATS]:
        return (f"Next: open {checked[0]} to read its notes at {them}; add -o results.xlsx for a workbook to "
                "decide them in")
    if ".jsonl" in by_kind:
        page = by_kind[".jsonl"].with_suffix(".html")
        return f"Next: quoteverify report {by_kind['.jsonl']} -o {page}, and open it to decide {them}"
    return f"Next: add -o results.html (a review page) or -o results.xlsx (a workbook) to decide {them}"


def _no_output(request: VerifyRequest) -> str | None:
    """What a run that keeps its results nowhere (no -o, no store) says after its summary; None for the others."""
    if request.outputs or request.store_target is not None or request.record:
        return None
    return ("no -o given, so no results were written: add -o results.html (the review page), -o results.xlsx "
            "(a workbook) or -o results.jsonl; -o - writes them to standard output as JSONL")


def _verify_paths(request: VerifyRequest) -> tuple[Path, ...]:
    """DOCS... QUOTES as given, or a QDA project's coded segments with its own sources."""
    paths = request.paths
    if len(paths) == 1 and paths[0].suffix.lower() == ".qdpx":
        paths = (paths[0], paths[0])
    if len(paths) < 2:
        raise InputError("give the documents (files or folders) and then the quote table, "
                         "e.g. quoteverify verify transcripts/ quotes.csv -o results.xlsx")
    if request.store_target is not None and request.record:
        raise InputError("give --store TARGET or --record (the default store), not both")
    return paths


def _language_code(code: str) -> str:
    """A --language option as a code, or an error naming what to give."""
    if code.strip().lower() not in known_codes() | {AUTO}:
        raise InputError(f"--language {code!r} is not a language code; give auto or an ISO 639-1 code such as "
                         "de, fr, en")
    return code.strip().lower()


def _verify_config(request: VerifyRequest) -> Config:
    """The config of a verify run: the file, overridden by the command's options."""
    overrides: dict = {"embed": {"enabled": False}} if request.no_embed else {}
    named = request.named_columns
    if any(named.values()):
        overrides["columns"] = {k: v for k, v in named.items() if v}
    if request.language is not None:
        overrides["language"] = {"code": _language_code(request.language)}
    manuscript = {"notes": request.notes, "verified_notes": request.verified_notes,
                  "fixes": False if request.no_fixes else None}
    if any(v is not None for v in manuscript.values()):
        overrides["manuscript"] = {k: v for k, v in manuscript.items() if v is not None}
    config = load_config(request.config_path, overrides or None)
    if request.quiet:
        # Read by huggingface_hub when transformers is first imported: no "Loading weights" bar either.
        os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    return config


def _load_quotes(request: VerifyRequest, path: Path, config: Config, console: Console,
                 manuscript: Manuscript | None = None) -> tuple[LoadedQuotes, bool]:
    """The quote table (a manuscript's quotes), and whether its columns were described yet."""
    quotes = manuscript.quotes if manuscript is not None else load_quotes(
        path, sheet=request.sheet, columns=vars(config.columns), limits=ArchiveLimits.of(config))
    # Said at once when a column was named, or when some are read as nothing (a "Participant" column
    # that is not the speaker's would otherwise pass silently); else with the summary.
    columns_said = any(request.named_columns.values()) or bool(quotes.unread_columns)
    if quotes.used and not request.quiet and columns_said:
        console.say(quotes.describe_columns())
    if quotes.info and not request.quiet:
        console.say(quotes.info)
    return quotes, columns_said


def _held(request: VerifyRequest, checked_at: datetime, config: Config) -> tuple[Held, ...]:
    """The outputs that already hold a reviewer's decisions: each is carried or kept, never lost."""
    found = (held_decisions(o, when=checked_at, limits=ArchiveLimits.of(config)) for o in request.outputs)
    return tuple(h for h in found if h is not None)


def _previous(request: VerifyRequest, held: tuple[Held, ...], config: Config) -> tuple[Review | None, Path | None]:
    """The decisions to carry and where they come from: --previous, else an output that holds some (a workbook
    reviewed since the last run, written over by this one)."""
    if request.previous is not None:
        return read_previous(request.previous, limits=ArchiveLimits.of(config)), request.previous
    return _held_review(held)


def _held_review(held: Sequence[Held]) -> tuple[Review | None, Path | None]:
    """The decisions to carry of those outputs hold, and which output: the workbook first."""
    for h in sorted(held, key=lambda h: h.path.suffix.lower() != ".xlsx"):
        if h.review.has_fingerprints:
            return h.review, h.path
    return None, None


def _say_held(held: tuple[Held, ...], previous: Path | None, console: Console) -> None:
    for h in held:
        console.say(h.said(carried=h.path == previous, previous=previous))


def _carry(result: Run, review: Review | None, previous: Path | None, *, quiet: bool, console: Console) -> None:
    """--previous: the reviewer's decisions carried into this run's results."""
    if review is None or previous is None:
        return
    carried = carry_decisions(result.results, review)
    result.results = carried.results
    if not quiet:
        console.say(carried.summary(previous))
    _warn(console, carried.warnings(previous, len(review.quotes)))


def _record(store: Store | None, result: Run, checked_at: datetime, *, quiet: bool, console: Console) -> None:
    if store is None:
        return
    with store:
        run_id = store.record(result, time=checked_at)
    if not quiet:
        console.say(f"Recorded as run {run_id} in {store.location}")


def _fail_on(results: Sequence[QuoteResult], fail_on: str | None, console: Console) -> int:
    """1, naming the quotes that tripped --fail-on, if any did; else 0."""
    if fail_on is None:
        return 0
    failing = ("unverified",) if fail_on == "unverified" else ("review", "unverified")
    tripped = [r for r in results if r.status in failing]
    if not tripped:
        return 0
    named = ", ".join(f"{r.quote_id} (row {r.row}, {r.status})" for r in tripped[:FAIL_ON_SHOWN])
    more = f" and {len(tripped) - FAIL_ON_SHOWN} more" if len(tripped) > FAIL_ON_SHOWN else ""
    console.say(f"Failed (--fail-on {fail_on}): {plural(len(tripped), 'quote')}: {named}{more}")
    return 1


@dataclass(frozen=True)
class _Prepared:
    """What a verify run has read and opened before the (long) run starts."""
    paths: tuple[Path, ...]
    config: Config
    quotes: LoadedQuotes
    columns_said: bool
    review: Review | None
    previous: Path | None  # where ``review`` was read: --previous, or an output that holds decisions
    held: tuple[Held, ...]  # outputs holding decisions, kept beside them when replaced
    store: Store | None
    run: Callable[..., Run]  # the pipeline, here or on a cluster
    checked_at: datetime
    manuscript: Manuscript | None = None  # QUOTES, when it is the author's draft


def _check_verify_outputs(request: VerifyRequest, paths: tuple[Path, ...]) -> None:
    """Refuse, before the run, an output of verify that would replace what it reads or land among its documents."""
    guard = Guard().read_all(paths[:-1], "a document")
    draft = paths[-1] if paths[-1].suffix.lower() in MANUSCRIPT_FORMATS else None
    guard.read(paths[-1], "the manuscript" if draft else "the quote table").read(request.config_path, "the config")
    if request.previous is not None and all(o.resolve() != request.previous.resolve() for o in request.outputs):
        guard.read(request.previous, "the previous review")  # as an output too, it is read first and kept
    if request.store_target is not None or request.record:
        store = store_file(request.store_target)
        guard.check(store, option="--store" if request.store_target is not None else "--record", writable=False)
        guard.read(store, "the audit store")
    for output in _files(request.outputs):
        if output.suffix.lower() in MANUSCRIPT_FORMATS:
            check_checked_output(output, draft)
        guard.check(output, option="-o", suffixes=(*FORMATS, *([draft.suffix.lower()] if draft else [])))
    guard.check(request.manifest_path, option="--manifest")
    guard.check(request.findings_path, option="--findings", suffixes=FINDINGS_FORMATS)
    guard.check(request.report_path, option="--report", suffixes=REPORT_FORMATS)
    guard.check(request.cards_path, option="--cards", suffixes=CARDS_FORMATS)
    guard.check(request.cache_dir, option="--cache-dir", writable=False)


def _prepare(request: VerifyRequest, paths: tuple[Path, ...], checked_at: datetime, console: Console) -> _Prepared:
    """Everything that can fail before the run, checked before it: outputs, config, quotes, --previous, store."""
    # Outputs first: a typo in a path must fail before the (long) run, and no input is ever overwritten
    # (--previous may be an output: it is read first, and kept beside it when replaced).
    _check_verify_outputs(request, paths)
    run: Callable[..., Run] = (stages.run if request.cluster is None
                               else partial(run_on_cluster, cluster=parse_cluster(request.cluster)))
    config = _verify_config(request)
    manuscript = _manuscript(request, paths[-1], config)
    quotes, columns_said = _load_quotes(request, paths[-1], config, console, manuscript)
    # Read before the (long) run so that a bad workbook or store fails at once.
    held = _held(request, checked_at, config)
    review, previous = _previous(request, held, config)
    store = (open_store(request.store_target, busy_seconds=config.store.busy_seconds)
             if request.store_target is not None or request.record else None)
    return _Prepared(paths, config, quotes, columns_said, review, previous, held, store, run, checked_at, manuscript)


def _manuscript(request: VerifyRequest, path: Path, config: Config) -> Manuscript | None:
    """QUOTES read as the author's draft (.docx, .md, .tex); None for a quote table. A checked manuscript asked
    for needs the draft itself, not one checked before."""
    if path.suffix.lower() not in MANUSCRIPT_FORMATS:
        return None
    limits = ArchiveLimits.of(config)
    fits = {"footnote": ".md", "todo": ".tex"}.get(request.notes or "")
    if fits and path.suffix.lower() != fits:
        raise InputError(f"--notes {request.notes} is for a {fits} draft, not {path}; leave it out (comments)")
    manuscript = read_manuscript(path, min_words=config.extract.min_words, limits=limits)
    if any(o.suffix.lower() in MANUSCRIPT_FORMATS for o in request.outputs):
        checked_already(path, author=config.manuscript.author, limits=limits)
    return manuscript


def _write_manuscripts(outputs: Sequence[Path], manuscript: Manuscript | None, result: Run, when: datetime, *,
                       cache_dir: Path | None, quiet: bool, console: Console) -> None:
    """Each checked manuscript among ``outputs``: a note at every quote, and its fixes (checked again first)."""
    outputs = [o for o in outputs if o.suffix.lower() in MANUSCRIPT_FORMATS]
    if not outputs or manuscript is None:
        return
    settings = result.config.manuscript
    spots = manuscript.spots
    fixes = propose_fixes(result, spots, edits=manuscript.path.suffix.lower() == ".docx",
                          cache_dir=cache_dir) if settings.fixes else {}
    entries = [Entry(r, spots[r.quote_id], fixes.get(r.quote_id)) for r in result.results if r.quote_id in spots]
    options = NoteOptions(settings.notes, settings.verified_notes, settings.fixes,  # type: ignore[arg-type]
                          settings.author, when)
    for output in outputs:
        written = write_checked(output, manuscript.path, entries, options=options,
                                limits=ArchiveLimits.of(result.config))
        if not quiet:
            console.say(written.summary())
        _warn(console, [f"{output}: {warning}" for warning in written.warnings])


def _run(request: VerifyRequest, ready: _Prepared, console: Console) -> Run:
    """The run, its warnings said, and the --previous decisions carried into it."""
    cache_dir = None if request.no_cache else _usable_cache(request.cache_dir or default_cache_dir(), console)
    result = ready.run(list(ready.paths[:-1]), ready.quotes, ready.config, progress=console.progress,
                       cache_dir=cache_dir)
    _warn(console, result.warnings)
    _say_held(ready.held, ready.previous, console)
    _carry(result, ready.review, ready.previous, quiet=request.quiet, console=console)
    return result


def _write(request: VerifyRequest, ready: _Prepared, result: Run, console: Console) -> None:
    """Every output asked for, and the run recorded in the store."""
    _write_outputs(result, request.outputs, console)
    cache_dir = None if request.no_cache else request.cache_dir or default_cache_dir()
    _write_manuscripts(request.outputs, ready.manuscript, result, ready.checked_at, quiet=request.quiet,
                       cache_dir=cache_dir, console=console)
    if request.manifest_path is not None:
        repeat.write_manifest(request.manifest_path, result, quotes_path=ready.paths[-1],
                                   sheet=request.sheet, outputs=_files(request.outputs), command=request.command)
    _write_findings(request, result.results, ready.checked_at, console)
    _record(ready.store, result, ready.checked_at, quiet=request.quiet, console=console)


def verify(request: VerifyRequest, console: Console) -> Outcome:
    """``quoteverify verify``: check the quotes against the documents, write the outputs, say the summary;
    exit status 1 when --fail-on is hit."""
    paths = _verify_paths(request)
    started = time.perf_counter()
    checked_at = datetime.now(timezone.utc)
    written: OutputTransaction | None = None
    try:
        ready = _prepare(request, paths, checked_at, console)
        result = _run(request, ready, console)
        # One transaction: every output complete, and the run recorded, before any file is replaced.
        with output_transaction() as written:
            for held in ready.held:
                written.keep(held.path, held.backup)
            _write(request, ready, result, console)
    except KeyboardInterrupt:
        raise _interrupted(written) from None
    if written is not None and written.interrupted:
        raise _interrupted(written)
    if not request.quiet:
        if ready.quotes.used and not ready.columns_said:
            console.say(ready.quotes.describe_columns())
        _summary(result, started, console)
    if (nowhere := _no_output(request)) is not None:
        console.say(f"Warning: {nowhere}" if request.quiet else nowhere[0].upper() + nowhere[1:])
    if not request.quiet:
        _wrote(request, result.results, console)
    return Outcome(_fail_on(result.results, request.fail_on, console), result)


@dataclass(frozen=True)
class RerunRequest:
    """The options of ``quoteverify rerun``."""
    manifest_path: Path
    outputs: tuple[Path, ...] = ()
    new_manifest: Path | None = None
    allow_changed: bool = False
    command: str = ""  # the command line, for the new manifest


def _rerun_inputs(request: RerunRequest, manifest: Manifest, console: Console) -> tuple[Path, ...]:
    """Refuse a rerun on changed inputs unless allowed; the outputs to write, checked."""
    base = request.manifest_path.parent
    changes = repeat.changed_inputs(manifest, base=base)
    for change in changes:
        console.say(f"Changed: {change}")
    if changes and not request.allow_changed:
        raise InputError(f"{plural(len(changes), 'input')} changed since {request.manifest_path} was written, so "
                         "this would not be the same run; nothing was run. Restore them, or pass --allow-changed "
                         "to run on the files as they are")
    if manifest.tool_version != __version__:
        console.say(f"Warning: {request.manifest_path} was written by quoteverify {manifest.tool_version}; "
                    f"this is {__version__}, whose results may differ")
    outputs = request.outputs or repeat.recorded_outputs(manifest, base=base, source=request.manifest_path)
    guard = Guard().read(request.manifest_path, "the manifest")
    guard.read_all(repeat.document_paths(manifest, base), "a document")
    draft = _recorded_draft(manifest, base)
    guard.read(base / manifest.quotes.path if manifest.quotes else None,
               "the manuscript" if draft else "the quote table")
    for output in _files(outputs):
        if output.suffix.lower() in MANUSCRIPT_FORMATS:
            check_checked_output(output, draft)
        guard.check(output, option="-o" if request.outputs else "the recorded output",
                    suffixes=(*FORMATS, *([draft.suffix.lower()] if draft else [])))
    guard.check(request.new_manifest, option="--manifest")
    return outputs


def _recorded_draft(manifest: Manifest, base: Path) -> Path | None:
    """The draft a manifest records as its quotes (a checked manuscript's), or None for a quote table."""
    quotes = base / manifest.quotes.path if manifest.quotes else None
    return quotes if quotes is not None and quotes.suffix.lower() in MANUSCRIPT_FORMATS else None


def rerun(request: RerunRequest, console: Console) -> Outcome:
    """``quoteverify rerun``: repeat the run a manifest records and say whether the results are the same."""
    started = time.perf_counter()
    written: OutputTransaction | None = None
    base = request.manifest_path.parent
    try:
        manifest = read_manifest(request.manifest_path)
        outputs = _rerun_inputs(request, manifest, console)
        result = repeat.rerun(manifest, base=base, progress=console.progress)
        _warn(console, result.warnings)
        # The decisions an output holds (the recorded run's, or a review since) are carried into the rerun's
        # results, as verify carries them, and the old file is kept beside the new one: no decision is lost.
        held = tuple(h for h in (held_decisions(o, when=datetime.now(timezone.utc)) for o in _files(outputs))
                     if h is not None)
        review, source = _held_review(held)
        for h in held:
            console.say(h.said(carried=h.path == source, previous=source, repeat=True))
        _carry(result, review, source, quiet=False, console=console)
        with output_transaction() as written:
            for h in held:
                written.keep(h.path, h.backup)
            _write_outputs(result, outputs, console)
            draft = _recorded_draft(manifest, base)
            _write_manuscripts(outputs, read_manuscript(draft, min_words=result.config.extract.min_words)
                               if draft else None, result, datetime.now(timezone.utc), cache_dir=None, quiet=False,
                               console=console)
            if request.new_manifest is not None:
                table = manifest.quotes
                repeat.write_manifest(request.new_manifest, result,
                                           quotes_path=base / table.path if table else None,
                                           sheet=(table.sheet or None) if table else None, outputs=_files(outputs),
                                           command=request.command)
    except KeyboardInterrupt:
        raise _interrupted(written) from None
    if written is not None and written.interrupted:
        raise _interrupted(written)
    _summary(result, started, console)
    for line in repeat.compare_with_recorded(manifest, result.results).lines(source):
        console.say(line)
    return Outcome(0, result)


@dataclass(frozen=True)
class RecheckRequest:
    """The options of ``quoteverify recheck``."""
    run_id: int
    paths: tuple[Path, ...]
    output: Path
    store_target: str | None = None
    below: float = RECHECK_BELOW


def recheck(request: RecheckRequest, console: Console) -> Outcome:
    """``quoteverify recheck``: check a recorded run's low-confidence quotes again; write the escalations."""
    try:
        guard = Guard().read_all(request.paths, "a document")
        guard.read(store_file(request.store_target), "the audit store")
        guard.check(request.output, option="-o", suffixes=ESCALATION_FORMATS)
        with open_store(request.store_target, create=False) as store:
            checked = repeat.recheck(store, request.run_id, list(request.paths), below=request.below,
                                          cache_dir=default_cache_dir(), progress=console.progress)
        for change in checked.changed_documents:
            console.say(f"Changed since run {request.run_id}: {change}")
        write_escalation(request.output, checked.escalations)
    except KeyboardInterrupt:
        raise Interrupted() from None
    console.say(f"Rechecked {checked.rechecked} quotes of run {request.run_id} below {request.below:g}: "
                f"{len(checked.escalations)} still below, written to {request.output}")
    return Outcome()


@dataclass(frozen=True)
class ReviewRequest:
    """The options of ``quoteverify review``."""
    workbook: Path
    output: Path | None = None


def review(request: ReviewRequest, console: Console) -> Outcome:
    """``quoteverify review``: the decisions of a reviewed workbook out as a file; its problem rows said."""
    Guard().read(request.workbook, "the reviewed workbook").check(request.output, option="-o",
                                                                  suffixes=REVIEW_FORMATS)
    reviewed = read_review(request.workbook)
    if request.output is not None:
        # An output that holds other decisions (an earlier review, a page's decisions file) is kept beside it.
        held = held_decisions(request.output, when=datetime.now(timezone.utc))
        if held is not None and held.path.read_bytes() != review_bytes(reviewed, suffix=held.path.suffix.lower()):
            console.say(f"{held.path} holds the decisions or notes of {plural(held.decided, 'quote')}; when it is "
                        f"replaced, the old file is kept as {held.backup}")
        else:
            held = None
        with output_transaction() as written:
            if held is not None:
                written.keep(held.path, held.backup)
            write_review(request.output, reviewed)
    else:
        console.write(review_bytes(reviewed, suffix=".jsonl"))
    console.say(reviewed.summary())
    problems = reviewed.problems
    for quote in problems[:REVIEW_SHOWN]:
        console.say(f"  {quote.cell} (quote_id {quote.quote_id}): {quote.problem}")
    if len(problems) > REVIEW_SHOWN:
        console.say(f"  ... and {len(problems) - REVIEW_SHOWN} more; every row is in the output, with its problem")
    return Outcome()


@dataclass(frozen=True)
class ReportRequest:
    """The options of ``quoteverify report``."""
    results_path: Path
    output: Path
    title: str = "quoteverify review"


def report(request: ReportRequest, console: Console) -> Outcome:
    """``quoteverify report``: the review page of a run's JSONL."""
    Guard().read(request.results_path, "the results").check(request.output, option="-o", suffixes=PAGE_FORMATS)
    results = load_results(request.results_path)
    write_page(request.output, results, title=request.title)
    console.say(f"{request.output}: review page of {len(results)} quotes")
    return Outcome()


@dataclass(frozen=True)
class AppendixRequest:
    """The options of ``quoteverify appendix``."""
    results_path: Path
    manifest_path: Path
    output: Path | None = None
    decisions: Path | None = None


def appendix(request: AppendixRequest, console: Console) -> Outcome:
    """``quoteverify appendix``: the methods paragraph and table of quotes, to a file or as Markdown text; the
    decisions counted are those the results hold, or those of ``--decisions`` (a review since the run)."""
    guard = Guard().read(request.results_path, "the results").read(request.manifest_path, "the manifest")
    guard.read(request.decisions, "the decisions")
    guard.check(request.output, option="-o", suffixes=APPENDIX_FORMATS)
    manifest = read_manifest(request.manifest_path)
    results = read_results(request.results_path, manifest=manifest)
    if request.decisions is not None:
        carried = carry_decisions(results, read_previous(request.decisions))
        results = carried.results
        console.say(carried.summary(request.decisions))
    elif not any(r.decision for r in results) and any(r.status != "verified" for r in results):
        console.say(f"{request.results_path} holds no decisions, so the appendix counts none; --decisions "
                    "results.xlsx counts those of a workbook reviewed since the run")
    findings = summarize_findings(results)
    name = request.manifest_path.name
    if request.output is not None:
        write_appendix(request.output, results, manifest, manifest_name=name, findings=findings)
    else:
        console.echo(render_appendix(results, manifest, manifest_name=name, findings=findings))
    return Outcome()


@dataclass(frozen=True)
class ExtractRequest:
    """The options of ``quoteverify extract``."""
    manuscript: Path
    output: Path | None = None
    min_words: int | None = None
    config_path: Path | None = None


def extract(request: ExtractRequest, console: Console) -> Outcome:
    """``quoteverify extract``: the quotes of a manuscript as a quote table."""
    guard = Guard().read(request.manuscript, "the manuscript").read(request.config_path, "the config")
    guard.check(request.output, option="-o", suffixes=QUOTE_TABLE_FORMATS)
    config = load_config(request.config_path,
                         {"extract": {"min_words": request.min_words}} if request.min_words is not None else None)
    extraction = extract_quotes(request.manuscript, min_words=config.extract.min_words,
                                limits=ArchiveLimits.of(config))
    for warning in extraction.warnings:
        console.say(f"Warning: {warning}")
    if request.output is not None:
        write_quotes(request.output, extraction)
    else:
        console.write(quotes_csv_bytes(extraction))
    console.say(extraction.summary())
    return Outcome()


@dataclass(frozen=True)
class RunsRequest:
    """The options of ``quoteverify runs``."""
    store_target: str | None = None


def runs(request: RunsRequest, console: Console) -> Outcome:
    """``quoteverify runs``: the runs recorded in the audit store as a table, oldest first."""
    with open_store(request.store_target, create=False) as store:
        recorded = store.runs()
    if not recorded:
        console.say(f"No runs recorded in {store.location}.")
        return Outcome()
    console.echo(f"{'run':>5}  {'time (UTC)':<25}  {'version':<8}  {'quotes':>6}  {'verified':>8}  {'review':>6}  "
                 f"{'unverified':>10}  {'documents':>9}  embedder\n")
    for r in recorded:
        console.echo(f"{r.run_id:>5}  {r.time:<25}  {r.version:<8}  {r.quotes:>6}  {r.verified:>8}  "
                     f"{r.review:>6}  {r.unverified:>10}  {len(r.corpus):>9}  {r.embedder or 'none'}\n")
    return Outcome()
