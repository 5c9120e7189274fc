"""quoteverify: is this quote really in the source, where, and how does it differ?"""
from __future__ import annotations

__version__ = "0.1.0"

from .application import verify_frame
from .config import Config, load_config
from .errors import ConfigError, InputError, OutputError, QuoteverifyError
from .pipeline import Run, run, verify
from .types import Difference, Document, Quote, QuoteResult

__all__ = [
    "Config", "ConfigError", "Difference", "Document", "InputError", "OutputError", "Quote", "QuoteResult",
    "QuoteverifyError", "Run", "load_config", "run", "verify", "verify_frame", "__version__",
]
