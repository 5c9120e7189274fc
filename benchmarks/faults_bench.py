"""The hostile files and faults of issue 29, each run through the real CLI in a process of its own:
its time, its peak memory and what came of it.

    python benchmarks/faults_bench.py                 # every case
    python benchmarks/faults_bench.py pdf_page_reuse csv_wide
    python benchmarks/faults_bench.py --json after.json
    python benchmarks/faults_bench.py --code /tmp/before   # the package of another checkout (git archive)
    python benchmarks/faults_bench.py --compare before.json after.json   # a Markdown table of two runs

Each case builds its files in a fresh folder (the tiny corpus of tests/conftest.py as docs/, a quote table),
runs one or more commands (``quoteverify ... --no-embed``) with a memory cap (4 GB of address space) and a
time cap (180 s), and judges the outcome:

- ``handled: ...``: a one-line error, a result with its reason, or the work done right;
- ``FAIL: ...``: a traceback, a wrong verdict, an input or record destroyed, a secret written, a
  silently dropped row, or the caps hit.

Seconds and peak MB are those of the slowest / largest command of the case (peak: the child's maximum
resident set, from wait4). Run it on two commits to compare; timings are noisy on a shared machine.
"""
from __future__ import annotations

import argparse
import csv
import json
import os
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent / "tests"
sys.path.insert(0, str(TESTS))

import hostile_files as hostile  # noqa: E402  (tests/, beside this folder)
from conftest import TINY_CORPUS  # noqa: E402

MEMORY_CAP = 4 << 30
TIME_CAP = 180.0
# What a small hostile file may cost (issue 29's targets).
SMALL_SECONDS, SMALL_MB = 5.0, 500
SECRET = "hunter2"
FABRICATED = "The bakery on the corner sold bread to the whole village"
QUOTES = ("quote_id,quote,document,finding\n"
          "q1,We lost 15 volunteers in the first month,interview-01,F1\n"
          f"q2,{FABRICATED},,F1\n")


@dataclass
class Step:
    args: list[str]
    code: int = 0
    stderr: str = ""
    seconds: float = 0.0
    peak_mb: float = 0.0


@dataclass
class Case:
    name: str
    build: Callable[[Path], list[list[str]]]   # makes the files, returns the commands to run in order
    judge: Callable[[Path, list[Step]], str]   # "handled: ..." or "FAIL: ..."
    parallel: bool = False                      # run the commands at once (concurrency)
    small: bool = True                          # a small hostile file: 5 s and 500 MB at most
    steps: list[Step] = field(default_factory=list)


def _limits() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


CODE: Path | None = None  # --code: run the quoteverify package of this folder instead


def _start(args: list[str], folder: Path) -> tuple[subprocess.Popen, float]:
    env = dict(os.environ, XDG_CACHE_HOME=str(folder / ".xdg-cache"), XDG_DATA_HOME=str(folder / ".xdg-data"),
               HF_HUB_OFFLINE="1")
    if CODE is not None:
        env["PYTHONPATH"] = str(CODE)
    process = subprocess.Popen([sys.executable, "-m", "quoteverify", *args], cwd=folder, env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=_limits)
    return process, time.monotonic()


def _finish(process: subprocess.Popen, started: float, step: Step) -> None:
    """Wait for the command, under the time cap; its exit code, stderr and peak memory (from wait4)."""
    timer = threading.Timer(TIME_CAP, process.kill)
    timer.start()
    try:
        assert process.stderr is not None
        stderr = process.stderr.read()
        _, status, usage = os.wait4(process.pid, 0)
    finally:
        timer.cancel()
    process.returncode = os.waitstatus_to_exitcode(status)
    step.seconds = time.monotonic() - started
    step.code = process.returncode
    step.peak_mb = usage.ru_maxrss / 1024
    timed_out = "TIMEOUT\n" if step.seconds >= TIME_CAP else ""
    step.stderr = timed_out + stderr.decode("utf-8", "replace")[-20000:]


