"""Reading a reviewed triage workbook back: the reviewer's decision and note per quote.

The workbook written by ``quoteverify verify -o results.xlsx`` has, on its
``Quotes`` sheet, a ``decision`` column (accept, reject, fix quote, fix source),
a ``reviewer_note`` column and a hidden ``fingerprint`` of each quote's text and
located span. Rows are matched by ``quote_id``, so a reviewer may sort, filter
or hide rows freely; the fingerprint lets the next run carry a decision only to
a quote that has not changed since it was reviewed.
"""
from __future__ import annotations

import csv
import hashlib
import io
import json
import zipfile
from collections import Counter
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, Iterable

from .errors import InputError, OutputError
from .types import QuoteResult

DECISIONS = ("accept", "reject", "fix quote", "fix source")
SHEET = "Quotes"
# The columns of `quoteverify review -o reviewed.jsonl|.csv`, in this order.
REVIEW_COLUMNS = ("quote_id", "row", "cell", "status", "decision", "reviewer_note", "problem")


def fingerprint(result: QuoteResult) -> str:
    """Identifies a quote's text and where it was found: any change to either changes it."""
    parts = (result.quote, result.document, str(result.start), str(result.end), result.matched_text)
    return hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()[:16]


def parse_decision(value: Any) -> tuple[str, str]:
    """(decision, problem): a decision as one of DECISIONS, or "" and why it cannot be used.

    Case, spacing, ``_`` and ``-`` are forgiven, since spreadsheets other than
    Excel may not enforce the dropdown.
    """
    raw = "" if value is None else str(value)
    key = " ".join(raw.replace("_", " ").replace("-", " ").split()).casefold()
    if not key:
        return "", "empty decision"
    if key in DECISIONS:
        return key, ""
    return "", f"invalid decision {raw.strip()!r}; use one of {', '.join(DECISIONS)}"


@dataclass(frozen=True)
class ReviewedQuote:
    """One row of a reviewed workbook."""

    quote_id: str
    row: int | None      # the quote's row in the input table
    cell: str            # where its decision is in the workbook, e.g. "Quotes!S14"
    status: str
    decision: str        # one of DECISIONS, or "" when empty or invalid
    reviewer_note: str
    problem: str = ""    # why the decision cannot be used
    fingerprint: str = ""

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        return {column: data[column] for column in REVIEW_COLUMNS}


@dataclass(frozen=True)
class Review:
    """The decisions read from one workbook, in sheet order."""

    path: Path
    quotes: tuple[ReviewedQuote, ...]
    has_fingerprints: bool

    @property
    def problems(self) -> tuple[ReviewedQuote, ...]:
        return tuple(q for q in self.quotes if q.problem)

    def summary(self) -> str:
        counts = Counter(q.decision for q in self.quotes if q.decision)
        empty = sum(q.problem == "empty decision" for q in self.quotes)
        invalid = len(self.problems) - empty
        decided = ", ".join(f"{counts[d]} {d}" for d in DECISIONS)
        return f"{self.path}: {len(self.quotes)} quotes: {decided}; {empty} empty, {invalid} invalid"


def read_review(path: str | Path) -> Review:
    """Read the decisions and notes of a reviewed workbook (or a review page's decisions file), one per quote."""
    from openpyxl import load_workbook
    from openpyxl.utils import get_column_letter
    from openpyxl.utils.exceptions import InvalidFileException

    path = Path(path)
    if path.suffix.lower() in (".json", ".csv"):
        # A decisions file saved by the review page (verify -o report.html) reads as a workbook does.
        from .decisions import read_decisions

        return read_decisions(path)
    if not path.is_file():
        raise InputError(f"{path}: no such file; give the .xlsx written by quoteverify verify -o results.xlsx")
    try:
        # data_only: a cell's value as Excel last showed it, so decisions filled in by formula count.
        book = load_workbook(path, read_only=True, data_only=True)
    except (InvalidFileException, zipfile.BadZipFile, KeyError, OSError) as exc:
        raise InputError(f"{path}: cannot be read as an Excel workbook ({exc}); "
                         "give the .xlsx written by quoteverify verify, saved as .xlsx") from None
    try:
        if SHEET not in book.sheetnames:
            raise InputError(f"{path}: no sheet named '{SHEET}'; give the workbook written by "
                             "quoteverify verify -o results.xlsx (keep its sheet names)")
        rows = book[SHEET].iter_rows(values_only=True)
        header = [str(v).strip().casefold() if v is not None else "" for v in next(rows, ())]
        columns = {name: header.index(name) for name in
                   ("quote_id", "row", "status", "decision", "reviewer_note", "fingerprint") if name in header}
        for required in ("quote_id", "decision"):
            if required not in columns:
                raise InputError(f"{path}: sheet '{SHEET}' has no '{required}' column in its first row; "
                                 "restore the header row quoteverify wrote")
        decision_letter = get_column_letter(columns["decision"] + 1)
        quotes = []
        for number, values in enumerate(rows, start=2):
            def get(name: str) -> Any:
                k = columns.get(name)
                return values[k] if k is not None and k < len(values) else None

            quote_id = get("quote_id")
            if quote_id is None or str(quote_id).strip() == "":
                continue  # blank rows left by deleting or filtering
            decision, problem = parse_decision(get("decision"))
            quotes.append(ReviewedQuote(
                quote_id=str(quote_id), row=_int(get("row")), cell=f"{SHEET}!{decision_letter}{number}",
                status=_text(get("status")), decision=decision, reviewer_note=_text(get("reviewer_note")),
                problem=problem, fingerprint=_text(get("fingerprint"))))
    finally:
        book.close()
    return Review(path, tuple(quotes), "fingerprint" in columns)


