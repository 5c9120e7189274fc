"""Quotes out of a manuscript: inline and block quotes, participant tags, what is skipped, the CLI."""
from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import docx
import pytest
from click.testing import CliRunner
from docx.shared import Inches

from quoteverify.app.extract import extract_quotes
from quoteverify.cli import main
from quoteverify.model.errors import InputError


def rows(extraction) -> list[tuple[str, str, str]]:
    return [(q.quote_id, q.quote, q.speaker) for q in extraction.quotes]


MARKDOWN = """# Findings

Nurses called the first year "chaotic". As one put it, “We lost 15 volunteers in the first
month, and the remote clinic had to close twice” (Maria). Another said "the committee did not
approve the budget until March" — Interviewee 7, nurse. Prior work found that “burnout is common
among rural nurses in their first year” (Smith et al., 2019, p. 4). «They never gave up, they came
in every weekend» [Maria], which we read as commitment, “not as a lack of boundaries at work” (emphasis added).

> I think -- I think we were naive about the paperwork. But the nurses never
> gave up, they came in every weekend.
>
> — Maria

Some called it “a mess” (P2), others “fine”.

```
"a fenced example is not a quote from the manuscript"
```
"""


def test_markdown(tmp_path: Path) -> None:
    path = tmp_path / "paper.md"
    path.write_text(MARKDOWN, encoding="utf-8")
    extraction = extract_quotes(path, min_words=5)
    assert rows(extraction) == [
        ("q1", "We lost 15 volunteers in the first month, and the remote clinic had to close twice", "Maria"),
        ("q2", "the committee did not approve the budget until March", "Interviewee 7"),
        ("q3", "They never gave up, they came in every weekend", "Maria"),
        ("q4", "not as a lack of boundaries at work", ""),  # "(emphasis added)" is no participant
        ("q5", "I think -- I think we were naive about the paperwork. But the nurses never gave up, they came "
               "in every weekend.", "Maria"),
        ("q6", "a mess", "P2"),  # short, but tagged: kept
    ]
    assert (extraction.short, extraction.citations) == (2, 1)  # "chaotic", "fine"; Smith et al.
    assert extraction.summary() == (f"6 quotes from {path} (5 with a speaker tag); skipped 2 quoted phrases "
                                    "under 5 words and 1 citation of the literature")
    contexts = [q.context for q in extraction.quotes]
    assert contexts[0] == ("line 3: Nurses called the first year \"chaotic\". As one put it, [quote] (Maria). "
                           "Another said \"the committee did not approve the budget until March\" —…")
    assert [c.split(":")[0] for c in contexts] == ["line 3", "line 4", "line 6", "line 7", "line 9", "line 14"]
    assert contexts[4] == "line 9: block quote"


PLAIN = """     Nurses described the first year as chaotic. As one put it, "We lost 15
volunteers in the first month" (P3). This paragraph has an indented first
line only, as typewritten manuscripts do.
     So does this one, with no quote in it at all.

As a participant said:

    The committee did not approve the budget until March. I think we
    were naive about the paperwork.
    (Interviewee 7, nurse)

And another:

    We stayed late every night, and nobody thanked us for it.

    - P5

    (Laughs) A block without a tag is still a quote to check.
"""


def test_plain_text(tmp_path: Path) -> None:
    path = tmp_path / "paper.txt"
    path.write_bytes(PLAIN.replace("\n", "\r\n").encode("utf-8"))
    extraction = extract_quotes(path, min_words=5)
    assert rows(extraction) == [
        ("q1", "We lost 15 volunteers in the first month", "P3"),
        ("q2", "The committee did not approve the budget until March. I think we were naive about the paperwork.",
         "Interviewee 7, nurse"),
        ("q3", "We stayed late every night, and nobody thanked us for it.", "P5"),
        ("q4", "(Laughs) A block without a tag is still a quote to check.", ""),
    ]
    assert [q.context for q in extraction.quotes] == [
        "line 1: Nurses described the first year as chaotic. As one put it, [quote] (P3). This paragraph has an "
        "indented first line only, as typewritten…",
        "line 8: block quote", "line 14: block quote", "line 18: block quote"]


