r"""Quotes out of a manuscript: the passages a paper draft quotes, as a quote table to verify.

    quoteverify extract paper.docx -o quotes.csv
    quoteverify verify transcripts/ quotes.csv -o results.xlsx

A quoted passage is text in “...” or "..." (or «...»; in LaTeX also ``...''
and \enquote{...}) within a paragraph, or a block quote: Markdown ``> ``
lines, indented lines of a ``.txt`` (not a paragraph's indented first line),
a ``.docx`` paragraph in a Quote (or Block Text) style or indented from the
left (not a list, nor a hanging-indented reference), a LaTeX quote, quotation
or displayquote environment. A .docx is read as it reads with its tracked
changes accepted (quoteverify.plumbing.wordml), its body and tables first, then
its footnotes and endnotes; a .tex from \begin{document} on, without its
comments and verbatim environments. The participant
tag that follows a quote, ``(P3)``, ``[P3]``, ``(Interviewee 7, nurse)`` or
``— P3``, is its speaker; a tag on a line of its own after a block quote
counts too.

Skipped and counted: quoted phrases of fewer than ``extract.min_words`` words
that have no tag (scare quotes, terms; a tagged quote is kept however short),
and quotes followed by a citation of the literature, ``(Smith, 2019, p. 4)``,
which are not in the transcripts.

Each quote keeps its place in the manuscript (a model.manuscript.Spot): the
checked manuscript puts its note there.
"""
from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import cast

from ..model.decoders import decode_text
from ..model.errors import InputError
from ..model.manuscript import Span, Spot, Story
from ..model.rows import csv_text
from ..model.text import utf8
from ..plumbing import wordml
from ..plumbing.archive import ArchiveLimits
from ..plumbing.guard import Guard
from ..plumbing.transaction import write_bytes_atomic
from ..sources.formats import docx_cells, open_docx
from ..sources.tokenize import WORD

MANUSCRIPT_SUFFIXES = (".docx", ".md", ".tex", ".txt")
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
    spot: Spot | None = None


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
    story: Story = ""   # .docx: the story and the number of the paragraph's w:p in it (wordml.paragraphs)
    index: int = -1
    # A text manuscript: where each of the paragraph's lines starts in ``text`` and in the manuscript's text.
    origin: tuple[tuple[int, int], ...] = ((0, 0),)
    raw: str = ""  # a .tex paragraph's text as written, in as many characters as ``text``: its quotes' words

    def place(self, offset: int) -> int:
        """Where ``offset`` of the paragraph's text is in the manuscript's (a .docx paragraph's: itself)."""
        k = bisect_right(self.origin, (offset, 1 << 62)) - 1
        return self.origin[k][1] + offset - self.origin[k][0]

    def span(self, start: int, end: int) -> Span:
        """Characters [start, end) of the paragraph's text as a span of the manuscript."""
        last = self.place(end - 1) + 1 if end > start else self.place(start)
        return Span(self.story, self.index, self.place(start), last)


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
    spot: Spot | None = None  # None for a citation, which is skipped


def _cited_around(text: str, start: int, end: int) -> str:
    """The citation sharing the parentheses that enclose text[start:end] ('(“...”, Smith, 2019, p. 4)',
    '(Smith 2019: “...”)'), or ''."""
    opened, closed = text.rfind("(", 0, start), text.find(")", end)
    if opened < 0 or closed < 0 or ")" in text[opened:start] or "(" in text[end:closed]:
        return ""
    around = f"{text[opened + 1:start]} {text[end:closed]}".strip(" \t\n,;:")
    return around if _CITATION.search(around) else ""


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    """[start, end) without the whitespace at either end."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _tag_span(paragraph: _Paragraph, m: re.Match | None, shift: int = 0) -> Span | None:
    """Where a tag match's participant (or citation) stands in the manuscript."""
    if m is None:
        return None
    group = next(g for g in ("paren", "bracket", "dash") if m[g] is not None)
    return paragraph.span(*_trimmed(paragraph.text, m.start(group) + shift, m.end(group) + shift))


