"""Text out of the document formats: what every offset of a result refers to.

``.txt`` and ``.md`` are their own text. The others are extracted:

- ``.docx`` (python-docx): the paragraphs of the body in order, joined with
  "\\n" (a line break inside a paragraph stays one); a table gives one line
  per row, its cells separated by tabs. Headers, footers, notes and comments
  are left out.
- ``.vtt`` (WebVTT) and ``.srt`` (SubRip): one line per cue, the cue's lines
  joined with a space, markup (``<i>``, ``<c.x>``, ``{\\an8}``) removed and
  character references (``&amp;``) decoded. Each cue is a turn: its start time
  is the timestamp, and its speaker the ``<v Name>`` voice tag, else a
  ``Name:`` label opening it, else the previous cue's speaker.
- ``.pdf`` (pypdf): the text of the pages joined with "\\n". A word hyphenated
  at a line end is joined again ("infor-\\nmation" becomes "information\\n", the
  line break moved after the word so lines still count as in the PDF), unless
  the document writes it with a hyphen elsewhere ("self-reported"). pypdf also
  tells where it drew each run of text and how large (its ``visitor_text``):
  the document's ``layout`` keeps, per page, its span of the text, its page
  label, where each line stands and how large it is, and the digits set smaller
  than their line (raised footnote markers), for quoteverify.sources.pages to read the
  page's furniture from. The text is exactly pypdf's, so offsets are the same
  with or without the layout.

python-docx and pypdf are imported only when such a file is read.
"""
from __future__ import annotations

import bisect
import html
import io
import itertools
import logging
import math
import re
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from ..model.errors import InputError
from ..model.types import LineBox, PageLayout, Turn
from ..plumbing.archive import ArchiveLimits, check_archive
from .pages import layout_warnings
from .turns import label_of

TEXT_SUFFIXES = (".txt", ".md", ".vtt", ".srt")   # decoded as text, then extracted
BINARY_SUFFIXES = (".docx", ".pdf")               # extracted from the file's bytes
SUFFIXES = TEXT_SUFFIXES + BINARY_SUFFIXES
# The quote tables' formats (quoteverify.sources.quotes reads them): a documents folder passes them over quietly.
QUOTE_SUFFIXES = (".csv", ".tsv", ".xlsx", ".jsonl", ".txt", ".qdpx")
PROJECT_SUFFIX = ".qdpx"  # a REFI-QDA project: documents and quotes both (see quoteverify.sources.qdpx)


@dataclass(frozen=True)
class Extracted:
    """A document's text as offsets refer to it, the turns of its cues (subtitle files only), and
    what the reader should know about the extraction."""

    text: str
    cues: tuple[Turn, ...] = ()
    warnings: tuple[str, ...] = ()
    layout: tuple[PageLayout, ...] = ()  # a PDF's pages as pypdf laid them out


def extract(path: Path, content: str | bytes, *, limits: ArchiveLimits | None = None) -> Extracted:
    """The text (and cues) of one document: ``content`` is the decoded text of a
    text format, the bytes of a binary one (see TEXT_SUFFIXES, BINARY_SUFFIXES).
    ``limits``: what a .docx may cost to unzip (default: the config's)."""
    suffix = path.suffix.lower()
    if suffix in (".vtt", ".srt"):
        return _subtitles(path, cast(str, content))
    if suffix == ".docx":
        return _docx(path, cast(bytes, content), limits)
    if suffix == ".pdf":
        return _pdf(path, cast(bytes, content), limits or ArchiveLimits.of())
    return Extracted(cast(str, content))


# ------------------------------------------------------------------ subtitles

_TIMING = re.compile(r"^[ \t]*((?:\d+:)?\d{1,2}:\d{2}[.,]\d{1,3})[ \t]*-->")
# "\r(?!\n)": a CRLF is one line break, never a CR and then an LF.
_BLANK_LINES = re.compile(r"(?:\r\n|\r(?!\n)|\n)[ \t]*(?:(?:\r\n|\r(?!\n)|\n)[ \t]*)+")
# Lines end as an editor ends them; str.splitlines() would also break at form feeds,
# U+2028 and other characters a quote may hold.
LINE_BREAK = re.compile(r"\r\n|\r|\n")
# Linear on any text (tests/test_regexes.py): a tag's inside cannot hold the '<' or '{' that opens one, so a
# cue of 100,000 unclosed '<' is scanned once, not once per '<'; a voice's name starts after its spaces.
_VOICE = re.compile(r"<v(?:\.[^\s<>]*)?[ \t]+([^\s<>][^<>]*)>")
_MARKUP = re.compile(r"<[^<>\n]*>|\{\\[^{}\n]*\}")


