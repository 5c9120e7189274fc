"""Pages of a document, and what on them is not the author's words.

Researchers quote reports, books and hearing records by page, and the text a PDF reader extracts (or a text
laid out like it) carries the page's furniture between the author's sentences: running headers and footers,
page numbers, page markers (``[[Page S5563]]``), footnote markers (``father¹``) and footnote text.
``page_structure`` reads, once per document (quoteverify.sources.corpus caches it with the prepared document):

- the pages: a PDF's own (its reader's, quoteverify.sources.formats), else form feeds, else page markers, else the
  page numbers of running headers and footers: short lines whose number goes up by one from one to the next
  at regular distances (a chain);
- what each page is called: the number printed on it (a header's or footer's number that its neighbouring
  pages confirm, a marker, the PDF's page labels), else its position in the file;
- the furniture, by where it stands and how it recurs, never by a list of header texts: lines at a page's
  top or bottom, with nothing but furniture between them and the edge, that carry the page's number or
  recur at the edges of many pages and nowhere between them; page markers; footnote text at a page's foot
  (set smaller than the page's text, or opening with the number of a marker glued to a word above it on
  that page); footnote markers (a superscript digit glued to a word whose note is on the page, or a digit
  the PDF sets smaller than its line);
- line-end hyphens to join ("planta-"/"tion" is "plantation"), in every kind of document, unless the
  document writes the word with a hyphen elsewhere or both halves are words of it ("to-"/"we").

Matching skips all of these (corpus.py normalizes the text with them masked), so a quote runs across a page
break contiguously and offsets still index the original text; the diff names the furniture inside a quote's
span (``page_break``, ``footnote``), and a quote that carries furniture's words has words the source lacks.
"""
from __future__ import annotations

import json
import re
from bisect import bisect_right
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from statistics import median
from typing import Final, Literal

import numpy as np

from ..model.types import Layout, LineBox, PageKind, PageLayout
from .lined import Lined, Record, read_lined
from .turns import label_of

# What each skipped span is. FURNITURE: a running header or footer, a page number or a page marker;
# NOTE: footnote text; MARKER: a footnote marker; JOIN: a line-end hyphen and the line break after it;
# LINE_NUMBER: the number a line-numbered transcript opens a line with (quoteverify.sources.lined), as silent
# as the line break before it.
FURNITURE, NOTE, MARKER, JOIN, LINE_NUMBER = 0, 1, 2, 3, 4
# The difference kinds the diff names skipped stretches by (types.BENIGN holds them).
PAGE_BREAK: Final = "page_break"
FOOTNOTE: Final = "footnote"

EDGE_LINES = 4           # lines at a page's top and at its bottom looked at for headers and footers
FURNITURE_WORDS = 12     # a running header or footer is short: at most this many words
FURNITURE_CHARS = 120    # ... and characters
NEIGHBOURS = 3           # a page number is confirmed by a page up to this many pages away numbered to match
REPEAT_PAGES = 3         # a line without the page's number is a header or footer when it recurs at the edges
REPEAT_SHARE = 0.5       # of at least this many pages and this share of them,
BESIDE_SHARE = 0.25      # or beside the page number on two pages or more and on this share of the pages
CHAIN_LINKS = 3          # page numbers read from a text without page breaks: at least this many in a chain,
CHAIN_STEP = 3           # each at most this much above the one before (pages without a number between),
CHAIN_PAGE_CHARS = 400   # pages at least this long on average,
CHAIN_REGULAR = 0.75     # and this share of the pages within half their median length of it
NOTE_SIZE = 0.9          # footnote text is set at most this share of the size of its page's text
NOTE_SHARE = 0.4         # footnotes take at most this share of a page's lines (where the size is not known)

_SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹"
_SUPER_VALUE = str.maketrans(_SUPERSCRIPTS, "0123456789")
# A page number in a line: digits (with a letter or two before, as the Congressional Record's "S5563"),
# not part of a time, a decimal, a date or a word.
_NUMBER = re.compile(r"(?<![\w:.,/-])([A-Z]{0,2})(\d{1,5})(?![\w:/]|[.,]\d)")
# A page marker: "[[Page S5563]]", "[Page 12]", "[p. 12]", "[Seite 12]"; "[12]" too when alone on its line.
_MARKER_WORD = r"(?:page|pg|pp?|seite|s|p[aá]gina|p[aá]g|blz|bladzijde|side|sida|strona|str|folio|fol)"
_MARKER = re.compile(rf"\[\[?[ \t]*(?:{_MARKER_WORD}\.?[ \t]*)?([A-Z]{{0,2}}-?\d{{1,6}}[a-z]?)[ \t]*\]\]?",
                     re.IGNORECASE)
