"""The review page (verify -o report.html, quoteverify report): its HTML, and its decisions files read back.

The page itself is tested in tests/test_page_browser.py, in a real browser.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from quoteverify.app.decision_files import read_decisions
from quoteverify.app.review import fingerprint, read_review
from quoteverify.cli import main
from quoteverify.export.page import load_results, render_page, run_fingerprint, script_json
from quoteverify.model.errors import InputError
from quoteverify.model.types import QuoteResult, triage_key

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "data" / "example"
HOSTILE = ['<script>window.pwned = 1</script>', '"><img src=x onerror="window.pwned = 2">', "{{ 7 * 7 }} {% if %}",
           "</script><!-- <script>", "a\u2028b\u2029c"]


def data_of(html: str) -> dict:
    """The results the page carries, read back from its JSON block."""
    block = re.search(r'<script type="application/json" id="qv-data">(.*?)</script>', html, re.S)
    assert block is not None
    return json.loads(block.group(1))


@pytest.fixture(scope="module")
def example_run(tmp_path_factory) -> tuple[Path, Path]:
    """The bundled example, checked once: (results.jsonl, report.html)."""
    folder = tmp_path_factory.mktemp("example")
    jsonl, html = folder / "results.jsonl", folder / "report.html"
    outcome = CliRunner().invoke(main, ["verify", str(EXAMPLE / "transcripts"), str(EXAMPLE / "quotes.csv"),
                                        "--no-embed", "-o", str(jsonl), "-o", str(html)])
    assert outcome.exit_code == 0, outcome.output
    return jsonl, html


def test_verify_and_report_write_the_same_page(example_run, tmp_path):
    jsonl, html = example_run
    again = tmp_path / "again.html"
    outcome = CliRunner().invoke(main, ["report", str(jsonl), "-o", str(again)])
    assert outcome.exit_code == 0, outcome.output
    assert outcome.stderr == f"{again}: review page of 21 quotes\n"
    assert again.read_bytes() == html.read_bytes()


def test_page_has_every_quote_worst_first_with_its_fingerprint(example_run):
    jsonl, html = example_run
    results = load_results(jsonl)
    page = html.read_text(encoding="utf-8")
    data = data_of(page)
    assert data["run"] == run_fingerprint(results)
    assert [q["id"] for q in data["quotes"]] == [r.quote_id for r in sorted(results, key=triage_key)]
    statuses = [by_status for by_status in (r.status for r in sorted(results, key=triage_key))]
    assert statuses == sorted(statuses, key=["unverified", "review", "verified"].index)
    by_id = {r.quote_id: r for r in results}
    assert all(q["fp"] == fingerprint(by_id[q["id"]]) for q in data["quotes"])
    # Self-contained: no URL to fetch anything from.
    assert not re.search(r'\b(src|href)=["\']?(https?:)?//', page)
    assert "<svg" in page and "Content-Security-Policy" in page


def test_differences_are_cut_into_highlighted_pieces():
    result = QuoteResult("q1", "We lost 15 volunteers, honestly.", 2, document="d", start=0, end=30,
                         matched_text="We lost 50 volunteers honestly.", status="review", match_type="altered",
                         differences=[{"kind": "number", "quote_text": "15", "source_text": "50"},
                                      {"kind": "punctuation", "quote_text": ",", "source_text": ""}])
    card = data_of(render_page([result]))["quotes"][0]
    assert card["quote"] == ["We lost ", ["15", "l"], " volunteers", [",", "b"], " honestly."]
    assert card["matched"] == ["We lost ", ["50", "l"], " volunteers honestly."]
    assert card["kinds"] == ["number", "punctuation"]


def test_script_json_cannot_close_its_script_element():
    text = script_json({"q": HOSTILE})
    assert "</script" not in text.lower() and "<!--" not in text and "<" not in text
    assert json.loads(text) == {"q": HOSTILE}


def test_hostile_text_is_escaped_in_the_html():
    results = [QuoteResult("q1", HOSTILE[0], 2, claimed_document=HOSTILE[1]),
               QuoteResult("q2", HOSTILE[2], 3, document=HOSTILE[3], matched_text=HOSTILE[2], start=0, end=5)]
    page = render_page(results, title='<b>"x"</b>')
    head, data = page.split('<script type="application/json"', 1)
    # Outside the data block, the names appear only escaped (summary, filters, chart, title).
    assert "<script>window" not in head and "<img" not in head and "<b>" not in head
    assert "&lt;/script&gt;&lt;!-- &lt;script&gt;" in head and "&#34;&gt;&lt;img src=x" in head
    assert '<option value="{{ 7 * 7 }}">' not in head  # (not a document) but the quote is data, not a template
    # The page holds exactly its own two script elements.
    assert page.count("<script") == 2 and page.count("</script>") == 2
    quotes = {q["id"]: q for q in data_of(page)["quotes"]}
    assert quotes["q1"]["quote"] == [HOSTILE[0]] and quotes["q2"]["document"] == HOSTILE[3]
    assert quotes["q2"]["quote"] == [HOSTILE[2]]  # a template's braces are data, never evaluated


# --- reading results ------------------------------------------------------------------------------


def test_report_errors(tmp_path, example_run):
    jsonl, _ = example_run
    runner = CliRunner()
    cases = [
        (["report", str(tmp_path / "none.jsonl"), "-o", str(tmp_path / "r.html")],
         f"Error: {tmp_path / 'none.jsonl'}: no such results file; write it with "
         "'quoteverify verify ... -o results.jsonl'\n"),
        (["report", str(tmp_path / "r.csv"), "-o", str(tmp_path / "r.html")],
         f"Error: {tmp_path / 'r.csv'}: the review page is made from the JSONL results; "
         "write them with 'quoteverify verify ... -o results.jsonl'\n"),
        (["report", str(jsonl), "-o", str(tmp_path / "r.pdf")],
         f"Error: -o {tmp_path / 'r.pdf'}: unknown output format '.pdf'; use .html\n"),
        (["report", str(jsonl), "-o", str(tmp_path / "missing" / "r.html")],
         f"Error: -o {tmp_path / 'missing' / 'r.html'}: folder {tmp_path / 'missing'} does not exist; "
         "create it or choose another path\n"),
    ]
    bad = tmp_path / "bad.jsonl"
    bad.write_text(jsonl.read_text(encoding="utf-8").splitlines()[0] + "\n{\"quote\": 1}\n", encoding="utf-8")
    cases.append((["report", str(bad), "-o", str(tmp_path / "r.html")],
                  f"Error: {bad}: line 2: not a quoteverify result (the result has no field 'quote_id'); give "
                  "the JSONL written by quoteverify verify -o results.jsonl\n"))
    for args, expected in cases:
        outcome = runner.invoke(main, args)
        assert (outcome.exit_code, outcome.stderr) == (2, expected), args
    assert not (tmp_path / "r.html").exists()


# --- decisions files ------------------------------------------------------------------------------


def decisions_json(results: list[QuoteResult], chosen: dict[str, tuple[str, str]]) -> dict:
    """A decisions file as the page saves it."""
    return {"format": "quoteverify decisions", "version": 1, "run": run_fingerprint(results),
            "decisions": [{"quote_id": r.quote_id, "row": r.row, "status": r.status,
                           "decision": chosen.get(r.quote_id, ("", ""))[0],
                           "reviewer_note": chosen.get(r.quote_id, ("", ""))[1], "fingerprint": fingerprint(r)}
                          for r in results]}


def test_review_reads_a_json_decisions_file(tmp_path, example_run):
    jsonl, _ = example_run
    results = load_results(jsonl)
    path = tmp_path / "decisions.json"
    path.write_text(json.dumps(decisions_json(results, {"Q01": ("accept", "fine"), "Q02": ("maybe", "")})))
    out = tmp_path / "reviewed.jsonl"
    outcome = CliRunner().invoke(main, ["review", str(path), "-o", str(out)])
    assert outcome.exit_code == 0, outcome.output
    lines = outcome.stderr.splitlines()
    # Only quotes in review or unverified need a decision (Q01 and Q02 are verified).
    to_decide = [(k, r.quote_id) for k, r in enumerate(results, start=1) if r.status != "verified"]
    assert lines[0] == (f"{path}: 21 quotes, {len(to_decide)} to decide (review or unverified): 0 accept, 0 reject, "
                        f"0 fix quote, 0 fix source; {len(to_decide)} undecided, 1 invalid; and 1 decision on "
                        "verified quotes")
    assert lines[1:3] == [
        "  decision 2 (quote_id Q02): invalid decision 'maybe'; use one of accept, reject, fix quote, fix source",
        f"  decision {to_decide[0][0]} (quote_id {to_decide[0][1]}): empty decision"]
    rows = {r["quote_id"]: r for r in map(json.loads, out.read_text().splitlines())}
    assert (rows["Q01"]["decision"], rows["Q01"]["reviewer_note"]) == ("accept", "fine")


def test_csv_decisions_file_with_formula_guards_reads_back(tmp_path):
    path = tmp_path / "decisions.csv"
    path.write_bytes("\ufeffquote_id,row,status,decision,reviewer_note,fingerprint\r\n"
                     "'=q1,2,review,Fix-Quote,\"'=1+1, says the source\",abc\r\n"
                     "q2,3,verified,accept,'''-x,def\r\n"
                     ",,,,,\r\n".encode("utf-8"))
    review = read_review(path)
    assert [(q.quote_id, q.row, q.cell, q.decision, q.reviewer_note, q.fingerprint) for q in review.quotes] == [
        ("=q1", 2, "line 2", "fix quote", "=1+1, says the source", "abc"),
        ("q2", 3, "line 3", "accept", "''-x", "def")]
    assert review.has_fingerprints


@pytest.mark.parametrize("name, content, message", [
    ("d.json", "{", "not valid JSON (Expecting property name enclosed in double quotes at column 2); "
                    "give the .json the review page's 'save decisions: JSON' button wrote"),
    ("d.json", '{"decisions": []}', "not a quoteverify decisions file (no \"format\": \"quoteverify decisions\" "
                                     "with a \"decisions\" list); give the .json the review page's "
                                     "'save decisions: JSON' button wrote"),
    ("d.json", '{"format": "quoteverify decisions", "decisions": [1]}',
     "decision 1 is not a JSON object; give the .json the review page's 'save decisions: JSON' button wrote"),
    ("d.csv", "id,verdict\r\n", "no 'quote_id' column in the first line; give the .csv the review page's "
                                "'save decisions: CSV' button wrote (columns quote_id, row, status, decision, "
                                "reviewer_note, fingerprint)"),
])
def test_bad_decisions_files(tmp_path, name, content, message):
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    outcome = CliRunner().invoke(main, ["review", str(path)])
    assert (outcome.exit_code, outcome.stderr) == (2, f"Error: {path}: {message}\n")


def test_missing_decisions_file(tmp_path):
    with pytest.raises(InputError, match=r"no such file; give the decisions file the review page saved"):
        read_decisions(tmp_path / "d.json")


def test_verify_previous_carries_a_decisions_file(tmp_path, example_run):
    jsonl, _ = example_run
    results = load_results(jsonl)
    path = tmp_path / "decisions.json"
    path.write_text(json.dumps(decisions_json(results, {"Q01": ("accept", "ok"), "Q16": ("reject", "invented")})))
    again = tmp_path / "again.jsonl"
    outcome = CliRunner().invoke(main, ["verify", str(EXAMPLE / "transcripts"), str(EXAMPLE / "quotes.csv"),
                                        "--no-embed", "--previous", str(path), "-o", str(again)])
    assert outcome.exit_code == 0, outcome.output
    assert (f"{path}: carried the decisions and notes of 2 quotes; 0 reviewed quotes changed (their text or "
            "where they were found) and need a new look") in outcome.stderr.splitlines()
    rows = {r["quote_id"]: r for r in map(json.loads, again.read_text().splitlines())}
    assert (rows["Q01"]["decision"], rows["Q16"]["decision"], rows["Q16"]["reviewer_note"]) == \
           ("accept", "reject", "invented")


def test_previous_refuses_the_reviewed_csv_without_fingerprints(tmp_path):
    path = tmp_path / "reviewed.csv"
    path.write_text("quote_id,row,cell,status,decision,reviewer_note,problem\r\nq1,2,Quotes!S2,verified,accept,,\r\n")
    outcome = CliRunner().invoke(main, ["verify", str(EXAMPLE / "transcripts"), str(EXAMPLE / "quotes.csv"),
                                        "--no-embed", "--previous", str(path)])
    assert outcome.exit_code == 2
    assert outcome.stderr == (f"Error: {path}: has no fingerprint for each quote, so unchanged quotes cannot be "
                              "told apart; give the decisions file the review page saved, or the reviewed workbook\n")
