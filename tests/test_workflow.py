"""Issue 19: the researcher's own files: their column names, DataFrames, document names, a first run
that tells the truth."""
from __future__ import annotations

import io
import json
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner, Result
from conftest import NO_EMBED, TINY_CORPUS

import quoteverify
from quoteverify import commands
from quoteverify.cli import main
from quoteverify.model.errors import InputError
from quoteverify.model.types import Quote
from quoteverify.sources.quotes import check_claims, load_quotes
from quoteverify.terminal import ProgressBar

MARIA = "The committee did not approve the budget until March."
JAMES = "Three days is not enough to learn a new system."


def invoke(*args) -> Result:
    """verify, its results on standard output unless an -o names a file."""
    out = [] if "-o" in args else ["-o", "-"]
    return CliRunner().invoke(main, ["verify", *map(str, args), "--no-embed", "--no-cache", *out])


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def results(result: Result) -> list[dict]:
    return [json.loads(line) for line in io.StringIO(result.stdout)]


# --- column mapping ---------------------------------------------------------------------------------

OWN_COLUMNS = ("Ref,Quote Text,Source Document,Participant,Theme Label,Notes\n"
               f"A1,{MARIA},interview-01,Maria,funding,checked\n"
               f"A2,{MARIA},interview-02,Maria,funding,\n")


def test_own_column_names_are_read_and_said(corpus_dir: Path, tmp_path: Path) -> None:
    table = write(tmp_path / "mine.csv", OWN_COLUMNS)
    result = invoke(corpus_dir, table, "--id-col", "Ref", "--finding-col", "theme label")
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines()[0] == (
        "Columns: quote = 'Quote Text', quote_id = 'Ref', document = 'Source Document', "
        "speaker = 'Participant', finding = 'Theme Label'; kept as they are: 'Notes'")
    rows = results(result)
    assert [(r["quote_id"], r["claimed_document"], r["finding"], r["extra"]) for r in rows] == [
        ("A1", "interview-01", "funding", {"Notes": "checked"}),
        ("A2", "interview-02", "funding", {"Notes": ""})]
    # The misattributed quote is caught now that its claimed document is read.
    assert [(r["status"], r["match_type"]) for r in rows] == [("verified", "exact"), ("review", "misattributed")]


def test_unread_columns_are_said_without_options(corpus_dir: Path, tmp_path: Path) -> None:
    table = write(tmp_path / "q.csv", f"quote,Interviewee\n{MARIA},Maria\n")
    result = invoke(corpus_dir, table)
    assert result.stderr.splitlines()[0] == (
        "Columns: quote = 'quote', quote_id = (none), document = (none), speaker = (none), finding = (none); "
        "kept as they are: 'Interviewee'")
    result = invoke(corpus_dir, table, "--speaker-col", "interviewee", "--quiet")
    assert result.exit_code == 0
    assert result.stderr == ""
    assert results(result)[0]["status"] == "verified"


def test_columns_from_the_config(corpus_dir: Path, tmp_path: Path) -> None:
    table = write(tmp_path / "q.csv", f"Passage,File\n{MARIA},interview-02\n")
    config = write(tmp_path / "c.yaml", "columns:\n  quote: Passage\n  document: File\n")
    result = invoke(corpus_dir, table, "--config", config)
    assert result.exit_code == 0, result.output
    assert results(result)[0]["match_type"] == "misattributed"
    rows = quoteverify.verify(corpus_dir, table, {"columns": {"quote": "Passage"}, **NO_EMBED})
    assert rows[0].status == "verified" and rows[0].extra == {"File": "interview-02"}


@pytest.mark.parametrize(("args", "message"), [
    ((), "Error: {t}: no quote column (looked for quote, text, quotation, quote_text, content, excerpt); "
         "found columns: 'Passage', 'File'; name it with --quote-col"),
    (("--quote-col", "Pasage"), "Error: {t}: no column 'Pasage' (named with --quote-col); "
                                "found columns: 'Passage', 'File'"),
    (("--quote-col", "Passage", "--doc-col", "Document"),
     "Error: {t}: no column 'Document' (named with --doc-col); found columns: 'Passage', 'File'"),
])
def test_column_errors_name_the_option(corpus_dir: Path, tmp_path: Path, args, message: str) -> None:
    table = write(tmp_path / "q.csv", f"Passage,File\n{MARIA},interview-02\n")
    result = invoke(corpus_dir, table, *args)
    assert result.exit_code == 2
    assert result.stderr == message.format(t=table) + "\n"


