"""Quote tables in: ``.csv``, ``.tsv``, ``.xlsx``, ``.jsonl`` or ``.txt`` (one quote per line), a REFI-QDA
project's codings, or quotes given in Python (a DataFrame, strings, dicts, Quote objects). Every row is
kept, with its row number as a spreadsheet shows it; columns are found by name (COLUMN_ALIASES) or as
the config's ``columns:`` block names them.
"""
from __future__ import annotations

import io
import json
import math
import os
import re
import zipfile
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Union

from ..model.decoders import SHOWN, DecodeError, csv_rows, cut, decode_text, json_loads, shown
from ..model.errors import InputError, option
from ..model.rows import spreadsheet_unsafe
from ..model.text import plural
from ..model.types import Quote
from ..plumbing.archive import ArchiveLimits, check_archive, check_columns, is_xml_bomb
from .documents import not_a_file, refuse_too_long, sha256_bytes
from .formats import LINE_BREAK, PROJECT_SUFFIX, QUOTE_SUFFIXES
from .qdpx import read_qdpx
from .turns import Turns, label_of, speaker_key

if TYPE_CHECKING:
    import pandas as pd

COLUMN_ALIASES = {
    "quote": ("quote", "text", "quotation", "quote_text", "content", "excerpt"),
    "quote_id": ("quote_id", "id", "qid"),
    "document": ("document", "source", "doc", "doc_id", "claimed_document", "source_document", "transcript"),
    "speaker": ("speaker", "participant", "claimed_speaker"),
    "finding": ("finding", "theme", "claim", "tag", "code"),
    "finding_confidence": ("finding_confidence",),
    "language": ("language", "lang"),
}
# The option naming each column that can be named (the config's ``columns:`` block has the same keys).
def sheet_option() -> str:
    """How the user picks a workbook's sheet: --sheet on the command line, load_quotes(sheet=...) in Python."""
    return option("--sheet", "load_quotes(..., sheet=NAME)")


COLUMN_OPTIONS = {"quote": "--quote-col", "quote_id": "--id-col", "document": "--doc-col",
                  "speaker": "--speaker-col", "finding": "--finding-col"}




@dataclass(frozen=True)
class LoadedQuotes:
    quotes: tuple[Quote, ...]
    columns: tuple[str, ...]
    sha256: str
    warnings: tuple[str, ...] = ()
    used: tuple[tuple[str, str | None], ...] = ()  # (field, the table's column read for it, or None)
    info: str = ""  # how the table was read, for the user (a QDA project's position convention)
    path: str = ""  # the table's file, as given; empty for quotes given in Python

    @property
    def unread_columns(self) -> tuple[str, ...]:
        """Columns of the table read as no field: they go to the outputs as they are."""
        named = {column for _, column in self.used if column is not None}
        return tuple(c for c in self.columns if c not in named)

    def describe_columns(self) -> str:
        """One line saying which of the table's columns were read as what, for the user to check."""
        parts = [f"{name} = {column!r}" if column else f"{name} = (none)" for name, column in self.used
                 if column or name in COLUMN_OPTIONS]
        others = self.unread_columns
        return ("Columns: " + ", ".join(parts)
                + (f"; kept as they are: {', '.join(map(repr, others))}" if others else ""))
















def _key(name: Any) -> str:
    """A column name as compared: "Quote Text", "quote-text" and "quote_text" are one name."""
    return re.sub(r"[\s_-]+", "_", str(name).strip().lower())


def _find_column(header: list[str], name: str) -> str | None:
    lowered: dict[str, str] = {}
    for h in header:
        if h is not None:
            lowered.setdefault(_key(h), h)
    for alias in COLUMN_ALIASES[name]:
        if alias in lowered:
            return lowered[alias]
    return None


def _named_column(header: list[str], given: str, name: str, source: str) -> str:
    """The header's column the user named for ``name``: exactly, else ignoring case, spaces and underscores."""
    if given in header:
        return given
    matches = [h for h in header if h is not None and _key(h) == _key(given)]
    if len(matches) == 1:
        return matches[0]
    raise InputError(f"{source}: no column {shown(given)} (named with {column_option(name)}); found columns: "
                     f"{_listed(header)}")


def column_option(name: str) -> str:
    """How the user names the column of field ``name``: --quote-col on the command line, the config's
    columns.quote in Python."""
    return option(COLUMN_OPTIONS[name], f"the config's columns.{name}")