def _subtitles(path: Path, text: str) -> Extracted:
    lines: list[str] = []
    cues: list[Turn] = []
    offset = 0
    speaker = ""
    for block in _BLANK_LINES.split(text.removeprefix("\ufeff")):
        block_lines = LINE_BREAK.split(block.strip("\r\n"))
        timing, cue_time = next(((k, m[1]) for k, line in enumerate(block_lines) if (m := _TIMING.match(line))),
                                (None, ""))
        if timing is None:  # the WEBVTT header, NOTE, STYLE and REGION blocks
            continue
        raw = " ".join(line.strip() for line in block_lines[timing + 1:] if line.strip())
        cue_text = " ".join(html.unescape(_MARKUP.sub("", raw)).split())
        if not cue_text:
            continue
        voice = _VOICE.search(raw)
        label = label_of(cue_text)
        speaker = voice[1].strip() if voice else label.speaker if label and label.speaker else speaker
        body = offset + (label.end if label else 0)
        cues.append(Turn(offset, speaker, cue_time, body))
        lines.append(cue_text)
        offset += len(cue_text) + 1
    if not cues and text.strip():
        raise InputError(f"{path}: no cues found (a cue is a line such as '00:00:01.000 --> 00:00:04.000' "
                         f"and its text); check that it is a {path.suffix.lower()} subtitle file")
    return Extracted("\n".join(lines) + "\n" if lines else "", tuple(cues))


# ---------------------------------------------------------------------- .docx

def open_docx(path: Path, data: bytes, limits: ArchiveLimits | None = None):
    """The python-docx Document of a .docx file's bytes, once its size unzipped is within ``limits``."""
    # python-docx (and lxml under it) is needed only for .docx files.
    import docx

    if data.startswith(_OLE):
        raise InputError(_ole_docx(path, data))
    check_archive(path, data, limits or ArchiveLimits.of())
    try:
        document = docx.Document(io.BytesIO(data))
        document.element.body  # noqa: B018 -- a main part that is no Word document has none
        return document
    except Exception as exc:  # python-docx raises many types for damaged files
        raise _unreadable_docx(path, exc) from None


_OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # a compound file: Word's .doc, or a .docx encrypted with a password
_ENCRYPTION_INFO = "EncryptionInfo".encode("utf-16-le")  # the stream an encrypted .docx's compound file holds


def _ole_docx(path: Path, data: bytes) -> str:
    """Why a .docx that is a compound file cannot be read."""
    if _ENCRYPTION_INFO in data:
        return (f"{path}: is protected with a password (Word encrypts such a .docx); save a copy without the "
                "password (File > Info > Protect Document > Encrypt with Password, cleared) and give that")
    return f"{path}: is a Word 97-2003 document (.doc) named .docx; save it from Word as .docx"


def _unreadable_docx(path: Path, exc: Exception) -> InputError:
    return InputError(f"{path}: not a readable .docx file ({type(exc).__name__}: {exc}); re-save it from Word as .docx")


def _docx(path: Path, data: bytes, limits: ArchiveLimits | None) -> Extracted:
    # python-docx (and lxml under it) is needed only for .docx files.
    from docx.table import Table

    document = open_docx(path, data, limits)
    lines = []
    try:
        for block in document.iter_inner_content():
            if isinstance(block, Table):
                lines.extend(_table_rows(block))
            else:
                lines.append(block.text)
        warnings = docx_warnings(path, document)
    except Exception as exc:  # python-docx raises many types for a body it cannot walk
        raise _unreadable_docx(path, exc) from None
    return Extracted("\n".join(lines), warnings=warnings)


