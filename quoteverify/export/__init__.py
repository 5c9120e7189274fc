"""The exports: results and findings written as files, JSONL, CSV, the Excel workbook, the review page, the
appendix, the findings and the escalation list, each chosen by the output file's extension. A writer takes
results as data: it may import the model, the plumbing and the other exports, never a stage, the
pipeline or the application.
"""
from __future__ import annotations

from .tables import FORMATS, write_results

__all__ = ["FORMATS", "write_results"]
