"""Findings: the penalty schedule, the findings table, claim cards, the report, the sheet and the CLI."""
from __future__ import annotations

import csv
import json
from datetime import datetime, timezone
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import NO_EMBED

import quoteverify
from quoteverify.app.repeat import build_manifest
from quoteverify.app.support import (
    FINDING_COLUMNS,
    MAJORITY_NOTE,
    NOT_ENOUGH_INFO,
    REFUTED,
    SUPPORTED,
    Finding,
    claim_cards,
    label,
    penalty,
    summarize_findings,
)
from quoteverify.cli import main
from quoteverify.export.appendix import render_appendix
from quoteverify.export.findings import findings_bytes, render_report, write_cards, write_findings, write_report
from quoteverify.model.errors import InputError, OutputError
from quoteverify.model.types import QuoteResult
from quoteverify.sources.quotes import load_quotes

NUMBER = {"kind": "number", "quote_text": "50", "source_text": "15"}
NEGATION = {"kind": "negation", "quote_text": "", "source_text": "not"}
NAME = {"kind": "name", "quote_text": "Peter", "source_text": "Paul"}


def result(quote_id: str, status: str = "verified", *, finding: str = "F", match_type: str | None = None,
           differences=(), confidence: float | None = None, finding_confidence: float | None = None,
           **fields) -> QuoteResult:
    match_type = match_type or {"verified": "exact", "review": "paraphrase", "unverified": "unlocated"}[status]
    if confidence is None:
        confidence = {"verified": 0.95, "review": 0.5, "unverified": 0.1}[status]
    return QuoteResult(quote_id=quote_id, quote=f"quote {quote_id}", row=int(quote_id.strip("q")) + 1,
                       status=status, match_type=match_type, confidence=confidence,
                       differences=list(differences), finding=finding, finding_confidence=finding_confidence,
                       **fields)


def cited(unverified: int, total: int, *, stated: float | None = None) -> list[QuoteResult]:
    return [result(f"q{k}", "unverified" if k < unverified else "verified", finding_confidence=stated)
            for k in range(total)]


# --- the penalty schedule -------------------------------------------------------------------------


@pytest.mark.parametrize("unverified, stated, adjusted, note", [
    (0, None, 1.0, ""),           # 0 %: unchanged
    (1, None, 0.996, ""),         # 1 %: x (1 - 0.4 x 0.01)
    (49, None, 0.804, ""),        # 49 %: x (1 - 0.4 x 0.49)
    (50, None, 0.5, MAJORITY_NOTE),   # 50 %: halved
    (100, None, 0.5, MAJORITY_NOTE),  # 100 %: halved
    (0, 0.8, 0.8, ""),
    (1, 0.8, 0.7968, ""),
    (49, 0.8, 0.6432, ""),
    (50, 0.8, 0.4, MAJORITY_NOTE),
    (100, 0.8, 0.4, MAJORITY_NOTE),
])
def test_penalty_schedule_at_its_boundaries(unverified: int, stated: float | None, adjusted: float,
                                            note: str) -> None:
    findings = summarize_findings(cited(unverified, 100, stated=stated))
    assert findings.findings == (Finding("F", 100, 100 - unverified, 0, unverified, stated or 1.0, adjusted, note),)
    assert findings.warnings == ()


@pytest.mark.parametrize("unverified, total, factor", [(1, 3, 1 - 0.4 / 3), (1, 2, 0.5), (2, 3, 0.5), (0, 0, 1.0)])
def test_penalty_between_the_boundaries(unverified: int, total: int, factor: float) -> None:
    assert penalty(unverified, total).factor == pytest.approx(factor, abs=1e-12)


def test_review_quotes_are_not_penalised_and_uncited_quotes_are_left_out() -> None:
    results = [result("q1", "review", finding="A"), result("q2", finding="B"), result("q3", finding=""),
               result("q4", "unverified", finding="A")]
    assert summarize_findings(results).findings == (
        Finding("A", 2, 0, 1, 1, 1.0, 0.5, MAJORITY_NOTE), Finding("B", 1, 1, 0, 0, 1.0, 1.0, ""))


