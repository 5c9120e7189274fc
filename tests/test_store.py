"""The audit store: a round trip through SQLite (and PostgreSQL when a server can be started), recheck, CLI."""
from __future__ import annotations

import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import unittest.mock
from dataclasses import fields
from datetime import datetime, timezone
from glob import glob
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import NO_EMBED

import quoteverify
from quoteverify.app.repeat import recheck
from quoteverify.app.store import CorpusFile, StoreError, open_store
from quoteverify.cli import main
from quoteverify.export.escalation import escalation_bytes
from quoteverify.model.types import ESCALATION_COLUMNS, Escalation, Quote

QUOTES = [
    {"quote_id": "q1", "quote": "The committee did not approve the budget until March.", "document": "interview-01",
     "speaker": "Maria", "finding": "Funding came late", "finding_confidence": "0.8", "coder": "AB"},
    {"quote_id": "q2", "quote": "We lost 50 volunteers in the first month.", "document": "interview-01",
     "finding": "Volunteers left"},
    {"quote_id": "q3", "quote": "The budget was rejected by the minister because of the paperwork.",
     "document": "interview-01", "speaker": "Maria", "finding": "Funding came late"},
    {"quote_id": "q4", "quote": "", "document": "interview-02"},
]
WHEN = datetime(2026, 3, 1, 9, 30, 15, tzinfo=timezone.utc)


def _as_given(quote: Quote) -> tuple:
    """A quote's fields as the quote table gave them (notes are recomputed on every run)."""
    return tuple(getattr(quote, f.name) for f in fields(Quote) if f.name != "notes")


def round_trip(target: str | Path, documents: Path) -> None:
    """Record a run, read it back whole, and check its low-confidence quotes again."""
    run = quoteverify.run(documents, QUOTES, NO_EMBED)
    with open_store(target) as store:
        run_id = store.record(run, time=WHEN)
        assert store.record(run) == run_id + 1  # ids count up
    with open_store(target, create=False) as store:
        (stored, _) = store.runs()
        assert (stored.run_id, stored.time, stored.version) == (run_id, "2026-03-01T09:30:15+00:00",
                                                                 quoteverify.__version__)
        assert (stored.quotes, stored.verified, stored.review, stored.unverified) == (4, 1, 1, 2)
        assert stored.config == run.config.as_dict()
        assert stored.corpus == tuple(CorpusFile(d.doc_id, d.path, d.sha256) for d in run.documents)
        assert (stored.quotes_sha256, stored.embedder) == ("", None)
        assert store.results(run_id) == run.results
        assert [_as_given(q) for q in store.quotes(run_id)] == [_as_given(q) for q in run.quotes]

        again = recheck(store, run_id, documents)
    assert (again.rechecked, again.changed_documents) == (3, ())
    assert [(e.quote_id, e.recorded_status, e.status) for e in again.escalations] == [
        ("q2", "review", "review"), ("q3", "unverified", "unverified"), ("q4", "unverified", "unverified")]


def test_sqlite_round_trip(corpus_dir: Path, tmp_path: Path) -> None:
    target = tmp_path / "runs.sqlite"
    round_trip(target, corpus_dir)
    assert target.is_file()


