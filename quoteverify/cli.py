"""Command line: argument parsing and printing only; the work is in the library."""
from __future__ import annotations

import os
import shlex
import sys
import time
from collections.abc import Iterable
from datetime import datetime, timezone
from functools import partial
from pathlib import Path
from typing import Any

import click

from . import __version__, application, load, pipeline
from .archive import ArchiveLimits
from .cache import default_dir as default_cache_dir
from .cluster import parse_cluster, run_on_cluster
from .config import load_config
from .errors import QuoteverifyError
from .export import write_results
from .export.appendix import read_results, render_appendix, write_appendix
from .export.escalation import ESCALATION_FORMATS, write_escalation
from .export.findings import CARDS_FORMATS, FINDINGS_FORMATS, REPORT_FORMATS, write_cards, write_findings, write_report
from .export.page import PAGE_FORMATS, load_results, write_page
from .export.tables import FORMATS, check_output_path, jsonl_bytes
from .extract import csv_bytes, extract_quotes, write_quotes
from .findings import claim_cards, summarize_findings
from .language import AUTO, known_codes
from .manifest import read_manifest, results_sha256
from .review import carry_decisions, read_previous, read_review, review_bytes, write_review
from .store import RECHECK_BELOW, open_store
from .transaction import output_transaction
from .types import count_by_status
from .wording import plural

FAIL_ON = ("review", "unverified")


def _fail(message: str) -> None:
    click.echo("Error: " + " ".join(message.splitlines()), err=True)  # one line, whatever the library said
    sys.exit(2)


def _language_code(code: str) -> str:
    if code.strip().lower() not in known_codes() | {AUTO}:
        _fail(f"--language {code!r} is not a language code; give auto or an ISO 639-1 code such as de, fr, en")
    return code.strip().lower()


class _Group(click.Group):
    """The one place where errors become messages: a QuoteverifyError (bad input, a refused output) and any
    unexpected OSError (a folder that cannot be listed, a full disk) end as a one-line error with exit code 2,
    not as a traceback."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            raise  # click ends quietly when stdout is closed (quoteverify verify ... | head)
        except QuoteverifyError as exc:
            _fail(str(exc))
        except OSError as exc:
            _fail(f"{exc.filename}: {exc.strerror}" if exc.filename and exc.strerror else str(exc))


# Warnings printed by a run; a messy table can have thousands (one per duplicate quote_id).
WARNINGS_SHOWN = 50


def _warn(warnings: list[str]) -> None:
    for warning in warnings[:WARNINGS_SHOWN]:
        click.echo(f"Warning: {warning}", err=True)
    if len(warnings) > WARNINGS_SHOWN:
        click.echo(f"Warning: ... and {len(warnings) - WARNINGS_SHOWN} more (all in the manifest, with "
                   "--manifest)", err=True)


def _usable_cache(folder: Path) -> Path | None:
    """The cache folder, or None with a warning when it cannot be created: no run fails for its cache."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        click.echo(f"Warning: cache folder {folder} cannot be used ({exc.strerror}); running without a cache",
                   err=True)
        return None
    return folder


class _Progress:
    """A progress bar on stderr, shown only when stderr is a terminal.

    It is told how many quotes are done, not that one more is: parallel workers
    report in batches, and the quotes settled by the exact fast path all at once."""

    def __init__(self, enabled: bool, file=None):
        self.enabled = enabled
        self.file = file
        self.bar: Any = None  # a click progress bar, once there are enough quotes to show one

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled or total < 20:
            return
        if self.bar is None:
            self.bar = click.progressbar(length=total, label="verifying", file=self.file or sys.stderr)
            self.bar.__enter__()
        if done > self.bar.pos:
            self.bar.update(done - self.bar.pos)
        if done >= total:
            self.bar.__exit__(None, None, None)
            self.enabled = False


def _interrupted(written) -> None:
    """Ctrl-C: say truly what was written. The renames at the end are not interrupted, so either
    every output of the run was replaced or none was."""
    if written is not None and written.replaced:
        click.echo("Interrupted after the run was complete; all its outputs were written.", err=True)
    else:
        click.echo("Interrupted; no output was written or replaced.", err=True)
    sys.exit(130)


