"""Documents and quote tables in.

Documents: files or folders of ``.txt``/``.md`` (doc id = file stem). Plain text
is decoded as UTF-8 with line endings kept, so offsets are offsets into
``open(path, encoding="utf-8", newline="").read()``; UTF-16 (with a BOM) and
Windows-1252 are decoded too, with a warning for the latter.

Quotes: ``.csv``, ``.tsv``, ``.xlsx``, ``.jsonl`` or ``.txt`` (one quote per
line). Every row is kept, with its row number as a spreadsheet shows it.
"""
from __future__ import annotations

import csv
import hashlib
import io
import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Iterable

from .errors import InputError
from .types import Document, Quote

DOCUMENT_SUFFIXES = (".txt", ".md")
QUOTE_SUFFIXES = (".csv", ".tsv", ".xlsx", ".jsonl", ".txt")
COLUMNS = {
    "quote": ("quote", "text", "quotation"),
    "quote_id": ("quote_id", "id", "qid"),
    "document": ("document", "source", "doc", "doc_id", "claimed_document"),
    "speaker": ("speaker",),
    "finding": ("finding", "theme", "claim"),
}


@dataclass(frozen=True)
class LoadedDocuments:
    documents: tuple[Document, ...]
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True)
class LoadedQuotes:
    quotes: tuple[Quote, ...]
    columns: tuple[str, ...]
    sha256: str
    warnings: tuple[str, ...] = ()


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _decode(path: Path, data: bytes, warnings: list[str]) -> tuple[str, str]:
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16"), "utf-16"
        except UnicodeDecodeError:
            raise InputError(f"{path}: starts with a UTF-16 byte-order mark but does not decode as UTF-16; "
                             "re-save it as UTF-8") from None
    if b"\x00" in data[:8192]:
        raise InputError(f"{path}: looks like a binary file (it holds NUL bytes), not text; "
                         "convert it to plain text or leave it out")
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    try:
        text = data.decode("cp1252")
    except UnicodeDecodeError:
        raise InputError(f"{path}: neither UTF-8 nor Windows-1252 text; re-save it as UTF-8") from None
    warnings.append(f"{path}: not UTF-8; decoded as Windows-1252 (offsets are into that decoding)")
    return text, "cp1252"


def _document_files(paths: Iterable[str | Path]) -> list[Path]:
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in DOCUMENT_SUFFIXES)
            if not found:
                raise InputError(f"{path}: no {'/'.join(DOCUMENT_SUFFIXES)} documents in this folder")
            files.extend(found)
        elif path.is_file():
            if path.suffix.lower() not in DOCUMENT_SUFFIXES:
                raise InputError(f"{path}: unsupported document type '{path.suffix}'; "
                                 f"use {', '.join(DOCUMENT_SUFFIXES)}")
            files.append(path)
        else:
            raise InputError(f"{path}: no such file or folder")
    return files


def load_documents(paths: Iterable[str | Path]) -> LoadedDocuments:
    """Read documents from files and folders; ids are file stems and must be unique."""
    warnings: list[str] = []
    documents: list[Document] = []
    seen: dict[str, Path] = {}
    for path in _document_files(paths):
        doc_id = path.stem
        if doc_id in seen:
            raise InputError(f"{path}: document id '{doc_id}' is also the id of {seen[doc_id]}; "
                             "rename one of them (ids are file names without the extension)")
        seen[doc_id] = path
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise InputError(f"{path}: cannot be read ({exc.strerror}); check its permissions") from None
        text, encoding = _decode(path, data, warnings)
        if not text.strip():
            warnings.append(f"{path}: empty document, skipped")
            continue
        documents.append(Document(doc_id, str(path), text, sha256_bytes(data), encoding))
    if not documents:
        raise InputError("no usable documents: every document given is empty")
    documents.sort(key=lambda d: d.doc_id)
    return LoadedDocuments(tuple(documents), tuple(warnings))


def _find_column(header: list[str], name: str) -> str | None:
    lowered = {h.strip().lower(): h for h in header if h is not None}
    for alias in COLUMNS[name]:
        if alias in lowered:
            return lowered[alias]
    return None


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def quotes_from_records(records: Iterable[tuple[int, dict[str, Any]]], header: list[str],
                        source: str) -> tuple[list[Quote], list[str]]:
    """Quotes from (row number, record) pairs; every record yields one quote."""
    quote_col = _find_column(header, "quote")
    if quote_col is None:
        found = ", ".join(repr(h) for h in header) or "none"
        raise InputError(f"{source}: no quote column (looked for {', '.join(COLUMNS['quote'])}); "
                         f"found columns: {found}")
    cols = {name: _find_column(header, name) for name in COLUMNS}
    used = {c for c in cols.values() if c is not None}
    quotes: list[Quote] = []
    warnings: list[str] = []
    ids: dict[str, int] = {}
    for row, record in records:
        text = _cell(record.get(quote_col))
        qid = _cell(record.get(cols["quote_id"])).strip() if cols["quote_id"] else ""
        qid = qid or f"row{row}"
        if qid in ids:
            new_id = qid
            while new_id in ids:  # the new id must not be taken either ("q1#2" given later)
                ids[qid] += 1
                new_id = f"{qid}#{ids[qid]}"
            warnings.append(f"{source}: row {row}: duplicate quote_id '{qid}' renamed '{new_id}'")
            qid = new_id
        ids[qid] = ids.get(qid, 1)
        extra = tuple((str(k), _cell(v)) for k, v in record.items() if k not in used and k is not None)
        problem = "" if text.strip() else "empty quote: nothing to verify"
        quotes.append(Quote(
            row=row, quote_id=qid, text=text,
            claimed_document=_cell(record.get(cols["document"])).strip() if cols["document"] else "",
            speaker=_cell(record.get(cols["speaker"])).strip() if cols["speaker"] else "",
            finding=_cell(record.get(cols["finding"])).strip() if cols["finding"] else "",
            extra=extra, problem=problem))
    return quotes, warnings


