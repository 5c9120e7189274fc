"""The guard on every path quoteverify writes, and on its own outputs read back.

A command tells a Guard what it reads in this run (the documents, files and
folders; the quote table; the config, the manifest, the decisions, the results,
the store) and then checks each output path by the option that names it,
before any long work starts. The guard refuses, in one line that names the
option and the fix:

- an output that would replace a file this run reads (by path, through a
  symbolic link, or as another name of the same file);
- an output inside a documents folder this run reads: the next run would read
  it as a source (a report quotes every quote, fabricated ones included);
- two outputs of one run on the same file;
- an output in a folder that is missing or not writable, or with an unknown
  extension;
- an output over an SQLite database (an audit store), whether this run reads
  it or not.

Its own outputs are told by their content, not their name: the Markdown,
LaTeX, HTML and JSON that quoteverify writes carry OUTPUT_MARK near their
start, and its CSV and JSONL tables open with its own columns. The document
reader (quoteverify.sources.documents) leaves out a document that own_output() recognises,
whatever it was renamed to, with a warning.
"""
from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from pathlib import Path

from ..model.errors import OutputError
from ..model.rows import RESULT_COLUMNS
from ..model.types import ESCALATION_COLUMNS, FINDING_COLUMNS, REVIEW_COLUMNS, ClaimCard, QuoteResult
from .tempfiles import clean_stale

# Written near the start of every output whose format has room for it (a comment, a meta tag, a JSON key).
OUTPUT_MARK = "quoteverify:output"
# How much of a document's start is searched for the mark and the tables' headers.
HEAD_CHARS = 4096


def marked(kind: str) -> str:
    """The mark for an output of ``kind`` ("report", "appendix"), as the text of a comment or a JSON value."""
    return f"{OUTPUT_MARK} {kind}: written by quoteverify, not a source document"


# The first line of each CSV table quoteverify writes, and the keys of the first object of each JSONL.
_CSV_HEADERS = {
    "results": ",".join(RESULT_COLUMNS[:6]) + ",", "findings": ",".join(FINDING_COLUMNS[:4]) + ",",
    "escalation list": ",".join(ESCALATION_COLUMNS[:4]) + ",", "reviewed decisions": ",".join(REVIEW_COLUMNS) + "\r",
    "decisions": "quote_id,row,status,decision,reviewer_note,fingerprint",
}
_JSON_KEYS = {
    "results": tuple(f.name for f in fields(QuoteResult))[:2], "reviewed decisions": REVIEW_COLUMNS[:2],
    "findings": FINDING_COLUMNS[:2], "claim cards": tuple(f.name for f in fields(ClaimCard))[:2],
}
# Reports written before the mark was: their first line.
_LEGACY = {"report": "# Findings and their quotes\n"}


def own_output(text: str) -> str | None:
    """What quoteverify output ``text`` is ("report", "results", ...), judged by its start; None for text that
    is no output of quoteverify."""
    head = text[:HEAD_CHARS].lstrip("\ufeff")
    if OUTPUT_MARK in head:
        at = head.index(OUTPUT_MARK) + len(OUTPUT_MARK)
        return head[at:].split(":", 1)[0].strip() or "output"
    first = head.lstrip().split("\n", 1)[0] + "\n"
    for kind, line in (*_LEGACY.items(), *_CSV_HEADERS.items()):
        if first.startswith(line):
            return kind
    for kind, (key, then) in _JSON_KEYS.items():
        if first.startswith(f'{{"{key}": ') and f', "{then}": ' in first:
            return kind
    return None


@dataclass(frozen=True)
class _Read:
    path: Path   # as resolved
    given: Path  # as given, for messages
    role: str    # "a document", "the quote table", ...
    folder: bool


@dataclass
class Guard:
    """What one run reads, and the outputs it has checked so far (see the module's docstring)."""

    reads: list[_Read] = field(default_factory=list)
    writes: dict[Path, str] = field(default_factory=dict)  # resolved output path -> the option that names it

    def read(self, path: str | Path | None, role: str) -> Guard:
        """Note a file (or, for documents, a folder) this run reads; None is ignored."""
        if path is not None:
            given = Path(path)
            self.reads.append(_Read(_real(given), given, role, given.is_dir()))
        return self

    def read_all(self, paths: Iterable[str | Path], role: str) -> Guard:
        for path in paths:
            self.read(path, role)
        return self

    def check(self, path: str | Path | None, *, option: str, suffixes: Iterable[str] | None = None,
              writable: bool = True) -> None:
        """Refuse ``path`` as the output named by ``option`` (see the module's docstring); None passes.
        ``writable=False`` leaves out the checks of check_output_path (the audit store, a file written into
        and made with its folder on first use)."""
        if path is None:
            return
        path = Path(path)
        if writable:
            check_output_path(path, suffixes=suffixes, option=option, database=False)
        full = _real(path)
        for read in self.reads:
            if read.folder and full.is_relative_to(read.path):
                raise OutputError(f"{option} {path}: is inside the documents folder {read.given}, which this run "
                                  f"reads, so a later run would read it as a source; write it outside {read.given}")
            if not read.folder and _same_file(full, read.path):
                raise OutputError(f"{option} {path}: is {read.role} this run reads and would be replaced; give "
                                  "the output another name")
        if full in self.writes:
            raise OutputError(f"{option} {path}: is also the output of {self.writes[full]}; give each output a file "
                              "of its own")
        if writable:  # after the reads: a store this run reads is named as such
            _refuse_database(path, f"{option} {path}")
        self.writes[full] = option


def _real(path: Path) -> Path:
    # os.path.realpath, not Path.resolve(): a symbolic link that loops is left for its reader to name, not raised.
    return Path(os.path.realpath(path))


def _same_file(a: Path, b: Path) -> bool:
    if a == b:
        return True
    try:
        return os.path.samefile(a, b)  # a hard link, or another spelling on a case-insensitive disk
    except OSError:
        return False


def check_output_path(path: str | Path, *, suffixes: Iterable[str] | None = None, option: str = "",
                      database: bool = True) -> None:
    """Refuse an output that could not be written: a folder, an unknown extension, a missing or read-only
    folder; and (``database``) one over an SQLite database. Called before a long run, so that a typo fails at
    once; an existing output file is replaced (see transaction.write_atomic)."""
    path = Path(path)
    named = f"{option} {path}" if option else str(path)
    if path.is_dir():
        raise OutputError(f"{named}: is a folder; give a file name, such as {path / 'results.jsonl'}")
    if suffixes is not None and path.suffix.lower() not in (suffixes := tuple(suffixes)):
        raise OutputError(f"{named}: unknown output format '{path.suffix}'; use {', '.join(suffixes)}")
    if not path.parent.is_dir():
        raise OutputError(f"{named}: folder {path.parent} does not exist; create it or choose another path")
    if not os.access(path.parent, os.W_OK):
        raise OutputError(f"{named}: folder {path.parent} is not writable; choose another path")
    if database:
        _refuse_database(path, named)
    clean_stale(path.parent)


_SQLITE_HEADER = b"SQLite format 3\x00"  # how every SQLite database file begins


def _refuse_database(path: Path, named: str) -> None:
    """Refuse an output over an existing SQLite database: quoteverify's audit store, given or not to this run."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(len(_SQLITE_HEADER))
    except OSError:  # none there (or unreadable: the write says why)
        return
    if head == _SQLITE_HEADER:
        raise OutputError(f"{named}: is an SQLite database (an audit store?), which no output replaces; give the "
                          "output another name")