def docx_warnings(path: Path, document) -> tuple[str, ...]:
    """What python-docx leaves out of a document's text: it reads a tracked insertion as not there."""
    if not document.element.body.xpath(".//w:ins"):
        return ()
    return (f"{path}: has tracked changes, and text inserted with changes tracked is not read; accept or "
            "reject the changes in Word and save it again",)


def _table_rows(table) -> list[str]:
    return ["\t".join(cell.text for cell in docx_cells(row)) for row in table.rows]


def docx_cells(row) -> list:
    """The cells of a python-docx table row, a merged cell once (python-docx lists it once per column)."""
    cells, seen = [], set()
    for cell in row.cells:
        if id(cell._tc) not in seen:
            seen.add(id(cell._tc))
            cells.append(cell)
    return cells


# ----------------------------------------------------------------------- .pdf

_HYPHENATED = re.compile(r"\b([^\W\d_]+)[-\u00ad\u2010][ \t]*(?:\r\n|\r|\n)[ \t]*([^\W\d_A-Z][\w']*)(\S*)[ \t]*")
_COMPOUND = re.compile(r"\b[^\W\d_]+(?:-[^\W\d_]+)+")
_LETTERS = re.compile(r"[^\W\d_]+")


class _Collected(logging.Handler):
    """pypdf's complaints about a damaged file, kept for one warning instead of printed raw."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(" ".join(record.getMessage().split()))


# The page content any PDF may unpack, whatever its size: the ratio limit counts past it.
PDF_FLOOR = 1 << 20
# What reading a page costs pypdf besides its content, counted as this many bytes of content (about 2 ms, as
# long as it takes to read 3 KB of content): 10,000 pages that all draw one stream, in 1.5 MB, would take
# 30 s to read for no text worth checking. A genuine page is 2 KB of the file or more (its own content
# stream), so within the ratio limit.
PDF_PAGE_BYTES = 3_000


class _Budget:
    """What reading a PDF's text may cost: the page content unpacked (each page's streams and its fonts' character
    maps, and each form each time it is drawn) up to limits.max_pdf_ratio times the file's size, and text up to
    limits.max_document_chars.
    pypdf reads content at about 1.5 MB a second, so a 70 KB file whose 100 pages draw one 2 MB stream, or one
    page that draws a form 5,000 times, would take minutes and gigabytes."""

    def __init__(self, path: Path, size: int, limits: ArchiveLimits) -> None:
        self.path, self.limits, self.size = path, limits, size
        self.bytes_left = max(PDF_FLOOR, limits.max_pdf_ratio * size)
        self.allowed = self.bytes_left
        self.chars = 0

    def spend(self, content: int) -> None:
        self.bytes_left -= content
        if self.bytes_left < 0:
            raise InputError(f"{self.path}: refused: its pages draw more than {self.allowed:,.0f} bytes of content, "
                             f"over {self.limits.max_pdf_ratio:g} times its size (limits.max_pdf_ratio in --config), "
                             "as PDFs built to exhaust a reader do; save it again as PDF, or raise the limit")

    def pages(self, reader) -> None:
        """Pay, before any page is read, for every page (PDF_PAGE_BYTES each) and its content and its fonts'
        character maps: a file whose pages cost too much is refused in the time it takes to count them (the
        number its page tree claims first: finding every page takes pypdf seconds too)."""
        self._count(_claimed_pages(reader))
        pages = reader.pages
        self._count(len(pages))
        self.bytes_left -= PDF_PAGE_BYTES * len(pages)
        for page in pages:
            self.spend(_stream_size(page.get("/Contents")) + _cmaps(page.get("/Resources")))

    def _count(self, pages: int) -> None:
        if PDF_PAGE_BYTES * pages > self.bytes_left:
            raise InputError(f"{self.path}: refused: {pages:,} pages in {self.size:,} bytes, as PDFs built to "
                             "exhaust a reader hold (each page costs as much to read as "
                             f"{PDF_PAGE_BYTES:,} bytes of content, and its pages may draw {self.allowed:,.0f} bytes, "
                             f"{self.limits.max_pdf_ratio:g} times its size: limits.max_pdf_ratio in --config); "
                             "save it again as PDF, or raise the limit")

    def text(self, chars: int) -> None:
        self.chars += chars
        if self.chars > self.limits.max_document_chars:
            raise InputError(f"{self.path}: refused: its text runs past {self.limits.max_document_chars:,} characters "
                             "(limits.max_document_chars in --config); split it, or raise the limit")


def _claimed_pages(reader) -> int:
    """How many pages the root of a PDF's page tree says it holds (its /Count, or its /Kids if more); 0 when
    it says nothing readable."""
    try:
        tree = reader.trailer["/Root"].get_object()["/Pages"].get_object()
        count, kids = tree.get("/Count", 0), tree.get("/Kids", [])
        return max(int(count) if isinstance(count, int) else 0, len(kids.get_object()))
    except Exception:  # a damaged tree: pypdf's own reading of the pages says what it makes of it
        return 0


def _stream_size(stream) -> int:
    """The unpacked size of a content stream, or of each of a page's array of them (pypdf keeps it once read)."""
    stream = stream.get_object() if stream is not None else None
    if stream is None:
        return 0
    if isinstance(stream, list):
        return sum(_stream_size(part) for part in stream)
    return len(stream.get_data()) if hasattr(stream, "get_data") else 0