_LINE = re.compile(r"[^\r\n\f]+")
_WORD = re.compile(r"\w+")
# A footnote marker glued to the word it follows: superscript digits after a letter or a closing mark;
# plain digits after two letters ("heard2") or after a letter and a closing mark ("time.1").
_SUPER_MARKER = re.compile(rf"(?<=[^\W\d_]|[.,;:!?'\"’”)\]])([{_SUPERSCRIPTS}]{{1,3}})(?![\w{_SUPERSCRIPTS}])")
_DIGIT_MARKER = re.compile(r"(?:(?<=[^\W\d_]{2})|(?<=[^\W\d_][.,;:!?'\"’”)]))(\d{1,2})(?=[\s.,;:!?'\"’”)]|$)")
# A footnote's first line opens with its number: "1 Editor's note", "¹ See", "12. Ibid."
_NOTE_START = re.compile(rf"(\d{{1,3}}|[{_SUPERSCRIPTS}]{{1,3}})(?:[.)\]]?\s|[.)\]]?$)")
_HYPHEN_END = re.compile(r"([^\W\d_]+)[-\u00ad\u2010][ \t]*(?=\r\n|\r|\n)")
_TAIL = re.compile(r"[^\W\d_A-Z\u00c0-\u00de][\w']*")
_COMPOUND = re.compile(r"\b[^\W\d_]+(?:-[^\W\d_]+)+")
_LETTERS = re.compile(r"[^\W\d_]+")


@dataclass(frozen=True)
class Skipped:
    """A stretch of furniture inside a quote's span: original-text offsets and the difference kind."""

    start: int
    end: int
    kind: Literal["page_break", "footnote"]  # PAGE_BREAK or FOOTNOTE


@dataclass(frozen=True)
class Pages:
    """A document's pages and the spans of its text that matching skips.

    ``starts``: the offset each page begins at (empty: the document is not paged); ``names``: what each
    page is called, ``printed`` whether that is the number printed on it (else it is the page's position);
    ``spans`` (n x 2) and ``kinds``: the skipped spans, ascending and disjoint, each FURNITURE, NOTE,
    MARKER or JOIN.
    """

    starts: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    names: tuple[str, ...] = ()
    printed: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))
    spans: np.ndarray = field(default_factory=lambda: np.zeros((0, 2), np.int64))
    kinds: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int8))
    # A line-numbered transcript's (quoteverify.sources.lined): where each numbered line starts and its number
    # (n x 2; empty for any other document), the people of the record ((offset, "examiner" or "witness",
    # name)) and what of its layout could not be read.
    lines: np.ndarray = field(default_factory=lambda: np.zeros((0, 2), np.int64))
    people: tuple[tuple[int, str, str], ...] = ()
    partly: tuple[str, ...] = ()
    opens: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))  # where its turns' lines start

    @property
    def paged(self) -> bool:
        return len(self.starts) > 0

    @property
    def lined(self) -> bool:
        """Whether the document is a line-numbered transcript."""
        return len(self.lines) > 0

    @property
    def record(self) -> Record | None:
        """What a line-numbered transcript's turns are read with; None for any other document."""
        return Record(frozenset(self.opens.tolist()), self.people) if self.lined else None

    def cite(self, start: int, end: int) -> str:
        """The page:line citation of the original-text span [start, end) in a line-numbered transcript, its first
        and last word's: "18:21-19:3", "18:21-25" within a page, "18:21" within a line; "" in another
        document."""
        if not self.lined:
            return ""
        at = self.lines[:, 0].tolist()
        first, last = (max(0, bisect_right(at, offset) - 1) for offset in (start, max(start, end - 1)))
        pages = self.starts.tolist()
        (p, a), (q, b) = ((self.names[max(0, bisect_right(pages, int(self.lines[k, 0])) - 1)], int(self.lines[k, 1]))
                          for k in (first, last))
        return f"{p}:{a}" if (p, a) == (q, b) else f"{p}:{a}-{b}" if p == q else f"{p}:{a}-{q}:{b}"

    def label(self, start: int, end: int) -> tuple[str, Literal[PageKind, ""]]:
        """(page, page kind) of the original-text span [start, end): "45" or "45–46", and "printed" or
        "position"; ("", "") in a document without pages."""
        if not self.paged:
            return "", ""
        first = max(0, bisect_right(self.starts.tolist(), start) - 1)
        last = max(first, bisect_right(self.starts.tolist(), max(start, end - 1)) - 1)
        printed = bool(self.printed[first] and self.printed[last])
        names = [self.names[k] if printed else str(k + 1) for k in (first, last)]
        return (names[0] if first == last else f"{names[0]}–{names[1]}"), ("printed" if printed else "position")

    def masked(self, text: str, fill: str, *,
               kinds: Iterable[int] = (FURNITURE, NOTE, MARKER, JOIN, LINE_NUMBER)) -> str:
        """``text`` with each skipped span of ``kinds`` filled with ``fill`` (one character): the length,
        and so every offset, stays."""
        wanted = set(kinds)
        parts: list[str] = []
        pos = 0
        for (a, b), kind in zip(self.spans.tolist(), self.kinds.tolist()):
            if kind in wanted:
                parts += [text[pos:a], fill * (b - a)]
                pos = b
        parts.append(text[pos:])
        return "".join(parts)

    def skips(self, kinds: Iterable[int] = (FURNITURE, NOTE, MARKER, LINE_NUMBER)) -> bool:
        """Whether any span of ``kinds`` is skipped."""
        return bool(np.isin(self.kinds, list(kinds)).any())

    def author_text(self, text: str, start: int, end: int) -> str:
        """``text[start:end]`` without the furniture in it (each stretch a space): the author's words."""
        inside = self._inside(start, end, (FURNITURE, NOTE, MARKER, LINE_NUMBER))
        parts: list[str] = []
        pos = start
        for a, b, _ in inside:
            parts += [text[pos:a], " "]
            pos = b
        parts.append(text[pos:end])
        return "".join(parts)

    def skipped(self, text: str, start: int, end: int) -> list[Skipped]:
        """The stretches of furniture inside [start, end), spans apart only by whitespace taken as one:
        a page break where one holds a header, footer or page number or a page begins in it, else a
        footnote (its marker or text). A transcript's line numbers alone are no difference, as a line break is
        none."""
        stretches: list[list[int]] = []
        for a, b, kind in self._inside(start, end, (FURNITURE, NOTE, MARKER, LINE_NUMBER)):
            if stretches and not text[stretches[-1][1]:a].strip():
                stretches[-1][1] = b
                stretches[-1][2] |= kind == FURNITURE
                stretches[-1][3] &= kind == LINE_NUMBER
            else:
                stretches.append([a, b, kind == FURNITURE, kind == LINE_NUMBER])
        starts = self.starts.tolist()
        return [Skipped(a, b, PAGE_BREAK if furniture or bisect_right(starts, b) > bisect_right(starts, a)
                        else FOOTNOTE) for a, b, furniture, numbers in stretches if not numbers]

    def _inside(self, start: int, end: int, kinds: tuple[int, ...]) -> list[tuple[int, int, int]]:
        lo = int(np.searchsorted(self.spans[:, 1], start, side="right")) if len(self.spans) else 0
        hi = int(np.searchsorted(self.spans[:, 0], end, side="left")) if len(self.spans) else 0
        return [(max(a, start), min(b, end), kind) for (a, b), kind
                in zip(self.spans[lo:hi].tolist(), self.kinds[lo:hi].tolist()) if kind in kinds]

    def arrays(self) -> dict[str, np.ndarray]:
        """The structure as arrays, for the cache (``from_arrays`` reads them back)."""
        return {"starts": self.starts, "names": np.frombuffer("\n".join(self.names).encode("utf-8"), np.uint8),
                "printed": self.printed, "spans": self.spans, "kinds": self.kinds, "lines": self.lines,
                "opens": self.opens,
                "record": np.frombuffer(json.dumps([self.people, self.partly]).encode("utf-8"), np.uint8)}

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, np.ndarray]) -> Pages:
        """The structure ``arrays`` wrote; ValueError (or KeyError) when they do not hold one."""
        starts = np.asarray(arrays["starts"], np.int64)
        names = tuple(arrays["names"].tobytes().decode("utf-8").split("\n")) if len(starts) else ()
        printed = np.asarray(arrays["printed"], bool)
        spans = np.asarray(arrays["spans"], np.int64).reshape(-1, 2)
        kinds = np.asarray(arrays["kinds"], np.int8)
        if not len(names) == len(printed) == len(starts) or len(kinds) != len(spans):
            raise ValueError("page arrays of different lengths")
        people, partly = json.loads(arrays["record"].tobytes().decode("utf-8"))
        return cls(starts, names, printed, spans, kinds, np.asarray(arrays["lines"], np.int64).reshape(-1, 2),
                   tuple((int(at), str(role), str(name)) for at, role, name in people), tuple(map(str, partly)),
                   np.asarray(arrays["opens"], np.int64))