# Columns a message lists of a header: the first few, each cut short (a header may be a whole file's first line).
COLUMNS_LISTED = 20


def _listed(header: list[str]) -> str:
    more = f" and {len(header) - COLUMNS_LISTED} more" if len(header) > COLUMNS_LISTED else ""
    return (", ".join(shown(h) for h in header[:COLUMNS_LISTED]) or "none") + more


def resolve_columns(header: list[str], source: str, columns: Mapping[str, str] | None = None
                    ) -> dict[str, str | None]:
    """The table's column for each field: the one named in ``columns`` (field -> column name; empty
    means look for the usual names), else the first of COLUMN_ALIASES' names the header has."""
    given = {k: v for k, v in (columns or {}).items() if v}
    unknown = sorted(set(given) - set(COLUMN_OPTIONS))
    if unknown:
        raise InputError(f"unknown column field(s) {', '.join(unknown)}; name {', '.join(COLUMN_OPTIONS)}")
    found = {name: _named_column(header, given[name], name, source) if name in given
             else _find_column(header, name) for name in COLUMN_ALIASES}
    taken: dict[str, str] = {}
    for name, column in found.items():
        if column is not None and name in given:
            taken[column] = name
    for name, column in found.items():
        # A column named for one field is not also read, by its usual name, as another.
        if column is not None and name not in given and column in taken:
            found[name] = None
    if found["quote"] is None:
        listed = _listed(header)
        raise InputError(f"{source}: no quote column (looked for {', '.join(COLUMN_ALIASES['quote'])}); "
                         f"found columns: {listed}; name it with {column_option('quote')}")
    return found


def _cell_text(value: Any) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):  # NaN: pandas' empty cell
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (dict, list)):  # a JSONL field holding an object or a list
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def _column_names(header: Iterable[Any]) -> list[str]:
    """Header cells as column names: an empty one named by its position, a repeated one numbered,
    so that no cell is lost to another of the same name."""
    names: list[str] = []
    for number, cell in enumerate(header, start=1):
        name = _cell_text(cell) if _cell_text(cell).strip() else f"column {number}"
        base, k = name, 1
        while name in names:
            k += 1
            name = f"{base} ({k})"
        names.append(name)
    return names


def _finding_confidence(value: Any, source: str, row: int) -> float | None:
    """The stated confidence in a quote's finding (0 to 1); None when the cell is empty."""
    text = _cell_text(value).strip()
    if not text:
        return None
    try:
        number = float(text)
    except ValueError:
        number = math.nan
    if not 0.0 <= number <= 1.0:  # NaN fails too
        raise InputError(f"{source}: row {row}: finding_confidence {shown(text)} is not a number from 0 to 1; "
                         "write it as, say, 0.8, or leave the cell empty (1 is then assumed)")
    return number


def quotes_from_records(records: Iterable[tuple[int, dict[str, Any]]], header: list[str],
                        source: str, *, problems: Mapping[int, str] | None = None,
                        columns: Mapping[str, str] | None = None, limits: ArchiveLimits | None = None
                        ) -> tuple[list[Quote], list[str]]:
    """Quotes from (row number, record) pairs; every record yields one quote.

    ``problems``: rows that cannot be checked as read (row number -> why); they
    are kept, unverified, with that reason. ``columns``: as for resolve_columns.
    ``limits``: more records than limits.max_quotes stop the reading with an
    InputError, before memory runs out; a quote longer than
    limits.max_quote_chars is kept, unverified, with the reason."""
    cols = resolve_columns(header, source, columns)
    quote_col = cols["quote"]
    used = {c for c in cols.values() if c is not None}
    quotes: list[Quote] = []
    warnings: list[str] = []
    ids: dict[str, int] = {}
    for row, record in records:
        if limits is not None and len(quotes) >= limits.max_quotes:
            raise InputError(f"{source}: refused: more than {limits.max_quotes:,} quotes (limits.max_quotes in "
                             "--config; each needs some 17 KB of memory while checked); split the table, or raise "
                             "the limit")
        text = _cell_text(record.get(quote_col) if quote_col is not None else None)
        qid = _cell_text(record.get(cols["quote_id"])).strip() if cols["quote_id"] else ""
        qid = qid or f"row{row}"
        if qid in ids:
            new_id = qid
            while new_id in ids:  # the new id must not be taken either ("q1#2" given later)
                ids[qid] += 1
                new_id = f"{qid}#{ids[qid]}"
            warnings.append(f"{source}: row {row}: duplicate quote_id '{cut(qid, SHOWN)}' renamed "
                            f"'{cut(new_id, SHOWN)}'")
            qid = new_id
        ids[qid] = ids.get(qid, 1)
        extra = tuple((str(k), _cell_text(v)) for k, v in record.items() if k not in used and k is not None)
        problem = (problems or {}).get(row) or ("" if text.strip() else "empty quote: nothing to verify")
        if limits is not None and len(text) > limits.max_quote_chars and not problem:
            problem = (f"a quote of {len(text):,} characters, more than limits.max_quote_chars "
                       f"({limits.max_quote_chars:,}): not checked; split it into quotes of its own")
        quotes.append(Quote(
            row=row, quote_id=qid, text=text,
            claimed_document=_cell_text(record.get(cols["document"])).strip() if cols["document"] else "",
            speaker=_cell_text(record.get(cols["speaker"])).strip() if cols["speaker"] else "",
            finding=_cell_text(record.get(cols["finding"])).strip() if cols["finding"] else "",
            extra=extra, problem=problem,
            finding_confidence=_finding_confidence(record.get(cols["finding_confidence"]), source, row)
            if cols["finding_confidence"] else None,
            language=_cell_text(record.get(cols["language"])).strip() if cols["language"] else ""))
    return quotes, warnings