def test_recheck_against_changed_documents(corpus_dir: Path, tmp_path: Path) -> None:
    target = tmp_path / "runs.sqlite"
    with open_store(target) as store:
        run_id = store.record(quoteverify.run(corpus_dir, QUOTES, NO_EMBED))
    # The source now holds q3, and interview-03 is gone.
    with open(corpus_dir / "interview-01.txt", "a", encoding="utf-8", newline="") as handle:
        handle.write("Maria: The budget was rejected by the minister because of the paperwork.\n")
    (corpus_dir / "interview-03.txt").unlink()
    with open_store(target, create=False) as store:
        checked = recheck(store, run_id, corpus_dir, below=0.6)
    assert (checked.run_id, checked.below, checked.rechecked) == (run_id, 0.6, 3)
    assert checked.changed_documents == ("interview-01 (changed)", "interview-03 (gone)")
    q2, q4 = checked.escalations
    assert q2 == Escalation(
        run_id=run_id, quote_id="q2", row=2, quote="We lost 50 volunteers in the first month.",
        claimed_document="interview-01", finding="Volunteers left", recorded_status="review",
        recorded_confidence=q2.recorded_confidence, status="review", match_type="altered",
        confidence=q2.confidence, document="interview-01", start=q2.start, end=q2.end,
        reasons=("number differs: quote says '50', source says '15'",), suggestion="")
    assert (q4.quote_id, q4.status, q4.reasons) == ("q4", "unverified", ("empty quote: nothing to verify",))
    assert json.loads(escalation_bytes(checked.escalations, suffix=".json"))[0]["reasons"] == list(q2.reasons)
    header, first = escalation_bytes(checked.escalations, suffix=".csv").decode().split("\r\n")[:2]
    assert tuple(header.split(",")) == ESCALATION_COLUMNS
    assert first.startswith(f"{run_id},q2,2,We lost 50 volunteers in the first month.,interview-01,")


def test_a_store_from_an_older_version_gains_the_new_columns(corpus_dir: Path, tmp_path: Path) -> None:
    target = tmp_path / "runs.sqlite"
    run = quoteverify.run(corpus_dir, QUOTES, NO_EMBED)
    with open_store(target) as store:
        old = store.record(run)
    with sqlite3.connect(target) as connection:  # as if recorded before QuoteResult had finding_confidence
        connection.execute("ALTER TABLE results DROP COLUMN finding_confidence")
    with open_store(target) as store:
        new = store.record(run)
        assert store.results(new) == run.results
        assert [r.finding_confidence for r in store.results(old)] == [None] * 4


def test_missing_store_and_run_say_how_to_fix_them(tmp_path: Path) -> None:
    target = tmp_path / "runs.sqlite"
    with pytest.raises(StoreError) as error:
        open_store(target, create=False)
    assert str(error.value) == (f"{target}: no audit store here yet; record a run into it with "
                                f"'quoteverify verify DOCS... QUOTES --store {target}'")
    assert not target.exists()
    with open_store(target) as store, pytest.raises(StoreError) as error:
        store.results(7)
    assert str(error.value) == (f"{target}: no run 7 here; 'quoteverify runs --store {target}' lists the runs "
                                "recorded")
    with pytest.raises(StoreError) as error:
        open_store(tmp_path / "no" / "runs.sqlite")
    assert str(error.value) == (f"{tmp_path / 'no' / 'runs.sqlite'}: folder {tmp_path / 'no'} does not exist; "
                                "create it or choose another path")


def test_a_bad_url_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(StoreError) as error:
        open_store("sqlite:///" + str(tmp_path / "missing" / "x.sqlite"))
    assert str(error.value).startswith(f"sqlite:///{tmp_path}/missing/x.sqlite: cannot open the store (")
    assert "\n" not in str(error.value)


# --- the command line -----------------------------------------------------------------------------


def invoke(*args, env=None):
    return CliRunner(env=env).invoke(main, [str(a) for a in args], catch_exceptions=False)


@pytest.fixture
def quotes_csv(tmp_path: Path) -> Path:
    path = tmp_path / "quotes.csv"
    path.write_text("quote_id,quote,document,speaker\n" + "".join(
        f"{q['quote_id']},{q['quote']},{q['document']},{q.get('speaker', '')}\n" for q in QUOTES), encoding="utf-8")
    return path


