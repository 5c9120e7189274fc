"""quoteverify: is this quote really in the source, where, and how does it differ?"""
from __future__ import annotations

from .application import verify_frame
from .config import Config, load_config
from .errors import ConfigError, InputError, OutputError, QuoteverifyError
from .pipeline import Run, run, verify
from .types import Difference, Document, Quote, QuoteResult
from .version import __version__

__all__ = [
    "Config", "ConfigError", "Difference", "Document", "InputError", "OutputError", "Quote", "QuoteResult",
    "QuoteverifyError", "Run", "load_config", "run", "verify", "verify_frame", "__version__",
]