def read_previous(path: str | Path) -> Review:
    """read_review() for carrying decisions into a new run: the workbook must have fingerprints."""
    review = read_review(path)
    _require_fingerprints(review)
    return review


def _require_fingerprints(review: Review) -> None:
    if not review.has_fingerprints and review.path.suffix.lower() in (".json", ".csv"):
        raise InputError(f"{review.path}: has no fingerprint for each quote, so unchanged quotes cannot be told "
                         "apart; give the decisions file the review page saved, or the reviewed workbook")
    if not review.has_fingerprints:
        raise InputError(f"{review.path}: sheet '{SHEET}' has no 'fingerprint' column, so unchanged quotes "
                         "cannot be told apart; give a workbook written by this version of quoteverify verify")


@dataclass(frozen=True)
class Carried:
    """Results with the decisions of a previous review carried over."""

    results: list[QuoteResult]
    carried: int      # quotes that got their previous decision or note
    changed: int      # reviewed quotes whose text or span changed, so their decision was dropped

    def summary(self, source: Path) -> str:
        return (f"{source}: carried the decisions and notes of {self.carried} quotes; {self.changed} reviewed "
                "quotes changed (their text or where they were found) and need a new look")


def carry_decisions(results: Iterable[QuoteResult], review: Review) -> Carried:
    """Give each unchanged quote the decision and note it had in ``review``.

    A quote is unchanged when its id, its text and its located span (document,
    offsets and matched text) are as they were in the reviewed run; every other
    quote is left undecided so that a person looks at it again.
    """
    _require_fingerprints(review)
    previous = {}
    for quote in review.quotes:
        if quote.decision or quote.reviewer_note:
            previous.setdefault(quote.quote_id, quote)
    carried_results, carried, changed = [], 0, 0
    for result in results:
        before = previous.get(result.quote_id)
        if before is None:
            carried_results.append(result)
        elif before.fingerprint != fingerprint(result):
            changed += 1
            carried_results.append(result)
        else:
            carried += 1
            carried_results.append(replace(result, decision=before.decision, reviewer_note=before.reviewer_note))
    return Carried(carried_results, carried, changed)


def review_bytes(review: Review, *, suffix: str) -> bytes:
    """The reviewed rows as JSONL (``.jsonl``) or CSV (``.csv``), columns REVIEW_COLUMNS."""
    rows = [q.to_dict() for q in review.quotes]
    if suffix == ".jsonl":
        return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows).encode("utf-8")
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator="\r\n")  # as the results CSV
    writer.writerow(REVIEW_COLUMNS)
    writer.writerows([["" if row[c] is None else row[c] for c in REVIEW_COLUMNS] for row in rows])
    return buffer.getvalue().encode("utf-8")


REVIEW_FORMATS = (".jsonl", ".csv")


def write_review(path: str | Path, review: Review) -> None:
    """Write the reviewed rows in the format named by the extension (.jsonl or .csv)."""
    from .export.tables import write_atomic

    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in REVIEW_FORMATS:
        raise OutputError(f"{path}: unknown format '{path.suffix}' for reviewed decisions; "
                          f"use {' or '.join(REVIEW_FORMATS)}")
    data = review_bytes(review, suffix=suffix)
    write_atomic(path, lambda p: p.write_bytes(data))


def _text(value: Any) -> str:
    return "" if value is None else str(value).strip()


def _int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None
