"""The Excel triage workbook: one row per quote, worst first, ready for a reviewer's afternoon.

Sheets: ``Quotes`` (the results, differing words highlighted, a ``decision``
dropdown and a ``reviewer_note`` column), ``Summary`` (counts and a chart of
status per document) and ``Method`` (settings, model, version, input hashes).

The workbook is streamed (openpyxl's write-only mode) so 50,000 quotes fit in
modest memory; every cell is made safe on the way: text is always stored as
text (a quote starting with ``=`` never becomes a formula), characters Excel
rejects are removed and nothing exceeds Excel's cell limit.
"""
from __future__ import annotations

import contextlib
import math
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ..model.text import displayable, place
from ..model.types import (
    DECISIONS,
    FINDING_COLUMNS,
    MATCH_TYPES,
    QUOTES_SHEET,
    SEVERITIES,
    STATUSES,
    Difference,
    DifferenceKind,
    Finding,
    Findings,
    QuoteResult,
    count_by_document,
    count_by_severity,
    count_by_status,
    fingerprint,
    triage_order,
    unchecked_claim,
    weight,
)
from ..model.version import __version__
from . import guide

FINDINGS_SHEET = "Findings"
GUIDE_SHEET = "Guide"
FINDINGS_WIDTHS = {"finding": 50, "note": 60}  # characters; the other columns fit their header
MAX_CELL = 32_767  # Excel's limit, in UTF-16 code units
TRUNCATED = " […truncated; full text in the JSONL output]"
# Rows grow with their text up to this many lines; longer text scrolls inside the cell.
MAX_ROW_LINES = 8
FONT, FONT_SIZE = "Calibri", 11  # Excel's default, used by unstyled cells
LINE_HEIGHT = 15.0  # points per line of Calibri 11

# Excel's own Good / Neutral / Bad cell styles, so the colours read as Excel users expect.
STATUS_COLOURS = {"verified": ("C6EFCE", "006100"), "review": ("FFEB9C", "9C5700"),
                  "unverified": ("FFC7CE", "9C0006")}
# A review's severity, (fill, text) as the review page's badges: red, orange, grey.
SEVERITY_COLOURS = {"high": ("FFC7CE", "9C0006"), "medium": ("FCE4D6", "C55A11"), "low": ("EDEDED", "595959")}
# A verified quote whose claimed document or speaker was not checked (model.types.unchecked_claim): paler, in
# the amber text of a caution, so the column does not read as plain green.
UNCHECKED_COLOURS = ("EBF1DE", "7F6000")
UNCHECKED = "verified, claim not checked"  # its style's name, and the Guide's
CHART_COLOURS = {"verified": "63BE7B", "review": "FFCC00", "unverified": "F8696B"}
# Highlight of a differing passage by the kind of difference: load-bearing changes in bold red,
# other changes in bold orange, benign ones (normalization, disfluency, ...) in blue.
HIGHLIGHTS = {"load-bearing": ("C00000", True), "changed": ("C55A11", True), "benign": ("2F5597", False)}


@dataclass(frozen=True)
class Column:
    """One column of the Quotes sheet: its header, width (in characters) and value; an ``optional`` column is
    left out when it is empty in every row (no wide empty column in the reviewer's way)."""

    name: str
    width: float
    value: Callable[[QuoteResult], Any]
    wrap: bool = False
    number_format: str = "General"
    optional: bool = False


def _get(name: str) -> Callable[[QuoteResult], Any]:
    return lambda result: getattr(result, name)