@pytest.mark.parametrize(("columns", "message"), [
    ({}, "{t}: no quote column (looked for quote, text, quotation, quote_text, content, excerpt); found columns: 'Passage', "
         "'File'; name it with the config's columns.quote"),
    ({"quote": "Pasage"}, "{t}: no column 'Pasage' (named with the config's columns.quote); found columns: "
                          "'Passage', 'File'"),
])
def test_python_errors_name_the_config_not_the_options(corpus_dir: Path, tmp_path: Path, columns, message) -> None:
    """From Python there is no --quote-col: the message names what Python takes instead."""
    table = write(tmp_path / "q.csv", f"Passage,File\n{MARIA},interview-02\n")
    with pytest.raises(InputError) as raised:
        quoteverify.verify(corpus_dir, table, {"embed": {"enabled": False}, "columns": columns})
    assert str(raised.value) == message.format(t=table)
    with pytest.raises(quoteverify.ConfigError, match=r"check the path given to config=$"):
        quoteverify.verify(corpus_dir, table, tmp_path / "missing.yaml")


def test_quote_text_and_source_document_are_usual_names(tmp_path: Path) -> None:
    table = write(tmp_path / "q.csv", f"Quote Text,Source Document,Participant\n{MARIA},interview-01,Maria\n")
    quote = load_quotes(table).quotes[0]
    assert (quote.text, quote.claimed_document, quote.speaker, quote.extra) == (MARIA, "interview-01", "Maria", ())


# --- DataFrames in and out --------------------------------------------------------------------------


def test_dataframe_rows_are_quotes() -> None:
    frame = pd.DataFrame({"quote_id": ["a", "b", "c"], "quote": [MARIA, JAMES, "Nothing like this was said."],
                          "document": ["interview-01", "interview-01", None], "coder": ["X", "Y", pd.NA]})
    out = quoteverify.verify_frame(TINY_CORPUS, frame, NO_EMBED)
    assert list(out["quote_id"]) == ["a", "b", "c"]
    assert list(out["status"]) == ["verified", "review", "unverified"]
    assert list(out["match_type"]) == ["exact", "misattributed", "unlocated"]
    assert list(out["coder"]) == ["X", "Y", ""]
    assert list(out["row"]) == [1, 2, 3]
    for column in ("row", "start", "end", "line"):
        assert str(out[column].dtype) == "Int64"
    assert out["start"].isna().tolist() == [False, False, True]
    assert TINY_CORPUS["interview-01"][out["start"][0]:out["end"][0]] == MARIA


def test_dataframe_with_own_columns() -> None:
    frame = pd.DataFrame({"Passage": [MARIA], "Doc": ["interview-02"]})
    rows = quoteverify.verify(TINY_CORPUS, frame, {"columns": {"quote": "Passage", "document": "Doc"}, **NO_EMBED})
    assert [(r.quote, r.claimed_document, r.match_type) for r in rows] == [(MARIA, "interview-02", "misattributed")]
    with pytest.raises(InputError) as error:
        quoteverify.verify(TINY_CORPUS, frame, NO_EMBED)
    assert str(error.value) == ("quotes (DataFrame): no quote column (looked for quote, text, quotation, quote_text, "
                                "content, excerpt); found columns: 'Passage', 'Doc'; name it with the config's "
                                "columns.quote")


def test_a_single_string_is_not_a_list_of_quotes() -> None:
    with pytest.raises(InputError) as error:
        quoteverify.verify(TINY_CORPUS, {"quote": MARIA}, NO_EMBED)
    assert str(error.value) == ("quotes: give a list of quotes, a pandas DataFrame or a quote table's path, "
                                "not a single dict")


# --- document names ---------------------------------------------------------------------------------


@pytest.mark.parametrize("claimed", ["interview-02.txt", "Interview-02", "INTERVIEW-02.TXT", "Interview 02.docx",
                                     "interview_02",
                                     "transcripts/interview-02.txt", r"C:\data\interview-02.docx"])
def test_document_names_match_ignoring_extension_and_case(claimed: str) -> None:
    rows = quoteverify.verify(TINY_CORPUS, [{"quote": MARIA, "document": claimed}], NO_EMBED)
    assert (rows[0].claimed_document, rows[0].match_type) == ("interview-02", "misattributed")
    assert rows[0].reasons[0] == "found in interview-01, not in claimed interview-02"


