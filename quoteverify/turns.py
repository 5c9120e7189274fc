"""Transcript turns: who speaks where, and when.

A turn starts at a line that opens with a speaker label or a timecode:

- ``Name:``, ``I:``/``R:``, ``Interviewer:``, ``SPEAKER 1:``, ``P3 (nurse):``, or the name
  and a tab (a row of a Word table, speaker and words in two columns);
- ``Name (00:31):`` or ``Name [00:01:11]:``, the timestamp after the name;
- ``[00:01:11] Name:`` or ``00:01:11:00 Name:``, the timestamp before it;
- ``Name  00:31`` alone on its line (Otter's export), the words on the lines after;
- a timecode alone at the start of a line (``[00:05:00]``, ``00:01:11:00``): a new
  timestamp, the same speaker. Without brackets a timecode needs hours
  (``h:mm:ss``), so that "10:30 we met" in running text is not one.

A label without a timestamp keeps the latest one before it and a timecode
without a label keeps the speaker, so every offset gets the latest speaker and
timestamp at or before it. Subtitle files give their turns as cues instead
(quoteverify.formats). Turns are built lazily, once per located document, so
the scan must stay cheap: one regular expression whose pattern starts with a
newline, which the regex engine finds by a fast literal search.
"""
from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import chain

from .types import Turn

__all__ = ["Label", "Turn", "Turns", "label_of", "same_speaker", "speaker_key"]

TIME = r"\d{1,2}:\d{2}(?::\d{2})?(?:[.,:]\d{1,3})?"
# A speaker name: a capital letter, then up to 40 word characters, points,
# apostrophes, hyphens and spaces ("Dr. Okafor", "SPEAKER 1", "P3").
_NAME = r"[A-ZÀ-ÖØ-Þ][\w.'\- ]{0,40}?"


def _label(tag: str) -> str:
    """A name (perhaps with a role in brackets: "P3 (nurse)"), perhaps its timestamp in brackets, and a
    colon at the end of the line or before a space, or a tab before the words (a table's columns)."""
    return (rf"(?P<name{tag}>{_NAME}(?:[ \t]*\([^()\n:]{{1,30}}\))?)"
            rf"(?:[ \t]*[(\[](?P<time{tag}>{TIME})[)\]])?(?:[ \t]*:(?=[ \t\r\n]|$)|\t+(?=\S))")


_BODY = (
    rf"[ \t]*(?:(?P<lead>[\[(]{TIME}[\])]|{TIME})(?:[ \t]+(?:[-\u2013\u2014][ \t]+)?{_label('1')}|(?=[ \t\r\n]|$))"
    rf"|{_label('2')}"
    rf"|(?P<name3>{_NAME})[ \t]+(?P<time3>{TIME})[ \t]*(?=[\r\n]|$))")
# A label opens a line: after a LF, a CRLF or a lone CR (old Mac files).
_LINE = re.compile(r"(?:\r\n?|\n)" + _BODY)
_FIRST_LINE = re.compile(_BODY, re.MULTILINE)


@dataclass(frozen=True)
class Label:
    """The speaker label or timecode opening a line; '' for what it does not give."""

    speaker: str
    timestamp: str
    end: int  # where the words after it start


def _parse(groups: tuple[str | None, ...]) -> tuple[str, str] | None:
    """(speaker, timestamp) of a match, or None when it is no turn start (an unbracketed "10:30").

    A tuple, not a Label: this runs once per turn of every located document.
    """
    lead, name1, time1, name2, time2, name3, time3 = groups
    name = name1 or name2 or name3
    if name:
        return name.strip(), time1 or time2 or time3 or (lead.strip("[]()") if lead else "")
    if lead and (lead[0] in "[(" or lead.count(":") >= 2):
        return "", lead.strip("[]()")
    return None


def label_of(line: str) -> Label | None:
    """The label or timecode opening ``line``, if it has one."""
    m = _FIRST_LINE.match(line)
    found = _parse(m.groups()) if m else None
    return Label(*found, m.end()) if m and found else None


