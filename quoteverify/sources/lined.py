"""Line-numbered transcripts: court arguments, hearings and depositions as their reporters lay them out.

A reporter prints a number at the start of every line (1 to 25, or 28, restarting on each page), the page's
number at its head or foot, perhaps the reporting company's footer, and around the proceedings a cover of
appearances, an index and a certificate. ``read_lined`` finds all of it by structure, never by a list of
reporters' texts:

- numbered lines: lines that open with a number standing in one column, 1, 2, 3 ... and 1 again where a page
  begins; a text is line-numbered when at least ``LINED_PAGES`` pages are, most of its lines with text are
  numbered and most pages reach the same last number;
- each page's number: a number among the unnumbered lines between two pages that rises by one from page to
  page, above the pages (a header) or below them (a footer), whichever holds it;
- furniture, never words of the text: the line numbers; every unnumbered line between pages (headers,
  footers, page numbers); the front matter (the pages before the one where a speaker who speaks again first
  speaks, and that page's lines before its first turn: a cover, appearances, an index); the back matter (from
  the first page after the last turn that opens with a heading in capitals or holds an index of page:line
  references: a certificate, a word index); and the reporter's lines between turns: ``BY MR. NAME:``, the
  swearing of a witness (``JANE ROE, having been first duly sworn, ...:``) and headings in capitals set in from
  the text before a turn (``CROSS-EXAMINATION``, ``ORAL ARGUMENT OF ...``);
- the people of the record: the examiner each ``BY`` line (or ``EXAMINATION BY``) names, whose turns the
  ``Q.`` lines after it are, and the witness the cover (``TESTIMONY OF``, ``DEPOSITION OF``, ``WITNESS:``), a
  heading or the swearing names, whose turns the ``A.`` and ``THE WITNESS:`` lines are.

quoteverify.sources.pages turns what is read here into a document's pages and skipped spans, and a result's
``cite`` (``18:21-19:3``); quoteverify.sources.turns names the speakers of ``Q.``, ``A.`` and ``THE WITNESS:``
by the people found here.
"""
from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .labels import label_of

GATE_CHARS = 20_000    # a line-numbered text has a line numbered 1, then one numbered 2, this near its start
LINED_PAGES = 2        # a line-numbered text has at least this many pages numbered from 1,
LINED_SHARE = 0.5      # numbered lines make at least this share of its lines with text,
LINED_REGULAR = 0.75   # and at least this share of its pages reach the last number most of them reach
LINED_LINES = 10       # ... which is at least this,
MOST_LINES = 40        # and no page numbers more lines than this
PAGE_NUMBERED = 0.5    # page numbers are read when this share of the pages print one that rises page by page
FRONT_PAGES = 8        # front matter is at most this many pages
FRONT_SHARE = 0.5      # and this share of them
FURNITURE_CHARS = 120  # a header or footer holding a page number is short: at most this many characters
INDEX_SHARE = 0.5      # an index page: this share of its lines hold a page:line reference (12:4), two a line
SWORN_LINES = 4        # the swearing of a witness takes at most this many lines