def test_unknown_document_name_is_noted() -> None:
    rows = quoteverify.verify(TINY_CORPUS, [{"quote": MARIA, "document": "interview-9.txt"}], NO_EMBED)
    assert rows[0].status == "verified"
    assert rows[0].reasons == ["claimed document 'interview-9.txt' is not among the documents; searched all, so "
                               "which document it comes from was not checked"]


def test_ambiguous_document_name_is_an_error() -> None:
    quotes = [Quote(row=3, quote_id="q2", text=MARIA, claimed_document="interview-01.txt")]
    with pytest.raises(InputError) as error:
        check_claims(quotes, ["Interview-01", "interview-01", "interview-02"])
    assert str(error.value) == ("row 3 (quote_id q2): document 'interview-01.txt' could be any of Interview-01, "
                                "interview-01; write the document id exactly (its file name without the extension)")
    # Written exactly, it is no longer ambiguous.
    assert check_claims([Quote(3, "q2", MARIA, claimed_document="Interview-01")],
                        ["Interview-01", "interview-01"]).quotes[0].claimed_document == "Interview-01"


# --- CLI manners ------------------------------------------------------------------------------------


def test_verify_help_names_docs_and_quotes() -> None:
    result = CliRunner().invoke(main, ["verify", "--help"])
    assert result.output.splitlines()[0] == "Usage: main verify [OPTIONS] DOCS... QUOTES"


def test_progress_counts_what_is_done() -> None:
    progress = ProgressBar(True, file=io.StringIO())
    progress(40, 100)  # the exact fast path settled 40 at once
    assert progress.bar.pos == 40
    progress(56, 100)  # a worker's chunk of 16
    progress(56, 100)
    assert progress.bar.pos == 56
    progress(100, 100)
    assert progress.bar.pos == 100 and progress.bar.finished


def test_fail_on_names_the_quotes(corpus_dir: Path, tmp_path: Path) -> None:
    lines = "".join(f"u{k},Nobody said sentence number {k} of this list.\n" for k in range(12))
    table = write(tmp_path / "q.csv", f"id,quote\nok,{MARIA}\n{lines}")
    result = invoke(corpus_dir, table, "--fail-on", "unverified", "--quiet")
    assert result.exit_code == 1
    assert result.stderr == ("Failed (--fail-on unverified): 12 quotes: u0 (row 3, unverified), u1 (row 4, "
                             "unverified), u2 (row 5, unverified), u3 (row 6, unverified), u4 (row 7, unverified), "
                             "u5 (row 8, unverified), u6 (row 9, unverified), u7 (row 10, unverified), "
                             "u8 (row 11, unverified), u9 (row 12, unverified) and 2 more\n")


def test_a_command_is_one_library_call(corpus_dir: Path, tmp_path: Path) -> None:
    # What `verify --fail-on review -q` does, without click: a typed request in, the messages said on the way,
    # and the exit status as the outcome.
    said: list[str] = []
    out = io.BytesIO()
    console = commands.Console(say=said.append, echo=pytest.fail, write=out.write)
    table = write(tmp_path / "q.csv", f"id,quote\nok,{MARIA}\nbad,Nobody said this sentence at all.\n")
    request = commands.VerifyRequest(paths=(corpus_dir, table), outputs=(commands.STDOUT,), no_embed=True,
                                     no_cache=True, quiet=True, fail_on="review")
    outcome = commands.verify(request, console)
    assert outcome.exit_code == 1 and [r.status for r in outcome.run.results] == ["verified", "unverified"]
    assert said == ["Failed (--fail-on review): 1 quote: bad (row 3, unverified)"]
    assert [json.loads(line)["quote_id"] for line in out.getvalue().splitlines()] == ["ok", "bad"]
    with pytest.raises(InputError, match="give --store TARGET or --record"):
        commands.verify(commands.VerifyRequest(paths=(corpus_dir, table), store_target="s.sqlite", record=True),
                        console)


