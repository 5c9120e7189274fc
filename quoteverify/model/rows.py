"""A result as one flat row: the shape the JSONL, the CSV and a DataFrame share, and its bytes.

On the model floor, so that the pipeline, the application (``verify_frame``, the manifest's
results_sha256) and the renderers read one definition of a result's columns.
"""
from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Sequence
from dataclasses import fields
from pathlib import Path
from typing import Any

from .decoders import DecodeError, json_loads, record_of
from .errors import InputError
from .types import QuoteResult, triage_order

# Columns of CSV and DataFrames, in this order; lists are JSON-encoded in CSV.
RESULT_COLUMNS = (
    "quote_id", "row", "status", "match_type", "confidence", "band", "severity", "p_change", "quote",
    "claimed_document", "document", "start", "end", "line", "page", "page_kind", "cite", "occurrences",
    "other_lines", "speaker", "speaker_occurrences", "timestamp", "language", "matched_text",
    "context_before", "context_after", "reasons", "differences", "bm25_score", "bm25_ratio", "cosine",
    "match_ratio", "signals", "suggestion", "document_sha256", "finding", "finding_confidence", "claimed_speaker",
    "decision", "reviewer_note")


def _value(result: QuoteResult, name: str) -> Any:
    """A field as the outputs hold it: the differences as plain dicts, the rest as they are."""
    if name == "differences":
        return [d.as_dict() for d in result.differences]
    return getattr(result, name)


def flat_row(result: QuoteResult) -> dict[str, Any]:
    row = {c: _value(result, c) for c in RESULT_COLUMNS}
    for key, value in result.extra.items():
        # A column of the quote table named like a result column ("status", "line") is kept beside it.
        while key in row:
            key = f"input_{key}"
        row[key] = value
    return row


# Whole numbers that are missing for some quotes (an unlocated quote has no start): nullable integers,
# not floats with NaN, so 1234 stays 1234.
INTEGER_COLUMNS = ("row", "start", "end", "line", "occurrences", "speaker_occurrences")


def to_frame(results: Iterable[QuoteResult]):
    """The results as a pandas DataFrame, one row per quote, with the columns of the CSV."""
    # pandas takes a second to import; only the DataFrame API needs it.
    import pandas as pd

    rows = [flat_row(r) for r in results]
    columns = list(RESULT_COLUMNS) + sorted({k for r in rows for k in r} - set(RESULT_COLUMNS))
    frame = pd.DataFrame(rows, columns=columns)
    return frame.astype({c: "Int64" for c in INTEGER_COLUMNS})


def jsonl_bytes(results: list[QuoteResult]) -> bytes:
    # The fields as they are: to_dict() (dataclasses.asdict) deep-copies every list, which took two
    # thirds of the time of writing 100,000 results, for the same JSON.
    lines = [json.dumps({f.name: _value(r, f.name) for f in fields(r)}, ensure_ascii=False, sort_keys=False)
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
    """Text that a spreadsheet shows as text: a leading ' keeps "=HYPERLINK(...)" from running. Text that
    starts with ' before such a character gets one more, so that spreadsheet_unsafe() gives it back as it was
    (as the review page's saved CSV does)."""
    if isinstance(value, str) and value.lstrip("'").startswith(FORMULA_START):
        return "'" + value
    return value


def spreadsheet_unsafe(text: str) -> str:
    """A cell as spreadsheet_safe() found it: the ' it put before a formula's first character taken off."""
    return text[1:] if text.startswith("'") and text.lstrip("'").startswith(FORMULA_START) else text


def csv_text(columns: Sequence[str], rows: Iterable[Iterable[Any]]) -> str:
    """The one CSV writer of quoteverify: a header and rows, lines ended with CRLF, a list or mapping written
    as JSON, None as an empty cell, and every text cell (the header's too) spreadsheet_safe."""
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow([spreadsheet_safe(column) for column in columns])
    for row in rows:
        writer.writerow([_csv_cell(value) for value in row])
    return buffer.getvalue()


def _csv_cell(value: Any) -> Any:
    if isinstance(value, (list, tuple, dict)):
        value = json.dumps(value, ensure_ascii=False)
    return "" if value is None else spreadsheet_safe(value)


def csv_bytes(results: list[QuoteResult]) -> bytes:
    """The results as CSV, worst first as a reviewer works through them (types.triage_order: unverified, then
    review by p_change, then confidence); the ``row`` column gives the input order back."""
    rows = [flat_row(results[k]) for k in triage_order(results)]
    columns = list(RESULT_COLUMNS) + sorted({k for r in rows for k in r} - set(RESULT_COLUMNS))
    text = csv_text(columns, ([row.get(column) for column in columns] for row in rows))
    return text.encode("utf-8", "backslashreplace")


_WRITE_JSONL = "write it with 'quoteverify verify ... -o results.jsonl'"


def results_file_bytes(path: Path, made: str) -> bytes:
    """The bytes of a results JSONL that ``made`` (the review page, the appendix) is made from."""
    if path.suffix.lower() != ".jsonl":
        raise InputError(f"{path}: {made} is made from the JSONL results; "
                         "write them with 'quoteverify verify ... -o results.jsonl'")
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise InputError(f"{path}: no such results file; {_WRITE_JSONL}") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a folder; give the results file written by verify -o results.jsonl") from None


def results_from_jsonl(path: Path, data: bytes) -> list[QuoteResult]:
    """The results in the JSONL bytes ``jsonl_bytes`` wrote, one per line; anything else is an InputError."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not UTF-8 text (byte {exc.start}); give the JSONL quoteverify wrote") from None
    results = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            results.append(record_of(QuoteResult, json_loads(line), name="the result"))
        except DecodeError as exc:
            raise InputError(f"{path}: line {number}: not a quoteverify result ({exc}); give the JSONL "
                             "written by quoteverify verify -o results.jsonl") from None
    return results