# Laid out for triage: what the reviewer reads and decides first (the decision within the first 8 columns),
# then where it was found and what was claimed, the quote table's own columns, and the evidence at the far right.
QUOTE_COLUMNS = (
    Column("quote_id", 10, _get("quote_id"), wrap=True),
    Column("quote", 48, _get("quote"), wrap=True),
    Column("matched_text", 48, _get("matched_text"), wrap=True),
    Column("status", 11, _get("status")),
    Column("severity", 9, _get("severity")),
    Column("reasons", 36, lambda r: "\n".join(r.reasons), wrap=True),
    Column("decision", 12, _get("decision")),
    Column("reviewer_note", 30, _get("reviewer_note"), wrap=True),
    # How likely a strict editor would call the quote in review a change of meaning (judge.odds): the order.
    Column("p_change", 9, _get("p_change"), number_format="0.00", optional=True),
    Column("match_type", 13, _get("match_type")),
    Column("confidence", 11, _get("confidence"), number_format="0.00"),
    Column("band", 8, _get("band")),
    Column("document", 20, _get("document"), wrap=True),
    Column("line", 7, _get("line")),
    Column("page", 9, _get("page"), optional=True),
    Column("page_kind", 10, _get("page_kind"), optional=True),
    # page:line in a line-numbered transcript ("18:21-19:3"), as lawyers cite one
    Column("cite", 11, _get("cite"), optional=True),
    # "1 of 3": the quote stands as well in other places of its document (the JSONL names their lines).
    Column("place", 12, lambda r: place(r.occurrences, r.speaker_occurrences, r.claimed_speaker or r.speaker),
           wrap=True, optional=True),
    Column("speaker", 14, _get("speaker"), wrap=True, optional=True),
    Column("timestamp", 12, _get("timestamp"), optional=True),
    Column("claimed_document", 20, _get("claimed_document"), wrap=True, optional=True),
    Column("claimed_speaker", 14, _get("claimed_speaker"), wrap=True, optional=True),
    Column("suggestion", 40, _get("suggestion"), wrap=True, optional=True),
    # Where the quote stands in the manuscript: the `context` column of `quoteverify extract`'s table.
    Column("manuscript_context", 40, lambda r: r.extra.get(MANUSCRIPT_CONTEXT, ""), wrap=True, optional=True),
)
# The evidence and offsets: after the quote table's own columns, at the far right.
EVIDENCE_COLUMNS = (
    Column("row", 7, _get("row")),
    Column("start", 8, _get("start")),
    Column("end", 8, _get("end")),
    Column("bm25_score", 11, _get("bm25_score"), number_format="0.00"),
    Column("bm25_ratio", 11, _get("bm25_ratio"), number_format="0.00"),
    Column("cosine", 9, _get("cosine"), number_format="0.000"),
    Column("match_ratio", 12, _get("match_ratio"), number_format="0.000"),
    Column("fingerprint", 18, fingerprint),
)
ALL_COLUMNS = QUOTE_COLUMNS + EVIDENCE_COLUMNS
MANUSCRIPT_CONTEXT = "context"
USER_COLUMN_WIDTH = 20
# Shown to the reviewer as the columns to fill in; `fingerprint` is hidden (it serves --previous).
REVIEWER_COLUMNS = ("decision", "reviewer_note")
HIDDEN_COLUMNS = ("fingerprint",)
# Frozen with the header row: the id and the quote stay in view while the reviewer scrolls right and down.
FROZEN = "C2"


def sheet_columns(results: list[QuoteResult]) -> tuple[Column, ...]:
    """The Quotes sheet's columns for ``results``: the tool's (optional ones only when some row has a value),
    the quote table's own, then the evidence."""
    shown = tuple(c for c in QUOTE_COLUMNS if not c.optional or any(c.value(r) not in ("", None) for r in results))
    return shown + _user_columns(results) + EVIDENCE_COLUMNS


def _user_columns(results: list[QuoteResult]) -> tuple[Column, ...]:
    """The quote table's own columns (a coder, a page, a memo), after the tool's, in the table's order;
    one named like a tool column gets the prefix input_, as in the CSV."""
    names = dict.fromkeys(k for r in results for k in r.extra if k != MANUSCRIPT_CONTEXT)
    taken = {c.name for c in ALL_COLUMNS}
    columns = []
    for name in names:
        header = name
        while header in taken:
            header = f"input_{header}"
        taken.add(header)
        columns.append(Column(header, USER_COLUMN_WIDTH, _extra_cell(name), wrap=True))
    return tuple(columns)


