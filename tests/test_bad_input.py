"""Bad input and faults (issue 8): a clear answer every time, nothing lost.

Every case gets either a one-line error naming the file, the row and the fix
(exit code 2, no traceback) or a result row with its reason; never a crash,
never a dropped quote, never a half-written output file.
"""
from __future__ import annotations

import csv
import errno
import json
import os
import random
import time
import zipfile
from pathlib import Path
from typing import Any, Callable

import openpyxl
import pytest
from click.testing import CliRunner, Result
from conftest import TINY_CORPUS, span_of

import quoteverify
from quoteverify.cli import main
from quoteverify.export.tables import write_results
from quoteverify.model.errors import OutputError
from quoteverify.plumbing.transaction import write_output as write_atomic
from quoteverify.sources.documents import DOCUMENT_SUFFIXES, load_documents
from quoteverify.sources.quotes import load_quotes

NO_EMBED = {"embed": {"enabled": False}}
QUOTES = "quote_id,quote,document\nq1,We lost 15 volunteers in the first month.,interview-01\n"
SUFFIXES = "/".join(DOCUMENT_SUFFIXES)


def verify_cli(*args: Any) -> Result:
    """verify, its results on standard output unless an -o names a file."""
    out = [] if "-o" in args else ["-o", "-"]
    return CliRunner().invoke(main, ["verify", *map(str, args), "--no-embed", "--no-cache", *out])


def rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def csv_rows(path: Path) -> list[dict]:
    """The rows of a CSV; of a results CSV (written worst first), in input order by its ``row`` column."""
    with open(path, encoding="utf-8", newline="") as handle:
        table = list(csv.DictReader(handle))
    return sorted(table, key=lambda r: int(r["row"])) if table and "row" in table[0] else table


def write_files(root: Path, files: dict[str, Any]) -> None:
    """Create files under root: text as UTF-8 (line endings as given), bytes as they are, or call a writer."""
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if callable(content):
            content(path)
        elif isinstance(content, bytes):
            path.write_bytes(content)
        else:
            with open(path, "w", encoding="utf-8", newline="") as handle:
                handle.write(content)


@pytest.fixture
def tmp(tmp_path: Path) -> Path:
    """tmp_path holding docs/ (the tiny corpus) and quotes.csv (one good quote)."""
    write_files(tmp_path, {f"docs/{doc_id}.txt": text for doc_id, text in TINY_CORPUS.items()})
    write_files(tmp_path, {"quotes.csv": QUOTES})
    return tmp_path


# ----------------------------------------------------------------------------------- workbooks

def workbook(*sheets: tuple[str, list[list[Any]]], chart: str | None = None) -> Callable[[Path], None]:
    """A writer of an .xlsx with these sheets (name, rows), and a chart sheet if named."""
    def write(path: Path) -> None:
        book = openpyxl.Workbook()
        book.remove(book.active)
        for name, sheet_rows in sheets:
            sheet = book.create_sheet(name)
            for row in sheet_rows:
                sheet.append(row)
        if chart:
            from openpyxl.chart import BarChart, Reference

            bars = BarChart()
            bars.add_data(Reference(book.worksheets[0], min_col=1, min_row=1, max_row=2))
            book.create_chartsheet(chart).add_chart(bars)
        book.save(path)
    return write


# Billion laughs: &lol9; expands to 10**9 "lol"s.
BOMB = ('<!DOCTYPE lolz [<!ENTITY lol0 "lol">'
        + "".join(f'<!ENTITY lol{k} "' + f"&lol{k - 1};" * 10 + '">' for k in range(1, 10))
        + "]>")


def xml_bomb(path: Path) -> None:
    """A workbook whose sheet XML is a billion-laughs bomb."""
    workbook(("Quotes", [["quote"], ["placeholder"]]))(path)
    with zipfile.ZipFile(path) as archive:
        parts = {name: archive.read(name) for name in archive.namelist()}
    sheet = next(name for name in parts if name.startswith("xl/worksheets/"))
    text = parts[sheet].decode("utf-8")
    body = text.split("?>", 1)[1] if text.startswith("<?xml") else text
    parts[sheet] = ('<?xml version="1.0"?>' + BOMB + body.replace("placeholder", "&lol9;")).encode("utf-8")
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in parts.items():
            archive.writestr(name, data)


QUOTES_SHEET = ("Quotes", [["quote_id", "quote"], ["q1", "We lost 15 volunteers in the first month."]])
NOTES_SHEET = ("Notes", [["Coded by A. and B., March"]])


# ------------------------------------------------------------------ exit 2, one line: the table

