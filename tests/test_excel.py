"""The Excel triage workbook, reopened with openpyxl, and reading a reviewed workbook back."""
from __future__ import annotations

import json
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from openpyxl import load_workbook
from openpyxl.cell.rich_text import CellRichText, TextBlock

import quoteverify
from quoteverify.app.review import carry_decisions, parse_decision, read_review
from quoteverify.cli import main
from quoteverify.export import write_results
from quoteverify.export.excel import MAX_CELL, TRUNCATED, highlights, write_workbook
from quoteverify.model.errors import InputError
from quoteverify.model.types import QuoteResult

NO_EMBED = {"embed": {"enabled": False}}
DOCS = {
    "interview-01": "Interviewer: How many?\nAnna: The committee approved fifty new homes in March. "
                    "We were not happy about it.\n",
    "interview-02": "Ben: I never said the budget was fine.\n",
}
QUOTES = [
    {"quote_id": "q1", "quote": "The committee approved fifteen new homes in March.", "document": "interview-01"},
    {"quote_id": "q2", "quote": "We were not happy about it.", "document": "interview-01"},
    {"quote_id": "q3", "quote": "I said the budget was fine.", "document": "interview-02"},
    {"quote_id": "q4", "quote": "Completely made up sentence about dragons.", "document": ""},
]
RED, ORANGE, BLUE = "00C00000", "00C55A11", "002F5597"


def result(quote_id: str, **fields) -> QuoteResult:
    fields.setdefault("quote", f"quote {quote_id}")
    return QuoteResult(quote_id=quote_id, row=int(quote_id.strip("q") or 0) + 1, **fields)


def columns(sheet) -> dict[str, int]:
    """Header name -> 1-based column index."""
    return {cell.value: cell.column for cell in sheet[1]}


def column_values(sheet, name: str) -> list:
    k = columns(sheet)[name]
    return [row[k - 1].value for row in sheet.iter_rows(min_row=2)]


def runs(value) -> list[tuple[str, bool, str | None]]:
    """(text, bold, colour) of each highlighted run of a rich-text cell."""
    assert isinstance(value, CellRichText), value
    return [(block.text, bool(block.font.b), block.font.color.rgb) for block in value if isinstance(block, TextBlock)]


@pytest.fixture(scope="module")
def checked():
    return quoteverify.run(DOCS, QUOTES, NO_EMBED)


@pytest.fixture
def workbook(tmp_path, checked) -> Path:
    path = tmp_path / "results.xlsx"
    write_workbook(path, checked.results, run=checked)
    return path


# --- the Quotes sheet -----------------------------------------------------------------------------


def test_rows_are_worst_first_with_ties_in_input_order(tmp_path):
    confidences = {"q1": 0.5, "q2": 0.2, "q3": 0.5, "q4": 0.9, "q5": 0.2, "q6": 0.0}
    results = [result(q, confidence=c) for q, c in confidences.items()]
    path = tmp_path / "order.xlsx"
    write_workbook(path, results)
    sheet = load_workbook(path)["Quotes"]
    assert column_values(sheet, "quote_id") == ["q6", "q2", "q5", "q1", "q3", "q4"]
    assert column_values(sheet, "confidence") == [0.0, 0.2, 0.2, 0.5, 0.5, 0.9]
    assert column_values(sheet, "row") == [7, 3, 6, 2, 4, 5]


def test_columns_in_order(workbook):
    sheet = load_workbook(workbook)["Quotes"]
    # What the reviewer reads and decides first; columns empty in every row (claimed_speaker, timestamp,
    # manuscript_context) left out; the evidence and offsets at the far right.
    assert list(columns(sheet)) == [
        "quote_id", "quote", "matched_text", "status", "severity", "reasons", "decision", "reviewer_note",
        "p_change", "match_type", "confidence", "band", "document", "line", "place", "speaker", "claimed_document", "suggestion",
        "row", "start", "end", "bm25_score", "bm25_ratio", "cosine", "match_ratio", "fingerprint"]


def test_laid_out_for_triage(workbook):
    sheet = load_workbook(workbook)["Quotes"]
    named = columns(sheet)
    assert named["decision"] <= 8 and named["reviewer_note"] <= 8
    # Frozen at the quote: the header row and the id and quote columns stay in view.
    assert sheet.freeze_panes == "C2" and (named["quote_id"], named["quote"]) == (1, 2)
    # No wide column is empty in every row, but the reviewer's own.
    for name, k in named.items():
        width = sheet.column_dimensions[sheet.cell(row=1, column=k).column_letter].width
        if width > 12 and name not in ("decision", "reviewer_note"):
            assert any(row[k - 1].value not in (None, "") for row in sheet.iter_rows(min_row=2)), name


def test_optional_columns_appear_when_some_row_has_them(tmp_path):
    results = [result("q1", speaker="P3", timestamp="00:01:02", claimed_speaker="P3", status="verified"),
               result("q2", extra={"context": "paragraph 4: ...", "coder": "AB"})]
    path = tmp_path / "optional.xlsx"
    write_workbook(path, results)
    named = list(columns(load_workbook(path)["Quotes"]))
    assert named[named.index("speaker"):named.index("row")] == [
        "speaker", "timestamp", "claimed_speaker", "manuscript_context", "coder"]


