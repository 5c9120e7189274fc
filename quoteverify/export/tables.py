"""Results written as JSONL, CSV, a workbook or the review page, atomically, byte-identical run to run."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from ..errors import OutputError
from ..rows import (COLUMNS, FORMULA_START, INTEGER_COLUMNS, csv_bytes, flat_row, jsonl_bytes,  # noqa: F401
                    spreadsheet_safe, to_frame)
from ..transaction import check_output_path, write_output as write_atomic  # noqa: F401
from ..types import Findings, QuoteResult
from .excel import write_workbook
from .page import page_bytes


def _write_bytes(data: bytes) -> Callable[[Path], None]:
    return lambda p: p.write_bytes(data)


def write_results(path: str | Path, results: list[QuoteResult], *, run=None, findings: Findings | None = None) -> None:
    """Write results in the format named by the extension (.jsonl, .csv, .xlsx, .html: the review page);
    the workbook shows ``run``'s settings and the ``findings``."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise OutputError(f"{path}: unknown output format '{path.suffix}'; use {', '.join(FORMATS)}")
    FORMATS[suffix](path, results, run, findings)


def _jsonl(path, results, run, findings):
    write_atomic(path, _write_bytes(jsonl_bytes(results)))


def _csv(path, results, run, findings):
    write_atomic(path, _write_bytes(csv_bytes(results)))


def _xlsx(path, results, run, findings):
    write_atomic(path, lambda p: write_workbook(p, results, run=run, findings=findings))


def _html(path, results, run, findings):
    data = page_bytes(results)
    write_atomic(path, _write_bytes(data))


FORMATS: dict[str, Callable[[Path, list[QuoteResult], Any, Findings | None], None]] = {
    ".jsonl": _jsonl, ".csv": _csv, ".xlsx": _xlsx, ".html": _html,
}