@dataclass(frozen=True)
class _Style:
    """How a manuscript's format writes quotation marks and quoted text: the inline quotes' pattern (the
    quote is its one group that matched) and the quote's text as a reader reads it."""

    inline: re.Pattern = _INLINE
    plain: Callable[[str], str] = lambda text: " ".join(text.split())


def _inline_quotes(paragraph: _Paragraph, style: _Style) -> Iterator[_Found]:
    text = paragraph.text
    for m in style.inline.finditer(text):
        inner = m.lastindex or 1
        quote = style.plain((paragraph.raw or text)[m.start(inner):m.end(inner)])
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
        told = _tag(tag) if tag else ""
        start, end = _trimmed(text, *m.span(inner))
        marks = (text[m.start():m.start(inner)].strip(), text[m.end(inner):m.end()].strip())
        spot = Spot(paragraph.span(start, end), paragraph.place(m.end()), _tag_span(paragraph, tag) if told else None,
                    where, raw=(paragraph.raw or text)[start:end], marks=marks)
        yield _Found(quote, told, context, spot)


def _collapsed(text: str) -> tuple[str, list[int]]:
    """" ".join(text.split()), and where each of its characters stands in ``text``."""
    out: list[str] = []
    places: list[int] = []
    for m in re.finditer(r"\S+", text):
        if out:
            out.append(" ")
            places.append(m.start() - 1)
        out.append(m[0])
        places.extend(range(m.start(), m.end()))
    return "".join(out), places


def _block_quote(paragraph: _Paragraph, style: _Style) -> _Found:
    text, places = _collapsed(paragraph.text)
    m = _TAG_AT_END.search(text)
    tag = _tag(m)
    end = len(text)
    if m and tag:
        text = text[:m.start()].rstrip()
        end = len(text)
    enclosed = _ENCLOSED.match(text)
    start, end = enclosed.span(1) if enclosed else (0, end)
    quote = enclosed[1] if enclosed else text
    spot = None
    if end > start and paragraph.raw:
        quote = paragraph.raw[places[start]:places[end - 1] + 1]
    if end > start:
        span = paragraph.span(places[start], places[end - 1] + 1)
        tagged = None
        if m and tag:
            group = next(g for g in ("paren", "bracket", "dash") if m[g] is not None)
            tagged = paragraph.span(places[m.start(group)], places[m.end(group) - 1] + 1)
        raw = (paragraph.raw or paragraph.text)[places[start]:places[end - 1] + 1]
        spot = Spot(span, span.end, tagged, paragraph.where, block=True, raw=raw)
    return _Found(style.plain(quote), tag, f"{paragraph.where}: block quote", spot)


def _only_tag(paragraph: _Paragraph) -> tuple[str, Span | None]:
    """The tag a short paragraph after a block quote consists of ("— P3"), and where; ('', None) if none."""
    stripped = paragraph.text.strip()
    m = _TAG_AT_END.search(stripped)
    if not (m and m.start() == 0 and _tag(m)):
        return "", None
    return _tag(m), _tag_span(paragraph, m, len(paragraph.text) - len(paragraph.text.lstrip()))