def _command_line() -> str:
    return shlex.join(["quoteverify", *sys.argv[1:]])


def _write_outputs(result, outputs: tuple[Path, ...]) -> None:
    """Write each output in the format its extension names; JSONL to stdout when there is none."""

    findings = summarize_findings(result.results)
    for output in outputs:
        write_results(output, result.results, run=result, findings=findings)
    if not outputs:
        sys.stdout.buffer.write(jsonl_bytes(result.results))


def _write_findings(results, *, findings_path: Path | None, report_path: Path | None, cards_path: Path | None,
                    checked_at) -> None:
    """The findings table, report and claim cards that were asked for."""

    if findings_path is None and report_path is None and cards_path is None:
        return
    summary = summarize_findings(results)
    for warning in summary.warnings:
        click.echo(f"Warning: {warning}", err=True)
    if not summary.findings:
        click.echo("Warning: no quote names a finding (QUOTES has no 'finding' column, or it is empty); "
                   "the findings outputs list none", err=True)
    if findings_path is not None:
        write_findings(findings_path, summary.findings)
    if report_path is not None:
        write_report(report_path, results, summary)
    if cards_path is not None:
        write_cards(cards_path, claim_cards(results, checked_at=checked_at))


STORE_HELP = ("The audit store: a SQLite file or a database URL such as postgresql://user@host/db "
              "(default: $XDG_DATA_HOME/quoteverify/runs.sqlite or ~/.local/share/quoteverify/runs.sqlite).")


def _summary(result, started: float) -> dict[str, int]:
    counts = count_by_status(result.results)
    elapsed = time.perf_counter() - started
    click.echo(f"{len(result.results)} quotes: {counts['verified']} verified, {counts['review']} review, "
               f"{counts['unverified']} unverified ({elapsed:.1f} s)", err=True)
    return counts


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="quoteverify")
def main() -> None:
    """Check quotes against their sources: is each really there, where, and how does it differ?"""