def write_workbook(path, results: list[QuoteResult], *, run=None, findings: Findings | None = None) -> None:
    """Write the triage workbook for ``results``; ``run`` (a pipeline Run) fills the Method sheet, and
    ``findings`` (quoteverify.app.support.summarize_findings) the Findings sheet when the quotes cite any."""
    # openpyxl takes half a second to import; only workbooks need it.
    from openpyxl import Workbook

    book = Workbook(write_only=True)
    try:
        styles = _Styles.register(book)
        _write_guide(book.create_sheet(GUIDE_SHEET), styles)
        _write_quotes(book.create_sheet(QUOTES_SHEET), results, styles)
        _write_summary(book.create_sheet("Summary"), results, styles)
        if findings is not None and findings.findings:
            _write_findings(book.create_sheet(FINDINGS_SHEET), findings.findings, styles)
        _write_method(book.create_sheet("Method"), results, run, styles)
        book.save(path)
    except BaseException:
        _abandon(book)
        raise


def _abandon(book) -> None:
    """Close the worksheet writers of a workbook whose writing failed (a full disk, Ctrl-C) now: left to
    the garbage collector, each fails again on its way out and Python prints that as a traceback."""
    for sheet in getattr(book, "_sheets", ()):
        for stream in (getattr(sheet, "_rows", None), getattr(getattr(sheet, "_writer", None), "xf", None)):
            if stream is not None:
                with contextlib.suppress(Exception):  # the same failure as the one being raised
                    stream.close()


# --- cell safety ----------------------------------------------------------------------------------


def clean_text(text: str) -> str:
    """Text without the control characters Excel rejects (tab, newline and carriage return stay), lone
    surrogates shown as U+FFFD."""
    # openpyxl takes half a second to import; only workbooks need it.
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

    return displayable(ILLEGAL_CHARACTERS_RE.sub("", text))


def _utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _fit(text: str) -> tuple[str, bool]:
    """(the part of cleaned ``text`` that fits a cell with the marker, whether it was cut)."""
    if len(text) * 2 <= MAX_CELL or _utf16_len(text) <= MAX_CELL:
        return text, False
    keep = MAX_CELL - _utf16_len(TRUNCATED)
    kept = text[:keep]
    # Characters outside the BMP count twice in Excel's limit: shorten until the UTF-16 length fits.
    while (excess := _utf16_len(kept) - keep) > 0:
        kept = kept[: len(kept) - excess]
    return kept, True


def safe_text(text: str) -> str:
    """Text as it can be stored in a cell: cleaned and, when too long, cut with a marker."""
    kept, cut = _fit(clean_text(text))
    return kept + TRUNCATED if cut else kept


def _write_cell(sheet, value: Any, style: str | None = None):
    """A write-only cell holding ``value``; text is always stored as text, never as a formula."""
    # openpyxl takes half a second to import; only workbooks need it.
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.cell.rich_text import CellRichText

    if isinstance(value, str):
        value = safe_text(value)
    cell = WriteOnlyCell(sheet, value=value if value != "" else None)
    if isinstance(value, (str, CellRichText)) and value:
        # openpyxl turns a string starting with "=" into a formula; "s" stores it as an inline string.
        cell.data_type = "s"
    if style is not None:
        cell.style = style
    return cell


# --- highlighting ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Highlight:
    """Characters [start, end) of a cell's text that differ, and the kind of difference."""

    start: int
    end: int
    kind: DifferenceKind


def _is_word(char: str) -> bool:
    return char.isalnum() or char == "_"


def _find(text: str, fragment: str, start: int) -> int:
    """Where ``fragment`` first occurs in ``text`` from ``start``, or -1.

    A fragment that starts or ends with a letter must not match inside a longer
    word ("a" in "can"), so such an edge has to fall on a word boundary.
    """
    left, right = _is_word(fragment[0]), _is_word(fragment[-1])
    at = text.find(fragment, start)
    while at != -1:
        end = at + len(fragment)
        if not (left and at > 0 and _is_word(text[at - 1])) and \
                not (right and end < len(text) and _is_word(text[end])):
            return at
        at = text.find(fragment, at + 1)
    return -1


