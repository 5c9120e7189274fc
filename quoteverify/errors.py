"""Errors that reach the user: each message names the file, the row and the fix."""
from __future__ import annotations


class QuoteverifyError(Exception):
    """Base class: the CLI prints the message on one line and exits with code 2."""


class InputError(QuoteverifyError):
    """A document or quote table that cannot be read as given."""


class ConfigError(QuoteverifyError):
    """A configuration file with an unknown key, a wrong type or a bad value."""


class OutputError(QuoteverifyError):
    """An output path that cannot be written."""