def _delimiter(path: Path, text: str) -> str:
    """A .tsv's tab; a .csv's comma, or the ';', tab or '|' its header line uses instead."""
    if path.suffix.lower() == ".tsv":
        return "\t"
    first = LINE_BREAK.split(text.lstrip("\r\n"), 1)[0]
    if first.count(",") == 0:
        return next((candidate for candidate in (";", "\t", "|") if candidate in first), ",")
    return ","


def _csv_records(path: Path, text: str, limits: ArchiveLimits
                 ) -> tuple[list[str], Iterator[tuple[int, dict[str, Any]]], dict[int, str]]:
    """The header, the records (read as they are taken, so that only the quotes made of them are kept) and
    the rows that cannot be checked as read, filled in as the records are taken."""
    delimiter = _delimiter(path, text)
    rows = csv_rows(text, source=path, delimiter=delimiter, max_columns=limits.max_columns)
    # The header is the first row that is not blank.
    header_row, first = next(((n, cells) for n, _, cells in rows if any(v.strip() for v in cells)), (0, []))
    if not first:
        raise InputError(f"{path}: empty quote table; it needs a header row with a 'quote' column")
    # A cell that the CSV writer of quoteverify (extract -o quotes.csv) kept from running as a formula reads
    # as the text it was.
    header = _column_names(map(spreadsheet_unsafe, first))
    problems: dict[int, str] = {}

    def records() -> Iterator[tuple[int, dict[str, Any]]]:
        for row, _, values in rows:
            if not any(values):  # a blank line, or a row of empty cells: no quote at all
                continue
            if any(v.strip() for v in values[len(header):]):
                # Cells past the header: most often a quote holding the delimiter without double quotes,
                # which cut it short. Checking the cut quote could "verify" it.
                problems[row] = (f"row has {len(values)} cells but the header has {len(header)} columns; "
                                 f"a cell holding {delimiter!r} must be in double quotes")
            yield row, dict(zip(header, map(spreadsheet_unsafe, values)))

    return header, records(), problems


def _row_warnings(path: Path, problems: Mapping[int, str]) -> list[str]:
    """One warning for the rows that cannot be checked as read (they are reported unverified, with the reason)."""
    if not problems:
        return []
    if path.suffix.lower() == ".xlsx":
        return [f"{path}: {len(problems)} quote cell(s) are formulas with no value saved (first: row "
                f"{min(problems)}); they are reported unverified, not checked"]
    return [f"{path}: {len(problems)} row(s) have more cells than the header has columns "
            f"(first: row {min(problems)}); they are reported unverified, not checked"]


def _xlsx_error(path: Path, exc: BaseException) -> InputError:
    if is_xml_bomb(exc):
        return InputError(f"{path}: refused: its XML declares entities or a DTD, as XML bombs do; "
                          "open it in Excel and save it again, or export the sheet as CSV")
    reason = " ".join(str(exc).split())  # openpyxl's messages span lines
    return InputError(f"{path}: not a readable .xlsx workbook ({type(exc).__name__}: {reason}); "
                      "open it in Excel and save it again, or export the sheet as CSV")