def test_severity_column_summary_and_colours(tmp_path):
    results = [result("q1", status="review", severity="high", p_change=0.99, confidence=0.5),
               result("q2", status="review", severity="low", p_change=0.9, confidence=0.4),
               result("q3", status="review", severity="medium", p_change=0.95, confidence=0.6),
               result("q4", status="verified", confidence=0.9)]
    path = tmp_path / "severity.xlsx"
    write_workbook(path, results)
    book = load_workbook(path)
    sheet = book["Quotes"]
    assert column_values(sheet, "quote_id") == ["q1", "q3", "q2", "q4"]  # review by p_change, likeliest first
    assert column_values(sheet, "severity") == ["high", "medium", "low", None]
    k = columns(sheet)["severity"]
    assert [row[k - 1].fill.fgColor.rgb for row in sheet.iter_rows(min_row=2, max_row=4)] == [
        "00FFC7CE", "00FCE4D6", "00EDEDED"]
    summary = [row[:2] for row in book["Summary"].iter_rows(values_only=True)]
    at = summary.index(("Quotes in review by severity", None))
    assert summary[at + 1:at + 6] == [("severity", "quotes"), ("high", 1), ("medium", 1), ("low", 1), ("total", 3)]


def test_the_guide_sheet_comes_first_and_explains_every_status_severity_colour_and_decision(workbook):
    from quoteverify.export import guide

    book = load_workbook(workbook)
    assert book.sheetnames[:2] == ["Guide", "Quotes"]
    text = [str(v) for row in book["Guide"].iter_rows(values_only=True) for v in row if v is not None]
    expected = [*guide.STATUS_MEANING.values(), *guide.SEVERITY_MEANING.values(), guide.SEVERITY_NOTE,
                *(m for _, _, m in guide.COLOURS), guide.DECISION_NOTE,
                *(m for meanings in guide.DECISION_MEANING.values() for m in meanings.values())]
    assert [m for m in expected if m not in text] == []


def test_located_quote_carries_its_location_and_reasons(workbook):
    sheet = load_workbook(workbook)["Quotes"]
    row = {name: sheet.cell(row=k, column=c).value
           for k in range(2, sheet.max_row + 1) if sheet.cell(row=k, column=columns(sheet)["quote_id"]).value == "q1"
           for name, c in columns(sheet).items()}
    assert (row["status"], row["match_type"], row["document"], row["line"], row["speaker"], row["place"]) == \
           ("review", "altered", "interview-01", 2, "Anna", "1 of 1")
    assert row["reasons"] == "number differs: quote says 'fifteen', source says 'fifty'"
    assert row["decision"] is None and row["reviewer_note"] is None


def test_status_fills(workbook):
    sheet = load_workbook(workbook)["Quotes"]
    status_column = columns(sheet)["status"]
    fills = {row[status_column - 1].value: row[status_column - 1].fill.fgColor.rgb
             for row in sheet.iter_rows(min_row=2)}
    assert fills == {"verified": "00C6EFCE", "review": "00FFEB9C", "unverified": "00FFC7CE"}


def test_differing_words_are_highlighted_in_quote_and_source(workbook):
    sheet = load_workbook(workbook, rich_text=True)["Quotes"]
    by_id = {row[columns(sheet)["quote_id"] - 1].value: row for row in sheet.iter_rows(min_row=2)}
    quote, source = columns(sheet)["quote"] - 1, columns(sheet)["matched_text"] - 1
    assert runs(by_id["q1"][quote].value) == [("fifteen", True, RED)]
    assert runs(by_id["q1"][source].value) == [("fifty", True, RED)]
    assert str(by_id["q1"][quote].value) == "The committee approved fifteen new homes in March."
    # A word only in the source is highlighted there; the quote has nothing to mark.
    assert by_id["q3"][quote].value == "I said the budget was fine."
    assert runs(by_id["q3"][source].value) == [("never", True, RED)]
    # No differences: plain text.
    assert by_id["q2"][quote].value == "We were not happy about it."


def test_highlight_colours_by_kind(tmp_path):
    differences = [{"kind": "typo", "quote_text": "teh", "source_text": "the"},
                   {"kind": "normalization", "quote_text": "A", "source_text": "a"},
                   {"kind": "word", "quote_text": "big", "source_text": "large"}]
    results = [result("q1", quote="teh cat saw A big dog", matched_text="the cat saw a large dog",
                      differences=differences, status="review")]
    path = tmp_path / "kinds.xlsx"
    write_workbook(path, results)
    sheet = load_workbook(path, rich_text=True)["Quotes"]
    assert runs(sheet["B2"].value) == [("teh", False, BLUE), ("A", False, BLUE), ("big", True, ORANGE)]
    assert runs(sheet["C2"].value) == [("the", False, BLUE), ("a", False, BLUE), ("large", True, ORANGE)]


@pytest.mark.parametrize("text, fragments, expected", [
    # in order: the second "the" is found after the first
    ("the cat and the dog", [("the", "word"), ("the", "name")], [(0, 3, "word"), (12, 15, "name")]),
    # never inside a longer word
    ("can a man", [("a", "typo")], [(4, 5, "typo")]),
    ("that one", [("at", "word")], []),
    # punctuation edges need no word boundary
    ("well... yes", [("...", "elision")], [(4, 7, "elision")]),
    # a fragment that is not in the text (an order difference describes a place) is skipped
    ("some words", [("document-7 at 120", "order"), ("words", "word")], [(5, 10, "word")]),
    # empty fragments (a word only on the other side) mark nothing
    ("some words", [("", "negation")], []),
    # overlaps are dropped
    ("big red ball", [("big red", "word"), ("red", "typo")], [(0, 7, "word")]),
])
def test_highlights(text, fragments, expected):
    assert [(h.start, h.end, h.kind) for h in highlights(text, fragments)] == expected


