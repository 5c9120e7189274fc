"""WordprocessingML paragraphs read as text with each character's place, and changed in place.

The manuscript reader (quoteverify.app.extract) and the checked manuscript (quoteverify.export.manuscript)
both count a paragraph's characters here, so that an offset the one finds is the place the other marks. A
paragraph reads as Word shows it with every tracked change accepted: the runs of the paragraph, of its
hyperlinks, of tracked insertions and moves in, of simple fields, smart tags and content controls, and a
complex field's result (not its instruction); not deleted or moved-out text, nor the text boxes of a
drawing (paragraphs of their own). Tabs read as a tab, line breaks as a newline, a non-breaking hyphen as
'-' (as python-docx reads them).

The changes: a run split at a character (its formatting copied to both halves), a comment's range marked
around characters, and text deleted (w:del) or inserted (w:ins) as tracked changes that Word's Accept and
Reject act on. Only a paragraph's own runs and its hyperlinks' are changed as text ("editable"); a field's
result, another author's tracked change or a content control is left as it is.
"""
from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"


def w(tag: str) -> str:
    """The qualified name of a WordprocessingML element or attribute: w("p") for w:p."""
    return f"{{{W}}}{tag}"


# Containers within a paragraph whose runs are its text (as it reads with tracked changes accepted).
_READ_INTO = frozenset(w(t) for t in ("hyperlink", "ins", "moveTo", "fldSimple", "smartTag", "sdt", "sdtContent",
                                      "customXml", "dir", "bdo"))
# Of those, the containers whose runs a fix may change.
_EDITABLE = frozenset({w("p"), w("hyperlink")})
# Revision marks of another author: the text inside is read but never changed.
TRACKED = frozenset(w(t) for t in ("ins", "del", "moveTo", "moveFrom"))
_BREAK = w("br")
_TEXT = w("t")
_FIELD_CHAR = w("fldChar")
_RUN_PROPERTIES = w("rPr")


@dataclass(frozen=True)
class Piece:
    """One character-holding element of a run (w:t, w:tab, w:br ...): its text and where it starts in the
    paragraph's text; ``editable``: a plain run of the paragraph or a hyperlink, outside any field."""

    run: Any
    child: Any
    start: int
    text: str
    editable: bool

    @property
    def end(self) -> int:
        return self.start + len(self.text)


def _child_text(child: Any) -> str | None:
    """What a run's child reads as; None for one that holds no text (properties, a field character ...)."""
    tag = child.tag
    if tag == _TEXT:
        return child.text or ""
    if tag in (w("tab"), w("ptab")):
        return "\t"
    if tag == _BREAK:
        return "\n" if child.get(w("type")) in (None, "textWrapping") else ""
    if tag == w("cr"):
        return "\n"
    if tag == w("noBreakHyphen"):
        return "-"
    return None


class _Fields:
    """Where a walk stands in complex fields: inside an instruction (not read) or a result (read, not edited)."""

    def __init__(self) -> None:
        self.stack: list[str] = []

    def hear(self, child: Any) -> None:
        kind = child.get(w("fldCharType"))
        if kind == "begin":
            self.stack.append("instruction")
        elif kind == "separate" and self.stack:
            self.stack[-1] = "result"
        elif kind == "end" and self.stack:
            self.stack.pop()

    @property
    def reading(self) -> bool:
        return "instruction" not in self.stack


def _runs(element: Any, editable: bool) -> Iterator[tuple[Any, bool]]:
    for child in element:
        if child.tag == w("r"):
            yield child, editable
        elif child.tag in _READ_INTO:
            yield from _runs(child, editable and child.tag in _EDITABLE)


def pieces(paragraph: Any) -> list[Piece]:
    """The character-holding elements of a w:p, in reading order, with their offsets."""
    found: list[Piece] = []
    fields = _Fields()
    at = 0
    for run, editable in _runs(paragraph, True):
        for child in run:
            if child.tag == _FIELD_CHAR:
                fields.hear(child)
                continue
            text = _child_text(child)
            if text is None or not fields.reading:
                continue
            found.append(Piece(run, child, at, text, editable and not fields.stack))
            at += len(text)
    return found