def _open_workbook(path: Path, data: bytes, limits: ArchiveLimits, *, values: bool = True):
    """The workbook, read-only, once it is known to be a zip that openpyxl parses with defusedxml: each cell
    as the value Excel last saved for it (``values``), or a formula cell as its formula."""
    # openpyxl takes half a second to import; only workbooks need it.
    import openpyxl

    if not data.startswith(b"PK"):
        if data.startswith(b"\xd0\xcf\x11\xe0"):
            raise InputError(f"{path}: an old-style Excel file (.xls) named .xlsx; save it as .xlsx in Excel")
        if b"\x00" not in data[:8192]:
            raise InputError(f"{path}: is text, not an .xlsx workbook; if it is a CSV, rename it to .csv")
    if not openpyxl.DEFUSEDXML:
        raise InputError(f"{path}: not read: OPENPYXL_DEFUSEDXML=False turns off openpyxl's protection against "
                         "hostile XML; unset it")
    check_archive(path, data, limits)
    try:
        return openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=values)
    except InputError:
        raise
    except Exception as exc:  # openpyxl raises many types for damaged or hostile files
        raise _xlsx_error(path, exc) from None


def _sheet(path: Path, book, sheet: str | None):
    """The worksheet to read: the first, or the one named."""
    if sheet is None and not book.worksheets:
        raise InputError(f"{path}: no worksheet in this workbook, only charts")
    ws = book.worksheets[0] if sheet is None else book[sheet] if sheet in book.sheetnames else None
    if ws is None:
        raise InputError(f"{path}: no sheet named '{sheet}'; sheets: {', '.join(book.sheetnames)}")
    if not hasattr(ws, "iter_rows"):
        raise InputError(f"{path}: sheet '{sheet}' is a chart, not a table; "
                         f"choose another with {sheet_option()} (sheets: {', '.join(book.sheetnames)})")
    # Rows as wide as their cells, not as the sheet's <dimension> claims (16,384 columns of nothing).
    ws.reset_dimensions()
    return ws


def _xlsx_records(path: Path, data: bytes, sheet: str | None, columns: Mapping[str, str] | None = None, *,
                  limits: ArchiveLimits) -> tuple[list[str], list[tuple[int, dict[str, Any]]], dict[int, str]]:
    """The header, the records (each formula cell as the value Excel saved for it) and the rows whose quote is
    a formula with no value saved."""
    book = _open_workbook(path, data, limits)
    try:
        ws = _sheet(path, book, sheet)
        formulas = _unsaved_formulas(path, data, ws.title, limits)
        # Sheets are parsed lazily, so a damaged or hostile sheet fails here, not on opening.
        rows = enumerate(_capped(path, ws.iter_rows(values_only=True), limits), start=1)
        header_row, first = next(((n, values) for n, values in rows
                                  if any(v is not None and str(v).strip() for v in values)), (0, ()))
        header = _column_names(first)
        named = (columns or {}).get("quote")
        if (_find_column(header, "quote") is None and not (named and any(_key(h) == _key(named) for h in header))
                and len(book.sheetnames) > 1):
            others = ", ".join(f"'{name}'" for name in book.sheetnames if name != ws.title)
            raise InputError(f"{path}: sheet '{ws.title}' has no quote column (looked for "
                             f"{', '.join(COLUMN_ALIASES['quote'])}; found {_listed(header)}); "
                             f"other sheets: {others}; choose one with {sheet_option()}")
        records = []
        for number, values in rows:
            # A blank row; a cell of spaces is an empty quote, and a formula without its value is not nothing.
            if all(v is None or v == "" for v in values) and number not in formulas:
                continue
            record = dict(zip(header, values))
            # Cells right of the header's last column are kept, named by position.
            record.update((f"column {n}", v) for n, v in enumerate(values[len(header):], start=len(header) + 1)
                          if v is not None and str(v).strip())
            records.append((number, record))
    except InputError:
        raise
    except Exception as exc:
        raise _xlsx_error(path, exc) from None
    finally:
        book.close()
    return header, records, _formula_problems(path, header, records, formulas, columns)


# A formula element in a worksheet's XML (<f>, <f t="shared" ...>, or with a namespace prefix).
_FORMULA = re.compile(rb"<(?:\w+:)?f[\s>/]")


