"""Command line: argument parsing and printing only; each command calls one function of quoteverify.commands."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from . import commands
from .app.store import RECHECK_BELOW
from .commands import FAIL_ON, Outcome
from .model.manuscript import NOTE_STYLES, VERIFIED_NOTES
from .model.version import __version__
from .terminal import Group, command_line, console

STORE_HELP = ("The audit store: a SQLite file or a database URL such as postgresql://user@host/db "
              "(default: $XDG_DATA_HOME/quoteverify/runs.sqlite or ~/.local/share/quoteverify/runs.sqlite).")
CONFIG_HELP = "YAML file overriding configs/default.yaml key by key."
PATH = click.Path(path_type=Path)


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="quoteverify")
@click.option("--debug", is_flag=True, help="Show the traceback of an unexpected fault (exit code 3) instead of "
              "one line.")
def main(debug: bool) -> None:
    """Check quotes against their sources: is each really there, where, and how does it differ?"""


@main.command()
@click.argument("paths", metavar="DOCS... QUOTES", nargs=-1, required=True, type=PATH)
@click.option("-o", "--output", "outputs", multiple=True, type=PATH,
              help="Write results here; the format follows the extension (.jsonl, .csv, .xlsx, or .html for "
                   "the review page; the draft's .docx, .md or .tex for the checked manuscript), or - for JSONL on "
                   "standard output. Repeat for several files. Without -o, no results are written: the summary says "
                   "what to add.")
@click.option("--quote-col", metavar="NAME", help="The quote table's column holding the quotes "
              "(default: quote, text, quotation, quote_text, content or excerpt).")
@click.option("--id-col", metavar="NAME", help="Its column of quote ids (default: quote_id, id or qid).")
@click.option("--doc-col", metavar="NAME", help="Its column naming the document each quote claims "
              "(default: document, source, doc, doc_id, claimed_document, source_document or transcript).")
@click.option("--speaker-col", metavar="NAME", help="Its column naming the speaker each quote claims "
              "(default: speaker, participant or claimed_speaker).")
@click.option("--finding-col", metavar="NAME", help="Its column naming the finding each quote supports "
              "(default: finding, theme, claim, tag or code).")
@click.option("-q", "--quiet", is_flag=True, help="Print only warnings and errors: no progress bar, no summary.")
@click.option("--config", "config_path", type=PATH, help=CONFIG_HELP)
@click.option("--no-embed", is_flag=True, help="Skip sentence embeddings; verdicts use lexical evidence only.")
@click.option("--language", metavar="CODE",
              help="The language of every document and quote (an ISO 639-1 code such as de), instead of detecting "
                   "it; a language column of the quote table still wins row by row. Default: auto.")
@click.option("--fail-on", type=click.Choice(FAIL_ON),
              help="Exit with code 1 if any quote is unverified (or, with 'review', needs review or is unverified).")
@click.option("--sheet", help="Sheet of an .xlsx quote table to read (default: the first).")
@click.option("--cache-dir", type=PATH, help="Cache folder for prepared documents, the BM25 index and embeddings "
              "(default: $XDG_CACHE_HOME/quoteverify or ~/.cache/quoteverify).")
@click.option("--no-cache", is_flag=True, help="Neither read nor write the cache.")
@click.option("--cluster", metavar="local[:N]|tcp://HOST:PORT",
              help="Check the quotes on a Dask cluster: 'local:N' starts N worker processes here, 'tcp://HOST:PORT' "
                   "uses a running scheduler. Same results as without; needs pip install 'quoteverify[dask]'.")
@click.option("--previous", type=PATH,
              help="A reviewed triage workbook (or a decisions file saved by the review page, .json or .csv) from an "
                   "earlier run; its decisions and notes are carried over to the quotes whose text and located span "
                   "are unchanged.")
@click.option("--manifest", "manifest_path", type=PATH,
              help="Also write a run manifest (JSON) here: version, config, model, package versions, the sha256 "
                   "of every input, counts. 'quoteverify rerun FILE' repeats the run from it.")
@click.option("--findings", "findings_path", type=PATH, help="Also write one row per finding here (.csv or .jsonl): "
              "its quotes by status, and its confidence adjusted for the quotes that could not be located.")
@click.option("--report", "report_path", type=PATH, help="Also write a Markdown report (.md) of the findings and "
              "their quotes, each unverified quote marked (unverified).")
@click.option("--cards", "cards_path", type=PATH, help="Also write a claim card per finding (.jsonl): SUPPORTED, "
              "REFUTED or NOT ENOUGH INFO, with its evidence.")
@click.option("--store", "store_target", metavar="TARGET", help="Record the run in this audit store: a SQLite file "
              "(created on first use) or a database URL such as postgresql://user@host/db.")
@click.option("--record", is_flag=True, help="Record the run in the default audit store "
              "($XDG_DATA_HOME/quoteverify/runs.sqlite or ~/.local/share/quoteverify/runs.sqlite).")
@click.option("--notes", type=click.Choice(NOTE_STYLES), help="A checked .md or .tex manuscript's notes: comment "
              "(an HTML comment; a % line), footnote (Markdown) or todo (LaTeX \\todo{}). Default: comment.")
@click.option("--verified-notes", type=click.Choice(VERIFIED_NOTES), help="What a verified quote gets in a checked "
              "manuscript: a short note or none. Default: short.")
@click.option("--no-fixes", is_flag=True, help="Propose no corrected quotations (as tracked changes) in a checked "
              "manuscript.")
def verify(**options: Any) -> Outcome:
    """Verify the quotes in QUOTES against the documents DOCS (files or folders).

    A REFI-QDA project (.qdpx) can be DOCS (its sources), QUOTES (its coded segments) or
    both: given alone, its coded segments are checked against its own sources.

    QUOTES may be the paper's draft (.docx, .md, .tex): -o paper.checked.docx writes it back with a
    comment at every quote and the fixes as tracked changes.

    \b
    quoteverify verify DOCS... QUOTES -o results.xlsx -o results.jsonl
    quoteverify verify project.qdpx -o coded.xlsx
    quoteverify verify transcripts/ paper.docx -o paper.checked.docx -o results.xlsx
    """
    request = commands.VerifyRequest(**options, command=command_line())
    return commands.verify(request, console(quiet=request.quiet))


@main.command()
@click.argument("workbook", type=PATH)
@click.option("-o", "--output", type=PATH,
              help="Write the decisions here, as .jsonl or .csv (columns quote_id, row, cell, status, decision, "
                   "reviewer_note, problem). Without -o, JSONL goes to stdout.")
def review(**options: Any) -> Outcome:
    """Read the decisions and notes back from a reviewed triage WORKBOOK.

    WORKBOOK may also be a decisions file saved by the review page (-o report.html): .json or .csv.
    Prints a one-line summary and the quotes still to decide (review or unverified) or decided wrongly.

    \b
    quoteverify review results.xlsx -o reviewed.jsonl
    """
    return commands.review(commands.ReviewRequest(**options), console())


@main.command()
@click.argument("results_path", metavar="RESULTS", type=PATH)
@click.option("-o", "--output", required=True, type=PATH,
              help="Write the review page here (.html): one file, opened from disk, that fetches nothing.")
@click.option("--title", default="quoteverify review", show_default=True, help="The page's heading.")
def report(**options: Any) -> Outcome:
    """Write the review page for RESULTS, the JSONL a run wrote: every quote beside its source.

    The same page as 'verify ... -o report.html'. Decisions made on it are saved as a
    file that 'quoteverify review' and 'verify --previous' read.

    \b
    quoteverify report results.jsonl -o report.html
    """
    return commands.report(commands.ReportRequest(**options), console())


@main.command()
@click.argument("manifest_path", metavar="MANIFEST", type=PATH)
@click.option("-o", "--output", "outputs", multiple=True, type=PATH,
              help="Write results here instead of the outputs the manifest records (.jsonl, .csv, .xlsx). "
                   "Repeat for several files.")
@click.option("--manifest", "new_manifest", type=PATH,
              help="Write a manifest of this rerun here; without it, no manifest is written and MANIFEST is "
                   "left as it is.")
@click.option("--allow-changed", is_flag=True,
              help="Run even when inputs changed since the manifest was written; the changes are still listed.")
def rerun(**options: Any) -> Outcome:
    """Repeat the run recorded in MANIFEST (written by verify --manifest).

    Same document files (those listed, not whatever the folders hold now), quote table and config; the
    outputs the manifest records unless -o is given. First compares the sha256 of every input (documents,
    quote table, model weights) with the manifest's: if any changed or is gone, lists them and stops with
    exit code 2, running nothing, unless --allow-changed. At the end, says whether the results are identical.

    \b
    quoteverify rerun run.json
    quoteverify rerun run.json -o again.jsonl
    """
    return commands.rerun(commands.RerunRequest(**options, command=command_line()), console())


@main.command()
@click.argument("results_path", metavar="RESULTS", type=PATH)
@click.option("--manifest", "manifest_path", required=True, type=PATH,
              help="The manifest of the run that wrote RESULTS (verify --manifest FILE).")
@click.option("-o", "--output", type=PATH,
              help="Write the appendix here: Markdown (.md) or LaTeX (.tex). Without -o, Markdown goes to stdout.")
@click.option("--decisions", type=PATH,
              help="The reviewed workbook (or the review page's decisions file, .json or .csv) whose decisions to "
                   "count, when they were made after the run; default: the decisions RESULTS holds.")
def appendix(**options: Any) -> Outcome:
    """Write a methods paragraph and a table of quotes for a paper's appendix.

    RESULTS is the JSONL a run wrote; every setting and count in the text comes from that run and its manifest,
    and the decisions counted from RESULTS (carried in from an earlier review) or --decisions.

    \b
    quoteverify appendix results.jsonl --manifest run.json -o appendix.md
    """
    return commands.appendix(commands.AppendixRequest(**options), console())


@main.command()
@click.argument("manuscript", type=PATH)
@click.option("-o", "--output", type=PATH,
              help="Write the quotes here as CSV (quote_id, quote, speaker, context), ready for "
                   "'quoteverify verify'. Without -o, the CSV goes to stdout.")
@click.option("--min-words", type=int,
              help="Skip quoted phrases with fewer words than this that have no participant tag "
                   "(default: extract.min_words of the config, 5).")
@click.option("--config", "config_path", type=PATH, help=CONFIG_HELP)
def extract(**options: Any) -> Outcome:
    """Pull the quoted passages out of a MANUSCRIPT (.docx, .md, .txt) into a quote table.

    Quotes in “...” or "..." and block quotes, each with the participant tag that follows it,
    such as (P3), as its speaker. Prints a one-line summary with the short phrases and citations skipped.

    \b
    quoteverify extract paper.docx -o quotes.csv
    quoteverify verify transcripts/ quotes.csv -o results.xlsx
    """
    return commands.extract(commands.ExtractRequest(**options), console())


@main.command()
@click.option("--store", "store_target", metavar="TARGET", help=STORE_HELP)
def runs(**options: Any) -> Outcome:
    """List the runs recorded in the audit store (verify --store TARGET or --record), oldest first.

    \b
    quoteverify runs
    quoteverify runs --store postgresql://user@host/quoteverify
    """
    return commands.runs(commands.RunsRequest(**options), console())


@main.command()
@click.argument("run_id", type=int)
@click.argument("paths", metavar="DOCS...", nargs=-1, required=True, type=PATH)
@click.option("--store", "store_target", metavar="TARGET", help=STORE_HELP)
@click.option("--below", type=click.FloatRange(0, 1), default=RECHECK_BELOW, show_default=True,
              help="Check again the quotes whose recorded confidence is below this; escalate those still below it.")
@click.option("-o", "--output", required=True, type=PATH,
              help="Write the escalation list here: .csv or .json (an array), one entry per quote still below "
                   "--below, with its recorded and its new verdict.")
def recheck(**options: Any) -> Outcome:
    """Check the low-confidence quotes of recorded run RUN_ID again, against the documents DOCS as they are now.

    Uses the run's settings; lists the documents that changed since the run,
    and writes the quotes still below --below as an escalation list.

    \b
    quoteverify recheck 3 transcripts/ -o escalation.csv
    """
    return commands.recheck(commands.RecheckRequest(**options), console())
