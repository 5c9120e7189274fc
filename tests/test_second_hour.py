"""Issue 47, a researcher's second hour: a claim that names nothing is said, never silently unchecked; the
quote column ``Excerpt``; context that keeps whole words and a subtitle file's speakers; a changed quote
verified now needs no new look; the appendix counts decisions; a re-run that checks few quotes loads the
model only for them."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import NO_EMBED, TINY_CORPUS, FakeEmbedder

import quoteverify
from quoteverify.cli import main
from quoteverify.model.errors import InputError

MARIA = "The committee did not approve the budget until March."  # interview-01
JAMES = '"The patients noticed, of course."'  # interview-02, as a CSV cell


def write_docs(folder: Path, docs: dict[str, str] = TINY_CORPUS) -> Path:
    folder.mkdir()
    for doc_id, text in docs.items():
        (folder / f"{doc_id}.txt").write_text(text, encoding="utf-8")
    return folder


def invoke(*args: object):
    return CliRunner().invoke(main, [str(a) for a in args])


# --- a claimed document or speaker that names nothing ------------------------------------------------------


def test_a_document_column_that_names_no_document_stops_the_run_with_one_line(tmp_path: Path) -> None:
    docs = write_docs(tmp_path / "docs")
    table = tmp_path / "quotes.csv"
    table.write_text(f"quote,document\n{MARIA},Interview 1\n{JAMES},Interview 2\nWhy did it close?,Interview 1\n"
                     f"It was not easy.,interview-01\n", encoding="utf-8")
    result = invoke("verify", docs, table, "--no-embed", "--no-cache", "-o", tmp_path / "r.jsonl")
    assert (result.exit_code, result.stderr) == (2, (
        f"Error: {table}: 3 of 4 quotes name a document that is not among the documents ('Interview 1', "
        "'Interview 2') in column 'document'; the documents are interview-01, interview-02, interview-03, "
        "meeting-01; write their ids (file names without the extension) there, leave the column empty, or name "
        "another column with --doc-col\n"))
    assert not (tmp_path / "r.jsonl").exists()


def test_a_few_claims_that_name_no_document_are_said_and_never_plainly_verified(tmp_path: Path) -> None:
    """Before: verified, exact, one reason in the row and nothing on the screen; a quote from the wrong interview
    passed unnoticed."""
    from openpyxl import load_workbook

    from quoteverify.export.excel import UNCHECKED_COLOURS

    docs = write_docs(tmp_path / "docs")
    table = tmp_path / "quotes.csv"
    table.write_text(f"quote_id,quote,document\nq1,{MARIA},Interview 1\nq2,{JAMES},interview-02\n"
                     f"q3,Why did it close?,interview-01\n", encoding="utf-8")
    book = tmp_path / "r.xlsx"
    result = invoke("verify", docs, table, "--no-embed", "--no-cache", "-o", book, "-o", tmp_path / "r.jsonl")
    assert result.exit_code == 0, result.output
    said = ("1 quote names a document that is not among the documents, e.g. 'Interview 1'; it was searched in all, "
            "so which document it comes from was not checked")
    lines = result.stderr.splitlines()
    assert lines[0] == f"Warning: {said}"
    summary = next(k for k, line in enumerate(lines) if line.startswith("3 quotes: "))
    assert lines[summary + 1:summary + 3] == [
        said, "1 quote verified on the words alone: the document or speaker named for it was not checked (pale "
              "green in the workbook and on the page; the reasons say why)"]
    row = json.loads((tmp_path / "r.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert (row["status"], row["document"], row["reasons"]) == ("verified", "interview-01", [
        "claimed document 'Interview 1' is not among the documents; searched all, so which document it comes from "
        "was not checked"])
    sheet = load_workbook(book)["Quotes"]
    header = [cell.value for cell in sheet[1]]
    fills = {sheet.cell(row=r, column=1).value: sheet.cell(row=r, column=header.index("status") + 1)
             for r in range(2, sheet.max_row + 1)}
    assert fills["q1"].fill.fgColor.rgb.endswith(UNCHECKED_COLOURS[0])  # not the plain green of q2
    assert fills["q2"].fill.fgColor.rgb.endswith("C6EFCE")
    summary_sheet = [[c.value for c in row] for row in load_workbook(book)["Summary"].iter_rows()]
    assert ["verified, claim not checked (document)", 1] in [row[:2] for row in summary_sheet]


def test_a_speaker_column_that_names_no_speaker_stops_the_run_and_a_few_are_said(tmp_path: Path) -> None:
    docs = write_docs(tmp_path / "docs")
    table = tmp_path / "quotes.csv"
    table.write_text(f"quote,speaker\n{MARIA},Nurse\n{JAMES},Teacher\nWhy did it close?,Nurse\n", encoding="utf-8")
    result = invoke("verify", docs, table, "--no-embed", "--no-cache", "-o", tmp_path / "r.jsonl")
    assert (result.exit_code, result.stderr.splitlines()[-1]) == (2, (
        f"Error: {table}: 3 of 3 quotes name a speaker who is not among the documents' speakers ('Nurse', "
        "'Teacher') in column 'speaker'; the speakers there are Interviewer, Maria, James, Aisha, Project Manager, "
        "User Interface; write the speakers as the documents name them there, leave the column empty, or name "
        "another column with --speaker-col"))
    table.write_text(f"quote,speaker\n{MARIA},Nurse\n{JAMES},James\nWhy did it close?,Interviewer\n",
                     encoding="utf-8")
    result = invoke("verify", docs, table, "--no-embed", "--no-cache", "-o", tmp_path / "r.jsonl")
    assert result.exit_code == 0, result.output
    assert ("Warning: 1 quote names a speaker who is not among the documents' speakers, e.g. 'Nurse'; no place "
            "where it is found is a turn of the speaker named") in result.stderr.splitlines()


def test_a_claimed_speaker_where_no_label_tells_is_said_in_the_row() -> None:
    docs = {"notes": "We lost fifteen volunteers in the first month, and the clinic closed twice.\n"}
    (row,) = quoteverify.verify(docs, [{"quote": "We lost fifteen volunteers", "speaker": "Maria"}], NO_EMBED)
    assert (row.status, row.reasons) == ("verified", [
        "claimed speaker 'Maria' not checked: no speaker label where it was found"])


def test_claims_given_in_python_are_said_but_never_stop_the_run() -> None:
    quotes = [{"quote": MARIA, "document": "Interview 1"}, {"quote": JAMES, "document": "Interview 2"},
              {"quote": "Why did it close?", "document": "Interview 1"}]
    run = quoteverify.run(TINY_CORPUS, quotes, NO_EMBED)
    assert [r.status for r in run.results] == ["verified", "verified", "review"]
    assert run.warnings[0].startswith("3 quotes name a document that is not among the documents, e.g. "
                                      "'Interview 1', 'Interview 2'; they were searched in all")
    with pytest.raises(InputError, match="quotes name a document that is not among the documents"):
        from quoteverify.sources.quotes import check_claims, coerce_quotes

        check_claims(coerce_quotes(quotes), TINY_CORPUS, column="document", source="quotes.csv")


# --- smaller points --------------------------------------------------------------------------------------


def test_a_quote_column_named_excerpt_is_recognised(tmp_path: Path) -> None:
    docs = write_docs(tmp_path / "docs")
    table = tmp_path / "coded.csv"
    table.write_text(f"Code,Excerpt\nfunding,{MARIA}\n", encoding="utf-8")
    result = invoke("verify", docs, table, "--no-embed", "--no-cache", "-o", "-")
    assert result.exit_code == 0, result.output  # before: "no quote column (looked for quote, text, ...)"
    assert json.loads(result.stdout)["status"] == "verified"


def test_context_is_never_cut_inside_a_word() -> None:
    (row,) = quoteverify.verify(TINY_CORPUS, [MARIA], {**NO_EMBED, "output": {"context_chars": 30}})
    text = TINY_CORPUS["interview-01"]
    start, end = text.index(MARIA), text.index(MARIA) + len(MARIA)
    # 30 characters each side would begin inside "Interviewer" and end inside "naive": both are left out.
    assert text[start - 30:start].startswith("wer: ") and text[end:end + 30].endswith("were\nna")
    assert (row.context_before, row.context_after) == (" Why did it close?\nMaria: ", " I think -- I think we were")


VTT = ("WEBVTT\n\n00:00:01.000 --> 00:00:04.000\n<v Interviewer>How did the first year go for you?\n\n"
       "00:00:04.500 --> 00:00:09.000\n<v Maria>Honestly, it was harder than we expected.\n\n"
       "00:00:09.500 --> 00:00:12.000\n<v Maria>We lost fifteen volunteers in the first month.\n\n"
       "00:00:12.500 --> 00:00:15.000\n<v Interviewer>Why did it close?\n\n"
       "00:00:15.500 --> 00:00:19.000\n<v Maria>The committee did not approve the budget until March.\n")


def test_a_subtitle_files_context_keeps_the_other_speakers_names(tmp_path: Path) -> None:
    """Before: the cues' text alone, 'How did the first year go for you?\\nHonestly, ...'."""
    (tmp_path / "p1.vtt").write_text(VTT, encoding="utf-8")
    (row,) = quoteverify.verify(tmp_path / "p1.vtt", ["We lost fifteen volunteers in the first month."], NO_EMBED)
    assert row.speaker == "Maria"
    assert row.context_before == ("Interviewer: How did the first year go for you?\nMaria: Honestly, it was harder "
                                  "than we expected.\n")
    assert row.context_after == ("\nInterviewer: Why did it close?\nMaria: The committee did not approve the budget "
                                 "until March.\n")