class Turns:
    """The turns of one document, looked up by offset.

    From the speaker labels and timecodes of ``text``, or from ``cues`` (one
    turn per cue of a subtitle file) when given.
    """

    def __init__(self, text: str, *, cues: Iterable[Turn] = ()):
        # Parallel lists rather than Turn objects: a long transcript has tens of thousands of turns.
        starts: list[int] = []
        speakers: list[str] = []
        times: list[str] = []
        bodies: list[int] = []
        cues = tuple(cues)
        if cues:
            for cue in cues:
                starts.append(cue.start)
                speakers.append(cue.speaker)
                times.append(cue.timestamp)
                bodies.append(cue.body)
        else:
            speaker = timestamp = ""
            first = _FIRST_LINE.match(text)
            for m in chain((first,) if first else (), _LINE.finditer(text)):
                found = _parse(m.groups())
                if found is None:
                    continue
                speaker = found[0] or speaker
                timestamp = found[1] or timestamp
                starts.append(m.start() if m is first else m.start() + 1 + (text[m.start():m.start() + 2] == "\r\n"))
                speakers.append(speaker)
                times.append(timestamp)
                bodies.append(m.end())
        self._starts, self._speakers, self._times, self._bodies = starts, speakers, times, bodies
        self._keys: list[str] | None = None

    def __len__(self) -> int:
        return len(self._starts)

    def at(self, offset: int) -> Turn | None:
        """The turn holding ``offset``; None before the first one."""
        k = bisect_right(self._starts, offset) - 1
        return Turn(self._starts[k], self._speakers[k], self._times[k], self._bodies[k]) if k >= 0 else None

    def speaker_keys(self) -> list[str]:
        """speaker_key of each turn's speaker, made on first use (only quotes that claim a speaker need them)."""
        if self._keys is None:
            known = {name: speaker_key(name) for name in set(self._speakers)}
            self._keys = [known[name] for name in self._speakers]
        return self._keys

    def said_by(self, offset: int, key: str) -> bool:
        """Whether ``offset`` lies in a turn of the speaker whose speaker_key is ``key`` (never for '')."""
        k = bisect_right(self._starts, offset) - 1
        return bool(key) and k >= 0 and self.speaker_keys()[k] == key

    def has_speaker(self, key: str) -> bool:
        """Whether the speaker whose speaker_key is ``key`` has a turn here."""
        return bool(key) and key in self.speaker_keys()

    def spans_of(self, key: str) -> list[tuple[int, int | None]]:
        """The words of each turn of the speaker whose speaker_key is ``key``: (where they start, where the
        next turn starts, None for the last), in order; a speaker's consecutive turns are one."""
        spans: list[tuple[int, int | None]] = []
        keys = self.speaker_keys()
        for k, found in enumerate(keys):
            if not key or found != key:
                continue
            end = self._starts[k + 1] if k + 1 < len(keys) else None
            if spans and k > 0 and keys[k - 1] == key:
                spans[-1] = (spans[-1][0], end)
            else:
                spans.append((self._bodies[k], end))
        return spans

    def speakers(self, spans: Iterable[tuple[int, int]]) -> tuple[str, ...]:
        """The speakers whose turns the spans [start, end) run across, in order.

        A speaker's consecutive turns (cues, a timecode in mid-turn) count once,
        also from one span to the next; text before the first label, or cues
        without a speaker, count for none.
        """
        found: list[str] = []
        for start, end in spans:
            first = max(0, bisect_right(self._starts, start) - 1)
            for speaker in self._speakers[first:bisect_left(self._starts, max(start + 1, end))]:
                if speaker and (not found or speaker_key(found[-1]) != speaker_key(speaker)):
                    found.append(speaker)
        return tuple(found)

    def continued_label(self, text: str, start: int, end: int) -> bool:
        """Whether original text [start, end) holds only labels or timecodes that open turns in which
        the speaker before them goes on: "[00:05:10]" or "P1:" again in P1's words."""
        k = bisect_right(self._starts, start) - 1
        if k < 1:
            return False
        speaker = speaker_key(self._speakers[k - 1])
        pos = start
        while pos < end:
            if k >= len(self._starts) or not self._starts[k] <= pos <= self._bodies[k]:
                return False
            if speaker_key(self._speakers[k]) != speaker:
                return False
            pos = self._bodies[k]
            while pos < end and text[pos].isspace():
                pos += 1
            k += 1
        return True

    def next_start(self, offset: int) -> int | None:
        """Where the first turn after ``offset`` starts; None if none does."""
        k = bisect_right(self._starts, offset)
        return self._starts[k] if k < len(self._starts) else None

    def crossed(self, start: int, end: int) -> int:
        """How many turn boundaries lie inside [start, end)."""
        return bisect_right(self._starts, end - 1) - bisect_right(self._starts, start)


_NAME_NOISE = re.compile(rf"[(\[][^()\[\]]*[)\]]|{TIME}")
_NUMBERED_ROLE = re.compile(r"(participant|respondent|interviewee|speaker)(\d+)")


def speaker_key(name: str) -> str:
    """A speaker's name as compared: case, spacing and punctuation ignored.

    What is in brackets (a role, a timestamp) or after a comma or semicolon
    ("Interviewee 7, nurse") describes the speaker and is left out;
    "Participant 3" is "P3".
    """
    name = re.split(r"[,;]", _NAME_NOISE.sub(" ", name), maxsplit=1)[0]
    key = "".join(ch for ch in name.casefold() if ch.isalnum())
    numbered = _NUMBERED_ROLE.fullmatch(key)
    return numbered[1][0] + numbered[2] if numbered else key


def same_speaker(claimed: str, found: str) -> bool:
    """Whether a claimed speaker ("P3, nurse") names the speaker of a turn ("P3 (00:04:12)" read as "P3")."""
    a, b = speaker_key(claimed), speaker_key(found)
    return not a or not b or a == b
