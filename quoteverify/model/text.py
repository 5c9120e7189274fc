"""Text shown to people, in one place: as every output can hold it (a lone surrogate, from bytes that were
not UTF-8 in a file name or a quote, carried through with surrogate escapes, becomes U+FFFD; a password in
a URL is masked), and its wording (plurals, clipped lines, where a quote stands among its places)."""
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


# --- wording of messages, reasons and reports ---------------------------------------------------------


def clip(text: str, limit: int) -> str:
    """``text`` on one line (runs of whitespace as one space), cut to ``limit`` characters with an ellipsis."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def plural(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and the noun: "1 quote", "3 quotes" (``plural`` where adding an s will not do)."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def place(occurrences: int, speaker_occurrences: int | None = None, speaker: str = "") -> str:
    """Where a located quote stands among its equally good places: "1 of 1", "1 of 3", "1 of 3 (1 in
    Maria's turns)"; '' for a quote not located."""
    if occurrences < 1:
        return ""
    text = f"1 of {occurrences}"
    if occurrences > 1 and speaker and speaker_occurrences is not None:
        text += f" ({speaker_occurrences} in {speaker}'s turns)"
    return text


def other_places(lines: list[int], occurrences: int) -> str:
    """Where a quote's other equally good places start: "line 12", "lines 3, 40 and 7 more"; '' for none."""
    if not lines:
        return ""
    more = occurrences - 1 - len(lines)
    shown = ", ".join(map(str, lines))
    return f"line{'s' if len(lines) + max(0, more) > 1 else ''} {shown}" + (f" and {more} more" if more > 0 else "")
