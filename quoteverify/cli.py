"""Command line: argument parsing and printing only; the work is in the library."""
from __future__ import annotations

import shlex
import sys
import time
from collections import Counter
from pathlib import Path

import click

from . import __version__
from .errors import QuoteverifyError

FAIL_ON = ("review", "unverified")


def _fail(message: str) -> None:
    click.echo(f"Error: {message}", err=True)
    sys.exit(2)


class _Progress:
    """A progress bar on stderr, shown only when stderr is a terminal."""

    def __init__(self, enabled: bool):
        self.enabled = enabled
        self.bar = None

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled or total < 20:
            return
        if self.bar is None:
            self.bar = click.progressbar(length=total, label="verifying", file=sys.stderr)
            self.bar.__enter__()
        self.bar.update(1)
        if done == total:
            self.bar.__exit__(None, None, None)


def _command_line() -> str:
    return shlex.join(["quoteverify", *sys.argv[1:]])


def _write_outputs(result, outputs: tuple[Path, ...]) -> None:
    """Write each output in the format its extension names; JSONL to stdout when there is none."""
    from .export import write_results
    from .export.tables import jsonl_bytes

    for output in outputs:
        write_results(output, result.results, run=result)
    if not outputs:
        sys.stdout.buffer.write(jsonl_bytes(result.results))


def _summary(result, started: float) -> Counter:
    counts = Counter(r.status for r in result.results)
    elapsed = time.perf_counter() - started
    click.echo(f"{len(result.results)} quotes: {counts['verified']} verified, {counts['review']} review, "
               f"{counts['unverified']} unverified ({elapsed:.1f} s)", err=True)
    return counts


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="quoteverify")
def main() -> None:
    """Check quotes against their sources: is each really there, where, and how does it differ?"""


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("-o", "--output", "outputs", multiple=True, type=click.Path(path_type=Path),
              help="Write results here; the format follows the extension (.jsonl, .csv, .xlsx). "
                   "Repeat for several files. Without -o, JSONL goes to stdout.")
@click.option("--config", "config_path", type=click.Path(path_type=Path),
              help="YAML file overriding configs/default.yaml key by key.")
@click.option("--no-embed", is_flag=True, help="Skip sentence embeddings; verdicts use lexical evidence only.")
@click.option("--fail-on", type=click.Choice(FAIL_ON),
              help="Exit with code 1 if any quote is unverified (or, with 'review', needs review or is unverified).")
@click.option("--sheet", help="Sheet of an .xlsx quote table to read (default: the first).")
@click.option("--cache-dir", type=click.Path(path_type=Path),
              help="Cache folder for prepared documents, the BM25 index and embeddings "
                   "(default: $XDG_CACHE_HOME/quoteverify or ~/.cache/quoteverify).")
@click.option("--no-cache", is_flag=True, help="Neither read nor write the cache.")
@click.option("--previous", type=click.Path(path_type=Path),
              help="A reviewed triage workbook from an earlier run; its decisions and notes are carried "
                   "over to the quotes whose text and located span are unchanged.")
@click.option("--manifest", "manifest_path", type=click.Path(path_type=Path),
              help="Also write a run manifest (JSON) here: version, config, model, package versions, the sha256 "
                   "of every input, counts. 'quoteverify rerun FILE' repeats the run from it.")