def highlights(text: str, fragments: Iterable[tuple[str, DifferenceKind]]) -> list[Highlight]:
    """Where each (fragment, kind) occurs in ``text``, searched in order, without overlaps.

    Differences come in text order, so each is looked for after the previous one
    first (the right "the" among many); a fragment that is not in the text (an
    order difference describes a place rather than quoting it) is skipped.
    """
    found: list[Highlight] = []
    cursor = 0
    for fragment, kind in fragments:
        if not fragment.strip():
            continue
        at = _find(text, fragment, cursor)
        if at == -1:
            at = _find(text, fragment, 0)
        end = at + len(fragment)
        if at == -1 or any(at < h.end and h.start < end for h in found):
            continue
        found.append(Highlight(at, end, kind))
        cursor = max(cursor, end)
    return sorted(found, key=lambda h: h.start)


def shown_differences(differences: Iterable[Difference]) -> list[Difference]:
    """The differences worth colouring: not a transcript's hard line wrap ("car at\nthe end" quoted as "car at
    the end"), which is a difference of spacing alone."""
    return [d for d in differences if d.kind != "normalization" or d.quote_text.split() != d.source_text.split()]


def _rich(text: str, fragments: list[tuple[str, DifferenceKind]], styles: _Styles):
    """The cell value for ``text`` with its differing passages highlighted (plain text if none)."""
    # openpyxl takes half a second to import; only workbooks need it.
    from openpyxl.cell.rich_text import CellRichText, TextBlock

    text = clean_text(text)
    spans = highlights(text, [(clean_text(f), kind) for f, kind in fragments])
    if not spans:
        return text
    kept, cut = _fit(text)
    parts: list[Any] = []
    position = 0
    for span in spans:
        start, end = min(span.start, len(kept)), min(span.end, len(kept))
        if start >= end:
            continue
        if start > position:
            parts.append(kept[position:start])
        parts.append(TextBlock(styles.highlight[weight(span.kind)], kept[start:end]))
        position = end
    if position < len(kept):
        parts.append(kept[position:])
    if cut:
        parts.append(TRUNCATED)
    return CellRichText(parts)


# --- styles ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Styles:
    """Names of the workbook's cell styles, and the fonts of highlighted passages.

    Cells take named styles: naming a registered style costs a lookup, where
    setting font, fill and alignment one by one hashes each of them for every
    cell (a fifth of the time of a large workbook).
    """

    header: str
    reviewer_header: str
    title: str
    status: dict[str, str]
    severity: dict[str, str]
    column: dict[str, str]      # body style of each Quotes column
    wrap: str
    left: str
    highlight: dict[str, Any]   # InlineFont per severity

    @classmethod
    def register(cls, book) -> _Styles:
        # openpyxl takes half a second to import; only workbooks need it.
        from openpyxl.cell.text import InlineFont
        from openpyxl.styles import Alignment, Font, NamedStyle, PatternFill

        def fill(colour: str) -> PatternFill:
            return PatternFill(fill_type="solid", start_color=colour, end_color=colour)

        def style(name: str, *, bold: bool = False, size: int = FONT_SIZE, colour: str | None = None,
                  background: str | None = None, alignment: Alignment | None = None,
                  number_format: str = "General") -> str:
            # Fonts name their face and size: without them LibreOffice falls back to a serif face.
            font = Font(name=FONT, size=size, bold=bold, color=colour)
            name = f"quoteverify {name}"
            book.add_named_style(NamedStyle(name=name, font=font, fill=fill(background) if background else None,
                                            alignment=alignment, number_format=number_format))
            return name

        top = Alignment(vertical="top")
        wrap = Alignment(vertical="top", wrap_text=True)
        header_alignment = Alignment(vertical="center", wrap_text=True)
        body: dict[tuple[bool, str], str] = {}
        for column in ALL_COLUMNS:
            key = (column.wrap, column.number_format)
            if key not in body:
                body[key] = style(f"{'wrapped' if column.wrap else 'cell'} {column.number_format}",
                                  alignment=wrap if column.wrap else top, number_format=column.number_format)
        return cls(
            header=style("header", bold=True, background="D9D9D9", alignment=header_alignment),
            reviewer_header=style("reviewer header", bold=True, background="BDD7EE", alignment=header_alignment),
            title=style("title", bold=True, size=FONT_SIZE + 1),
            status={**{s: style(s, colour=fg, background=bg, alignment=top) for s, (bg, fg) in STATUS_COLOURS.items()},
                    UNCHECKED: style(UNCHECKED, colour=UNCHECKED_COLOURS[1], background=UNCHECKED_COLOURS[0],
                                     alignment=top)},
            severity={s: style(f"severity {s}", colour=fg, background=bg, alignment=top)
                      for s, (bg, fg) in SEVERITY_COLOURS.items()},
            column={c.name: body[(c.wrap, c.number_format)] for c in ALL_COLUMNS},
            wrap=style("wrapped", alignment=wrap),
            left=style("left", alignment=Alignment(horizontal="left", vertical="top")),
            highlight={name: InlineFont(rFont=FONT, sz=FONT_SIZE, color=colour, b=bold)
                       for name, (colour, bold) in HIGHLIGHTS.items()},
        )