def layout_of(pages: Pages) -> Layout:
    """How a document is laid out, as the manifest counts documents (types.LAYOUTS)."""
    return "lined" if pages.lined else "paged" if pages.paged else "unpaged"


# ------------------------------------------------------------------------------------------ finding pages

@dataclass
class _Line:
    """One line of a page: its text without surrounding whitespace, where it stands and how large."""

    start: int
    end: int
    text: str
    y: float = 0.0
    size: float = 0.0

    @property
    def short(self) -> bool:
        """Short enough for a running header or footer."""
        return len(self.text) <= FURNITURE_CHARS and len(self.text.split()) <= FURNITURE_WORDS


@dataclass
class _Page:
    """A page as read so far: its span, lines top to bottom, number, and what on it is furniture."""

    start: int
    end: int
    lines: list[_Line]
    name: str = ""                      # the number printed on it, once known
    number_line: int = -1               # the index of the line that prints it
    marked: bool = False                # named by a page marker
    body: tuple[int, int] = (0, 0)      # the lines between its headers and its footers
    spans: list[tuple[int, int, int]] = field(default_factory=list)
    raised: tuple[tuple[int, int], ...] = ()
    sized: bool = False                 # whether its lines' sizes are known (a PDF)


def page_structure(text: str, layout: Sequence[PageLayout] = ()) -> Pages:
    """The pages of ``text`` and the spans matching skips; ``layout``: the PDF's pages, if it is one.

    Every document is read, so what an unpaged transcript costs matters most: each scan is gated by a
    substring test or starts with a literal, which the regular expression engine finds fast."""
    lined = read_lined(text)
    if lined is not None:
        return _lined_pages(text, lined)
    pages = _pages(text, layout)
    if pages:
        _number(pages)
        _headers_and_footers(text, pages)
        spans = [s for page in pages for s in page.spans] + _footnotes(text, pages)
    else:
        spans = _unpaged_notes(text)
    spans += _joins(text, spans)
    spans = _disjoint(spans)
    names = tuple(p.name or str(k + 1) for k, p in enumerate(pages))
    return Pages(np.asarray([p.start for p in pages], np.int64), names, np.asarray([bool(p.name) for p in pages], bool),
                 np.asarray([s[:2] for s in spans], np.int64).reshape(-1, 2),
                 np.asarray([s[2] for s in spans], np.int8))