# A line number opening a line: one or two digits, then a space or the line's end.
_LEAD = re.compile(r"[ \t]*(\d{1,2})(?=[ \t]|$)")
_ROW = re.compile(r"[^\r\n]*")
_SPACES = re.compile(r"[ \t]*")
# The gate: a line opening with 1 and, past up to 3 blank lines, one opening with 2 (every line-numbered page has
# them).
_GATE = re.compile(r"\n[ \t]*1(?:[ \t][^\n]*)?\n(?:[ \t]*\r?\n){0,3}[ \t]*2(?=[ \t\r\n]|$)")
_PAGE_NUMBER = re.compile(r"(?<![\w:.,/-])(\d{1,5})(?![\w:/]|[.,]\d)")
_QA = re.compile(r"([QA])\.(?:[ \t]+\S|[ \t]*$)")
# A name as the record prints it: capitalised words and initials ("JOHN M. POINDEXTER", "Dr. Jane Roe").
_NAME = r"[A-Z][A-Za-z'\-]{0,30}\.?(?:[ \t]+(?:Mc|Mac|De|Di|Du|La|Le|O')?[A-Z][A-Za-z'\-]{0,30}\.?){0,4}"
# Counsel as a BY line names them: a title and a name ("BY MR. LIMAN:", "CROSS-EXAMINATION BY MS. ROE").
_COUNSEL = rf"(?i:MR|MRS|MS|MISS|MX|DR|ATTORNEY|SENATOR|REPRESENTATIVE|CHAIRMAN|CHAIRWOMAN)\.?[ \t]+{_NAME}?"
_BY = re.compile(rf"(?:BY|By)[ \t]+(?P<name>{_COUNSEL})[ \t]*:?[ \t]*$")
_EXAMINED_BY = re.compile(rf"(?:[A-Z\-]+[ \t]+)?EXAMINATION[ \t]+BY[ \t]+(?P<name>{_COUNSEL})[ \t]*:?[ \t]*$")
_WITNESS_OF = re.compile(rf"\b(?:TESTIMONY|DEPOSITION|EXAMINATION|STATEMENT|EVIDENCE|INTERVIEW)[ \t]+OF[ \t]+"
                         rf"(?P<name>(?!THE\b){_NAME}?)[ \t]*(?:,|\(|$)", re.IGNORECASE)
_WITNESS_IS = re.compile(rf"(?:THE[ \t]+)?(?:WITNESS|DEPONENT)[ \t]*:[ \t]*(?P<name>{_NAME}?)[ \t]*(?:,|$)",
                         re.IGNORECASE)
_SWORN_NAME = re.compile(rf"(?P<name>{_NAME}?),(?:[ \t]|$)")
_SWORN = re.compile(r"\b(?:(?:having been|being|was)[ \t]+(?:(?:first|previously|duly)[ \t]+){0,3}(?:sworn|affirmed)|"
                    r"called as a witness)\b", re.IGNORECASE)
_REFERENCE = re.compile(r"(?<![\w:])\d{1,4}:\d{1,2}(?![\w:])")


@dataclass(frozen=True)
class Lined:
    """What ``read_lined`` found: the pages (where each starts, what it is called, whether that is the number
    printed on it), the numbered lines (where each line starts, its number), the spans of the line numbers
    and of the furniture, the people of the record ((offset, "examiner" or "witness", name): from that offset
    on) and what could not be read (for the run's warning; empty when all of it was)."""

    page_starts: tuple[int, ...]
    names: tuple[str, ...]
    printed: tuple[bool, ...]
    lines: tuple[tuple[int, int], ...]
    numbers: tuple[tuple[int, int], ...]
    furniture: tuple[tuple[int, int], ...]
    people: tuple[tuple[int, str, str], ...] = ()
    partly: tuple[str, ...] = ()
    opens: tuple[int, ...] = ()  # where the lines that open a turn start


@dataclass(frozen=True)
class Record:
    """What a transcript's turns are read with (quoteverify.sources.turns): where a turn may open (a label at
    the start of a line elsewhere goes on a sentence), and the people of the record."""

    opens: frozenset[int]
    people: tuple[tuple[int, str, str], ...]


@dataclass
class _Row:
    """One line of the text: its span (without the line break), its line number (0: none), the number's
    span, where its words start (``end`` when it has none), and what it is (a turn's speaker, a heading)."""

    start: int
    end: int
    number: int = 0
    digits: tuple[int, int] = (0, 0)
    body: int = 0
    speaker: str | None = None   # the speaker of the turn it opens
    says: bool = False           # whether words follow the label on the line

    def words(self, text: str) -> str:
        return text[self.body:self.end].rstrip()