def test_decision_dropdown(workbook):
    sheet = load_workbook(workbook)["Quotes"]
    (validation,) = sheet.data_validations.dataValidation
    letter = sheet.cell(row=1, column=columns(sheet)["decision"]).column_letter
    assert validation.type == "list"
    assert validation.formula1 == '"accept,reject,fix quote,fix source"'
    assert str(validation.sqref) == f"{letter}2:{letter}{len(QUOTES) + 1}"
    assert validation.allow_blank and validation.showErrorMessage


def test_frozen_header_filter_wrap_and_widths(workbook):
    sheet = load_workbook(workbook)["Quotes"]
    assert sheet.freeze_panes == "C2"
    assert sheet.auto_filter.ref == f"A1:Z{len(QUOTES) + 1}"
    quote = sheet.cell(row=2, column=columns(sheet)["quote"])
    assert quote.alignment.wrap_text and quote.alignment.vertical == "top"
    assert sheet.column_dimensions[quote.column_letter].width == 48
    assert sheet["A1"].font.b
    fingerprint = sheet.cell(row=1, column=columns(sheet)["fingerprint"]).column_letter
    assert sheet.column_dimensions[fingerprint].hidden


FORMULA_LIKE = ["=SUM(A1)", "+1", "-x", "@cmd", "=HYPERLINK(\"http://example.com\",\"x\")", "-2.5"]


def test_no_cell_holds_a_formula(tmp_path):
    results = [result(f"q{k}", quote=text, matched_text=text, suggestion=text, reasons=[text], speaker=text,
                      document=text, reviewer_note=text, status="review")
               for k, text in enumerate(FORMULA_LIKE, start=1)]
    path = tmp_path / "formulas.xlsx"
    write_workbook(path, results)
    book = load_workbook(path)
    for sheet in book.worksheets:
        for row in sheet.iter_rows():
            for cell in row:
                assert cell.data_type != "f", (sheet.title, cell.coordinate, cell.value)
    sheet = book["Quotes"]
    for name in ("quote", "matched_text", "suggestion", "reasons", "speaker", "document", "reviewer_note"):
        assert column_values(sheet, name) == FORMULA_LIKE, name
    # Stored as strings in the file itself, not as formulas or numbers.
    xml = zipfile.ZipFile(path).read("xl/worksheets/sheet2.xml").decode("utf-8")
    assert "<f>" not in xml and "SUM(A1)" in xml


def test_formula_like_quote_from_a_run_stays_text(tmp_path):
    results = quoteverify.verify({"memo": "She typed =SUM(A1) into the cell and +1 beside it."},
                                 ["=SUM(A1) into the cell", "@cmd", "+1 beside it"], NO_EMBED)
    path = tmp_path / "run.xlsx"
    write_workbook(path, results)
    sheet = load_workbook(path)["Quotes"]
    assert sorted(column_values(sheet, "quote")) == ["+1 beside it", "=SUM(A1) into the cell", "@cmd"]
    assert all(c.data_type != "f" for row in sheet.iter_rows() for c in row)


def test_control_characters_are_removed(tmp_path):
    text = "bell\x07 and\x00 escape\x1b, tab\tand\nnewline kept"
    path = tmp_path / "control.xlsx"
    write_workbook(path, [result("q1", quote=text, matched_text=text, reasons=[text])])
    sheet = load_workbook(path)["Quotes"]
    expected = "bell and escape, tab\tand\nnewline kept"
    assert column_values(sheet, "quote") == [expected]
    assert column_values(sheet, "matched_text") == [expected]
    assert column_values(sheet, "reasons") == [expected]


def test_control_characters_removed_in_highlighted_text(tmp_path):
    differences = [{"kind": "number", "quote_text": "fi\x08ve", "source_text": "six"}]
    path = tmp_path / "control-rich.xlsx"
    write_workbook(path, [result("q1", quote="she had fi\x08ve\x0c cats", matched_text="she had six cats",
                                 differences=differences)])
    sheet = load_workbook(path, rich_text=True)["Quotes"]
    assert str(sheet["B2"].value) == "she had five cats"
    assert runs(sheet["B2"].value) == [("five", True, RED)]


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


@pytest.mark.parametrize("text", ["word " * 8_000, "😀" * 20_000], ids=["ascii", "astral"])
def test_long_text_is_truncated_with_a_marker(tmp_path, text):
    path = tmp_path / "long.xlsx"
    write_workbook(path, [result("q1", quote=text, matched_text=text)])
    sheet = load_workbook(path)["Quotes"]
    (quote,) = column_values(sheet, "quote")
    assert utf16_len(quote) <= MAX_CELL
    assert quote.endswith(TRUNCATED)
    assert text.startswith(quote[: -len(TRUNCATED)])


