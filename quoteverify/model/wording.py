"""Small helpers for the wording of messages, reasons and reports (no quoteverify imports)."""
from __future__ import annotations


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
