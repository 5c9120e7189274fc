"""The Excel triage workbook (a plain sheet, worst first)."""
from __future__ import annotations

import json
import re
from pathlib import Path

from ..types import QuoteResult
from .tables import COLUMNS, _flat

_ILLEGAL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")
MAX_CELL = 32_767


def cell_text(value) -> object:
    """A value safe for a cell: no control characters, never a formula, within Excel's limit."""
    if value is None:
        return None
    if isinstance(value, (list, dict)):
        value = json.dumps(value, ensure_ascii=False)
    if not isinstance(value, str):
        return value
    value = _ILLEGAL.sub("", value)
    if len(value) > MAX_CELL:
        marker = " […truncated; full text in the JSONL output]"
        value = value[: MAX_CELL - len(marker)] + marker
    return value


def write_workbook(path: Path, results: list[QuoteResult], *, run=None) -> None:
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.title = "Quotes"
    sheet.append(list(COLUMNS))
    order = sorted(range(len(results)), key=lambda k: (results[k].confidence, k))
    for k in order:
        row = _flat(results[k])
        sheet.append([cell_text(row[c]) for c in COLUMNS])
        for cell in sheet[sheet.max_row]:
            if isinstance(cell.value, str):
                cell.data_type = "s"
    sheet.freeze_panes = "A2"
    book.save(path)