def test_long_highlighted_text_is_truncated_with_a_marker(tmp_path):
    source = "start " + "filler " * 6_000 + "fifty homes"
    quote = "start " + "filler " * 6_000 + "fifteen homes"
    differences = [{"kind": "number", "quote_text": "fifteen", "source_text": "fifty"},
                   {"kind": "word", "quote_text": "start", "source_text": "start"}]
    path = tmp_path / "long-rich.xlsx"
    write_workbook(path, [result("q1", quote=quote, matched_text=source, differences=differences)])
    sheet = load_workbook(path, rich_text=True)["Quotes"]
    value = sheet["B2"].value
    assert utf16_len(str(value)) <= MAX_CELL and str(value).endswith(TRUNCATED)
    # The highlight past the cut is gone with the text; the one before it stays.
    assert runs(value) == [("start", True, ORANGE)]


def test_full_text_stays_in_jsonl(tmp_path):
    text = "x" * 40_000
    write_results(tmp_path / "r.jsonl", [result("q1", quote=text)])
    assert json.loads((tmp_path / "r.jsonl").read_text())["quote"] == text


# --- Summary and Method ---------------------------------------------------------------------------


def test_summary_counts_and_chart(workbook):
    sheet = load_workbook(workbook)["Summary"]
    rows = [tuple(v for v in row if v is not None) for row in sheet.iter_rows(values_only=True)]
    assert ("verified", 1) in rows and ("review", 2) in rows and ("unverified", 1) in rows
    assert ("total", 4) in rows
    assert ("altered", 2) in rows and ("exact", 1) in rows and ("unlocated", 1) in rows
    assert ("document", "verified", "review", "unverified", "total") in rows
    assert ("interview-01", 1, 1, 0, 2) in rows
    assert ("interview-02", 0, 1, 0, 1) in rows
    assert ("(no document)", 0, 0, 1, 1) in rows
    with zipfile.ZipFile(workbook) as archive:
        charts = [n for n in archive.namelist() if n.startswith("xl/charts/chart")]
        assert len(charts) == 1
        chart = archive.read(charts[0]).decode("utf-8")
    assert "barChart" in chart and "Status per document" in chart
    assert "'Summary'!$B$" in chart or "Summary!$B$" in chart


def test_method_sheet_names_settings_model_version_and_hashes(workbook, checked):
    sheet = load_workbook(workbook)["Method"]
    values = {row[0]: row[1:] for row in sheet.iter_rows(values_only=True) if row[0] is not None}
    assert values["quoteverify version"][0] == quoteverify.__version__
    assert values["embedding model"][0] == "none (embeddings disabled; lexical evidence only)"
    assert values["window.size"][0] == checked.config.window.size
    assert values["embed.enabled"][0] is False
    for document in checked.documents:
        assert values[document.doc_id][:2] == (document.sha256, len(document.text))


def test_method_sheet_without_a_run_uses_the_results(tmp_path, checked):
    path = tmp_path / "library.xlsx"
    write_workbook(path, checked.results)
    sheet = load_workbook(path)["Method"]
    values = {row[0]: row[1:] for row in sheet.iter_rows(values_only=True) if row[0] is not None}
    assert values["run"][0].startswith("written from results alone")
    assert "window.size" not in values
    for document in checked.documents:
        assert values[document.doc_id][0] == document.sha256


def test_empty_results_give_a_workbook_with_a_header(tmp_path):
    path = tmp_path / "empty.xlsx"
    write_results(path, [])
    book = load_workbook(path)
    assert book.sheetnames == ["Guide", "Quotes", "Summary", "Method"]
    assert book["Quotes"].max_row == 1


# --- reading a reviewed workbook back -------------------------------------------------------------


def fill_in(path: Path, decisions: dict[str, tuple[str | None, str | None]]) -> None:
    """Type decisions and notes into the workbook, as a reviewer would, and save it."""
    book = load_workbook(path)
    sheet = book["Quotes"]
    named = columns(sheet)
    for row in sheet.iter_rows(min_row=2):
        quote_id = row[named["quote_id"] - 1].value
        if quote_id in decisions:
            decision, note = decisions[quote_id]
            row[named["decision"] - 1].value = decision
            row[named["reviewer_note"] - 1].value = note
    book.save(path)


@pytest.mark.parametrize("value, expected", [
    ("accept", ("accept", "")),
    ("  Reject ", ("reject", "")),
    ("fix_quote", ("fix quote", "")),
    ("Fix-Source", ("fix source", "")),
    (None, ("", "empty decision")),
    ("   ", ("", "empty decision")),
    ("maybe", ("", "invalid decision 'maybe'; use one of accept, reject, fix quote, fix source")),
])
def test_parse_decision(value, expected):
    assert parse_decision(value) == expected