def _quotes_in(paragraphs: list[_Paragraph], *, source: str, min_words: int,
               warnings: tuple[str, ...] = (), style: _Style = _Style()) -> Extraction:
    """The quoted passages of a manuscript's paragraphs, in order."""
    candidates: list[_Found] = []
    untagged_block = False  # the paragraph before is a block quote without a tag
    for paragraph in paragraphs:
        tag, where = _only_tag(paragraph) if untagged_block else ("", None)
        if tag:
            spot = candidates[-1].spot
            candidates[-1] = replace(candidates[-1], tag=tag, spot=replace(spot, tag=where) if spot else None)
        elif paragraph.block:
            candidates.append(_block_quote(paragraph, style))
        else:
            candidates.extend(_inline_quotes(paragraph, style))
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
    quotes = tuple(ManuscriptQuote(f"q{n}", f.quote, f.tag, f.context, f.spot)
                   for n, f in enumerate(kept, start=1))
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
    origin: list[tuple[int, int]] = []  # of each line of the run: where it starts in the run's text and in ``text``
    run_start, run_block = 0, False
    blank_before = True  # the run starts after a blank line or at the start
    in_fence = False

    def flush() -> None:
        block = run_block and (markdown or blank_before or len(run) > 1)
        if run:
            paragraphs.append(_Paragraph("\n".join(run), f"line {run_start}", run_start, block,
                                         origin=tuple(origin)))
            run.clear()
            origin.clear()

    at = 0
    for number, kept in enumerate(text.splitlines(keepends=True), start=1):
        line_at, at = at, at + len(kept)
        line = kept.splitlines()[0] if kept.splitlines() else ""
        if markdown and _FENCE.match(line):
            flush()
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        if markdown:
            block = bool(_BLOCK_LINE.match(line))
            stripped = _BLOCK_LINE.sub("", line, count=1) if block else line
            line_at += len(line) - len(stripped)
            line = stripped
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
        origin.append((sum(len(r) + 1 for r in run), line_at))
        run.append(line)
    flush()
    return paragraphs


# ------------------------------------------------------------------ LaTeX

_TEX_BEGIN = re.compile(r"\\begin\{document\}")
_TEX_END = re.compile(r"\\end\{document\}")
# Environments whose text is no prose (read to their \end{...}, found with str.find: a regex scanning to it from
# every \begin would take quadratic time on a file of unclosed ones).
_TEX_VERBATIM = re.compile(r"\\begin\{(verbatim\*?|Verbatim|lstlisting|minted|comment|alltt)\}")
_TEX_COMMENT = re.compile(r"(?<!\\)(?:\\\\)*(%[^\n]*)")
_TEX_BLOCK = re.compile(r"\\begin\{(quote|quotation|displayquote)\}(?:\[[^\]\n]{0,200}\])?")
_TEX_INLINE = re.compile(r"``((?:[^'`]|'(?!')|`(?!`))+)''|\\enquote\*?\{((?:[^{}]|\{[^{}]{0,200}\})+)\}|"
                         + _INLINE.pattern)
# Dashes and ties as they read, in as many characters: the participant tags after a quote are found in them.
_TEX_READ = ((re.compile(r"---"), "—  "), (re.compile(r"--"), "– "), (re.compile(r"(?<!\\)~"), " "))
_TEX_DROPPED = re.compile(r"\\(?:footnote|cite\w*|ref|label|todo|index)\*?(?:\[[^\]]{0,200}\])*"
                          r"\{(?:[^{}]|\{[^{}]{0,200}\})*\}")
_TEX_SIGNS = ((re.compile(r"\\(?:ldots|dots|textellipsis)\b\s*(?:\{\})?"), "..."), (re.compile(r"---"), "—"),
              (re.compile(r"--"), "–"), (re.compile(r"``|''"), '"'), (re.compile(r"`"), "‘"),
              (re.compile(r"(?<!\\)~|\\[,;: ]"), " "), (re.compile(r"\\([%&$#_{}])"), r"\1"),
              (re.compile(r"\\[A-Za-z]+\*?(?:\[[^\]]*\])?"), ""), (re.compile(r"(?<!\\)[{}]"), ""))


def _tex_plain(text: str) -> str:
    """A LaTeX quote as it reads: ``\\emph{so}`` as so, ``\\ldots`` as ..., dashes and ties, no citations."""
    text = _TEX_DROPPED.sub("", text)
    for pattern, replacement in _TEX_SIGNS:
        text = pattern.sub(replacement, text)
    return " ".join(text.split())


def _masked(chars: list[str], start: int, end: int) -> None:
    for k in range(start, end):
        if chars[k] != "\n":
            chars[k] = " "