def write_manuscript(path: Path) -> Path:
    document = docx.Document()
    document.add_heading("Findings", level=1)
    document.add_paragraph("As one nurse put it, \u201cwe never went back to that ward after the flood\u201d (P3). "
                           "Others were \u201cfine\u201d.")
    document.add_paragraph("The water came up so fast. By noon the whole ground floor was gone.", style="Quote")
    document.add_paragraph("\u2014 Aisha")
    indented = document.add_paragraph("Our neighbours did. The council sent a boat, but it arrived two days later.")
    indented.paragraph_format.left_indent = Inches(0.5)
    document.add_paragraph("A list item \u201cis not a block quote, but its quotes count\u201d (P4)",
                           style="List Bullet")
    reference = document.add_paragraph("Smith, J. (2019). Rural nurses and burnout. A journal of long titles.")
    reference.paragraph_format.left_indent = Inches(0.5)
    reference.paragraph_format.first_line_indent = Inches(-0.5)
    table = document.add_table(rows=1, cols=2)
    table.cell(0, 0).text = "Theme 1"
    table.cell(0, 1).text = "\u201cThe training was useful, but it was far too short\u201d (James)"
    document.save(path)
    return path


def test_docx(tmp_path: Path) -> None:
    extraction = extract_quotes(write_manuscript(tmp_path / "paper.docx"), min_words=5)
    assert rows(extraction) == [
        ("q1", "we never went back to that ward after the flood", "P3"),
        ("q2", "The water came up so fast. By noon the whole ground floor was gone.", "Aisha"),
        ("q3", "Our neighbours did. The council sent a boat, but it arrived two days later.", ""),
        ("q4", "is not a block quote, but its quotes count", "P4"),
        ("q5", "The training was useful, but it was far too short", "James"),
    ]
    assert [q.context.split(":")[0] for q in extraction.quotes] == [
        "paragraph 2", "paragraph 3", "paragraph 5", "paragraph 6", "table 1, row 1"]
    assert (extraction.short, extraction.citations) == (1, 0)


@pytest.mark.parametrize(("text", "expected"), [
    ("He said “we lost everything in the flood” (P3, 00:04:12).", ("we lost everything in the flood", "P3, 00:04:12")),
    ("He said “we lost everything in the flood”, (P3).", ("we lost everything in the flood", "P3")),
    ("He said “we lost everything in the flood” -- P3.", ("we lost everything in the flood", "P3")),
    ("“We lost everything in the flood” — P3, a nurse, explained.", ("We lost everything in the flood", "P3")),
    ("He said “we lost everything in the flood” (pp. 4-5).", None),          # a citation
    ("He said “we lost everything in the flood” (Okafor 2021).", None),      # a citation
    ("He said “we lost everything in the flood” (sic).", ("we lost everything in the flood", "")),
    ("He said “we lost everything in the flood” and left.", ("we lost everything in the flood", "")),
])
def test_tags(tmp_path: Path, text: str, expected) -> None:
    path = tmp_path / "paper.md"
    path.write_text(text + "\n", encoding="utf-8")
    extraction = extract_quotes(path, min_words=3)
    assert [(q.quote, q.speaker) for q in extraction.quotes] == ([expected] if expected else [])
    assert extraction.citations == (0 if expected else 1)


def test_min_words(tmp_path: Path) -> None:
    path = tmp_path / "paper.md"
    path.write_text("They said “it was a mess” and “we coped”.\n", encoding="utf-8")
    assert [(q.quote, e.short) for e in [extract_quotes(path, min_words=4)] for q in e.quotes] == [
        ("it was a mess", 1)]
    assert len(extract_quotes(path, min_words=1).quotes) == 2


def test_bad_manuscripts(tmp_path: Path) -> None:
    with pytest.raises(InputError) as error:
        extract_quotes(tmp_path / "paper.pdf", min_words=5)
    assert str(error.value) == (f"{tmp_path / 'paper.pdf'}: unsupported manuscript type '.pdf'; use .docx, .md, .tex, "
                                ".txt (save the draft from Word as .docx)")
    with pytest.raises(InputError) as error:
        extract_quotes(tmp_path / "paper.md", min_words=5)
    assert str(error.value) == f"{tmp_path / 'paper.md'}: no such manuscript"


# ------------------------------------------------------------------------------------------------ CLI

def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def test_cli_writes_the_quote_table(tmp_path: Path) -> None:
    manuscript = tmp_path / "paper.md"
    manuscript.write_text(MARKDOWN, encoding="utf-8")
    out = tmp_path / "quotes.csv"
    result = invoke("extract", manuscript, "-o", out)
    assert result.exit_code == 0
    assert result.stdout == ""
    assert result.stderr == (f"6 quotes from {manuscript} (5 with a speaker tag); skipped 2 quoted phrases under "
                             "5 words and 1 citation of the literature\n")
    table = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"), newline="")))
    assert list(table[0]) == ["quote_id", "quote", "speaker", "context"]
    assert [(r["quote_id"], r["speaker"]) for r in table] == [
        ("q1", "Maria"), ("q2", "Interviewee 7"), ("q3", "Maria"), ("q4", ""), ("q5", "Maria"), ("q6", "P2")]
    # Without -o, the same table on stdout.
    again = invoke("extract", manuscript, "--min-words", "5")
    assert again.stdout_bytes == out.read_bytes()


