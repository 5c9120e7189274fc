"""Quotes out of a manuscript: the passages a paper draft quotes, as a quote table to verify.

    quoteverify extract paper.docx -o quotes.csv
    quoteverify verify transcripts/ quotes.csv -o results.xlsx

A quoted passage is text in “...” or "..." (or «...») within a paragraph, or a
block quote: Markdown ``> `` lines, indented lines of a ``.txt`` (not a
paragraph's indented first line), a ``.docx`` paragraph in a Quote (or Block
Text) style or indented from the left (not a list, nor a hanging-indented
reference). The participant
tag that follows a quote, ``(P3)``, ``[P3]``, ``(Interviewee 7, nurse)`` or
``— P3``, is its speaker; a tag on a line of its own after a block quote
counts too.

Skipped and counted: quoted phrases of fewer than ``extract.min_words`` words
that have no tag (scare quotes, terms; a tagged quote is kept however short),
and quotes followed by a citation of the literature, ``(Smith, 2019, p. 4)``,
which are not in the transcripts.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from ..model.decoders import decode_text
from ..model.errors import InputError
from ..model.rows import csv_text
from ..model.text import utf8
from ..plumbing.archive import ArchiveLimits
from ..plumbing.guard import Guard
from ..plumbing.transaction import write_bytes_atomic
from ..sources.formats import docx_cells, docx_warnings, open_docx
from ..sources.tokenize import WORD

MANUSCRIPT_SUFFIXES = (".docx", ".md", ".txt")
QUOTE_TABLE_COLUMNS = ("quote_id", "quote", "speaker", "context")
QUOTE_TABLE_FORMATS = (".csv",)
CONTEXT_CHARS = 80  # of the manuscript either side of a quote, in the context column


@dataclass(frozen=True)
class ManuscriptQuote:
    """One quoted passage: ``context`` says where it is in the manuscript and what surrounds it."""

    quote_id: str
    quote: str
    speaker: str
    context: str


@dataclass(frozen=True)
class Extraction:
    """The quotes of one manuscript, and what was skipped."""

    source: str
    quotes: tuple[ManuscriptQuote, ...]
    min_words: int
    short: int      # untagged quoted phrases under min_words words
    citations: int  # quotes citing the literature
    warnings: tuple[str, ...] = ()

    def summary(self) -> str:
        tagged = sum(1 for q in self.quotes if q.speaker)
        return (f"{_count(len(self.quotes), 'quote')} from {self.source} ({tagged} with a speaker tag); skipped "
                f"{_count(self.short, 'quoted phrase')} under {self.min_words} words and "
                f"{_count(self.citations, 'citation')} of the literature")


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


@dataclass(frozen=True)
class _Paragraph:
    text: str
    where: str          # "line 12" or "paragraph 4", for the context column
    first_line: int     # 0 for .docx, whose paragraphs have no lines
    block: bool         # a block quote


# ------------------------------------------------------------------ quotes and tags

_INLINE = re.compile(r"“([^“”]+)”|\"([^\"]+)\"|«\s?([^«»]+?)\s?»")
# A tag: "(P3)", "[P3]" or "— P3" (an em or en dash, "--" or "-").
_TAG = (r"(?:\((?P<paren>[^()\n]{1,80})\)|\[(?P<bracket>[^\[\]\n]{1,80})\]"
        r"|(?:—|–|--?)[ \t]*(?P<dash>[^\s,.;:()\[\]—–-][^.;:()\[\]\n—–]{0,60}?)")
# Right after a quote, perhaps after the sentence's punctuation; a dash tag ends with the sentence or at
# ", a nurse, explained".
_TAG_AFTER = re.compile(rf"[ \t]*[,.;:!?]?[ \t]*{_TAG}(?(dash)(?=[.;:!?)]|,[ \t]+[a-z]|[ \t]*(?:\n|$))))")
# Closing a block quote, or standing alone on the line or paragraph after it.
_TAG_AT_END = re.compile(rf"(?:^|[ \t\n]){_TAG})[ \t]*\.?[ \t]*$")
_CITATION = re.compile(r"\b(?:1[5-9]|20)\d{2}[a-z]?\b|\bpp?\.[ \t]*\d|\bibid\b|\bet al\b", re.IGNORECASE)
# Brackets that belong to the quote or the author, not a participant: "(Laughs)", "[emphasis added]".
_STAGE_DIRECTION = re.compile(r"(?i)^(?:laugh\w*|pause\w*|sigh\w*|inaudible|crosstalk|sic|emphasis\b.*|original\b.*)$")
_ENCLOSED = re.compile(r"^[“\"«]\s?(.*?)\s?[”\"»]$", re.DOTALL)


def _tag(m: re.Match | None) -> str:
    """What follows a quote as its tag: a participant ("P3": a capital or a digit first, no stage
    direction) or a citation; '' for anything else ("(emphasis added)")."""
    if m is None:
        return ""
    tag = (m["paren"] or m["bracket"] or m["dash"] or "").strip()
    if _CITATION.search(tag):
        return tag
    return tag if (tag[:1].isupper() or tag[:1].isdigit()) and not _STAGE_DIRECTION.match(tag) else ""


def _words(text: str) -> int:
    return sum(1 for _ in WORD.finditer(text))


def _clip_before(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= CONTEXT_CHARS else "…" + text[-CONTEXT_CHARS:].split(" ", 1)[-1]


def _clip_after(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= CONTEXT_CHARS else text[:CONTEXT_CHARS].rsplit(" ", 1)[0] + "…"


@dataclass(frozen=True)
class _Found:
    quote: str
    tag: str
    context: str


def _cited_around(text: str, start: int, end: int) -> str:
    """The citation sharing the parentheses that enclose text[start:end] ('(“...”, Smith, 2019, p. 4)',
    '(Smith 2019: “...”)'), or ''."""
    opened, closed = text.rfind("(", 0, start), text.find(")", end)
    if opened < 0 or closed < 0 or ")" in text[opened:start] or "(" in text[end:closed]:
        return ""
    around = f"{text[opened + 1:start]} {text[end:closed]}".strip(" \t\n,;:")
    return around if _CITATION.search(around) else ""


def _inline_quotes(paragraph: _Paragraph) -> Iterator[_Found]:
    text = paragraph.text
    for m in _INLINE.finditer(text):
        quote = " ".join((m[1] or m[2] or m[3]).split())
        cited = _cited_around(text, m.start(), m.end())
        if cited:
            yield _Found(quote, cited, "")
            continue
        tag = _TAG_AFTER.match(text, m.end())
        where = paragraph.where
        if paragraph.first_line:
            line = paragraph.first_line + text.count("\n", 0, m.start())
            where = f"line {line}"
        context = f"{where}: {_clip_before(text[:m.start()])} [quote] {_clip_after(text[m.end():])}".strip()
        yield _Found(quote, _tag(tag) if tag else "", context)


def _block_quote(paragraph: _Paragraph) -> _Found:
    text = " ".join(paragraph.text.split())
    m = _TAG_AT_END.search(text)
    tag = _tag(m)
    if m and tag:
        text = text[:m.start()].rstrip()
    enclosed = _ENCLOSED.match(text)
    return _Found(enclosed[1] if enclosed else text, tag, f"{paragraph.where}: block quote")


def _only_tag(paragraph: _Paragraph) -> str:
    """The tag a short paragraph after a block quote consists of ("— P3"), or ''."""
    m = _TAG_AT_END.search(paragraph.text.strip())
    return _tag(m) if m and m.start() == 0 else ""


def _quotes_in(paragraphs: list[_Paragraph], *, source: str, min_words: int,
               warnings: tuple[str, ...] = ()) -> Extraction:
    """The quoted passages of a manuscript's paragraphs, in order."""
    candidates: list[_Found] = []
    untagged_block = False  # the paragraph before is a block quote without a tag
    for paragraph in paragraphs:
        tag = _only_tag(paragraph) if untagged_block else ""
        if tag:
            candidates[-1] = replace(candidates[-1], tag=tag)
        elif paragraph.block:
            candidates.append(_block_quote(paragraph))
        else:
            candidates.extend(_inline_quotes(paragraph))
        untagged_block = paragraph.block and not candidates[-1].tag
    kept: list[_Found] = []
    short = citations = 0
    for candidate in candidates:
        if _CITATION.search(candidate.tag):
            citations += 1
        elif not candidate.tag and 0 < _words(candidate.quote) < min_words:
            short += 1
        elif _words(candidate.quote):
            kept.append(candidate)
    quotes = tuple(ManuscriptQuote(f"q{n}", f.quote, f.tag, f.context) for n, f in enumerate(kept, start=1))
    return Extraction(source, quotes, min_words, short, citations, warnings)