def _tex_text(text: str) -> tuple[str, list[tuple[int, int]]]:
    """The text of a .tex manuscript as quotes are read from it, in as many characters: the preamble, the
    comments, verbatim environments and the commands opening and closing a quote environment blanked; and
    the spans of the quote environments."""
    chars = list(text)
    begin, end = _TEX_BEGIN.search(text), _TEX_END.search(text)
    _masked(chars, 0, begin.end() if begin else 0)
    _masked(chars, end.start() if end else len(text), len(text))
    for begin_at, end_at, _ in _environments(text, _TEX_VERBATIM):
        _masked(chars, begin_at, end_at)
    for m in _TEX_COMMENT.finditer("".join(chars)):
        _masked(chars, *m.span(1))
    blocks = []
    for begin_at, end_at, body in _environments("".join(chars), _TEX_BLOCK):
        _masked(chars, begin_at, body[0])
        _masked(chars, body[1], end_at)
        blocks.append(body)
    return "".join(chars), blocks


def _environments(text: str, begin: re.Pattern) -> Iterator[tuple[int, int, tuple[int, int]]]:
    """Each environment ``begin`` opens, to its \\end (or the end of the text): where it starts and ends, and
    its body's span."""
    at = 0
    while m := begin.search(text, at):
        closing = f"\\end{{{m[1]}}}"
        end = text.find(closing, m.end())
        stop = len(text) if end < 0 else end + len(closing)
        yield m.start(), stop, (m.end(), len(text) if end < 0 else end)
        at = stop


def _tex_paragraphs(text: str) -> list[_Paragraph]:
    """Paragraphs of a .tex manuscript: split at blank lines and where a quote environment starts or ends.
    Each paragraph's ``raw`` text is the manuscript's (without comments), its ``text`` the same with dashes
    and ties as they read (see _TEX_READ)."""
    raw, blocks = _tex_text(text)
    scan = raw
    for pattern, replacement in _TEX_READ:
        scan = pattern.sub(replacement, scan)
    cuts = sorted({0, len(raw), *(k for span in blocks for k in span)})
    paragraphs: list[_Paragraph] = []
    for lo, hi in zip(cuts, cuts[1:]):
        block = (lo, hi) in blocks
        at = lo
        for gap in [*re.finditer(r"\n[ \t]*\n\s*", raw[lo:hi]), None]:
            stop = lo + gap.start() if gap else hi
            start, end = _trimmed(raw, at, stop)
            if end > start:
                line = raw.count("\n", 0, start) + 1
                paragraphs.append(_Paragraph(scan[start:end], f"line {line}", line, block, origin=((0, start),),
                                             raw=raw[start:end]))
            at = lo + gap.end() if gap else hi
    return paragraphs


# ------------------------------------------------------------------ Word

_QUOTE_STYLE = re.compile(r"quot|block text", re.IGNORECASE)
_NOT_BLOCK_STYLE = re.compile(r"list|heading|title|caption|toc|bibliograph|reference", re.IGNORECASE)


def _style_values(style) -> tuple[str, object, object]:
    """A paragraph style's name, and the left and first-line indents it sets or inherits from its base styles."""
    def inherited(attribute: str):
        value, at = None, style
        while value is None and at is not None:
            value = getattr(at.paragraph_format, attribute)
            at = at.base_style
        return value

    return (style.name if style is not None else ""), inherited("left_indent"), inherited("first_line_indent")


def _is_block(paragraph, styles: dict) -> bool:
    """Whether a .docx paragraph is a block quote; ``styles`` keeps each style's values (python-docx looks a
    style up among all of them each time)."""
    key = paragraph._p.style
    if key not in styles:
        styles[key] = _style_values(paragraph.style)
    name, left, first = styles[key]
    if _QUOTE_STYLE.search(name):
        return True
    if _NOT_BLOCK_STYLE.search(name):
        return False
    ppr = paragraph._p.pPr
    if ppr is not None and ppr.numPr is not None:  # a numbered or bulleted list item
        return False
    own = paragraph.paragraph_format
    first_line = (own.first_line_indent if own.first_line_indent is not None else first) or 0
    left_indent = (own.left_indent if own.left_indent is not None else left) or 0
    return left_indent > 0 and first_line >= 0  # hanging: a reference list