def test_verify_records_and_runs_lists_and_recheck_escalates(corpus_dir: Path, quotes_csv: Path,
                                                             tmp_path: Path) -> None:
    target = tmp_path / "runs.sqlite"
    verified = invoke("verify", corpus_dir, quotes_csv, "--no-embed", "--no-cache", "-o", tmp_path / "r.jsonl",
                      "--store", target)
    assert verified.exit_code == 0, verified.output
    assert f"Recorded as run 1 in {target}\n" in verified.stderr

    listed = invoke("runs", "--store", target)
    assert listed.exit_code == 0, listed.output
    header, row = listed.stdout.splitlines()
    assert header.split() == ["run", "time", "(UTC)", "version", "quotes", "verified", "review", "unverified",
                              "documents", "embedder"]
    assert row.split()[0] == "1" and row.split()[2:] == [quoteverify.__version__, "4", "1", "1", "2", "4", "none"]

    escalation = tmp_path / "escalation.json"
    checked = invoke("recheck", "1", corpus_dir, "--store", target, "-o", escalation)
    assert checked.exit_code == 0, checked.output
    assert checked.stderr.endswith(f"Rechecked 3 quotes of run 1 below 0.6: 3 still below, written to "
                                   f"{escalation}\n")
    assert [e["quote_id"] for e in json.loads(escalation.read_text(encoding="utf-8"))] == ["q2", "q3", "q4"]


def test_record_uses_the_default_store(corpus_dir: Path, quotes_csv: Path, tmp_path: Path) -> None:
    env = {"XDG_DATA_HOME": str(tmp_path / "data")}
    default = tmp_path / "data" / "quoteverify" / "runs.sqlite"
    missing = invoke("runs", env=env)
    assert missing.exit_code == 2
    assert missing.stderr == (f"Error: {default}: no audit store here yet; record a run into it with "
                              "'quoteverify verify DOCS... QUOTES --record'\n")
    verified = invoke("verify", corpus_dir, quotes_csv, "--no-embed", "--no-cache", "-o", tmp_path / "r.jsonl",
                      "--record", env=env)
    assert verified.exit_code == 0, verified.output
    assert default.is_file()
    assert invoke("runs", env=env).stdout.splitlines()[1].split()[0] == "1"


@pytest.mark.parametrize("args, message", [
    (["recheck", "9", "{docs}", "--store", "{store}", "-o", "{tmp}/e.csv"],
     "Error: {store}: no run 9 here; 'quoteverify runs --store {store}' lists the runs recorded\n"),
    (["recheck", "1", "{docs}", "--store", "{store}", "-o", "{tmp}/e.xlsx"],
     "Error: -o {tmp}/e.xlsx: unknown output format '.xlsx'; use .csv, .json\n"),
    (["verify", "{docs}", "{quotes}", "--store", "{store}", "--record"],
     "Error: give --store TARGET or --record (the default store), not both\n"),
])
def test_store_errors_are_one_line(corpus_dir: Path, quotes_csv: Path, tmp_path: Path, args, message) -> None:
    target = tmp_path / "runs.sqlite"
    open_store(target).close()
    values = {"docs": corpus_dir, "store": target, "tmp": tmp_path, "quotes": quotes_csv}
    result = invoke(*[a.format(**values) for a in args])
    assert result.exit_code == 2
    assert result.stderr == message.format(**values)


# --- PostgreSQL, when a server can be started -----------------------------------------------------


