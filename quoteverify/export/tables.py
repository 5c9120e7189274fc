"""Results as JSONL, CSV and a DataFrame; written atomically, byte-identical run to run."""
from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Callable, Iterable
from dataclasses import fields
from pathlib import Path
from typing import Any

from ..errors import OutputError
from ..transaction import clean_output_folder
from ..types import QuoteResult

# Columns of CSV and DataFrames, in this order; lists are JSON-encoded in CSV.
COLUMNS = ("quote_id", "row", "status", "match_type", "confidence", "band", "quote", "claimed_document",
           "document", "start", "end", "line", "speaker", "timestamp", "language", "matched_text",
           "context_before", "context_after", "reasons", "differences", "bm25_score", "bm25_ratio", "cosine",
           "match_ratio",
           "suggestion", "document_sha256", "finding", "finding_confidence", "claimed_speaker", "decision",
           "reviewer_note")


def _flat(result: QuoteResult) -> dict[str, Any]:
    row = {c: getattr(result, c) for c in COLUMNS}
    for key, value in result.extra.items():
        # A column of the quote table named like a result column ("status", "line") is kept beside it.
        while key in row:
            key = f"input_{key}"
        row[key] = value
    return row


# Whole numbers that are missing for some quotes (an unlocated quote has no start): nullable integers,
# not floats with NaN, so 1234 stays 1234.
INTEGER_COLUMNS = ("row", "start", "end", "line")


def to_frame(results: Iterable[QuoteResult]):
    import pandas as pd

    rows = [_flat(r) for r in results]
    columns = list(COLUMNS) + sorted({k for r in rows for k in r} - set(COLUMNS))
    frame = pd.DataFrame(rows, columns=columns)
    return frame.astype({c: "Int64" for c in INTEGER_COLUMNS})


def jsonl_bytes(results: list[QuoteResult]) -> bytes:
    # The fields as they are: to_dict() (dataclasses.asdict) deep-copies every list, which took two
    # thirds of the time of writing 100,000 results, for the same JSON.
    lines = [json.dumps({f.name: getattr(r, f.name) for f in fields(r)}, ensure_ascii=False, sort_keys=False)
             for r in results]
    text = "\n".join(lines) + ("\n" if lines else "")
    # Escaped, so that a reader splitting at any line break (str.splitlines) still finds one result per
    # line; they can only occur inside JSON strings, where the escape reads back as the same character.
    text = text.translate(_LINE_SEPARATORS)
    # Likewise a lone surrogate (bytes decoded with surrogateescape, given through the Python API),
    # which UTF-8 cannot hold.
    return text.encode("utf-8", "backslashreplace")


_LINE_SEPARATORS = {0x85: "\\u0085", 0x2028: "\\u2028", 0x2029: "\\u2029"}


# A spreadsheet opening a CSV runs a cell that starts with one of these as a formula.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(value: Any) -> Any:
    """Text that a spreadsheet shows as text: a leading ' keeps "=HYPERLINK(...)" from running."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def csv_bytes(results: list[QuoteResult]) -> bytes:
    rows = [_flat(r) for r in results]
    extra = sorted({k for r in rows for k in r} - set(COLUMNS))
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow([spreadsheet_safe(column) for column in list(COLUMNS) + extra])
    for row in rows:
        values = []
        for column in list(COLUMNS) + extra:
            value = row.get(column)
            if isinstance(value, (list, dict)):
                value = json.dumps(value, ensure_ascii=False)
            values.append("" if value is None else spreadsheet_safe(value))
        writer.writerow(values)
    return buffer.getvalue().encode("utf-8", "backslashreplace")


def check_output_path(path: str | Path, *, inputs: Iterable[str | Path] = (),
                      suffixes: Iterable[str] | None = None) -> None:
    """Refuse an output that could not be written, or would replace one of ``inputs``.

    Called before a long run, so that a typo fails at once. An existing output
    file is replaced (see write_atomic); an input never is.
    """
    path = Path(path)
    if path.is_dir():
        raise OutputError(f"{path}: is a folder; give a file name, such as {path / 'results.jsonl'}")
    if suffixes is not None and path.suffix.lower() not in (suffixes := tuple(suffixes)):
        raise OutputError(f"{path}: unknown output format '{path.suffix}'; use {', '.join(suffixes)}")
    if not path.parent.is_dir():
        raise OutputError(f"{path}: folder {path.parent} does not exist; create it or choose another path")
    if not os.access(path.parent, os.W_OK):
        raise OutputError(f"{path}: folder {path.parent} is not writable; choose another path")
    for other in inputs:
        if Path(other).resolve() == path.resolve():
            raise OutputError(f"{path}: is also an input of this run and would be replaced; "
                              "choose another output name")
    clean_output_folder(path.parent)


def write_atomic(path: Path, write: Callable[[Path], None]) -> None:
    """Write through a temporary file renamed into place (see quoteverify.transaction)."""
    from ..transaction import write_atomic as write_through

    check_output_path(path)
    write_through(Path(path), write)


def write_bytes_atomic(path: Path, data: bytes) -> None:
    """Write rendered ``data`` to ``path`` as write_atomic does: the whole file or none."""

    def write(tmp: Path) -> None:
        tmp.write_bytes(data)

    write_atomic(path, write)


def write_results(path: str | Path, results: list[QuoteResult], *, run=None) -> None:
    """Write results in the format named by the extension (.jsonl, .csv, .xlsx, .html: the review page)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise OutputError(f"{path}: unknown output format '{path.suffix}'; use {', '.join(FORMATS)}")
    FORMATS[suffix](path, results, run)


def _jsonl(path, results, run):
    write_bytes_atomic(path, jsonl_bytes(results))


def _csv(path, results, run):
    write_bytes_atomic(path, csv_bytes(results))


def _xlsx(path, results, run):
    from .excel import write_workbook

    write_atomic(path, lambda p: write_workbook(p, results, run=run))


def _html(path, results, run):
    from .page import page_bytes

    write_bytes_atomic(path, page_bytes(results))


FORMATS: dict[str, Callable[[Path, list[QuoteResult], Any], None]] = {
    ".jsonl": _jsonl, ".csv": _csv, ".xlsx": _xlsx, ".html": _html,
}
