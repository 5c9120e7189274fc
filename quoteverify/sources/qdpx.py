"""REFI-QDA projects (``.qdpx``): the exchange format of NVivo, ATLAS.ti, MAXQDA and QualCoder.

A project is a zip archive holding ``project.qde`` (XML) and the ``sources/``
it codes. Its text sources are documents: the plain text the archive holds
(``plainTextPath="internal://..."``, or ``PlainTextContent`` written inline),
else the ``.docx`` it holds, read through quoteverify.sources.formats. Its coded text
selections (``PlainTextSelection``) are quotes: the text between the
selection's start and end positions, its codes' names as the finding, its
memos (``Description`` and linked ``Note``\\ s) in the ``memo`` column, its GUID
in ``qda_guid``, and the place the project gives it, so that a result says
whether the segment still stands there.

Programs count positions differently: in Unicode code points or UTF-16 code
units (an emoji counts twice), with or without a leading byte-order mark, a
CRLF as one character or two. The convention that puts the most segments on
word boundaries is taken and said; a segment whose positions fit no word
boundary under it is reported unverified with the reason, never cut mid-word.

The XML is parsed with defusedxml (no entities, no DTD: no XML bomb) and the
archive is refused before it is unzipped when it would unzip past the limits
below.
"""
from __future__ import annotations

import hashlib
import itertools
import re
import zipfile
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any
from xml.etree.ElementTree import ParseError

import numpy as np

from ..model.decoders import bom_encoding
from ..model.errors import InputError
from ..model.types import Document, Quote
from ..plumbing.archive import ArchiveLimits, check_archive
from .formats import LINE_BREAK, extract

NS = "{urn:QDA-XML:project:1.0}"
# A project of a hundred interviews is a few megabytes; a zip bomb unzips to gigabytes.
MAX_UNZIPPED = 1 << 30
MAX_MEMBERS = 100_000
MAX_XML = 200 << 20   # project.qde, bytes


@dataclass(frozen=True)
class Convention:
    """How a QDA program counts positions in a source's text."""

    utf16: bool          # UTF-16 code units (an emoji counts 2) rather than code points
    bom_counted: bool    # a leading byte-order mark counts as a character
    crlf_two: bool       # a CRLF counts as two characters

    def describe(self) -> str:
        return (f"{'UTF-16 code units' if self.utf16 else 'Unicode code points'}, "
                f"byte-order mark {'counted' if self.bom_counted else 'not counted'}, "
                f"CRLF as {'2 characters' if self.crlf_two else '1 character'}")


CONVENTIONS = tuple(Convention(*flags) for flags in itertools.product((False, True), (True, False), (True, False)))


@dataclass(frozen=True)
class Segment:
    """One coded text selection of the project, its positions as the project gives them."""

    guid: str
    source: int          # the source's place among the project's sources (two may share a GUID)
    start: int
    end: int
    codes: tuple[str, ...]
    memo: str
    name: str


@dataclass(frozen=True)
class QdaProject:
    """What a project holds: its sources as documents, its coded segments as quotes."""

    documents: tuple[Document, ...]
    quotes: tuple[Quote, ...]
    convention: str      # the position convention taken, and how many segments it fits
    warnings: tuple[str, ...] = ()


def _units(text: str, convention: Convention) -> np.ndarray:
    """units[i]: the position, under ``convention``, of text[i]; units[len(text)]: the end."""
    weights = np.ones(len(text) + 1, dtype=np.int64)
    weights[-1] = 0
    if convention.utf16:
        # A character outside the Basic Multilingual Plane is two UTF-16 code units.
        code_points = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
        weights[:-1] += code_points > 0xFFFF
    if text.startswith("\ufeff") and not convention.bom_counted:
        weights[0] = 0
    if not convention.crlf_two:
        k = 0
        while (k := text.find("\r\n", k)) >= 0:
            weights[k] = 0  # the pair counts once, as its LF
            k += 2
    return np.concatenate(([0], np.cumsum(weights)[:-1]))