def _unsaved_formulas(path: Path, data: bytes, title: str, limits: ArchiveLimits) -> dict[int, dict[int, str]]:
    """Row -> column index -> formula, for the cells that hold a formula with no value saved (the file was not
    saved by a program that computes them). Read a second time only when the workbook has formulas at all."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        if not any(_FORMULA.search(archive.read(m)) for m in archive.namelist() if m.startswith("xl/worksheets/")):
            return {}
    saved = _open_workbook(path, data, limits)
    book = _open_workbook(path, data, limits, values=False)
    try:
        pairs = zip(_sheet(path, saved, title).iter_rows(values_only=True),
                    _capped(path, _sheet(path, book, title).iter_rows(values_only=True), limits))
        found: dict[int, dict[int, str]] = {}
        for number, (values, cells) in enumerate(pairs, start=1):
            unsaved = {k: cell for k, (value, cell) in enumerate(zip(values, cells))
                       if value is None and isinstance(cell, str) and cell.startswith("=")}
            if unsaved:
                found[number] = unsaved
        return found
    finally:
        book.close()
        saved.close()


def _formula_problems(path: Path, header: list[str], records: list[tuple[int, dict[str, Any]]],
                      formulas: Mapping[int, Mapping[int, str]], columns: Mapping[str, str] | None) -> dict[int, str]:
    """Why each row whose quote cell is an unsaved formula cannot be checked: it would be an empty quote."""
    if not formulas:
        return {}
    index = header.index(resolve_columns(header, str(path), columns)["quote"] or "")
    return {n: f"cell {_column_letter(index)}{n} holds the formula {formulas[n][index][:60]} and no value saved for it "
               "(the file was not saved by a program that computes formulas); open it in Excel and save it, or "
               "paste the values" for n, _ in records if index in formulas.get(n, {})}


def _column_letter(index: int) -> str:
    """The spreadsheet name of the column at 0-based ``index``: A, B, ..., Z, AA, ..."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def _capped(path: Path, rows: Iterable[tuple], limits: ArchiveLimits) -> Iterator[tuple]:
    for number, values in enumerate(rows, start=1):
        check_columns(path, number, len(values), limits)
        yield values


def _jsonl_records(path: Path, text: str, limits: ArchiveLimits
                   ) -> tuple[list[str], list[tuple[int, dict[str, Any]]]]:
    header: dict[str, None] = {}  # every key of every record, in the order first seen
    records = []
    for number, line in enumerate(LINE_BREAK.split(text), start=1):
        if not line.strip():
            continue
        try:
            record = json_loads(line)
        except DecodeError as exc:
            raise InputError(f"{path}: line {number}: not valid JSON ({exc}); one JSON object per line") from None
        if not isinstance(record, dict):
            raise InputError(f"{path}: line {number}: expected a JSON object with a 'quote' field")
        check_columns(path, number, len(record), limits)
        header.update(dict.fromkeys(record))
        records.append((number, record))
    return list(header), records


def _has_quote_column(text: str, columns: Mapping[str, str] | None) -> bool:
    """Whether the first line of a CSV names a quote column, whatever its delimiter and quoting."""
    if (columns or {}).get("quote"):
        return True
    first = LINE_BREAK.split(text.lstrip("\r\n"), 1)[0]
    return _find_column([cell.strip().strip('"') for cell in re.split(r"[,;\t|]", first)], "quote") is not None


def _transcript_reason(text: str, *, header_found: bool) -> str | None:
    """Why a would-be quote table reads as a transcript (the quote table forgotten on the command line,
    so the last transcript took its place), or None."""
    lines = [line for line in LINE_BREAK.split(text) if line.strip()][:500]
    labelled = sum(1 for line in lines if label_of(line) is not None)
    if len(lines) >= 2 and labelled >= max(2, len(lines) / 2):
        return f"speaker labels open {labelled} of its {len(lines)} lines"
    if not header_found and lines and len(lines[0].split()) >= 6:
        return "its first line is a sentence, not column names"
    return None