def _lined_pages(text: str, lined: Lined) -> Pages:
    """The pages and skipped spans of a line-numbered transcript: its line numbers, its furniture and the
    line-end hyphens (a word split over a line number joins across it)."""
    spans = [(a, b, LINE_NUMBER) for a, b in lined.numbers] + [(a, b, FURNITURE) for a, b in lined.furniture]
    spans = _disjoint(spans + _joins(text, spans))
    return Pages(np.asarray(lined.page_starts, np.int64), lined.names, np.asarray(lined.printed, bool),
                 np.asarray([s[:2] for s in spans], np.int64).reshape(-1, 2),
                 np.asarray([s[2] for s in spans], np.int8),
                 np.asarray(lined.lines, np.int64).reshape(-1, 2), lined.people, lined.partly,
                 np.asarray(lined.opens, np.int64))


def _disjoint(spans: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """The spans in order, each overlapping one taken into the one before it."""
    out: list[tuple[int, int, int]] = []
    for a, b, kind in sorted(spans):
        if out and a < out[-1][1]:
            out[-1] = (out[-1][0], max(b, out[-1][1]), out[-1][2])
        elif a < b:
            out.append((a, b, kind))
    return out


def _pages(text: str, layout: Sequence[PageLayout]) -> list[_Page]:
    """The document's pages; none when it is not paged."""
    if layout:
        return [_layout_page(text, page) for page in layout]
    if "\f" in text:
        bounds = [0] + [m.end() for m in re.finditer("\f", text)]
        return _marked(text, [_text_page(text, a, b) for a, b in zip(bounds, bounds[1:] + [len(text)])])
    return _marker_pages(text) or _chained_pages(text)


def _text_page(text: str, start: int, end: int) -> _Page:
    lines = []
    for m in _LINE.finditer(text, start, end):
        a, b = m.span()
        content = m.group()
        a += len(content) - len(content.lstrip())
        b -= len(content) - len(content.rstrip())
        if a < b:
            lines.append(_Line(a, b, text[a:b]))
    return _Page(start, end, lines)


def _layout_page(text: str, page: PageLayout) -> _Page:
    if not page.lines:  # the reader gave no positions for this page: read it as text
        found = _text_page(text, page.start, page.end)
        found.name = page.label
        return found
    lines = [_Line(box.start, box.end, text[box.start:box.end], box.y, box.size)
             for box in sorted(page.lines, key=_top_first) if text[box.start:box.end].strip()]
    return _Page(page.start, page.end, lines, page.label, raised=page.raised, sized=True)


def _top_first(box: LineBox) -> tuple[float, float]:
    return -box.y, box.x


# Page markers ---------------------------------------------------------------------------------------

def _markers(text: str) -> list[tuple[int, int, str, bool]]:
    """Page markers: (start, end, the page they name, whether alone on their line); kept only when they
    name pages in ascending order (a bracketed number in running text is a reference, not a page)."""
    found = []
    for m in _MARKER.finditer(text):
        line = _line_around(text, m.start(), m.end(), FURNITURE_CHARS)
        alone = line is not None and not text[line[0]:m.start()].strip() and not text[m.end():line[1]].strip()
        worded = any(c.isalpha() for c in m.group()[1:m.group().find(m.group(1))])
        if alone or worded:
            found.append((m.start(), m.end(), m.group(1), alone))
    values = [_value(name) for _, _, name, _ in found]
    rising = sum(1 for a, b in zip(values, values[1:]) if a is not None and b is not None and a < b)
    if len(found) >= 2 and rising >= 0.8 * (len(found) - 1):
        return found
    return [f for f in found if f[3]] if len(found) == 1 else []


def _line_around(text: str, start: int, end: int, most: int) -> tuple[int, int] | None:
    """The line holding [start, end), when it is at most ``most`` characters long (else None). Looked for
    within that reach only: a scan to the text's end for every number would cost a long text dearly."""
    lo = max(0, start - most - 1)
    before = max(text.rfind("\n", lo, start), text.rfind("\r", lo, start), text.rfind("\f", lo, start))
    after = _BREAK.search(text, end, end + most + 1)
    a = before + 1 if before >= 0 else 0 if start <= most else -1
    b = after.start() if after else len(text) if len(text) - end <= most else -1
    return (a, b) if a >= 0 and b >= 0 and b - a <= most else None


_BREAK = re.compile(r"[\r\n\f]")


def _value(name: str) -> int | None:
    digits = re.search(r"\d+", name)
    return int(digits.group()) if digits else None


def _marker_pages(text: str) -> list[_Page]:
    """Pages that begin at page markers ("[[Page S5563]]" marks where page S5563 begins)."""
    markers = _markers(text)
    if not markers:
        return []
    bounds = [0] + [m[0] for m in markers] + [len(text)]
    pages = [_text_page(text, a, b) for a, b in zip(bounds, bounds[1:])]
    if not text[:markers[0][0]].strip():
        pages.pop(0)
    return _marked(text, pages, markers)


def _marked(text: str, pages: list[_Page], markers: list[tuple[int, int, str, bool]] | None = None) -> list[_Page]:
    """Each page named by the marker opening it (or standing on it), and its markers made furniture."""
    starts = [p.start for p in pages]
    for start, end, name, _ in markers if markers is not None else _markers(text):
        page = pages[max(0, bisect_right(starts, start) - 1)]
        if not page.marked:
            page.name, page.marked = name, True
        page.spans.append((start, end, FURNITURE))
    return pages


# Page numbers read from a text without page breaks ---------------------------------------------------

@dataclass(frozen=True)
class _Numbered:
    start: int   # the line's start and end
    end: int
    prefix: str
    value: int


def _numbered_lines(text: str) -> list[_Numbered]:
    """Numbers standing in short lines: what page numbers are printed in."""
    found: list[_Numbered] = []
    if not any(digit in text for digit in "0123456789"):
        return found
    breaks = [m.start() for m in _BREAK.finditer(text)] + [len(text)]
    short: dict[int, bool] = {}  # by line: whether it is short enough for a header or footer
    for m in _NUMBER.finditer(text):
        k = bisect_right(breaks, m.start())
        a, b = breaks[k - 1] + 1 if k else 0, breaks[k]
        if k not in short:
            short[k] = b - a <= FURNITURE_CHARS and len(text[a:b].split()) <= FURNITURE_WORDS
        if short[k]:
            found.append(_Numbered(a, b, m.group(1), int(m.group(2))))
    return found


def _chain(numbers: list[_Numbered]) -> list[_Numbered]:
    """The longest run of numbered lines, in text order, whose numbers go up by 1 to CHAIN_STEP."""
    best: dict[tuple[str, int], tuple[int, int]] = {}  # (prefix, value) -> (chain length, index), latest
    parent = [-1] * len(numbers)
    length = [1] * len(numbers)
    for i, n in enumerate(numbers):
        links = [best[key] for step in range(1, CHAIN_STEP + 1)
                 if (key := (n.prefix, n.value - step)) in best and numbers[best[key][1]].end < n.start]
        if links:
            length[i], parent[i] = max(links)[0] + 1, max(links)[1]
        if length[i] >= best.get((n.prefix, n.value), (0, 0))[0]:
            best[n.prefix, n.value] = (length[i], i)
    if not numbers:
        return []
    k = max(range(len(numbers)), key=length.__getitem__)
    chain = []
    while k >= 0:
        chain.append(numbers[k])
        k = parent[k]
    return chain[::-1]


def _regular(chain: list[_Numbered]) -> bool:
    """Whether the chain's pages are about as long as each other, as a book's or a report's are."""
    if len(chain) < CHAIN_LINKS:
        return False
    lengths = [(b.start - a.start) / (b.value - a.value) for a, b in zip(chain, chain[1:])]
    middle = median(lengths)
    within = sum(1 for n in lengths if abs(n - middle) <= 0.5 * middle)
    return middle >= CHAIN_PAGE_CHARS and within >= CHAIN_REGULAR * len(lengths)


def _chained_pages(text: str) -> list[_Page]:
    """Pages of a text laid out from a paged one, at its running headers' or footers' page numbers."""
    numbers = _numbered_lines(text)
    chains: list[list[_Numbered]] = []
    while numbers:
        chain = _chain(numbers)
        if not _regular(chain) or any(c[0].start <= chain[-1].start and chain[0].start <= c[-1].start
                                      for c in chains):
            break  # the rest interleave with a chain found (footnote numbers), or are no page numbers
        chains.append(chain)
        numbers = [n for n in numbers if not chain[0].start <= n.start <= chain[-1].start]
    if not chains:
        return []
    members = sorted((n for c in chains for n in c), key=lambda n: n.start)
    page_length = median((b.start - a.start) / max(1, b.value - a.value) for a, b in zip(members, members[1:]))
    # Footers when the text ends on a page number and does not open with one; headers otherwise.
    footers = (not text[members[-1].end:].strip() or len(text) - members[-1].end < 0.1 * page_length) and (
        members[0].start > 0.1 * page_length)
    cuts = [n.end if footers else n.start for n in members]
    bounds = [0] + cuts + [len(text)]
    pages = [_text_page(text, a, b) for a, b in zip(bounds, bounds[1:])]
    named = pages[:-1] if footers else pages[1:]
    for page, n in zip(named, members):
        page.name = f"{n.prefix}{n.value}"
        page.number_line = next((k for k, line in enumerate(page.lines) if line.start == n.start), -1)
    # Nothing before the first header (or after the last footer) is no page.
    return [p for k, p in enumerate(pages) if p.lines or 0 < k < len(pages) - 1]


# Numbers, headers and footers of known pages -----------------------------------------------------------

def _edges(page: _Page) -> list[int]:
    """Indices of the lines at the page's top and bottom."""
    n = len(page.lines)
    return sorted(set(range(min(EDGE_LINES, n))) | set(range(max(0, n - EDGE_LINES), n)))


def _number(pages: list[_Page]) -> None:
    """Each page's printed number: a number in a short line at its edge that pages near it confirm (a page
    k pages on prints the number k higher in a line of the same words: "Page 4" by "Page 5", "38 TITLE" by
    "40 TITLE"), the one most of them confirm; a line of nothing but the number ("- 45 -") is confirmed by
    any line that numbers a page near it. A page marker's name stays; a number printed on a PDF's page wins
    over its page label."""
    found = [[(k, m.group(1), int(m.group(2)), _signature(p.lines[k].text)) for k in _edges(p) if p.lines[k].short
              for m in _NUMBER.finditer(p.lines[k].text)] for p in pages]
    same = [{(sig, prefix, value) for _, prefix, value, sig in numbers} for numbers in found]
    any_ = [{(prefix, value) for _, prefix, value, _ in numbers} for numbers in found]
    for i, page in enumerate(pages):
        if page.number_line >= 0:
            continue  # read from a chain of page numbers already
        near = [j for j in range(max(0, i - NEIGHBOURS), min(len(pages), i + NEIGHBOURS + 1)) if j != i]
        best = (0, 0, -1, "")
        for k, prefix, value, sig in found[i]:
            confirmed = sum(1 for j in near if (sig, prefix, value + j - i) in same[j])
            alone = 0 if any(c.isalpha() for c in sig) else sum(1 for j in near if (prefix, value + j - i) in any_[j])
            if (confirmed, alone) > best[:2]:
                best = (confirmed, alone, k, f"{prefix}{value}")
        if best[0] or best[1]:
            page.number_line = best[2]
            page.name = page.name if page.marked else best[3]


def _signature(text: str) -> str:
    """A line as it recurs from page to page: case, spacing and the digits of its numbers aside."""
    return " ".join(re.sub(r"\d+", "#", text.casefold()).split())


def _bare_label(text: str) -> bool:
    """A speaker's label alone on its line ("Interviewer:"): a transcript's, however often it recurs."""
    label = label_of(text)
    return label is not None and not text[label.end:].strip()


def _headers_and_footers(text: str, pages: list[_Page]) -> None:
    """Mark each page's running headers and footers: from its top and from its bottom, the lines that
    print its number, recur at the edges of many pages, or are page markers, up to the first that does
    none of these (the page's own text begins there)."""
    on: dict[str, set[int]] = defaultdict(set)
    outermost: dict[str, set[int]] = defaultdict(set)
    beside: dict[str, set[int]] = defaultdict(set)
    inside: set[str] = set()  # what stands between a page's edges is its text, wherever else it stands
    for i, page in enumerate(pages):
        edges = _edges(page)
        for k, line in enumerate(page.lines):
            if not line.short or k == page.number_line:
                continue
            sig = _signature(line.text)
            if k not in edges:
                inside.add(sig)
            elif not _bare_label(line.text):
                on[sig].add(i)
                if k in (0, len(page.lines) - 1):
                    outermost[sig].add(i)
                if page.number_line >= 0 and abs(k - page.number_line) == 1:
                    beside[sig].add(i)
    n = len(pages)
    # A chapter's running head recurs on its pages only: the first or last line of REPEAT_PAGES pages.
    recurring = {sig for sig, where in on.items() if sig not in inside
                 and (len(where) >= max(REPEAT_PAGES, REPEAT_SHARE * n) or len(outermost[sig]) >= REPEAT_PAGES
                      or (len(beside[sig]) >= 2 and len(where) >= max(2, BESIDE_SHARE * n)))}
    for page in pages:
        marked = [(a, b) for a, b, _ in page.spans]

        def furniture(k: int, page: _Page = page, marked: list = marked) -> bool:
            line = page.lines[k]
            return (k == page.number_line or (line.short and _signature(line.text) in recurring)
                    or any(a <= line.start and line.end <= b for a, b in marked))

        top = 0
        while top < min(EDGE_LINES, len(page.lines)) and furniture(top):
            top += 1
        bottom = len(page.lines)
        while bottom > max(top, len(page.lines) - EDGE_LINES) and furniture(bottom - 1):
            bottom -= 1
        page.spans += [(line.start, line.end, FURNITURE) for line in page.lines[:top] + page.lines[bottom:]
                       if not any(a <= line.start and line.end <= b for a, b in marked)]
        page.body = (top, bottom)


# Footnotes ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Marker:
    start: int
    end: int
    value: int
    superscript: bool


def _glued(text: str, lines: Sequence[_Line]) -> list[_Marker]:
    """Digits glued to the word before them in ``lines``: footnote markers, if their notes are found."""
    found = []
    for line in lines:
        for pattern, superscript in ((_SUPER_MARKER, True), (_DIGIT_MARKER, False)):
            for m in pattern.finditer(text, line.start, line.end):
                found.append(_Marker(m.start(1), m.end(1), int(m.group(1).translate(_SUPER_VALUE)), superscript))
    return found


def _note_value(line: _Line) -> int | None:
    m = _NOTE_START.match(line.text)
    return int(m.group(1).translate(_SUPER_VALUE)) if m else None


def _foot(page: _Page, markers: list[_Marker]) -> int:
    """Where the footnotes at the foot of the page's text begin (an index into its lines; the end of
    its text when it has none): a PDF's lines set smaller than the page's text from the bottom up, one of
    them opening with a number; a text's last lines from the first that opens with the number of a marker
    glued to a word above it."""
    top, bottom = page.body
    if page.sized:
        sizes: Counter[float] = Counter()
        for line in page.lines[top:bottom]:
            sizes[round(line.size, 1)] += len(line.text)
        if not sizes:
            return bottom
        body_size = sizes.most_common(1)[0][0]
        k = bottom
        while k > top and 0 < page.lines[k - 1].size <= NOTE_SIZE * body_size:
            k -= 1
        return k if any(_note_value(line) is not None for line in page.lines[k:bottom]) else bottom
    wanted = {m.value for m in markers if m.start < (page.lines[bottom - 1].start if bottom > top else 0)}
    first = bottom
    for k in range(bottom - 1, max(top, bottom - max(1, int(NOTE_SHARE * (bottom - top)))) - 1, -1):
        if _note_value(page.lines[k]) in wanted:
            first = k
    return first


def _footnotes(text: str, pages: list[_Page]) -> list[tuple[int, int, int]]:
    """Footnote text and markers of a paged document. A marker counts when its note is on its page, or
    when the PDF sets it smaller than its line; a plain digit glued to a word in a text only where that word
    and digit occur nowhere else in the document ("heard2", not "mp3"); a PDF's digit only when set smaller."""
    spans: list[tuple[int, int, int]] = []
    unique = _Unique(text)
    for page in pages:
        top, bottom = page.body
        markers = _glued(text, page.lines[top:bottom])
        foot = _foot(page, markers)
        notes = page.lines[foot:bottom]
        spans += [(line.start, line.end, NOTE) for line in notes]
        # A note that recurs word for word at the foot of several pages was taken for a footer: it numbers too.
        numbers = {v for line in page.lines[foot:] if (v := _note_value(line)) is not None}
        noted = page.lines[foot].start if foot < len(page.lines) else len(text)
        spans += [(m.start, m.end, MARKER) for m in markers if m.start < noted and m.value in numbers
                  and (m.superscript or (not page.sized and unique(m)))]
        spans += [(a, b, MARKER) for a, b in page.raised]
    return spans


def _unpaged_notes(text: str) -> list[tuple[int, int, int]]:
    """In a text without pages: superscript markers glued to a word, and the lines that open with their
    number (the notes, wherever they stand)."""
    if not any(c in text for c in _SUPERSCRIPTS):
        return []
    page = _text_page(text, 0, len(text))
    markers = [m for m in _glued(text, page.lines) if m.superscript]
    notes = [line for line in page.lines if _is_note(line, markers)]
    numbers = {_note_value(line) for line in notes}
    return [(line.start, line.end, NOTE) for line in notes] + [
        (m.start, m.end, MARKER) for m in markers if m.value in numbers and not any(
            line.start <= m.start < line.end for line in notes)]


class _Unique:
    """Whether the word a digit is glued to occurs with that digit only once in the document."""

    _GLUED = re.compile(r"[^\W\d_]{2,}\d{1,2}\b")

    def __init__(self, text: str) -> None:
        self.text = text
        self.counts: Counter[str] | None = None

    def __call__(self, marker: _Marker) -> bool:
        if self.counts is None:
            self.counts = Counter(self._GLUED.findall(self.text))
        word = re.search(r"[^\W\d_]*$", self.text[max(0, marker.start - 40):marker.start])
        return self.counts[(word.group() if word else "") + self.text[marker.start:marker.end]] <= 1


def _is_note(line: _Line, markers: list[_Marker]) -> bool:
    """In a text without pages: a line opening with a superscript number that a marker above uses."""
    value = _note_value(line)
    return (value is not None and line.text[:1] in _SUPERSCRIPTS
            and any(m.superscript and m.value == value and m.start < line.start for m in markers))


# Line-end hyphens ---------------------------------------------------------------------------------------

def _joins(text: str, skipped: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """The hyphens (and the line breaks, and any furniture, after them) that split a word at a line end:
    "planta-"/"tion" is "plantation". A word the document writes with a hyphen elsewhere (and never
    without) keeps it, and so do two halves that are each a word of the document ("to-"/"we"): a dash."""
    ends = {a: b for a, b, _ in skipped}
    candidates = []
    for m in _hyphens_at_line_ends(text):
        pos = m.end()
        while True:
            while pos < len(text) and text[pos].isspace():
                pos += 1
            if pos not in ends:
                break
            pos = ends[pos]
        tail = _TAIL.match(text, pos)
        if tail and pos > m.end():
            candidates.append((m, tail))
    if not candidates:
        return []
    compounds = {c.group().casefold() for c in _COMPOUND.finditer(text)}
    words = Counter(w.casefold() for w in _LETTERS.findall(text))
    spans: list[tuple[int, int, int]] = []
    inside = sorted((a, b) for a, b, _ in skipped)
    for m, tail in candidates:
        letters = _LETTERS.match(tail.group())
        head, rest = m.group(1).casefold(), letters.group().casefold() if letters else ""
        joined = head + rest
        if f"{head}-{rest}" in compounds and words[joined] == 0:
            continue
        if words[joined] == 0 and words[head] > 1 and words[rest] > 1:
            continue
        spans += _minus(m.end(1), tail.start(), inside)
    return spans


def _hyphens_at_line_ends(text: str) -> Iterable[re.Match[str]]:
    """Each word and its hyphen at a line end ("planta-"), found from the hyphens: a scan that starts with
    a literal is fast."""
    for pattern in _HYPHEN_SCANS:
        if pattern.pattern[0] in text:
            for m in pattern.finditer(text):
                head = _HEAD.search(text, max(0, m.start() - 60), m.start())
                found = _HYPHEN_END.match(text, head.start()) if head is not None else None
                if found is not None:
                    yield found


_HYPHEN_SCANS = tuple(re.compile(f"{h}[ \t]*(?=[\r\n])") for h in ("-", "\u00ad", "\u2010"))
_HEAD = re.compile(r"\b[^\W\d_]+$")


def _minus(start: int, end: int, taken: list[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """[start, end) less the spans ``taken`` (sorted), as JOIN spans."""
    out = []
    pos = start
    for a, b in taken:
        if b <= pos or a >= end:
            continue
        if a > pos:
            out.append((pos, a, JOIN))
        pos = max(pos, b)
    if pos < end:
        out.append((pos, end, JOIN))
    return out


# What a PDF reader loses -----------------------------------------------------------------------------

ACROSS_LINES = 3  # lines of a page joined across one column gap before the page counts as read across


def layout_warnings(text: str, layout: Sequence[PageLayout]) -> list[str]:
    """What the reader lost of a PDF's layout, for the run's summary: columns set side by side and read
    across (their lines joined: a quote there may not read as written), and footnotes that come in the
    middle of a page's text rather than after it."""
    across = [k + 1 for k, page in enumerate(layout) if _read_across(page)]
    inside = [k + 1 for k, page in enumerate(layout) if _notes_inside(text, page)]
    found = []
    if across:
        found.append(f"the lines of two columns are read across on {_page_list(across)} (the PDF reader joins "
                     "columns set side by side line by line); quotes there may not be found as written: check "
                     "them against the PDF")
    if inside:
        found.append(f"footnotes come in the middle of the text on {_page_list(inside)} as the PDF reader gives "
                     "it; they are left out of matching where their size sets them apart, but check quotes there")
    return found


def _read_across(page: PageLayout) -> bool:
    """Whether ACROSS_LINES lines or more of the page run on, past a gap, into text at one x further right:
    the second column of a page set in two, read line by line across both."""
    xs = [box.across for box in page.lines if box.across]
    return any(sum(1 for other in xs if abs(other - x) <= 3) >= ACROSS_LINES for x in xs)


def _notes_inside(text: str, page: PageLayout) -> bool:
    """Whether a footnote (a line set smaller than the page's text, below all of it, opening with a number)
    comes before some of the page's text in the reader's order."""
    sizes: Counter[float] = Counter()
    for box in page.lines:
        sizes[round(box.size, 1)] += box.end - box.start
    if not sizes:
        return False
    body = sizes.most_common(1)[0][0]
    main = [box for box in page.lines if box.size > NOTE_SIZE * body]
    lowest = min(box.y for box in main)
    notes = [box for box in page.lines if box.size <= NOTE_SIZE * body and box.y < lowest
             and len(text[box.start:box.end].split()) >= 2 and _NOTE_START.match(text, box.start)]
    return bool(notes) and min(box.start for box in notes) < max(box.start for box in main)


def _page_list(numbers: list[int]) -> str:
    """ "page 3", "pages 3, 5-7" (positions in the file)."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    shown = ", ".join(str(a) if a == b else f"{a}–{b}" for a, b in runs)
    return f"page{'s' if len(numbers) > 1 else ''} {shown} (in the file)"