def _csv_records(path: Path, text: str) -> tuple[list[str], list[tuple[int, dict[str, Any]]]]:
    delimiter = "\t" if path.suffix.lower() == ".tsv" else ","
    first = text.split("\n", 1)[0]
    if path.suffix.lower() == ".csv" and first.count(",") == 0:
        for candidate in (";", "\t", "|"):
            if candidate in first:
                delimiter = candidate
                break
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        header = next(reader)
    except StopIteration:
        raise InputError(f"{path}: empty quote table; it needs a header row with a 'quote' column") from None
    except csv.Error as exc:
        raise InputError(f"{path}: not a readable CSV ({exc})") from None
    records = []
    try:
        # A spreadsheet shows one row per record, however many lines its quoted
        # cells span, so rows are counted by record, not by line.
        for row, values in enumerate(reader, start=2):
            if not any(v.strip() for v in values) and len(values) <= 1:
                continue
            records.append((row, dict(zip(header, values))))
    except csv.Error as exc:
        raise InputError(f"{path}: line {reader.line_num}: not readable as CSV ({exc})") from None
    return header, records


def _xlsx_records(path: Path, sheet: str | None) -> tuple[list[str], list[tuple[int, dict[str, Any]]]]:
    import openpyxl

    try:
        book = openpyxl.load_workbook(path, read_only=True, data_only=False)
    except Exception as exc:  # openpyxl raises many types for damaged or hostile files
        raise InputError(f"{path}: not a readable .xlsx workbook ({type(exc).__name__}: {exc})") from None
    try:
        if sheet is None:
            ws = book.worksheets[0]
        elif sheet in book.sheetnames:
            ws = book[sheet]
        else:
            raise InputError(f"{path}: no sheet named '{sheet}'; sheets: {', '.join(book.sheetnames)}")
        rows = ws.iter_rows(values_only=True)
        header = [_cell(v) for v in next(rows, ())]
        records = []
        for number, values in enumerate(rows, start=2):
            if all(v is None or str(v).strip() == "" for v in values):
                continue
            records.append((number, dict(zip(header, values))))
    finally:
        book.close()
    return header, records


def _jsonl_records(path: Path, text: str) -> tuple[list[str], list[tuple[int, dict[str, Any]]]]:
    header: list[str] = []
    records = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"{path}: line {number}: not valid JSON ({exc.msg}); one JSON object per line") from None
        if not isinstance(record, dict):
            raise InputError(f"{path}: line {number}: expected a JSON object with a 'quote' field")
        for key in record:
            if key not in header:
                header.append(key)
        records.append((number, record))
    return header, records


def load_quotes(path: str | Path, *, sheet: str | None = None) -> LoadedQuotes:
    """Read a quote table; column names are matched case-insensitively."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in QUOTE_SUFFIXES:
        raise InputError(f"{path}: unsupported quote table type '{path.suffix}'; use {', '.join(QUOTE_SUFFIXES)}")
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise InputError(f"{path}: no such quote table") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot be read ({exc.strerror}); check its permissions") from None
    warnings: list[str] = []
    if suffix == ".xlsx":
        header, records = _xlsx_records(path, sheet)
    else:
        text, _ = _decode(path, data, warnings)
        text = text.removeprefix("\ufeff")
        if suffix in (".csv", ".tsv"):
            header, records = _csv_records(path, text)
        elif suffix == ".jsonl":
            header, records = _jsonl_records(path, text)
        else:
            header = ["quote"]
            records = [(n, {"quote": line}) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
    quotes, more = quotes_from_records(records, header, str(path))
    return LoadedQuotes(tuple(quotes), tuple(header), sha256_bytes(data), tuple(warnings + more))


def check_claims(quotes: Iterable[Quote], doc_ids: Iterable[str]) -> list[Quote]:
    """Note quotes that claim a document nobody gave; they are searched everywhere."""
    known = set(doc_ids)
    checked = []
    for quote in quotes:
        if quote.claimed_document and quote.claimed_document not in known:
            note = f"claimed document '{quote.claimed_document}' is not among the documents; searched all"
            quote = replace(quote, notes=quote.notes + (note,))
        checked.append(quote)
    return checked


def coerce_quotes(items: Iterable[Quote | str | dict[str, Any]]) -> list[Quote]:
    """Quotes given to the Python API as Quote objects, strings or dicts (rows from 1)."""
    items = list(items)
    if all(isinstance(item, Quote) for item in items):
        return items
    header: list[str] = []
    records = []
    for number, item in enumerate(items, start=1):
        if isinstance(item, Quote):
            item = {"quote": item.text, "quote_id": item.quote_id, "document": item.claimed_document}
        record = {"quote": item} if isinstance(item, str) else dict(item)
        header.extend(k for k in record if k not in header)
        records.append((number, record))
    quotes, _ = quotes_from_records(records, header or ["quote"], "quotes")
    return quotes