def test_the_first_stated_confidence_counts_and_a_conflict_is_a_warning() -> None:
    results = [result("q1"), result("q2", finding_confidence=0.7), result("q3", finding_confidence=0.9)]
    findings = summarize_findings(results)
    assert findings.findings[0].finding_confidence == 0.7
    assert findings.warnings == ("finding 'F': its rows state different finding_confidence values "
                                 "(0.7 (row 3), 0.9 (row 4)); used the first, 0.7; give one value per finding",)


def test_findings_table_columns_are_exactly_these() -> None:
    assert FINDING_COLUMNS == ("finding", "n_quotes", "verified", "review", "unverified", "finding_confidence",
                               "adjusted_confidence", "note")
    findings = summarize_findings([result("q1", finding="A"), result("q2", "unverified", finding="A")]).findings
    assert findings_bytes(findings, suffix=".csv").decode() == (
        "finding,n_quotes,verified,review,unverified,finding_confidence,adjusted_confidence,note\r\n"
        f"A,2,1,0,1,1.0,0.5,{MAJORITY_NOTE}\r\n")
    assert json.loads(findings_bytes(findings, suffix=".jsonl")) == {
        "finding": "A", "n_quotes": 2, "verified": 1, "review": 0, "unverified": 1, "finding_confidence": 1.0,
        "adjusted_confidence": 0.5, "note": MAJORITY_NOTE}


def test_finding_confidence_is_read_from_the_quote_table(tmp_path: Path) -> None:
    path = tmp_path / "quotes.csv"
    path.write_text("quote,finding,finding_confidence\nA quote.,F,0.75\nAnother.,F,\n", encoding="utf-8")
    quotes = load_quotes(path).quotes
    assert [(q.finding, q.finding_confidence, q.extra) for q in quotes] == [("F", 0.75, ()), ("F", None, ())]


@pytest.mark.parametrize("value", ["high", "1.5", "-0.1", "nan"])
def test_a_finding_confidence_outside_0_to_1_names_the_row(tmp_path: Path, value: str) -> None:
    path = tmp_path / "quotes.csv"
    path.write_text(f"quote,finding,finding_confidence\nA quote.,F,0.5\nAnother.,F,{value}\n", encoding="utf-8")
    with pytest.raises(InputError) as error:
        load_quotes(path)
    assert str(error.value) == (f"{path}: row 3: finding_confidence '{value}' is not a number from 0 to 1; "
                                "write it as, say, 0.8, or leave the cell empty (1 is then assumed)")


# --- claim cards ----------------------------------------------------------------------------------


@pytest.mark.parametrize("quotes, expected", [
    ([result("q1"), result("q2", match_type="normalized")], (SUPPORTED, "all 2 quotes verified")),
    ([result("q1"), result("q2", "unverified")], (NOT_ENOUGH_INFO, "of 2 quotes, 1 not located")),
    ([result("q1"), result("q2", "review")], (NOT_ENOUGH_INFO, "of 2 quotes, 1 in review")),
    ([result("q1", "unverified"), result("q2", "review", match_type="altered", differences=[NAME])],
     (NOT_ENOUGH_INFO, "of 2 quotes, 1 not located and 1 in review")),
    ([result("q1"), result("q2", "review", match_type="altered", differences=[NUMBER])],
     (REFUTED, "the source contradicts quote q2 (a changed number or negation)")),
    # A contradiction outranks unlocated quotes.
    ([result("q1", "unverified"), result("q2", "review", match_type="altered", differences=[NAME, NEGATION]),
      result("q3", "review", match_type="altered", differences=[NUMBER])],
     (REFUTED, "the source contradicts quotes q2, q3 (a changed number or negation)")),
])
def test_card_labels_and_their_precedence(quotes: list[QuoteResult], expected: tuple[str, str]) -> None:
    assert label(quotes) == expected