@dataclass
class _Reading:
    """A text being read as a transcript: its rows, its pages (indices of their numbered rows) and what is
    furniture so far."""

    text: str
    rows: list[_Row]
    pages: list[list[int]]
    furniture: set[int] = field(default_factory=set)   # rows whose words are layout
    irregular: list[int] = field(default_factory=list)  # pages numbered out of sequence
    back: int = -1   # the first row of the back matter (-1: none)
    indent: int = 0  # how far the words of a line that goes on a turn stand from its number
    flush: bool = False  # whether labels stand where those words do (a PDF reader's text drops the indents)

    @property
    def numbered(self) -> list[int]:
        return [k for page in self.pages for k in page]


def read_lined(text: str) -> Lined | None:
    """The layout of a line-numbered transcript; None when ``text`` is not one. Cheap for any other text:
    one scan of its first GATE_CHARS characters for a line opening with 1 followed by one opening with 2."""
    if not (_GATE.search(text, 0, GATE_CHARS) or _GATE.match("\n" + text[:200])):
        return None
    reading = _numbered(text, _rows(text))
    if reading is None:
        return None
    starts, names, printed, partly = _page_names(reading)
    _turns(reading)
    _front_and_back(reading)
    people = _people(reading)
    numbered = [reading.rows[k] for k in reading.numbered]
    furniture = [_span(text, reading.rows[k]) for k in sorted(reading.furniture)] + [
        _span(text, reading.rows[k]) for block in _blocks(reading) for k in block]
    opens = tuple(r.start for k, r in zip(reading.numbered, numbered) if r.speaker and k not in reading.furniture)
    return Lined(tuple(starts), tuple(names), tuple(printed), tuple((r.start, r.number) for r in numbered),
                 tuple(r.digits for r in numbered), tuple(sorted(f for f in furniture if f[0] < f[1])),
                 people, (*partly, *_unread(reading, people, names)), opens)


def _span(text: str, row: _Row) -> tuple[int, int]:
    """A row's words without the spaces around them (a numbered row's after its number)."""
    words = text[row.body if row.number else row.start:row.end]
    start = (row.body if row.number else row.start) + len(words) - len(words.lstrip())
    return start, start + len(words.strip())


def _rows(text: str) -> list[_Row]:
    rows = []
    pos = 0
    while pos <= len(text):
        end = _ROW.match(text, pos).end()  # type: ignore[union-attr]  # matches the empty string too
        rows.append(_Row(pos, end, body=end))
        pos = end + (2 if text.startswith("\r\n", end) else 1)
    return rows


def _numbered(text: str, rows: list[_Row]) -> _Reading | None:
    """The rows' line numbers and the pages they make, if the text is line-numbered."""
    found = []
    for k, row in enumerate(rows):
        m = _LEAD.match(text, row.start, row.end)
        if m and 1 <= int(m.group(1)) <= MOST_LINES:
            found.append((k, m))
    if not found:
        return None
    # Line numbers stand in one column (right-aligned, or left-aligned); a page number set to the right does not.
    ends = Counter(m.end(1) - rows[k].start for k, m in found)
    begins = Counter(m.start(1) - rows[k].start for k, m in found)
    right = ends.most_common(1)[0][1] >= begins.most_common(1)[0][1]
    column = (ends if right else begins).most_common(1)[0][0]
    found = [(k, m) for k, m in found if (m.end(1) if right else m.start(1)) - rows[k].start == column]
    pages: list[list[int]] = []
    irregular: list[int] = []
    for at, (k, m) in enumerate(found):
        number = int(m.group(1))
        before = rows[pages[-1][-1]].number if pages else 0
        after = int(found[at + 1][1].group(1)) if at + 1 < len(found) else 0
        # Lines between this one and the last line numbered (a footer): a new page's number follows them.
        apart = bool(pages) and any(_filled(text, rows[j]) for j in range(pages[-1][-1] + 1, k))
        if not text[m.end(1):rows[k].end].strip() and (after == 1 if number == 1 else number != before + 1 or apart):
            continue  # a page's number alone on its line, as a PDF reader extracts it from a page's head
        row = rows[k]
        row.number, row.digits = number, m.span(1)
        row.body = _SPACES.match(text, m.end(1), row.end).end()  # type: ignore[union-attr]  # matches ""
        if number == 1 or not pages:
            pages.append([k])
        else:
            if number != rows[pages[-1][-1]].number + 1 and (not irregular or irregular[-1] != len(pages) - 1):
                irregular.append(len(pages) - 1)
            pages[-1].append(k)
    return _Reading(text, rows, pages, irregular=irregular) if _regular(text, rows, pages) else None


