"""A reviewer's decisions as every file holds them (Review, ReviewedQuote, parse_decision), and the reading of
a decisions file saved by the review page (``-o report.html``), like a reviewed workbook (quoteverify.app.review).

The page saves every quote, worst first, as JSON::

    {"format": "quoteverify decisions", "version": 1, "run": "...",
     "decisions": [{"quote_id": "Q3", "row": 4, "status": "review", "decision": "accept",
                    "reviewer_note": "...", "fingerprint": "..."}, ...]}

or as CSV with the columns ``quote_id,row,status,decision,reviewer_note,fingerprint``
(a text starting with ``=``, ``+``, ``-`` or ``@`` gets a leading ``'``, as in the
results CSV; it is taken off again here). Either reads back as a
:class:`~quoteverify.app.review.Review`, so ``quoteverify review`` and ``verify
--previous`` treat it as they treat a reviewed workbook. The CSV written by
``quoteverify review -o reviewed.csv`` reads too (it has no fingerprints, so it
cannot be carried into a new run).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from ..model.decoders import DecodeError, csv_rows, json_loads, shown
from ..model.errors import InputError
from ..model.rows import spreadsheet_unsafe
from ..model.text import plural
from ..model.types import DECISIONS, REVIEW_COLUMNS, QuoteResult, fingerprint
from ..plumbing.archive import ArchiveLimits

DECISION_FORMATS = (".json", ".csv")
FORMAT_NAME = "quoteverify decisions"
def parse_decision(value: Any) -> tuple[str, str]:
    """(decision, problem): a decision as one of DECISIONS, or "" and why it cannot be used.

    Case, spacing, ``_`` and ``-`` are forgiven, since spreadsheets other than
    Excel may not enforce the dropdown.
    """
    raw = "" if value is None else str(value)
    key = " ".join(raw.replace("_", " ").replace("-", " ").split()).casefold()
    if not key:
        return "", EMPTY
    if key in DECISIONS:
        return key, ""
    return "", f"invalid decision {shown(raw.strip())}; use one of {', '.join(DECISIONS)}"


EMPTY = "empty decision"


def decision_problem(value: Any, status: str) -> tuple[str, str]:
    """parse_decision() for a quote of ``status``: a verified quote needs no decision, so an empty one is none
    of its problems."""
    decision, problem = parse_decision(value)
    return decision, "" if problem == EMPTY and status == "verified" else problem


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

    @property
    def invalid(self) -> bool:
        """Whether its decision cell holds something that is no decision (a typo, another word)."""
        return bool(self.problem) and self.problem != EMPTY

    @property
    def written(self) -> bool:
        """Whether the reviewer wrote anything on its row: a decision, valid or not, or a note."""
        return bool(self.decision or self.reviewer_note) or self.invalid

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
        """How many quotes, how many need a decision (those not verified), and how far they are decided."""
        to_decide = [q for q in self.quotes if q.status != "verified"]
        counts = Counter(q.decision for q in to_decide if q.decision)
        empty = sum(q.problem == EMPTY for q in self.quotes)
        invalid = sum(q.invalid for q in self.quotes)
        decided = ", ".join(f"{counts[d]} {d}" for d in DECISIONS)
        line = (f"{self.path}: {plural(len(self.quotes), 'quote')}, {len(to_decide)} to decide (review or "
                f"unverified): {decided}; {empty} undecided, {invalid} invalid")
        verified = sum(1 for q in self.quotes if q.status == "verified" and q.decision)
        return line + (f"; and {plural(verified, 'decision')} on verified quotes" if verified else "")


def _text(value: Any) -> str:
    return "" if value is None else str(value).strip()


def _row(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _quote(entry: dict[str, Any], cell: str) -> ReviewedQuote | None:
    quote_id = spreadsheet_unsafe(_text(entry.get("quote_id")))
    if not quote_id:
        return None  # a blank line, as a workbook's blank rows
    status = _text(entry.get("status"))
    decision, problem = decision_problem(spreadsheet_unsafe(_text(entry.get("decision"))), status)
    return ReviewedQuote(quote_id=quote_id, row=_row(entry.get("row")), cell=cell, status=status,
                         decision=decision, reviewer_note=spreadsheet_unsafe(_text(entry.get("reviewer_note"))),
                         problem=problem, fingerprint=_text(entry.get("fingerprint")))


def _read_json(path: Path, text: str) -> Review:
    hint = "give the .json the review page's 'save decisions: JSON' button wrote"
    try:
        data = json_loads(text)
    except DecodeError as exc:
        raise InputError(f"{path}: not valid JSON ({exc}); {hint}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT_NAME or not isinstance(data.get("decisions"), list):
        raise InputError(f"{path}: not a quoteverify decisions file (no \"format\": \"{FORMAT_NAME}\" with a "
                         f"\"decisions\" list); {hint}")
    quotes = []
    for number, entry in enumerate(data["decisions"], start=1):
        if not isinstance(entry, dict):
            raise InputError(f"{path}: decision {number} is not a JSON object; {hint}")
        quote = _quote(entry, f"decision {number}")
        if quote is not None:
            quotes.append(quote)
    has_fingerprints = all(q.fingerprint for q in quotes) if quotes else True
    return Review(path, tuple(quotes), has_fingerprints)


def _read_csv(path: Path, text: str, limits: ArchiveLimits) -> Review:
    rows = csv_rows(text, source=path, max_columns=limits.max_columns)
    header = [h.strip().casefold() for h in next(rows, (0, 0, []))[2]]
    for required in ("quote_id", "decision"):
        if required not in header:
            raise InputError(f"{path}: no '{required}' column in the first line; give the .csv the review page's "
                             "'save decisions: CSV' button wrote (columns quote_id, row, status, decision, "
                             "reviewer_note, fingerprint)")
    quotes = []
    for _, number, cells in rows:
        quote = _quote(dict(zip(header, cells)), f"line {number}")
        if quote is not None:
            quotes.append(quote)
    return Review(path, tuple(quotes), "fingerprint" in header)


def _jsonl_quote(entry: dict[str, Any], cell: str) -> ReviewedQuote | None:
    """A line of a results JSONL (verify -o results.jsonl: its fingerprint is computed) or of the JSONL of
    quoteverify review."""
    quote = _quote(entry, cell)
    if quote is None or "matched_text" not in entry:
        return quote
    try:
        result = QuoteResult(**entry)
    except TypeError:
        return quote
    return replace(quote, fingerprint=fingerprint(result))


def read_jsonl_decisions(path: Path) -> Review:
    """The decisions a JSONL holds: the results of a run (with its carried decisions) or quoteverify review's
    output; an InputError when it is neither."""
    quotes = []
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not UTF-8 text (byte {exc.start}); give the JSONL quoteverify wrote") from None
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            entry = json_loads(line)
        except DecodeError as exc:
            raise InputError(f"{path}: line {number} is not JSON ({exc})") from None
        if not isinstance(entry, dict) or "quote_id" not in entry or "decision" not in entry:
            raise InputError(f"{path}: line {number} holds no quote_id and decision")
        quote = _jsonl_quote(entry, f"line {number}")
        if quote is not None:
            quotes.append(quote)
    return Review(path, tuple(quotes), bool(quotes) and all(q.fingerprint for q in quotes))


def read_decisions(path: str | Path, *, limits: ArchiveLimits | None = None) -> Review:
    """The decisions and notes of a decisions file (.json or .csv), one per quote; ``limits``: how wide a
    row of the CSV may be (default: the config's)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in DECISION_FORMATS:
        raise InputError(f"{path}: unknown decisions format '{path.suffix}'; use .json or .csv")
    if not path.is_file():
        raise InputError(f"{path}: no such file; give the decisions file the review page saved (.json or .csv)")
    try:
        # utf-8-sig: a CSV re-saved by a spreadsheet often starts with a byte order mark.
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not UTF-8 text (byte {exc.start}); save it as UTF-8") from None
    return _read_json(path, text) if suffix == ".json" else _read_csv(path, text, limits or ArchiveLimits.of())
