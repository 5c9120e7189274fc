"""Results written as JSONL, CSV, a workbook or the review page, atomically, byte-identical run to run."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..model.errors import OutputError
from ..model.rows import csv_bytes, jsonl_bytes
from ..model.types import Findings, QuoteResult
from ..plumbing.transaction import write_bytes_atomic
from ..plumbing.transaction import write_output as write_atomic
from .excel import write_workbook
from .page import page_bytes


def write_results(path: str | Path, results: list[QuoteResult], *, run=None, findings: Findings | None = None) -> None:
    """Write results in the format named by the extension (.jsonl, .csv, .xlsx, .html: the review page);
    the workbook shows ``run``'s settings and the ``findings``."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise OutputError(f"{path}: unknown output format '{path.suffix}'; use {', '.join(FORMATS)}")
    FORMATS[suffix](path, results, run, findings)


def _jsonl(path, results, run, findings):
    write_bytes_atomic(path, jsonl_bytes(results))


def _csv(path, results, run, findings):
    write_bytes_atomic(path, csv_bytes(results))


def _xlsx(path, results, run, findings):
    write_atomic(path, lambda p: write_workbook(p, results, run=run, findings=findings))


def _html(path, results, run, findings):
    write_bytes_atomic(path, page_bytes(results))


FORMATS: dict[str, Callable[[Path, list[QuoteResult], Any, Findings | None], None]] = {
    ".jsonl": _jsonl, ".csv": _csv, ".xlsx": _xlsx, ".html": _html,
}