def _regular(text: str, rows: list[_Row], pages: list[list[int]]) -> bool:
    """Whether the numbered rows make a transcript's pages: enough of them, most of the text, most pages as
    long as each other."""
    if len(pages) < LINED_PAGES:
        return False
    lasts = Counter(rows[page[-1]].number for page in pages)
    full, reaching = lasts.most_common(1)[0]
    if full < LINED_LINES or reaching < LINED_REGULAR * (len(pages) - 1):
        return False
    numbered = sum(len(page) for page in pages)
    with_text = sum(1 for row in rows if text[row.start:row.end].strip())
    return numbered >= LINED_SHARE * with_text


LABEL_CAPITALS = 0.8  # where this share of a transcript's labels are in capitals, a label in lower case is text


def _label_at(words: str) -> tuple[str, bool] | None:
    """The speaker a line opens a turn of ('Q', 'A' or a label's name), and whether words follow on the line."""
    qa = _QA.match(words)
    if qa:
        return qa.group(1), bool(words[qa.end() - 1:].strip())
    label = label_of(words)
    if label is not None and label.speaker:
        return label.speaker, bool(words[label.end:].strip())
    return None


def _turns(reading: _Reading) -> None:
    """Which numbered lines open a turn: a label or a Q. or A. at the start of the line's words (Q. and A.
    only where the text has both), not where the lines that go on a turn set their words when labels are set
    elsewhere (a wrapped line may open "Court: Some of the steam"), and in capitals where most labels are."""
    rows, text = reading.rows, reading.text

    def indent(k: int) -> int:
        return rows[k].body - rows[k].digits[1]

    found = {k: at for k in reading.numbered if (at := _label_at(rows[k].words(text))) is not None}
    said = {speaker for speaker, _ in found.values()}
    if not {"Q", "A"} <= said:
        found = {k: at for k, at in found.items() if at[0] not in ("Q", "A")}
    going_on = Counter(indent(k) for k in reading.numbered if k not in found and rows[k].body < rows[k].end)
    reading.indent = going_on.most_common(1)[0][0] if going_on else 0
    opening = Counter(indent(k) for k in found)
    reading.flush = not opening or opening.most_common(1)[0][0] == reading.indent
    if not reading.flush:
        found = {k: at for k, at in found.items() if indent(k) != reading.indent}
    capitals = {k for k, (speaker, _) in found.items()
                if sum(map(str.isupper, speaker)) > sum(map(str.islower, speaker))}
    if len(capitals) >= LABEL_CAPITALS * len(found):
        found = {k: found[k] for k in capitals}
    for k, (speaker, says) in found.items():
        rows[k].speaker, rows[k].says = speaker, says


def _blocks(reading: _Reading) -> list[range]:
    """The rows outside the pages: before the first, between each two, after the last."""
    blocks = []
    previous = -1
    for page in reading.pages:
        blocks.append(range(previous + 1, page[0]))
        previous = page[-1]
    blocks.append(range(previous + 1, len(reading.rows)))
    return blocks


