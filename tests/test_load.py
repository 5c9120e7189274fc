"""Quote tables and documents in: formats, column names, row numbers, encodings, bad input."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from quoteverify.model.errors import InputError
from quoteverify.model.types import Document
from quoteverify.plumbing.archive import ArchiveLimits
from quoteverify.sources.documents import DOCUMENT_SUFFIXES, load_documents, read_documents
from quoteverify.sources.quotes import coerce_quotes, load_quotes, read_quotes


def write(path: Path, text: str, encoding: str = "utf-8") -> Path:
    with open(path, "w", encoding=encoding, newline="") as handle:
        handle.write(text)
    return path


def summary(loaded) -> list[tuple[int, str, str, str]]:
    return [(q.row, q.quote_id, q.text, q.claimed_document) for q in loaded.quotes]


# ---------------------------------------------------------------- quote tables

EXPECTED = [
    (2, "q1", "We lost 15 volunteers in the first month.", "interview-01"),
    (3, "q2", "The training was useful, but it was far too short.", "interview-02"),
]


def test_csv(tmp_path: Path) -> None:
    path = write(tmp_path / "quotes.csv",
                 "quote_id,quote,document\r\n"
                 "q1,We lost 15 volunteers in the first month.,interview-01\r\n"
                 'q2,"The training was useful, but it was far too short.",interview-02\r\n')
    loaded = load_quotes(path)
    assert summary(loaded) == EXPECTED
    assert loaded.columns == ("quote_id", "quote", "document")
    assert loaded.warnings == ()
    assert len(loaded.sha256) == 64


def test_tsv(tmp_path: Path) -> None:
    path = write(tmp_path / "quotes.tsv",
                 "quote_id\tquote\tdocument\n"
                 "q1\tWe lost 15 volunteers in the first month.\tinterview-01\n"
                 "q2\tThe training was useful, but it was far too short.\tinterview-02\n")
    assert summary(load_quotes(path)) == EXPECTED


def test_csv_with_semicolons_and_excel_bom(tmp_path: Path) -> None:
    path = write(tmp_path / "quotes.csv",
                 "\ufeffQuote;ID;Source\n"
                 "We lost 15 volunteers in the first month.;q1;interview-01\n"
                 "The training was useful, but it was far too short.;q2;interview-02\n")
    assert summary(load_quotes(path)) == EXPECTED


def test_jsonl(tmp_path: Path) -> None:
    path = write(tmp_path / "quotes.jsonl",
                 json.dumps({"id": "q1", "quote": EXPECTED[0][2], "source": "interview-01"}) + "\n\n"
                 + json.dumps({"id": "q2", "quote": EXPECTED[1][2], "source": "interview-02"}) + "\n")
    # JSONL rows are line numbers; the blank line 2 is skipped but counted.
    assert summary(load_quotes(path)) == [(1,) + EXPECTED[0][1:], (3,) + EXPECTED[1][1:]]


def test_txt_one_quote_per_line(tmp_path: Path) -> None:
    path = write(tmp_path / "quotes.txt", f"{EXPECTED[0][2]}\n\n{EXPECTED[1][2]}\n")
    assert summary(load_quotes(path)) == [(1, "row1", EXPECTED[0][2], ""), (3, "row3", EXPECTED[1][2], "")]


def test_xlsx(tmp_path: Path) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["ID", "Quote", "Document", "Coder"])
    sheet.append([1, EXPECTED[0][2], "interview-01", "AB"])
    sheet.append([None, None, None, None])  # a blank row: skipped, but counted
    sheet.append([2.0, EXPECTED[1][2], "interview-02", "CD"])
    other = book.create_sheet("second")
    other.append(["quote"])
    other.append(["Only here."])
    path = tmp_path / "quotes.xlsx"
    book.save(path)
    loaded = load_quotes(path)
    assert summary(loaded) == [(2, "1", EXPECTED[0][2], "interview-01"), (4, "2", EXPECTED[1][2], "interview-02")]
    assert loaded.quotes[0].extra == (("Coder", "AB"),)
    assert summary(load_quotes(path, sheet="second")) == [(2, "row2", "Only here.", "")]
    with pytest.raises(InputError) as error:
        load_quotes(path, sheet="third")
    assert str(error.value) == f"{path}: no sheet named 'third'; sheets: Sheet, second"


def test_column_names_are_matched_case_insensitively(tmp_path: Path) -> None:
    path = write(tmp_path / "quotes.csv",
                 "QUOTE_ID,Quote,SOURCE,Speaker,Finding,Page\n"
                 "q1,We lost 15 volunteers.,interview-01,Maria,attrition,12\n")
    (quote,) = load_quotes(path).quotes
    assert (quote.quote_id, quote.text, quote.claimed_document, quote.speaker, quote.finding) == (
        "q1", "We lost 15 volunteers.", "interview-01", "Maria", "attrition")
    assert quote.extra == (("Page", "12"),)


def test_rows_are_spreadsheet_rows(tmp_path: Path) -> None:
    """A quoted cell spanning lines is one row; a blank line is a row too."""
    path = write(tmp_path / "quotes.csv",
                 'id,quote\n'
                 'q1,"First paragraph.\nSecond paragraph."\n'
                 '\n'
                 'q2,Third.\n')
    assert summary(load_quotes(path)) == [(2, "q1", "First paragraph.\nSecond paragraph.", ""),
                                          (4, "q2", "Third.", "")]


def test_missing_ids_become_row_ids(tmp_path: Path) -> None:
    path = write(tmp_path / "quotes.csv", "id,quote\nq1,One.\n,Two.\n")
    assert [q.quote_id for q in load_quotes(path).quotes] == ["q1", "row3"]


def test_duplicate_ids_are_renamed_with_a_warning(tmp_path: Path) -> None:
    path = write(tmp_path / "quotes.csv", "id,quote\nq1,One.\nq1,Two.\nq1,Three.\nq1#2,Four.\n")
    loaded = load_quotes(path)
    ids = [q.quote_id for q in loaded.quotes]
    assert ids[:3] == ["q1", "q1#2", "q1#3"]
    assert len(set(ids)) == 4
    assert loaded.warnings[:2] == (f"{path}: row 3: duplicate quote_id 'q1' renamed 'q1#2'",
                                   f"{path}: row 4: duplicate quote_id 'q1' renamed 'q1#3'")


def test_empty_quotes_are_kept_with_a_problem(tmp_path: Path) -> None:
    path = write(tmp_path / "quotes.csv", 'id,quote\nq1,One.\nq2,\nq3,"   "\nq4,Four.\n')
    quotes = load_quotes(path).quotes
    assert [(q.quote_id, q.problem) for q in quotes] == [
        ("q1", ""), ("q2", "empty quote: nothing to verify"), ("q3", "empty quote: nothing to verify"), ("q4", "")]


def test_missing_quote_column(tmp_path: Path) -> None:
    path = write(tmp_path / "quotes.csv", "ID,Passage,Document\n1,We lost 15 volunteers.,interview-01\n")
    with pytest.raises(InputError) as error:
        load_quotes(path)
    assert str(error.value) == (f"{path}: no quote column (looked for quote, text, quotation, quote_text, content, excerpt); "
                                "found columns: 'ID', 'Passage', 'Document'; name it with the config's columns.quote")


@pytest.mark.parametrize(("name", "content", "message"), [
    ("quotes.csv", "", "{path}: empty quote table; it needs a header row with a 'quote' column"),
    ("quotes.pdf", "x", "{path}: unsupported quote table type '.pdf'; use .csv, .tsv, .xlsx, .jsonl, .txt, .qdpx"),
    ("quotes.jsonl", '{"quote": "a"}\n{"quote": \n',
     "{path}: line 2: not valid JSON (Expecting value at column 11); one JSON object per line"),
    ("quotes.jsonl", '["a list"]\n', "{path}: line 1: expected a JSON object with a 'quote' field"),
])
def test_bad_quote_tables(tmp_path: Path, name: str, content: str, message: str) -> None:
    path = write(tmp_path / name, content)
    with pytest.raises(InputError) as error:
        load_quotes(path)
    assert str(error.value) == message.format(path=path)


def test_missing_quote_table(tmp_path: Path) -> None:
    with pytest.raises(InputError) as error:
        load_quotes(tmp_path / "nope.csv")
    assert str(error.value) == f"{tmp_path / 'nope.csv'}: no such quote table"


def test_damaged_xlsx(tmp_path: Path) -> None:
    path = tmp_path / "quotes.xlsx"
    path.write_bytes(b"PK\x03\x04 not really a workbook")
    with pytest.raises(InputError) as error:
        load_quotes(path)
    assert str(error.value).startswith(f"{path}: not a readable .xlsx workbook (")


def test_quotes_given_in_python() -> None:
    quotes = coerce_quotes(["One.", {"quote": "Two.", "id": "b", "document": "interview-01"}, ""])
    assert [(q.row, q.quote_id, q.text, q.claimed_document, q.problem) for q in quotes] == [
        (1, "row1", "One.", "", ""), (2, "b", "Two.", "interview-01", ""),
        (3, "row3", "", "", "empty quote: nothing to verify")]


# ------------------------------------------------------------------ documents

def test_documents_from_a_folder(tmp_path: Path) -> None:
    folder = tmp_path / "transcripts"
    (folder / "wave-2").mkdir(parents=True)
    write(folder / "interview-02.txt", "Second.\r\nWith a CRLF.\r\n")
    write(folder / "interview-01.md", "# First\n")
    write(folder / "wave-2" / "interview-03.txt", "Third.")
    write(folder / "notes.csv", "not,a,document\n")
    write(folder / "README", "no extension")
    loaded = load_documents([folder])
    assert [(d.doc_id, d.text, d.encoding) for d in loaded.documents] == [
        ("interview-01", "# First\n", "utf-8"),
        ("interview-02", "Second.\r\nWith a CRLF.\r\n", "utf-8"),
        ("interview-03", "Third.", "utf-8"),
    ]
    assert loaded.warnings == ()
    doc = loaded.documents[1]
    assert doc.path == str(folder / "interview-02.txt")
    with open(doc.path, encoding="utf-8", newline="") as handle:
        assert doc.text == handle.read()  # offsets are into this text: a CRLF counts as two characters


def test_documents_from_files_and_folders(tmp_path: Path) -> None:
    write(tmp_path / "a.txt", "A.")
    (tmp_path / "more").mkdir()
    write(tmp_path / "more" / "b.txt", "B.")
    loaded = load_documents([tmp_path / "more", str(tmp_path / "a.txt")])
    assert [d.doc_id for d in loaded.documents] == ["a", "b"]


def test_duplicate_stems(tmp_path: Path) -> None:
    (tmp_path / "wave-2").mkdir()
    write(tmp_path / "interview-01.txt", "One.")
    write(tmp_path / "wave-2" / "interview-01.md", "Also one.")
    with pytest.raises(InputError) as error:
        load_documents([tmp_path])
    assert str(error.value) == (
        f"{tmp_path / 'wave-2' / 'interview-01.md'}: document id 'interview-01' is also the id of "
        f"{tmp_path / 'interview-01.txt'}; rename one of them (ids are file names without the extension)")


def test_binary_file(tmp_path: Path) -> None:
    path = tmp_path / "recording.txt"
    path.write_bytes(b"RIFF\x00\x00\x00\x00WAVEfmt ")
    with pytest.raises(InputError) as error:
        load_documents([path])
    assert str(error.value) == (f"{path}: looks like a binary file (it holds NUL bytes), not text; "
                                "convert it to plain text or leave it out")


def test_utf16_with_bom(tmp_path: Path) -> None:
    path = tmp_path / "interview.txt"
    path.write_bytes("Maria: We lost 15 volunteers.\r\n".encode("utf-16"))
    (doc,) = load_documents([path]).documents
    assert (doc.text, doc.encoding) == ("Maria: We lost 15 volunteers.\r\n", "utf-16")


def test_windows_1252_is_decoded_with_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "interview.txt"
    path.write_bytes("Caf\u00e9 talk: \u201cwe lost 15\u201d \u2013 Maria".encode("cp1252"))
    loaded = load_documents([path])
    (doc,) = loaded.documents
    assert (doc.text, doc.encoding) == ("Caf\u00e9 talk: \u201cwe lost 15\u201d \u2013 Maria", "cp1252")
    assert loaded.warnings == (f"{path}: not UTF-8; decoded as Windows-1252 (offsets are into that decoding)",)


def test_empty_document_is_skipped(tmp_path: Path) -> None:
    write(tmp_path / "blank.txt", " \n\n")
    write(tmp_path / "real.txt", "Words.")
    loaded = load_documents([tmp_path])
    assert [d.doc_id for d in loaded.documents] == ["real"]
    assert loaded.warnings == (f"{tmp_path / 'blank.txt'}: empty document, skipped",)


@pytest.mark.parametrize(("setup", "message"), [
    (lambda p: write(p / "blank.txt", "\n"), "no usable documents: every document given is empty"),
    (lambda p: write(p / "quotes.csv", "quote\n"),
     "{path}: unsupported document type '.csv'; use " + ", ".join(DOCUMENT_SUFFIXES) + ", .qdpx"),
    (lambda p: p / "nowhere", "{path}: no such file or folder"),
])
def test_bad_documents(tmp_path: Path, setup, message: str) -> None:
    path = setup(tmp_path)
    with pytest.raises(InputError) as error:
        load_documents([path])
    assert str(error.value) == message.format(path=path)


def test_folder_without_documents(tmp_path: Path) -> None:
    write(tmp_path / "quotes.csv", "quote\n")
    with pytest.raises(InputError) as error:
        load_documents([tmp_path])
    assert str(error.value) == f"{tmp_path}: no {'/'.join(DOCUMENT_SUFFIXES)} documents in this folder"


def _given_documents(tmp_path: Path) -> dict[str, object]:
    (tmp_path / "b.txt").write_text("Speaker 1: the second document.\n", encoding="utf-8")
    (tmp_path / "a.txt").write_text("Speaker 1: the first document.\n", encoding="utf-8")
    return {"a folder": tmp_path, "paths": [str(tmp_path / "b.txt"), tmp_path / "a.txt"],
            "a mapping": {"b": "the second document.", "a": "the first document."},
            "documents": [Document("b", "", "the second document.", "x"), Document("a", "", "the first.", "y")]}


@pytest.mark.parametrize("form, ids", [("a folder", ["a", "b"]), ("paths", ["a", "b"]), ("a mapping", ["a", "b"]),
                                       ("documents", ["a", "b"])])
def test_documents_are_read_however_they_are_given(tmp_path: Path, form: str, ids: list[str]) -> None:
    loaded = read_documents(_given_documents(tmp_path)[form], ArchiveLimits.of())
    assert [d.doc_id for d in loaded.documents] == ids


def test_a_mix_of_paths_and_documents_is_refused_in_one_line(tmp_path: Path) -> None:
    given = _given_documents(tmp_path)
    with pytest.raises(InputError) as raised:
        read_documents([*given["documents"], *given["paths"]], ArchiveLimits.of())
    assert str(raised.value) == ("documents: give paths of files and folders, or Document objects, not a mix of them "
                                 "or anything else")


@pytest.mark.parametrize("quotes, expected", [
    (["one quote", "another"], (("row1", "one quote"), ("row2", "another"))),
    ([{"quote": "x", "quote_id": "q7"}], (("q7", "x"),)),
])
def test_quotes_given_in_python_have_no_table(quotes, expected) -> None:
    table = read_quotes(quotes, {}, ArchiveLimits.of())
    assert tuple((q.quote_id, q.text) for q in table.quotes) == expected
    assert (table.columns, table.sha256, table.warnings) == ((), "", ())
