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