def run_case(case: Case, root: Path) -> None:
    folder = root / case.name
    folder.mkdir()
    case.steps = [Step(args) for args in case.build(folder)]
    if case.parallel:
        started = [(_start(s.args, folder), s) for s in case.steps]
        for (process, t0), step in started:
            _finish(process, t0, step)
        return
    for step in case.steps:
        process, t0 = _start(step.args, folder)
        _finish(process, t0, step)


# --- judging ------------------------------------------------------------------------------------------


def _generic(steps: list[Step]) -> str | None:
    """A failure any case shares: a traceback, a signal, the caps."""
    for step in steps:
        if "Traceback (most recent call last)" in step.stderr:
            last = [line for line in step.stderr.splitlines() if line.strip()][-1]
            return f"FAIL: traceback ({last[:80]})"
        if "TIMEOUT" in step.stderr:
            return f"FAIL: over {TIME_CAP:.0f} s"
        if step.code < 0:
            return f"FAIL: killed by signal {-step.code}"
        if "MemoryError" in step.stderr or "out of memory" in step.stderr.lower():
            return f"FAIL: out of memory ({step.stderr.strip().splitlines()[-1][:80]})"
    return None


def _one_line_error(step: Step) -> str | None:
    lines = [line for line in step.stderr.splitlines() if line.startswith("Error:")]
    if step.code == 2 and len(lines) == 1:
        return lines[0]
    return None


def refused_or(check: Callable[[Path, list[Step]], str]) -> Callable[[Path, list[Step]], str]:
    """Handled if the last command refused with one line; else ``check`` judges what it did."""
    def judge(folder: Path, steps: list[Step]) -> str:
        failed = _generic(steps)
        if failed:
            return failed
        for step in steps:
            error = _one_line_error(step)
            if error:
                return f"handled: refused: {error[7:87]}"
            if step.code not in (0, 1):
                return f"FAIL: exit {step.code}: {step.stderr.strip()[-100:]}"
        return check(folder, steps)
    return judge


def ran_ok(folder: Path, steps: list[Step]) -> str:
    return "handled: ran" if steps[-1].code == 0 else f"FAIL: exit {steps[-1].code}"


