"""The command line: outputs, the summary, exit codes and one-line errors."""
from __future__ import annotations

import csv
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from quoteverify.cli import main

QUOTES = (
    "quote_id,quote,document\n"
    "q1,The committee did not approve the budget until March.,interview-01\n"
    "q2,We lost 50 volunteers in the first month.,interview-01\n"
    "q3,The budget was rejected by the minister because of the paperwork.,interview-01\n"
)
SUMMARY = re.compile(r"^3 quotes: 1 verified, 1 review \(1 high\), 1 unverified \(\d+\.\d s\)$")


@pytest.fixture
def quotes_csv(tmp_path: Path) -> Path:
    path = tmp_path / "quotes.csv"
    path.write_text(QUOTES, encoding="utf-8")
    return path


def invoke(*args) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def test_verify_writes_jsonl_and_csv(corpus_dir: Path, quotes_csv: Path, tmp_path: Path) -> None:
    out_jsonl, out_csv = tmp_path / "results.jsonl", tmp_path / "results.csv"
    result = invoke("verify", corpus_dir, quotes_csv, "-o", out_jsonl, "-o", out_csv, "--no-embed")
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    *_, summary, wrote, next_step = result.stderr.strip().splitlines()
    assert SUMMARY.match(summary)
    # Every output named, and what to open next.
    assert wrote == f"Wrote {out_jsonl} (results), {out_csv} (results)"
    assert next_step == (f"Next: quoteverify report {out_jsonl} -o {out_jsonl.with_suffix('.html')}, and open it to "
                         "decide the 2 quotes in review or unverified")
    rows = [json.loads(line) for line in out_jsonl.read_text(encoding="utf-8").splitlines()]
    assert [(r["quote_id"], r["status"], r["match_type"]) for r in rows] == [
        ("q1", "verified", "exact"), ("q2", "review", "altered"), ("q3", "unverified", "unlocated")]
    assert (rows[0]["document"], rows[0]["row"]) == ("interview-01", 2)
    text = (corpus_dir / "interview-01.txt").read_text(encoding="utf-8")
    assert text[rows[0]["start"]:rows[0]["end"]] == "The committee did not approve the budget until March."
    with open(out_csv, encoding="utf-8", newline="") as handle:
        table = list(csv.DictReader(handle))
    # Worst first, as a reviewer works through them; `row` gives the input order back.
    assert [(r["quote_id"], r["status"], r["row"]) for r in table] == [("q3", "unverified", "4"),
                                                                        ("q2", "review", "3"), ("q1", "verified", "2")]
    assert json.loads(table[1]["reasons"]) == ["number differs: quote says '50', source says '15'"]
    assert table[1]["severity"] == "high"


def test_without_output_the_summary_and_a_hint_and_with_a_dash_jsonl_to_stdout(corpus_dir: Path,
                                                                               quotes_csv: Path) -> None:
    result = invoke("verify", corpus_dir, quotes_csv, "--no-embed")
    assert result.exit_code == 0
    assert result.stdout == ""  # no JSON poured onto the terminal
    *_, summary, hint, next_step = result.stderr.strip().splitlines()
    assert SUMMARY.match(summary)
    assert hint == ("No -o given, so no results were written: add -o results.html (the review page), -o results.xlsx "
                    "(a workbook) or -o results.jsonl; -o - writes them to standard output as JSONL")
    assert next_step == ("Next: add -o results.html (a review page) or -o results.xlsx (a workbook) to decide the 2 "
                         "quotes in review or unverified")
    quiet = invoke("verify", corpus_dir, quotes_csv, "--no-embed", "-q")
    assert (quiet.stdout, quiet.stderr) == ("", "Warning: " + hint[0].lower() + hint[1:] + "\n")

    result = invoke("verify", corpus_dir, quotes_csv, "--no-embed", "-o", "-")
    assert result.exit_code == 0
    rows = [json.loads(line) for line in io.StringIO(result.stdout)]
    assert [r["quote_id"] for r in rows] == ["q1", "q2", "q3"]
    assert "Wrote the results to standard output (JSONL)" in result.stderr.splitlines()


def test_documents_as_files(corpus_dir: Path, quotes_csv: Path) -> None:
    result = invoke("verify", corpus_dir / "interview-01.txt", corpus_dir / "interview-02.txt", quotes_csv,
                    "--no-embed", "-o", "-")
    assert result.exit_code == 0
    assert [json.loads(line)["status"] for line in io.StringIO(result.stdout)] == [
        "verified", "review", "unverified"]


@pytest.mark.parametrize(("fail_on", "code", "said"), [
    (None, 0, None),
    ("unverified", 1, "Failed (--fail-on unverified): 1 quote: q3 (row 4, unverified)"),
    ("review", 1, "Failed (--fail-on review): 2 quotes: q2 (row 3, review), q3 (row 4, unverified)")])