def test_review_round_trip(workbook):
    fill_in(workbook, {"q1": ("reject", "number is 50 in the transcript"), "q2": ("accept", None),
                       "q3": ("maybe", "ask Ben"), "q4": (None, None)})
    review = read_review(workbook)
    by_id = {q.quote_id: q for q in review.quotes}
    assert sorted(by_id) == ["q1", "q2", "q3", "q4"]
    assert (by_id["q1"].decision, by_id["q1"].reviewer_note, by_id["q1"].problem) == \
           ("reject", "number is 50 in the transcript", "")
    assert (by_id["q2"].decision, by_id["q2"].status, by_id["q2"].row) == ("accept", "verified", 2)
    assert (by_id["q3"].decision, by_id["q3"].reviewer_note) == ("", "ask Ben")
    assert by_id["q3"].problem.startswith("invalid decision 'maybe'")
    assert by_id["q4"].problem == "empty decision"
    assert [q.quote_id for q in review.problems] == [q.quote_id for q in review.quotes if q.quote_id in ("q3", "q4")]
    # Counted among the quotes to decide; q2's accept is on a verified quote, said apart.
    assert review.summary() == (f"{workbook}: 4 quotes, 3 to decide (review or unverified): 0 accept, 1 reject, "
                                "0 fix quote, 0 fix source; 1 undecided, 1 invalid; and 1 decision on verified "
                                "quotes")


def test_review_survives_sorting_by_the_reviewer(workbook):
    fill_in(workbook, {"q1": ("accept", None)})
    book = load_workbook(workbook)
    sheet = book["Quotes"]
    sheet.move_range(f"A2:Y{sheet.max_row}", rows=3)  # rows moved down, a gap left behind
    book.save(workbook)
    by_id = {q.quote_id: q for q in read_review(workbook).quotes}
    assert by_id["q1"].decision == "accept" and len(by_id) == 4


def test_review_cli_writes_jsonl_and_reports_problem_rows(workbook, tmp_path):
    fill_in(workbook, {"q1": ("fix source", None), "q2": ("accept", "fine"), "q3": ("acept", None)})
    out = tmp_path / "reviewed.jsonl"
    outcome = CliRunner().invoke(main, ["review", str(workbook), "-o", str(out)])
    assert outcome.exit_code == 0, outcome.output
    # Problem rows in sheet order: worst first, so q4 (unverified) in row 2, then q3 (review: a negation dropped,
    # a likelier change than q1's number by p_change).
    assert outcome.stderr.splitlines() == [
        f"{workbook}: 4 quotes, 3 to decide (review or unverified): 0 accept, 0 reject, 0 fix quote, "
        "1 fix source; 1 undecided, 1 invalid; and 1 decision on verified quotes",
        "  Quotes!G2 (quote_id q4): empty decision",
        "  Quotes!G3 (quote_id q3): invalid decision 'acept'; use one of accept, reject, fix quote, fix source",
    ]
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert list(rows[0]) == ["quote_id", "row", "cell", "status", "decision", "reviewer_note", "problem"]
    by_id = {r["quote_id"]: r for r in rows}
    assert by_id["q2"]["decision"] == "accept" and by_id["q2"]["reviewer_note"] == "fine"
    assert by_id["q1"]["decision"] == "fix source"


def test_review_cli_writes_csv(workbook, tmp_path):
    fill_in(workbook, {"q2": ("accept", "- fine, checked")})
    out = tmp_path / "reviewed.csv"
    outcome = CliRunner().invoke(main, ["review", str(workbook), "-o", str(out)])
    assert outcome.exit_code == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "quote_id,row,cell,status,decision,reviewer_note,problem"
    assert any(line.startswith("q2,2,") and line.endswith(",verified,accept,\"'- fine, checked\",") for line in lines)


def test_review_cli_without_output_writes_jsonl_to_stdout(workbook):
    outcome = CliRunner().invoke(main, ["review", str(workbook)])
    assert outcome.exit_code == 0
    assert len([json.loads(line) for line in outcome.stdout.splitlines()]) == len(QUOTES)


def test_review_cli_errors(tmp_path, workbook):
    runner = CliRunner()
    missing = tmp_path / "missing.xlsx"
    outcome = runner.invoke(main, ["review", str(missing)])
    assert outcome.exit_code == 2
    assert outcome.stderr == (f"Error: {missing}: no such file; give the .xlsx written by "
                              "quoteverify verify -o results.xlsx\n")

    not_excel = tmp_path / "notes.xlsx"
    not_excel.write_text("just text")
    outcome = runner.invoke(main, ["review", str(not_excel)])
    assert outcome.exit_code == 2
    assert outcome.stderr.startswith(f"Error: {not_excel}: cannot be read as an Excel workbook (")
    assert outcome.stderr.endswith("give the .xlsx written by quoteverify verify, saved as .xlsx\n")

    book = load_workbook(workbook)
    book["Quotes"].title = "Renamed"
    book.save(workbook)
    outcome = runner.invoke(main, ["review", str(workbook)])
    assert outcome.exit_code == 2
    assert outcome.stderr == (f"Error: {workbook}: no sheet named 'Quotes'; give the workbook written by "
                              "quoteverify verify -o results.xlsx (keep its sheet names)\n")

    outcome = runner.invoke(main, ["review", str(not_excel), "-o", str(tmp_path / "reviewed.txt")])
    assert outcome.exit_code == 2


def test_review_cli_unknown_output_format(workbook, tmp_path):
    out = tmp_path / "reviewed.txt"
    outcome = CliRunner().invoke(main, ["review", str(workbook), "-o", str(out)])
    assert outcome.exit_code == 2
    assert outcome.stderr == f"Error: -o {out}: unknown output format '.txt'; use .jsonl, .csv\n"


def test_missing_decision_column_is_an_error(workbook):
    book = load_workbook(workbook)
    book["Quotes"].cell(row=1, column=columns(book["Quotes"])["decision"]).value = "verdict"
    book.save(workbook)
    with pytest.raises(InputError, match="has no 'decision' column in its first row; restore the header row"):
        read_review(workbook)