def _page_numbers(reading: _Reading, block: range) -> list[tuple[int, int]]:
    """The numbers printed in a block's short lines: (value, +1 nearer the block's bottom, the next page's
    head; -1 nearer its top, the page before's foot; 0 alone)."""
    text = reading.text
    filled = [k for k in block if text[reading.rows[k].start:reading.rows[k].end].strip()]
    found = []
    for place, k in enumerate(filled):
        line = text[reading.rows[k].start:reading.rows[k].end].strip()
        if len(line) <= FURNITURE_CHARS and len(line.split()) <= 12:
            below = len(filled) - 1 - place
            side = (below < place) - (place < below)
            found += [(int(m.group(1)), side) for m in _PAGE_NUMBER.finditer(line)]
    return found


def _page_names(reading: _Reading) -> tuple[list[int], list[str], list[bool], list[str]]:
    """Where each page starts, what it is called and whether that is printed on it, and what was not read:
    the number printed between pages that rises by one page by page, at the pages' heads or at their feet.
    A number between two pages may be either: a number before the first page says heads, one after the last
    feet, and else where it stands in the lines between (nearer the next page: its head)."""
    blocks = _blocks(reading)
    n = len(reading.pages)
    numbers = [_page_numbers(reading, block) for block in blocks]
    votes: Counter[tuple[int, int]] = Counter()  # (0 heads | 1 feet, name - page index): how many pages
    leaning: Counter[tuple[int, int]] = Counter()  # ... and how many numbers stand on that side of their block
    for b, found in enumerate(numbers):
        for value, side in found:
            if b < n:
                votes[0, value - b] += 1
                leaning[0, value - b] += side > 0
            if b > 0:
                votes[1, value - b + 1] += 1
                leaning[1, value - b + 1] += side < 0
    starts = [0] + [reading.rows[block.start].start for block in blocks[1:n]]
    best = max(votes, key=lambda key: (votes[key], leaning[key], -key[0]), default=None)
    if best is None or votes[best] < max(2, PAGE_NUMBERED * n):
        return starts, [str(k + 1) for k in range(n)], [False] * n, ["no page numbers printed between its pages "
                                                                     "(pages counted in the file)"]
    # A page that prints no number (a cover) takes it from the pages around it: the transcript's numbering.
    return starts, [str(k + best[1]) for k in range(n)], [True] * n, []


def _page_of(reading: _Reading) -> dict[int, int]:
    return {k: p for p, page in enumerate(reading.pages) for k in page}


def _front_and_back(reading: _Reading) -> None:
    """Mark the front matter (cover, appearances, index: before the first turn of a speaker who speaks again,
    within FRONT_PAGES pages) and the back matter (certificate, word index: from the first page after the
    last turn that opens with a heading in capitals or is an index)."""
    rows, pages = reading.rows, reading.pages
    text = reading.text
    numbered = reading.numbered
    said = Counter(rows[k].speaker for k in numbered if rows[k].says)
    page_of = _page_of(reading)
    first = next((k for k in numbered if rows[k].says and said[rows[k].speaker] >= 2), None)
    if first is not None and page_of[first] <= min(FRONT_PAGES, FRONT_SHARE * len(pages)):
        begins = next(k for k in pages[page_of[first]] if rows[k].says)
        reading.furniture |= {k for k in range(pages[0][0], begins) if rows[k].number or _filled(text, rows[k])}
    last = next((k for k in reversed(numbered) if rows[k].says), None)
    if last is None:
        return
    for page in pages[page_of[last] + 1:]:
        opening = next((rows[k].words(text) for k in page if rows[k].words(text)), "")
        if _capitals(opening) or _index(text, [rows[k] for k in page]):
            reading.furniture |= set(range(page[0], pages[-1][-1] + 1))
            reading.back = page[0]
            return


def _filled(text: str, row: _Row) -> bool:
    return bool(text[row.start:row.end].strip())


def _capitals(words: str) -> bool:
    """A line in capitals: letters, none of them lower case."""
    return any(c.isalpha() for c in words) and not any(c.islower() for c in words)


def _index(text: str, rows: Sequence[_Row]) -> bool:
    """Whether lines are an index of page:line references ("armband 12:4 14:20")."""
    filled = [r.words(text) for r in rows if r.words(text)]
    if not filled:
        return False
    refs = [len(_REFERENCE.findall(words)) for words in filled]
    return sum(1 for r in refs if r) >= INDEX_SHARE * len(filled) and sum(refs) >= 2 * len(filled)


