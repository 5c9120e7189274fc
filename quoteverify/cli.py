"""Command line: argument parsing and printing only; the work is in the library."""
from __future__ import annotations

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
def verify(paths: tuple[Path, ...], outputs: tuple[Path, ...], config_path: Path | None, no_embed: bool,
           fail_on: str | None, sheet: str | None) -> None:
    """Verify the quotes in QUOTES against the documents DOCS (files or folders).

    \b
    quoteverify verify DOCS... QUOTES -o results.xlsx -o results.jsonl
    """
    from .config import load_config
    from .export import write_results
    from .export.tables import jsonl_bytes
    from .load import load_quotes
    from .pipeline import run

    if len(paths) < 2:
        _fail("give the documents (files or folders) and then the quote table, "
              "e.g. quoteverify verify transcripts/ quotes.csv -o results.xlsx")
    started = time.perf_counter()
    try:
        config = load_config(config_path, {"embed": {"enabled": False}} if no_embed else None)
        quotes = load_quotes(paths[-1], sheet=sheet)
        for warning in quotes.warnings:
            click.echo(f"Warning: {warning}", err=True)
        result = run(list(paths[:-1]), list(quotes.quotes), config, progress=_Progress(sys.stderr.isatty()))
        for warning in result.warnings:
            click.echo(f"Warning: {warning}", err=True)
        for output in outputs:
            write_results(output, result.results, run=result)
        if not outputs:
            sys.stdout.buffer.write(jsonl_bytes(result.results))
    except QuoteverifyError as exc:
        _fail(str(exc))
    except KeyboardInterrupt:
        click.echo("Interrupted; no output was written.", err=True)
        sys.exit(130)
    counts = Counter(r.status for r in result.results)
    elapsed = time.perf_counter() - started
    click.echo(f"{len(result.results)} quotes: {counts['verified']} verified, {counts['review']} review, "
               f"{counts['unverified']} unverified ({elapsed:.1f} s)", err=True)
    if fail_on == "unverified" and counts["unverified"]:
        sys.exit(1)
    if fail_on == "review" and (counts["review"] or counts["unverified"]):
        sys.exit(1)