def load_quotes(path: str | Path, *, sheet: str | None = None, columns: Mapping[str, str] | None = None,
                limits: ArchiveLimits | None = None) -> LoadedQuotes:
    """Read a quote table; column names are matched case-insensitively.

    ``columns``: the table's column for any of quote, quote_id, document,
    speaker, finding (the --quote-col ... options); the others are found by
    their usual names. ``limits``: what an .xlsx may cost to read (default:
    the config's)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if path.is_dir():
        raise InputError(f"{path}: is a folder; the last argument must be the quote table "
                         f"({', '.join(QUOTE_SUFFIXES)})")
    if not path.is_file() and (path.exists() or os.path.islink(path)):
        raise InputError(not_a_file(path, "the quote table"))
    if suffix not in QUOTE_SUFFIXES:
        raise InputError(f"{path}: unsupported quote table type '{path.suffix}'; use {', '.join(QUOTE_SUFFIXES)}")
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise InputError(f"{path}: no such quote table") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot be read ({exc.strerror}); check its permissions") from None
    limits = limits or ArchiveLimits.of()
    if suffix == PROJECT_SUFFIX:
        project = read_qdpx(path, limits=limits)
        return LoadedQuotes(project.quotes, ("qda_guid", "codes", "memo"), sha256_bytes(data),
                            project.warnings, info=project.convention)
    if sheet is not None and suffix != ".xlsx":
        raise InputError(f"{path}: {sheet_option()} '{sheet}' is for .xlsx quote tables; leave it out for a {suffix} "
                         "file")
    sha256 = sha256_bytes(data)
    warnings: list[str] = []
    problems: dict[int, str] = {}
    records: Iterable[tuple[int, dict[str, Any]]]
    if suffix == ".xlsx":
        header, records, problems = _xlsx_records(path, data, sheet, columns, limits=limits)
    else:
        header, records, problems = _text_records(path, data, columns, limits, warnings)
    del data  # the records hold what is needed of it; a table's bytes need not stay as long as its quotes
    quotes, more = quotes_from_records(records, header, str(path), problems=problems, columns=columns,
                                       limits=limits)
    if not quotes:
        more.append(f"{path}: has a header row but no quotes under it; nothing to check (is it the right file"
                    f"{', or the right sheet' if suffix == '.xlsx' else ''}?)")
    used = tuple(resolve_columns(header, str(path), columns).items()) if suffix != ".txt" else ()
    return LoadedQuotes(tuple(quotes), tuple(header), sha256, tuple(warnings + more + _row_warnings(path, problems)),
                        used, path=str(path))


def _text_records(path: Path, data: bytes, columns: Mapping[str, str] | None, limits: ArchiveLimits,
                  warnings: list[str]) -> tuple[list[str], Iterable[tuple[int, dict[str, Any]]], dict[int, str]]:
    """The header, records and unreadable rows of a .csv, .tsv, .jsonl or .txt quote table."""
    suffix = path.suffix.lower()
    text, _ = decode_text(path, data, warnings)
    text = text.removeprefix("\ufeff")
    if len(text) > limits.max_document_chars:
        refuse_too_long(path, limits)
    if (suffix == ".txt" or (suffix in (".csv", ".tsv") and not _has_quote_column(text, columns))) and (
            reason := _transcript_reason(text, header_found=suffix == ".txt")) is not None:
        hint = "; a list of quotes that open with speaker labels goes in a CSV with a quote column" if (
            suffix == ".txt") else ""
        raise InputError(f"{path}: looks like a transcript ({reason}), not a quote table; give the quote "
                         f"table last: quoteverify verify DOCS... QUOTES{hint}")
    if suffix in (".csv", ".tsv"):
        return _csv_records(path, text, limits)
    if suffix == ".jsonl":
        return (*_jsonl_records(path, text, limits), {})
    lines = ((n, {"quote": line}) for n, line in enumerate(LINE_BREAK.split(text), start=1) if line.strip())
    return ["quote"], lines, {}


def _name_key(name: str) -> str:
    # "Interview 01", "interview_01" and "INTERVIEW-01" are one name, as QDA programs and file names differ.
    return re.sub(r"[\s_-]+", "-", name.strip().casefold())


def _claim_keys(claimed: str) -> set[str]:
    """What a claimed document may be written as: with a folder, an extension, in another case."""
    name = claimed.replace("\\", "/").rsplit("/", 1)[-1].strip()
    stem, dot, suffix = name.rpartition(".")
    return {_name_key(name), _name_key(stem)} if dot and stem and suffix.isalnum() else {_name_key(name)}


# A claimed document (or speaker) column more than half of whose names name nothing, when they are this many at
# least, stops the run: the table names its documents its own way, so no quote's claim would be checked.
NAMING_NOTHING_MIN = 3
NAMES_SHOWN = 3


@dataclass(frozen=True)
class Claims:
    """Quotes with their claimed documents as document ids, and what the run says of the claims that name none."""

    quotes: list[Quote]
    warnings: list[str]


def check_claims(quotes: Iterable[Quote], doc_ids: Iterable[str], *, column: str | None = None,
                 source: str = "") -> Claims:
    """Claimed documents as document ids: ``interview-01.txt``, ``Interview-01`` or ``Interview 01.docx``
    names the document ``interview-01``. A claim that could name several is an error; one that names none is
    noted (its quote searched everywhere) and counted in a warning. When most of the claims of the table
    ``source``'s ``column`` name none (``naming_nothing``), the run stops before any quote is checked."""
    known = set(doc_ids)
    by_key: dict[str, list[str]] = {}
    for doc_id in sorted(known):
        by_key.setdefault(_name_key(doc_id), []).append(doc_id)
    checked, unknown = [], []
    for quote in quotes:
        claimed = quote.claimed_document
        if claimed and claimed not in known:
            candidates = sorted({d for key in _claim_keys(claimed) for d in by_key.get(key, ())})
            if len(candidates) > 1:
                raise InputError(f"row {quote.row} (quote_id {cut(quote.quote_id, SHOWN)}): document {shown(claimed)} "
                                 f"could be any of {', '.join(candidates)}; write the document id exactly "
                                 "(its file name without the extension)")
            if candidates:
                quote = replace(quote, claimed_document=candidates[0])
            else:
                note = (f"claimed document '{claimed}' is not among the documents; searched all, so which document "
                        "it comes from was not checked")
                quote = replace(quote, notes=quote.notes + (note,))
                unknown.append(quote)
        checked.append(quote)
    if column and source:  # the quotes that can be checked: an empty row's claim says nothing of the column
        naming_nothing([q for q in unknown if not q.problem], [q for q in checked if q.claimed_document and not
                       q.problem], [q.claimed_document for q in unknown], sorted(known), what="document",
                       column=column, source=source)
    return Claims(checked, [naming_nothing_said([q.claimed_document for q in unknown])] if unknown else [])