def _people(reading: _Reading) -> tuple[tuple[int, str, str], ...]:
    """The examiners and witnesses of the record, each from where it is named on; the reporter's lines that
    name them (``BY`` lines, the swearing, headings before a turn) made furniture."""
    rows, text = reading.rows, reading.text
    numbered = [k for k in reading.numbered if reading.back < 0 or k < reading.back]  # no certificate's
    people: list[tuple[int, str, str]] = []
    front = [k for k in numbered if k in reading.furniture]
    cover = next((m.group("name") for k in front for pattern in (_WITNESS_OF, _WITNESS_IS)
                  if (m := pattern.search(rows[k].words(text))) and m.group("name")), "")
    if cover:
        people.append((0, "witness", cover.strip()))
    following = True  # whether the next row with words opens a turn or is the reporter's
    for at in range(len(numbered) - 1, -1, -1):
        row = rows[numbered[at]]
        words = row.words(text)
        if not words:
            continue
        examiner = _BY.match(words) or _EXAMINED_BY.match(words)
        heading = not row.speaker and following and _capitals(words) and _apart(reading, numbered, at)
        if examiner and examiner.group("name"):
            people.append((row.start, "examiner", examiner.group("name").strip()))
        if heading and (named := _WITNESS_OF.search(words)) and named.group("name"):
            people.append((row.start, "witness", named.group("name").strip()))
        if examiner or heading:
            reading.furniture.add(numbered[at])
        following = bool(row.speaker or examiner or heading)
    people += _sworn(reading, numbered)
    return tuple(sorted(set(people)))


def _apart(reading: _Reading, numbered: list[int], at: int) -> bool:
    """Whether the numbered row ``numbered[at]`` is set apart from the text of the turns, as the reporter's own
    lines are: further in than the lines that go on a turn, or, where labels stand there too (a PDF reader's
    text), after a line that ends a sentence or is the reporter's."""
    rows, text = reading.rows, reading.text
    row = rows[numbered[at]]
    if not reading.flush:
        return row.body - row.digits[1] > reading.indent
    before = next((numbered[j] for j in range(at - 1, -1, -1) if rows[numbered[j]].words(text)), None)
    return before is None or before in reading.furniture or rows[before].words(text).endswith(_ENDS)


_ENDS = (".", "?", "!", ":", ")", '"', "\u201d", "--")


def _sworn(reading: _Reading, numbered: list[int]) -> list[tuple[int, str, str]]:
    """The swearing of witnesses ("JANE ROE, having been first duly sworn, was examined and testified as
    follows:"): a paragraph set apart from the text (``_apart``), opening with a name (in capitals, or of two
    words or more), up to SWORN_LINES lines ending with a colon or a point: the witness, from there on."""
    rows, text = reading.rows, reading.text
    found = []
    for at, k in enumerate(numbered):
        words = rows[k].words(text)
        named = _SWORN_NAME.match(words) if words and not rows[k].speaker and _apart(reading, numbered, at) else None
        if named is None or not (_capitals(named.group("name")) or len(named.group("name").split()) > 1):
            continue
        lines = [numbered[j] for j in range(at, min(at + SWORN_LINES, len(numbered)))]
        paragraph = []
        for j in lines:
            paragraph.append(rows[j].words(text))
            if paragraph[-1].endswith((":", ".")):
                break
        said = " ".join(paragraph)
        if _SWORN.search(said) and said.endswith((":", ".")):
            reading.furniture.update(lines[:len(paragraph)])
            found.append((rows[k].start, "witness", named.group("name").strip()))
    return found