@dataclass(frozen=True)
class _Letters:
    """Per character of a source's text: whether it is a letter or digit, or a space (word boundaries)."""

    alnum: np.ndarray
    space: np.ndarray

    @classmethod
    def of(cls, text: str) -> _Letters:
        return cls(np.fromiter(map(str.isalnum, text), dtype=bool, count=len(text)),
                   np.fromiter(map(str.isspace, text), dtype=bool, count=len(text)))


def _fitting(units: np.ndarray, letters: _Letters, starts: np.ndarray, ends: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Where many segments of one source start and end in its text (first, last: text indexes), and which of
    them fit: positions that fall on a character under the convention (not inside an emoji, not past the end),
    on word boundaries (no space at either edge, no word cut)."""
    n, size = len(letters.alnum), len(units)
    # Characters that count nothing (a skipped BOM, the CR of a CRLF counted once) share their position with the
    # next: a start comes after them, an end before them.
    first = np.searchsorted(units, starts, side="right") - 1
    last = np.searchsorted(units, ends)
    fits = (first >= 0) & (first < last) & (last <= n) & (n > 0)
    a, b = np.clip(first, 0, max(n - 1, 0)), np.clip(last - 1, 0, max(n - 1, 0))
    fits &= (units[np.clip(first, 0, size - 1)] == starts) & (units[np.clip(last, 0, size - 1)] == ends)
    if n:
        fits &= ~letters.space[a] & ~letters.space[b]
        fits &= ~((first > 0) & letters.alnum[np.maximum(a - 1, 0)] & letters.alnum[a])
        fits &= ~((last < n) & letters.alnum[b] & letters.alnum[np.minimum(b + 1, n - 1)])
    return fits, first, last


# Positions as numpy compares them: any past this (2**62; a project may write 2**64) lies past every text's
# end as well, and fits no int64 itself.
FAR = 1 << 62


def _within(position: int) -> int:
    """A position of the project, as far as a text's positions can go: one past the end stays past it."""
    return min(max(position, -1), FAR)


def _covered(text: str, units: np.ndarray, segment: Segment) -> str:
    """The text a misfitting segment's positions cover, widened to whole words, so the coder sees what was
    coded; "" when they lie wholly outside the text."""
    low, high = sorted((_within(segment.start), _within(segment.end)))  # given backwards still name a stretch
    start = int(np.searchsorted(units, max(low, 0), side="right")) - 1
    end = int(np.searchsorted(units, high))
    start, end = max(start, 0), min(end, len(text))
    if start >= end:
        return ""
    while start > 0 and text[start - 1].isalnum() and text[start].isalnum():
        start -= 1
    while end < len(text) and text[end - 1].isalnum() and text[end].isalnum():
        end += 1
    return text[start:end].strip()


def _choose(texts: dict[int, str], segments: list[Segment]
            ) -> tuple[Convention, list[tuple[int, int] | None], int]:
    """The convention that puts the most segments on word boundaries (ties go to the simplest), each segment's
    span of text under it (None where it does not fit), and how many fit."""
    rows: dict[int, list[int]] = {source: [] for source in texts}
    for row, segment in enumerate(segments):
        if segment.source in rows:
            rows[segment.source].append(row)
    letters = {source: _Letters.of(text) for source, text in texts.items()}
    best: tuple[int, Convention, list[tuple[int, int] | None]] | None = None
    for convention in CONVENTIONS:
        spans: list[tuple[int, int] | None] = [None] * len(segments)
        for source, text in texts.items():
            mine = rows[source]
            fits, first, last = _fitting(_units(text, convention), letters[source],
                                         np.array([_within(segments[k].start) for k in mine], dtype=np.int64),
                                         np.array([_within(segments[k].end) for k in mine], dtype=np.int64))
            for k in np.flatnonzero(fits):
                spans[mine[k]] = (int(first[k]), int(last[k]))
        fitting = sum(span is not None for span in spans)
        if best is None or fitting > best[0]:
            best = (fitting, convention, spans)
    assert best is not None
    return best[1], best[2], best[0]


# --- the archive ----------------------------------------------------------------------------------


def _open(path: Path, limits: ArchiveLimits) -> zipfile.ZipFile:
    try:
        archive = zipfile.ZipFile(path)
    except FileNotFoundError:
        raise InputError(f"{path}: no such project") from None
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError) as exc:
        raise InputError(f"{path}: not a readable .qdpx project ({exc}); export the project again "
                         "(REFI-QDA project, .qdpx)") from None
    infos = archive.infolist()
    unzipped = sum(info.file_size for info in infos)
    if len(infos) > MAX_MEMBERS or unzipped > MAX_UNZIPPED:
        archive.close()
        raise InputError(f"{path}: refused: {len(infos):,} files that would unzip to {unzipped:,} bytes, "
                         "as zip bombs do; a QDA project is far smaller")
    try:
        # The config's ratio, member and shared limits too (the size in all is this module's own).
        check_archive(path, path, limits, total=False)
    except InputError:
        archive.close()
        raise
    return archive