def _postgres_binaries() -> Path | None:
    """The folder holding initdb and pg_ctl: Debian's /usr/lib/postgresql/*/bin, else the PATH."""
    folders = sorted(glob("/usr/lib/postgresql/*/bin"), key=lambda f: int(Path(f).parent.name), reverse=True)
    on_path = shutil.which("pg_ctl")
    for folder in [Path(f) for f in folders] + ([Path(on_path).parent] if on_path else []):
        if (folder / "initdb").is_file() and (folder / "pg_ctl").is_file():
            return folder
    return None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def postgres_url(tmp_path: Path):
    """A throwaway PostgreSQL server on a free localhost port, its cluster and socket in a temporary folder."""
    pytest.importorskip("psycopg", reason="the PostgreSQL driver psycopg is not installed (pip install -e '.[test]')")
    binaries = _postgres_binaries()
    if binaries is None:
        pytest.skip("PostgreSQL is not installed (no initdb/pg_ctl; Debian package 'postgresql')")
    folder, as_user = tmp_path, []
    if os.geteuid() == 0:
        # PostgreSQL refuses to run as root: run it as the 'postgres' user, in a folder it may enter
        # (tmp_path lies inside root's private pytest folder).
        import pwd

        runuser = shutil.which("runuser")
        try:
            user = pwd.getpwnam("postgres")
        except KeyError:
            user = None
        if user is None or runuser is None:
            pytest.skip("running as root, and there is no 'postgres' user or no runuser to start PostgreSQL as")
        folder = Path(tempfile.mkdtemp(prefix="quoteverify-pg-"))
        os.chown(folder, user.pw_uid, user.pw_gid)
        as_user = [runuser, "-u", "postgres", "--"]

    def postgres(program: str, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([*as_user, str(binaries / program), *args], capture_output=True, text=True,
                              timeout=120)

    data, port = folder / "data", _free_port()
    try:
        made = postgres("initdb", "-D", str(data), "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8")
        if made.returncode != 0:
            pytest.skip(f"initdb failed: {made.stderr.strip()[-500:]}")
        started = postgres("pg_ctl", "-D", str(data), "-l", str(folder / "server.log"), "-w", "-t", "60", "-o",
                           f"-p {port} -k {folder} -c listen_addresses=localhost -c fsync=off", "start")
        if started.returncode != 0:
            log = (folder / "server.log").read_text(errors="replace") if (folder / "server.log").exists() else ""
            pytest.skip(f"the PostgreSQL server did not start: {(started.stderr + log).strip()[-500:]}")
        try:
            yield f"postgresql://postgres@localhost:{port}/postgres"
        finally:
            postgres("pg_ctl", "-D", str(data), "-m", "fast", "-w", "stop")
    finally:
        if folder != tmp_path:
            shutil.rmtree(folder, ignore_errors=True)


def test_postgresql_round_trip(postgres_url: str, corpus_dir: Path) -> None:
    round_trip(postgres_url, corpus_dir)
    with open_store(postgres_url) as store:
        assert store.location == postgres_url
        assert store.engine.dialect.name == "postgresql"


def test_a_store_password_is_never_written(postgres_url: str, corpus_dir: Path, tmp_path: Path) -> None:
    """The manifest records the command line, the store its run: neither holds the password (the server trusts
    any, so the run is recorded)."""
    with_password = postgres_url.replace("postgres@", "postgres:hunter2@", 1)
    quotes = tmp_path / "quotes.csv"
    quotes.write_text("quote\nit was harder than we expected\n", encoding="utf-8")
    manifest = tmp_path / "run.json"
    argv = ["quoteverify", "verify", str(corpus_dir), str(quotes), "--no-embed", "--store", with_password,
            "--manifest", str(manifest)]
    with unittest.mock.patch("sys.argv", argv):
        result = CliRunner().invoke(main, argv[1:])
    assert result.exit_code == 0, result.output
    masked = with_password.replace("hunter2", "***")
    assert json.loads(manifest.read_text(encoding="utf-8"))["command"].endswith(
        f"--store '{masked}' --manifest {manifest}")
    assert "hunter2" not in manifest.read_text(encoding="utf-8") and "hunter2" not in result.stderr
    assert f"Recorded as run 1 in {masked}" in result.stderr


def test_a_password_never_shows_in_messages() -> None:
    pytest.importorskip("psycopg")
    with pytest.raises(StoreError) as error:
        open_store("postgresql://user:secret@127.0.0.1:1/db")
    assert str(error.value).startswith("postgresql://user:***@127.0.0.1:1/db: cannot open the store (")
    assert "secret" not in str(error.value)


def test_help_does_not_import_sqlalchemy() -> None:
    code = ("import sys; from quoteverify.cli import main\n"
            "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in ('sqlalchemy', 'torch') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines()[-1] == "[]"