def _print_setup(sheet, *, landscape: bool) -> None:
    """Print the sheet one page wide (its tables and chart would otherwise split across pages)."""
    sheet.sheet_properties.pageSetUpPr.fitToPage = True
    sheet.page_setup.fitToWidth = 1
    sheet.page_setup.fitToHeight = 0
    sheet.page_setup.orientation = "landscape" if landscape else "portrait"


# --- the Quotes sheet -----------------------------------------------------------------------------


def _text_lines(text: str, width: float) -> int:
    """Lines ``text`` takes when wrapped in a column ``width`` characters wide, roughly."""
    # Proportional text fits a little more than `width` characters per line.
    per_line = width * 1.15
    return sum(max(1, math.ceil(len(part) / per_line)) for part in text.split("\n"))


def _row_lines(result: QuoteResult, columns: tuple[Column, ...] = ALL_COLUMNS) -> int:
    """Lines the tallest wrapped cell of this row needs, capped at MAX_ROW_LINES.

    Rows get an explicit height because LibreOffice does not fit rows to wrapped
    text on opening, and a capped height keeps a 2,500-character quote from
    filling the screen.
    """
    tallest = 1
    for column in columns:
        if column.wrap and (text := column.value(result)):
            tallest = max(tallest, _text_lines(str(text), column.width))
            if tallest >= MAX_ROW_LINES:
                return MAX_ROW_LINES
    return tallest


def _extra_cell(name: str) -> Callable[[QuoteResult], Any]:
    """A cell of the quote table's own column ``name``, passed through."""
    return lambda result: result.extra.get(name, "")


def _quote_row(sheet, result: QuoteResult, styles: _Styles, columns: tuple[Column, ...] = ALL_COLUMNS) -> list:
    differences = shown_differences(result.differences)
    cells: list[Any] = []
    for column in columns:
        if column.name == "quote":
            value = _rich(result.quote, [(d.quote_text, d.kind) for d in differences], styles)
        elif column.name == "matched_text":
            value = _rich(result.matched_text, [(d.source_text, d.kind) for d in differences], styles)
        else:
            value = column.value(result)
        if (value is None or value == "") and column.name not in REVIEWER_COLUMNS:
            # An empty cell needs no style; skipping it saves a fifth of the time on large runs.
            # The reviewer's cells keep theirs so that what they type wraps.
            cells.append(None)
            continue
        if column.name == "status":
            style = styles.status.get(UNCHECKED if unchecked_claim(result) else result.status)
        elif column.name == "severity":
            style = styles.severity.get(result.severity)
        else:
            style = styles.column.get(column.name, styles.wrap)
        cells.append(_write_cell(sheet, value, style))
    return cells