def _forms(resources, found: dict[str, int], depth: int = 0) -> dict[str, int]:
    """The unpacked size of each form a page may draw, by name, its forms' own forms included."""
    resources = resources.get_object() if resources is not None else None
    xobjects = resources.get("/XObject") if hasattr(resources, "get") else None
    xobjects = xobjects.get_object() if xobjects is not None else None
    if xobjects is None or not hasattr(xobjects, "items") or depth > 8:
        return found
    for name, reference in xobjects.items():
        form = reference.get_object()
        if hasattr(form, "get") and form.get("/Subtype") == "/Form" and name not in found:
            found[name] = _stream_size(form)
            _forms(form.get("/Resources"), found, depth + 1)
    return found


def _cmaps(resources) -> int:
    """The unpacked size of the character maps (/ToUnicode) of a page's fonts, which pypdf reads for its text."""
    resources = resources.get_object() if resources is not None else None
    fonts = resources.get("/Font") if hasattr(resources, "get") else None
    fonts = fonts.get_object() if fonts is not None else None
    if fonts is None or not hasattr(fonts, "values"):
        return 0
    total = 0
    for reference in fonts.values():
        font = reference.get_object()
        total += _stream_size(font.get("/ToUnicode")) if hasattr(font, "get") else 0
    return total


def _pdf(path: Path, data: bytes, limits: ArchiveLimits) -> Extracted:
    # pypdf is needed only for .pdf documents.
    from pypdf import PdfReader

    logger = logging.getLogger("pypdf")
    collected = _Collected()
    logger.addHandler(collected)
    propagate, logger.propagate = logger.propagate, False
    budget = _Budget(path, len(data), limits)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            reader = PdfReader(io.BytesIO(data))
            if reader.is_encrypted and not reader.decrypt(""):
                raise InputError(f"{path}: the PDF is encrypted; save a copy without a password")
            budget.pages(reader)
            read = [_read_page(page, budget) for page in reader.pages]
            labels = _labels(reader)
        collected.messages += [" ".join(str(w.message).split()) for w in caught]
    except InputError:
        raise
    except Exception as exc:  # pypdf raises many types for damaged files
        raise InputError(f"{path}: not a readable PDF ({type(exc).__name__}: {exc})") from None
    finally:
        logger.removeHandler(collected)
        logger.propagate = propagate
    pages = [text.rstrip() for text, _, _ in read]
    if not any(pages):
        raise InputError(f"{path}: no text in this PDF (a scan?); run OCR on it, or give the transcript "
                         "as .txt or .docx")
    notes = list(dict.fromkeys(m for m in collected.messages if m))
    found: list[str] = []
    if notes:
        more = f" and {len(notes) - 1} more" if len(notes) > 1 else ""
        found.append(f"{path}: the PDF is damaged in places (pypdf: {notes[0]}{more}); its text was read, but "
                     "check the results against the document")
    text, moved = _dehyphenated("\n".join(pages))
    layout = _layout(text, pages, read, labels, moved)
    found += [f"{path}: {warning}" for warning in layout_warnings(text, layout)]
    return Extracted(text, warnings=tuple(found), layout=layout)