# --- carrying decisions into the next run ---------------------------------------------------------


def write_inputs(folder: Path, docs: dict[str, str], quotes: list[dict[str, str]]) -> tuple[Path, Path]:
    docs_folder = folder / "docs"
    docs_folder.mkdir(exist_ok=True)
    for doc_id, text in docs.items():
        (docs_folder / f"{doc_id}.txt").write_text(text, encoding="utf-8")
    table = folder / "quotes.csv"
    lines = ["quote_id,quote,document"] + [f'{q["quote_id"]},"{q["quote"]}",{q["document"]}' for q in quotes]
    table.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return docs_folder, table


def test_verify_previous_carries_decisions_of_unchanged_quotes(tmp_path):
    runner = CliRunner()
    docs, table = write_inputs(tmp_path, DOCS, QUOTES)
    first = tmp_path / "first.xlsx"
    outcome = runner.invoke(main, ["verify", str(docs), str(table), "--no-embed", "-o", str(first)])
    assert outcome.exit_code == 0, outcome.output
    fill_in(first, {"q1": ("accept", "50 is right"), "q2": ("reject", None), "q3": ("fix quote", None),
                    "q4": (None, "invented")})

    # Next run: q2's wording is edited; interview-02 gains a line, so q3 is found further on.
    quotes = [dict(q) for q in QUOTES]
    quotes[1]["quote"] = "We were not happy about it at all."
    docs_text = dict(DOCS, **{"interview-02": "Ben: Hello.\n" + DOCS["interview-02"]})
    (tmp_path / "quotes.csv").unlink()
    docs, table = write_inputs(tmp_path, docs_text, quotes)
    second_jsonl, second_xlsx = tmp_path / "second.jsonl", tmp_path / "second.xlsx"
    outcome = runner.invoke(main, ["verify", str(docs), str(table), "--no-embed", "--previous", str(first),
                                   "-o", str(second_jsonl), "-o", str(second_xlsx)])
    assert outcome.exit_code == 0, outcome.output
    assert (f"{first}: carried the decisions and notes of 2 quotes; 2 reviewed quotes changed "
            "(their text or where they were found) and need a new look") in outcome.stderr.splitlines()
    rows = {r["quote_id"]: r for r in map(json.loads, second_jsonl.read_text().splitlines())}
    assert (rows["q1"]["decision"], rows["q1"]["reviewer_note"]) == ("accept", "50 is right")
    assert (rows["q4"]["decision"], rows["q4"]["reviewer_note"]) == ("", "invented")
    assert (rows["q2"]["decision"], rows["q3"]["decision"]) == ("", "")
    # The new workbook shows the carried decisions, ready for the next pass.
    carried = {q.quote_id: q.decision for q in read_review(second_xlsx).quotes}
    assert carried == {"q1": "accept", "q2": "", "q3": "", "q4": ""}


def test_carry_needs_fingerprints(workbook, checked):
    book = load_workbook(workbook)
    sheet = book["Quotes"]
    sheet.cell(row=1, column=columns(sheet)["fingerprint"]).value = None
    book.save(workbook)
    with pytest.raises(InputError, match="has no 'fingerprint' column"):
        carry_decisions(checked.results, read_review(workbook))


def test_verify_previous_errors_before_running(tmp_path):
    docs, table = write_inputs(tmp_path, DOCS, QUOTES)
    missing = tmp_path / "old.xlsx"
    outcome = CliRunner().invoke(main, ["verify", str(docs), str(table), "--no-embed", "--previous", str(missing)])
    assert outcome.exit_code == 2
    assert outcome.stderr == (f"Error: {missing}: no such file; give the .xlsx written by "
                              "quoteverify verify -o results.xlsx\n")


def test_csv_and_jsonl_carry_the_reviewer_columns_last(tmp_path):
    write_results(tmp_path / "r.csv", [result("q1", decision="accept", reviewer_note="ok")])
    header, row = (tmp_path / "r.csv").read_text().splitlines()
    assert header.endswith(",decision,reviewer_note") and row.endswith(",accept,ok")
    write_results(tmp_path / "r.jsonl", [result("q1")])
    assert list(json.loads((tmp_path / "r.jsonl").read_text()))[-2:] == ["decision", "reviewer_note"]


# --- LibreOffice ----------------------------------------------------------------------------------


def _calc() -> bool:
    """Whether LibreOffice with its spreadsheet, Calc, is installed: libreoffice-writer alone opens no workbook."""
    soffice = shutil.which("soffice")
    return soffice is not None and any((Path(soffice).resolve().parent / name).exists()
                                       for name in ("libsclo.so", "libsclo.dylib", "sclo.dll"))


@pytest.mark.skipif(not _calc(), reason="LibreOffice Calc (libreoffice-calc) not installed")
def test_libreoffice_opens_the_workbook(workbook, tmp_path):
    out = tmp_path / "pdf"
    # A profile of its own, so a running LibreOffice or a parallel test does not block the conversion.
    profile = (tmp_path / "profile").as_uri()
    subprocess.run(["soffice", f"-env:UserInstallation={profile}", "--headless", "--convert-to", "pdf",
                    "--outdir", str(out), str(workbook)], check=True, capture_output=True, timeout=180)
    pdf = out / "results.pdf"
    assert pdf.read_bytes().startswith(b"%PDF")