@main.command()
@click.argument("paths", metavar="DOCS... QUOTES", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("-o", "--output", "outputs", multiple=True, type=click.Path(path_type=Path),
              help="Write results here; the format follows the extension (.jsonl, .csv, .xlsx, or .html for "
                   "the review page). "
                   "Repeat for several files. Without -o, JSONL goes to stdout.")
@click.option("--quote-col", metavar="NAME", help="The quote table's column holding the quotes "
              "(default: quote, text, quotation, quote_text or content).")
@click.option("--id-col", metavar="NAME", help="Its column of quote ids (default: quote_id, id or qid).")
@click.option("--doc-col", metavar="NAME", help="Its column naming the document each quote claims "
              "(default: document, source, doc, doc_id, claimed_document, source_document or transcript).")
@click.option("--speaker-col", metavar="NAME", help="Its column naming the speaker each quote claims "
              "(default: speaker, participant or claimed_speaker).")
@click.option("--finding-col", metavar="NAME", help="Its column naming the finding each quote supports "
              "(default: finding, theme, claim, tag or code).")
@click.option("-q", "--quiet", is_flag=True, help="Print only warnings and errors: no progress bar, no summary.")
@click.option("--config", "config_path", type=click.Path(path_type=Path),
              help="YAML file overriding configs/default.yaml key by key.")
@click.option("--no-embed", is_flag=True, help="Skip sentence embeddings; verdicts use lexical evidence only.")
@click.option("--language", metavar="CODE",
              help="The language of every document and quote (an ISO 639-1 code such as de), instead of detecting "
                   "it; a language column of the quote table still wins row by row. Default: auto.")
@click.option("--fail-on", type=click.Choice(FAIL_ON),
              help="Exit with code 1 if any quote is unverified (or, with 'review', needs review or is unverified).")
@click.option("--sheet", help="Sheet of an .xlsx quote table to read (default: the first).")
@click.option("--cache-dir", type=click.Path(path_type=Path),
              help="Cache folder for prepared documents, the BM25 index and embeddings "
                   "(default: $XDG_CACHE_HOME/quoteverify or ~/.cache/quoteverify).")
@click.option("--no-cache", is_flag=True, help="Neither read nor write the cache.")
@click.option("--cluster", metavar="local[:N]|tcp://HOST:PORT",
              help="Check the quotes on a Dask cluster: 'local:N' starts N worker processes here, "
                   "'tcp://HOST:PORT' uses a running scheduler. Same results as without; needs "
                   "pip install 'quoteverify[dask]'.")
@click.option("--previous", type=click.Path(path_type=Path),
              help="A reviewed triage workbook (or a decisions file saved by the review page, .json or .csv) "
                   "from an earlier run; its decisions and notes are carried "
                   "over to the quotes whose text and located span are unchanged.")
@click.option("--manifest", "manifest_path", type=click.Path(path_type=Path),
              help="Also write a run manifest (JSON) here: version, config, model, package versions, the sha256 "
                   "of every input, counts. 'quoteverify rerun FILE' repeats the run from it.")
@click.option("--findings", "findings_path", type=click.Path(path_type=Path),
              help="Also write one row per finding here (.csv or .jsonl): its quotes by status, and its "
                   "confidence adjusted for the quotes that could not be located.")
@click.option("--report", "report_path", type=click.Path(path_type=Path),
              help="Also write a Markdown report (.md) of the findings and their quotes, each unverified quote "
                   "marked (unverified).")
@click.option("--cards", "cards_path", type=click.Path(path_type=Path),
              help="Also write a claim card per finding (.jsonl): SUPPORTED, REFUTED or NOT ENOUGH INFO, with "
                   "its evidence.")
@click.option("--store", "store_target", metavar="TARGET",
              help="Record the run in this audit store: a SQLite file (created on first use) or a database URL "
                   "such as postgresql://user@host/db.")
@click.option("--record", is_flag=True,
              help="Record the run in the default audit store ($XDG_DATA_HOME/quoteverify/runs.sqlite or "
                   "~/.local/share/quoteverify/runs.sqlite).")
def verify(paths: tuple[Path, ...], outputs: tuple[Path, ...], config_path: Path | None, no_embed: bool,
           fail_on: str | None, sheet: str | None, previous: Path | None, manifest_path: Path | None,
           cache_dir: Path | None = None, no_cache: bool = False, findings_path: Path | None = None,
           report_path: Path | None = None, cards_path: Path | None = None, store_target: str | None = None,
           record: bool = False, quote_col: str | None = None, id_col: str | None = None,
           doc_col: str | None = None, speaker_col: str | None = None, finding_col: str | None = None,
           quiet: bool = False, language: str | None = None, cluster: str | None = None) -> None:
    """Verify the quotes in QUOTES against the documents DOCS (files or folders).

    A REFI-QDA project (.qdpx) can be DOCS (its sources), QUOTES (its coded
    segments) or both: given alone, its coded segments are checked against
    its own sources.

    \b
    quoteverify verify DOCS... QUOTES -o results.xlsx -o results.jsonl
    quoteverify verify project.qdpx -o coded.xlsx
    """
    paths = _verify_paths(paths, store_target=store_target, record=record)
    started = time.perf_counter()
    checked_at = datetime.now(timezone.utc)
    written = None
    try:
        # Outputs first: a typo in a path must fail before the (long) run, and no input is ever overwritten.
        inputs = [*paths, *(p for p in (config_path, previous) if p is not None)]
        _check_outputs(inputs, [*((o, FORMATS) for o in outputs), (manifest_path, None)])
        run = pipeline.run if cluster is None else partial(run_on_cluster, cluster=parse_cluster(cluster))
        named = {"quote": quote_col, "quote_id": id_col, "document": doc_col, "speaker": speaker_col,
                 "finding": finding_col}
        config = _verify_config(config_path, no_embed=no_embed, named=named, language=language, quiet=quiet)
        quotes, columns_said = _load_quotes(paths[-1], sheet, config, named=any(named.values()), quiet=quiet)
        # Read before the (long) run so that a bad workbook or store fails at once.
        review = read_previous(previous, limits=ArchiveLimits.of(config)) if previous else None
        _check_outputs(inputs, [(findings_path, FINDINGS_FORMATS), (report_path, REPORT_FORMATS),
                                (cards_path, CARDS_FORMATS)])
        store = (_open_store(store_target, busy_seconds=config.store.busy_seconds)
                 if store_target is not None or record else None)
        result = run(list(paths[:-1]), quotes, config, progress=_Progress(sys.stderr.isatty() and not quiet),
                     cache_dir=None if no_cache else _usable_cache(cache_dir or default_cache_dir()))
        _warn(result.warnings)
        _carry(result, review, previous, quiet=quiet)
        # One transaction: every output complete, and the run recorded, before any file is replaced.
        with output_transaction() as written:
            _write_outputs(result, outputs)
            if manifest_path is not None:
                application.write_manifest(manifest_path, result, quotes_path=paths[-1], sheet=sheet,
                                           outputs=outputs, command=_command_line())
            _write_findings(result.results, findings_path=findings_path, report_path=report_path,
                            cards_path=cards_path, checked_at=checked_at)
            _record(store, result, checked_at, quiet=quiet)
    except KeyboardInterrupt:
        _interrupted(written)
    if written is not None and written.interrupted:
        _interrupted(written)
    if not quiet:
        if quotes.used and not columns_said:
            click.echo(quotes.describe_columns(), err=True)
        _summary(result, started)
    _check_fail_on(result.results, fail_on)


def _verify_paths(paths: tuple[Path, ...], *, store_target: str | None, record: bool) -> tuple[Path, ...]:
    """DOCS... QUOTES as given, or a QDA project's coded segments with its own sources."""
    if len(paths) == 1 and paths[0].suffix.lower() == ".qdpx":
        paths = (paths[0], paths[0])
    if len(paths) < 2:
        _fail("give the documents (files or folders) and then the quote table, "
              "e.g. quoteverify verify transcripts/ quotes.csv -o results.xlsx")
    if store_target is not None and record:
        _fail("give --store TARGET or --record (the default store), not both")
    return paths


def _load_quotes(path: Path, sheet: str | None, config, *, named: bool, quiet: bool):
    """The quote table, and whether its columns were described yet."""
    quotes = load.load_quotes(path, sheet=sheet, columns=vars(config.columns), limits=ArchiveLimits.of(config))
    # Said at once when a column was named, or when some are read as nothing (a "Participant" column
    # that is not the speaker's would otherwise pass silently); else with the summary.
    columns_said = named or bool(quotes.unread_columns)
    if quotes.used and not quiet and columns_said:
        click.echo(quotes.describe_columns(), err=True)
    if quotes.info and not quiet:
        click.echo(quotes.info, err=True)
    return quotes, columns_said


def _check_outputs(inputs: list[Path], outputs: list[tuple[Path | None, Iterable[str] | None]]) -> None:
    for path, suffixes in outputs:
        if path is not None:
            check_output_path(path, inputs=inputs, suffixes=suffixes)


def _verify_config(config_path: Path | None, *, no_embed: bool, named: dict[str, str | None], language: str | None,
                   quiet: bool):
    """The config of a verify run: the file, overridden by the command's options."""
    overrides: dict = {"embed": {"enabled": False}} if no_embed else {}
    if any(named.values()):
        overrides["columns"] = {k: v for k, v in named.items() if v}
    if language is not None:
        overrides["language"] = {"code": _language_code(language)}
    config = load_config(config_path, overrides or None)
    if quiet:
        # Read by huggingface_hub when transformers is first imported: no "Loading weights" bar either.
        os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    return config


def _carry(result, review, previous: Path | None, *, quiet: bool) -> None:
    """--previous: the reviewer's decisions carried into this run's results."""
    if review is None or previous is None:
        return
    carried = carry_decisions(result.results, review)
    result.results = carried.results
    if not quiet:
        click.echo(carried.summary(previous), err=True)
    _warn(carried.warnings(previous, len(review.quotes)))


def _record(store, result, checked_at: datetime, *, quiet: bool) -> None:
    if store is None:
        return
    with store:
        run_id = store.record(result, time=checked_at)
    if not quiet:
        click.echo(f"Recorded as run {run_id} in {store.location}", err=True)


# Quotes named when --fail-on is hit; the outputs have them all.
FAIL_ON_SHOWN = 10


def _check_fail_on(results, fail_on: str | None) -> None:
    """Exit with code 1, naming the quotes that tripped --fail-on, if any did."""
    if fail_on is None:
        return
    failing = ("unverified",) if fail_on == "unverified" else ("review", "unverified")
    tripped = [r for r in results if r.status in failing]
    if not tripped:
        return
    named = ", ".join(f"{r.quote_id} (row {r.row}, {r.status})" for r in tripped[:FAIL_ON_SHOWN])
    more = f" and {len(tripped) - FAIL_ON_SHOWN} more" if len(tripped) > FAIL_ON_SHOWN else ""
    click.echo(f"Failed (--fail-on {fail_on}): {plural(len(tripped), 'quote')}: "
               f"{named}{more}", err=True)
    sys.exit(1)


# Problem rows listed after the summary; the output file has every row.
REVIEW_SHOWN = 50


@main.command()
@click.argument("workbook", type=click.Path(path_type=Path))
@click.option("-o", "--output", type=click.Path(path_type=Path),
              help="Write the decisions here, as .jsonl or .csv (columns quote_id, row, cell, status, decision, "
                   "reviewer_note, problem). Without -o, JSONL goes to stdout.")
def review(workbook: Path, output: Path | None) -> None:
    """Read the decisions and notes back from a reviewed triage WORKBOOK.

    WORKBOOK may also be a decisions file saved by the review page (-o report.html): .json or .csv.

    Prints a one-line summary and the rows whose decision is empty or invalid.

    \b
    quoteverify review results.xlsx -o reviewed.jsonl
    """
    reviewed = read_review(workbook)
    if output is not None:
        write_review(output, reviewed)
    else:
        sys.stdout.buffer.write(review_bytes(reviewed, suffix=".jsonl"))
    click.echo(reviewed.summary(), err=True)
    problems = reviewed.problems
    for quote in problems[:REVIEW_SHOWN]:
        click.echo(f"  {quote.cell} (quote_id {quote.quote_id}): {quote.problem}", err=True)
    if len(problems) > REVIEW_SHOWN:
        click.echo(f"  ... and {len(problems) - REVIEW_SHOWN} more; every row is in the output, "
                   "with its problem", err=True)


@main.command()
@click.argument("results_path", metavar="RESULTS", type=click.Path(path_type=Path))
@click.option("-o", "--output", required=True, type=click.Path(path_type=Path),
              help="Write the review page here (.html): one file, opened from disk, that fetches nothing.")
@click.option("--title", default="quoteverify review", show_default=True, help="The page's heading.")
def report(results_path: Path, output: Path, title: str) -> None:
    """Write the review page for RESULTS, the JSONL a run wrote: every quote beside its source.

    The same page as 'verify ... -o report.html'. Decisions made on it are
    saved as a file that 'quoteverify review' and 'verify --previous' read.

    \b
    quoteverify report results.jsonl -o report.html
    """
    check_output_path(output, inputs=[results_path], suffixes=PAGE_FORMATS)
    results = load_results(results_path)
    write_page(output, results, title=title)
    click.echo(f"{output}: review page of {len(results)} quotes", err=True)


@main.command()
@click.argument("manifest_path", metavar="MANIFEST", type=click.Path(path_type=Path))
@click.option("-o", "--output", "outputs", multiple=True, type=click.Path(path_type=Path),
              help="Write results here instead of the outputs the manifest records (.jsonl, .csv, .xlsx). "
                   "Repeat for several files.")
@click.option("--manifest", "new_manifest", type=click.Path(path_type=Path),
              help="Write a manifest of this rerun here; without it, no manifest is written and MANIFEST is "
                   "left as it is.")
@click.option("--allow-changed", is_flag=True,
              help="Run even when inputs changed since the manifest was written; the changes are still listed.")
def rerun(manifest_path: Path, outputs: tuple[Path, ...], new_manifest: Path | None, allow_changed: bool) -> None:
    """Repeat the run recorded in MANIFEST (written by verify --manifest).

    Same document files (those listed, not whatever the folders hold now),
    quote table and config; the outputs the manifest records unless -o is
    given. First compares the sha256 of every input (documents, quote table,
    model weights) with the manifest's: if any changed or is gone, lists them
    and stops with exit code 2, running nothing, unless --allow-changed. At the
    end, says whether the results are identical to the recorded ones.

    \b
    quoteverify rerun run.json
    quoteverify rerun run.json -o again.jsonl
    """
    started = time.perf_counter()
    written = None
    try:
        manifest = read_manifest(manifest_path)
        base = manifest_path.parent
        changes = application.changed_inputs(manifest, base=base)
        for change in changes:
            click.echo(f"Changed: {change}", err=True)
        if changes and not allow_changed:
            _fail(f"{plural(len(changes), 'input')} changed since {manifest_path} was written, so this would not be "
                  "the same run; nothing was run. Restore them, or pass --allow-changed to run on the files as "
                  "they are")
        if manifest.tool_version != __version__:
            click.echo(f"Warning: {manifest_path} was written by quoteverify {manifest.tool_version}; "
                       f"this is {__version__}, whose results may differ", err=True)
        outputs = outputs or application.recorded_outputs(manifest, base=base, source=manifest_path)
        for output in outputs:
            check_output_path(output, suffixes=FORMATS)
        result = application.rerun(manifest, base=base, progress=_Progress(sys.stderr.isatty()))
        _warn(result.warnings)
        with output_transaction() as written:
            _write_outputs(result, outputs)
            if new_manifest is not None:
                table = manifest.quotes
                application.write_manifest(new_manifest, result,
                                           quotes_path=base / table.path if table else None,
                                           sheet=(table.sheet or None) if table else None, outputs=outputs,
                                           command=_command_line())
    except KeyboardInterrupt:
        _interrupted(written)
    if written is not None and written.interrupted:
        _interrupted(written)
    _summary(result, started)
    if results_sha256(result.results) == manifest.results_sha256:
        click.echo("Results are identical to the recorded run.", err=True)
    else:
        recorded = manifest.summary.status
        click.echo(f"Results differ from the recorded run, which had {recorded['verified']} verified, "
                   f"{recorded['review']} review, {recorded['unverified']} unverified.", err=True)


@main.command()
@click.argument("results_path", metavar="RESULTS", type=click.Path(path_type=Path))
@click.option("--manifest", "manifest_path", required=True, type=click.Path(path_type=Path),
              help="The manifest of the run that wrote RESULTS (verify --manifest FILE).")
@click.option("-o", "--output", type=click.Path(path_type=Path),
              help="Write the appendix here: Markdown (.md) or LaTeX (.tex). Without -o, Markdown goes to stdout.")
def appendix(results_path: Path, manifest_path: Path, output: Path | None) -> None:
    """Write a methods paragraph and a table of quotes for a paper's appendix.

    RESULTS is the JSONL a run wrote; every setting and count in the text
    comes from that run and its manifest.

    \b
    quoteverify appendix results.jsonl --manifest run.json -o appendix.md
    """
    manifest = read_manifest(manifest_path)
    results = read_results(results_path, manifest=manifest)
    findings = summarize_findings(results)
    if output is not None:
        write_appendix(output, results, manifest, manifest_name=manifest_path.name, findings=findings)
    else:
        click.echo(render_appendix(results, manifest, manifest_name=manifest_path.name, findings=findings),
                   nl=False)


@main.command()
@click.argument("manuscript", type=click.Path(path_type=Path))
@click.option("-o", "--output", type=click.Path(path_type=Path),
              help="Write the quotes here as CSV (quote_id, quote, speaker, context), ready for "
                   "'quoteverify verify'. Without -o, the CSV goes to stdout.")
@click.option("--min-words", type=int,
              help="Skip quoted phrases with fewer words than this that have no participant tag "
                   "(default: extract.min_words of the config, 5).")
@click.option("--config", "config_path", type=click.Path(path_type=Path),
              help="YAML file overriding configs/default.yaml key by key.")
def extract(manuscript: Path, output: Path | None, min_words: int | None, config_path: Path | None) -> None:
    """Pull the quoted passages out of a MANUSCRIPT (.docx, .md, .txt) into a quote table.

    Quotes in “...” or "..." and block quotes, each with the participant tag
    that follows it, such as (P3), as its speaker. Prints a one-line summary
    with the short phrases and citations skipped.

    \b
    quoteverify extract paper.docx -o quotes.csv
    quoteverify verify transcripts/ quotes.csv -o results.xlsx
    """
    config = load_config(config_path, {"extract": {"min_words": min_words}} if min_words is not None else None)
    extraction = extract_quotes(manuscript, min_words=config.extract.min_words)
    for warning in extraction.warnings:
        click.echo(f"Warning: {warning}", err=True)
    if output is not None:
        write_quotes(output, extraction)
    else:
        sys.stdout.buffer.write(csv_bytes(extraction))
    click.echo(extraction.summary(), err=True)


def _open_store(target: str | None, *, create: bool = True, busy_seconds: float | None = None):
    return open_store(target, create=create, busy_seconds=busy_seconds)


@main.command()
@click.option("--store", "store_target", metavar="TARGET", help=STORE_HELP)
def runs(store_target: str | None) -> None:
    """List the runs recorded in the audit store (verify --store TARGET or --record), oldest first.

    \b
    quoteverify runs
    quoteverify runs --store postgresql://user@host/quoteverify
    """
    with _open_store(store_target, create=False) as store:
        recorded = store.runs()
    if not recorded:
        click.echo(f"No runs recorded in {store.location}.", err=True)
        return
    click.echo(f"{'run':>5}  {'time (UTC)':<25}  {'version':<8}  {'quotes':>6}  {'verified':>8}  {'review':>6}  "
               f"{'unverified':>10}  {'documents':>9}  embedder")
    for r in recorded:
        click.echo(f"{r.run_id:>5}  {r.time:<25}  {r.version:<8}  {r.quotes:>6}  {r.verified:>8}  {r.review:>6}  "
                   f"{r.unverified:>10}  {len(r.corpus):>9}  {r.embedder or 'none'}")


@main.command()
@click.argument("run_id", type=int)
@click.argument("paths", metavar="DOCS...", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--store", "store_target", metavar="TARGET", help=STORE_HELP)
@click.option("--below", type=click.FloatRange(0, 1), default=RECHECK_BELOW, show_default=True,
              help="Check again the quotes whose recorded confidence is below this; escalate those still below it.")
@click.option("-o", "--output", required=True, type=click.Path(path_type=Path),
              help="Write the escalation list here: .csv or .json (an array), one entry per quote still below "
                   "--below, with its recorded and its new verdict.")
def recheck(run_id: int, paths: tuple[Path, ...], store_target: str | None, below: float, output: Path) -> None:
    """Check the low-confidence quotes of recorded run RUN_ID again, against the documents DOCS as they are now.

    Uses the run's settings; lists the documents that changed since the run,
    and writes the quotes still below --below as an escalation list.

    \b
    quoteverify recheck 3 transcripts/ -o escalation.csv
    """
    try:
        check_output_path(output, inputs=paths, suffixes=ESCALATION_FORMATS)
        with _open_store(store_target, create=False) as store:
            checked = application.recheck(store, run_id, list(paths), below=below, cache_dir=default_cache_dir(),
                                          progress=_Progress(sys.stderr.isatty()))
        for change in checked.changed_documents:
            click.echo(f"Changed since run {run_id}: {change}", err=True)
        write_escalation(output, checked.escalations)
    except KeyboardInterrupt:
        _interrupted(None)
    click.echo(f"Rechecked {checked.rechecked} quotes of run {run_id} below {below:g}: "
               f"{len(checked.escalations)} still below, written to {output}", err=True)