# How pypdf's runs of text tell a page's layout.
MARKER_SIZE = 0.85   # a digit set at most this share of its line's size is raised: a footnote marker
COLUMN_SHARE = 0.3   # text on a line's baseline this share of the page's width right of its start, both
COLUMN_WORDS = 3     # sides at least this many words long, is another column read across


@dataclass(frozen=True)
class _Run:
    """A run of text as pypdf drew it: where it starts on the page, and its size."""

    text: str
    x: float
    y: float
    size: float


def _read_page(page, budget: _Budget) -> tuple[str, list[_Run] | None, float]:
    """A page's text as pypdf extracts it, the runs it drew it from (None when they do not add up to the text,
    which then stands without its layout), and the page's width. Its content and its fonts' character maps were
    paid for (``budget.pages``); each form is, as it is drawn."""
    forms = _forms(page.get("/Resources"), {})
    runs: list[_Run] = []

    def drawn(operator: bytes, operands, cm, tm) -> None:
        if operator == b"Do" and operands:
            budget.spend(forms.get(str(operands[0]), 0))

    def visit(text: str, cm: list, tm: list, font: object, size: float) -> None:
        if text:
            a, b, c, d, e, f = (float(v) for v in tm)
            ca, cb, cc, cd, ce, cf = (float(v) for v in cm)
            x, y = e * ca + f * cc + ce, e * cb + f * cd + cf
            runs.append(_Run(text, x, y, abs(float(size)) * math.hypot(c * ca + d * cc, c * cb + d * cd)))

    text = page.extract_text(visitor_operand_before=drawn if forms else None, visitor_text=visit) or ""
    budget.text(len(text) + 1)
    return text, runs if "".join(r.text for r in runs) == text else None, float(page.mediabox.width)


def _labels(reader) -> list[str]:
    """The page labels the PDF sets ("101", "iv"), "" for each page when it sets none."""
    try:
        if "/PageLabels" in reader.trailer["/Root"]:
            return [str(label) for label in reader.page_labels]
    except Exception:  # noqa: S110 -- a damaged label tree: the pages go without labels
        pass
    return [""] * len(reader.pages)


def _layout(text: str, pages: list[str], read: list[tuple[str, list[_Run] | None, float]], labels: list[str],
            moved) -> tuple[PageLayout, ...]:
    """Each page's span of ``text`` (the pages joined and dehyphenated: ``moved`` maps an offset of the
    joined pages into it), its label and, where pypdf's runs add up to its text, its lines."""
    line_spans = _line_spans(text)
    layout: list[PageLayout] = []
    first = 0     # the page's first line among line_spans
    offset = 0    # the page's start in the joined text, before dehyphenation
    for page_text, (_, runs, width), label in zip(pages, read, labels):
        count = len(LINE_BREAK.findall(page_text)) + 1
        spans = line_spans[first:first + count]
        boxes: list[LineBox] = []
        raised: list[tuple[int, int]] = []
        if runs is not None:
            starts = list(itertools.accumulate((len(r.text) for r in runs), initial=0))
            local = _line_spans(page_text)
            for (a, b), (fa, fb) in zip(local, spans):
                box = _line_box(page_text, _Drawn(runs, starts, width), a, b, fa, fb)
                if box is not None:
                    boxes.append(box)
                raised += [(moved(offset + ra), moved(offset + rb - 1) + 1)
                           for ra, rb in _raised(page_text, runs, starts, a, b)]
        layout.append(PageLayout(spans[0][0], spans[-1][1], label, tuple(boxes), tuple(raised)))
        first += count
        offset += len(page_text) + 1
    return tuple(layout)


def _line_spans(text: str) -> list[tuple[int, int]]:
    """[start, end) of each line of ``text``, without its line break; as many as LINE_BREAK makes."""
    breaks = list(LINE_BREAK.finditer(text))
    return list(zip([0] + [m.end() for m in breaks], [m.start() for m in breaks] + [len(text)]))