def test_a_card_holds_the_claim_its_label_and_the_evidence() -> None:
    located = result("q1", document="interview-01", matched_text="the source text", document_sha256="ab" * 32,
                     start=10, end=25, cosine=0.91, match_ratio=0.97, bm25_score=12.5, confidence=0.93,
                     match_type="normalized", cite="12:4-6")
    when = datetime(2026, 3, 1, 9, 30, 15, tzinfo=timezone.utc)
    (card,) = claim_cards([located, result("q2", "unverified")], checked_at=when)
    assert card.to_dict() == {
        "claim": "F", "label": NOT_ENOUGH_INFO, "label_reason": "of 2 quotes, 1 not located",
        "finding_confidence": 1.0, "adjusted_confidence": 0.5,
        "evidence": [
            {"quote_id": "q1", "quote": "quote q1", "status": "verified", "document": "interview-01",
             "snippet": "the source text", "document_sha256": "ab" * 32, "start": 10, "end": 25,
             "method": "normalized",
             "metrics": {"confidence": 0.93, "cosine": 0.91, "match_ratio": 0.97, "bm25_score": 12.5},
             "checked_at": "2026-03-01T09:30:15+00:00", "cite": "12:4-6"},
            {"quote_id": "q2", "quote": "quote q2", "status": "unverified", "document": "", "snippet": "",
             "document_sha256": "", "start": None, "end": None, "method": "unlocated",
             "metrics": {"confidence": 0.1, "cosine": None, "match_ratio": None, "bm25_score": None},
             "checked_at": "2026-03-01T09:30:15+00:00", "cite": ""},
        ]}


# --- the report, the appendix section, output names -----------------------------------------------


def test_report_lists_findings_with_their_quotes_and_marks_the_unverified() -> None:
    results = [
        result("q1", finding="Staff *left*", document="interview-01", line=3),
        result("q2", "unverified", finding="Staff *left*"),
        result("q3", "review", finding="Budget", match_type="altered", differences=[NUMBER], document="interview-02",
               line=7, timestamp="00:04:12", reasons=["number differs: quote says '50', source says '15'"]),
        result("q4", finding=""),
    ]
    assert render_report(results, summarize_findings(results)) == (
        "<!-- quoteverify:output report: written by quoteverify, not a source document -->\n"
        "# Findings and their quotes\n\n"
        "2 findings cited by 3 quotes. Each quote that could not be located in the sources is marked "
        "(unverified); the confidence of its finding is lowered accordingly.\n\n"
        "## Staff \\*left\\*\n\n"
        "**NOT ENOUGH INFO** (of 2 quotes, 1 not located). Confidence 1, adjusted 0.5; "
        "2 quotes: 1 verified, 0 review, 1 unverified.\n"
        f"**{MAJORITY_NOTE}.**\n\n"
        "- q1: “quote q1” — interview-01, line 3\n"
        "- q2: “quote q2” (unverified)\n\n"
        "## Budget\n\n"
        "**REFUTED** (the source contradicts quote q3 (a changed number or negation)). Confidence 1, adjusted 1; "
        "1 quote: 0 verified, 1 review, 0 unverified.\n\n"
        "- q3: “quote q3” — interview-02, line 7, 00:04:12 (review: number differs: quote says '50', "
        "source says '15')\n\n"
        "1 quote citing no finding is not listed.\n")


def test_report_without_findings_says_so() -> None:
    uncited = [result("q1", finding="")]
    assert render_report(uncited, summarize_findings(uncited)) == (
        "<!-- quoteverify:output report: written by quoteverify, not a source document -->\n"
        "# Findings and their quotes\n\n"
        "No quote names a finding: the quote table has no `finding` column, or it is empty.\n")


