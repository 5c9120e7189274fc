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
  the document writes it with a hyphen elsewhere ("self-reported").

python-docx and pypdf are imported only when such a file is read.
"""
from __future__ import annotations

import html
import io
import logging
import re
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from .archive import ArchiveLimits, check_archive
from .errors import InputError
from .turns import label_of
from .types import Turn

TEXT_SUFFIXES = (".txt", ".md", ".vtt", ".srt")   # decoded as text, then extracted
BINARY_SUFFIXES = (".docx", ".pdf")               # extracted from the file's bytes
SUFFIXES = TEXT_SUFFIXES + BINARY_SUFFIXES


@dataclass(frozen=True)
class Extracted:
    """A document's text as offsets refer to it, the turns of its cues (subtitle files only), and
    what the reader should know about the extraction."""

    text: str
    cues: tuple[Turn, ...] = ()
    warnings: tuple[str, ...] = ()


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
        return _pdf(path, cast(bytes, content))
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

    check_archive(path, data, limits or ArchiveLimits.of())
    try:
        document = docx.Document(io.BytesIO(data))
        document.element.body  # noqa: B018 -- a main part that is no Word document has none
        return document
    except Exception as exc:  # python-docx raises many types for damaged files
        raise _unreadable_docx(path, exc) from None


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


def _pdf(path: Path, data: bytes) -> Extracted:
    # pypdf is needed only for .pdf documents.
    from pypdf import PdfReader

    logger = logging.getLogger("pypdf")
    collected = _Collected()
    logger.addHandler(collected)
    propagate, logger.propagate = logger.propagate, False
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            reader = PdfReader(io.BytesIO(data))
            if reader.is_encrypted and not reader.decrypt(""):
                raise InputError(f"{path}: the PDF is encrypted; save a copy without a password")
            pages = [(page.extract_text() or "").rstrip() for page in reader.pages]
        collected.messages += [" ".join(str(w.message).split()) for w in caught]
    except InputError:
        raise
    except Exception as exc:  # pypdf raises many types for damaged files
        raise InputError(f"{path}: not a readable PDF ({type(exc).__name__}: {exc})") from None
    finally:
        logger.removeHandler(collected)
        logger.propagate = propagate
    if not any(pages):
        raise InputError(f"{path}: no text in this PDF (a scan?); run OCR on it, or give the transcript "
                         "as .txt or .docx")
    notes = list(dict.fromkeys(m for m in collected.messages if m))
    found: tuple[str, ...] = ()
    if notes:
        more = f" and {len(notes) - 1} more" if len(notes) > 1 else ""
        found = (f"{path}: the PDF is damaged in places (pypdf: {notes[0]}{more}); its text was read, but check "
                 "the results against the document",)
    return Extracted(dehyphenate("\n".join(pages)), warnings=found)


def dehyphenate(text: str) -> str:
    """Join words hyphenated at line ends, moving the line break after the word."""
    compounds = {m.group().casefold() for m in _COMPOUND.finditer(text)}
    joined_words = {w.casefold() for w in _LETTERS.findall(text)}

    def join(m: re.Match) -> str:
        head, tail, rest = m.groups()
        word = head + tail
        keep = f"{head}-{tail}".casefold() in compounds and word.casefold() not in joined_words
        line_end = m.end() == len(text) or text[m.end()] in "\r\n"
        return head + ("-" if keep else "") + tail + rest + ("" if line_end else "\n")

    return _HYPHENATED.sub(join, text)