def _docx_paragraphs(path: Path, warnings: list[str], limits: ArchiveLimits) -> list[_Paragraph]:
    # python-docx (and lxml under it) is needed only for .docx files.
    from docx.table import Table

    document = open_docx(path, path.read_bytes(), limits)
    body = document.element.body
    number = {p: k for k, p in enumerate(wordml.paragraphs(body))}

    def read(paragraph, where: str, block: bool = False) -> _Paragraph:
        return _Paragraph(wordml.paragraph_text(paragraph._p), where, 0, block, "body", number[paragraph._p])

    paragraphs: list[_Paragraph] = []
    styles: dict = {}
    tables = numbered = 0  # paragraphs are numbered as Word would count them, leaving out empty ones
    for block in document.iter_inner_content():
        if isinstance(block, Table):
            tables += 1
            for r, row in enumerate(block.rows, start=1):
                for cell in docx_cells(row):
                    paragraphs.extend(read(p, f"table {tables}, row {r}") for p in cell.paragraphs)
        else:
            numbered += 1
            paragraphs.append(read(block, f"paragraph {numbered}", _is_block(block, styles)))
            if not paragraphs[-1].text.strip():
                numbered -= 1
    notes = {story: wordml.parse_part(part) for story, part in wordml.note_parts(document).items()}
    for story, root in notes.items():
        paragraphs += _note_paragraphs(story, root)
    if any(wordml.has_tracked_changes(root) for root in (body, *notes.values())):
        warnings.append(f"{path}: has tracked changes; its quotes are read as the text reads with every change "
                        "accepted")
    return [p for p in paragraphs if p.text.strip()]


def _note_paragraphs(story: str, root) -> list[_Paragraph]:
    """The paragraphs of a .docx's footnotes or endnotes, each numbered as Word numbers the notes."""
    number = {p: k for k, p in enumerate(wordml.paragraphs(root))}
    noun = story[:-1]  # "footnote"
    paragraphs = []
    for n, note in enumerate(wordml.notes(root), start=1):
        paragraphs += [_Paragraph(wordml.paragraph_text(p), f"{noun} {n}", 0, False, cast(Story, story), number[p])
                       for p in wordml.paragraphs(note)]
    return paragraphs


def extract_quotes(path: str | Path, *, min_words: int, limits: ArchiveLimits | None = None) -> Extraction:
    """The quoted passages of a manuscript (.docx, .md, .tex or .txt), with their participant tags and their
    places; ``limits``: what reading it may cost (default: the config's)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in MANUSCRIPT_SUFFIXES:
        raise InputError(f"{path}: unsupported manuscript type '{path.suffix}'; use "
                         f"{', '.join(MANUSCRIPT_SUFFIXES)} (save the draft from Word as .docx)")
    if not path.is_file():
        raise InputError(f"{path}: no such manuscript")
    warnings: list[str] = []
    limits = limits or ArchiveLimits.of()
    style = _Style()
    if suffix == ".docx":
        paragraphs = _docx_paragraphs(path, warnings, limits)
    else:
        text, _ = decode_text(path, path.read_bytes(), warnings)
        if len(text) > limits.max_document_chars:
            raise InputError(f"{path}: refused: its text runs past {limits.max_document_chars:,} characters "
                             "(limits.max_document_chars in --config); split it, or raise the limit")
        text = text.removeprefix("\ufeff")
        if suffix == ".tex":
            paragraphs, style = _tex_paragraphs(text), _Style(_TEX_INLINE, _tex_plain)
        else:
            paragraphs = _text_paragraphs(text, markdown=suffix == ".md")
    return _quotes_in(paragraphs, source=str(path), min_words=min_words, warnings=tuple(warnings), style=style)


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
