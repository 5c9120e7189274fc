"""Reading a reviewed triage workbook back: the reviewer's decision and note per quote.

The workbook written by ``quoteverify verify -o results.xlsx`` has, on its
``Quotes`` sheet, a ``decision`` column (accept, reject, fix quote, fix source),
a ``reviewer_note`` column and a hidden ``fingerprint`` of each quote's text and
located span. Rows are matched by ``quote_id``, so a reviewer may sort, filter
or hide rows freely; the fingerprint lets the next run carry a decision only to
a quote that has not changed since it was reviewed.
"""
from __future__ import annotations

import io
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from ..model.errors import InputError, OutputError
from ..model.rows import csv_text
from ..model.text import plural, utf8
from ..model.types import DECISIONS, QUOTES_SHEET, QuoteResult, fingerprint  # noqa: F401 (named here too)
from ..plumbing.archive import ArchiveLimits, check_archive, check_columns, is_xml_bomb
from ..plumbing.transaction import write_bytes_atomic
from .decision_files import (  # noqa: F401 (parse_decision and REVIEW_COLUMNS are named here too)
    EMPTY,
    REVIEW_COLUMNS,
    Review,
    ReviewedQuote,
    decision_problem,
    parse_decision,
    read_decisions,
    read_jsonl_decisions,
)

SHEET = QUOTES_SHEET


def _capped(path: Path, rows, limits: ArchiveLimits):
    for number, values in enumerate(rows, start=1):
        check_columns(path, number, len(values), limits)
        yield values


def read_review(path: str | Path, *, limits: ArchiveLimits | None = None) -> Review:
    """Read the decisions and notes of a reviewed workbook (or a review page's decisions file), one per quote."""
    # openpyxl takes half a second to import; only workbooks need it.
    from openpyxl import load_workbook

    path = Path(path)
    if path.suffix.lower() in (".json", ".csv"):
        # A decisions file saved by the review page (verify -o report.html) reads as a workbook does.
            return read_decisions(path)
    if not path.is_file():
        raise InputError(f"{path}: no such file; give the .xlsx written by quoteverify verify -o results.xlsx")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot be read ({exc.strerror}); check its permissions") from None
    limits = limits or ArchiveLimits.of()
    check_archive(path, data, limits)
    try:
        # data_only: a cell's value as Excel last showed it, so decisions filled in by formula count.
        book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises many types for damaged or hostile files
        raise _workbook_error(path, exc) from None
    try:
        return _read_sheet(path, book, limits)
    except InputError:
        raise
    except Exception as exc:  # sheets are parsed lazily: a damaged or hostile sheet fails while read
        raise _workbook_error(path, exc) from None
    finally:
        book.close()


def _workbook_error(path: Path, exc: BaseException) -> InputError:
    if is_xml_bomb(exc):
        return InputError(f"{path}: refused: its XML declares entities or a DTD, as XML bombs do; "
                          "give the .xlsx written by quoteverify verify, saved again from Excel")
    reason = " ".join(str(exc).split()) or type(exc).__name__
    return InputError(f"{path}: cannot be read as an Excel workbook ({type(exc).__name__}: {reason}); "
                      "give the .xlsx written by quoteverify verify, saved as .xlsx")


def _read_sheet(path: Path, book, limits: ArchiveLimits) -> Review:
    # openpyxl takes half a second to import; only workbooks need it.
    from openpyxl.utils import get_column_letter

    if SHEET not in book.sheetnames:
        raise InputError(f"{path}: no sheet named '{SHEET}'; give the workbook written by "
                         "quoteverify verify -o results.xlsx (keep its sheet names)")
    sheet = book[SHEET]
    sheet.reset_dimensions()  # rows as wide as their cells, not as <dimension> claims
    rows = _capped(path, sheet.iter_rows(values_only=True), limits)
    header = [str(v).strip().casefold() if v is not None else "" for v in next(rows, ())]
    columns: dict[str, int] = {name: header.index(name) for name in
               ("quote_id", "row", "status", "decision", "reviewer_note", "fingerprint") if name in header}
    for required in ("quote_id", "decision"):
        if required not in columns:
            raise InputError(f"{path}: sheet '{SHEET}' has no '{required}' column in its first row; "
                             "restore the header row quoteverify wrote")
    decision_letter = get_column_letter(columns["decision"] + 1)
    quotes = []
    for number, values in enumerate(rows, start=2):
        def get(name: str, values: Sequence[Any] = values) -> Any:
            k = columns.get(name)
            return values[k] if k is not None and k < len(values) else None

        quote_id = get("quote_id")
        if quote_id is None or str(quote_id).strip() == "":
            continue  # blank rows left by deleting or filtering
        status = _text(get("status"))
        decision, problem = decision_problem(get("decision"), status)
        quotes.append(ReviewedQuote(
            quote_id=str(quote_id), row=_int(get("row")), cell=f"{SHEET}!{decision_letter}{number}",
            status=status, decision=decision, reviewer_note=_text(get("reviewer_note")),
            problem=problem, fingerprint=_text(get("fingerprint"))))
    return Review(path, tuple(quotes), "fingerprint" in columns)


