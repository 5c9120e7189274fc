"""Faults and hostile files: a damaged cache, interrupted outputs, text that cannot be encoded,
hostile archives. Never a wrong verdict, never a traceback, never a half-written set of outputs."""
from __future__ import annotations

import json
import re
import shutil
from functools import cache
from pathlib import Path

import pytest
from conftest import TINY_CORPUS, FakeEmbedder

import quoteverify
from quoteverify.model.rows import jsonl_bytes

# Verbatim, edited, altered and invented quotes: the exact path, the BM25 index and the embeddings all serve.
QUOTES = [
    "it was harder than we expected",
    "We lost 50 volunteers in the first month",
    "The training was useful, but it was much too short.",
    "The council sent a helicopter, but it arrived two weeks later",
    "the managers promised extra staff and never sent them",
    "We ended up covering night shifts ourselves for about six weeks.",
    "The bakery on the corner sold bread to the whole village",
    "Our neighbours did, and the council sent a boat",
]


def _run(cache: Path | None) -> bytes:
    results = quoteverify.verify(TINY_CORPUS, QUOTES, embedder=FakeEmbedder(), cache_dir=cache)
    return jsonl_bytes(results)


@pytest.fixture(scope="module")
def warm_cache(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, bytes]:
    cache = tmp_path_factory.mktemp("warm") / "cache"
    cold = _run(None)
    assert _run(cache) == cold
    return cache, cold


def _cache_files(cache: Path) -> list[str]:
    return sorted(p.relative_to(cache).as_posix() for p in cache.rglob("*") if p.is_file())


