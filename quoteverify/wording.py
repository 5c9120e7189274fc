"""Small helpers for the wording of messages, reasons and reports (no quoteverify imports)."""
from __future__ import annotations


def clip(text: str, limit: int) -> str:
    """``text`` on one line (runs of whitespace as one space), cut to ``limit`` characters with an ellipsis."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def plural(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and the noun: "1 quote", "3 quotes" (``plural`` where adding an s will not do)."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"
