"""REFI-QDA projects (``.qdpx``): the exchange format of NVivo, ATLAS.ti, MAXQDA and QualCoder.

A project is a zip archive holding ``project.qde`` (XML) and the ``sources/``
it codes. Its text sources are documents: the plain text the archive holds
(``plainTextPath="internal://..."``, or ``PlainTextContent`` written inline),
else the ``.docx`` it holds, read through quoteverify.formats. Its coded text
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
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any
from xml.etree.ElementTree import ParseError

import numpy as np

from .archive import ArchiveLimits, check_archive
from .errors import InputError
from .formats import extract
from .types import Document, Quote

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
    source: str          # the source's GUID
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
        weights[:-1] += np.fromiter((ord(c) > 0xFFFF for c in text), dtype=np.int64, count=len(text))
    if text.startswith("\ufeff") and not convention.bom_counted:
        weights[0] = 0
    if not convention.crlf_two:
        k = 0
        while (k := text.find("\r\n", k)) >= 0:
            weights[k] = 0  # the pair counts once, as its LF
            k += 2
    return np.concatenate(([0], np.cumsum(weights)[:-1]))


def _index(units: np.ndarray, position: int, *, start: bool) -> int | None:
    """The text index at ``position``, or None when it falls inside a character (half an emoji) or out.

    Characters that count nothing (a skipped BOM, the CR of a CRLF counted once) share their position with
    the next: a start comes after them, an end before them."""
    k = int(np.searchsorted(units, position, side="right")) - 1 if start else int(np.searchsorted(units, position))
    return k if 0 <= k < len(units) and units[k] == position else None


def _on_word_boundaries(text: str, start: int, end: int) -> bool:
    if not 0 <= start < end <= len(text):
        return False
    first, last = text[start], text[end - 1]
    if first.isspace() or last.isspace():
        return False
    if start > 0 and text[start - 1].isalnum() and first.isalnum():
        return False
    return not (end < len(text) and last.isalnum() and text[end].isalnum())


def _spans(text: str, units: np.ndarray, segment: Segment) -> tuple[int, int] | None:
    start, end = _index(units, segment.start, start=True), _index(units, segment.end, start=False)
    if start is None or end is None or not _on_word_boundaries(text, start, end):
        return None
    return start, end


def _covered(text: str, units: np.ndarray, segment: Segment) -> str:
    """The text a misfitting segment's positions cover, widened to whole words, so the coder sees what was
    coded; "" when they lie wholly outside the text."""
    low, high = sorted((segment.start, segment.end))  # positions given backwards still name a stretch
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


def _choose(texts: dict[str, str], segments: list[Segment]) -> tuple[Convention, dict[str, np.ndarray], int]:
    """The convention that puts the most segments on word boundaries; ties go to the simplest."""
    best: tuple[int, Convention, dict[str, np.ndarray]] | None = None
    for convention in CONVENTIONS:
        units = {guid: _units(text, convention) for guid, text in texts.items()}
        fits = sum(1 for s in segments if s.source in texts and _spans(texts[s.source], units[s.source], s))
        if best is None or fits > best[0]:
            best = (fits, convention, units)
    assert best is not None
    return best[1], best[2], best[0]


# --- the archive ----------------------------------------------------------------------------------


def _open(path: Path) -> zipfile.ZipFile:
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
        check_archive(path, path, ArchiveLimits.of(), total=False)
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
            try:
                return data.decode("utf-8"), data
            except UnicodeDecodeError:
                try:
                    return data.decode("utf-16"), data
                except UnicodeDecodeError:
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


def _segments(source: Any, guid: str, codes: dict[str, str], notes: dict[str, str]) -> Iterator[Segment]:
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
        yield Segment(selection.get("guid", ""), guid, start, end, tuple(c for c in codings if c),
                      "\n".join(m for m in memo if m), selection.get("name", ""))


def _quote(row: int, segment: Segment, document: Document, texts: dict[str, str], units: Any,
           convention: Any) -> Quote:
    """A coded segment as a quote: its text where its positions fit the source, else the reason not."""
    extra = (("qda_guid", segment.guid), ("codes", "; ".join(segment.codes)), ("memo", segment.memo))
    base: dict[str, Any] = dict(row=row, quote_id=segment.guid or f"segment{row}", claimed_document=document.doc_id,
                                finding=segment.codes[0] if segment.codes else "", extra=extra)
    if segment.source not in texts:
        return Quote(text="", problem=f"coded segment of source '{document.doc_id}', whose text is not "
                                      "in the project: not checked", **base)
    text = texts[segment.source]
    span = _spans(text, units[segment.source], segment)
    if span is None:
        covered = _covered(text, units[segment.source], segment)
        return Quote(
            text=covered or segment.name, **base,
            problem=(f"positions {segment.start}-{segment.end} of coded segment in {document.doc_id} do not "
                     f"fit its text ({convention.describe()}): they do not start and end on word boundaries"
                     + (" or lie past its end" if segment.end > len(text) or segment.start < 0 else "")
                     + ("; the quote shown is the text they cover, widened to whole words" if covered else "")
                     + "; recode the segment or export the project again"))
    line = 1 + text.count("\n", 0, span[0]) + text.count("\r", 0, span[0]) - text.count("\r\n", 0, span[0])
    return Quote(text=text[span[0]:span[1]], at=(*span, line), **base)


def read_qdpx(path: str | Path) -> QdaProject:
    """The sources and coded segments of a REFI-QDA project."""
    path = Path(path)
    warnings: list[str] = []
    with _open(path) as archive:
        data = _member(archive, path, "project.qde", MAX_XML)
        if data is None:
            raise InputError(f"{path}: no project.qde in this archive; is it a REFI-QDA project (.qdpx)?")
        root = _parse(path, data)
        if root.tag not in (f"{NS}Project", "Project"):
            raise InputError(f"{path}: project.qde is not a REFI-QDA project (its root is <{root.tag}>)")
        for element in root.iter():
            # Names without the namespace: some exporters leave it out, and nothing else uses these names.
            element.tag = element.tag.rsplit("}", 1)[-1]
        codes = {code.get("guid"): code.get("name", "") for code in root.iter("Code")}
        notes = {note.get("guid"): _text(note.find("PlainTextContent")) for note in root.iter("Note")}
        texts: dict[str, str] = {}
        documents: dict[str, Document] = {}
        segments: list[Segment] = []
        taken: set[str] = set()
        for source in root.iter("TextSource"):
            guid = source.get("guid", "")
            found = _source_text(archive, path, source, warnings)
            doc_id = _doc_id(source.get("name") or guid, taken)
            if found is not None:
                text, raw = found
                texts[guid] = text
                documents[guid] = Document(doc_id, f"{path}!{source.get('name') or guid}", text,
                                           hashlib.sha256(raw).hexdigest(), "utf-8")
            else:
                documents[guid] = Document(doc_id, "", "", "")
            segments.extend(_segments(source, guid, codes, notes))
    convention, units, fits = _choose(texts, segments)
    said = (f"{path}: positions read as {convention.describe()}: {fits} of {len(segments)} coded segments "
            "start and end on word boundaries")
    quotes = [_quote(row, segment, documents[segment.source], texts, units, convention)
              for row, segment in enumerate(segments, start=1)]
    usable = tuple(d for guid, d in documents.items() if guid in texts and d.text.strip())
    return QdaProject(usable, tuple(quotes), said, tuple(warnings))