def _damage(path: Path, how: str, other: Path) -> None:
    data = path.read_bytes()
    if how == "truncate-half":
        path.write_bytes(data[: len(data) // 2])
    elif how == "truncate-empty":
        path.write_bytes(b"")
    elif how == "flip":
        # Bytes flipped throughout: headers, the middle of arrays, the end (zip directory, sqlite pages).
        damaged = bytearray(data)
        for k in range(1, 8):
            damaged[k * len(data) // 8] ^= 0xFF
        path.write_bytes(bytes(damaged))
    elif how == "replace":
        path.write_bytes(other.read_bytes())


def test_the_warm_cache_holds_every_kind_of_entry(warm_cache: tuple[Path, bytes]) -> None:
    import sqlite3
    from contextlib import closing

    files = _cache_files(warm_cache[0])
    assert any(f.startswith("sources/") for f in files)
    assert any(f.startswith("corpus/") for f in files)
    assert any(f.startswith("index/") and f.endswith("checksum.json") for f in files)
    assert "embeddings.sqlite" in files
    with closing(sqlite3.connect(warm_cache[0] / "embeddings.sqlite")) as db:  # the kept results are rows there
        assert [db.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in ("results", "runs")] == [len(QUOTES), 1]


@pytest.mark.parametrize("how", ["truncate-half", "truncate-empty", "flip", "replace"])
def test_a_damaged_cache_file_gives_the_results_of_a_cold_run(warm_cache: tuple[Path, bytes], how: str,
                                                              tmp_path: Path) -> None:
    pristine, cold = warm_cache
    files = _cache_files(pristine)
    for n, name in enumerate(files):
        cache = tmp_path / f"c{n}"
        shutil.copytree(pristine, cache)
        # Replaced by another entry's file of the same kind where there is one: valid data under the wrong key.
        kind = [f for f in files if f != name and Path(f).suffix == Path(name).suffix]
        _damage(cache / name, how, cache / (kind[0] if kind else files[(n + 1) % len(files)]))
        assert _run(cache) == cold, f"{how} {name}"
        assert _run(cache) == cold, f"{how} {name}, the run after"


def _forget_results(cache: Path) -> None:
    """The kept results and run records deleted from the cache's database (a damaged one is left as it is)."""
    import sqlite3
    from contextlib import closing, suppress

    database = cache / "embeddings.sqlite"
    if database.is_file():
        with suppress(sqlite3.DatabaseError), closing(sqlite3.connect(database)) as db, db:
            db.execute("DELETE FROM results")
            db.execute("DELETE FROM runs")


def _warnings(cache: Path) -> list[str]:
    from quoteverify.pipeline.stages import run

    # Without the kept results (quoteverify.plumbing.resultcache) every quote reads the entries these tests damage.
    _forget_results(cache)
    return run(TINY_CORPUS, QUOTES, embedder=FakeEmbedder(), cache_dir=cache).warnings


def test_a_damaged_entry_is_one_warning_naming_it_and_is_rebuilt(warm_cache: tuple[Path, bytes],
                                                                  tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    shutil.copytree(warm_cache[0], cache)
    entry = sorted((cache / "sources").iterdir())[0]
    entry.write_bytes(entry.read_bytes()[:100])
    assert _warnings(cache) == [f"cache entry {entry} is damaged (File is not a zip file); discarded and rebuilt"]
    assert _warnings(cache) == []
    index = next((cache / "index").iterdir())
    data = next(p for p in index.iterdir() if p.name.startswith("indptr"))
    flipped = bytearray(data.read_bytes())
    flipped[-3] ^= 0x01
    data.write_bytes(bytes(flipped))
    assert _warnings(cache) == [f"cache entry {index} is damaged (checksum mismatch in {data.name}); "
                                "discarded and rebuilt"]
    assert _warnings(cache) == []


def test_a_damaged_embeddings_database_is_discarded(warm_cache: tuple[Path, bytes], tmp_path: Path) -> None:
    import sqlite3

    cache = tmp_path / "cache"
    shutil.copytree(warm_cache[0], cache)
    db = cache / "embeddings.sqlite"
    with sqlite3.connect(db) as conn:
        first = conn.execute("SELECT vector FROM vectors2 LIMIT 1").fetchone()[0]
        conn.execute("UPDATE vectors2 SET vector = ?", (first,))  # the same vector in every row
    conn.close()
    rows = len(sqlite3.connect(db).execute("SELECT key FROM vectors2").fetchall())
    assert _warnings(cache) == [f"cache entry {db} holds {rows - 1} damaged vectors; discarded and recomputed"]
    assert _warnings(cache) == []
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE vectors2 SET vector = x'0000'")  # a blob of the wrong length
    conn.close()
    assert _warnings(cache) == [f"cache entry {db} holds {rows} damaged vectors; discarded and recomputed"]
    db.write_bytes(b"SQLite format 3\x00" + b"\xff" * 5000)
    assert _warnings(cache) == [f"cache entry {db} is damaged (file is not a database); discarded and rebuilt"]
    assert _warnings(cache) == []


def test_stale_temporary_files_are_cleaned_on_the_next_run(warm_cache: tuple[Path, bytes], tmp_path: Path) -> None:
    import os
    import subprocess
    import time

    cache = tmp_path / "cache"
    shutil.copytree(warm_cache[0], cache)
    gone = subprocess.run(["true"]).returncode == 0 and 2**22 + 12345  # no such process: above pid_max's default
    dead = cache / "sources" / f".qv-{gone}-0badf00d.npz"
    dead.write_bytes(b"x" * 1000)
    dead_dir = cache / "index" / f".qv-{gone}-0badf00d"
    dead_dir.mkdir()
    (dead_dir / "data.csc.index.npy").write_bytes(b"x")
    legacy = cache / "corpus" / ".tmp-abc123.npz"
    legacy.write_bytes(b"x")
    old = time.time() - 7200
    os.utime(legacy, (old, old))
    alive = cache / "sources" / f".qv-{os.getpid()}-0badf00d.npz"  # a run still writing: left alone
    alive.write_bytes(b"x")
    assert _run(cache) == warm_cache[1]
    assert not dead.exists() and not dead_dir.exists() and not legacy.exists()
    assert alive.exists()


_CHILD = """
import hashlib, json, resource, signal, sys
sys.path.insert(0, {tests!r})
from conftest import TINY_CORPUS, FakeEmbedder
from quoteverify.pipeline.stages import run
from quoteverify.model.rows import jsonl_bytes
limit = {limit!r}
if limit is not None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG, as on a full disk
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
done = run(TINY_CORPUS, {quotes!r}, embedder=FakeEmbedder(), cache_dir={cache!r})
print(json.dumps({{"sha": hashlib.sha256(jsonl_bytes(done.results)).hexdigest(), "warnings": done.warnings}}))
"""


def _child(cache: Path, quotes: list[str], *, limit: int | None = None, read_only: bool = False) -> dict:
    import hashlib
    import json
    import os
    import subprocess
    import sys

    code = _CHILD.format(tests=str(Path(__file__).parent), limit=limit, quotes=quotes, cache=str(cache))
    command = [sys.executable, "-c", code]
    if read_only:
        if os.geteuid() == 0:  # root writes through permissions: a read-only mount in a private namespace
            if shutil.which("unshare") is None:
                pytest.skip("running as root without unshare: cannot make a read-only folder")
            command = ["unshare", "-m", "sh", "-c", 'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" "$0" '
                       '&& exec "$@"', str(cache), *command]
        else:
            for path in [cache, *cache.rglob("*")]:
                path.chmod(path.stat().st_mode & ~0o222)
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    cold = hashlib.sha256(jsonl_bytes(quoteverify.verify(TINY_CORPUS, quotes, embedder=FakeEmbedder()))).hexdigest()
    assert out["sha"] == cold
    return out


def test_a_read_only_cache_is_read_and_warned_about_once(warm_cache: tuple[Path, bytes], tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    shutil.copytree(warm_cache[0], cache)
    # One new quote: a new embedding, a new quote table; documents, vocabulary and index come from the cache.
    out = _child(cache, [*QUOTES, "By noon the entire ground floor was flooded"], read_only=True)
    assert out["warnings"] == [f"cache folder {cache} cannot be written (attempt to write a readonly database); "
                               "running without writing to the cache"]


def test_a_full_disk_under_the_cache_is_one_warning(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    out = _child(cache, QUOTES, limit=2000)
    # The first entry written says why: a prepared document (the OS's words) or a detected language (SQLite's).
    [warning] = out["warnings"]
    assert re.fullmatch(f"cache folder {re.escape(str(cache))} cannot be written \\((File too large|disk I/O error)\\); "
                        "running without writing to the cache", warning), warning
    assert not [p for p in cache.rglob("*") if p.is_file() and p.name.startswith(".qv-")]


# --- all outputs of a run as one transaction ---------------------------------------------------------


def _big_run(folder: Path, quotes: int = 6000) -> tuple[Path, Path]:
    """Documents and a quote table large enough that writing the workbook takes a while."""
    import csv

    docs = folder / "docs"
    docs.mkdir()
    sentences = [f"Participant {k} said the clinic number {k} opened on day {k * 7} of the project." for k in
                 range(quotes)]
    (docs / "notes.txt").write_text("\n".join(sentences) + "\n", encoding="utf-8")
    table = folder / "quotes.csv"
    with open(table, "w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["quote_id", "quote"])
        writer.writerows([f"q{k}", s] for k, s in enumerate(sentences))
    return docs, table


def _start(args: list[str], folder: Path):
    import os
    import subprocess
    import sys

    env = dict(os.environ, TMPDIR=str(folder / "tmpdir"), XDG_CACHE_HOME=str(folder / "xdg"))
    (folder / "tmpdir").mkdir()
    return subprocess.Popen([sys.executable, "-m", "quoteverify", *args], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _wait_for(folder: Path, pattern: str, process, timeout: float = 120.0) -> None:
    import time

    deadline = time.monotonic() + timeout
    while not list(folder.glob(pattern)):
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, f"no {pattern} in {timeout} s"
        time.sleep(0.02)


@pytest.mark.parametrize("signal_name", ["SIGINT", "SIGKILL"])
def test_an_interruption_while_writing_the_workbook_replaces_no_output(tmp_path: Path, signal_name: str) -> None:
    import signal

    docs, table = _big_run(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    previous = {"r.jsonl": "the previous results\n", "r.xlsx": "the previous workbook", "run.json": "{}"}
    for name, text in previous.items():
        (out / name).write_text(text, encoding="utf-8")
    process = _start(["verify", str(docs), str(table), "--no-embed", "-o", str(out / "r.jsonl"),
                      "-o", str(out / "r.xlsx"), "--manifest", str(out / "run.json")], tmp_path)
    # The JSONL is complete and waiting; the workbook is being written, its worksheets spilled to disk.
    _wait_for(out, ".qv-*.spill/openpyxl.*", process)
    process.send_signal(getattr(signal, signal_name))
    _, stderr = process.communicate(timeout=60)
    assert {p.name: p.read_text(encoding="utf-8") for p in out.iterdir() if not p.name.startswith(".")} == previous
    assert list((tmp_path / "tmpdir").iterdir()) == []
    if signal_name == "SIGINT":
        assert process.returncode == 130
        assert stderr.splitlines()[-1] == "Interrupted; no output was written or replaced."
        assert [p.name for p in out.iterdir() if p.name.startswith(".")] == []
    else:
        assert [p.name for p in out.iterdir() if p.name.startswith(".qv-")]  # what a kill -9 leaves ...
        from click.testing import CliRunner

        from quoteverify.cli import main

        again = CliRunner().invoke(main, ["verify", str(docs), str(table), "--no-embed", "--no-cache",
                                          "-o", str(out / "r.jsonl")])
        assert again.exit_code == 0, again.output
        assert sorted(p.name for p in out.iterdir()) == ["r.jsonl", "r.xlsx", "run.json"]  # ... the next run cleans


def test_a_full_disk_while_writing_the_workbook_replaces_no_output(tmp_path: Path, corpus_dir: Path) -> None:
    import subprocess
    import sys

    table = tmp_path / "quotes.csv"
    table.write_text("quote\nit was harder than we expected\nWe lost 50 volunteers\n", encoding="utf-8")
    for name in ("r.jsonl", "r.xlsx"):
        (tmp_path / name).write_text("previous", encoding="utf-8")
    code = ("import resource, signal, sys\n"
            "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
            "resource.setrlimit(resource.RLIMIT_FSIZE, (8192, 8192))  # the JSONL fits, the workbook does not\n"
            "from quoteverify.cli import main\n"
            "main(sys.argv[1:])\n")
    done = subprocess.run([sys.executable, "-c", code, "verify", str(corpus_dir), str(table), "--no-embed",
                           "--no-cache", "-o", str(tmp_path / "r.jsonl"), "-o", str(tmp_path / "r.xlsx")],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert (done.returncode, done.stderr) == (2, f"Error: {tmp_path / 'r.xlsx'}: cannot be written (File too "
                                                 f"large); check the free space and permissions of {tmp_path}\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["quotes.csv", "r.jsonl", "r.xlsx", "transcripts"]
    assert (tmp_path / "r.jsonl").read_text(encoding="utf-8") == "previous"


# --- text that cannot be encoded -------------------------------------------------------------------


def test_text_that_is_not_utf8_reaches_every_output_as_replacement_characters(tmp_path: Path,
                                                                              corpus_dir: Path) -> None:
    """A document whose file name is not UTF-8, quotes with lone surrogates, embeddings on: every output
    is written, with U+FFFD where the text cannot be encoded, and the model's loading bar is not printed."""
    import json
    import os
    import sqlite3

    from click.testing import CliRunner
    from openpyxl import load_workbook

    from quoteverify.cli import main

    name = os.fsdecode(b"caf\xe9-notes")  # "caf\udce9-notes"
    (corpus_dir / f"{name}.txt").write_text("Maria: We lost 15 volunteers in the first month.\n", encoding="utf-8")
    table = tmp_path / "quotes.jsonl"
    table.write_text(json.dumps({"quote": "We lost 50 volunteers \ud800 in the first month", "finding": "F1",
                                 "document": name}) + "\n" +
                     json.dumps({"quote": "the nurses never gave up \udcff, they turned up every weekend",
                                 "finding": "F1"}) + "\n", encoding="utf-8")
    out = {n: tmp_path / n for n in ("r.jsonl", "r.csv", "r.xlsx", "r.html", "run.json", "store.sqlite", "f.csv",
                                     "r.md", "c.jsonl")}
    result = CliRunner().invoke(main, [
        "verify", str(corpus_dir), str(table), "--cache-dir", str(tmp_path / "cache"), "-o", str(out["r.jsonl"]),
        "-o", str(out["r.csv"]), "-o", str(out["r.xlsx"]), "-o", str(out["r.html"]), "--manifest", str(out["run.json"]), "--store",
        str(out["store.sqlite"]), "--findings", str(out["f.csv"]), "--report", str(out["r.md"]), "--cards",
        str(out["c.jsonl"])])
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()  # no "Loading weights" bar, no warning, no traceback
    assert [lines[0], lines[1][:9], lines[2][:32], lines[3][:6], lines[4][:5], len(lines)] == [
        f"Recorded as run 1 in {out['store.sqlite']}", "Columns: ", "2 quotes: 0 verified, 2 review (",
        "Wrote ", "Next:", 5]
    shown = "caf\ufffd-notes"
    jsonl = [json.loads(line) for line in out["r.jsonl"].read_text(encoding="utf-8").splitlines()]
    assert [r["document"] for r in jsonl] == [name, "interview-01"]  # the JSONL keeps the escapes: it reads back
    assert jsonl[1]["cosine"] is not None  # the model encoded the quote with its lone surrogate
    sheet = load_workbook(out["r.xlsx"], read_only=True)["Quotes"]
    cells = {str(c.value) for row in sheet.iter_rows() for c in row if c.value is not None}
    assert "We lost 50 volunteers \ufffd in the first month" in cells and shown in cells
    page = out["r.html"].read_text(encoding="utf-8")
    assert shown in page and "\\udce9" not in page
    manifest = json.loads(out["run.json"].read_text(encoding="utf-8"))
    assert shown in json.dumps(manifest, ensure_ascii=False)
    with sqlite3.connect(out["store.sqlite"]) as db:
        assert db.execute("SELECT quote, document FROM results ORDER BY position").fetchall()[0] == (
            "We lost 50 volunteers \ufffd in the first month", shown)
    db.close()
    assert f"— {shown}, line 1" in out["r.md"].read_text(encoding="utf-8")
    cards = json.loads(out["c.jsonl"].read_text(encoding="utf-8"))
    assert [e["quote"] for e in cards["evidence"]] == ["We lost 50 volunteers \ufffd in the first month",
                                                      "the nurses never gave up \ufffd, they turned up every weekend"]
    review = CliRunner().invoke(main, ["review", str(out["r.xlsx"])])
    assert review.exit_code == 0, review.output


# --- hostile archives: resource limits ------------------------------------------------------------------

import hostile_files  # noqa: E402  (beside this file)

PEAK_MB = 500
REFUSAL_SECONDS = 5.0  # in this process; a command in a process of its own: refusal_seconds()
REFUSAL_RATIO = 2.5


def refusal_seconds() -> float:
    """What a command refusing a hostile file may take: REFUSAL_SECONDS, or REFUSAL_RATIO times the same
    command on harmless documents measured in this session, whichever is more (a slow or busy machine takes
    seconds to start Python and import; a file built to exhaust a reader takes minutes)."""
    return max(REFUSAL_SECONDS, REFUSAL_RATIO * _harmless_seconds())


@cache
def _harmless_seconds() -> float:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        folder = _round_two_folder(Path(tmp))
        code, stderr, seconds, _ = _measured(["verify", str(folder / "docs"), str(folder / "quotes.csv"),
                                              "--no-embed", "--no-cache", "-o", str(folder / "r.jsonl")], folder)
    assert code == 0, stderr
    return seconds


def _measured(args: list[str], cwd: Path) -> tuple[int, str, float, float]:
    """(exit code, stderr, seconds, peak resident MB) of the CLI in a process of its own."""
    import os
    import subprocess
    import sys
    import time

    # The process's own high-water mark (VmHWM), read as it exits: the ru_maxrss of a child counts the
    # parent's size at the fork, which in a long test session is gigabytes.
    peak_file = cwd / "peak.txt"
    code = ("import atexit, sys\n"
            "def peak():\n"
            "    with open('/proc/self/status') as f:\n"
            "        line = next(l for l in f if l.startswith('VmHWM:'))\n"
            f"    open({str(peak_file)!r}, 'w').write(line.split()[1])\n"
            "atexit.register(peak)\n"
            "from quoteverify.cli import main\n"
            "main(sys.argv[1:], prog_name='quoteverify')\n")
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-c", code, *args], cwd=cwd, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, env=dict(os.environ, XDG_CACHE_HOME=str(cwd / "xdg")))
    seconds = time.monotonic() - started
    return done.returncode, done.stderr, seconds, int(peak_file.read_text()) / 1024


def _unzipped(data: bytes) -> int:
    import io
    import zipfile

    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return sum(m.file_size for m in archive.infolist())


@pytest.fixture
def hostile(tmp_path: Path, corpus_dir: Path):
    table = tmp_path / "quotes.csv"
    table.write_text("quote\nit was harder than we expected\n", encoding="utf-8")

    def run(name: str, data: bytes, command: str = "verify") -> tuple[Path, str, float]:
        path = tmp_path / name
        path.write_bytes(data)
        if command == "verify-docs":
            args = ["verify", str(path), str(table)]
        elif command == "verify-quotes":
            args = ["verify", str(corpus_dir), str(path)]
        elif command == "previous":
            args = ["verify", str(corpus_dir), str(table), "--previous", str(path)]
        else:
            args = ["review", str(path)]
        code, stderr, seconds, peak = _measured([*args, "--no-embed"] if args[0] == "verify" else args, tmp_path)
        assert code == 2, stderr
        assert len(stderr.splitlines()) == 1, stderr
        assert seconds <= refusal_seconds() and peak <= PEAK_MB, (seconds, peak)
        return path, stderr, seconds

    return run


def test_a_docx_zip_bomb_is_refused_at_once(hostile) -> None:
    data = hostile_files.docx_bomb(2.0)
    path, stderr, _ = hostile("bomb.docx", data, "verify-docs")
    assert stderr == (f"Error: {path}: refused: it would unzip to {_unzipped(data):,} bytes, more than the limit "
                      "of 268,435,456 bytes (limits.max_unzipped_bytes in --config), as zip bombs do\n")


@pytest.mark.parametrize("command", ["verify-quotes", "review", "previous"])
def test_an_xlsx_zip_bomb_is_refused_at_once_as_a_quote_table_or_a_reviewed_workbook(hostile, command: str) -> None:
    data = hostile_files.xlsx_bomb(2.0)
    path, stderr, _ = hostile("bomb.xlsx", data, command)
    assert stderr == (f"Error: {path}: refused: it would unzip to {_unzipped(data):,} bytes, more than the limit "
                      "of 268,435,456 bytes (limits.max_unzipped_bytes in --config), as zip bombs do\n")


def test_shared_strings_of_hundreds_of_megabytes_are_refused_at_once(hostile) -> None:
    data = hostile_files.xlsx_shared_strings_bomb(300)
    assert len(data) < 1_500_000
    path, stderr, _ = hostile("strings.xlsx", data, "verify-quotes")
    assert stderr.startswith(f"Error: {path}: refused: its shared strings would unzip to ")
    assert stderr.endswith(" bytes, more than the limit of 134,217,728 bytes (limits.max_shared_strings_bytes in "
                           "--config)\n")


@pytest.mark.parametrize("command", ["verify-quotes", "review"])
def test_a_row_wider_than_the_column_cap_is_refused(hostile, command: str) -> None:
    path, stderr, _ = hostile("wide.xlsx", hostile_files.xlsx_wide_rows(), command)
    assert stderr == (f"Error: {path}: refused: row 2 has 16,384 columns, more than the limit of 1,000 "
                      "(limits.max_columns in --config)\n")


def test_a_sheet_whose_dimension_claims_16384_columns_is_read_as_wide_as_its_cells(tmp_path: Path,
                                                                                 corpus_dir: Path) -> None:
    import json

    path = tmp_path / "dimension.xlsx"
    path.write_bytes(hostile_files.xlsx_wide_dimension(20000))
    out = tmp_path / "r.jsonl"
    code, stderr, seconds, peak = _measured(["verify", str(corpus_dir), str(path), "--no-embed", "-o", str(out)],
                                            tmp_path)
    assert code == 0, stderr
    assert peak <= PEAK_MB, peak
    with open(out, encoding="utf-8") as f:
        first = json.loads(f.readline())
    assert first["extra"] == {}  # no 16,382 empty columns passed through
    assert out.stat().st_size < 40_000_000


def test_limits_are_set_in_the_config(tmp_path: Path, corpus_dir: Path) -> None:
    from click.testing import CliRunner

    from quoteverify.cli import main

    config = tmp_path / "limits.yaml"
    config.write_text("limits:\n  max_unzipped_bytes: 4294967295\n  max_ratio: 50\n", encoding="utf-8")
    bomb = tmp_path / "bomb.xlsx"
    bomb.write_bytes(hostile_files.xlsx_bomb(0.05))
    result = CliRunner().invoke(main, ["verify", str(corpus_dir), str(bomb), "--no-embed", "--config", str(config)])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"Error: {bomb}: refused: xl/worksheets/sheet1.xml would unzip to ")
    assert result.stderr.endswith(" times its compressed size, more than the limit of 50 (limits.max_ratio in "
                                  "--config), as zip bombs do\n")


# --- reviewed workbooks ---------------------------------------------------------------------------------


@pytest.fixture
def reviewed(tmp_path: Path, corpus_dir: Path):
    """A triage workbook of a run, with decisions typed in by a reviewer: reviewed({row: (id, decision)})."""
    from click.testing import CliRunner
    from openpyxl import load_workbook

    from quoteverify.cli import main

    table = tmp_path / "quotes.csv"
    table.write_text("quote_id,quote\nq1,it was harder than we expected\nq2,The training was useful\n"
                     "q3,Our neighbours did\nq4,We lost 50 volunteers in the first month\n", encoding="utf-8")
    book_path = tmp_path / "results.xlsx"
    assert CliRunner().invoke(main, ["verify", str(corpus_dir), str(table), "--no-embed", "-o",
                                     str(book_path)]).exit_code == 0

    def fill(decisions: dict[str, list[str]], *, rename: dict[str, str] | None = None) -> Path:
        book = load_workbook(book_path)
        sheet = book["Quotes"]
        header = [c.value for c in sheet[1]]
        id_col, decision_col = header.index("quote_id"), header.index("decision")
        rows = list(sheet.iter_rows(min_row=2))
        for row in rows:
            quote_id = row[id_col].value
            values = decisions.get(quote_id, [])
            if values:
                row[decision_col].value = values[0]
            for extra in values[1:]:  # the same quote id again, on a row of its own, with another decision
                sheet.append([c.value for c in row])
                sheet.cell(sheet.max_row, decision_col + 1).value = extra
            if rename and quote_id in rename:
                row[id_col].value = rename[quote_id]
        out = tmp_path / "reviewed.xlsx"
        book.save(out)
        return out

    def previous(workbook: Path):
        return CliRunner().invoke(main, ["verify", str(corpus_dir), str(table), "--no-embed", "--previous",
                                         str(workbook), "-o", str(tmp_path / "again.jsonl")])

    return fill, previous, tmp_path


def test_invalid_and_conflicting_decisions_are_listed_and_counted(reviewed) -> None:
    import json

    fill, previous, folder = reviewed
    workbook = fill({"q1": ["accept"], "q2": ["acept"], "q3": ["yes"], "q4": ["reject", "accept"]})
    result = previous(workbook)
    assert result.exit_code == 0, result.output
    book_rows = {}
    from openpyxl import load_workbook

    sheet = load_workbook(workbook)["Quotes"]
    header = [c.value for c in sheet[1]]
    letter = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[header.index("decision")]
    for n, row in enumerate(sheet.iter_rows(min_row=2, values_only=True), start=2):
        book_rows.setdefault(row[header.index("quote_id")], n)
    assert result.stderr.splitlines()[0] == (
        f"{workbook}: carried the decisions and notes of 1 quote; 0 reviewed quotes changed (their text or where "
        f"they were found) and need a new look; 2 invalid decisions not carried (Quotes!{letter}{book_rows['q2']} "
        f"'acept', Quotes!{letter}{book_rows['q3']} 'yes'; use one of accept, reject, fix quote, fix source); "
        "1 quote id with conflicting decisions on several rows not carried (q4)")
    rows = {r["quote_id"]: r["decision"] for r in map(json.loads, (folder / "again.jsonl").read_text().splitlines())}
    assert rows == {"q1": "accept", "q2": "", "q3": "", "q4": ""}


def test_the_note_beside_an_invalid_decision_is_carried(reviewed) -> None:
    """A typo in a decision cell costs the decision (listed), never the reviewer's note on that row."""
    import json

    from openpyxl import load_workbook

    fill, previous, folder = reviewed
    workbook = fill({"q1": ["accept"], "q2": ["acept"]})
    book = load_workbook(workbook)
    sheet = book["Quotes"]
    header = [c.value for c in sheet[1]]
    for row in sheet.iter_rows(min_row=2):
        if row[header.index("quote_id")].value in ("q1", "q2"):
            row[header.index("reviewer_note")].value = f"note on {row[header.index('quote_id')].value}"
    book.save(workbook)
    result = previous(workbook)
    assert result.exit_code == 0, result.output
    first = result.stderr.splitlines()[0]
    assert first.startswith(f"{workbook}: carried the decisions and notes of 2 quotes; ")
    assert first.endswith("use one of accept, reject, fix quote, fix source), the notes on their rows carried")
    rows = {r["quote_id"]: (r["decision"], r["reviewer_note"])
            for r in map(json.loads, (folder / "again.jsonl").read_text().splitlines())}
    assert rows == {"q1": ("accept", "note on q1"), "q2": ("", "note on q2"), "q3": ("", ""), "q4": ("", "")}


def test_a_workbook_with_no_common_quote_ids_is_a_warning(reviewed) -> None:
    fill, previous, _ = reviewed
    workbook = fill({"q1": ["accept"]}, rename={"q1": "x1", "q2": "x2", "q3": "x3", "q4": "x4"})
    result = previous(workbook)
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines()[:2] == [
        f"{workbook}: carried the decisions and notes of 0 quotes; 0 reviewed quotes changed (their text or where "
        "they were found) and need a new look",
        f"Warning: {workbook}: none of its 4 quote ids is among this run's quotes; is it the workbook of another "
        "quote table?"]


def _rewrite_sheet(path: Path, edit) -> Path:
    members = hostile_files.members_of(path.read_bytes())
    # The Quotes sheet, which review and --previous read: the second, after the Guide.
    members["xl/worksheets/sheet2.xml"] = edit(members["xl/worksheets/sheet2.xml"])
    out = path.with_name("hostile.xlsx")
    out.write_bytes(hostile_files.build_zip(members))
    return out


@pytest.mark.parametrize("command", ["review", "previous"])
@pytest.mark.parametrize("damage, expected", [
    (lambda xml: xml.replace(b"<worksheet", b'<!DOCTYPE worksheet [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;">]>'
                             b"<worksheet", 1).replace(b"<sheetData>", b"<sheetData><!-- &b; -->", 1),
     "refused: its XML declares entities or a DTD, as XML bombs do; give the .xlsx written by quoteverify verify, "
     "saved again from Excel"),
    (lambda xml: xml[: len(xml) // 2],
     "cannot be read as an Excel workbook ("),
])
def test_a_hostile_or_damaged_reviewed_workbook_is_one_line(reviewed, command: str, damage, expected: str) -> None:
    from click.testing import CliRunner

    from quoteverify.cli import main

    fill, previous, _ = reviewed
    workbook = _rewrite_sheet(fill({"q1": ["accept"]}), damage)
    result = CliRunner().invoke(main, ["review", str(workbook)]) if command == "review" else previous(workbook)
    assert result.exit_code == 2, result.output
    assert len(result.stderr.splitlines()) == 1
    assert result.stderr.startswith(f"Error: {workbook}: {expected}")


# --- the audit store ------------------------------------------------------------------------------------


def _verify_store(corpus_dir: Path, tmp_path: Path, target: str, *extra: str):
    from click.testing import CliRunner

    from quoteverify.cli import main

    table = tmp_path / "quotes.csv"
    table.write_text("quote\nit was harder than we expected\n", encoding="utf-8")
    return CliRunner().invoke(main, ["verify", str(corpus_dir), str(table), "--no-embed", "--store", target,
                                     "-o", str(tmp_path / "r.jsonl"), *extra])


@pytest.mark.parametrize("tables, expected", [
    (["CREATE TABLE contacts (name TEXT, email TEXT)", "CREATE TABLE notes (body TEXT)"],
     "refused: it is another application's database (tables contacts, notes); give a new file or a quoteverify "
     "store"),
    (["CREATE TABLE runs (id INTEGER PRIMARY KEY, name TEXT)"],
     "refused: its 'runs' table is not a quoteverify store's (no column config, corpus, time, version); give "
     "another store"),
])
def test_a_database_quoteverify_did_not_make_is_refused_before_the_run(tmp_path: Path, corpus_dir: Path,
                                                                       tables: list[str], expected: str) -> None:
    import sqlite3

    target = tmp_path / "other.sqlite"
    with sqlite3.connect(target) as db:
        for statement in tables:
            db.execute(statement)
    db.close()
    before = target.read_bytes()
    result = _verify_store(corpus_dir, tmp_path, str(target))
    assert (result.exit_code, result.stderr) == (2, f"Error: {target}: {expected}\n")
    assert target.read_bytes() == before
    assert not (tmp_path / "r.jsonl").exists()


@pytest.mark.parametrize("target, reason", [
    ("http://example.com/runs", "Can't load plugin: sqlalchemy.dialects:http"),
    ("postgresql://user@localhost:port/db", "invalid literal for int() with base 10: 'port'"),
])
def test_a_bad_store_url_is_one_line(tmp_path: Path, corpus_dir: Path, target: str, reason: str) -> None:
    result = _verify_store(corpus_dir, tmp_path, target)
    assert (result.exit_code, result.stderr) == (
        2, f"Error: {target}: not a database URL quoteverify can use ({reason}); give a file path for SQLite or a "
           "URL such as postgresql://user@localhost/quoteverify\n")


@pytest.mark.parametrize("run_id", ["9223372036854775808", "0"])
def test_a_run_id_out_of_range_is_one_line(tmp_path: Path, corpus_dir: Path, run_id: str) -> None:
    from click.testing import CliRunner

    from quoteverify.cli import main

    store = tmp_path / "runs.sqlite"
    assert _verify_store(corpus_dir, tmp_path, str(store)).exit_code == 0
    result = CliRunner().invoke(main, ["recheck", run_id, str(corpus_dir), "--store", str(store), "-o",
                                       str(tmp_path / "e.csv")])
    assert (result.exit_code, result.stderr) == (
        2, f"Error: {store}: no run {run_id} here; run ids are whole numbers from 1 up; 'quoteverify runs --store "
           f"{store}' lists the runs recorded\n")


def test_a_record_waits_for_another_writer(tmp_path: Path, corpus_dir: Path) -> None:
    """Another run holds the store's write lock for 7 s: this one waits and records, not fails."""
    import sqlite3
    import subprocess
    import sys
    import time

    store = tmp_path / "runs.sqlite"
    assert _verify_store(corpus_dir, tmp_path, str(store)).exit_code == 0
    holder = subprocess.Popen([sys.executable, "-c", (
        "import sqlite3, sys, time\n"
        f"db = sqlite3.connect({str(store)!r}, isolation_level=None)\n"
        "db.execute('BEGIN EXCLUSIVE')\n"
        "db.execute(\"UPDATE runs SET embedder = 'busy' WHERE id = 1\")\n"
        "print('locked', flush=True)\n"
        "time.sleep(7)\n"  # longer than sqlite3's default wait of 5 s
        "db.execute('COMMIT')\n")], stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline() == "locked\n"
    started = time.monotonic()
    result = _verify_store(corpus_dir, tmp_path, str(store))
    assert result.exit_code == 0, result.output
    assert time.monotonic() - started > 5.0
    holder.wait(timeout=30)
    assert f"Recorded as run 2 in {store}" in result.stderr
    with sqlite3.connect(store) as db:
        assert db.execute("SELECT id, embedder FROM runs ORDER BY id").fetchall() == [(1, "busy"), (2, None)]
    db.close()


# --- rerun, links and pipes, noisy libraries ----------------------------------------------------------


@pytest.mark.parametrize("recorded", ["../victim/x.jsonl", "/tmp/quoteverify-victim/x.jsonl", "sub/../../x.jsonl"])
def test_rerun_of_an_edited_manifest_writes_only_in_its_folder(tmp_path: Path, corpus_dir: Path,
                                                               recorded: str) -> None:
    import json

    from click.testing import CliRunner

    from quoteverify.cli import main

    out = tmp_path / "out"
    out.mkdir()
    table = tmp_path / "quotes.csv"
    table.write_text("quote\nit was harder than we expected\n", encoding="utf-8")
    manifest = out / "run.json"
    assert CliRunner().invoke(main, ["verify", str(corpus_dir), str(table), "--no-embed", "-o",
                                     str(out / "r.jsonl"), "--manifest", str(manifest)]).exit_code == 0
    data = json.loads(manifest.read_text(encoding="utf-8"))
    data["outputs"] = ["r.jsonl", recorded]
    manifest.write_text(json.dumps(data), encoding="utf-8")
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "x.jsonl").write_text("precious", encoding="utf-8")
    result = CliRunner().invoke(main, ["rerun", str(manifest)])
    assert (result.exit_code, result.stderr) == (
        2, f"Error: {manifest}: refused: it records the output '{recorded}', outside the manifest's folder {out}; "
           "rerun writes there only, unless you name the outputs with -o\n")
    assert (victim / "x.jsonl").read_text(encoding="utf-8") == "precious"
    named = CliRunner().invoke(main, ["rerun", str(manifest), "-o", str(victim / "x.jsonl")])
    assert named.exit_code == 0, named.output  # named on the command line: the user's choice


def test_a_symlink_loop_or_a_fifo_given_directly_says_what_it_is(tmp_path: Path, corpus_dir: Path) -> None:
    import os

    from click.testing import CliRunner

    from quoteverify.cli import main

    (tmp_path / "a.txt").symlink_to(tmp_path / "b.txt")
    (tmp_path / "b.txt").symlink_to(tmp_path / "a.txt")
    os.mkfifo(tmp_path / "pipe.csv")
    (tmp_path / "gone.txt").symlink_to(tmp_path / "nowhere.txt")
    table = tmp_path / "quotes.csv"
    table.write_text("quote\nit was harder than we expected\n", encoding="utf-8")

    def verify(*args: Path) -> tuple[int, str]:
        result = CliRunner().invoke(main, ["verify", *map(str, args), "--no-embed"])
        return result.exit_code, result.stderr

    assert verify(tmp_path / "a.txt", table) == (
        2, f"Error: {tmp_path / 'a.txt'}: is a symbolic link that loops (Too many levels of symbolic links); give a "
           "document file or a folder of them\n")
    assert verify(tmp_path / "gone.txt", table) == (
        2, f"Error: {tmp_path / 'gone.txt'}: is a symbolic link to {tmp_path / 'nowhere.txt'}, which does not exist; "
           "give a document file or a folder of them\n")
    assert verify(tmp_path / "pipe.csv", table) == (
        2, f"Error: {tmp_path / 'pipe.csv'}: is a named pipe (FIFO), not a file that can be read; give a document "
           "file or a folder of them\n")
    assert verify(corpus_dir, tmp_path / "pipe.csv") == (  # would block for ever on reading
        2, f"Error: {tmp_path / 'pipe.csv'}: is a named pipe (FIFO), not a file that can be read; give the quote "
           "table\n")


def test_pypdf_complaints_are_one_warning_not_raw_lines(tmp_path: Path) -> None:
    from click.testing import CliRunner
    from test_formats import pdf_bytes

    from quoteverify.cli import main

    data = pdf_bytes([["Maria: We lost 15 volunteers in the first month."]])
    data = data[:data.rfind(b"startxref")] + b"startxref\n99999\n%%EOF\n"  # a wrong pointer to the xref table
    pdf = tmp_path / "damaged.pdf"
    pdf.write_bytes(data)
    table = tmp_path / "quotes.csv"
    table.write_text("quote\nWe lost 15 volunteers in the first month\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["verify", str(pdf), str(table), "--no-embed", "--no-cache", "-o", "-"])
    assert result.exit_code == 0, result.output
    assert [line for line in result.stderr.splitlines() if not line.startswith("Columns: ")][:-3] == [
        f"Warning: {pdf}: the PDF is damaged in places (pypdf: incorrect startxref pointer(2) and 1 more); its text "
        "was read, but check the results against the document"]
    assert '"status": "verified"' in result.stdout


# --- property: hostile archives through every loader -----------------------------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_BASES = {"docx": hostile_files.plain_docx, "xlsx": lambda: hostile_files.plain_xlsx(3),
          "review": lambda: hostile_files.plain_xlsx(3, header=("quote_id", "quote", "decision"))}


@st.composite
def hostile_archives(draw) -> tuple[str, bytes]:
    kind = draw(st.sampled_from(sorted(_BASES)))
    members: dict = dict(_BASES[kind]())
    names = sorted(members)
    for _ in range(draw(st.integers(0, 3))):
        name = draw(st.sampled_from(names + ["xl/sharedStrings.xml", "word/extra.xml"]))
        how = draw(st.sampled_from(["bomb", "garbage", "dtd", "wide", "dimension", "drop"]))
        content = members.get(name, b"")
        if how == "bomb":  # declared honestly: really unzips to this much
            members[name] = hostile_files.Repeated(b"<x>", b"<y>aaaa</y>" * 65536,
                                                   draw(st.integers(1, 600)), b"</x>")
        elif how == "garbage":
            members[name] = draw(st.binary(max_size=200))
        elif how == "dtd" and isinstance(content, bytes):
            members[name] = b'<!DOCTYPE x [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;&a;">]>' + content
        elif how == "wide" and isinstance(content, bytes) and b"<sheetData>" in content:
            column = draw(st.sampled_from(["Z", "ALL", "XFD"]))
            members[name] = content.replace(b"</sheetData>", f'<row r="9"><c r="{column}9"><v>1</v></c></row>'
                                                              "</sheetData>".encode())
        elif how == "dimension" and isinstance(content, bytes):
            members[name] = content.replace(b'<dimension ref="A1:', b'<dimension ref="A1:XFD1048576" x="')
        elif how == "drop" and name in members:
            del members[name]
    data = hostile_files.build_zip(members)
    damage = draw(st.sampled_from(["none", "truncate", "flip"]))
    if damage == "truncate":
        data = data[: draw(st.integers(0, len(data)))]
    elif damage == "flip":
        flipped = bytearray(data)
        for position in draw(st.lists(st.integers(0, len(data) - 1), min_size=1, max_size=8)):
            flipped[position] ^= 0xFF
        data = bytes(flipped)
    return kind, data


def _status_mb(field: str) -> float:
    with open("/proc/self/status") as f:
        return int(next(line for line in f if line.startswith(field + ":")).split()[1]) / 1024


def _reset_peak() -> float:
    """Start this process's high-water mark afresh (Linux: clear_refs 5); the resident size now."""
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
    return _status_mb("VmRSS")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(archive=hostile_archives())
def test_no_hostile_archive_gets_past_a_loader_as_a_traceback(tmp_path_factory, archive) -> None:
    import time

    from quoteverify.app.review import read_review
    from quoteverify.model.errors import QuoteverifyError
    from quoteverify.sources.documents import load_documents
    from quoteverify.sources.quotes import load_quotes

    kind, data = archive
    folder = tmp_path_factory.mktemp("hostile")
    path = folder / ("doc.docx" if kind == "docx" else "table.xlsx")
    path.write_bytes(data)
    read = {"docx": lambda: load_documents([path]), "xlsx": lambda: load_quotes(path),
            "review": lambda: read_review(path)}[kind]
    before = _reset_peak()
    started = time.monotonic()
    try:
        read()
    except QuoteverifyError as exc:
        assert "\n" not in str(exc)
    assert time.monotonic() - started <= REFUSAL_SECONDS
    assert _status_mb("VmHWM") - before <= PEAK_MB


def test_a_qda_project_with_a_bomb_inside_is_refused_at_once(tmp_path: Path) -> None:
    """A .qdpx under the project's own size cap, with one member that unzips 2,000 times its size."""
    import test_qdpx

    path, _, _ = test_qdpx.project(tmp_path, test_qdpx.NVIVO, sentences=4)
    members = hostile_files.members_of(path.read_bytes())
    members["sources/notes.txt"] = hostile_files.Repeated(b"", b"the clinic closed " * 4096, 12000, b"")
    path.write_bytes(hostile_files.build_zip(members))
    code, stderr, seconds, peak = _measured(["verify", str(path), "--no-embed", "--no-cache"], tmp_path)
    assert code == 2 and seconds <= refusal_seconds() and peak <= PEAK_MB, (stderr, seconds, peak)
    assert stderr.startswith(f"Error: {path}: refused: sources/notes.txt would unzip to ")
    assert stderr.endswith(" times its compressed size, more than the limit of 200 (limits.max_ratio in --config), "
                           "as zip bombs do\n")


def test_a_docx_whose_main_part_is_no_word_document_is_one_line(tmp_path: Path) -> None:
    # Found by the hostile-archive property test: python-docx opens it, then fails on a body it lacks.
    import io
    import zipfile

    import docx

    from quoteverify.model.errors import QuoteverifyError
    from quoteverify.sources.formats import extract

    buffer = io.BytesIO()
    document = docx.Document()
    document.add_paragraph("hello")
    document.save(buffer)
    source = zipfile.ZipFile(io.BytesIO(buffer.getvalue()))
    damaged = io.BytesIO()
    with zipfile.ZipFile(damaged, "w") as archive:
        for member in source.infolist():
            data = source.read(member.filename)
            main_part = member.filename == "word/document.xml"
            archive.writestr(member, b"<?xml version='1.0'?><root/>" if main_part else data)
    path = tmp_path / "x.docx"
    path.write_bytes(damaged.getvalue())
    with pytest.raises(QuoteverifyError) as raised:
        extract(path, path.read_bytes())
    assert str(raised.value) == (f"{path}: not a readable .docx file (AttributeError: 'lxml.etree._Element' object "
                                 "has no attribute 'body'); re-save it from Word as .docx")


@pytest.mark.parametrize("kind", ["docx", "xlsx", "review", "qdpx"])
def test_a_zip_member_needing_an_unknown_zip_version_is_one_line(tmp_path: Path, kind: str) -> None:
    # Found by the hostile-archive property test: a flipped "version needed to extract" byte in the central
    # directory makes zipfile raise NotImplementedError when it opens the archive.
    import struct

    from click.testing import CliRunner

    from quoteverify.cli import main

    members = (hostile_files.plain_docx() if kind == "docx" else
               hostile_files.plain_xlsx(3, header=("quote_id", "quote", "decision")) if kind == "review" else
               hostile_files.plain_xlsx(3) if kind == "xlsx" else {"project.qde": b"<Project/>"})
    data = bytearray(hostile_files.build_zip(members))
    central = data.index(b"PK\x01\x02")
    struct.pack_into("<H", data, central + 6, 0xEB)  # version needed to extract: 23.5
    path = tmp_path / f"damaged.{ 'xlsx' if kind == 'review' else kind}"
    path.write_bytes(bytes(data))
    table = tmp_path / "quotes.csv"
    table.write_text("quote\nWe lost 15 volunteers in the first month\n", encoding="utf-8")
    args = {"docx": ["verify", str(path), str(table), "--no-embed", "--no-cache"],
            "xlsx": ["verify", str(tmp_path / "quotes.csv"), str(path), "--no-embed", "--no-cache"],
            "review": ["review", str(path)],
            "qdpx": ["verify", str(path), "--no-embed", "--no-cache"]}[kind]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.output
    assert result.stderr.splitlines()[-1].startswith(f"Error: {path}: not a readable ") or \
        result.stderr.splitlines()[-1].startswith(f"Error: {path}: cannot be read as an Excel workbook "), result.output
    assert "zip file version 23.5" in result.stderr.splitlines()[-1]


# --- round two (issue 29): small hostile files, through the CLI in a process of its own --------------------------


def _bounded(args: list[str], cwd: Path) -> tuple[int, str]:
    """Exit code and stderr of a command that must finish within refusal_seconds() and PEAK_MB, without a
    traceback and with at most one line of error."""
    code, stderr, seconds, peak = _measured(args, cwd)
    assert "Traceback" not in stderr, stderr
    assert seconds <= refusal_seconds() and peak <= PEAK_MB, (args, seconds, peak)
    assert len([line for line in stderr.splitlines() if line.startswith("Error:")]) <= 1, stderr
    return code, stderr


def _round_two_folder(tmp_path: Path) -> Path:
    from conftest import TINY_CORPUS

    (tmp_path / "docs").mkdir()
    for doc_id, text in TINY_CORPUS.items():
        (tmp_path / "docs" / f"{doc_id}.txt").write_bytes(text.encode("utf-8"))
    (tmp_path / "quotes.csv").write_text("quote\nit was harder than we expected\n", encoding="utf-8")
    return tmp_path


PDF_REFUSED = ("refused: its pages draw more than {budget:,} bytes of content, over 10 times its size "
               "(limits.max_pdf_ratio in --config), as PDFs built to exhaust a reader do; save it again as PDF, "
               "or raise the limit")
PDF_PAGES_REFUSED = ("refused: 10,000 pages in {size:,} bytes, as PDFs built to exhaust a reader hold (each page "
                     "costs as much to read as 3,000 bytes of content, and its pages may draw {budget:,} bytes, 10 "
                     "times its size: limits.max_pdf_ratio in --config); save it again as PDF, or raise the limit")
HOSTILE_DOCUMENTS = [
    ("bomb.pdf", lambda: hostile_files.pdf_page_reuse(), 2, PDF_REFUSED),
    ("dense.pdf", lambda: hostile_files.pdf_dense(), 2, PDF_REFUSED),
    ("forms.pdf", lambda: hostile_files.pdf_form_reuse(), 2, PDF_REFUSED),
    ("cmaps.pdf", lambda: hostile_files.pdf_cmap_reuse(), 2, PDF_REFUSED),
    ("pages.pdf", lambda: hostile_files.pdf_many_pages(), 2, PDF_PAGES_REFUSED),
    ("cues.srt", lambda: hostile_files.subtitles_markup("srt", 100_000).encode(), 0, ""),
    ("cues.vtt", lambda: hostile_files.subtitles_markup("vtt", 200_000).encode(), 0, ""),
]


@pytest.mark.parametrize("name, data, code, message", HOSTILE_DOCUMENTS, ids=[c[0] for c in HOSTILE_DOCUMENTS])
def test_a_small_hostile_document_costs_little(tmp_path: Path, name: str, data, code: int, message: str) -> None:
    folder = _round_two_folder(tmp_path)
    path = folder / "docs" / name
    path.write_bytes(data())
    got, stderr = _bounded(["verify", str(folder / "docs"), str(folder / "quotes.csv"), "--no-embed", "--no-cache",
                            "-o", str(folder / "r.jsonl")], folder)
    budget = max(1 << 20, 10 * path.stat().st_size)
    assert got == code, stderr
    if message:
        assert stderr == f"Error: {path}: {message.format(budget=budget, size=path.stat().st_size)}\n"


HOSTILE_TABLES = [
    ("wide.csv", hostile_files.wide_csv, "refused: row 1 has 100,000 columns, more than the limit of 1,000 "
                                         "(limits.max_columns in --config)"),
    ("wide.jsonl", hostile_files.wide_jsonl, "refused: row 1 has 100,001 columns, more than the limit of 1,000 "
                                             "(limits.max_columns in --config)"),
]


@pytest.mark.parametrize("name, text, message", HOSTILE_TABLES, ids=[c[0] for c in HOSTILE_TABLES])
def test_a_quote_table_of_100000_columns_is_refused_at_once(tmp_path: Path, name: str, text, message: str) -> None:
    folder = _round_two_folder(tmp_path)
    (folder / name).write_text(text(), encoding="utf-8")
    code, stderr = _bounded(["verify", str(folder / "docs"), str(folder / name), "--no-embed", "--no-cache"], folder)
    assert (code, stderr) == (2, f"Error: {folder / name}: {message}\n")


def test_a_project_of_300000_segments_is_refused_before_it_is_parsed(tmp_path: Path) -> None:
    path = tmp_path / "project.qdpx"
    path.write_bytes(hostile_files.qdpx_many_segments())
    assert path.stat().st_size < 2_000_000
    code, stderr = _bounded(["verify", str(path), "--no-embed", "--no-cache"], tmp_path)
    assert (code, stderr) == (2, f"Error: {path}: refused: 300,000 coded segments, more than the limit of 200,000 "
                                 "quotes (limits.max_quotes in --config); export fewer codes, or raise the limit\n")


def test_a_project_with_positions_past_two_to_the_63_gives_each_segment_its_reason(tmp_path: Path) -> None:
    """Positions no int64 holds (before, 'unexpected fault ... OverflowError: Python int too large to convert to C
    long'): the segment is unverified with the reason of any position past the text's end; the others are
    checked."""
    text = "Maria: We lost 15 volunteers in the first month, and the clinic closed twice.\n"
    huge = 2 ** 64 + 5
    path = tmp_path / "project.qdpx"
    path.write_bytes(hostile_files.qdpx([("A", "interview-01.txt", text)],
                                        [("S1", 0, 7, 48), ("S2", 0, huge, huge + 10), ("S3", 0, -huge, 20)]))
    out = tmp_path / "r.jsonl"
    code, stderr = _bounded(["verify", str(path), "--no-embed", "--no-cache", "-o", str(out)], tmp_path)
    assert code == 0, stderr
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [(r["quote_id"], r["status"]) for r in rows] == [("S1", "verified"), ("S2", "unverified"),
                                                           ("S3", "unverified")]
    convention = "Unicode code points, byte-order mark counted, CRLF as 2 characters"
    assert rows[1]["reasons"] == [
        f"positions {huge}-{huge + 10} of coded segment in interview-01 do not fit its text ({convention}): they do "
        "not start and end on word boundaries or lie past its end; recode the segment or export the project again"]
    assert rows[2]["reasons"][0].startswith(f"positions {-huge}-20 of coded segment in interview-01 do not fit")


@pytest.mark.parametrize("text, reason", [
    (hostile_files.yaml_alias_bomb(), "its aliases (*name) expand to more than 100,000 values, as an alias bomb's "
                                      "do; write the values out"),
    (hostile_files.yaml_deep(), "nested more than 64 deep"),
], ids=["alias bomb", "20000 deep"])
def test_a_hostile_config_is_one_short_line(tmp_path: Path, text: str, reason: str) -> None:
    folder = _round_two_folder(tmp_path)
    (folder / "config.yaml").write_text(text, encoding="utf-8")
    code, stderr = _bounded(["verify", str(folder / "docs"), str(folder / "quotes.csv"), "--no-embed", "--no-cache",
                             "--config", str(folder / "config.yaml")], folder)
    assert (code, stderr) == (2, f"Error: {folder / 'config.yaml'}: not valid YAML ({reason}); fix the syntax\n")


JSON_REASONS = {"infinity": "Infinity is not a JSON number", "digits": "a number of 5,000 digits",
                "deep": "nested more than 64 deep", "nan": "NaN is not a JSON number",
                "float": "1e999 is too large for a number"}


@pytest.fixture(scope="module")
def recorded_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """docs/, quotes.csv, and the results r.jsonl and manifest run.json of a run on them."""
    from click.testing import CliRunner

    from quoteverify.cli import main

    folder = _round_two_folder(tmp_path_factory.mktemp("recorded"))
    done = CliRunner().invoke(main, ["verify", str(folder / "docs"), str(folder / "quotes.csv"), "--no-embed",
                                     "--no-cache", "-o", str(folder / "r.jsonl"), "--manifest",
                                     str(folder / "run.json")])
    assert done.exit_code == 0, done.output
    return folder


def _hostile_json_case(folder: Path, where: str, bad: str) -> tuple[list[str], str]:
    """(command, the error's text after 'Error: ') of a file holding the hostile JSON value ``bad``."""
    if where == "decisions":
        path = folder / "d.json"
        path.write_text('{"format": "quoteverify decisions", "version": 1, "decisions": '
                        f'[{{"quote_id": "q1", "row": {bad}, "decision": "accept"}}]}}', encoding="utf-8")
        return ["review", str(path)], f"{path}: not valid JSON ({{}}); give the .json the review page's 'save " \
                                      "decisions: JSON' button wrote"
    if where == "quotes":
        path = folder / "q.jsonl"
        path.write_text(f'{{"quote": "We lost 15 volunteers", "n": {bad}}}\n', encoding="utf-8")
        return (["verify", str(folder / "docs"), str(path), "--no-embed", "--no-cache"],
                f"{path}: line 1: not valid JSON ({{}}); one JSON object per line")
    if where == "results":
        path = folder / "bad.jsonl"
        line = (folder / "r.jsonl").read_text(encoding="utf-8").splitlines()[0]
        path.write_text(line.replace('"confidence": ', f'"confidence": {bad}, "was": ', 1) + "\n", encoding="utf-8")
        return (["report", str(path), "-o", str(folder / "page.html")],
                f"{path}: line 1: not a quoteverify result ({{}}); give the JSONL written by quoteverify verify -o "
                "results.jsonl")
    path = folder / "bad.json"
    manifest = (folder / "run.json").read_text(encoding="utf-8")
    path.write_text(manifest.replace('"created": ', f'"x": {bad}, "created": ', 1), encoding="utf-8")
    return (["appendix", str(folder / "r.jsonl"), "--manifest", str(path)],
            f"{path}: not a JSON manifest ({{}}); give the file written by --manifest")


@pytest.mark.parametrize("kind", sorted(JSON_REASONS))
@pytest.mark.parametrize("where", ["decisions", "quotes", "results", "manifest"])
def test_json_that_python_reads_too_far_is_one_line_everywhere(recorded_run: Path, tmp_path: Path, where: str,
                                                               kind: str) -> None:
    from click.testing import CliRunner

    from quoteverify.cli import main

    folder = tmp_path / "run"
    shutil.copytree(recorded_run, folder)
    args, message = _hostile_json_case(folder, where, hostile_files.hostile_json(kind))
    result = CliRunner().invoke(main, args)
    assert (result.exit_code, result.stderr) == (2, f"Error: {message.format(JSON_REASONS[kind])}\n")


# --- round two: nothing silently dropped or merged, no record destroyed --------------------------------------------


def _invoke(*args: object):
    from click.testing import CliRunner

    from quoteverify.cli import main

    return CliRunner().invoke(main, [str(a) for a in args])


def test_a_decisions_csv_with_an_unclosed_quote_names_the_row(tmp_path: Path) -> None:
    path = tmp_path / "decisions.csv"
    path.write_text("quote_id,row,status,decision,reviewer_note,fingerprint\r\nq1,2,review,accept,fine,a\r\n"
                    'q2,3,review,reject,"the note never closes,b\r\nq3,4,review,accept,ok,c\r\n', encoding="utf-8")
    result = _invoke("review", path)
    assert (result.exit_code, result.stderr) == (
        2, f"Error: {path}: row 3 (line 3): a double-quoted cell is not closed where it should be, so the rows after "
           "it would run together; close its \" (a \" inside a quoted cell is written \"\")\n")


def test_decisions_and_quotes_longer_than_the_csv_module_allows_are_read(tmp_path: Path, corpus_dir: Path) -> None:
    note = "checked against the recording " * 7000  # 210,000 characters: over csv's default field limit
    decisions = tmp_path / "decisions.csv"
    decisions.write_text(f'quote_id,row,status,decision,reviewer_note,fingerprint\r\nq1,2,review,accept,"{note}",f\r\n',
                         encoding="utf-8")
    result = _invoke("review", decisions, "-o", tmp_path / "out.jsonl")
    assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / "out.jsonl").read_text(encoding="utf-8"))["reviewer_note"] == note.strip()
    quotes = tmp_path / "quotes.csv"
    quotes.write_text(f'quote_id,quote\nq1,"{note}"\nq2,it was harder than we expected\n', encoding="utf-8")
    result = _invoke("verify", corpus_dir, quotes, "--no-embed", "--no-cache", "-o", tmp_path / "r.jsonl")
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in (tmp_path / "r.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [(r["quote_id"], r["status"], len(r["quote"])) for r in rows] == [
        ("q1", "unverified", len(note)), ("q2", "verified", 30)]


def test_a_utf32_transcript_is_read_as_utf32(tmp_path: Path, corpus_dir: Path) -> None:
    from conftest import TINY_CORPUS, span_of

    for encoding in ("utf-32", "utf-32-be"):
        doc = corpus_dir / "interview-01.txt"
        doc.write_bytes(TINY_CORPUS["interview-01"].encode(encoding))
        quotes = tmp_path / "quotes.csv"
        quotes.write_text("quote\nWe lost 15 volunteers in the first month\n", encoding="utf-8")
        result = _invoke("verify", corpus_dir, quotes, "--no-embed", "--no-cache", "-o", "-")
        assert result.exit_code == 0, result.output
        row = json.loads(result.stdout)
        start, end = span_of(TINY_CORPUS["interview-01"], "We lost 15 volunteers in the first\nmonth")
        assert (row["status"], row["speaker"], row["start"], row["end"]) == ("verified", "Maria", start, end)


@pytest.mark.parametrize("cached, status, reason", [
    ("We lost 15 volunteers in the first month", "verified", None),
    (None, "unverified", "cell B2 holds the formula =C2 and no value saved for it (the file was not saved by a "
                         "program that computes formulas); open it in Excel and save it, or paste the values"),
])
def test_a_formula_quote_cell_is_read_as_its_saved_value(tmp_path: Path, corpus_dir: Path, cached, status: str,
                                                         reason: str | None) -> None:
    table = tmp_path / "quotes.xlsx"
    table.write_bytes(hostile_files.xlsx_formula_quote(cached))
    result = _invoke("verify", corpus_dir, table, "--no-embed", "--no-cache", "-o", "-")
    assert result.exit_code == 0, result.output
    row = json.loads(result.stdout)
    assert (row["quote"], row["status"]) == (cached or "", status)
    if reason:
        assert row["reasons"] == [reason]
        assert (f"Warning: {table}: 1 quote cell(s) are formulas with no value saved (first: row 2); they are "
                "reported unverified, not checked") in result.stderr.splitlines()


def test_sources_and_segments_sharing_a_guid_are_all_read_and_named(tmp_path: Path) -> None:
    one = "Maria: We lost 15 volunteers in the first month.\n"
    two = "James: The training was useful, but it was far too short.\n"
    path = tmp_path / "project.qdpx"
    path.write_bytes(hostile_files.qdpx([("SAME", "interview-01.txt", one), ("SAME", "interview-02.txt", two)],
                                        [("S1", 0, 7, 48), ("S1", 1, 7, 57)],
                                        codes=(("C", "staffing"), ("C", "training"))))
    result = _invoke("verify", path, "--no-embed", "--no-cache", "-o", "-")
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(r["quote_id"], r["document"], r["status"]) for r in rows] == [
        ("S1", "interview-01", "verified"), ("S1#2", "interview-02", "verified")]
    warnings = [line for line in result.stderr.splitlines() if line.startswith("Warning:")]
    assert warnings == [
        f"Warning: {path}: codes 'staffing' and 'training' share the GUID C; 'staffing' is taken where it is referred "
        "to; export the project again",
        f"Warning: {path}: sources 'interview-01.txt' and 'interview-02.txt' share the GUID SAME; 'interview-01.txt' is "
        "taken where it is referred to; export the project again",
        f"Warning: {path}: coded segments 1 and 2 share the GUID S1; segment 2 is named 'S1#2'"]


def test_a_manifest_or_a_store_row_of_the_wrong_types_is_one_line(recorded_run: Path, tmp_path: Path) -> None:
    import sqlite3

    folder = tmp_path / "run"
    shutil.copytree(recorded_run, folder)
    manifest = json.loads((folder / "run.json").read_text(encoding="utf-8"))
    manifest["inputs"]["documents"] = [5]
    (folder / "run.json").write_text(json.dumps(manifest), encoding="utf-8")
    for args in (["appendix", folder / "r.jsonl", "--manifest", folder / "run.json"],
                 ["rerun", folder / "run.json", "-o", folder / "again.jsonl"]):
        result = _invoke(*args)
        assert (result.exit_code, result.stderr) == (
            2, f"Error: {folder / 'run.json'}: not a quoteverify manifest (version 1): manifest.documents item must "
               "be a mapping, not 5; give the file written by 'quoteverify verify --manifest FILE'\n")
    store = folder / "s.sqlite"
    assert _invoke("verify", folder / "docs", folder / "quotes.csv", "--no-embed", "--no-cache", "--store",
                   store).exit_code == 0
    with sqlite3.connect(store) as connection:
        connection.execute("UPDATE runs SET corpus = '5'")
        connection.execute("UPDATE results SET confidence = 'high'")
    connection.close()
    result = _invoke("runs", "--store", store)
    assert (result.exit_code, result.stderr) == (
        2, f"Error: {store}: cannot read the runs: a recorded row is damaged (run 1.corpus must be a list, not 5); "
           "record the run again into a new store\n")
    with sqlite3.connect(store) as connection:
        connection.execute("UPDATE runs SET corpus = '[]'")
    connection.close()
    result = _invoke("recheck", "1", folder / "docs", "--store", store, "-o", folder / "e.csv")
    assert (result.exit_code, result.stderr) == (
        2, f"Error: {store}: cannot read run 1: a recorded row is damaged (run 1, result 0.confidence must be a number, "
           "not 'high'); record the run again into a new store\n")


def test_a_password_is_never_written_or_said(tmp_path: Path, corpus_dir: Path, monkeypatch) -> None:
    from quoteverify.terminal import command_line

    quotes = tmp_path / "quotes.csv"
    quotes.write_text("quote\nit was harder than we expected\n", encoding="utf-8")
    result = _invoke("verify", corpus_dir, quotes, "--no-embed", "--store", "nosuchdb://user:hunter2@localhost/db")
    assert result.exit_code == 2 and "hunter2" not in result.stderr
    assert result.stderr.startswith("Error: nosuchdb://user:***@localhost/db: not a database URL quoteverify can use")
    result = _invoke("verify", corpus_dir, quotes, "--no-embed", "--cluster", "tcp://user:hunter2@127.0.0.1:9")
    assert result.exit_code == 2 and "hunter2" not in result.stderr, result.stderr
    monkeypatch.setattr("sys.argv", ["quoteverify", "verify", "docs", "q.csv", "--store",
                                     "postgresql://me:hunter 2@db.example.org/runs", "--manifest", "run.json"])
    assert command_line() == ("quoteverify verify docs q.csv --store 'postgresql://me:***@db.example.org/runs' "
                              "--manifest run.json")


def test_runs_opening_a_new_store_at_once_all_record(tmp_path: Path, corpus_dir: Path) -> None:
    """Several first runs with --record started together make the default store's folder and the tables of
    its new SQLite file at about the same moment (before the fixes, one of six lost its run to '.../quoteverify:
    File exists', and one or more of eight to 'table runs already exists')."""
    import os
    import sqlite3
    import subprocess
    import sys

    quotes = tmp_path / "quotes.csv"
    quotes.write_text("quote\nit was harder than we expected\n", encoding="utf-8")
    data = tmp_path / "new-data-home"
    command = [sys.executable, "-m", "quoteverify", "verify", str(corpus_dir), str(quotes), "--no-embed", "--no-cache",
               "--quiet", "--record"]
    processes = [subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                  env=dict(os.environ, HF_HUB_OFFLINE="1", XDG_DATA_HOME=str(data)))
                 for _ in range(6)]
    errors = [p.communicate(timeout=300)[1] for p in processes]
    assert [p.returncode for p in processes] == [0] * 6, errors
    with sqlite3.connect(data / "quoteverify" / "runs.sqlite") as connection:
        assert connection.execute("SELECT COUNT(*) FROM runs").fetchone()[0] == 6
    connection.close()


# --- round two: the last line of defence --------------------------------------------------------------------


def test_an_unexpected_fault_is_one_line_with_its_own_exit_code(tmp_path: Path, corpus_dir: Path,
                                                                monkeypatch) -> None:
    quotes = tmp_path / "quotes.csv"
    quotes.write_text("quote\nit was harder than we expected\n", encoding="utf-8")

    def broken(*args, **kwargs):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr("quoteverify.pipeline.results.classify", broken)
    result = _invoke("verify", corpus_dir, quotes, "--no-embed", "--no-cache")
    assert (result.exit_code, result.stderr) == (
        3, f"Error: quoteverify verify stopped on an unexpected fault on {corpus_dir}, {quotes} (ZeroDivisionError: "
           "division by zero); this is a bug in quoteverify: please report it as an issue, with this line and the "
           "command (quoteverify --debug ... shows the traceback)\n")
    debug = _invoke("--debug", "verify", corpus_dir, quotes, "--no-embed", "--no-cache")
    assert debug.exit_code == 1 and isinstance(debug.exception, ZeroDivisionError)

    def exhausted(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr("quoteverify.pipeline.results.classify", exhausted)
    result = _invoke("verify", corpus_dir, quotes, "--no-embed", "--no-cache")
    assert (result.exit_code, result.stderr) == (
        3, f"Error: quoteverify verify ran out of memory on {corpus_dir}, {quotes}; give it smaller inputs (the "
           "limits: section of --config bounds what one file may cost) or more memory\n")


@pytest.mark.parametrize("limit, content, message", [
    ("max_quotes: 3", "quote\n" + "it was harder than we expected\n" * 4,
     "{quotes}: refused: more than 3 quotes (limits.max_quotes in --config; each needs some 17 KB of memory while "
     "checked); split the table, or raise the limit"),
    ("max_document_chars: 300", "quote\nit was harder than we expected\n",
     "{docs}/interview-01.txt: refused: its text runs past 300 characters (limits.max_document_chars in --config); "
     "split it, or raise the limit"),
    ("max_quote_chars: 20", "quote\nit was harder than we expected\n", None),
])
def test_large_inputs_stop_at_the_configured_limits(tmp_path: Path, corpus_dir: Path, limit: str, content: str,
                                                    message: str) -> None:
    quotes = tmp_path / "quotes.csv"
    quotes.write_text(content, encoding="utf-8")
    config = tmp_path / "limits.yaml"
    config.write_text(f"limits:\n  {limit}\n", encoding="utf-8")
    result = _invoke("verify", corpus_dir, quotes, "--no-embed", "--no-cache", "--config", config, "-o", "-")
    if message is None:  # a quote over the limit: kept, unverified, with the reason
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["reasons"] == [
            "a quote of 30 characters, more than limits.max_quote_chars (20): not checked; split it into quotes of "
            "its own"]
        return
    assert (result.exit_code, result.stderr) == (2, f"Error: {message.format(quotes=quotes, docs=corpus_dir)}\n")
