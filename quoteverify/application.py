"""What runs the pipeline again, or around it: results as a DataFrame, a manifest's rerun, a stored run's
recheck, a reviewed workbook carried into a new run.

Between the pipeline and the renderers: it imports stages and the pipeline, and hands the renderers
results and findings as data.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from .config import Config
from .pipeline import verify
from .rows import to_frame


def verify_frame(documents: Any, quotes: Any, config: Config | Mapping[str, Any] | str | Path | None = None,
                 **kwargs: Any):
    """verify() as a pandas DataFrame, one row per quote in input order.

    ``row``, ``start``, ``end`` and ``line`` are nullable integers (Int64): an
    unlocated quote has <NA> there, and located ones stay integers."""
    return to_frame(verify(documents, quotes, config, **kwargs))