# ------------------------------------------------------------------ manuscripts

_INDENTED = re.compile(r"^(?: {2,}|\t)\S")
_FENCE = re.compile(r"^ {0,3}(```|~~~)")
_BLOCK_LINE = re.compile(r"^ {0,3}> ?")


def _text_paragraphs(text: str, *, markdown: bool) -> list[_Paragraph]:
    """Paragraphs of a .md or .txt manuscript: runs of lines split at blank lines and where a block starts or ends.

    A block is Markdown's ``>`` lines or, in .txt, indented lines set off by a
    blank line before them or more than one line long; an indented line
    followed directly by unindented ones is a paragraph's first line, as in
    a typewritten manuscript. Fenced code in Markdown is left out.
    """
    paragraphs: list[_Paragraph] = []
    run: list[str] = []
    run_start, run_block = 0, False
    blank_before = True  # the run starts after a blank line or at the start
    in_fence = False

    def flush() -> None:
        block = run_block and (markdown or blank_before or len(run) > 1)
        if run:
            paragraphs.append(_Paragraph("\n".join(run), f"line {run_start}", run_start, block))
            run.clear()

    for number, line in enumerate(text.splitlines(), start=1):
        if markdown and _FENCE.match(line):
            flush()
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        if markdown:
            block = bool(_BLOCK_LINE.match(line))
            line = _BLOCK_LINE.sub("", line, count=1) if block else line
        else:
            block = bool(_INDENTED.match(line))
        if not line.strip():
            flush()
            blank_before = True
            continue
        if run and run_block and not block and not markdown and len(run) == 1:
            run_block = False  # the indented first line of a paragraph
        elif run and block != run_block:
            flush()
            blank_before = False
        if not run:
            run_start, run_block = number, block
        run.append(line)
    flush()
    return paragraphs