def paragraph_text(paragraph: Any) -> str:
    """A w:p's text as it reads (see the module's docstring)."""
    return "".join(p.text for p in pieces(paragraph))


def paragraphs(root: Any) -> list[Any]:
    """Every w:p under ``root`` in document order: the numbering of Span.paragraph."""
    return list(root.iter(w("p")))


def has_tracked_changes(root: Any) -> bool:
    return next((True for e in root.iter(*TRACKED)), False)


def _set_text(child: Any, text: str) -> None:
    child.text = text
    if text != text.strip():
        child.set(XML_SPACE, "preserve")


def _content(run: Any) -> list[Any]:
    return [c for c in run if c.tag != _RUN_PROPERTIES]


def _split_run(run: Any, child: Any, at: int) -> None:
    """Split ``run`` before the ``at``-th character of its ``child``: both halves keep its properties."""
    content = _content(run)
    k = content.index(child)
    if at == 0 and k == 0:
        return
    text = _child_text(child) or ""
    if at >= len(text) and k == len(content) - 1:
        return
    second = copy.deepcopy(run)
    theirs = _content(second)
    for c in content[k + 1:]:
        run.remove(c)
    for c in theirs[:k]:
        second.remove(c)
    if 0 < at < len(text):
        _set_text(child, text[:at])
        _set_text(theirs[k], text[at:])
    elif at == 0:
        run.remove(child)
    else:
        second.remove(theirs[k])
    run.addnext(second)


def split_at(paragraph: Any, offset: int) -> None:
    """Make ``offset`` of the paragraph's text fall between two runs (a run holding it is split in two)."""
    for piece in pieces(paragraph):
        if piece.start <= offset < piece.end:
            _split_run(piece.run, piece.child, offset - piece.start)
            return


def runs_within(paragraph: Any, start: int, end: int) -> list[Piece]:
    """The pieces of characters [start, end), once ``split_at`` both ends; each whole run once."""
    within = [p for p in pieces(paragraph) if start <= p.start and p.end <= end and p.text]
    seen: set[int] = set()
    runs = []
    for piece in within:
        if id(piece.run) not in seen:
            seen.add(id(piece.run))
            runs.append(piece)
    return runs


def _top(paragraph: Any, element: Any) -> Any:
    """The child of the paragraph that holds ``element`` (a run inside a hyperlink: the hyperlink)."""
    while element.getparent() is not paragraph:
        element = element.getparent()
    return element


def mark_comment(paragraph: Any, start: int, end: int, comment_id: int) -> None:
    """Anchor comment ``comment_id`` on characters [start, end) of ``paragraph``; its reference mark follows
    the range (after the hyperlink or field that ends it)."""
    split_at(paragraph, start)
    split_at(paragraph, end)
    found = pieces(paragraph)
    first = next(p for p in found if p.start >= start and p.text)
    final = [p for p in found if p.end <= end and p.text][-1]
    first.run.addprevious(_element("commentRangeStart", id=str(comment_id)))
    range_end = _element("commentRangeEnd", id=str(comment_id))
    final.run.addnext(range_end)
    reference = _element("r")
    properties = _element("rPr")
    properties.append(_element("rStyle", val="CommentReference"))
    reference.append(properties)
    reference.append(_element("commentReference", id=str(comment_id)))
    top = _top(paragraph, final.run)
    (range_end if top is final.run else top).addnext(reference)


def _element(tag: str, **attributes: str) -> Any:
    # lxml (under python-docx) is needed only for a .docx manuscript.
    from lxml import etree

    element = etree.Element(w(tag), nsmap={"w": W})
    for name, value in attributes.items():
        element.set(w(name), value)
    return element