def _member(archive: zipfile.ZipFile, path: Path, name: str, limit: int = MAX_UNZIPPED) -> bytes | None:
    """A file of the archive by name (any case: programs differ), or None."""
    wanted = str(PurePosixPath(name)).lstrip("/").casefold()
    for info in archive.infolist():
        if info.filename.lstrip("/").casefold() == wanted:
            if info.file_size > limit:
                raise InputError(f"{path}: refused: {info.filename} would unzip to {info.file_size:,} bytes")
            try:
                return archive.read(info)
            except (zipfile.BadZipFile, OSError, NotImplementedError) as exc:
                raise InputError(f"{path}: {info.filename} cannot be unzipped ({exc}); "
                                 "export the project again") from None
    return None


def _parse(path: Path, data: bytes):
    # defusedxml is needed only for the XML inside workbooks and projects.
    from defusedxml import DefusedXmlException
    from defusedxml.ElementTree import fromstring

    try:
        return fromstring(data, forbid_dtd=True)
    except DefusedXmlException:
        raise InputError(f"{path}: refused: its project.qde declares entities or a DTD, as XML bombs do; "
                         "export the project again") from None
    except ParseError as exc:
        raise InputError(f"{path}: project.qde is not well-formed XML ({exc}); export the project again") from None


def _text(element) -> str:
    return "".join(element.itertext()).strip() if element is not None else ""


def _internal(reference: str) -> str | None:
    """The archive path of an ``internal://`` source file; None for one outside the archive."""
    if reference.startswith("internal://"):
        return "sources/" + reference[len("internal://"):]
    return None


def _source_text(archive: zipfile.ZipFile, path: Path, source, warnings: list[str]) -> tuple[str, bytes] | None:
    name = source.get("name") or source.get("guid", "")
    inline = source.find("PlainTextContent")
    if inline is not None:
        text = inline.text or ""
        return text, text.encode("utf-8")
    for attribute in ("plainTextPath", "richTextPath"):
        reference = source.get(attribute) or ""
        member = _internal(reference)
        if member is None:
            continue
        data = _member(archive, path, member)
        if data is None:
            continue
        if attribute == "plainTextPath":
            # UTF-8, else the UTF-16 or UTF-32 its byte-order mark announces, else UTF-16 without one.
            for encoding in dict.fromkeys((bom_encoding(data) or "utf-8", "utf-16")):
                try:
                    return data.decode(encoding), data
                except UnicodeDecodeError:
                    continue
            warnings.append(f"{path}: source '{name}' ({member}) is neither UTF-8 nor UTF-16 text; "
                            "its segments are not checked")
            return None
        if PurePosixPath(member).suffix.lower() == ".docx":
            return extract(Path(member), data).text, data
    warnings.append(f"{path}: source '{name}' has no text inside the project (it links to "
                    f"{source.get('plainTextPath') or source.get('richTextPath') or 'nothing'}); "
                    "export the project with its sources, or give the transcripts as documents")
    return None


def _doc_id(name: str, taken: set[str]) -> str:
    """A source's name as a document id: without a file extension, unique in the project."""
    stem = PurePosixPath(name).stem if PurePosixPath(name).suffix[1:].isalnum() else name
    stem = stem.strip() or "source"
    doc_id, k = stem, 1
    while doc_id in taken:
        k += 1
        doc_id = f"{stem} ({k})"
    taken.add(doc_id)
    return doc_id


