"""The bundled example is its own test: data/example/README.md promises a verdict for every quote, and a run of
the command line gives exactly those verdicts. The README's table is the one statement of what is expected."""
from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from quoteverify.cli import main

EXAMPLE = Path(__file__).resolve().parent.parent / "data" / "example"


def expected_table() -> dict[str, dict[str, str]]:
    """Each quote's row of the README's table, by id, as {column: text}."""
    lines = [line for line in (EXAMPLE / "README.md").read_text(encoding="utf-8").splitlines()
             if line.startswith("|") and not line.startswith("|--")]
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    return {row["id"]: row for row in (dict(zip(header, (c.strip() for c in line.strip("|").split(" | "))))
                                       for line in lines[1:])}


def promised(text: str, *, embed: bool) -> tuple[str, str, str]:
    """(status, match type, a reason it must give) from an 'expected' cell such as 'verified, exact',
    'review, misattributed ("said by ...")' or 'review, paraphrase with embeddings; unverified, unlocated with
    `--no-embed`'."""
    variants = text.split("; ")
    if len(variants) > 1:
        variants = [v for v in variants if ("--no-embed" in v) != embed]
    (variant,) = variants
    m = re.match(r"(\w+), (\w+)(?: with [^(]*)?(?: \(\"(.*)\"\))?$", variant.strip())
    assert m, f"data/example/README.md: cannot read the expected verdict {variant!r}"
    return m[1], m[2], m[3] or ""


@pytest.fixture(scope="module", params=[True, False], ids=["embeddings", "no-embed"])
def run(request, tmp_path_factory) -> tuple[bool, dict[str, dict]]:
    out = tmp_path_factory.mktemp("example") / "results.jsonl"
    args = ["verify", str(EXAMPLE / "transcripts"), str(EXAMPLE / "quotes.csv"), "-o", str(out), "--no-cache"]
    outcome = CliRunner().invoke(main, args if request.param else [*args, "--no-embed"])
    assert outcome.exit_code == 0, outcome.output
    return request.param, {r["quote_id"]: r for r in map(json.loads, out.read_text(encoding="utf-8").splitlines())}


def test_every_quote_is_in_the_table() -> None:
    with open(EXAMPLE / "quotes.csv", encoding="utf-8", newline="") as table:
        quotes = [row["quote_id"] for row in csv.DictReader(table)]
    assert list(expected_table()) == quotes


@pytest.mark.parametrize("quote_id", list(expected_table()))
def test_the_example_gives_what_its_readme_promises(run, quote_id: str) -> None:
    embed, results = run
    row = expected_table()[quote_id]
    status, match_type, reason = promised(row["expected"], embed=embed)
    result = results[quote_id]
    assert (result["status"], result["match_type"]) == (status, match_type), (
        f"{quote_id} ({row['what it shows']}): data/example/README.md promises {status}, {match_type}; the run "
        f"gives {result['status']}, {result['match_type']} ({'; '.join(result['reasons'])})")
    assert not reason or reason in result["reasons"], result["reasons"]
    if "severity" in row:
        assert result["severity"] == row["severity"].strip("`")


def test_the_readme_picture_shows_what_a_run_gives(run) -> None:
    """docs/report.png is made by docs/make_report_png.py from a run of the README's first command, with the
    counts it shows kept in docs/report.json: a change of verdicts needs the picture made again."""
    embed, results = run
    if not embed:
        pytest.skip("the picture is of a run with embeddings, as the README's first command makes")
    shown = json.loads((EXAMPLE.parent.parent / "docs" / "report.json").read_text(encoding="utf-8"))
    statuses = [r["status"] for r in results.values()]
    assert shown == {s: statuses.count(s) for s in ("verified", "review", "unverified")}, (
        "docs/report.png shows other counts than a run gives: run python docs/make_report_png.py")