def _write_quotes(sheet, results: list[QuoteResult], styles: _Styles) -> None:
    # openpyxl takes half a second to import; only workbooks need it.
    from openpyxl.utils import get_column_letter
    from openpyxl.worksheet.datavalidation import DataValidation

    columns = sheet_columns(results)
    letters = {c.name: get_column_letter(k) for k, c in enumerate(columns, start=1)}
    # Column widths and the frozen header must be set before the first row is streamed.
    for column in columns:
        dimension = sheet.column_dimensions[letters[column.name]]
        dimension.width = column.width
        dimension.hidden = column.name in HIDDEN_COLUMNS
    sheet.freeze_panes = FROZEN
    sheet.print_title_rows = "1:1"
    sheet.page_setup.orientation = "landscape"

    sheet.append([_write_cell(sheet, c.name, styles.reviewer_header if c.name in REVIEWER_COLUMNS else styles.header)
                  for c in columns])
    # Worst first; Python's sort is stable, so ties keep their input order.
    order = triage_order(results)
    for number, k in enumerate(order, start=2):
        result = results[k]
        lines = _row_lines(result, columns)
        if lines > 1:
            sheet.row_dimensions[number].height = lines * LINE_HEIGHT
        sheet.append(_quote_row(sheet, result, styles, columns))
        # The row is written; dropping its dimension keeps memory flat on large runs.
        sheet.row_dimensions.pop(number, None)

    last_row = len(results) + 1
    last_letter = get_column_letter(len(columns))
    sheet.auto_filter.ref = f"A1:{last_letter}{last_row}"
    validation = DataValidation(
        type="list", formula1='"' + ",".join(DECISIONS) + '"', allow_blank=True,
        showErrorMessage=True, errorTitle="decision",
        error=f"Choose one of: {', '.join(DECISIONS)}; or leave it empty.",
        showInputMessage=True, promptTitle="decision", prompt=", ".join(DECISIONS))
    validation.add(f"{letters['decision']}2:{letters['decision']}{max(last_row, 2)}")
    sheet.data_validations.append(validation)  # write-only sheets lack add_data_validation()


# --- the Summary sheet ----------------------------------------------------------------------------


def _status_rows(results: list[QuoteResult], statuses: dict[str, int]) -> list[list]:
    """The Summary's counts by status, then of the verified quotes whose claim was not checked, if any."""
    unchecked = Counter(unchecked_claim(r) for r in results)
    return ([[s, statuses[s]] for s in STATUSES] + [["total", len(results)]]
            + [[f"{UNCHECKED} ({what})", unchecked[what]] for what in ("document", "speaker") if unchecked[what]])