def naming_nothing(unknown: Sequence[Quote], claims: Sequence[Quote], names: Sequence[str], named: Sequence[str], *,
                   what: str, column: str, source: str) -> None:
    """Stop (InputError) when most of the ``claims`` of a column name no ``what`` (document or speaker), and they
    are NAMING_NOTHING_MIN at least: ``unknown`` those that name none, ``names`` what they name, ``named`` what
    the documents hold."""
    if len(unknown) < NAMING_NOTHING_MIN or 2 * len(unknown) <= len(claims):
        return
    some = _some(names)
    holding = ", ".join(cut(name, SHOWN) for name in named[:2 * NAMES_SHOWN]) + (
        ", ..." if len(named) > 2 * NAMES_SHOWN else "")
    if what == "document":
        missing, there, fix = ("a document that is not among the documents", f"the documents are {holding}",
                               "their ids (file names without the extension)")
        option_name = option("--doc-col", "the config's columns.document")
    else:
        missing, there, fix = ("a speaker who is not among the documents' speakers",
                               f"the speakers there are {holding}", "the speakers as the documents name them")
        option_name = option("--speaker-col", "the config's columns.speaker")
    raise InputError(f"{source}: {len(unknown)} of {len(claims)} quotes name {missing} ({some}) in column "
                     f"'{column}'; {there}; write {fix} there, leave the column empty, or name another column with "
                     f"{option_name}")


def speaker_claims(quotes: Sequence[Quote], turns: Callable[[], Sequence[Turns]], *, column: str | None = None,
                   source: str = "") -> list[str]:
    """What the run says of the quotes whose claimed speaker speaks in none of the documents (``turns``: each
    document's, asked only when a quote claims a speaker); when most of the table ``source``'s ``column`` name
    none, the run stops (``naming_nothing``). Nothing when no document has speaker labels: the run's label
    warnings say the claims cannot be checked."""
    claims = [q for q in quotes if not q.problem and speaker_key(q.speaker)]
    if not claims:
        return []
    labelled = [t for t in turns() if t.names()]
    if not labelled:
        return []
    nobody: dict[str, bool] = {}
    for quote in claims:
        if quote.speaker not in nobody:
            nobody[quote.speaker] = not any(t.keys_of(quote.speaker) for t in labelled)
    unknown = [q for q in claims if nobody[q.speaker]]
    if not unknown:
        return []
    speakers = list(dict.fromkeys(name for t in labelled for name in t.names()))
    if column and source:
        naming_nothing(unknown, claims, [q.speaker for q in unknown], speakers, what="speaker", column=column,
                       source=source)
    one = len(unknown) == 1
    return [f"{plural(len(unknown), 'quote')} {'names' if one else 'name'} a speaker who is not among the documents' "
            f"speakers, e.g. {_some(q.speaker for q in unknown)}; no place where {'it is' if one else 'they are'} "
            "found is a turn of the speaker named"]