def test_appendix_section_in_both_styles(corpus_dir: Path) -> None:
    results = [result("q1", finding="A & B"), result("q2", "unverified", finding="A & B")]
    manifest = build_manifest(quoteverify.run(corpus_dir, ["x"], NO_EMBED))

    def section(results, style):
        text = render_appendix(results, manifest, style=style, findings=summarize_findings(results))
        heading = {"markdown": "## Findings", "latex": "\\subsection*{Findings}"}[style]
        return text[text.index(heading):].rstrip("\n") if heading in text else ""

    markdown = section(results, "markdown")
    assert markdown.startswith("## Findings\n\nThe quotes were cited for 1 finding. ")
    assert markdown.endswith("| Finding | Quotes | Verified | Review | Unverified | Confidence | Adjusted |\n"
                             "|---|---|---|---|---|---|---|\n"
                             "| A & B | 2 | 1 | 0 | 1 | 1 | 0.5 |")
    assert "Findings resting on a majority of quotes that could not be located in the source: 1." in markdown
    assert r"A \& B & 2 & 1 & 0 & 1 & 1 & 0.5 \\" in section(results, "latex")
    assert section([result("q1", finding="")], "markdown") == ""


@pytest.mark.parametrize("option, name, message", [
    ("--findings", "findings.xlsx", "findings.xlsx: unknown output format '.xlsx'; use .csv, .jsonl"),
    ("--report", "report.txt", "report.txt: unknown output format '.txt'; use .md, .markdown"),
    ("--cards", "cards.json", "cards.json: unknown output format '.json'; use .jsonl"),
])
def test_unknown_output_formats_are_refused_before_the_run(corpus_dir: Path, tmp_path: Path, option: str,
                                                           name: str, message: str) -> None:
    quotes = tmp_path / "quotes.csv"
    quotes.write_text(QUOTES, encoding="utf-8")
    result = CliRunner().invoke(main, ["verify", str(corpus_dir), str(quotes), "--no-embed", "--no-cache",
                                       "-o", str(tmp_path / "r.jsonl"), option, str(tmp_path / name)])
    assert result.exit_code == 2
    assert result.stderr == f"Error: {option} {tmp_path / message}\n"
    assert not (tmp_path / "r.jsonl").exists()


@pytest.mark.parametrize("write, name", [
    (lambda path: write_findings(path, ()), "findings.xlsx"),
    (lambda path: write_report(path, [], summarize_findings([])), "report.txt"),
    (lambda path: write_cards(path, []), "cards.json"),
])
def test_the_writers_check_the_format_too(tmp_path: Path, write, name: str) -> None:
    with pytest.raises(OutputError, match=f"^{tmp_path / name}: unknown output format "):
        write(tmp_path / name)


# --- through the command line ---------------------------------------------------------------------

QUOTES = (
    "quote_id,quote,document,finding,finding_confidence\n"
    "q1,The committee did not approve the budget until March.,interview-01,Funding came late,0.8\n"
    "q2,We lost 50 volunteers in the first month.,interview-01,Volunteers left early,\n"
    "q3,The budget was rejected by the minister because of the paperwork.,interview-01,Funding came late,\n"
    "q4,The nurses never gave up.,interview-01,,\n"
)