def _write_summary(sheet, results: list[QuoteResult], styles: _Styles) -> None:
    # openpyxl takes half a second to import; only workbooks need it.
    from openpyxl.chart import BarChart, Reference

    sheet.column_dimensions["A"].width = 30
    for letter in "BCDE":
        sheet.column_dimensions[letter].width = 12
    _print_setup(sheet, landscape=True)
    rows: list[list] = []

    def table(title: str, header: list[str], body: list[list]) -> int:
        """Append a titled table; returns the sheet row of its header."""
        rows.append([_write_cell(sheet, title, styles.title)])
        rows.append([_write_cell(sheet, h, styles.header) for h in header])
        header_row = len(rows)
        rows.extend([_write_cell(sheet, v) for v in line] for line in body)
        rows.append([])
        return header_row

    statuses = count_by_status(results)
    table("Quotes by status", ["status", "quotes"], _status_rows(results, statuses))
    severities = count_by_severity(results)
    table("Quotes in review by severity", ["severity", "quotes"],
          [[s, severities[s]] for s in SEVERITIES] + [["total", statuses["review"]]])
    match_types = Counter(r.match_type for r in results)
    table("Quotes by match type", ["match_type", "quotes"], [[m, match_types[m]] for m in MATCH_TYPES])
    per_document = count_by_document(results)
    documents = list(per_document)
    doc_header = table("Quotes per document (where found, else where claimed)",
                       ["document", *STATUSES, "total"],
                       [[d, *(per_document[d][s] for s in STATUSES), sum(per_document[d].values())]
                        for d in documents])
    for row in rows:
        sheet.append(row)

    if not documents:
        return
    chart = BarChart()
    chart.type = "bar"
    chart.grouping = "stacked"
    chart.overlap = 100
    chart.title = "Status per document"
    chart.y_axis.title = "quotes"
    # openpyxl 3.1 marks axes deleted by default; Excel then draws no labels.
    chart.x_axis.delete = False
    chart.y_axis.delete = False
    chart.x_axis.scaling.orientation = "maxMin"  # first document at the top, as in the table
    chart.y_axis.crosses = "max"  # and the counts axis, which would follow it to the top, at the bottom
    data = Reference(sheet, min_col=2, max_col=1 + len(STATUSES), min_row=doc_header,
                     max_row=doc_header + len(documents))
    chart.add_data(data, titles_from_data=True)
    chart.set_categories(Reference(sheet, min_col=1, min_row=doc_header + 1, max_row=doc_header + len(documents)))
    for series, status in zip(chart.series, STATUSES):
        series.graphicalProperties.solidFill = CHART_COLOURS[status]
        series.graphicalProperties.line.solidFill = CHART_COLOURS[status]
    chart.width = 18
    chart.height = min(max(7.5, 2.5 + 0.5 * len(documents)), 120)
    sheet.add_chart(chart, "G2")


# --- the Method sheet -----------------------------------------------------------------------------

METHOD_WIDTH = 70


def _write_method(sheet, results: list[QuoteResult], run, styles: _Styles) -> None:
    sheet.column_dimensions["A"].width = 28
    sheet.column_dimensions["B"].width = METHOD_WIDTH
    sheet.column_dimensions["C"].width = 14
    _print_setup(sheet, landscape=False)
    written = 0

    def line(*values: Any, style: str | None = None) -> None:
        nonlocal written
        style = style or styles.left
        written += 1
        if len(values) > 1 and isinstance(values[1], str):
            lines = _text_lines(values[1], METHOD_WIDTH)
            if lines > 1:
                sheet.row_dimensions[written].height = lines * LINE_HEIGHT
        sheet.append([_write_cell(sheet, v, style) for v in values])

    line("Method", style=styles.title)
    line("quoteverify version", __version__)
    line("quotes", len(results))
    if run is None:
        line("run", "written from results alone: settings and model are not known")
    else:
        line("embedding model", run.embedder or "none (embeddings disabled; lexical evidence only)")
        line("windows indexed", run.windows)
    line()

    if run is not None:
        line("Settings", style=styles.title)
        line("setting", "value", style=styles.header)
        for section, values in run.config.as_dict().items():
            for key, value in values.items():
                line(f"{section}.{key}", value if isinstance(value, (int, float)) else str(value))
        line()

    line("Input documents", style=styles.title)
    line("document", "sha256", "characters", style=styles.header)
    if run is not None:
        for document in run.documents:
            line(document.doc_id, document.sha256, len(document.text))
    else:
        # Without the run, the located quotes still name their documents and hashes.
        seen = {(r.document, r.document_sha256) for r in results if r.document}
        for doc_id, sha256 in sorted(seen):
            line(doc_id, sha256)


# --- the Guide sheet ------------------------------------------------------------------------------

