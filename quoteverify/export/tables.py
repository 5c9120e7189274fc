"""Results as JSONL, CSV and a DataFrame; written atomically, byte-identical run to run."""
from __future__ import annotations

import csv
import io
import json
import os
import tempfile
from pathlib import Path
from typing import Any, Callable, Iterable

from ..errors import OutputError
from ..types import QuoteResult

# Columns of CSV and DataFrames, in this order; lists are JSON-encoded in CSV.
COLUMNS = ("quote_id", "row", "status", "match_type", "confidence", "band", "quote", "claimed_document",
           "document", "start", "end", "line", "speaker", "timestamp", "matched_text", "context_before",
           "context_after", "reasons", "differences", "bm25_score", "bm25_ratio", "cosine", "match_ratio",
           "suggestion", "document_sha256", "decision", "reviewer_note")


def _flat(result: QuoteResult) -> dict[str, Any]:
    row = {c: getattr(result, c) for c in COLUMNS}
    for key, value in result.extra.items():
        row.setdefault(key, value)
    return row


def to_frame(results: Iterable[QuoteResult]):
    import pandas as pd

    rows = [_flat(r) for r in results]
    columns = list(COLUMNS) + sorted({k for r in rows for k in r} - set(COLUMNS))
    return pd.DataFrame(rows, columns=columns)


def jsonl_bytes(results: list[QuoteResult]) -> bytes:
    lines = [json.dumps(r.to_dict(), ensure_ascii=False, sort_keys=False) for r in results]
    return ("\n".join(lines) + ("\n" if lines else "")).encode("utf-8")


def csv_bytes(results: list[QuoteResult]) -> bytes:
    rows = [_flat(r) for r in results]
    extra = sorted({k for r in rows for k in r} - set(COLUMNS))
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(list(COLUMNS) + extra)
    for row in rows:
        values = []
        for column in list(COLUMNS) + extra:
            value = row.get(column)
            if isinstance(value, (list, dict)):
                value = json.dumps(value, ensure_ascii=False)
            values.append("" if value is None else value)
        writer.writerow(values)
    return buffer.getvalue().encode("utf-8")


def write_atomic(path: Path, write: Callable[[Path], None]) -> None:
    """Write through a temporary file in the same folder, renamed into place at the end."""
    if not path.parent.exists():
        raise OutputError(f"{path}: folder {path.parent} does not exist; create it or choose another path")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    os.close(fd)
    try:
        write(Path(tmp))
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _write_bytes(data: bytes) -> Callable[[Path], None]:
    return lambda p: p.write_bytes(data)


def write_results(path: str | Path, results: list[QuoteResult], *, run=None) -> None:
    """Write results in the format named by the extension (.jsonl, .csv, .xlsx)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise OutputError(f"{path}: unknown output format '{path.suffix}'; use {', '.join(FORMATS)}")
    FORMATS[suffix](path, results, run)


def _jsonl(path, results, run):
    write_atomic(path, _write_bytes(jsonl_bytes(results)))


def _csv(path, results, run):
    write_atomic(path, _write_bytes(csv_bytes(results)))


def _xlsx(path, results, run):
    from .excel import write_workbook

    write_atomic(path, lambda p: write_workbook(p, results, run=run))


FORMATS: dict[str, Callable[[Path, list[QuoteResult], Any], None]] = {
    ".jsonl": _jsonl, ".csv": _csv, ".xlsx": _xlsx,
}