def verify(paths: tuple[Path, ...], outputs: tuple[Path, ...], config_path: Path | None, no_embed: bool,
           fail_on: str | None, sheet: str | None, previous: Path | None, manifest_path: Path | None,
           cache_dir: Path | None = None, no_cache: bool = False) -> None:
    """Verify the quotes in QUOTES against the documents DOCS (files or folders).

    \b
    quoteverify verify DOCS... QUOTES -o results.xlsx -o results.jsonl
    """
    from .cache import default_dir as default_cache_dir
    from .config import load_config
    from .export.manifest import write_manifest
    from .load import load_quotes
    from .pipeline import run
    from .review import carry_decisions, read_previous

    if len(paths) < 2:
        _fail("give the documents (files or folders) and then the quote table, "
              "e.g. quoteverify verify transcripts/ quotes.csv -o results.xlsx")
    started = time.perf_counter()
    try:
        config = load_config(config_path, {"embed": {"enabled": False}} if no_embed else None)
        quotes = load_quotes(paths[-1], sheet=sheet)
        # Read before the (long) run so that a bad workbook fails at once.
        review = read_previous(previous) if previous else None
        result = run(list(paths[:-1]), quotes, config, progress=_Progress(sys.stderr.isatty()),
                     cache_dir=None if no_cache else (cache_dir or default_cache_dir()))
        for warning in result.warnings:
            click.echo(f"Warning: {warning}", err=True)
        if review is not None:
            carried = carry_decisions(result.results, review)
            result.results = carried.results
            click.echo(carried.summary(previous), err=True)
        _write_outputs(result, outputs)
        if manifest_path is not None:
            write_manifest(manifest_path, result, quotes_path=paths[-1], sheet=sheet, outputs=outputs,
                           command=_command_line())
    except QuoteverifyError as exc:
        _fail(str(exc))
    except KeyboardInterrupt:
        click.echo("Interrupted; no output was written.", err=True)
        sys.exit(130)
    counts = _summary(result, started)
    if fail_on == "unverified" and counts["unverified"]:
        sys.exit(1)
    if fail_on == "review" and (counts["review"] or counts["unverified"]):
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

    Prints a one-line summary and the rows whose decision is empty or invalid.

    \b
    quoteverify review results.xlsx -o reviewed.jsonl
    """
    from .review import read_review, review_bytes, write_review

    try:
        reviewed = read_review(workbook)
        if output is not None:
            write_review(output, reviewed)
        else:
            sys.stdout.buffer.write(review_bytes(reviewed, suffix=".jsonl"))
    except QuoteverifyError as exc:
        _fail(str(exc))
    click.echo(reviewed.summary(), err=True)
    problems = reviewed.problems
    for quote in problems[:REVIEW_SHOWN]:
        click.echo(f"  {quote.cell} (quote_id {quote.quote_id}): {quote.problem}", err=True)
    if len(problems) > REVIEW_SHOWN:
        click.echo(f"  ... and {len(problems) - REVIEW_SHOWN} more; every row is in the output, "
                   "with its problem", err=True)


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
    from .export.manifest import changed_inputs, read_manifest, results_sha256, write_manifest
    from .export.manifest import rerun as repeat_run

    started = time.perf_counter()
    try:
        manifest = read_manifest(manifest_path)
        base = manifest_path.parent
        changes = changed_inputs(manifest, base=base)
        for change in changes:
            click.echo(f"Changed: {change}", err=True)
        if changes and not allow_changed:
            inputs = "1 input" if len(changes) == 1 else f"{len(changes)} inputs"
            _fail(f"{inputs} changed since {manifest_path} was written, so this would not be the same run; "
                  "nothing was run. Restore them, or pass --allow-changed to run on the files as they are")
        if manifest.tool_version != __version__:
            click.echo(f"Warning: {manifest_path} was written by quoteverify {manifest.tool_version}; "
                       f"this is {__version__}, whose results may differ", err=True)
        result = repeat_run(manifest, base=base, progress=_Progress(sys.stderr.isatty()))
        for warning in result.warnings:
            click.echo(f"Warning: {warning}", err=True)
        outputs = outputs or tuple(base / output for output in manifest.outputs)
        _write_outputs(result, outputs)
        if new_manifest is not None:
            write_manifest(new_manifest, result, quotes_path=base / manifest.quotes.path,
                           sheet=manifest.quotes.sheet or None, outputs=outputs, command=_command_line())
    except QuoteverifyError as exc:
        _fail(str(exc))
    except KeyboardInterrupt:
        click.echo("Interrupted; no output was written.", err=True)
        sys.exit(130)
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
    from .export.appendix import read_results, render_appendix, write_appendix
    from .export.manifest import read_manifest

    try:
        manifest = read_manifest(manifest_path)
        results = read_results(results_path, manifest=manifest)
        if output is not None:
            write_appendix(output, results, manifest, manifest_name=manifest_path.name)
        else:
            click.echo(render_appendix(results, manifest, manifest_name=manifest_path.name), nl=False)
    except QuoteverifyError as exc:
        _fail(str(exc))