_QUOTE_STYLE = re.compile(r"quot|block text", re.IGNORECASE)
_NOT_BLOCK_STYLE = re.compile(r"list|heading|title|caption|toc|bibliograph|reference", re.IGNORECASE)


def _inherited(paragraph, attribute: str):
    """A paragraph format attribute, from the paragraph or else from its style and the styles it is based on."""
    value = getattr(paragraph.paragraph_format, attribute)
    style = paragraph.style
    while value is None and style is not None:
        value = getattr(style.paragraph_format, attribute)
        style = style.base_style
    return value


def _is_block(paragraph) -> bool:
    style = paragraph.style.name if paragraph.style is not None else ""
    if _QUOTE_STYLE.search(style):
        return True
    if _NOT_BLOCK_STYLE.search(style):
        return False
    ppr = paragraph._p.pPr
    if ppr is not None and ppr.numPr is not None:  # a numbered or bulleted list item
        return False
    first_line = _inherited(paragraph, "first_line_indent") or 0
    return (_inherited(paragraph, "left_indent") or 0) > 0 and first_line >= 0  # hanging: a reference list


def _docx_paragraphs(path: Path, warnings: list[str], limits: ArchiveLimits) -> list[_Paragraph]:
    # python-docx (and lxml under it) is needed only for .docx files.
    from docx.table import Table

    document = open_docx(path, path.read_bytes(), limits)
    warnings.extend(docx_warnings(path, document))
    paragraphs: list[_Paragraph] = []
    tables = numbered = 0  # paragraphs are numbered as Word would count them, leaving out empty ones
    for block in document.iter_inner_content():
        if isinstance(block, Table):
            tables += 1
            for r, row in enumerate(block.rows, start=1):
                for cell in docx_cells(row):
                    paragraphs.extend(_Paragraph(p.text, f"table {tables}, row {r}", 0, False)
                                      for p in cell.paragraphs if p.text.strip())
        elif block.text.strip():
            numbered += 1
            paragraphs.append(_Paragraph(block.text, f"paragraph {numbered}", 0, _is_block(block)))
    return paragraphs


def extract_quotes(path: str | Path, *, min_words: int, limits: ArchiveLimits | None = None) -> Extraction:
    """The quoted passages of a manuscript (.docx, .md or .txt), with their participant tags; ``limits``: what
    reading it may cost (default: the config's)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in MANUSCRIPT_SUFFIXES:
        raise InputError(f"{path}: unsupported manuscript type '{path.suffix}'; use "
                         f"{', '.join(MANUSCRIPT_SUFFIXES)} (save the draft from Word as .docx)")
    if not path.is_file():
        raise InputError(f"{path}: no such manuscript")
    warnings: list[str] = []
    limits = limits or ArchiveLimits.of()
    if suffix == ".docx":
        paragraphs = _docx_paragraphs(path, warnings, limits)
    else:
        text, _ = decode_text(path, path.read_bytes(), warnings)
        if len(text) > limits.max_document_chars:
            raise InputError(f"{path}: refused: its text runs past {limits.max_document_chars:,} characters "
                             "(limits.max_document_chars in --config); split it, or raise the limit")
        paragraphs = _text_paragraphs(text.removeprefix("\ufeff"), markdown=suffix == ".md")
    return _quotes_in(paragraphs, source=str(path), min_words=min_words, warnings=tuple(warnings))


def quotes_csv_bytes(extraction: Extraction) -> bytes:
    """The quote table: quote_id, quote, speaker, context; read back by ``quoteverify verify``."""
    return utf8(csv_text(QUOTE_TABLE_COLUMNS,
                         ([q.quote_id, q.quote, q.speaker, q.context] for q in extraction.quotes)))


def write_quotes(path: str | Path, extraction: Extraction) -> None:
    """Write the quote table as CSV, never over the manuscript (atomically: an interrupted run leaves no
    half-written file)."""
    Guard().read(extraction.source, "the manuscript").check(path, option="the quote table",
                                                            suffixes=QUOTE_TABLE_FORMATS)
    data = quotes_csv_bytes(extraction)
    write_bytes_atomic(Path(path), data)