def test_a_changed_quote_verified_now_needs_no_new_look(tmp_path: Path) -> None:
    from test_excel import fill_in

    docs = write_docs(tmp_path / "docs")
    table = tmp_path / "quotes.csv"
    table.write_text(f"quote_id,quote\nq1,We lost 50 volunteers in the first month\nq2,{JAMES}\n", encoding="utf-8")
    book = tmp_path / "results.xlsx"
    args = ["verify", docs, table, "--no-embed", "--no-cache", "-o", book]
    assert invoke(*args).exit_code == 0
    fill_in(book, {"q1": ("fix quote", "15, not 50"), "q2": ("accept", "")})
    table.write_text(f"quote_id,quote\nq1,We lost 15 volunteers in the first month\nq2,{JAMES}\n", encoding="utf-8")
    result = invoke(*args)
    assert result.exit_code == 0, result.output
    assert (f"{book}: carried the decisions and notes of 1 quote; 1 reviewed quote changed and is verified now, "
            "needing no decision") in result.stderr.splitlines()  # before: "1 ... changed ... and needs a new look"


# --- the appendix counts decisions -------------------------------------------------------------------------


def test_the_appendix_counts_the_decisions_and_its_methods_come_in_short_paragraphs(tmp_path: Path) -> None:
    from test_excel import fill_in

    docs = write_docs(tmp_path / "docs")
    table = tmp_path / "quotes.csv"
    table.write_text(f"quote_id,quote\nq1,We lost 50 volunteers in the first month\nq2,{MARIA}\n"
                     "q3,Nobody ever said this at all in any interview.\nq4,They said the budget was fine.\n",
                     encoding="utf-8")
    book, jsonl, manifest = tmp_path / "r.xlsx", tmp_path / "r.jsonl", tmp_path / "run.json"
    assert invoke("verify", docs, table, "--no-embed", "--no-cache", "-o", book, "-o", jsonl,
                  "--manifest", manifest).exit_code == 0
    undecided = invoke("appendix", jsonl, "--manifest", manifest)
    assert "No reviewer's decision on the 3 quotes in review or unverified is recorded with these results." in \
        undecided.stdout
    assert undecided.stderr == (f"{jsonl} holds no decisions, so the appendix counts none; --decisions results.xlsx "
                                "counts those of a workbook reviewed since the run\n")
    fill_in(book, {"q1": ("fix quote", ""), "q3": ("reject", "made up")})
    decided = invoke("appendix", jsonl, "--manifest", manifest, "--decisions", book)
    assert decided.exit_code == 0, decided.output
    assert ("A reviewer decided 2 quotes: accepted 0, rejected 1 and fixed 1 (1 by correcting the quote). Of the 3 "
            "quotes in review or unverified, 1 was left undecided.") in decided.stdout
    paragraphs = decided.stdout.split("\n\n")
    methods = paragraphs[2:paragraphs.index(next(p for p in paragraphs if p.startswith("Of the 4 quotes")))]
    assert len(methods) >= 8 and max(len(p.split()) for p in methods) < 260  # before: one block of ~700 words
    # Carried into the results by a run given the reviewed workbook, they are counted without --decisions.
    assert invoke("verify", docs, table, "--no-embed", "--no-cache", "-o", book, "-o", jsonl,
                  "--manifest", manifest).exit_code == 0
    assert "A reviewer decided 2 quotes" in invoke("appendix", jsonl, "--manifest", manifest).stdout


# --- a re-run loads the model only for the quotes it checks ----------------------------------------------


class WarmedEmbedder(FakeEmbedder):
    def __init__(self) -> None:
        super().__init__()
        self.warmed = 0

    def warm(self) -> None:
        self.warmed += 1


def test_a_rerun_checking_few_quotes_loads_the_model_only_if_they_need_it(tmp_path: Path) -> None:
    quotes = [MARIA, JAMES, "We lost fifteen volunteers in the first month", "Honestly, it was harder than we thought."]
    first = WarmedEmbedder()
    quoteverify.run(TINY_CORPUS, quotes, {}, embedder=first, cache_dir=tmp_path)
    assert first.warmed == 1  # a first run on this corpus: beside preparing the documents
    again = WarmedEmbedder()
    edited = quoteverify.run(TINY_CORPUS, [*quotes[:3], "Honestly, it was harder than we had thought."], {},
                             embedder=again, cache_dir=tmp_path)
    assert again.warmed == 0 and again.calls > 0  # encoded when the edited quote needed it, never warmed
    assert edited.results[:3] == quoteverify.run(TINY_CORPUS, quotes, {}, embedder=FakeEmbedder()).results[:3]