# --- no decision is ever lost ---------------------------------------------------------------------

OLD_LAYOUT = ("status", "match_type", "confidence", "band", "quote", "matched_text", "document", "claimed_document",
              "line", "speaker", "claimed_speaker", "timestamp", "reasons", "suggestion", "manuscript_context",
              "bm25_score", "bm25_ratio", "cosine", "match_ratio", "quote_id", "row", "decision", "reviewer_note",
              "fingerprint")


def test_a_workbook_of_the_old_layout_still_reads_back_and_carries(tmp_path, checked):
    """Workbooks written before the triage layout (decision in column V, no Guide sheet) read back as before."""
    from openpyxl import Workbook

    from quoteverify.model.types import fingerprint

    path = tmp_path / "old.xlsx"
    book = Workbook()
    sheet = book.active
    sheet.title = "Quotes"
    sheet.append(OLD_LAYOUT)
    decided = {"q1": ("reject", "50, not 15"), "q4": ("", "invented?")}
    for r in checked.results:
        decision, note = decided.get(r.quote_id, ("", ""))
        values = {"status": r.status, "quote": r.quote, "quote_id": r.quote_id, "row": r.row,
                  "decision": decision or None, "reviewer_note": note or None, "fingerprint": fingerprint(r)}
        sheet.append([values.get(name) for name in OLD_LAYOUT])
    book.save(path)
    review = read_review(path)
    assert [(q.quote_id, q.decision, q.reviewer_note, q.cell) for q in review.quotes if q.quote_id in decided] == [
        ("q1", "reject", "50, not 15", "Quotes!V2"), ("q4", "", "invented?", "Quotes!V5")]
    carried = carry_decisions(checked.results, review)
    assert carried.carried == 2


def reviewed_run(tmp_path: Path) -> tuple[CliRunner, list[str], Path]:
    """A first run's workbook, reviewed: q1 rejected with a note, q4 noted."""
    runner = CliRunner()
    docs, table = write_inputs(tmp_path, DOCS, QUOTES)
    workbook = tmp_path / "results.xlsx"
    args = ["verify", str(docs), str(table), "--no-embed", "-o", str(workbook)]
    assert runner.invoke(main, args).exit_code == 0
    fill_in(workbook, {"q1": ("reject", "50 in the transcript"), "q4": (None, "ask the author")})
    return runner, args, workbook


def decisions_in(path: Path) -> dict[str, tuple[str, str]]:
    return {q.quote_id: (q.decision, q.reviewer_note) for q in read_review(path).quotes
            if q.decision or q.reviewer_note}


def test_running_again_over_a_reviewed_workbook_carries_its_decisions_and_keeps_it(tmp_path):
    runner, args, workbook = reviewed_run(tmp_path)
    before = workbook.read_bytes()
    outcome = runner.invoke(main, args)
    assert outcome.exit_code == 0, outcome.output
    (backup,) = tmp_path.glob("results.before-*.xlsx")
    assert backup.read_bytes() == before
    assert outcome.stderr.splitlines()[:2] == [
        f"{workbook} holds the decisions or notes of 2 quotes: carried into this run, as --previous {workbook} "
        f"would; when it is replaced, the old file is kept as {backup}",
        f"{workbook}: carried the decisions and notes of 2 quotes; 0 reviewed quotes changed (their text or where "
        "they were found) and need a new look"]
    assert decisions_in(workbook) == {"q1": ("reject", "50 in the transcript"), "q4": ("", "ask the author")}
    # A third run: the decisions are still there, and the second run's workbook is kept too.
    assert runner.invoke(main, args).exit_code == 0
    assert decisions_in(workbook) == decisions_in(backup)
    assert len(list(tmp_path.glob("results.before-*.xlsx"))) == 2


def test_previous_given_names_the_decisions_carried_and_keeps_the_output(tmp_path):
    """The other way to run over a reviewed workbook: --previous names the decisions to carry (here another
    file's); the output's own are not carried, but kept beside it."""
    runner, args, workbook = reviewed_run(tmp_path)
    other = tmp_path / "other.xlsx"
    shutil.copy(workbook, other)
    fill_in(other, {"q1": ("accept", "checked the recording")})
    outcome = runner.invoke(main, [*args, "--previous", str(other)])
    assert outcome.exit_code == 0, outcome.output
    (backup,) = tmp_path.glob("results.before-*.xlsx")
    assert outcome.stderr.splitlines()[0] == (
        f"{workbook} holds the decisions or notes of 2 quotes: this run carries those of --previous {other} "
        f"instead; when it is replaced, the old file is kept as {backup}")
    assert decisions_in(workbook) == {"q1": ("accept", "checked the recording"), "q4": ("", "ask the author")}
    assert decisions_in(backup) == {"q1": ("reject", "50 in the transcript"), "q4": ("", "ask the author")}
    # --previous may name the output itself: read first, then kept beside it.
    outcome = runner.invoke(main, [*args, "--previous", str(workbook)])
    assert outcome.exit_code == 0, outcome.output
    assert decisions_in(workbook) == {"q1": ("accept", "checked the recording"), "q4": ("", "ask the author")}