@dataclass(frozen=True)
class _Drawn:
    """A page's runs, the offset in its text where each begins (and the text's end), and its width."""

    runs: list[_Run]
    starts: list[int]
    width: float

    def at(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset) - 1


def _line_box(page_text: str, drawn: _Drawn, a: int, b: int, fa: int, fb: int) -> LineBox | None:
    """Where pypdf drew the line [a, b) of a page's text (at [fa, fb) of the document's), if it holds text."""
    content = page_text[a:b]
    lead = len(content) - len(content.lstrip())
    width = len(content.strip())
    if not width:
        return None
    runs, starts = drawn.runs, drawn.starts
    first, last = drawn.at(a + lead), drawn.at(a + lead + width - 1)
    sizes: dict[float, int] = {}
    for k in range(first, last + 1):
        shown = page_text[max(a, starts[k]):min(b, starts[k + 1])]
        sizes[runs[k].size] = sizes.get(runs[k].size, 0) + len(shown.strip())
    size = max(sizes, key=sizes.__getitem__)
    across = 0.0
    for k in range(first + 1, last + 1):
        right = runs[k]
        if (right.text.strip() and abs(right.y - runs[first].y) < 0.3 * size
                and right.x - runs[first].x > COLUMN_SHARE * drawn.width
                and len(page_text[a:starts[k]].split()) >= COLUMN_WORDS
                and len(page_text[starts[k]:b].split()) >= COLUMN_WORDS):
            across = right.x
            break
    start = fa + lead
    return LineBox(start, start + width, runs[first].x, runs[first].y, size, across)


def _raised(page_text: str, runs: list[_Run], starts: list[int], a: int, b: int) -> list[tuple[int, int]]:
    """Digits of the line [a, b) set smaller than the line and glued to the word before: footnote markers."""
    found = []
    first, last = bisect.bisect_right(starts, a) - 1, bisect.bisect_right(starts, max(a, b - 1)) - 1
    sizes = [runs[k].size for k in range(max(0, first), last + 1) if runs[k].text.strip()]
    if len(sizes) < 2:
        return []
    line = max(sizes)
    for k in range(max(0, first), last + 1):
        digits = runs[k].text.strip()
        at = starts[k] + runs[k].text.find(digits[:1]) if digits else -1
        if (digits.isdigit() and len(digits) <= 3 and runs[k].size <= MARKER_SIZE * line and at > a
                and (page_text[at - 1].isalpha() or page_text[at - 1] in ".,;:!?'\"’”)")):
            found.append((at, at + len(digits)))
    return found


def dehyphenate(text: str) -> str:
    """Join words hyphenated at line ends, moving the line break after the word."""
    return _dehyphenated(text)[0]


def _dehyphenated(text: str):
    """``dehyphenate(text)``, and a function from an offset of ``text`` to the same character's in it
    (for a character it keeps)."""
    compounds = {m.group().casefold() for m in _COMPOUND.finditer(text)}
    joined_words = {w.casefold() for w in _LETTERS.findall(text)}
    parts: list[str] = []
    kept: list[tuple[int, int, int]] = []  # (old start, new start, length) of each stretch copied
    pos = new = 0

    def copy(a: int, b: int) -> None:
        nonlocal new
        kept.append((a, new, b - a))
        parts.append(text[a:b])
        new += b - a

    for m in _HYPHENATED.finditer(text):
        head, tail, rest = m.groups()
        keep = f"{head}-{tail}".casefold() in compounds and (head + tail).casefold() not in joined_words
        copy(pos, m.end(1))
        if keep:
            parts.append("-")
            new += 1
        copy(m.start(2), m.end(3))
        line_end = m.end() == len(text) or text[m.end()] in "\r\n"
        if not line_end:
            parts.append("\n")
            new += 1
        pos = m.end()
    copy(pos, len(text))
    olds = [k[0] for k in kept]

    def moved(offset: int) -> int:
        k = max(0, bisect.bisect_right(olds, offset) - 1)
        old, start, length = kept[k]
        return start + min(offset - old, max(0, length - 1))

    return "".join(parts), moved