def _results(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def unchanged(name: str, original: bytes | None = None) -> Callable[[Path, list[Step]], str]:
    def check(folder: Path, steps: list[Step]) -> str:
        before = original if original is not None else (folder / f".orig-{Path(name).name}").read_bytes()
        if (folder / name).read_bytes() != before:
            return f"FAIL: {name} written over"
        return f"handled: {name} left as it was"
    return check


def _keep(folder: Path, name: str) -> None:
    shutil.copyfile(folder / name, folder / f".orig-{Path(name).name}")


# --- the cases ----------------------------------------------------------------------------------------


def corpus(folder: Path, quotes: str = QUOTES) -> None:
    docs = folder / "docs"
    docs.mkdir(exist_ok=True)
    for doc_id, text in TINY_CORPUS.items():
        with open(docs / f"{doc_id}.txt", "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
    (folder / "quotes.csv").write_text(quotes, encoding="utf-8")


VERIFY = ["verify", "docs", "quotes.csv", "--no-embed", "--no-cache"]


def _base_run(folder: Path) -> None:
    """docs/, quotes.csv, and a run's results r.jsonl and manifest run.json."""
    corpus(folder)
    _setup([*VERIFY, "-o", "r.jsonl", "--manifest", "run.json"], folder)


def _setup(args: list[str], folder: Path) -> None:
    """A command that makes a case's files, with the package under test."""
    env = dict(os.environ, PYTHONPATH=str(CODE)) if CODE is not None else None
    subprocess.run([sys.executable, "-m", "quoteverify", *args], cwd=folder, check=True, capture_output=True,
                   env=env)


def case_report_into_docs(folder: Path) -> list[list[str]]:
    corpus(folder)
    return [[*VERIFY, "--report", "docs/findings.md"],
            ["verify", "docs", "quotes.csv", "--no-embed", "--no-cache", "-o", "again.jsonl"]]


def judge_report_into_docs(folder: Path, steps: list[Step]) -> str:
    results = {r["quote_id"]: r for r in _results(folder / "again.jsonl")}
    if results["q2"]["status"] == "verified":
        return f"FAIL: fabricated quote verified in '{results['q2']['document']}'"
    return "handled: the report was not read as a source"


def case_manifest_over_transcript(folder: Path) -> list[list[str]]:
    corpus(folder)
    _keep(folder, "docs/interview-02.txt")
    return [[*VERIFY, "--manifest", "docs/interview-02.txt"]]


def case_report_over_transcript(folder: Path) -> list[list[str]]:
    corpus(folder)
    (folder / "docs" / "notes.md").write_text("Maria: We kept notes every week.\n", encoding="utf-8")
    _keep(folder, "docs/notes.md")
    return [[*VERIFY, "--report", "docs/notes.md"]]


def case_manifest_is_store(folder: Path) -> list[list[str]]:
    corpus(folder)
    return [[*VERIFY, "--store", "runs.sqlite"], [*VERIFY, "--store", "runs.sqlite", "--manifest", "runs.sqlite"]]


def judge_store_kept(folder: Path, steps: list[Step]) -> str:
    if not (folder / "runs.sqlite").read_bytes().startswith(b"SQLite format 3"):
        return "FAIL: the store was replaced"
    return "handled: store kept"


def case_rerun_over_quotes(folder: Path) -> list[list[str]]:
    _base_run(folder)
    _keep(folder, "quotes.csv")
    return [["rerun", "run.json", "-o", "quotes.csv"]]


def case_rerun_over_manifest(folder: Path) -> list[list[str]]:
    _base_run(folder)
    _keep(folder, "run.json")
    return [["rerun", "run.json", "--manifest", "run.json"]]


DECISIONS_HEADER = "quote_id,row,status,decision,reviewer_note,fingerprint\r\n"


def case_review_over_input(folder: Path) -> list[list[str]]:
    (folder / "page.csv").write_text(DECISIONS_HEADER + "q1,2,review,accept,fine,abc\r\n", encoding="utf-8")
    _keep(folder, "page.csv")
    return [["review", "page.csv", "-o", "page.csv"]]


def case_decisions_unclosed_quote(folder: Path) -> list[list[str]]:
    rows = ["q1,2,review,accept,fine,a", 'q2,3,review,reject,"the note never closes,b', "q3,4,review,accept,ok,c",
            "q4,5,review,accept,ok,d"]
    (folder / "decisions.csv").write_text(DECISIONS_HEADER + "\r\n".join(rows) + "\r\n", encoding="utf-8")
    return [["review", "decisions.csv"]]


def judge_all_decisions(expected: int) -> Callable[[Path, list[Step]], str]:
    def check(folder: Path, steps: list[Step]) -> str:
        if f": {expected} quotes:" not in steps[-1].stderr:
            return f"FAIL: decisions lost or merged ({steps[-1].stderr.strip().splitlines()[0][-60:]})"
        return "handled: every decision read"
    return check


def case_qdpx_duplicate_guid(folder: Path) -> list[list[str]]:
    one = "Maria: We lost 15 volunteers in the first month.\n"
    two = "James: The training was useful, but it was far too short.\n"
    (folder / "project.qdpx").write_bytes(hostile.qdpx(
        [("SAME", "interview-01.txt", one), ("SAME", "interview-02.txt", two)],
        [("S1", 0, 7, 48), ("S2", 1, 7, 57)]))
    return [["verify", "project.qdpx", "--no-embed", "--no-cache", "-o", "r.jsonl"]]


def judge_qdpx_duplicate(folder: Path, steps: list[Step]) -> str:
    results = _results(folder / "r.jsonl")
    named = "interview-01" in steps[-1].stderr and "interview-02" in steps[-1].stderr
    if len(results) == 2 and all(r["status"] == "verified" for r in results):
        return "handled: both sources read" + (", with a warning naming both" if named else "")
    if named:
        return "handled: a warning names both"
    return f"FAIL: a source dropped without a word ({[r['status'] for r in results]})"


def case_xlsx_formula(folder: Path) -> list[list[str]]:
    corpus(folder)
    (folder / "quotes.xlsx").write_bytes(hostile.xlsx_formula_quote("We lost 15 volunteers in the first month"))
    return [["verify", "docs", "quotes.xlsx", "--no-embed", "--no-cache", "-o", "r.jsonl"]]


def judge_formula(folder: Path, steps: list[Step]) -> str:
    result = _results(folder / "r.jsonl")[0]
    if result["quote"].startswith("="):
        return f"FAIL: checked the formula text {result['quote']!r}"
    return f"handled: read as its value ({result['status']})"


def case_utf32(folder: Path) -> list[list[str]]:
    corpus(folder)
    path = folder / "docs" / "interview-01.txt"
    path.write_bytes(path.read_text(encoding="utf-8").encode("utf-32"))
    return [[*VERIFY, "-o", "r.jsonl"]]


def judge_utf32(folder: Path, steps: list[Step]) -> str:
    result = _results(folder / "r.jsonl")[0]
    text = TINY_CORPUS["interview-01"]
    if result["status"] == "verified" and result["speaker"] == "Maria" and \
            text[result["start"]:result["end"]] == result["matched_text"] and "\x00" not in result["matched_text"]:
        return "handled: decoded as UTF-32"
    return f"FAIL: misread ({result['status']}, speaker {result['speaker']!r}, start {result['start']})"


def case_password_unknown_driver(folder: Path) -> list[list[str]]:
    corpus(folder)
    return [[*VERIFY, "--store", f"nosuchdb://user:{SECRET}@localhost/db"]]


def case_password_in_manifest(folder: Path) -> list[list[str]]:
    corpus(folder)
    # A SQLite URL cannot carry a password: the cluster's scheduler URL stands in for any URL with one.
    return [[*VERIFY, "--manifest", "run.json", "--store", f"postgresql://user:{SECRET}@127.0.0.1:1/db"],
            [*VERIFY, "--manifest", "run.json", "--cluster", f"tcp://user:{SECRET}@127.0.0.1:1"]]


def judge_no_secret(folder: Path, steps: list[Step]) -> str:
    for path in folder.rglob("*"):
        if path.is_file() and ".xdg" not in path.parts and SECRET.encode() in path.read_bytes():
            return f"FAIL: the password is written in {path.name}"
    for step in steps:
        if SECRET in step.stderr:
            return "FAIL: the password is in a message"
    return "handled: password masked"


def case_review_formula(folder: Path) -> list[list[str]]:
    decisions = {"format": "quoteverify decisions", "version": 1, "run": "x", "decisions": [
        {"quote_id": "q1", "row": 2, "status": "review", "decision": "accept",
         "reviewer_note": "=cmd|' /C calc'!A0", "fingerprint": "f"}]}
    (folder / "decisions.json").write_text(json.dumps(decisions), encoding="utf-8")
    return [["review", "decisions.json", "-o", "reviewed.csv"]]


def _csv_cells(path: Path) -> list[str]:
    with open(path, encoding="utf-8", newline="") as handle:
        return [cell for row in csv.reader(handle) for cell in row]


def judge_formula_safe(name: str) -> Callable[[Path, list[Step]], str]:
    def check(folder: Path, steps: list[Step]) -> str:
        raw = [c for c in _csv_cells(folder / name) if c.startswith(("=", "+", "-", "@"))]
        if raw:
            return f"FAIL: formula written raw: {raw[0][:40]!r}"
        return "handled: written as text"
    return check


def case_extract_formula(folder: Path) -> list[list[str]]:
    (folder / "paper.md").write_text("As one nurse said, \u201c=cmd|' /C calc'!A0 and then we lost fifteen "
                                     "volunteers\u201d (P3).\n", encoding="utf-8")
    return [["extract", "paper.md", "-o", "quotes.csv"]]


def case_concurrent_store(folder: Path) -> list[list[str]]:
    corpus(folder)
    return [[*VERIFY, "--store", "new.sqlite", "-o", f"r{k}.jsonl"] for k in range(8)]


def judge_concurrent(folder: Path, steps: list[Step]) -> str:
    failed = [s for s in steps if s.code != 0]
    if failed:
        return f"FAIL: {len(failed)} of {len(steps)} runs lost ({failed[0].stderr.strip().splitlines()[-1][:70]})"
    with sqlite3.connect(folder / "new.sqlite") as connection:
        runs = connection.execute("SELECT COUNT(*) FROM runs").fetchone()[0]
    return "handled: every run recorded" if runs == len(steps) else f"FAIL: {runs} runs recorded of {len(steps)}"


def case_concurrent_record(folder: Path) -> list[list[str]]:
    corpus(folder)
    return [[*VERIFY, "--record", "-o", f"r{k}.jsonl"] for k in range(6)]


def judge_concurrent_record(folder: Path, steps: list[Step]) -> str:
    failed = [s for s in steps if s.code != 0]
    if failed:
        return f"FAIL: {len(failed)} of {len(steps)} runs lost ({failed[0].stderr.strip().splitlines()[-1][:70]})"
    with sqlite3.connect(folder / ".xdg-data" / "quoteverify" / "runs.sqlite") as connection:
        runs = connection.execute("SELECT COUNT(*) FROM runs").fetchone()[0]
    return "handled: every run recorded" if runs == len(steps) else f"FAIL: {runs} runs recorded of {len(steps)}"


def case_qdpx_huge_positions(folder: Path) -> list[list[str]]:
    text = "Maria: We lost 15 volunteers in the first month, and the clinic closed twice.\n"
    huge = 2 ** 64 + 5
    (folder / "project.qdpx").write_bytes(hostile.qdpx([("A", "interview-01.txt", text)],
                                                       [("S1", 0, 7, 48), ("S2", 0, huge, huge + 10)]))
    return [["verify", "project.qdpx", "--no-embed", "--no-cache", "-o", "r.jsonl"]]


def judge_huge_positions(folder: Path, steps: list[Step]) -> str:
    rows = _results(folder / "r.jsonl")
    if [r["status"] for r in rows] != ["verified", "unverified"]:
        return f"FAIL: {[r['status'] for r in rows]}"
    return f"handled: a reason for the segment ({rows[1]['reasons'][0][:60]}...)"


def _json_case(where: str, kind: str) -> Callable[[Path], list[list[str]]]:
    def build(folder: Path) -> list[list[str]]:
        bad = hostile.hostile_json(kind)
        if where == "decisions":
            (folder / "d.json").write_text('{"format": "quoteverify decisions", "version": 1, "decisions": '
                                           f'[{{"quote_id": "q1", "row": {bad}, "decision": "accept"}}]}}')
            return [["review", "d.json"]]
        if where == "quotes":
            corpus(folder)
            (folder / "q.jsonl").write_text(f'{{"quote": "We lost 15 volunteers", "n": {bad}}}\n')
            return [["verify", "docs", "q.jsonl", "--no-embed", "--no-cache"]]
        _base_run(folder)
        if where == "results":
            lines = (folder / "r.jsonl").read_text(encoding="utf-8").splitlines()
            lines[0] = lines[0].replace('"confidence": ', f'"confidence": {bad}, "was": ', 1)
            (folder / "r.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
            return [["report", "r.jsonl", "-o", "page.html"]]
        text = (folder / "run.json").read_text(encoding="utf-8")
        (folder / "run.json").write_text(text.replace('"windows": ', f'"x": {bad}, "windows": ', 1)
                                         .replace('"count": ', f'"count": {bad}, "was": ', 1), encoding="utf-8")
        return [["appendix", "r.jsonl", "--manifest", "run.json"], ["rerun", "run.json", "-o", "again.jsonl"]]
    return build


def case_manifest_types(folder: Path) -> list[list[str]]:
    _base_run(folder)
    data = json.loads((folder / "run.json").read_text(encoding="utf-8"))
    data["inputs"]["documents"] = [5, "x"]
    data["window"]["count"] = "many"
    data["config"] = ["not", "a", "mapping"]
    (folder / "run.json").write_text(json.dumps(data), encoding="utf-8")
    return [["appendix", "r.jsonl", "--manifest", "run.json"], ["rerun", "run.json", "-o", "again.jsonl"]]


def case_store_types(folder: Path) -> list[list[str]]:
    corpus(folder)
    _setup([*VERIFY, "--store", "s.sqlite"], folder)
    with sqlite3.connect(folder / "s.sqlite") as connection:
        connection.execute("UPDATE runs SET corpus = '5', config = '\"x\"', quotes = 'many'")
        connection.execute("UPDATE results SET differences = '{\"a\": 1}', confidence = 'high', reasons = '7'")
    return [["runs", "--store", "s.sqlite"], ["recheck", "1", "docs", "--store", "s.sqlite", "-o", "e.csv"]]


def case_csv_big_field(folder: Path) -> list[list[str]]:
    corpus(folder, "quote_id,quote\nq1,\"" + "We lost 15 volunteers. " * 9000 + "\"\nq2,it was harder than we "
                   "expected\n")
    return [[*VERIFY, "-o", "r.jsonl"]]


def case_long_quote(folder: Path) -> list[list[str]]:
    corpus(folder, "quote_id,quote\nq1,\"" + "We lost 15 volunteers. " * 45_000 + "\"\nq2,it was harder than we "
                   "expected\n")
    return [[*VERIFY, "-o", "r.jsonl"]]


def case_decisions_big_field(folder: Path) -> list[list[str]]:
    (folder / "d.csv").write_text(DECISIONS_HEADER + 'q1,2,review,accept,"' + "x" * 200_000 + '",f\r\n',
                                  encoding="utf-8")
    return [["review", "d.csv"]]


def _config_case(text: Callable[[], str]) -> Callable[[Path], list[list[str]]]:
    def build(folder: Path) -> list[list[str]]:
        corpus(folder)
        (folder / "config.yaml").write_text(text(), encoding="utf-8")
        return [[*VERIFY, "--config", "config.yaml"]]
    return build


def judge_short_error(folder: Path, steps: list[Step]) -> str:
    error = _one_line_error(steps[-1])
    if error is None:
        return f"FAIL: exit {steps[-1].code}"
    if len(error) > 1000:
        return f"FAIL: the message is {len(error):,} characters (the input expanded)"
    return f"handled: refused: {error[7:87]}"


def case_one_line_document(folder: Path) -> list[list[str]]:
    corpus(folder)
    chunk = ("We lost 15 volunteers in the first month and the clinic closed twice. " * 1000).encode()
    with open(folder / "docs" / "huge.txt", "wb") as handle:
        for _ in range(200 * 2**20 // len(chunk)):
            handle.write(chunk)
    return [[*VERIFY, "-o", "r.jsonl"]]


def case_million_rows(folder: Path) -> list[list[str]]:
    corpus(folder, "")
    with open(folder / "quotes.csv", "w", encoding="utf-8") as handle:
        handle.write("quote_id,quote\n")
        for k in range(1_000_000):
            handle.write(f"q{k},We lost {k} volunteers in the first month\n")
    return [[*VERIFY, "-o", "r.jsonl"]]


def judge_million(folder: Path, steps: list[Step]) -> str:
    error = _one_line_error(steps[-1])
    if error:
        return f"handled: stopped: {error[7:87]}"
    if steps[-1].code == 0 and sum(1 for _ in open(folder / "r.jsonl", encoding="utf-8")) == 1_000_000:
        return "handled: every row checked"
    return f"FAIL: exit {steps[-1].code}"


def _document_case(name: str, data: Callable[[], bytes | str]) -> Callable[[Path], list[list[str]]]:
    def build(folder: Path) -> list[list[str]]:
        corpus(folder)
        content = data()
        path = folder / "docs" / name
        path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
        return [[*VERIFY, "-o", "r.jsonl"]]
    return build


def _quotes_case(name: str, data: Callable[[], str]) -> Callable[[Path], list[list[str]]]:
    def build(folder: Path) -> list[list[str]]:
        corpus(folder)
        (folder / name).write_text(data(), encoding="utf-8")
        return [["verify", "docs", name, "--no-embed", "--no-cache", "-o", "r.jsonl"]]
    return build


def case_qdpx_segments(folder: Path) -> list[list[str]]:
    (folder / "project.qdpx").write_bytes(hostile.qdpx_many_segments())
    return [["verify", "project.qdpx", "--no-embed", "--no-cache", "-o", "r.jsonl"]]


def cases() -> list[Case]:
    found = [
        Case("report_into_docs", case_report_into_docs, refused_or(judge_report_into_docs)),
        Case("manifest_over_transcript", case_manifest_over_transcript,
             refused_or(unchanged("docs/interview-02.txt"))),
        Case("report_over_transcript", case_report_over_transcript, refused_or(unchanged("docs/notes.md"))),
        Case("manifest_is_store", case_manifest_is_store, refused_or(judge_store_kept)),
        Case("rerun_over_quotes", case_rerun_over_quotes, refused_or(unchanged("quotes.csv"))),
        Case("rerun_over_manifest", case_rerun_over_manifest, refused_or(unchanged("run.json"))),
        Case("review_over_input", case_review_over_input, refused_or(unchanged("page.csv"))),
        Case("decisions_unclosed_quote", case_decisions_unclosed_quote, refused_or(judge_all_decisions(4))),
        Case("qdpx_duplicate_guid", case_qdpx_duplicate_guid, refused_or(judge_qdpx_duplicate)),
        Case("xlsx_formula", case_xlsx_formula, refused_or(judge_formula)),
        Case("utf32_document", case_utf32, refused_or(judge_utf32)),
        Case("password_unknown_driver", case_password_unknown_driver, judge_no_secret),
        Case("password_in_manifest", case_password_in_manifest, judge_no_secret),
        Case("review_csv_formula", case_review_formula, refused_or(judge_formula_safe("reviewed.csv"))),
        Case("extract_csv_formula", case_extract_formula, refused_or(judge_formula_safe("quotes.csv"))),
        Case("concurrent_store", case_concurrent_store, judge_concurrent, parallel=True, small=False),
        Case("concurrent_first_record", case_concurrent_record, judge_concurrent_record, parallel=True, small=False),
        Case("qdpx_huge_positions", case_qdpx_huge_positions, refused_or(judge_huge_positions)),
        *(Case(f"{where}_json_{kind}", _json_case(where, kind), refused_or(ran_ok))
          for where in ("decisions", "quotes", "results", "manifest") for kind in ("infinity", "digits", "deep")),
        Case("manifest_wrong_types", case_manifest_types, refused_or(ran_ok)),
        Case("store_wrong_types", case_store_types, refused_or(ran_ok)),
        Case("csv_field_200k", case_csv_big_field, refused_or(ran_ok)),
        Case("decisions_field_200k", case_decisions_big_field, refused_or(ran_ok)),
        Case("yaml_alias_bomb", _config_case(hostile.yaml_alias_bomb), judge_short_error),
        Case("yaml_deep", _config_case(hostile.yaml_deep), judge_short_error),
        Case("document_200mb_one_line", case_one_line_document, refused_or(ran_ok), small=False),
        Case("quotes_1m_rows", case_million_rows, judge_million, small=False),
        Case("pdf_page_reuse", _document_case("bomb.pdf", hostile.pdf_page_reuse), refused_or(ran_ok)),
        Case("pdf_dense_300kb", _document_case("dense.pdf", hostile.pdf_dense), refused_or(ran_ok)),
        Case("pdf_form_reuse", _document_case("forms.pdf", hostile.pdf_form_reuse), refused_or(ran_ok)),
        Case("pdf_cmap_reuse", _document_case("cmaps.pdf", hostile.pdf_cmap_reuse), refused_or(ran_ok)),
        Case("pdf_10000_pages", _document_case("pages.pdf", hostile.pdf_many_pages), refused_or(ran_ok)),
        Case("quote_1m_chars", case_long_quote, refused_or(ran_ok)),
        Case("srt_markup_100kb", _document_case("cues.srt", lambda: hostile.subtitles_markup("srt", 100_000)),
             refused_or(ran_ok)),
        Case("vtt_voice_200kb", _document_case("cues.vtt", lambda: hostile.subtitles_markup("vtt", 200_000)),
             refused_or(ran_ok)),
        Case("csv_100k_columns", _quotes_case("wide.csv", hostile.wide_csv), refused_or(ran_ok)),
        Case("jsonl_100k_keys", _quotes_case("wide.jsonl", hostile.wide_jsonl), refused_or(ran_ok)),
        Case("qdpx_300k_segments", case_qdpx_segments, refused_or(ran_ok)),
    ]
    return found


def judge(case: Case, folder: Path) -> str:
    failed = _generic(case.steps)
    if failed and case.judge not in (judge_concurrent, judge_concurrent_record):
        return failed
    try:
        outcome = case.judge(folder, case.steps)
    except (OSError, ValueError, KeyError, IndexError) as exc:
        return f"FAIL: no usable output ({type(exc).__name__}: {exc})"[:100]
    slowest = max(s.seconds for s in case.steps)
    largest = max(s.peak_mb for s in case.steps)
    if case.small and outcome.startswith("handled") and (slowest > SMALL_SECONDS or largest > SMALL_MB):
        return f"FAIL: {slowest:.0f} s, {largest:.0f} MB for a small file ({outcome})"
    return outcome


def _cell(row: dict | None) -> tuple[str, str]:
    if row is None:
        return "", "not run"
    outcome = row["outcome"].replace("|", "/")
    return f"{row['seconds']:.1f} s, {row['peak_mb']} MB", outcome if len(outcome) <= 90 else outcome[:89] + "…"


def compare(before: Path, after: Path) -> str:
    """A Markdown table of two runs' figures (--json files), case by case."""
    old = {row["case"]: row for row in json.loads(before.read_text(encoding="utf-8"))}
    new = {row["case"]: row for row in json.loads(after.read_text(encoding="utf-8"))}
    lines = ["| case | before | outcome before | after | outcome after |", "|---|---|---|---|---|"]
    for case in dict.fromkeys([*new, *old]):
        (cost_before, outcome_before), (cost_after, outcome_after) = _cell(old.get(case)), _cell(new.get(case))
        lines.append(f"| {case} | {cost_before} | {outcome_before} | {cost_after} | {outcome_after} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="cases to run (default: all)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--code", type=Path, help="run the quoteverify package of this checkout")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"),
                        help="print a Markdown table of two runs' --json files, and run nothing")
    options = parser.parse_args()
    if options.compare:
        print(compare(*options.compare))
        return
    global CODE
    CODE = options.code
    chosen = [c for c in cases() if not options.names or c.name in options.names]
    rows = []
    with tempfile.TemporaryDirectory(prefix="qv-faults-") as root:
        for case in chosen:
            run_case(case, Path(root))
            outcome = judge(case, Path(root) / case.name)
            seconds = max(s.seconds for s in case.steps)
            peak = max(s.peak_mb for s in case.steps)
            rows.append({"case": case.name, "exit": [s.code for s in case.steps], "seconds": round(seconds, 2),
                         "peak_mb": round(peak), "outcome": outcome})
            print(f"{case.name:<28} {str(rows[-1]['exit']):<10} {seconds:7.2f} s {peak:7.0f} MB  {outcome}",
                  flush=True)
            shutil.rmtree(Path(root) / case.name, ignore_errors=True)
    if options.json:
        options.json.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