def test_a_workbook_whose_only_entry_is_an_invalid_decision_is_kept_and_its_entry_named(tmp_path):
    """A decision mistyped ("rejct") is the reviewer's work too: the workbook is kept beside the new one and the
    invalid decision is listed, not replaced without a copy as a workbook nobody has touched would be."""
    runner = CliRunner()
    docs, table = write_inputs(tmp_path, DOCS, QUOTES)
    workbook = tmp_path / "results.xlsx"
    args = ["verify", str(docs), str(table), "--no-embed", "-o", str(workbook)]
    assert runner.invoke(main, args).exit_code == 0
    fill_in(workbook, {"q1": ("rejct", None)})
    before = workbook.read_bytes()
    outcome = runner.invoke(main, args)
    assert outcome.exit_code == 0, outcome.output
    (backup,) = tmp_path.glob("results.before-*.xlsx")
    assert backup.read_bytes() == before
    lines = outcome.stderr.splitlines()
    assert lines[0] == (f"{workbook} holds the decisions or notes of 1 quote: carried into this run, as --previous "
                        f"{workbook} would; when it is replaced, the old file is kept as {backup}")
    assert "1 invalid decision not carried (Quotes!" in lines[1] and "'rejct'" in lines[1]


def test_a_failed_run_leaves_the_reviewed_workbook_alone(tmp_path):
    runner, args, workbook = reviewed_run(tmp_path)
    before = workbook.read_bytes()
    outcome = runner.invoke(main, [*args, "--config", str(tmp_path / "missing.yaml")])
    assert outcome.exit_code == 2
    assert workbook.read_bytes() == before and list(tmp_path.glob("results.before-*")) == []


def test_an_output_without_decisions_is_replaced_without_a_copy(tmp_path):
    runner = CliRunner()
    docs, table = write_inputs(tmp_path, DOCS, QUOTES)
    args = ["verify", str(docs), str(table), "--no-embed", "-o", str(tmp_path / "results.xlsx"),
            "-o", str(tmp_path / "results.jsonl")]
    assert runner.invoke(main, args).exit_code == 0
    outcome = runner.invoke(main, args)
    assert outcome.exit_code == 0 and "holds the decisions" not in outcome.stderr
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_file()) == ["quotes.csv", "results.jsonl",
                                                                        "results.xlsx"]


def test_review_keeps_a_decisions_file_it_would_replace(tmp_path):
    runner, _, workbook = reviewed_run(tmp_path)
    out = tmp_path / "reviewed.csv"
    assert runner.invoke(main, ["review", str(workbook), "-o", str(out)]).exit_code == 0
    first = out.read_bytes()
    # The same decisions again: nothing would be lost, so no copy.
    outcome = runner.invoke(main, ["review", str(workbook), "-o", str(out)])
    assert outcome.exit_code == 0 and list(tmp_path.glob("reviewed.before-*")) == []
    fill_in(workbook, {"q1": ("accept", None)})
    outcome = runner.invoke(main, ["review", str(workbook), "-o", str(out)])
    assert outcome.exit_code == 0
    (backup,) = tmp_path.glob("reviewed.before-*.csv")
    assert backup.read_bytes() == first
    assert outcome.stderr.splitlines()[0] == (f"{out} holds the decisions or notes of 2 quotes; when it is "
                                              f"replaced, the old file is kept as {backup}")
    outcome = runner.invoke(main, ["review", str(out), "-o", str(out)])
    assert outcome.exit_code == 2
    assert outcome.stderr == (f"Error: -o {out}: is the reviewed workbook this run reads and would be replaced; "
                              "give the output another name\n")


def test_the_next_step_counts_what_is_still_undecided(tmp_path):
    runner, args, workbook = reviewed_run(tmp_path)  # q1 (review) rejected; q3 (review) and q4 (unverified) not
    outcome = runner.invoke(main, args)
    assert outcome.stderr.splitlines()[-1] == (f"Next: open {workbook} to decide the 2 still undecided of the 3 "
                                               "quotes in review or unverified (the Guide sheet says how)")
    fill_in(workbook, {"q3": ("fix quote", None), "q4": ("reject", "invented")})
    outcome = runner.invoke(main, args)
    assert outcome.stderr.splitlines()[-1] == ("Next: nothing left to decide: all 3 quotes in review or unverified "
                                               "are decided")


def test_results_that_carry_decisions_carry_them_again(tmp_path):
    """A results JSONL holds the decisions a run carried: running over it carries them again, and keeps it."""
    runner, args, workbook = reviewed_run(tmp_path)
    jsonl = tmp_path / "results.jsonl"
    jsonl_args = [*args[:-1], str(jsonl)]  # the same run, written to results.jsonl instead
    assert runner.invoke(main, [*jsonl_args, "--previous", str(workbook)]).exit_code == 0
    outcome = runner.invoke(main, jsonl_args)
    assert outcome.exit_code == 0, outcome.output
    assert outcome.stderr.splitlines()[0].startswith(f"{jsonl} holds the decisions or notes of 2 quotes: carried")
    rows = {r["quote_id"]: r for r in map(json.loads, jsonl.read_text().splitlines())}
    assert (rows["q1"]["decision"], rows["q4"]["reviewer_note"]) == ("reject", "ask the author")
    assert len(list(tmp_path.glob("results.before-*.jsonl"))) == 1