def read_previous(path: str | Path, *, limits: ArchiveLimits | None = None) -> Review:
    """read_review() for carrying decisions into a new run: the workbook must have fingerprints."""
    review = read_review(path, limits=limits)
    _require_fingerprints(review)
    return review


def _require_fingerprints(review: Review) -> None:
    if not review.has_fingerprints and review.path.suffix.lower() in (".json", ".csv"):
        raise InputError(f"{review.path}: has no fingerprint for each quote, so unchanged quotes cannot be told "
                         "apart; give the decisions file the review page saved, or the reviewed workbook")
    if not review.has_fingerprints:
        raise InputError(f"{review.path}: sheet '{SHEET}' has no 'fingerprint' column, so unchanged quotes "
                         "cannot be told apart; give a workbook written by this version of quoteverify verify")


# Files whose decisions a new output would replace: a workbook, a decisions file, a results or review JSONL/CSV.
HOLDING = (".xlsx", ".json", ".csv", ".jsonl")


@dataclass(frozen=True)
class Held:
    """An output file that already holds a reviewer's decisions: they are carried or kept, never lost."""

    path: Path
    review: Review
    backup: Path  # where the old file is kept when it is replaced

    @property
    def decided(self) -> int:
        return sum(1 for q in self.review.quotes if q.written)

    def said(self, *, carried: bool, previous: Path | None = None, repeat: bool = False) -> str:
        """The line that says what becomes of these decisions."""
        what = f"{self.path} holds the decisions or notes of {plural(self.decided, 'quote')}"
        if carried:
            how = "carried into this rerun" if repeat else f"carried into this run, as --previous {self.path} would"
        elif previous is not None:
            how = (f"this rerun carries those of {previous} instead" if repeat
                   else f"this run carries those of --previous {previous} instead")
        else:
            how = "not carried (it has no fingerprint of each quote)"
        return f"{what}: {how}; when it is replaced, the old file is kept as {self.backup}"


def backup_name(path: Path, when: datetime) -> Path:
    """A name beside ``path`` for its old version, e.g. results.before-20261127-204811.xlsx; never one taken."""
    stamp = when.strftime("%Y%m%d-%H%M%S")
    candidate, k = path.with_name(f"{path.stem}.before-{stamp}{path.suffix}"), 1
    while candidate.exists():
        k += 1
        candidate = path.with_name(f"{path.stem}.before-{stamp}-{k}{path.suffix}")
    return candidate


def held_decisions(path: Path, *, when: datetime, limits: ArchiveLimits | None = None) -> Held | None:
    """The decisions an existing output file holds, or None when it holds none (or is no file that can)."""
    if path.suffix.lower() not in HOLDING or not path.is_file():
        return None
    if path.suffix.lower() == ".jsonl" and not _any_decision(path):
        return None  # a results JSONL of 100,000 quotes, none decided: not worth parsing
    try:
        review = (read_jsonl_decisions(path) if path.suffix.lower() == ".jsonl"
                  else read_review(path, limits=limits))
    except (InputError, OSError, UnicodeDecodeError):
        return None  # not a file with decisions (a quote table's CSV, another program's workbook)
    if not any(q.written for q in review.quotes):  # an invalid decision is the reviewer's too: kept
        return None
    return Held(path, review, backup_name(path, when))


def _any_decision(path: Path) -> bool:
    """Whether a JSONL holds a decision or note that is not empty, looked for in its bytes."""
    try:
        return re.search(rb'"(?:decision|reviewer_note)": ?"[^"]', path.read_bytes()) is not None
    except OSError:
        return False


# Invalid or conflicting rows named in what --previous prints; all are counted.
LISTED = 10


