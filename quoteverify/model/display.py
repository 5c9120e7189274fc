"""Text as every output shows it: a lone surrogate (bytes that were not UTF-8, in a file name or
a quote, carried through with surrogate escapes) becomes U+FFFD, which UTF-8 can hold."""
from __future__ import annotations

import re

_SURROGATE = re.compile("[\ud800-\udfff]")
REPLACEMENT = "\ufffd"


def displayable(text: str) -> str:
    """``text`` with each lone surrogate replaced by U+FFFD."""
    return _SURROGATE.sub(REPLACEMENT, text)


def utf8(text: str) -> bytes:
    """``text`` as UTF-8, lone surrogates shown as U+FFFD instead of failing."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return displayable(text).encode("utf-8")


def displayable_data(value):
    """``value`` (text, or lists and dicts of them) with every lone surrogate shown as U+FFFD."""
    if isinstance(value, str):
        return displayable(value)
    if isinstance(value, dict):
        return {displayable_data(k): displayable_data(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [displayable_data(v) for v in value]
    return value


# scheme://user:password@host: the password is whatever lies between the first ':' after the user and the last
# '@' before the host (a password may hold '@' or ':'; a user name may not hold ':').
# In a message, a URL ends at a space; one argument of a command line is one URL, spaces and all.
_URL_PASSWORD = re.compile(r"(\b[A-Za-z][A-Za-z0-9+.-]*://[^:/?#@\s]*:)[^\s/?#]*(@)")
_ARGUMENT_PASSWORD = re.compile(r"(\b[A-Za-z][A-Za-z0-9+.-]*://[^:/?#@]*:)[^/?#]*(@)")
MASK = "***"


def masked(text: str, *, argument: bool = False) -> str:
    """``text`` with the password of every URL in it (``postgresql://user:secret@host/db``) shown as ***:
    what quoteverify says or records of a command line or a store never holds a secret. ``argument``: text is
    one argument of a command line, whose URL may hold spaces."""
    return (_ARGUMENT_PASSWORD if argument else _URL_PASSWORD).sub(rf"\g<1>{MASK}\g<2>", text)