# (case, files to create under tmp, arguments after "verify" ({t} is tmp), the exact error).
ERRORS = [
    # documents
    ("pdf-named-txt", {"docs/scan.txt": b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj <<>> endobj\n"}, ["{t}/docs", "{t}/quotes.csv"],
     "{t}/docs/scan.txt: is a PDF file, not text; give it its real extension or convert it to text"),
    ("image-named-txt", {"docs/photo.txt": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"}, ["{t}/docs", "{t}/quotes.csv"],
     "{t}/docs/photo.txt: is a PNG image, not text; give it its real extension or convert it to text"),
    ("docx-named-txt", {"docs/notes.txt": b"PK\x03\x04\x14\x00\x06\x00"}, ["{t}/docs", "{t}/quotes.csv"],
     "{t}/docs/notes.txt: is a zip archive (an .xlsx or .docx file?), not text; "
     "give it its real extension or convert it to text"),
    ("binary-with-nul-bytes", {"docs/recording.txt": b"RIFF\x00\x00\x00\x00WAVEfmt "}, ["{t}/docs", "{t}/quotes.csv"],
     "{t}/docs/recording.txt: looks like a binary file (it holds NUL bytes), not text; "
     "convert it to plain text or leave it out"),
    ("broken-utf16", {"docs/odd.txt": b"\xff\xfeA\x00B"}, ["{t}/docs", "{t}/quotes.csv"],
     "{t}/docs/odd.txt: starts with a UTF-16 byte-order mark but does not decode as UTF-16; re-save it as UTF-8"),
    ("no-known-encoding", {"docs/odd.txt": b"caf\x81 \x8d\x8f\x90"}, ["{t}/docs", "{t}/quotes.csv"],
     "{t}/docs/odd.txt: neither UTF-8 nor Windows-1252 text; re-save it as UTF-8"),
    ("folder-without-documents", {"other/notes.csv": "a,b\n", "other/.hidden.txt": "Hidden."},
     ["{t}/other", "{t}/quotes.csv"], "{t}/other: no {suffixes} documents in this folder"),
    ("only-empty-documents", {"blank/a.txt": " \r\n", "blank/b.md": ""}, ["{t}/blank", "{t}/quotes.csv"],
     "no usable documents: every document given is empty"),
    ("same-stem", {"docs/wave-2/interview-01.md": "Also one."}, ["{t}/docs", "{t}/quotes.csv"],
     "{t}/docs/wave-2/interview-01.md: document id 'interview-01' is also the id of {t}/docs/interview-01.txt; "
     "rename one of them (ids are file names without the extension)"),
    ("no-such-documents", {}, ["{t}/transcripts", "{t}/quotes.csv"], "{t}/transcripts: no such file or folder"),
    ("unsupported-document", {"notes.rtf": "{\\rtf1 hello}"}, ["{t}/notes.rtf", "{t}/quotes.csv"],
     "{t}/notes.rtf: unsupported document type '.rtf'; use " + ", ".join(DOCUMENT_SUFFIXES) + ", .qdpx"),
    # quote tables
    ("no-quote-column", {"passages.csv": "ID,Passage,Document\n1,We lost 15 volunteers.,interview-01\n"},
     ["{t}/docs", "{t}/passages.csv"],
     "{t}/passages.csv: no quote column (looked for quote, text, quotation, quote_text, content, excerpt); "
     "found columns: 'ID', 'Passage', 'Document'; name it with --quote-col"),
    ("empty-quote-table", {"empty.csv": "\n\n"}, ["{t}/docs", "{t}/empty.csv"],
     "{t}/empty.csv: empty quote table; it needs a header row with a 'quote' column"),
    ("no-such-quote-table", {}, ["{t}/docs", "{t}/nope.csv"], "{t}/nope.csv: no such quote table"),
    ("quote-table-forgotten", {}, ["{t}/docs", "{t}/docs"],
     "{t}/docs: is a folder; the last argument must be the quote table (.csv, .tsv, .xlsx, .jsonl, .txt, .qdpx)"),
    ("unsupported-quote-table", {"quotes.ods": b"PK\x03\x04"}, ["{t}/docs", "{t}/quotes.ods"],
     "{t}/quotes.ods: unsupported quote table type '.ods'; use .csv, .tsv, .xlsx, .jsonl, .txt, .qdpx"),
    ("sheet-for-a-csv", {}, ["{t}/docs", "{t}/quotes.csv", "--sheet", "Quotes"],
     "{t}/quotes.csv: --sheet 'Quotes' is for .xlsx quote tables; leave it out for a .csv file"),
    ("bad-jsonl-line", {"quotes.jsonl": '{"quote": "a"}\n{"quote": \n'}, ["{t}/docs", "{t}/quotes.jsonl"],
     "{t}/quotes.jsonl: line 2: not valid JSON (Expecting value at column 11); one JSON object per line"),
    ("xlsx-no-such-sheet", {"quotes.xlsx": workbook(NOTES_SHEET, QUOTES_SHEET)},
     ["{t}/docs", "{t}/quotes.xlsx", "--sheet", "Sheet1"],
     "{t}/quotes.xlsx: no sheet named 'Sheet1'; sheets: Notes, Quotes"),
    ("xlsx-first-sheet-has-no-quotes", {"quotes.xlsx": workbook(NOTES_SHEET, QUOTES_SHEET)},
     ["{t}/docs", "{t}/quotes.xlsx"],
     "{t}/quotes.xlsx: sheet 'Notes' has no quote column (looked for quote, text, quotation, quote_text, content, excerpt; "
     "found 'Coded by A. and B., March'); other sheets: 'Quotes'; choose one with --sheet"),
    ("xlsx-chart-sheet", {"quotes.xlsx": workbook(QUOTES_SHEET, chart="Chart")},
     ["{t}/docs", "{t}/quotes.xlsx", "--sheet", "Chart"],
     "{t}/quotes.xlsx: sheet 'Chart' is a chart, not a table; choose another with --sheet "
     "(sheets: Quotes, Chart)"),
    ("xlsx-that-is-a-csv", {"quotes.xlsx": QUOTES}, ["{t}/docs", "{t}/quotes.xlsx"],
     "{t}/quotes.xlsx: is text, not an .xlsx workbook; if it is a CSV, rename it to .csv"),
    ("xlsx-that-is-an-xls", {"quotes.xlsx": b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(64)},
     ["{t}/docs", "{t}/quotes.xlsx"],
     "{t}/quotes.xlsx: an old-style Excel file (.xls) named .xlsx; save it as .xlsx in Excel"),
    ("xlsx-not-a-zip", {"quotes.xlsx": b"PK\x03\x04\x00\x00 truncated"}, ["{t}/docs", "{t}/quotes.xlsx"],
     "{t}/quotes.xlsx: not a readable .xlsx workbook (BadZipFile: File is not a zip file); "
     "open it in Excel and save it again, or export the sheet as CSV"),
    ("xlsx-zip-of-something-else", {"quotes.xlsx": lambda p: zipfile.ZipFile(p, "w").writestr("a.txt", "hi")},
     ["{t}/docs", "{t}/quotes.xlsx"],
     "{t}/quotes.xlsx: not a readable .xlsx workbook (KeyError: \"There is no item named '[Content_Types].xml' "
     "in the archive\"); open it in Excel and save it again, or export the sheet as CSV"),
    ("xlsx-xml-bomb", {"quotes.xlsx": xml_bomb}, ["{t}/docs", "{t}/quotes.xlsx"],
     "{t}/quotes.xlsx: refused: its XML declares entities or a DTD, as XML bombs do; "
     "open it in Excel and save it again, or export the sheet as CSV"),
    # config
    ("config-unknown-key", {"mine.yaml": "window:\n  sise: 32\n"}, ["{t}/docs", "{t}/quotes.csv", "--config", "{t}/mine.yaml"],
     "{t}/mine.yaml: unknown key 'window.sise'; known keys here: overlap, size"),
    ("config-wrong-type", {"mine.yaml": "window:\n  size: big\n"}, ["{t}/docs", "{t}/quotes.csv", "--config", "{t}/mine.yaml"],
     "{t}/mine.yaml: 'window.size' must be a whole number, got 'big'"),
    ("config-out-of-range", {"mine.yaml": "verdict:\n  min_coverage: 1.5\n"},
     ["{t}/docs", "{t}/quotes.csv", "--config", "{t}/mine.yaml"],
     "{t}/mine.yaml: 'verdict.min_coverage' is 1.5; it must be between 0.0 and 1.0"),
    ("config-not-yaml", {"mine.yaml": "window: [unclosed\n"}, ["{t}/docs", "{t}/quotes.csv", "--config", "{t}/mine.yaml"],
     "{t}/mine.yaml: not valid YAML (line 2, column 1: expected ',' or ']', but got '<stream end>'); fix the syntax"),
    # outputs (all refused before the run: see test_outputs_are_checked_before_the_run)
    ("output-folder-missing", {}, ["{t}/docs", "{t}/quotes.csv", "-o", "{t}/out/results.jsonl"],
     "-o {t}/out/results.jsonl: folder {t}/out does not exist; create it or choose another path"),
    ("output-unknown-extension", {}, ["{t}/docs", "{t}/quotes.csv", "-o", "{t}/results.json"],
     "-o {t}/results.json: unknown output format '.json'; use .jsonl, .csv, .xlsx, .html"),
    ("output-is-a-folder", {}, ["{t}/docs", "{t}/quotes.csv", "-o", "{t}/docs"],
     "-o {t}/docs: is a folder; give a file name, such as {t}/docs/results.jsonl"),
    ("output-is-the-quote-table", {}, ["{t}/docs", "{t}/quotes.csv", "-o", "{t}/quotes.csv"],
     "-o {t}/quotes.csv: is the quote table this run reads and would be replaced; give the output another name"),
    ("output-is-a-document", {"notes.csv": "x\n"}, ["{t}/notes.csv", "{t}/quotes.csv", "-o", "{t}/notes.csv"],
     "-o {t}/notes.csv: is a document this run reads and would be replaced; give the output another name"),
    ("output-inside-the-documents", {}, ["{t}/docs", "{t}/quotes.csv", "-o", "{t}/docs/results.jsonl"],
     "-o {t}/docs/results.jsonl: is inside the documents folder {t}/docs, which this run reads, so a later run "
     "would read it as a source; write it outside {t}/docs"),
    ("report-over-a-document", {"docs/notes.md": "Maria: We kept notes.\n"},
     ["{t}/docs", "{t}/quotes.csv", "--report", "{t}/docs/notes.md"],
     "--report {t}/docs/notes.md: is inside the documents folder {t}/docs, which this run reads, so a later run "
     "would read it as a source; write it outside {t}/docs"),
    ("two-outputs-on-one-file", {}, ["{t}/docs", "{t}/quotes.csv", "-o", "{t}/r.jsonl", "--cards", "{t}/r.jsonl"],
     "--cards {t}/r.jsonl: is also the output of -o; give each output a file of its own"),
    ("manifest-folder-missing", {}, ["{t}/docs", "{t}/quotes.csv", "--manifest", "{t}/out/run.json"],
     "--manifest {t}/out/run.json: folder {t}/out does not exist; create it or choose another path"),
    # the command line itself
    ("only-one-path", {}, ["{t}/quotes.csv"],
     "give the documents (files or folders) and then the quote table, "
     "e.g. quoteverify verify transcripts/ quotes.csv -o results.xlsx"),
]
OUTPUT_CASES = [case for case, *_ in ERRORS if case.startswith(("output-", "manifest-"))]


def _error_case(tmp: Path, case: str) -> tuple[list[str], str]:
    (files, args, message), = [rest for name, *rest in ERRORS if name == case]
    write_files(tmp, files)
    fill = {"t": tmp, "suffixes": SUFFIXES}
    return [a.format(**fill) for a in args], "Error: " + message.format(**fill) + "\n"


@pytest.mark.parametrize("case", [case for case, *_ in ERRORS])
def test_bad_input_gets_one_line_and_exit_2(tmp: Path, case: str) -> None:
    args, message = _error_case(tmp, case)
    before = sorted(tmp.rglob("*"))
    result = verify_cli(*args)
    assert (result.exit_code, result.stderr) == (2, message)
    assert result.stdout == ""
    assert isinstance(result.exception, SystemExit)  # not an exception: no traceback
    assert sorted(tmp.rglob("*")) == before  # nothing written, not even a temporary file


@pytest.mark.parametrize("case", OUTPUT_CASES)
def test_outputs_are_checked_before_the_run(tmp: Path, case: str, monkeypatch) -> None:
    def no_run(*args, **kwargs):
        raise AssertionError("the run started before the outputs were checked")

    monkeypatch.setattr("quoteverify.pipeline.stages.run", no_run)
    monkeypatch.setattr("quoteverify.commands.load_quotes", no_run)
    args, message = _error_case(tmp, case)
    result = verify_cli(*args)
    assert (result.exit_code, result.stderr) == (2, message)


# --------------------------------------------------------------- faults of the file system

def test_unreadable_document(tmp: Path, monkeypatch) -> None:
    # Tests run as root, who reads any file: the permission error is simulated.
    locked = tmp / "docs" / "interview-02.txt"
    read_bytes = Path.read_bytes

    def refuse(self: Path) -> bytes:
        if self == locked:
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return read_bytes(self)

    monkeypatch.setattr(Path, "read_bytes", refuse)
    result = verify_cli(tmp / "docs", tmp / "quotes.csv")
    assert (result.exit_code, result.stderr) == (
        2, f"Error: {locked}: cannot be read (Permission denied); check its permissions\n")


def test_unreadable_document_for_real(tmp: Path) -> None:
    locked = tmp / "docs" / "interview-02.txt"
    locked.chmod(0)
    try:
        if os.access(locked, os.R_OK):
            pytest.skip("running as root, who can read a file with mode 000 (test_unreadable_document simulates it)")
        result = verify_cli(tmp / "docs", tmp / "quotes.csv")
        assert (result.exit_code, result.stderr) == (
            2, f"Error: {locked}: cannot be read (Permission denied); check its permissions\n")
    finally:
        locked.chmod(0o644)


def test_unreadable_quote_table(tmp: Path, monkeypatch) -> None:
    quotes = tmp / "quotes.csv"
    read_bytes = Path.read_bytes

    def refuse(self: Path) -> bytes:
        if self == quotes:
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return read_bytes(self)

    monkeypatch.setattr(Path, "read_bytes", refuse)
    result = verify_cli(tmp / "docs", quotes)
    assert (result.exit_code, result.stderr) == (
        2, f"Error: {quotes}: cannot be read (Permission denied); check its permissions\n")


def test_unexpected_os_error_is_one_line(tmp: Path, monkeypatch) -> None:
    # A folder that cannot be listed fails in pathlib, outside any reader's own error handling.
    def refuse(self: Path, pattern: str):
        raise PermissionError(errno.EACCES, "Permission denied", str(self))

    monkeypatch.setattr(Path, "rglob", refuse)
    result = verify_cli(tmp / "docs", tmp / "quotes.csv")
    assert (result.exit_code, result.stderr) == (2, f"Error: {tmp / 'docs'}: Permission denied\n")


def test_multi_line_messages_are_joined(tmp: Path, monkeypatch) -> None:
    def fail(*args, **kwargs):
        raise quoteverify.InputError("first line\nsecond line")

    monkeypatch.setattr("quoteverify.pipeline.stages.run", fail)
    result = verify_cli(tmp / "docs", tmp / "quotes.csv")
    assert (result.exit_code, result.stderr) == (2, "Error: first line second line\n")


def test_full_disk_leaves_the_old_output(tmp: Path, monkeypatch) -> None:
    out = tmp / "results.jsonl"
    out.write_text("the previous results\n", encoding="utf-8")
    write_bytes = Path.write_bytes

    def full(self: Path, data: bytes) -> int:
        if self.name.endswith(".part"):
            write_bytes(self, data[:10])  # part of it reached the disk
            raise OSError(errno.ENOSPC, "No space left on device")
        return write_bytes(self, data)

    monkeypatch.setattr(Path, "write_bytes", full)
    result = verify_cli(tmp / "docs", tmp / "quotes.csv", "-o", out)
    assert (result.exit_code, result.stderr) == (
        2, f"Error: {out}: cannot be written (No space left on device); "
           f"check the free space and permissions of {tmp}\n")
    assert out.read_text(encoding="utf-8") == "the previous results\n"
    assert list(tmp.glob(".*.part")) == []


def test_unusable_cache_folder_is_a_warning(tmp: Path) -> None:
    cache = tmp / "quotes.csv" / "cache"  # under a file: cannot be created
    result = CliRunner().invoke(main, ["verify", str(tmp / "docs"), str(tmp / "quotes.csv"), "--no-embed",
                                       "--cache-dir", str(cache), "-o", "-"])
    assert result.exit_code == 0
    assert result.stderr.splitlines()[0] == (
        f"Warning: cache folder {cache} cannot be used (Not a directory); running without a cache")
    assert [r["status"] for r in map(json.loads, result.stdout.splitlines())] == ["verified"]


def test_interrupt_writes_nothing(tmp: Path, monkeypatch) -> None:
    out = tmp / "results.jsonl"
    out.write_text("the previous results\n", encoding="utf-8")

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("quoteverify.pipeline.stages.run", interrupted)
    result = verify_cli(tmp / "docs", tmp / "quotes.csv", "-o", out)
    assert (result.exit_code, result.stderr) == (130, "Interrupted; no output was written or replaced.\n")
    assert out.read_text(encoding="utf-8") == "the previous results\n"


@pytest.mark.parametrize("fault", [KeyboardInterrupt, MemoryError, RuntimeError])
def test_write_atomic_leaves_no_partial_file(tmp_path: Path, fault: type[BaseException]) -> None:
    out = tmp_path / "results.csv"

    def crash(part: Path) -> None:
        part.write_bytes(b"quote_id,row\r\nq1,2\r\n")  # half the table is on disk
        raise fault()

    with pytest.raises(fault):
        write_atomic(out, crash)
    assert list(tmp_path.iterdir()) == []
    out.write_text("old", encoding="utf-8")
    with pytest.raises(fault):
        write_atomic(out, crash)
    assert [p.name for p in tmp_path.iterdir()] == ["results.csv"]
    assert out.read_text(encoding="utf-8") == "old"


def test_existing_output_is_replaced_with_usual_permissions(tmp: Path) -> None:
    out = tmp / "results.jsonl"
    out.write_text("the previous results\n", encoding="utf-8")
    assert verify_cli(tmp / "docs", tmp / "quotes.csv", "-o", out).exit_code == 0
    assert [r["quote_id"] for r in rows(out)] == ["q1"]
    umask = os.umask(0)
    os.umask(umask)
    fresh = tmp / "fresh.jsonl"
    assert verify_cli(tmp / "docs", tmp / "quotes.csv", "-o", fresh).exit_code == 0
    assert fresh.stat().st_mode & 0o777 == 0o666 & ~umask  # not mkstemp's 0600


def test_rerun_checks_its_outputs_before_running(tmp: Path, monkeypatch) -> None:
    (tmp / "out").mkdir()
    result = verify_cli(tmp / "docs", tmp / "quotes.csv", "-o", tmp / "out" / "r.jsonl", "--manifest",
                        tmp / "run.json")
    assert result.exit_code == 0, result.output
    (tmp / "out" / "r.jsonl").unlink()
    (tmp / "out").rmdir()
    monkeypatch.setattr("quoteverify.app.repeat.rerun", lambda *a, **k: pytest.fail("the run started"))
    result = CliRunner().invoke(main, ["rerun", str(tmp / "run.json")])
    assert (result.exit_code, result.stderr) == (
        2, f"Error: the recorded output {tmp / 'out' / 'r.jsonl'}: folder {tmp / 'out'} does not exist; create it "
           "or choose another path\n")


def test_write_results_checks_its_path(tmp_path: Path) -> None:
    with pytest.raises(OutputError) as error:
        write_results(tmp_path / "missing" / "r.jsonl", [])
    assert str(error.value) == (f"{tmp_path / 'missing' / 'r.jsonl'}: folder {tmp_path / 'missing'} does not "
                                "exist; create it or choose another path")


# ------------------------------------------------------------------- result rows with a reason

# (case, quote table, the rows expected: quote_id, status, reasons; None: whatever the matcher says).
ROWS = [
    ("empty quote", "quote_id,quote\nq1,\nq2,Why did it close?\n",
     [("q1", "unverified", ["empty quote: nothing to verify"]), ("q2", None, None)]),
    ("whitespace-only quote", 'quote_id,quote\nq1,"  \t \n "\n',
     [("q1", "unverified", ["empty quote: nothing to verify"])]),
    ("spaces in a one-column table", 'quote\n   \n" "\nWhy did it close?\n',
     [("row2", "unverified", ["empty quote: nothing to verify"]),
      ("row3", "unverified", ["empty quote: nothing to verify"]), ("row4", None, None)]),
    ("punctuation only", "quote_id,quote\nq1,...\nq2,[...]\nq3,--\n",
     [("q1", "unverified", None), ("q2", "unverified", None), ("q3", "unverified", None)]),
    ("unknown claimed document", "quote_id,quote,document\n"
     "q1,The committee did not approve the budget until March.,interview-99\n",
     [("q1", None, ["claimed document 'interview-99' is not among the documents; searched all, so which document it "
         "comes from was not checked"])]),
    ("unquoted delimiter", "quote_id,quote,document\nq1,We lost 15, maybe 20, volunteers,interview-01\n"
     "q2,Why did it close?,interview-01\n",
     [("q1", "unverified", ["row has 5 cells but the header has 3 columns; a cell holding ',' must be in "
                            "double quotes"]), ("q2", None, None)]),
    ("duplicate ids", "quote_id,quote\nq1,Why did it close?\nq1,Why did it close?\nq1,\n",
     [("q1", None, None), ("q1#2", None, None), ("q1#3", "unverified", ["empty quote: nothing to verify"])]),
    ("formula-like cells", 'quote_id,quote\n=1+1,"=HYPERLINK(""http://x"",""y"")"\nq2,+1\nq3,@x\nq4,-1\n',
     [("=1+1", "unverified", None), ("q2", "unverified", None), ("q3", "unverified", None),
      ("q4", "unverified", None)]),
]


@pytest.mark.parametrize(("case", "table", "expected"), ROWS, ids=[case for case, *_ in ROWS])
def test_bad_rows_get_a_result_with_a_reason(tmp: Path, case: str, table: str, expected: list) -> None:
    write_files(tmp, {"table.csv": table})
    out = tmp / "results.jsonl"
    result = verify_cli(tmp / "docs", tmp / "table.csv", "-o", out, "-o", tmp / "results.csv")
    assert result.exit_code == 0, result.output
    got = rows(out)
    assert [r["quote_id"] for r in got] == [quote_id for quote_id, _, _ in expected]
    assert [r["row"] for r in got] == list(range(2, 2 + len(expected)))
    for row, (_, status, reasons) in zip(got, expected):
        if status is not None:
            assert row["status"] == status
        if reasons is not None:
            assert [r for r in row["reasons"] if r in reasons] == reasons
    assert len(csv_rows(tmp / "results.csv")) == len(expected)


def test_blank_rows_are_skipped_but_counted(tmp: Path) -> None:
    # As a spreadsheet shows the file: the blank line and the row of empty cells are rows 3 and 4.
    write_files(tmp, {"t.csv": "quote_id,quote\nq1,\n\n,\nq5,Why did it close?\n",
                      "t.xlsx": workbook(("Quotes", [["quote_id", "quote"], ["q1", " "], [], [None, ""],
                                                     ["q5", "Why did it close?"]]))})
    for name in ("t.csv", "t.xlsx"):
        assert [(q.row, q.quote_id, q.problem) for q in load_quotes(tmp / name).quotes] == [
            (2, "q1", "empty quote: nothing to verify"), (5, "q5", "")]


def test_row_problems_are_also_warned(tmp: Path) -> None:
    write_files(tmp, {"table.csv": "id,quote\nq1,We lost 15, maybe 20\nq2,a,b\nq3,Fine.\n"})
    result = verify_cli(tmp / "docs", tmp / "table.csv")
    assert result.exit_code == 0
    assert (f"Warning: {tmp / 'table.csv'}: 2 row(s) have more cells than the header has columns (first: row 2); "
            "they are reported unverified, not checked") in result.stderr.splitlines()


def test_duplicate_ids_are_warned(tmp: Path) -> None:
    write_files(tmp, {"table.csv": "quote_id,quote\nq1,Why did it close?\nq1,The patients noticed.\n"})
    result = verify_cli(tmp / "docs", tmp / "table.csv")
    assert f"Warning: {tmp / 'table.csv'}: row 3: duplicate quote_id 'q1' renamed 'q1#2'" in result.stderr


def test_formula_like_cells_are_plain_text_in_and_safe_out(tmp: Path) -> None:
    texts = ['=HYPERLINK("http://example.com","click")', "+1", "@x", "-- I think we were naive", "=1+1"]
    write_files(tmp, {"table.jsonl": "".join(json.dumps({"quote_id": f"q{k}", "quote": t, "note": t}) + "\n"
                                             for k, t in enumerate(texts))})
    out = {suffix: tmp / f"results{suffix}" for suffix in (".jsonl", ".csv", ".xlsx")}
    result = verify_cli(tmp / "docs", tmp / "table.jsonl", *[a for o in out.values() for a in ("-o", o)])
    assert result.exit_code == 0, result.output
    assert [r["quote"] for r in rows(out[".jsonl"])] == texts  # the JSONL keeps the exact text
    assert [r["extra"]["note"] for r in rows(out[".jsonl"])] == texts
    table = csv_rows(out[".csv"])
    assert [r["quote"] for r in table] == ["'" + t for t in texts]  # a leading ' : never run as a formula
    assert [r["note"] for r in table] == ["'" + t for t in texts]
    sheet = openpyxl.load_workbook(out[".xlsx"])["Quotes"]
    header = [c.value for c in sheet[1]]
    cells = [row[header.index("quote")] for row in sheet.iter_rows(min_row=2)]
    assert sorted(c.value for c in cells) == sorted(texts)
    assert {c.data_type for c in cells} == {"s"}


def test_formula_cells_of_an_xlsx_are_read_as_their_saved_values(tmp: Path) -> None:
    # openpyxl saves a formula without its value: the quote is unverified with the reason, never its formula text
    # (a workbook Excel saved reads as the value it shows; see test_faults).
    write_files(tmp, {"quotes.xlsx": workbook(("Quotes", [["quote"], ['=HYPERLINK("http://x","y")'], ["@x"]]))})
    loaded = load_quotes(tmp / "quotes.xlsx")
    assert [(q.text, q.problem) for q in loaded.quotes] == [
        ("", 'cell A2 holds the formula =HYPERLINK("http://x","y") and no value saved for it (the file was not '
             "saved by a program that computes formulas); open it in Excel and save it, or paste the values"),
        ("@x", "")]


def test_extra_columns_pass_through(tmp: Path) -> None:
    # "status" and "line" are also result columns: the table's own are kept beside them.
    write_files(tmp, {"table.csv": "id,quote,Coder,status,line\n"
                                   "q1,We lost 15 volunteers in the first month.,AB,coded,12\n"})
    out_jsonl, out_csv = tmp / "r.jsonl", tmp / "r.csv"
    assert verify_cli(tmp / "docs", tmp / "table.csv", "-o", out_jsonl, "-o", out_csv).exit_code == 0
    (row,) = rows(out_jsonl)
    assert row["extra"] == {"Coder": "AB", "status": "coded", "line": "12"}
    (line,) = csv_rows(out_csv)
    assert (line["status"], line["line"]) == ("verified", "2")
    assert (line["Coder"], line["input_status"], line["input_line"]) == ("AB", "coded", "12")
    frame = quoteverify.verify_frame(TINY_CORPUS, load_quotes(tmp / "table.csv"), NO_EMBED)
    assert list(frame[["status", "input_status", "Coder"]].iloc[0]) == ["verified", "coded", "AB"]


def test_extra_jsonl_fields_keep_their_json(tmp: Path) -> None:
    write_files(tmp, {"t.jsonl": json.dumps({"quote": "Why did it close?", "meta": {"page": 3}, "tags": ["a"],
                                             "score": 0.5}) + "\n"})
    (quote,) = load_quotes(tmp / "t.jsonl").quotes
    assert dict(quote.extra) == {"meta": '{"page": 3}', "tags": '["a"]', "score": "0.5"}


def test_unnamed_and_repeated_columns_lose_nothing(tmp: Path) -> None:
    write_files(tmp, {"t.csv": "quote,note,note,\nWhy did it close?,first,second,third\n",
                      "t.xlsx": workbook(("Quotes", [["quote", None, "note", "note"],
                                                     ["Why did it close?", "b", "c", "d", "beyond the header"]]))})
    (quote,) = load_quotes(tmp / "t.csv").quotes
    assert dict(quote.extra) == {"note": "first", "note (2)": "second", "column 4": "third"}
    (quote,) = load_quotes(tmp / "t.xlsx").quotes
    assert dict(quote.extra) == {"column 2": "b", "note": "c", "note (2)": "d", "column 5": "beyond the header"}


# ------------------------------------------------------------ encodings, delimiters, line ends

def _table(text: str, encoding: str, delimiter: str = ",", newline: str = "\n") -> bytes:
    return text.replace(",", delimiter).replace("\n", newline).encode(encoding)


TABLE = "quote_id,quote\nq1,We lost 15 volunteers in the first month.\nq2,Café – “naïve” about it\n"


@pytest.mark.parametrize(("name", "data", "warning"), [
    ("semicolon.csv", _table(TABLE, "utf-8", ";"), None),
    ("tab.csv", _table(TABLE, "utf-8", "\t"), None),
    ("pipe.csv", _table(TABLE, "utf-8", "|"), None),
    ("tabs.tsv", _table(TABLE, "utf-8", "\t"), None),
    ("bom.csv", b"\xef\xbb\xbf" + _table(TABLE, "utf-8"), None),
    ("crlf.csv", _table(TABLE, "utf-8", newline="\r\n"), None),
    ("old-mac.csv", _table(TABLE, "utf-8", newline="\r"), None),
    ("excel-unicode.csv", _table(TABLE, "utf-16", "\t", "\r\n"), None),  # Excel's "Unicode text"
    ("utf16-no-bom.csv", _table(TABLE, "utf-16-le"), None),
    ("windows.csv", _table(TABLE, "cp1252", ";"), "not UTF-8; decoded as Windows-1252 (offsets are into that decoding)"),
])
def test_delimiters_and_encodings_of_csv(tmp: Path, name: str, data: bytes, warning: str | None) -> None:
    write_files(tmp, {name: data})
    loaded = load_quotes(tmp / name)
    assert [(q.row, q.quote_id, q.text) for q in loaded.quotes] == [
        (2, "q1", "We lost 15 volunteers in the first month."), (3, "q2", "Café – “naïve” about it")]
    assert loaded.warnings == ((f"{tmp / name}: {warning}",) if warning else ())


def test_txt_and_jsonl_lines_end_only_at_line_ends(tmp: Path) -> None:
    # Form feed, vertical tab, U+2028 and NEL are characters of a quote, not line ends (as for str.splitlines).
    odd = "We lost 15\x0cvolunteers\x0bin the\u2028first\x85month."
    write_files(tmp, {"q.txt": f"{odd}\r\nWhy did it close?\rThe patients noticed.\n",
                      "q.jsonl": json.dumps({"quote": odd}, ensure_ascii=False) + "\r\n" + '{"quote": "x"}\n'})
    assert [(q.row, q.text) for q in load_quotes(tmp / "q.txt").quotes] == [
        (1, odd), (2, "Why did it close?"), (3, "The patients noticed.")]
    assert [(q.row, q.text) for q in load_quotes(tmp / "q.jsonl").quotes] == [(1, odd), (2, "x")]


def test_a_table_below_blank_rows(tmp: Path) -> None:
    write_files(tmp, {"t.csv": "\n\nquote\nWhy did it close?\n",
                      "t.xlsx": workbook(("Quotes", [[], [], [None, "quote"], [None, "Why did it close?"]]))})
    assert [(q.row, q.text) for q in load_quotes(tmp / "t.csv").quotes] == [(4, "Why did it close?")]
    assert [(q.row, q.text) for q in load_quotes(tmp / "t.xlsx").quotes] == [(4, "Why did it close?")]


def test_xlsx_with_several_sheets(tmp: Path) -> None:
    write_files(tmp, {"quotes.xlsx": workbook(NOTES_SHEET, QUOTES_SHEET)})
    result = verify_cli(tmp / "docs", tmp / "quotes.xlsx", "--sheet", "Quotes")
    assert result.exit_code == 0, result.output
    (row,) = map(json.loads, result.stdout.splitlines())
    assert (row["quote_id"], row["row"], row["status"]) == ("q1", 2, "verified")


def test_xml_bomb_is_refused_by_defusedxml(tmp: Path) -> None:
    import openpyxl.xml

    assert openpyxl.xml.DEFUSEDXML  # openpyxl parses workbooks through defusedxml
    write_files(tmp, {"quotes.xlsx": xml_bomb})
    started = time.perf_counter()
    with pytest.raises(quoteverify.InputError, match="refused: its XML declares entities"):
        load_quotes(tmp / "quotes.xlsx")
    assert time.perf_counter() - started < 10


def test_xlsx_without_defusedxml_is_refused(tmp: Path, monkeypatch) -> None:
    monkeypatch.setattr(openpyxl, "DEFUSEDXML", False)
    write_files(tmp, {"quotes.xlsx": workbook(QUOTES_SHEET)})
    with pytest.raises(quoteverify.InputError) as error:
        load_quotes(tmp / "quotes.xlsx")
    assert str(error.value) == (f"{tmp / 'quotes.xlsx'}: not read: OPENPYXL_DEFUSEDXML=False turns off openpyxl's "
                                "protection against hostile XML; unset it")


def test_zip_bomb_is_refused(tmp: Path) -> None:
    # The limit is limits.max_unzipped_bytes of the config; lowered here rather than writing a bomb.
    from dataclasses import replace

    from quoteverify.plumbing.archive import ArchiveLimits

    write_files(tmp, {"quotes.xlsx": workbook(QUOTES_SHEET)})
    with pytest.raises(quoteverify.InputError) as error:
        load_quotes(tmp / "quotes.xlsx", limits=replace(ArchiveLimits.of(), max_unzipped_bytes=1000))
    assert str(error.value).startswith(f"{tmp / 'quotes.xlsx'}: refused: it would unzip to ")
    # From Python, the limit is raised in the config given (the command line names --config).
    assert str(error.value).endswith(" bytes, more than the limit of 1,000 bytes (limits.max_unzipped_bytes in "
                                     "the config), as zip bombs do")


# ------------------------------------------------------------------------------- documents

def test_document_encodings_and_line_ends(tmp_path: Path) -> None:
    passage = "We lost 15 volunteers."
    texts = {
        "bom": ("\ufeffMaria: We lost 15 volunteers.\nDone.", "utf-8", "utf-8"),
        "utf16": ("Maria: We lost 15 volunteers.\r\nDone.", "utf-16", "utf-16"),
        "utf16le": ("Maria: We lost 15 volunteers.\r\nDone.", "utf-16-le", "utf-16-le"),
        "crlf": ("Intro.\r\nMaria: We lost 15\r\nvolunteers.\r\nDone.", "utf-8", "utf-8"),
        "cr": ("Intro.\rMaria: We lost 15\rvolunteers.\rDone.", "utf-8", "utf-8"),
        "windows": ("Intro – “café”.\nMaria: We lost 15 volunteers.", "cp1252", "cp1252"),
        "controls": ("Intro.\x0c\nMaria: We lost\x0b15 volunteers.\x1b\x07\nDone.", "utf-8", "utf-8"),
    }
    for name, (text, encoding, _) in texts.items():
        (tmp_path / f"{name}.txt").write_bytes(text.encode(encoding))
    loaded = load_documents([tmp_path])
    assert loaded.warnings == (f"{tmp_path / 'windows.txt'}: not UTF-8; decoded as Windows-1252 "
                               "(offsets are into that decoding)",)
    by_id = {d.doc_id: d for d in loaded.documents}
    assert {name: (by_id[name].text, by_id[name].encoding) for name in texts} == {
        name: (text, decoded) for name, (text, _, decoded) in texts.items()}
    quotes = [{"quote_id": name, "quote": passage, "document": name} for name in texts]
    results = quoteverify.verify(loaded, quotes, NO_EMBED)
    for result in results:
        text = by_id[result.quote_id].text
        assert result.document == result.quote_id
        assert result.status == "verified", (result.quote_id, result.reasons)
        assert " ".join(text[result.start:result.end].split()) == passage
    lines = {r.quote_id: r.line for r in results}
    assert (lines["crlf"], lines["cr"], lines["bom"]) == (2, 2, 1)


def test_hidden_files_in_folders_are_not_documents(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "interview.txt").write_text("A copy.", encoding="utf-8")
    (tmp_path / "._interview.txt").write_bytes(b"\x00\x05\x16\x07Mac OS X resource fork")
    (tmp_path / "interview.txt").write_text("The real one.", encoding="utf-8")
    assert [d.path for d in load_documents([tmp_path]).documents] == [str(tmp_path / "interview.txt")]
    # Named explicitly, a hidden file is read like any other.
    assert [d.doc_id for d in load_documents([tmp_path / ".git" / "interview.txt"]).documents] == ["interview"]


def test_empty_document_is_skipped_with_a_warning(tmp: Path) -> None:
    write_files(tmp, {"docs/blank.txt": "\r\n  \n"})
    result = verify_cli(tmp / "docs", tmp / "quotes.csv")
    assert result.exit_code == 0
    assert f"Warning: {tmp / 'docs' / 'blank.txt'}: empty document, skipped" in result.stderr.splitlines()


def test_no_documents_at_all() -> None:
    with pytest.raises(quoteverify.InputError) as error:
        quoteverify.verify([], ["x"], NO_EMBED)
    assert str(error.value) == f"no documents given; give files or folders of {', '.join(DOCUMENT_SUFFIXES)} documents"


@pytest.mark.slow
def test_a_100_mb_document(tmp_path: Path) -> None:
    words = ("people money clinic budget nurse volunteer committee ministry paperwork weekend training system "
             "manager patient evening session shift flood water council boat children upstairs neighbour village "
             "we they it was were had not never always").split()
    rng = random.Random(8)
    block = "".join(f"P{k % 5}: " + " ".join(rng.choice(words) for _ in range(25)) + ".\n" for k in range(6000))
    needle = "Maria: The zebra crossing by the old mill closed in 1987, and nobody asked why.\n"
    copies = 100_000_000 // len(block) + 1
    path = tmp_path / "big.txt"
    with open(path, "w", encoding="utf-8", newline="") as handle:
        handle.write(block * (copies // 2))
        handle.write(needle)
        handle.write(block * (copies - copies // 2))
    assert path.stat().st_size > 100_000_000
    quote = "The zebra crossing by the old mill closed in 1987"
    run = quoteverify.run([path], [quote, quote.replace("1987", "1978")], NO_EMBED)
    found, altered = run.results
    text = run.documents[0].text
    assert (found.status, found.match_type) == ("verified", "exact")
    assert text[found.start:found.end] == quote
    assert found.line == block.count("\n") * (copies // 2) + 1
    assert (altered.status, altered.start) == ("review", found.start)


# ------------------------------------------------------------------------------ sizes

def test_a_quote_of_20000_characters(tmp_path: Path) -> None:
    rng = random.Random(20)
    words = "people money clinic budget nurse volunteer committee ministry paperwork weekend".split()
    passage = " ".join(rng.choice(words) for _ in range(2600))[:20_000].rsplit(" ", 1)[0] + " and we lost 15."
    assert len(passage) > 19_000
    document = "Interviewer: Go on.\nMaria: " + passage + "\nInterviewer: Thank you.\n"
    started = time.perf_counter()
    exact, altered = quoteverify.verify({"long": document}, [passage, passage.replace("lost 15", "lost 50")],
                                        NO_EMBED)
    assert time.perf_counter() - started < 20
    assert (exact.status, exact.match_type) == ("verified", "exact")
    assert (exact.start, exact.end) == span_of(document, passage)
    assert (altered.status, altered.match_type) == ("review", "altered")
    assert "number differs: quote says '50', source says '15'" in altered.reasons


N = 100_000


def test_100000_quotes_all_come_back_in_order(tmp: Path) -> None:
    # Every tenth is a real quote; the rest are rows a messy table has: empty, blank, repeated ids,
    # an unknown document. Loading, checking and writing must keep all of them, in order.
    kinds = ["q{k},We lost 15 volunteers in the first month.,interview-01", "q{k},,", 'q{k},"   ",',
             "dup,,", "q{k},,interview-99", "q{k},,", "q{k},,", "q{k},,", "dup,,", "q{k},,"]
    with open(tmp / "many.csv", "w", encoding="utf-8", newline="") as handle:
        handle.write("quote_id,quote,document\n")
        handle.writelines(kinds[k % 10].format(k=k) + "\n" for k in range(N))
    out = tmp / "results.jsonl"
    result = verify_cli(tmp / "docs", tmp / "many.csv", "-o", out)
    assert result.exit_code == 0
    lines = result.stderr.splitlines()
    # 50 warnings (of 19,999 renamed ids), how many more, the columns read, the summary, the output, what next
    assert len(lines) == 56
    assert lines[-6] == "Warning: ... and 19950 more (all in the manifest, with --manifest)"
    assert lines[-5] == ("Columns: quote = 'quote', quote_id = 'quote_id', document = 'document', speaker = (none), "
                         "finding = (none)")
    assert lines[-4].startswith(f"{N} quotes: {N // 10} verified, 0 review, {N - N // 10} unverified (")
    assert lines[-3] == (f"{N // 10} quotes name a document that is not among the documents, e.g. 'interview-99'; "
                         "they were searched in all, so which document they come from was not checked")
    got = rows(out)
    assert [r["row"] for r in got] == list(range(2, N + 2))
    assert len({r["quote_id"] for r in got}) == N
    assert [r["quote_id"] for r in got[:4]] == ["q0", "q1", "q2", "dup"]
    assert got[8]["quote_id"] == "dup#2"
    assert got[4]["reasons"] == ["empty quote: nothing to verify",
                                 "claimed document 'interview-99' is not among the documents; searched all, so "
                                 "which document it comes from was not checked"]


def test_quotes_given_in_python_of_any_kind() -> None:
    nan = float("nan")
    quotes = ["Why did it close?", None, 5, nan, {"quote": nan}, {"quote": ["a", "b"]}]
    results = quoteverify.verify(TINY_CORPUS, quotes, NO_EMBED)
    assert [(r.row, r.quote) for r in results] == [
        (1, "Why did it close?"), (2, ""), (3, "5"), (4, ""), (5, ""), (6, '["a", "b"]')]
    assert [r.reasons for r in results if r.quote == ""] == [["empty quote: nothing to verify"]] * 3


def test_lone_surrogates_reach_every_output(tmp_path: Path) -> None:
    bad = b"We lost 15 volunteers \xff\xfe".decode("utf-8", "surrogateescape")
    results = quoteverify.verify({"d\udcff": "Maria: " + bad}, [bad, "\ud800"], NO_EMBED)
    assert [r.status for r in results] == ["verified", "unverified"]
    write_results(tmp_path / "r.jsonl", results)
    write_results(tmp_path / "r.csv", results)
    assert [r["quote"] for r in rows(tmp_path / "r.jsonl")] == [bad, "\ud800"]  # the escapes read back
    assert [r["quote"] for r in csv_rows(tmp_path / "r.csv")] == ["We lost 15 volunteers \\udcff\\udcfe", "\\ud800"]
