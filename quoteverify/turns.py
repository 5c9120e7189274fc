"""Transcript turns: who speaks where, and when.

A turn starts at a line that opens with a speaker label: ``Name:``,
``Interviewer:``, ``SPEAKER 1:``, ``Name (00:31):`` or ``Name (00:01:11):``.
"""
from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass

_LABEL = re.compile(
    r"^[ \t]*(?P<speaker>[A-Z][\w.'\- ]{0,40}?)"
    r"(?:[ \t]*[(\[](?P<time>\d{1,2}:\d{2}(?::\d{2})?(?:[.,:]\d{1,3})?)[)\]])?[ \t]*:(?=[ \t]|\r?$)",
    re.MULTILINE)


@dataclass(frozen=True)
class Turn:
    start: int       # where the label starts
    speaker: str
    timestamp: str
    body: int = 0    # where the words after the label start


class Turns:
    """The turns of one document, looked up by offset."""

    def __init__(self, text: str):
        self.turns = [Turn(m.start(), m.group("speaker").strip(), m.group("time") or "", m.end())
                      for m in _LABEL.finditer(text)]
        self._starts = [t.start for t in self.turns]

    def at(self, offset: int) -> Turn | None:
        k = bisect_right(self._starts, offset) - 1
        return self.turns[k] if k >= 0 else None

    def crossed(self, start: int, end: int) -> int:
        """How many turn boundaries lie inside [start, end)."""
        return bisect_right(self._starts, end - 1) - bisect_right(self._starts, start)
