"""Transcript turns: who speaks where, and when.

A turn starts at a line that opens with a speaker label or a timecode, in any
of the ways transcripts print them (quoteverify.sources.labels). A label without a
timestamp keeps the latest one before it and a timecode without a label keeps
the speaker, so every offset gets the latest speaker and timestamp at or
before it. ``Q.`` and ``A.`` open turns only in a document that has both (a
deposition); elsewhere "A. Smith wrote" is a sentence. Subtitle files give
their turns as cues instead (quoteverify.sources.formats). Turns are built lazily,
once per located document, so the scan must stay cheap: regular expressions
whose patterns start with a newline, which the regex engine finds by a fast
literal search.
"""
from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache

from ..model.text import plural
from ..model.types import Document, QuoteResult, Turn
from .labels import FIRST_LINE, LINE, TIME, Label, label_of, parse, unread
from .lined import Record, record_speakers

__all__ = ["TIME", "Label", "Turn", "Turns", "label_of", "same_speaker", "speaker_key"]


def _labels(text: str) -> list[tuple[int, str, str, int]]:
    """Every turn start of ``text`` in order: (where its line starts, speaker or '', timestamp or '', where
    the words start). A deposition's Q. and A. count only in a document that has both."""
    found: list[tuple[int, str, str, int]] = []
    asked: dict[int, str] = {}  # the Q. and A. labels, by their place in ``found``
    first = FIRST_LINE.match(text)
    for m in [first, *LINE.finditer(text)] if first else LINE.finditer(text):
        read = parse(m, text)
        if read is not None:
            speaker, timestamp, qa, body = read
            start = m.start()
            if qa:
                asked[len(found)] = speaker
            found.append((start if m is first else start + 1 + (text[start:start + 2] == "\r\n"), speaker,
                          timestamp, body))
    if asked and set(asked.values()) != {"Q", "A"}:  # "A. Smith wrote the report": an outline, not a deposition
        found = [f for k, f in enumerate(found) if k not in asked]
    return found


class Turns:
    """The turns of one document, looked up by offset.

    From the speaker labels and timecodes of ``text``, or from ``cues`` (one
    turn per cue of a subtitle file) when given. ``record``: a line-numbered
    transcript's (quoteverify.sources.lined): the lines its turns open, and who
    its ``Q.``, ``A.`` and ``THE WITNESS:`` turns are.
    """

    def __init__(self, text: str, *, cues: Iterable[Turn] = (), title: str = "",
                 record: Record | None = None):
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
            labels = _labels(text)
            if record is not None:  # a line-numbered transcript: turns open where its layout says
                labels = [label for label in labels if label[0] in record.opens]
            for line, said, time, body in labels[1:] if _is_title(text, labels, title) else labels:
                speaker = said or speaker
                timestamp = time or timestamp
                starts.append(line)
                speakers.append(speaker)
                times.append(timestamp)
                bodies.append(body)
            if record is not None:
                speakers = record_speakers(speakers, starts, record.people)
        self._starts, self._speakers, self._times, self._bodies = starts, speakers, times, bodies
        self._keys: list[str] | None = None
        self._claims: dict[str, frozenset[str]] = {}
        self._unread: list[tuple[int, str]] | None = None

    def unread(self, text: str) -> list[tuple[int, str]]:
        """The lines of ``text``, the document these are the turns of, shaped like speaker labels that no turn
        starts at (labels.unread), found once (a worker that prepares the document finds them)."""
        if self._unread is None:
            self._unread = unread(text, set(self._starts))
        return self._unread

    def __len__(self) -> int:
        return len(self._starts)

    def starts(self) -> list[int]:
        """Where each turn's line starts."""
        return list(self._starts)

    def at(self, offset: int) -> Turn | None:
        """The turn holding ``offset``; None before the first one."""
        k = bisect_right(self._starts, offset) - 1
        return Turn(self._starts[k], self._speakers[k], self._times[k], self._bodies[k]) if k >= 0 else None

    def names(self) -> list[str]:
        """The speakers of the turns, each once, in the order they first speak."""
        return [name for name in dict.fromkeys(self._speakers) if name]

    def speaker_keys(self) -> list[str]:
        """speaker_key of each turn's speaker, made on first use (only quotes that claim a speaker need them)."""
        if self._keys is None:
            known = {name: speaker_key(name) for name in set(self._speakers)}
            self._keys = [known[name] for name in self._speakers]
        return self._keys

    def keys_of(self, claimed: str) -> frozenset[str]:
        """The speaker keys of the turns here whose speaker the claimed speaker names (``same_speaker``; none
        for an empty name)."""
        if not speaker_key(claimed):
            return frozenset()
        if claimed not in self._claims:
            names = dict(zip(self._speakers, self.speaker_keys()))
            self._claims[claimed] = frozenset(k for name, k in names.items() if k and same_speaker(claimed, name))
        return self._claims[claimed]

    def in_label(self, start: int, end: int) -> bool:
        """Whether original text [start, end) lies within a speaker label: no one says it."""
        k = bisect_right(self._starts, start) - 1
        return k >= 0 and end <= self._bodies[k]

    def said_by(self, offset: int, keys: frozenset[str]) -> bool:
        """Whether ``offset`` lies in a turn of a speaker with one of ``keys`` (see ``keys_of``)."""
        k = bisect_right(self._starts, offset) - 1
        return k >= 0 and self.speaker_keys()[k] in keys

    def spans_of(self, keys: frozenset[str]) -> list[tuple[int, int | None]]:
        """The words of each turn of a speaker with one of ``keys``: (where they start, where the next turn
        starts, None for the last), in order; a speaker's consecutive turns are one."""
        spans: list[tuple[int, int | None]] = []
        found = self.speaker_keys()
        for k, key in enumerate(found):
            if key not in keys:
                continue
            end = self._starts[k + 1] if k + 1 < len(found) else None
            if spans and k > 0 and found[k - 1] == key:
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
# Titles before a name: "Specter" names "Mr. SPECTER", "Warren" names "CHIEF JUSTICE WARREN", but "Mr. Smith"
# does not name "Mrs. Smith".
_TITLE = re.compile(r"(?i)^\s*(?:(?:mr|mrs|ms|miss|mx|dr|prof|professor|hon|sen|senator|rep|representative|sir|dame|"
                    r"lord|lady|the|chief|justice|judge|chairman|chairwoman|admiral|general|colonel|commander|"
                    r"secretary|ambassador|governor)\.?\s+){1,3}(?=\S)")