def _segments(source: Any, index: int, codes: dict[str, str], notes: dict[str, str]) -> Iterator[Segment]:
    """The coded segments of one source element, in project order."""
    for selection in source.iter("PlainTextSelection"):
        try:
            start, end = int(selection.get("startPosition", "")), int(selection.get("endPosition", ""))
        except ValueError:
            start, end = -1, -1
        codings = tuple(codes.get(ref.get("targetGUID"), "") for coding in selection.iter("Coding")
                        for ref in coding.iter("CodeRef"))
        memo = [_text(selection.find("Description"))]
        memo += [notes.get(ref.get("targetGUID"), "") for ref in selection.iter("NoteRef")]
        yield Segment(selection.get("guid", ""), index, start, end, tuple(c for c in codings if c),
                      "\n".join(m for m in memo if m), selection.get("name", ""))


@dataclass(frozen=True)
class _Source:
    """A source as its segments are read against it: its document, text (None when the project lacks it) and
    where its lines start."""

    document: Document
    text: str | None
    lines: tuple[int, ...] = ()

    def line(self, offset: int) -> int:
        return bisect_right(self.lines, offset)


def _line_starts(text: str) -> tuple[int, ...]:
    """Where each line of ``text`` starts (after a LF, a CRLF or a lone CR)."""
    return (0, *(m.end() for m in LINE_BREAK.finditer(text)))


def _quote(row: int, segment: Segment, source: _Source, span: tuple[int, int] | None, convention: Convention,
           quote_id: str) -> Quote:
    """A coded segment as a quote: its text where its positions fit the source (``span``), else the reason not."""
    document = source.document
    extra = (("qda_guid", segment.guid), ("codes", "; ".join(segment.codes)), ("memo", segment.memo))
    base: dict[str, Any] = dict(row=row, quote_id=quote_id, claimed_document=document.doc_id,
                                finding=segment.codes[0] if segment.codes else "", extra=extra)
    if source.text is None:
        return Quote(text="", problem=f"coded segment of source '{document.doc_id}', whose text is not "
                                      "in the project: not checked", **base)
    text = source.text
    if span is None:
        covered = _covered(text, _units(text, convention), segment)
        return Quote(
            text=covered or segment.name, **base,
            problem=(f"positions {segment.start}-{segment.end} of coded segment in {document.doc_id} do not "
                     f"fit its text ({convention.describe()}): they do not start and end on word boundaries"
                     + (" or lie past its end" if segment.end > len(text) or segment.start < 0 else "")
                     + ("; the quote shown is the text they cover, widened to whole words" if covered else "")
                     + "; recode the segment or export the project again"))
    return Quote(text=text[span[0]:span[1]], at=(*span, source.line(span[0])), **base)


def _unique(items: list[tuple[str, str]], what: str, path: Path, warnings: list[str]) -> dict[str, str]:
    """GUID -> name, each GUID given to two items said in a warning naming both (the first is kept)."""
    found: dict[str, str] = {}
    for guid, name in items:
        if guid in found and found[guid] != name:
            warnings.append(f"{path}: {what}s '{found[guid]}' and '{name}' share the GUID {guid}; "
                            f"'{found[guid]}' is taken where it is referred to; export the project again")
        found.setdefault(guid, name)
    return found


def _quote_ids(segments: list[Segment], path: Path, warnings: list[str]) -> list[str]:
    """Each segment's GUID as its quote id; a GUID given to two segments (or none) made unique, with a warning
    naming both."""
    ids: list[str] = []
    first: dict[str, int] = {}  # GUID -> the row of the first segment with it
    taken: set[str] = set()
    for row, segment in enumerate(segments, start=1):
        quote_id, k = segment.guid or f"segment{row}", 1
        while quote_id in taken:
            k += 1
            quote_id = f"{segment.guid or f'segment{row}'}#{k}"
        if segment.guid in first:
            warnings.append(f"{path}: coded segments {first[segment.guid]} and {row} share the GUID {segment.guid}; "
                            f"segment {row} is named '{quote_id}'")
        first.setdefault(segment.guid, row)
        taken.add(quote_id)
        ids.append(quote_id)
    return ids


