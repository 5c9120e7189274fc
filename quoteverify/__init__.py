"""quoteverify: is this quote really in the source, where, and how does it differ?

The house has one floor per folder, each importing only from the floors below it (tests/test_layers.py
holds it so), from the ground up: ``model`` (named results, errors, settings), ``plumbing`` (files, caches,
the manifest), ``sources`` (documents and quotes in), ``search`` (where a quote stands), ``judge`` (what its
differences mean), ``pipeline`` (the stages in order, on one machine or a cluster), ``app`` (reruns, the
store, findings, reviews), ``export`` (results out as files). The face sits at the top, in this folder:
this front door, ``cli`` (the command line), ``commands`` (each command's work in order) and ``terminal``
(what a command prints).
"""
from __future__ import annotations

from .app.repeat import verify_frame
from .model.config import Config, load_config
from .model.errors import ConfigError, InputError, OutputError, QuoteverifyError
from .model.types import Difference, Document, Quote, QuoteResult
from .model.version import __version__
from .pipeline.stages import Run, run, verify

__all__ = [
    "Config", "ConfigError", "Difference", "Document", "InputError", "OutputError", "Quote", "QuoteResult",
    "QuoteverifyError", "Run", "load_config", "run", "verify", "verify_frame", "__version__",
]
