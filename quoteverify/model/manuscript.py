"""A manuscript checked in place: where each quote stands in the author's draft, and the corrected quotation
proposed for it.

The manuscript reader (quoteverify.app.extract) says where each quote and its participant tag stand; the
fixes (quoteverify.app.manuscript) say what to change; the checked manuscript (quoteverify.export.manuscript)
writes a note at each quote and the fixes as tracked changes. Offsets are those of the draft as it reads:
a .docx paragraph's text (quoteverify.plumbing.wordml), or a text manuscript's decoded text.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal, get_args

# The manuscripts verify reads as its quote source, and writes back checked (a .txt is a quote table there).
MANUSCRIPT_FORMATS = (".docx", ".md", ".tex")
# Where a .docx keeps text: its body, and the notes at the foot of a page or the end.
Story = Literal["body", "footnotes", "endnotes", ""]
# How a note is written into a text manuscript: a comment (Markdown: an HTML comment; LaTeX: a % line), a
# Markdown footnote, or a LaTeX \todo{} (todonotes). A .docx always gets Word comments.
NoteStyle = Literal["comment", "footnote", "todo"]
NOTE_STYLES: tuple[NoteStyle, ...] = get_args(NoteStyle)
# What a verified quote gets: a short note, or none.
VerifiedNote = Literal["short", "none"]
VERIFIED_NOTES: tuple[VerifiedNote, ...] = get_args(VerifiedNote)


@dataclass(frozen=True)
class Span:
    """Characters [start, end) of a manuscript: of the ``paragraph``-th paragraph (w:p, in document order) of a
    .docx ``story``, or of a text manuscript's text (``story`` "", ``paragraph`` -1)."""

    story: Story
    paragraph: int
    start: int
    end: int

    def at(self, start: int, end: int) -> Span:
        """Another span of the same paragraph."""
        return Span(self.story, self.paragraph, start, end)


@dataclass(frozen=True)
class Spot:
    """Where one extracted quote stands: its text (inside the quotation marks), its participant tag if any,
    and just after its closing mark (where a note goes); ``where`` says it for a reader ("paragraph 4")."""

    quote: Span
    after: int
    tag: Span | None = None
    where: str = ""
    block: bool = False  # a block quote: no quotation marks around it
    raw: str = ""        # the quote as the paragraph's text has it (its white space, a .tex's markup)
    marks: tuple[str, str] = ("", "")  # its opening and closing quotation marks


@dataclass(frozen=True)
class Edit:
    """Text of the manuscript replaced by ``text`` (an insertion where the span is empty)."""

    span: Span
    text: str


@dataclass(frozen=True)
class Fix:
    """The corrected quotation proposed for a quote in review, checked again before it is proposed.

    ``quote`` is the quotation as corrected ("" when none verified: ``why`` says why), ``speaker`` the
    participant tag it needs when the words are another speaker's ("" keeps the tag), ``edits`` the changes to
    the manuscript that make it, and ``why`` what the fix does, in a reader's words.
    """

    quote_id: str
    quote: str
    why: str
    speaker: str = ""
    edits: tuple[Edit, ...] = ()


@dataclass(frozen=True)
class NoteOptions:
    """How a checked manuscript is written: the notes' style, what a verified quote gets, whether fixes are
    proposed as tracked changes, and whose and when the notes and changes are."""

    style: NoteStyle = "comment"
    verified: VerifiedNote = "short"
    fixes: bool = True
    author: str = "quoteverify"
    date: datetime | None = None