# A role of a line-numbered transcript's record with the person it is (quoteverify.sources.lined): "Q (MR.
# LIMAN)", "A (JOHN M. POINDEXTER)", "THE WITNESS (JOHN M. POINDEXTER)" are that person's turns.
_RECORD_ROLE = re.compile(r"\s*(Q|A|THE WITNESS|THE DEPONENT) \(([^()]+)\)\s*")
# What a claimed speaker may call such a role, as speaker_key() gives it.
_ROLE_NAMES = {"Q": frozenset({"q", "examiner", "theexaminer", "questioner"}),
               "A": frozenset({"a", "witness", "thewitness", "deponent", "thedeponent"})}


def _is_title(text: str, labels: list[tuple[int, str, str, int]], title: str) -> bool:
    """Whether the first label is the document's title rather than a speaker: it opens the text, its line
    holds the document's whole name (a video's title, "Farming Hay: A Year On The Ranch"), and no other turn
    is its speaker's."""
    def key(words: str) -> str:
        return "".join(ch for ch in words.casefold() if ch.isalnum())

    if not labels or not key(title):
        return False
    start, said, _, body = labels[0]
    if text[:start].strip() or not key(text[start:].split("\n", 1)[0]).startswith(key(title)):
        return False
    name = speaker_key(said)
    # A document named after its one speaker ("dale.txt" opening "Dale: so we...") is that speaker's; a title
    # alone on its line ("Water Rights  12:31") is not.
    words = text[body:].split("\n", 1)[0].strip()
    if not name or (name == key(title) and words):
        return False
    return all(name != speaker_key(other) for _, other, _, _ in labels[1:])


@lru_cache(maxsize=4096)
def speaker_key(name: str) -> str:
    """A speaker's name as compared: case, spacing and punctuation ignored.

    What is in brackets (a role, a timestamp; a bracket inside one too) or after a comma or semicolon
    ("Interviewee 7, nurse"; "Jane Roe, PhD") describes the speaker and is left out; "Participant 3"
    is "P3". A role of a transcript's record is the person it is: "A (JOHN M. POINDEXTER)" is "John M.
    Poindexter".
    """
    role = _RECORD_ROLE.fullmatch(name)
    if role is not None:
        name = role.group(2)
    for _ in range(2):
        name = _NAME_NOISE.sub(" ", name)
    name = re.split(r"[,;]", name, maxsplit=1)[0]
    key = "".join(ch for ch in name.casefold() if ch.isalnum())
    numbered = _NUMBERED_ROLE.fullmatch(key)
    return numbered[1][0] + numbered[2] if numbered else key