@dataclass(frozen=True)
class Carried:
    """Results with the decisions of a previous review carried over."""

    results: list[QuoteResult]
    carried: int      # quotes that got their previous decision or note
    changed: int      # reviewed quotes whose text or span changed, so their decision was dropped
    invalid: tuple[ReviewedQuote, ...] = ()  # rows whose decision is not one of DECISIONS: not carried (a note is)
    conflicting: tuple[str, ...] = ()        # quote ids with different decisions or notes on several rows
    unmatched: bool = False                  # no quote id of the workbook is among the results
    settled: int = 0  # of those changed, the quotes verified now: they need no decision

    def summary(self, source: Path) -> str:
        looks = self.changed - self.settled
        changed = ("1 reviewed quote changed (its text or where it was found) and needs" if looks == 1 else
                   f"{looks} reviewed quotes changed (their text or where they were found) and need")
        line = f"{source}: carried the decisions and notes of {plural(self.carried, 'quote')}"
        if looks or not self.settled:
            line += f"; {changed} a new look"
        if self.settled:
            line += (f"; {plural(self.settled, 'reviewed quote')} changed and "
                     f"{'is' if self.settled == 1 else 'are'} verified now, needing no decision")
        if self.invalid:
            shown = ", ".join(f"{q.cell} {q.problem.split(';')[0].removeprefix('invalid decision ')}"
                              for q in self.invalid[:LISTED])
            more = f" and {len(self.invalid) - LISTED} more" if len(self.invalid) > LISTED else ""
            line += (f"; {plural(len(self.invalid), 'invalid decision')} not carried "
                     f"({shown}{more}; use one of {', '.join(DECISIONS)})")
            if any(q.reviewer_note for q in self.invalid):
                line += ", the notes on their rows carried"
        if self.conflicting:
            shown = ", ".join(self.conflicting[:LISTED])
            more = f" and {len(self.conflicting) - LISTED} more" if len(self.conflicting) > LISTED else ""
            line += (f"; {plural(len(self.conflicting), 'quote id')} with "
                     f"conflicting decisions on several rows not carried ({shown}{more})")
        return line

    def warnings(self, source: Path, reviewed: int) -> list[str]:
        if not self.unmatched or not reviewed:
            return []
        return [f"{source}: none of its {reviewed} quote ids is among this run's quotes; is it the workbook of "
                "another quote table?"]


def carry_decisions(results: Iterable[QuoteResult], review: Review) -> Carried:
    """Give each unchanged quote the decision and note it had in ``review``.

    A quote is unchanged when its id, its text and its located span (document,
    offsets and matched text) are as they were in the reviewed run; every other
    quote is left undecided so that a person looks at it again. A decision that
    is not one of DECISIONS, or a quote id whose rows disagree, is carried for
    no quote, and listed; the note on a row of an invalid decision is carried
    (the row read as undecided): a typo in the decision cell loses no note.
    """
    _require_fingerprints(review)
    previous: dict[str, ReviewedQuote] = {}
    conflicting: dict[str, None] = {}
    invalid = tuple(q for q in review.quotes if q.invalid)
    for quote in review.quotes:
        if not (quote.decision or quote.reviewer_note):  # an invalid decision reads as none: only its note
            continue
        first = previous.setdefault(quote.quote_id, quote)
        if (first.decision, first.reviewer_note, first.fingerprint) != (quote.decision, quote.reviewer_note,
                                                                         quote.fingerprint):
            conflicting[quote.quote_id] = None
    for quote_id in conflicting:
        del previous[quote_id]
    results = list(results)
    ids = {r.quote_id for r in results}
    carried_results, carried, changed, settled = [], 0, 0, 0
    for result in results:
        before = previous.get(result.quote_id)
        if before is None:
            carried_results.append(result)
        elif before.fingerprint != fingerprint(result):
            changed += 1
            settled += result.status == "verified"
            carried_results.append(result)
        else:
            carried += 1
            carried_results.append(replace(result, decision=before.decision, reviewer_note=before.reviewer_note))
    unmatched = not any(q.quote_id in ids for q in review.quotes)
    return Carried(carried_results, carried, changed, invalid, tuple(conflicting), unmatched, settled)


def review_bytes(review: Review, *, suffix: str) -> bytes:
    """The reviewed rows as JSONL (``.jsonl``) or CSV (``.csv``), columns REVIEW_COLUMNS."""
    rows = [q.to_dict() for q in review.quotes]
    if suffix == ".jsonl":
        return utf8("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows))
    return utf8(csv_text(REVIEW_COLUMNS, ([row[c] for c in REVIEW_COLUMNS] for row in rows)))


REVIEW_FORMATS = (".jsonl", ".csv")


def write_review(path: str | Path, review: Review) -> None:
    """Write the reviewed rows in the format named by the extension (.jsonl or .csv)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in REVIEW_FORMATS:
        raise OutputError(f"{path}: unknown format '{path.suffix}' for reviewed decisions; "
                          f"use {' or '.join(REVIEW_FORMATS)}")
    data = review_bytes(review, suffix=suffix)
    write_bytes_atomic(path, data)


def _text(value: Any) -> str:
    return "" if value is None else str(value).strip()


def _int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None