def test_fail_on(corpus_dir: Path, quotes_csv: Path, fail_on, code: int, said: str | None) -> None:
    args = ["verify", corpus_dir, quotes_csv, "--no-embed", "-o", "-"] + (["--fail-on", fail_on] if fail_on else [])
    result = invoke(*args)
    assert result.exit_code == code
    lines = result.stderr.strip().splitlines()
    assert SUMMARY.match(lines[-4] if said else lines[-3])
    assert lines[-3 if said else -2] == "Wrote the results to standard output (JSONL)"
    if said:
        assert lines[-1] == said


def test_fail_on_review_passes_when_all_verified(corpus_dir: Path, tmp_path: Path) -> None:
    path = tmp_path / "good.csv"
    path.write_text("quote\nThe committee did not approve the budget until March.\n", encoding="utf-8")
    result = invoke("verify", corpus_dir, path, "--no-embed", "--fail-on", "review")
    assert result.exit_code == 0
    *_, summary, _, next_step = result.stderr.strip().splitlines()
    assert summary.startswith("1 quote: 1 verified, 0 review, 0 unverified (")
    assert next_step == "Next: nothing needs a decision: every quote is verified"


def test_fail_on_unverified_ignores_review(corpus_dir: Path, tmp_path: Path) -> None:
    path = tmp_path / "review.csv"
    path.write_text("quote\nWe lost 50 volunteers in the first month.\n", encoding="utf-8")
    assert invoke("verify", corpus_dir, path, "--no-embed", "--fail-on", "unverified").exit_code == 0
    assert invoke("verify", corpus_dir, path, "--no-embed", "--fail-on", "review").exit_code == 1


def test_config_file_is_used(corpus_dir: Path, tmp_path: Path) -> None:
    quotes = tmp_path / "q.csv"
    quotes.write_text("quote\n\"Honestly, it was harder than we expected.\"\n", encoding="utf-8")
    config = tmp_path / "strict.yaml"
    config.write_text("verdict:\n  edited_is_verified: false\nembed:\n  enabled: false\n", encoding="utf-8")
    result = invoke("verify", corpus_dir, quotes, "--config", config, "-o", "-")
    assert result.exit_code == 0
    (row,) = [json.loads(line) for line in io.StringIO(result.stdout)]
    assert (row["status"], row["match_type"]) == ("review", "edited")


def test_warnings_go_to_stderr(corpus_dir: Path, tmp_path: Path) -> None:
    path = tmp_path / "dup.csv"
    path.write_text("id,quote\nq1,Why did it close?\nq1,The patients noticed.\n", encoding="utf-8")
    result = invoke("verify", corpus_dir, path, "--no-embed", "-o", "-")
    assert result.exit_code == 0
    assert f"Warning: {path}: row 3: duplicate quote_id 'q1' renamed 'q1#2'" in result.stderr.splitlines()
    assert [json.loads(line)["quote_id"] for line in io.StringIO(result.stdout)] == ["q1", "q1#2"]


# ------------------------------------------------------------- bad input: exit 2, one line

def bad_input(tmp_path: Path, corpus_dir: Path, quotes_csv: Path, case: str) -> tuple[list, str]:
    """Arguments for one kind of bad input, and the exact error line it must give."""
    if case == "no-quote-column":
        path = tmp_path / "passages.csv"
        path.write_text("id,passage\n1,We lost 15 volunteers.\n", encoding="utf-8")
        return ([corpus_dir, path], f"Error: {path}: no quote column (looked for quote, text, quotation, quote_text, content, excerpt); "
                                    "found columns: 'id', 'passage'; name it with --quote-col")
    if case == "missing-quotes":
        path = tmp_path / "nope.csv"
        return [corpus_dir, path], f"Error: {path}: no such quote table"
    if case == "missing-documents":
        path = tmp_path / "transcripts-2"
        return [path, quotes_csv], f"Error: {path}: no such file or folder"
    if case == "unknown-config-key":
        path = tmp_path / "mine.yaml"
        path.write_text("align:\n  max_gap_word: 50\n", encoding="utf-8")
        return ([corpus_dir, quotes_csv, "--config", path],
                f"Error: {path}: unknown key 'align.max_gap_word'; known keys here: claimed_coverage, "
                "editorial_max_words, gap, match, max_gap_words, max_pieces, min_piece_words, mismatch, near_retry, "
                "passage_share, piece_density, piece_min_score, splice_gap_words, weak_gap, workers")
    if case == "bad-config-value":
        path = tmp_path / "mine.yaml"
        path.write_text("window:\n  overlap: 2\n", encoding="utf-8")
        return ([corpus_dir, quotes_csv, "--config", path],
                f"Error: {path}: 'window.overlap' is 2.0; it must be between 0.0 and 0.9")
    if case == "missing-config":
        path = tmp_path / "nope.yaml"
        return ([corpus_dir, quotes_csv, "--config", path],
                f"Error: {path}: config file not found; check the path given to --config")
    if case == "unsupported-quotes":
        path = tmp_path / "quotes.pdf"
        path.write_bytes(b"%PDF-1.4")
        return ([corpus_dir, path],
                f"Error: {path}: unsupported quote table type '.pdf'; use .csv, .tsv, .xlsx, .jsonl, .txt, .qdpx")
    if case == "output-folder-missing":
        out = tmp_path / "no-such-folder" / "results.jsonl"
        return ([corpus_dir, quotes_csv, "-o", out],
                f"Error: -o {out}: folder {out.parent} does not exist; create it or choose another path")
    if case == "only-one-path":
        return ([quotes_csv], "Error: give the documents (files or folders) and then the quote table, "
                              "e.g. quoteverify verify transcripts/ quotes.csv -o results.xlsx")
    raise AssertionError(case)


