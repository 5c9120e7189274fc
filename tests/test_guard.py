"""The guard on every path quoteverify writes (quoteverify.plumbing.guard), through the real CLI, for every output option
of every command: never over a file the run reads, never into a documents folder it reads, never two outputs on
one file; and the tool's own outputs, told by their content, never read back as documents."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import TINY_CORPUS

from quoteverify.cli import main

FABRICATED = "The bakery on the corner sold bread to the whole village"
QUOTES = ("quote_id,quote,finding\n"
          "q1,We lost 15 volunteers in the first month,F1\n"
          f"q2,{FABRICATED},F1\n")
NO_RUN = ["--no-embed", "--no-cache"]


def _cli(folder: Path, *args: str, env: dict[str, str] | None = None):
    cwd = os.getcwd()
    os.chdir(folder)  # the paths of each case are as a user types them, relative to the project folder
    try:
        return CliRunner().invoke(main, list(args), env=env)
    finally:
        os.chdir(cwd)


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project folder after one run: docs/, quotes.csv, config.yaml, r.jsonl and run.json, the store s.sqlite,
    decisions page.csv, a manuscript paper.md."""
    folder = tmp_path_factory.mktemp("project")
    (folder / "docs" / "sub").mkdir(parents=True)
    for doc_id, text in TINY_CORPUS.items():
        with open(folder / "docs" / f"{doc_id}.txt", "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
    (folder / "quotes.csv").write_text(QUOTES, encoding="utf-8")
    (folder / "config.yaml").write_text("output:\n  context_chars: 50\n", encoding="utf-8")
    (folder / "page.csv").write_text("quote_id,row,status,decision,reviewer_note,fingerprint\r\n"
                                     "q1,2,verified,accept,fine,abc\r\n", encoding="utf-8")
    (folder / "paper.md").write_text("As one nurse said, \u201cwe lost 15 volunteers in the first month\u201d (P3).\n",
                                     encoding="utf-8")
    done = _cli(folder, "verify", "docs", "quotes.csv", *NO_RUN, "-o", "r.jsonl", "--manifest", "run.json",
                "--store", "s.sqlite")
    assert done.exit_code == 0, done.output
    return folder


@pytest.fixture
def project(made: Path, tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    shutil.copytree(made, folder)
    return folder


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


VERIFY = ["verify", "docs", "quotes.csv", *NO_RUN]
INSIDE = "which this run reads, so a later run would read it as a source; write it outside docs"
REPLACED = "this run reads and would be replaced; give the output another name"
CASES = [
    # verify: every output option
    ("verify -o", [*VERIFY, "-o", "docs/results.jsonl"], f"-o docs/results.jsonl: is inside the documents folder docs, "
                                                         f"{INSIDE}"),
    ("verify -o quote table", [*VERIFY, "-o", "quotes.csv"], f"-o quotes.csv: is the quote table {REPLACED}"),
    ("verify --manifest", [*VERIFY, "--manifest", "docs/interview-02.txt"],
     f"--manifest docs/interview-02.txt: is inside the documents folder docs, {INSIDE}"),
    ("verify --manifest config", [*VERIFY, "--config", "config.yaml", "--manifest", "config.yaml"],
     f"--manifest config.yaml: is the config {REPLACED}"),
    ("verify --manifest store", [*VERIFY, "--store", "s.sqlite", "--manifest", "s.sqlite"],
     f"--manifest s.sqlite: is the audit store {REPLACED}"),
    ("verify --report", [*VERIFY, "--report", "docs/findings.md"],
     f"--report docs/findings.md: is inside the documents folder docs, {INSIDE}"),
    ("verify --findings", [*VERIFY, "--findings", "quotes.csv"], f"--findings quotes.csv: is the quote table {REPLACED}"),
    ("verify --cards", [*VERIFY, "--cards", "docs/sub/cards.jsonl"],
     f"--cards docs/sub/cards.jsonl: is inside the documents folder docs, {INSIDE}"),
    ("verify --store", [*VERIFY, "--store", "docs/runs.sqlite"],
     f"--store docs/runs.sqlite: is inside the documents folder docs, {INSIDE}"),
    ("verify --store quote table", [*VERIFY, "--store", "quotes.csv"],
     f"--store quotes.csv: is the quote table {REPLACED}"),
    ("verify --cache-dir", ["verify", "docs", "quotes.csv", "--no-embed", "--cache-dir", "docs/cache"],
     f"--cache-dir docs/cache: is inside the documents folder docs, {INSIDE}"),
    # (--previous page.csv -o page.csv is allowed: the review is read first, carried, and kept beside the new
    # output: tests/test_excel.py)
    ("verify two outputs", [*VERIFY, "-o", "out.jsonl", "--cards", "out.jsonl"],
     "--cards out.jsonl: is also the output of -o; give each output a file of its own"),
    # the other commands
    ("review -o", ["review", "page.csv", "-o", "page.csv"], f"-o page.csv: is the reviewed workbook {REPLACED}"),
    ("report -o", ["report", "r.jsonl", "-o", "link.html"], f"-o link.html: is the results {REPLACED}"),
    ("rerun -o", ["rerun", "run.json", "-o", "quotes.csv"], f"-o quotes.csv: is the quote table {REPLACED}"),
    ("rerun --manifest", ["rerun", "run.json", "--manifest", "run.json"], f"--manifest run.json: is the manifest {REPLACED}"),
    ("rerun --manifest document", ["rerun", "run.json", "--manifest", "docs/interview-01.txt"],
     f"--manifest docs/interview-01.txt: is a document {REPLACED}"),
    ("appendix -o", ["appendix", "r.jsonl", "--manifest", "run.json", "-o", "symlink.md"],
     f"-o symlink.md: is the manifest {REPLACED}"),
    ("recheck -o", ["recheck", "1", "docs", "--store", "s.sqlite", "-o", "docs/escalation.csv"],
     f"-o docs/escalation.csv: is inside the documents folder docs, {INSIDE}"),
    ("extract -o", ["extract", "paper.md", "-o", "hardlink.csv"], f"-o hardlink.csv: is the manuscript {REPLACED}"),
]


@pytest.mark.parametrize("args, message", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_no_output_lands_on_what_the_run_reads(project: Path, args: list[str], message: str) -> None:
    os.link(project / "r.jsonl", project / "link.html")            # another name of the results
    os.symlink(project / "run.json", project / "symlink.md")      # a symbolic link to the manifest
    os.link(project / "paper.md", project / "hardlink.csv")        # another name of the manuscript
    before = _snapshot(project)
    result = _cli(project, *args)
    assert (result.exit_code, result.stderr) == (2, f"Error: {message}\n")
    assert _snapshot(project) == before  # nothing written, nothing replaced


@pytest.mark.parametrize("option", ["--manifest", "--report", "--cards"])
def test_no_output_replaces_an_audit_store_the_run_does_not_read(project: Path, option: str) -> None:
    # The store of an earlier run, named by mistake as an output of a run that does not use it (renamed to the
    # output's extension where the option asks for one): refused, not replaced by a manifest or a report.
    name = {"--manifest": "s.sqlite", "--report": "s.md", "--cards": "s.jsonl"}[option]
    if name != "s.sqlite":
        shutil.copy(project / "s.sqlite", project / name)
    before = _snapshot(project)
    result = _cli(project, *VERIFY, option, name)
    assert (result.exit_code, result.stderr) == (
        2, f"Error: {option} {name}: is an SQLite database (an audit store?), which no output replaces; give the "
           "output another name\n")
    assert _snapshot(project) == before


def test_the_default_store_is_guarded_too(project: Path) -> None:
    result = _cli(project, *VERIFY, "--record", env={"XDG_DATA_HOME": str(project / "docs")})
    assert (result.exit_code, result.stderr) == (
        2, f"Error: --record {project / 'docs' / 'quoteverify' / 'runs.sqlite'}: is inside the documents folder docs, "
           f"{INSIDE}\n")


def test_a_document_given_as_a_file_may_have_outputs_beside_it(project: Path) -> None:
    result = _cli(project, "verify", "docs/interview-01.txt", "quotes.csv", *NO_RUN, "-o", "docs/r.jsonl",
                  "--report", "docs/report.md")
    assert result.exit_code == 0, result.output


# --- the tool's own outputs are never read back as documents -------------------------------------------------


def _verify_again(project: Path) -> tuple[dict[str, str], str]:
    result = _cli(project, *VERIFY, "-o", "again.jsonl")
    assert result.exit_code == 0, result.output
    import json

    rows = [json.loads(line) for line in (project / "again.jsonl").read_text(encoding="utf-8").splitlines()]
    return {r["quote_id"]: r["status"] for r in rows}, result.stderr


@pytest.mark.parametrize("write, kind", [
    (["verify", "docs", "quotes.csv", *NO_RUN, "--report", "findings.md"], "report"),
    (["appendix", "r.jsonl", "--manifest", "run.json", "-o", "findings.md"], "appendix"),
    (["verify", "docs", "quotes.csv", *NO_RUN, "-o", "findings.csv"], "results"),
    (["verify", "docs", "quotes.csv", *NO_RUN, "-o", "findings.jsonl"], "results"),
    (["verify", "docs", "quotes.csv", *NO_RUN, "-o", "findings.html"], "review page"),
    (["verify", "docs", "quotes.csv", *NO_RUN, "--manifest", "findings.json"], "manifest"),
    (["verify", "docs", "quotes.csv", *NO_RUN, "--findings", "findings.csv"], "findings"),
    (["verify", "docs", "quotes.csv", *NO_RUN, "--cards", "findings.jsonl"], "claim cards"),
    (["review", "page.csv", "-o", "findings.csv"], "reviewed decisions"),
])
@pytest.mark.parametrize("name", ["findings.md", "findings.txt"])
def test_an_output_moved_among_the_documents_is_not_read_as_one(project: Path, write: list[str], kind: str,
                                                                name: str) -> None:
    """Whatever it is renamed to: a report quotes every quote, fabricated ones too, and would 'verify' them."""
    result = _cli(project, *write)
    assert result.exit_code == 0, result.output
    written = next(project / p for p in ("findings.md", "findings.csv", "findings.jsonl", "findings.html",
                                         "findings.json") if (project / p).exists())
    if written.suffix == ".md" or name.endswith(".txt"):
        shutil.move(written, project / "docs" / name)
    else:
        shutil.move(written, project / "docs" / "findings.txt")
    statuses, stderr = _verify_again(project)
    moved = next((project / "docs").glob("findings.*"))
    assert statuses["q2"] == "unverified"
    assert (f"Warning: docs/{moved.name}: written by quoteverify (its {kind}), not a source document; left out of the "
            "documents (keep outputs outside the documents folder)") in stderr.splitlines()


def test_a_report_written_before_outputs_were_marked_is_not_read_either(project: Path) -> None:
    (project / "docs" / "old-report.md").write_text(f"# Findings and their quotes\n\n- q2: \u201c{FABRICATED}\u201d\n",
                                                    encoding="utf-8")
    statuses, _ = _verify_again(project)
    assert statuses["q2"] == "unverified"


def test_a_transcript_that_mentions_the_tool_is_still_a_source(project: Path) -> None:
    (project / "docs" / "interview-09.txt").write_text(
        f"Interviewer: Did you check the quotes with quoteverify?\nMaria: {FABRICATED}.\n", encoding="utf-8")
    statuses, _ = _verify_again(project)
    assert statuses["q2"] == "verified"