def test_verify_writes_findings_report_cards_and_sheet(corpus_dir: Path, tmp_path: Path) -> None:
    import openpyxl

    quotes = tmp_path / "quotes.csv"
    quotes.write_text(QUOTES, encoding="utf-8")
    out = {name: tmp_path / name for name in ("findings.csv", "report.md", "cards.jsonl", "results.xlsx",
                                              "results.jsonl")}
    result = CliRunner().invoke(main, [
        "verify", str(corpus_dir), str(quotes), "--no-embed", "--no-cache", "-o", str(out["results.xlsx"]),
        "-o", str(out["results.jsonl"]), "--findings", str(out["findings.csv"]), "--report", str(out["report.md"]),
        "--cards", str(out["cards.jsonl"])], catch_exceptions=False)
    assert result.exit_code == 0, result.output

    with open(out["findings.csv"], encoding="utf-8", newline="") as handle:
        table = list(csv.DictReader(handle))
    assert [tuple(row.values()) for row in table] == [
        ("Funding came late", "2", "1", "0", "1", "0.8", "0.4", MAJORITY_NOTE),
        ("Volunteers left early", "1", "0", "1", "0", "1.0", "1.0", ""),
    ]
    records = [json.loads(line) for line in out["results.jsonl"].read_text(encoding="utf-8").splitlines()]
    assert [(r["finding"], r["finding_confidence"]) for r in records] == [
        ("Funding came late", 0.8), ("Volunteers left early", None), ("Funding came late", None), ("", None)]

    cards = [json.loads(line) for line in out["cards.jsonl"].read_text(encoding="utf-8").splitlines()]
    assert [(c["claim"], c["label"]) for c in cards] == [("Funding came late", NOT_ENOUGH_INFO),
                                                         ("Volunteers left early", REFUTED)]
    evidence = cards[1]["evidence"][0]
    text = (corpus_dir / "interview-01.txt").read_text(encoding="utf-8")
    assert (evidence["method"], evidence["document"]) == ("altered", "interview-01")
    assert text[evidence["start"]:evidence["end"]] == evidence["snippet"]
    assert datetime.fromisoformat(evidence["checked_at"]).utcoffset().total_seconds() == 0

    report = out["report.md"].read_text(encoding="utf-8")
    assert "- q3: “The budget was rejected by the minister because of the paperwork.” (unverified)\n" in report
    assert "(unverified)" not in report.split("- q1:")[1].split("\n")[0]

    book = openpyxl.load_workbook(out["results.xlsx"])
    assert book.sheetnames == ["Guide", "Quotes", "Summary", "Findings", "Method"]
    rows = list(book["Findings"].iter_rows(values_only=True))
    assert rows[0] == FINDING_COLUMNS
    assert rows[1] == ("Funding came late", 2, 1, 0, 1, 0.8, 0.4, MAJORITY_NOTE)


def test_a_finding_named_like_a_formula_stays_text_in_the_sheet(tmp_path: Path) -> None:
    import openpyxl

    from quoteverify.export.excel import write_workbook

    path = tmp_path / "results.xlsx"
    results = [result("q1", finding="=HYPERLINK(\"http://x\")")]
    write_workbook(path, results, findings=summarize_findings(results))
    assert openpyxl.load_workbook(path)["Findings"]["A2"].data_type == "s"


def test_appendix_has_a_findings_section(corpus_dir: Path, tmp_path: Path) -> None:
    quotes = tmp_path / "quotes.csv"
    quotes.write_text(QUOTES, encoding="utf-8")
    runner = CliRunner()
    results, manifest = tmp_path / "results.jsonl", tmp_path / "run.json"
    verified = runner.invoke(main, ["verify", str(corpus_dir), str(quotes), "--no-embed", "--no-cache", "-o",
                                    str(results), "--manifest", str(manifest)], catch_exceptions=False)
    assert verified.exit_code == 0, verified.output
    appendix = runner.invoke(main, ["appendix", str(results), "--manifest", str(manifest)], catch_exceptions=False)
    assert appendix.exit_code == 0, appendix.output
    assert "\n## Findings\n\nThe quotes were cited for 2 findings." in appendix.stdout
    assert "| Funding came late | 2 | 1 | 0 | 1 | 0.8 | 0.4 |" in appendix.stdout


def test_findings_outputs_without_findings_warn(corpus_dir: Path, tmp_path: Path) -> None:
    quotes = tmp_path / "quotes.csv"
    quotes.write_text("quote\nThe nurses never gave up.\n", encoding="utf-8")
    findings = tmp_path / "findings.jsonl"
    result = CliRunner().invoke(main, ["verify", str(corpus_dir), str(quotes), "--no-embed", "--no-cache",
                                       "-o", str(tmp_path / "r.jsonl"), "--findings", str(findings)])
    assert result.exit_code == 0, result.output
    assert ("Warning: no quote names a finding (QUOTES has no 'finding' column, or it is empty); the findings "
            "outputs list none") in result.stderr
    assert findings.read_bytes() == b""