def naming_nothing_said(claimed: Sequence[str]) -> str:
    """What a run says of the quotes whose claimed documents (``claimed``, one per quote) are none of the
    documents: on the screen as it reads them, and again with its summary."""
    one = len(claimed) == 1
    return (f"{plural(len(claimed), 'quote')} {'names' if one else 'name'} a document that is not among the "
            f"documents, e.g. {_some(claimed)}; {'it was' if one else 'they were'} searched in all, so which document "
            f"{'it comes' if one else 'they come'} from was not checked")


def _some(names: Iterable[str]) -> str:
    """The first NAMES_SHOWN of ``names``, each once, quoted."""
    return ", ".join(f"'{cut(name, SHOWN)}'" for name in list(dict.fromkeys(names))[:NAMES_SHOWN])


def _frame_records(frame: Any) -> tuple[list[str], list[tuple[int, dict[str, Any]]]]:
    """A pandas DataFrame's rows as records, numbered from 1 in their order (its index may be anything)."""
    # pandas takes a second to import; only DataFrames need it.
    import pandas as pd

    header = _column_names(frame.columns)
    records = []
    for number, values in enumerate(frame.itertuples(index=False, name=None), start=1):
        # pandas' missing values (NaN, NA, NaT, None) are empty cells.
        records.append((number, {name: None if pd.api.types.is_scalar(value) and pd.isna(value) else value
                                 for name, value in zip(header, values)}))
    return header, records


def _is_frame(items: Any) -> bool:
    # Checked by name so that pandas is imported only by those who pass a DataFrame.
    return type(items).__name__ == "DataFrame" and hasattr(items, "itertuples")


# Quotes as run(), verify() and verify_frame() take them: a quote table's path (or what load_quotes read from
# one), a pandas DataFrame (one quote per row), or a list of strings, dicts (quote, quote_id, document ...) or
# Quote objects.
QuotesGiven = Union[str, Path, LoadedQuotes, "pd.DataFrame", Iterable[str | Mapping[str, object] | Quote]]


def read_quotes(quotes: QuotesGiven, columns: Mapping[str, str], limits: ArchiveLimits) -> LoadedQuotes:
    """The quotes however they were given, read (a table's path) or taken as they are; quotes given in
    Python have no table, so no columns, no sha256 and no warnings."""
    if isinstance(quotes, (str, Path)):
        quotes = load_quotes(quotes, columns=columns, limits=limits)
    if isinstance(quotes, LoadedQuotes):
        return quotes
    return LoadedQuotes(tuple(coerce_quotes(quotes, columns=columns)), (), "")


def coerce_quotes(items: Any, *, columns: Mapping[str, str] | None = None) -> list[Quote]:
    """Quotes given to the Python API: a pandas DataFrame (rows are quotes), or Quote objects,
    strings or dicts (rows from 1)."""
    if _is_frame(items):
        header, records = _frame_records(items)
        quotes, _ = quotes_from_records(records, header, "quotes (DataFrame)", columns=columns)
        return quotes
    if isinstance(items, (str, bytes, Mapping)):
        raise InputError("quotes: give a list of quotes, a pandas DataFrame or a quote table's path, "
                         f"not a single {type(items).__name__}")
    items = list(items)
    if all(isinstance(item, Quote) for item in items):
        return items
    keys: list[str] = []
    records = []
    for number, item in enumerate(items, start=1):
        if isinstance(item, Quote):
            item = {"quote": item.text, "quote_id": item.quote_id, "document": item.claimed_document}
        record = dict(item) if isinstance(item, Mapping) else {"quote": item}
        keys.extend(k for k in record if k not in keys)
        records.append((number, record))
    quotes, _ = quotes_from_records(records, keys or ["quote"], "quotes", columns=columns)
    return quotes
