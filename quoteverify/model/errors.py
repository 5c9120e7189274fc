"""Errors that reach the user: each message names the file, the row and the fix."""
from __future__ import annotations

from contextvars import ContextVar

# Whether the user is on the command line, which names its options (--quote-col), or in Python, which names the
# config keys and arguments: a message says the fix in the words of the face the user is in.
COMMAND_LINE: ContextVar[bool] = ContextVar("command_line", default=False)


def option(flag: str, python: str) -> str:
    """``flag`` (an option, "--sheet") on the command line; ``python`` (what Python takes instead) elsewhere."""
    return flag if COMMAND_LINE.get() else python


class QuoteverifyError(Exception):
    """Base class: the CLI prints the message on one line and exits with code 2."""


class InputError(QuoteverifyError):
    """A document or quote table that cannot be read as given."""


class ConfigError(QuoteverifyError):
    """A configuration file with an unknown key, a wrong type or a bad value."""


class OutputError(QuoteverifyError):
    """An output path that cannot be written."""