GUIDE_WIDTHS = (16, 46, 46, 46)
# The workbook's own columns and marks, after the guide shared with the page and the README.
WORKBOOK_NOTES = (
    ("Quotes", "One row per quote, worst first. Read quote and matched_text (the source passage), status, "
               "severity and reasons; choose a decision and write a reviewer_note. The id and the quote stay in "
               "view as you scroll. Scores and offsets are at the far right. Sort and filter freely."),
    ("read it back", "quoteverify review results.xlsx -o reviewed.csv lists the decisions; running verify again "
                     "with -o results.xlsx (or --previous results.xlsx) carries them to the next run."),
    ("fingerprint", "A hidden column: a hash of each quote and where it was found, so that a decision is carried "
                    "only to an unchanged quote."),
    ("truncation", f"Cells are cut at Excel's {MAX_CELL:,}-character limit, marked '{TRUNCATED.strip()}'."),
)


def _write_guide(sheet, styles: _Styles) -> None:
    """The first sheet: what the statuses, severities, colours and decisions mean, as the page and README say."""
    # openpyxl takes half a second to import; only workbooks need it.
    from openpyxl.cell.rich_text import CellRichText, TextBlock

    for letter, width in zip("ABCD", GUIDE_WIDTHS):
        sheet.column_dimensions[letter].width = width
    _print_setup(sheet, landscape=True)
    rows: list[list] = []

    def row(*cells: Any, style: str | None = None, styled: dict[int, str | None] | None = None) -> None:
        widest = max((_text_lines(str(v), GUIDE_WIDTHS[k]) for k, v in enumerate(cells) if v), default=1)
        if widest > 1:
            sheet.row_dimensions[len(rows) + 1].height = widest * LINE_HEIGHT
        rows.append([_write_cell(sheet, v, (styled or {}).get(k, style or styles.wrap)) for k, v in enumerate(cells)])

    row("How to read this workbook", style=styles.title)
    for term, meaning in WORKBOOK_NOTES:
        row(term, meaning)
    row()
    row("status", "meaning", style=styles.header)
    for status in STATUSES:
        row(status, guide.STATUS_MEANING[status], styled={0: styles.status[status]})
    row()
    row("severity", "meaning", style=styles.header)
    for severity in SEVERITIES:
        row(severity, guide.SEVERITY_MEANING[severity], styled={0: styles.severity[severity]})
    row("", guide.SEVERITY_NOTE)
    row()
    row("colour", "of", "means", style=styles.header)
    weights = {"bold red": "load-bearing", "bold orange": "changed", "blue": "benign"}
    for what, colour, meaning in guide.COLOURS:
        sample = (CellRichText([TextBlock(styles.highlight[weights[colour]], colour)]) if colour in weights
                  else colour)
        # A status's or severity's sample cell wears its colours, as on the Quotes sheet.
        worn = styles.status.get(meaning.split(":")[0]) or styles.severity.get(meaning) or styles.wrap
        row(sample, what, meaning, styled={0: worn})
    row()
    row("decision", *(f"for a quote in {s}" for s in guide.DECISION_STATUSES), style=styles.header)
    for decision in DECISIONS:
        row(decision, *(guide.DECISION_MEANING[decision][s] for s in guide.DECISION_STATUSES))
    row("", guide.DECISION_NOTE)
    for cells in rows:
        sheet.append(cells)


def _write_findings(sheet, findings: tuple[Finding, ...], styles: _Styles) -> None:
    # openpyxl takes half a second to import; only a workbook needs it.
    from openpyxl.utils import get_column_letter

    for number, name in enumerate(FINDING_COLUMNS, start=1):
        sheet.column_dimensions[get_column_letter(number)].width = FINDINGS_WIDTHS.get(name, len(name) + 4)
    sheet.freeze_panes = "A2"
    sheet.append([_write_cell(sheet, name, styles.header) for name in FINDING_COLUMNS])
    for finding in findings:
        row = finding.to_dict()
        sheet.append([_write_cell(sheet, row[name], styles.wrap if isinstance(row[name], str) else None)
                      for name in FINDING_COLUMNS])
    sheet.auto_filter.ref = f"A1:{get_column_letter(len(FINDING_COLUMNS))}{len(findings) + 1}"