def _count_segments(path: Path, data: bytes, limits: ArchiveLimits) -> None:
    """Refuse, before the XML is parsed, a project of more coded segments than quotes a run may check."""
    # Start tags, with or without a namespace prefix; a closing tag starts with "</".
    count = len(_SELECTION.findall(data))
    if count > limits.max_quotes:
        raise InputError(f"{path}: refused: {count:,} coded segments, more than the limit of {limits.max_quotes:,} "
                         "quotes (limits.max_quotes in --config); export fewer codes, or raise the limit")


_SELECTION = re.compile(rb"<(?:[\w.-]+:)?PlainTextSelection\b")


def _sources(root: Any, archive: zipfile.ZipFile, path: Path, warnings: list[str]
             ) -> tuple[list[tuple[Document, str | None]], list[Segment]]:
    """Each text source as a document (and its text, None when the project lacks it) and every coded segment,
    in project order."""
    codes = _unique([(c.get("guid", ""), c.get("name", "")) for c in root.iter("Code")], "code", path, warnings)
    notes = {note.get("guid"): _text(note.find("PlainTextContent")) for note in root.iter("Note")}
    elements = list(root.iter("TextSource"))
    _unique([(e.get("guid", ""), e.get("name") or f"source {k}") for k, e in enumerate(elements, start=1)],
            "source", path, warnings)
    sources: list[tuple[Document, str | None]] = []
    segments: list[Segment] = []
    taken: set[str] = set()
    for index, element in enumerate(elements):
        guid = element.get("guid", "")
        found = _source_text(archive, path, element, warnings)
        doc_id = _doc_id(element.get("name") or guid, taken)
        if found is not None:
            text, raw = found
            sources.append((Document(doc_id, f"{path}!{element.get('name') or guid}", text,
                                     hashlib.sha256(raw).hexdigest(), "utf-8"), text))
        else:
            sources.append((Document(doc_id, "", "", ""), None))
        segments.extend(_segments(element, index, codes, notes))
    return sources, segments


def read_qdpx(path: str | Path, *, limits: ArchiveLimits | None = None) -> QdaProject:
    """The sources and coded segments of a REFI-QDA project; ``limits``: how many segments it may hold
    (limits.max_quotes; default: the config's)."""
    path = Path(path)
    limits = limits or ArchiveLimits.of()
    warnings: list[str] = []
    with _open(path, limits) as archive:
        data = _member(archive, path, "project.qde", MAX_XML)
        if data is None:
            raise InputError(f"{path}: no project.qde in this archive; is it a REFI-QDA project (.qdpx)?")
        _count_segments(path, data, limits)
        root = _parse(path, data)
        del data
        if root.tag not in (f"{NS}Project", "Project"):
            raise InputError(f"{path}: project.qde is not a REFI-QDA project (its root is <{root.tag}>)")
        for element in root.iter():
            # Names without the namespace: some exporters leave it out, and nothing else uses these names.
            element.tag = element.tag.rsplit("}", 1)[-1]
        found, segments = _sources(root, archive, path, warnings)
    texts = {k: text for k, (_, text) in enumerate(found) if text is not None}
    convention, spans, fits = _choose(texts, segments)
    said = (f"{path}: positions read as {convention.describe()}: {fits} of {len(segments)} coded segments "
            "start and end on word boundaries")
    sources = [_Source(document, text, _line_starts(text) if text is not None else ()) for document, text in found]
    ids = _quote_ids(segments, path, warnings)
    quotes = [_quote(row, segment, sources[segment.source], span, convention, quote_id)
              for row, (segment, span, quote_id) in enumerate(zip(segments, spans, ids), start=1)]
    usable = tuple(d for d, text in found if text is not None and d.text.strip())
    return QdaProject(usable, tuple(quotes), said, tuple(warnings))