@dataclass(frozen=True)
class Revision:
    """Who makes a tracked change and when; ``ids`` hands out the w:id of each (unique in the document)."""

    author: str
    date: str  # ISO 8601, as Word writes it: 2026-01-31T12:00:00Z
    ids: Iterator[int]

    def mark(self, tag: str) -> Any:
        return _element(tag, id=str(next(self.ids)), author=self.author, date=self.date)


def next_ids(*roots: Any) -> Iterator[int]:
    """w:id values above every one used in ``roots`` (revision, bookmark and comment ids alike)."""
    used = [int(v) for root in roots for e in root.iter() if (v := e.get(w("id"))) is not None and v.isdigit()]
    start = max(used, default=0) + 1
    while True:
        yield start
        start += 1


def editable(paragraph: Any, start: int, end: int) -> bool:
    """Whether characters [start, end) (an empty range: the place between two characters) lie in runs a
    tracked change may be made in (see the module's docstring)."""
    found = pieces(paragraph)
    touched = [p for p in found if p.start < end and p.end > start or start == end and p.start <= start <= p.end]
    return bool(touched) and all(p.editable for p in touched)


def replace_tracked(paragraph: Any, start: int, end: int, text: str, revision: Revision, *,
                    lean: str = "before") -> None:
    """Characters [start, end) deleted and ``text`` inserted in their place, as tracked changes, in the
    formatting of the text they replace. An insertion (start == end) joins the run before it (``lean``
    "before") or the run after it ("after"), and takes its formatting: inside a commented quote, the one of
    the quote. Call it for the edits of a paragraph from the last to the first: each one changes the offsets
    after it."""
    split_at(paragraph, start)
    split_at(paragraph, end)
    found = pieces(paragraph)
    gone = runs_within(paragraph, start, end) if end > start else []
    before = [p.run for p in found if p.end == start and p.text]
    after = [p.run for p in found if p.start == start and p.text]
    if gone:
        model = where = gone[0].run
    elif before and (lean == "before" or not after):
        model = where = before[-1]
    else:
        model = where = after[0]
    for piece in gone:
        deletion = revision.mark("del")
        piece.run.addprevious(deletion)
        deletion.append(piece.run)
        for t in piece.run.iter(_TEXT):
            t.tag = w("delText")
        where = deletion
    if not text:
        return
    insertion = revision.mark("ins")
    run = _element("r")
    properties = model.find(_RUN_PROPERTIES)
    if properties is not None:
        run.append(copy.deepcopy(properties))
    t = _element("t")
    _set_text(t, text)
    run.append(t)
    insertion.append(run)
    if gone or (before and where is before[-1]):
        where.addnext(insertion)
    else:
        where.addprevious(insertion)


# The parts of a .docx that hold notes, by story, as its main part's relationships name them.
NOTE_RELATIONSHIPS = {
    "footnotes": "http://schemas.openxmlformats.org/officeDocument/2006/relationships/footnotes",
    "endnotes": "http://schemas.openxmlformats.org/officeDocument/2006/relationships/endnotes",
}
# Notes Word keeps for itself: the separator lines above the notes, and their continuation.
_NOT_NOTES = frozenset({"separator", "continuationSeparator", "continuationNotice"})


def note_parts(document: Any) -> dict[str, Any]:
    """The footnotes and endnotes parts of a python-docx Document, by story; the ones it has."""
    found = {}
    for rel in document.part.rels.values():
        for story, reltype in NOTE_RELATIONSHIPS.items():
            if rel.reltype == reltype and not rel.is_external:
                found[story] = rel.target_part
    return found


def parse_part(part: Any) -> Any:
    """A part python-docx keeps as bytes (the notes), parsed as python-docx parses the parts it reads."""
    # python-docx is needed only for a .docx manuscript.
    from docx.oxml.parser import parse_xml

    return parse_xml(part.blob)


def notes(root: Any) -> list[Any]:
    """The notes of a footnotes or endnotes part in order (w:footnote or w:endnote), without Word's own."""
    return [note for note in root
            if note.tag in (w("footnote"), w("endnote")) and note.get(w("type")) not in _NOT_NOTES]