def test_cli_min_words_and_config(tmp_path: Path) -> None:
    manuscript = tmp_path / "paper.md"
    manuscript.write_text(MARKDOWN, encoding="utf-8")
    config = tmp_path / "mine.yaml"
    config.write_text("extract:\n  min_words: 1\n", encoding="utf-8")
    assert invoke("extract", manuscript, "--config", config).stderr.startswith(f"8 quotes from {manuscript}")
    # Tagged quotes are kept however short; the one untagged quote has 8 words.
    assert invoke("extract", manuscript, "--min-words", "20").stderr.startswith(f"5 quotes from {manuscript}")


@pytest.mark.parametrize(("args", "message"), [
    (["--min-words", "0"], "config: 'extract.min_words' is 0; it must be between 1 and 1000"),
    (["-o", "{manuscript}"], "-o {manuscript}: unknown output format '.md'; use .csv"),
    (["-o", "{tmp}/quotes.xlsx"], "-o {tmp}/quotes.xlsx: unknown output format '.xlsx'; use .csv"),
])
def test_cli_errors(tmp_path: Path, args: list[str], message: str) -> None:
    manuscript = tmp_path / "paper.md"
    manuscript.write_text(MARKDOWN, encoding="utf-8")
    fill = {"manuscript": manuscript, "tmp": tmp_path}
    result = invoke("extract", manuscript, *[a.format(**fill) for a in args])
    assert result.exit_code == 2
    assert result.stderr == "Error: " + message.format(**fill) + "\n"
    assert manuscript.read_text(encoding="utf-8") == MARKDOWN


def test_a_manuscript_verified_in_two_commands(tmp_path: Path, corpus_dir: Path) -> None:
    manuscript = tmp_path / "paper.md"
    manuscript.write_text(
        "Maria recalled that “the committee did not approve the budget until March” (Maria), and that\n"
        "“we lost 50 volunteers in the first month” (Maria). James agreed: “the training was useful,\n"
        "but it was far too short” (Maria). “How did the first year go?” (Maria)\n", encoding="utf-8")
    quotes, results = tmp_path / "quotes.csv", tmp_path / "results.jsonl"
    assert invoke("extract", manuscript, "-o", quotes).exit_code == 0
    assert invoke("verify", corpus_dir, quotes, "-o", results, "--no-embed", "--no-cache").exit_code == 0
    found = [json.loads(line) for line in results.read_text(encoding="utf-8").splitlines()]
    assert [(r["quote_id"], r["status"], r["match_type"], r["speaker"], r["reasons"][0] if r["reasons"] else "")
            for r in found] == [
        ("q1", "verified", "normalized", "Maria", ""),
        ("q2", "review", "altered", "Maria", "number differs: quote says '50', source says '15'"),
        ("q3", "review", "misattributed", "James", "said by James, not by claimed Maria"),
        ("q4", "review", "misattributed", "Interviewer", "said by Interviewer, not by claimed Maria"),
    ]
    assert found[0]["extra"]["context"].startswith("line 1: Maria recalled that [quote] (Maria)")


@pytest.mark.parametrize("paragraph", [
    "Others agree (“burnout is common among rural nurses in their first year”, Smith, 2019, p. 4).",
    "Others agree (Smith et al. 2019: “burnout is common among rural nurses in their first year”).",
    "Others agree (see “burnout is common among rural nurses in their first year”; Okafor 2021).",
])
def test_a_citation_in_the_same_parentheses_as_the_quote_is_dropped(tmp_path: Path, paragraph: str) -> None:
    path = tmp_path / "paper.md"
    path.write_text(f"{paragraph} As P3 said, “we never stopped working those nights” (P3).\n", encoding="utf-8")
    extraction = extract_quotes(path, min_words=5)
    assert rows(extraction) == [("q1", "we never stopped working those nights", "P3")]
    assert extraction.citations == 1


def test_a_quote_in_parentheses_without_a_citation_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "paper.md"
    path.write_text("Nights were hard (as one nurse put it, “we never stopped working those nights”).\n",
                    encoding="utf-8")
    assert rows(extract_quotes(path, min_words=5)) == [("q1", "we never stopped working those nights", "")]
