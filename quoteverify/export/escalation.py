"""The escalation list of a recheck (quoteverify.app.repeat.recheck) as CSV or JSON."""
from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

from ..model.rows import csv_text
from ..model.text import utf8
from ..model.types import ESCALATION_COLUMNS, Escalation
from ..plumbing.guard import check_output_path
from ..plumbing.transaction import write_bytes_atomic

ESCALATION_FORMATS = (".csv", ".json")


def escalation_bytes(escalations: Sequence[Escalation], *, suffix: str) -> bytes:
    """The escalation list as CSV (``.csv``, cells as in the results CSV) or a JSON array (``.json``)."""
    rows = [asdict(e) for e in escalations]
    if suffix == ".json":
        return utf8(json.dumps(rows, ensure_ascii=False, indent=2) + "\n")
    return utf8(csv_text(ESCALATION_COLUMNS, ([row[c] for c in ESCALATION_COLUMNS] for row in rows)))


def write_escalation(path: str | Path, escalations: Sequence[Escalation]) -> None:
    """Write the escalation list as .csv or .json, by the extension of ``path``."""
    path = Path(path)
    check_output_path(path, suffixes=ESCALATION_FORMATS)
    data = escalation_bytes(escalations, suffix=path.suffix.lower())
    write_bytes_atomic(path, data)