def test_no_loading_bar_when_stderr_is_not_a_terminal() -> None:
    import subprocess
    import sys

    code = ("from quoteverify.judge.embed import SentenceTransformerEmbedder\n"
            "print(SentenceTransformerEmbedder().encode(['a test']).shape)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.stdout == "(1, 384)\n", done.stderr
    assert "Loading weights" not in done.stderr
    assert "%|" not in done.stderr  # no tqdm bar of any kind


# --- input checks -----------------------------------------------------------------------------------


def test_unclosed_double_quote_names_the_row(corpus_dir: Path, tmp_path: Path) -> None:
    rows = [f'q{k},"Quote number {k}, with a comma",interview-01' for k in range(1, 20)]
    rows[5] = 'q6,"Quote number 6, never closed,interview-01'
    table = write(tmp_path / "q.csv", "id,quote,document\n" + "\n".join(rows) + "\n")
    result = invoke(corpus_dir, table)
    assert result.exit_code == 2
    assert result.stderr == (f"Error: {table}: row 7 (line 7): a double-quoted cell is not closed where it should "
                             "be, so the rows after it would run together; close its \" (a \" inside a quoted "
                             "cell is written \"\")\n")


def test_unclosed_double_quote_in_the_last_row(tmp_path: Path) -> None:
    table = write(tmp_path / "q.csv", f'quote\n"{MARIA}"\n\n"{JAMES}\n')
    with pytest.raises(InputError) as error:
        load_quotes(table)
    assert str(error.value).startswith(f"{table}: row 4 (line 4): a double-quoted cell is not closed")


def test_a_quoted_cell_over_lines_is_fine(tmp_path: Path) -> None:
    table = write(tmp_path / "q.csv", f'id,quote\na,"{MARIA}\nand ""more"" of it"\nb,{JAMES}\n')
    assert [(q.row, q.quote_id, q.text) for q in load_quotes(table).quotes] == [
        (2, "a", f'{MARIA}\nand "more" of it'), (3, "b", JAMES)]


def test_unreadable_files_in_a_folder_are_one_warning(corpus_dir: Path, tmp_path: Path) -> None:
    for name in ("interview-04.rtf", "interview-05.doc", "focus/group-1.odt"):
        (corpus_dir / name).parent.mkdir(exist_ok=True)
        (corpus_dir / name).write_bytes(b"{\\rtf1 not read}")
    (corpus_dir / "quotes-draft.csv").write_text("quote\n", encoding="utf-8")  # a table beside them: no warning
    table = write(tmp_path / "q.csv", f"quote\n{MARIA}\n")
    result = invoke(corpus_dir, table)
    assert result.exit_code == 0
    warnings = [line for line in result.stderr.splitlines() if line.startswith("Warning")]
    assert warnings == [f"Warning: {corpus_dir}: 3 file(s) not read, as quoteverify reads only .txt, .md, .vtt, "
                        ".srt, .docx, .pdf: focus/group-1.odt, interview-04.rtf, interview-05.doc; save them as "
                        ".docx or .txt to check quotes against them"]


@pytest.mark.parametrize(("name", "reason"), [
    ("interview-03.txt", "speaker labels open 4 of its 6 lines), not a quote table; give the quote table last: "
                         "quoteverify verify DOCS... QUOTES; a list of quotes that open with speaker labels goes in a "
                         "CSV with a quote column"),
    ("interview-03.csv", "speaker labels open 4 of its 6 lines), not a quote table; give the quote table last: "
                         "quoteverify verify DOCS... QUOTES"),
])
def test_a_transcript_given_as_the_quote_table_is_an_error(corpus_dir: Path, tmp_path: Path, name: str,
                                                           reason: str) -> None:
    """The quote table forgotten: the last transcript would be read as one quote per line."""
    last = tmp_path / name
    last.write_bytes((corpus_dir / "interview-03.txt").read_bytes())
    result = invoke(corpus_dir / "interview-01.txt", last)
    assert result.exit_code == 2
    assert result.stderr == f"Error: {last}: looks like a transcript ({reason}\n"


def test_prose_without_labels_as_a_csv_is_an_error(tmp_path: Path) -> None:
    table = write(tmp_path / "notes.csv", "We went to the clinic in March and nobody was there.\nThen we left.\n")
    with pytest.raises(InputError) as error:
        load_quotes(table)
    assert str(error.value) == (f"{table}: looks like a transcript (its first line is a sentence, not column "
                                "names), not a quote table; give the quote table last: quoteverify verify "
                                "DOCS... QUOTES")


def test_a_list_of_quotes_in_txt_is_still_a_quote_table(tmp_path: Path) -> None:
    table = write(tmp_path / "q.txt", f"{MARIA}\n{JAMES}\nNote: one line with a label is fine.\n")
    assert len(load_quotes(table).quotes) == 3


# --- the workbook -----------------------------------------------------------------------------------


def test_workbook_shows_claims_context_and_own_columns(corpus_dir: Path, tmp_path: Path) -> None:
    import openpyxl

    from quoteverify.app.review import read_review

    table = write(tmp_path / "q.csv", "quote_id,quote,speaker,document,context,coder,status\n"
                  f"q1,{MARIA},James,interview-01.txt,line 12: as one manager put it [quote] and so,AB,draft\n")
    out = tmp_path / "r.xlsx"
    result = invoke(corpus_dir, table, "-o", out)
    assert result.exit_code == 0, result.output
    sheet = openpyxl.load_workbook(out)["Quotes"]
    header = [c.value for c in sheet[1]]
    # The quote table's own columns after the tool's, before the evidence at the far right.
    assert header[header.index("manuscript_context"):header.index("row")] == [
        "manuscript_context", "coder", "input_status"]
    row = dict(zip(header, [c.value for c in sheet[2]]))
    assert (row["claimed_document"], row["claimed_speaker"], row["speaker"]) == ("interview-01", "James", "Maria")
    assert row["manuscript_context"] == "line 12: as one manager put it [quote] and so"
    assert (row["coder"], row["input_status"], row["status"]) == ("AB", "draft", "review")
    assert row["reasons"] == "said by Maria, not by claimed James"
    # The reviewer's columns are still found by name.
    assert [q.quote_id for q in read_review(out).quotes] == ["q1"]


def test_the_columns_read_are_said_before_the_summary(corpus_dir: Path, tmp_path: Path) -> None:
    table = write(tmp_path / "q.csv", f"id,quote,document\nq1,{MARIA},interview-01\n")
    lines = invoke(corpus_dir, table).stderr.splitlines()
    assert lines[-4] == ("Columns: quote = 'quote', quote_id = 'id', document = 'document', speaker = (none), "
                         "finding = (none)")
    assert lines[-3].startswith("1 quote: 1 verified, 0 review, 0 unverified (")


def test_a_run_with_named_columns_reruns_with_them(corpus_dir: Path, tmp_path: Path) -> None:
    table = write(tmp_path / "q.csv", f"Passage,File\n{MARIA},interview-02\n")
    manifest = tmp_path / "run.json"
    first = invoke(corpus_dir, table, "--quote-col", "Passage", "--doc-col", "File", "--manifest", manifest,
                   "-o", tmp_path / "r.jsonl")
    assert first.exit_code == 0, first.output
    again = CliRunner().invoke(main, ["rerun", str(manifest), "-o", str(tmp_path / "again.jsonl")])
    assert again.exit_code == 0, again.output
    assert again.stderr.splitlines()[-1] == ("Results are identical to the recorded run: the same status and "
                                             "result for every quote (0 verified, 1 review, 0 unverified).")
    assert json.loads((tmp_path / "again.jsonl").read_text(encoding="utf-8"))["match_type"] == "misattributed"


def test_quiet_turns_off_the_model_bar_on_a_terminal_too(corpus_dir: Path, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """huggingface_hub reads HF_HUB_DISABLE_PROGRESS_BARS when transformers is imported, as the run does."""
    import os

    monkeypatch.delenv("HF_HUB_DISABLE_PROGRESS_BARS", raising=False)
    table = write(tmp_path / "q.csv", f"quote\n{MARIA}\n")
    assert invoke(corpus_dir, table, "--quiet").stderr == ""
    assert os.environ["HF_HUB_DISABLE_PROGRESS_BARS"] == "1"


@pytest.mark.parametrize("suffix", [".csv", ".xlsx"])
def test_a_header_only_quote_table_warns(corpus_dir: Path, tmp_path: Path, suffix: str) -> None:
    table = tmp_path / f"q{suffix}"
    if suffix == ".csv":
        write(table, "quote_id,quote,document\n")
    else:
        frame = pd.DataFrame(columns=["quote_id", "quote", "document"])
        frame.to_excel(table, index=False)
    result = invoke(corpus_dir, table)
    assert result.exit_code == 0
    right = "right file, or the right sheet" if suffix == ".xlsx" else "right file"
    assert result.stderr.splitlines()[0] == (f"Warning: {table}: has a header row but no quotes under it; nothing "
                                             f"to check (is it the {right}?)")
    assert result.stderr.splitlines()[-1] == "Next: nothing to decide: the quote table holds no quotes"
