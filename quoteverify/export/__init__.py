"""Writers for results: JSONL, CSV, Excel; chosen by the output file's extension."""
from __future__ import annotations

from .tables import FORMATS, write_results

__all__ = ["FORMATS", "write_results"]