def _unread(reading: _Reading, people: tuple[tuple[int, str, str], ...], names: list[str]) -> list[str]:
    """What of the record could not be read, for the run's warning."""
    rows, text = reading.rows, reading.text
    spoken = [rows[k] for page in reading.pages for k in page if rows[k].speaker and k not in reading.furniture]
    said = {row.speaker for row in spoken}
    partly = []
    if reading.irregular:
        partly.append(f"line numbers out of sequence on page{'s' if len(reading.irregular) > 1 else ''} "
                      + ", ".join(names[p] for p in reading.irregular[:5]))
    unnumbered = sum(1 for page in reading.pages for k in range(page[0], page[-1] + 1)
                     if not rows[k].number and _filled(text, rows[k]))
    if unnumbered:
        partly.append(f"{unnumbered} line{'s' if unnumbered > 1 else ''} without a number inside its pages")
    if not said:
        partly.append("no speaker labels read")
    if "A" in said and not any(role == "witness" for _, role, _ in people):
        partly.append("no witness named for its A. turns (by the cover, a heading or the swearing)")
    first_examiner = min((at for at, role, _ in people if role == "examiner"), default=len(text))
    if any(row.speaker == "Q" and row.start < first_examiner for row in spoken):
        partly.append("Q. turns before any BY line name no examiner")
    return partly


# Who a role of the record is: a Q. the examiner's, an A. and the witness's labels the witness's.
_ROLES = {"Q": "examiner", "A": "witness", "THE WITNESS": "witness", "THE DEPONENT": "witness"}
_OFFICE = re.compile(r"THE ([A-Z][A-Z]+(?: [A-Z][A-Z]+)?)")


def record_speakers(speakers: Sequence[str], starts: Sequence[int],
                    people: Sequence[tuple[int, str, str]]) -> list[str]:
    """The speakers of a transcript's turns (which start at ``starts``) as its record names them: a ``Q.`` is
    the examiner's that the last ``BY`` line before it names ("Q (MR. LIMAN)"), an ``A.`` or ``THE WITNESS:``
    the witness's ("A (JOHN M. POINDEXTER)"); ``THE CHAIRMAN:`` is the one chairman the labels name, when
    they name one ("THE CHAIRMAN (CHAIRMAN HAMILTON)"). A role nobody is named for stays as it is."""
    named: dict[str, tuple[list[int], list[str]]] = {"examiner": ([], []), "witness": ([], [])}
    for at, kind, name in people:
        named[kind][0].append(at)
        named[kind][1].append(name)
    distinct = set(speakers)
    titled = {m.group(1) for m in map(_OFFICE.fullmatch, distinct) if m}
    offices = {office: {s for s in distinct if s.startswith(office + " ")} for office in titled}
    out = []
    for speaker, at in zip(speakers, starts):
        role = _ROLES.get(speaker)
        held = _OFFICE.fullmatch(speaker) if role is None else None
        if role is not None:
            places, names = named[role]
            k = bisect_right(places, at) - 1
            out.append(f"{speaker} ({names[k]})" if k >= 0 else speaker)
        elif held is not None and len(offices.get(held.group(1), ())) == 1:
            out.append(f"{speaker} ({next(iter(offices[held.group(1)]))})")
        else:
            out.append(speaker)
    return out


PARTLY_SHOWN = 5  # documents named in the warning about transcripts read in part


def partly_read(partly: Mapping[str, Sequence[str]]) -> list[str]:
    """The run's one warning about line-numbered transcripts whose layout was read only in part (``partly``:
    what was not read, by document id; documents read whole may be left out or map to nothing)."""
    named = [(doc, what) for doc, what in partly.items() if what]
    if not named:
        return []
    shown = "; ".join(f"{doc} ({', '.join(what)})" for doc, what in named[:PARTLY_SHOWN])
    more = f"; and {len(named) - PARTLY_SHOWN} more" if len(named) > PARTLY_SHOWN else ""
    return [f"line-numbered transcript{'s' if len(named) > 1 else ''} read only in part: {shown}{more}; citations "
            "and speakers there may be off: check them against the transcript (docs/pages.md)"]