def same_speaker(claimed: str, found: str) -> bool:
    """Whether a claimed speaker ("P3, nurse") names the speaker of a turn ("P3 (00:04:12)" read as "P3"); a
    name without a title names the same name with one ("Specter", "Mr. SPECTER"), and a name in a label's
    brackets names the label ("Boris Johnson", "The Prime Minister (Boris Johnson)"). A role of a transcript's
    record ("A (JOHN M. POINDEXTER)") is named by the role ("A.", "the witness") and by the person's surname
    ("Poindexter", "Mr. Poindexter")."""
    a, b = speaker_key(claimed), speaker_key(found)
    if not a or not b or a == b:
        return True
    role = _RECORD_ROLE.fullmatch(found)
    if role is not None:
        return a in _ROLE_NAMES["Q" if role.group(1) == "Q" else "A"] or _surname_alike(claimed, role.group(2))
    return any(_titled_alike(claimed, name) for name in (found, *_BRACKETED.findall(found)))


def _surname_alike(claimed: str, person: str) -> bool:
    """Whether a claimed name names a person of a transcript's record: the same name, titles aside, or its
    surname ("Poindexter", "Mr. Poindexter" and "John Poindexter" name "JOHN M. POINDEXTER")."""
    if _titled_alike(claimed, person):
        return True
    words = [speaker_key(w) for w in _untitled(claimed).split()]
    theirs = [speaker_key(w) for w in _untitled(person).split()]
    return bool(words and theirs) and words[-1] == theirs[-1] and set(words) <= set(theirs)


def _untitled(name: str) -> str:
    titled = _TITLE.match(name)
    return name[titled.end():] if titled else name


_BRACKETED = re.compile(r"\(([^()]*)")  # what a label's brackets open with: "(Boris Johnson)", "(Hon. Anthony Rota ("


def _titled_alike(claimed: str, found: str) -> bool:
    """The same name, or one of them the other with a title before it."""
    a, b = speaker_key(claimed), speaker_key(found)
    if not a or not b:
        return False
    if a == b:
        return True
    titled_a, titled_b = _TITLE.match(claimed), _TITLE.match(found)
    if titled_a and not titled_b:
        return speaker_key(claimed[titled_a.end():]) == b
    if titled_b and not titled_a:
        return speaker_key(found[titled_b.end():]) == a
    if titled_a and titled_b and speaker_key(claimed[titled_a.end():]) == speaker_key(found[titled_b.end():]):
        # One's titles among the other's: "Justice Rehnquist" is "CHIEF JUSTICE REHNQUIST"; "Mr." is not "Mrs."
        titles_a, titles_b = (set(speaker_key(t) for t in m.group().split()) for m in (titled_a, titled_b))
        return titles_a <= titles_b or titles_b <= titles_a
    return False


UNREAD_SHOWN = 3  # lines named in a warning about labels that were not read


def documents_labelled(documents: Sequence[Document], results: Sequence[QuoteResult]) -> list[Document]:
    """The documents whose speaker labels ``label_warnings`` looks at: those quotes are found in or claimed
    for, other than subtitle files."""
    quoted = {doc for result in results for doc in (result.document, result.claimed_document)} - {""}
    return [d for d in documents if d.doc_id in quoted and not d.cues]


def label_warnings(documents: Sequence[Document], results: Sequence[QuoteResult],
                   starts_of: Callable[[Document], Sequence[int]],
                   unread_of: Callable[[Document], list[tuple[int, str]]] | None = None) -> list[str]:
    """What the run's summary says of the speaker labels of the documents quotes are found in or claimed for:
    a document with lines shaped like labels that were not read (their words count as the turn before);
    a document without a single label read, when a quote claims a speaker there. ``documents`` in corpus
    order; ``starts_of``: where a document's turns start (asked only of ``documents_labelled``);
    ``unread_of``: its lines shaped like labels that were not read, if found already (``Turns.unread``)."""
    claimed: dict[str, int] = {}  # by document quoted: the quotes that claim a speaker there
    for result in results:
        for doc in {result.document, result.claimed_document} - {""}:
            claimed[doc] = claimed.get(doc, 0) + bool(result.claimed_speaker)
    warnings = []
    for document in documents_labelled(documents, results):
        starts = starts_of(document)
        speakers = claimed.get(document.doc_id, 0)
        if not starts:
            if speakers:
                warnings.append(f"{document.doc_id}: no speaker labels read, so the speaker claimed for "
                                f"{plural(speakers, 'quote')} there cannot be checked "
                                "(the labels read: docs/places.md)")
            continue
        missed = unread_of(document) if unread_of else unread(document.text, set(starts))
        if missed:
            shown = ", ".join(f"line {document.text.count(chr(10), 0, at) + 1} {label!r}"
                              for at, label in missed[:UNREAD_SHOWN])
            more = f" and {len(missed) - UNREAD_SHOWN} more" if len(missed) > UNREAD_SHOWN else ""
            were = ("lines shaped like speaker labels were" if len(missed) > 1
                    else "line shaped like a speaker label was")
            warnings.append(f"{document.doc_id}: {plural(len(starts), 'speaker turn')} read, but {len(missed)} "
                            f"{were} not ({shown}{more}); their words count as the turn before them")
    return warnings