@pytest.mark.parametrize("case", ["no-quote-column", "missing-quotes", "missing-documents", "unknown-config-key",
                                  "bad-config-value", "missing-config", "unsupported-quotes",
                                  "output-folder-missing", "only-one-path"])
def test_bad_input_exits_2_with_one_line(tmp_path: Path, corpus_dir: Path, quotes_csv: Path, case: str) -> None:
    args, message = bad_input(tmp_path, corpus_dir, quotes_csv, case)
    result = CliRunner().invoke(main, ["verify", *map(str, args), "--no-embed"])
    assert result.exit_code == 2
    assert result.stderr == message + "\n"
    assert result.stdout == ""
    assert "Traceback" not in result.output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit)


def test_no_partial_output_on_bad_input(tmp_path: Path, corpus_dir: Path) -> None:
    path = tmp_path / "passages.csv"
    path.write_text("id,passage\n1,x\n", encoding="utf-8")
    out = tmp_path / "results.jsonl"
    assert invoke("verify", corpus_dir, path, "-o", out, "--no-embed").exit_code == 2
    assert not out.exists()
    assert list(tmp_path.glob(".results.jsonl.*")) == []


def test_usage_errors_exit_2() -> None:
    result = CliRunner().invoke(main, ["verify", "a", "b", "--fail-on", "sometimes"])
    assert result.exit_code == 2
    assert "Invalid value for '--fail-on'" in result.stderr


def test_version() -> None:
    from quoteverify import __version__

    result = invoke("--version")
    assert (result.exit_code, result.stdout) == (0, f"quoteverify, version {__version__}\n")


# ---------------------------------------------------------------- start-up cost

def _python(code: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent.parent))
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)


def test_help_does_not_import_torch() -> None:
    done = _python(
        "import sys, quoteverify.cli\n"
        "from click.testing import CliRunner\n"
        "for args in (['--help'], ['verify', '--help']):\n"
        "    result = CliRunner().invoke(quoteverify.cli.main, args)\n"
        "    assert result.exit_code == 0, result.output\n"
        "heavy = sorted(m for m in ('torch', 'sentence_transformers', 'transformers') if m in sys.modules)\n"
        "assert not heavy, heavy\n")
    assert done.returncode == 0, done.stderr


def test_no_embed_run_does_not_import_torch(tmp_path: Path, corpus_dir: Path, quotes_csv: Path) -> None:
    done = _python(
        "import sys, quoteverify.cli\n"
        "from click.testing import CliRunner\n"
        f"result = CliRunner().invoke(quoteverify.cli.main, ['verify', {str(corpus_dir)!r}, {str(quotes_csv)!r}, "
        "'--no-embed'])\n"
        "assert result.exit_code == 0, result.output\n"
        "assert 'torch' not in sys.modules\n")
    assert done.returncode == 0, done.stderr


def test_python_dash_m() -> None:
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent.parent))
    done = subprocess.run([sys.executable, "-m", "quoteverify", "--help"], capture_output=True, text=True, env=env,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Usage: python -m quoteverify [OPTIONS] COMMAND [ARGS]...")
    assert re.search(r"^\s+verify\s", done.stdout, re.MULTILINE)


def test_the_summary_counts_review_by_severity() -> None:
    """The one-line summary gives the quotes in review by severity, once classify rates them."""
    from quoteverify import commands, load_config
    from quoteverify.model.types import QuoteResult, Run

    said: list[str] = []
    console = commands.Console(say=said.append, echo=said.append, write=lambda data: None)
    results = [QuoteResult("q1", "a", 2, status="review", severity="high"),
               QuoteResult("q2", "b", 3, status="review", severity="low"),
               QuoteResult("q3", "c", 4, status="review", severity="high"),
               QuoteResult("q4", "d", 5, status="verified")]
    commands._summary(Run(results, (), load_config(), None), 0.0, console)
    assert re.fullmatch(r"4 quotes: 1 verified, 3 review \(2 high, 1 low\), 0 unverified \(\d+\.\d s\)", said[0])
