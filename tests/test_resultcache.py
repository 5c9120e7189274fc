"""The per-quote result cache: a re-run redoes only the quotes that can change, and a
damaged cache never gives a wrong result."""
from __future__ import annotations

import hashlib
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from conftest import NO_EMBED, TINY_CORPUS, FakeEmbedder

import quoteverify
from quoteverify.model.rows import jsonl_bytes
from quoteverify.search.align import Aligner

# One verbatim quote (the fast path settles it) and five the aligner works on (v2 is found elsewhere than claimed).
QUOTES = [
    {"quote_id": "v1", "quote": "it was harder than we expected", "document": "interview-01"},
    {"quote_id": "v2", "quote": "The training was useful, but it was far too short.", "document": "interview-01"},
    {"quote_id": "f1", "quote": "We lost 50 volunteers in the first month", "document": "interview-01"},
    {"quote_id": "f2", "quote": "The council sent a helicopter, but it arrived two days later"},
    {"quote_id": "f3", "quote": "Nobody here ever talked about the harvest at all."},
    {"quote_id": "f4", "quote": "the managers said they would send extra staff and they did"},
]


@pytest.fixture
def aligned(monkeypatch) -> list[str]:
    """The text of every quote the aligner (the slow path) works on."""
    seen: list[str] = []
    original = Aligner.align

    def align(self, pq, prefer_doc=None, speaker=""):
        seen.append(pq.text)
        return original(self, pq, prefer_doc, speaker)

    monkeypatch.setattr(Aligner, "align", align)
    return seen


def _run(tmp_path: Path, quotes=QUOTES, corpus=TINY_CORPUS, cache: bool = True):
    return quoteverify.run(corpus, quotes, NO_EMBED, cache_dir=tmp_path / "cache" if cache else None)


def _database(tmp_path: Path) -> Path:
    return tmp_path / "cache" / "embeddings.sqlite"


def _rows_of(tmp_path: Path, sql: str) -> list[tuple]:
    with closing(sqlite3.connect(_database(tmp_path))) as db:
        return db.execute(sql).fetchall()


def _rows(tmp_path: Path, table: str = "results") -> list[tuple[str, bytes, str]]:
    """The rows of a table of kept results (``results`` or ``runs``): key, payload, checksum, by key."""
    return _rows_of(tmp_path, f"SELECT key, payload, checksum FROM {table} ORDER BY key")


def _write(tmp_path: Path, sql: str, rows: list[tuple]) -> None:
    with closing(sqlite3.connect(_database(tmp_path))) as db, db:
        db.executemany(sql, rows)


def _checksum(scope: str, key: str, payload: bytes) -> str:
    """A row's checksum as the cache's database computes it (quoteverify.plumbing.database)."""
    return hashlib.sha256(f"{scope}\x00{key}\x00".encode() + payload).hexdigest()[:32]


def test_a_rerun_aligns_nothing_and_gives_the_same_bytes(tmp_path: Path, aligned: list[str]) -> None:
    first = _run(tmp_path)
    assert len(aligned) == 5
    aligned.clear()
    second = _run(tmp_path)
    assert aligned == [] and len(_rows(tmp_path)) == 6 and len(_rows(tmp_path, "runs")) == 1
    assert jsonl_bytes(second.results) == jsonl_bytes(first.results) == jsonl_bytes(_run(tmp_path, cache=False).results)


def test_an_edited_quote_is_the_only_one_aligned_again(tmp_path: Path, aligned: list[str]) -> None:
    _run(tmp_path)
    edited = [dict(q) for q in QUOTES]
    edited[3]["quote"] = "The council sent a helicopter, but it arrived three days later"
    aligned.clear()
    rerun = _run(tmp_path, edited)
    assert len(aligned) == 1 and "three days" in aligned[0]
    assert jsonl_bytes(rerun.results) == jsonl_bytes(_run(tmp_path, edited, cache=False).results)


def test_an_edited_document_aligns_the_non_verbatim_quotes_again(tmp_path: Path, aligned: list[str],
                                                                 monkeypatch) -> None:
    # BM25 weights (and bm25_score) depend on every document: the slow path's results may all change.
    # A verbatim quote's result reads only the document it is in.
    from quoteverify.pipeline import stages as pipeline

    compared: list[str] = []
    original = pipeline.compare
    monkeypatch.setattr(pipeline, "compare", lambda pq, *a, **k: compared.append(pq.text) or original(pq, *a, **k))
    _run(tmp_path)
    assert len(compared) == 6
    corpus = dict(TINY_CORPUS, **{"meeting-01": TINY_CORPUS["meeting-01"] + "\nMarketing: Fifty volunteers left.\n"})
    aligned.clear()
    compared.clear()
    rerun = _run(tmp_path, corpus=corpus)
    assert len(aligned) == 5 and len(compared) == 5 and QUOTES[0]["quote"] not in compared
    assert jsonl_bytes(rerun.results) == jsonl_bytes(_run(tmp_path, corpus=corpus, cache=False).results)
    compared.clear()
    _run(tmp_path, corpus=dict(corpus, **{"interview-01": corpus["interview-01"].replace("We lost", "We had lost")}))
    assert QUOTES[0]["quote"] in compared


@pytest.mark.parametrize(("column", "damage"), [
    ("payload", lambda raw: raw[:-5] + b"xxxxx"),  # payload changed: checksum mismatch
    ("payload", lambda raw: raw[:40]),  # truncated
    ("payload", lambda raw: b""),  # emptied
    ("payload", lambda raw: raw.replace(b'"status": "', b'"status": "verified", "x": "', 1)),  # a field added
    ("payload", lambda raw: raw.decode()),  # stored as text, not as bytes
    ("payload", lambda raw: None),
    ("checksum", lambda checksum: "0" * 32),
    ("checksum", lambda checksum: None),
])
def test_a_damaged_entry_is_discarded_with_a_warning(tmp_path: Path, aligned: list[str], column: str,
                                                     damage) -> None:
    first = _run(tmp_path)
    rows = _rows(tmp_path)
    assert len(rows) == 6
    _write(tmp_path, f"UPDATE results SET {column} = ? WHERE key = ?",
           [(damage(payload if column == "payload" else checksum), key) for key, payload, checksum in rows])
    aligned.clear()
    second = _run(tmp_path)
    assert len(aligned) == 5
    assert jsonl_bytes(second.results) == jsonl_bytes(first.results)
    assert second.warnings == [f"result cache: 6 damaged entries in {_database(tmp_path)} discarded; "
                               "those quotes were checked again"]
    assert _rows(tmp_path) == rows  # each written again, as it was
    aligned.clear()
    third = _run(tmp_path)
    assert aligned == [] and third.warnings == []


def test_one_damaged_entry_is_one_warning(tmp_path: Path, aligned: list[str]) -> None:
    first = _run(tmp_path)
    key, payload, _ = _rows(tmp_path)[2]
    _write(tmp_path, "UPDATE results SET payload = ? WHERE key = ?", [(payload[:-1], key)])
    aligned.clear()
    second = _run(tmp_path)
    assert len(aligned) <= 1 and jsonl_bytes(second.results) == jsonl_bytes(first.results)
    assert second.warnings == [f"result cache: 1 damaged entry in {_database(tmp_path)} discarded; "
                               "those quotes were checked again"]


def test_another_quotes_intact_entry_under_this_key_is_discarded(tmp_path: Path) -> None:
    first = _run(tmp_path)
    rows = _rows(tmp_path)
    (key, _, _), (_, other, other_checksum) = rows[0], rows[1]
    assert other != rows[0][1]
    _write(tmp_path, "UPDATE results SET payload = ?, checksum = ? WHERE key = ?", [(other, other_checksum, key)])
    second = _run(tmp_path)
    assert jsonl_bytes(second.results) == jsonl_bytes(first.results)
    assert second.warnings == [f"result cache: 1 damaged entry in {_database(tmp_path)} discarded; "
                               "those quotes were checked again"]
    assert _rows(tmp_path) == rows


@pytest.mark.parametrize("payload", [
    b'{"status": "verified"}',  # a result's fields missing
    b'["verified"]',  # not an object
    b'{"status": ',  # not JSON
    b"\xff\xfe",  # not UTF-8
])
def test_a_forged_entry_with_a_matching_checksum_but_wrong_fields_is_discarded(tmp_path: Path,
                                                                               payload: bytes) -> None:
    from quoteverify.plumbing.database import CacheDatabase

    first = _run(tmp_path)
    rows = _rows(tmp_path)
    key = rows[0][0]
    _write(tmp_path, "UPDATE results SET payload = ?, checksum = ? WHERE key = ?",
           [(payload, _checksum("results", key, payload), key)])
    # The checksum holds: what is discarded is the payload that is not a result.
    database = CacheDatabase(tmp_path / "cache", print, print, lambda: False)
    assert database.load_kept("results", [key]) == ({key: payload}, [])
    second = _run(tmp_path)
    assert jsonl_bytes(second.results) == jsonl_bytes(first.results)
    assert second.warnings == [f"result cache: 1 damaged entry in {_database(tmp_path)} discarded; "
                               "those quotes were checked again"]
    assert _rows(tmp_path) == rows


def test_without_a_cache_folder_nothing_is_kept(tmp_path: Path, aligned: list[str]) -> None:
    _run(tmp_path, cache=False)
    aligned.clear()
    _run(tmp_path, cache=False)
    assert len(aligned) == 5
    assert not (tmp_path / "cache").exists()


@pytest.mark.parametrize("block", ["database", "cache folder"])
def test_a_cache_that_cannot_be_written_only_costs_time(tmp_path: Path, aligned: list[str], block: str) -> None:
    """A folder where the database should be, a file where the cache folder should be: every quote is checked
    again each run, and the one warning is the cache's own."""
    if block == "database":
        _database(tmp_path).mkdir(parents=True)
    else:
        (tmp_path / "cache").write_text("not a folder")
    first = _run(tmp_path)
    aligned.clear()
    second = _run(tmp_path)
    assert len(aligned) == 5
    assert jsonl_bytes(second.results) == jsonl_bytes(first.results) == jsonl_bytes(_run(tmp_path, cache=False).results)
    [warning] = second.warnings
    assert warning.startswith(f"cache folder {tmp_path / 'cache'} cannot be written (") and first.warnings == [warning]


def test_the_results_folder_of_an_earlier_version_is_not_read(tmp_path: Path, aligned: list[str]) -> None:
    """Versions before 4 kept one file per entry under results/: left alone, neither read nor written."""
    old = tmp_path / "cache" / "results" / "ab" / f"ab{'0' * 30}.json"
    old.parent.mkdir(parents=True)
    old.write_bytes(b"checksum\n{}")
    first = _run(tmp_path)
    assert len(aligned) == 5 and first.warnings == []
    assert [p.relative_to(tmp_path / "cache" / "results") for p in (tmp_path / "cache" / "results").rglob("*")] == [
        Path("ab"), old.relative_to(tmp_path / "cache" / "results")]


def test_a_database_of_an_earlier_version_gains_the_tables_and_keeps_its_rows(tmp_path: Path,
                                                                               aligned: list[str]) -> None:
    _run(tmp_path)
    languages = _rows_of(tmp_path, "SELECT * FROM languages")
    _write(tmp_path, "DROP TABLE IF EXISTS results", [()])
    _write(tmp_path, "DROP TABLE IF EXISTS runs", [()])
    aligned.clear()
    first = _run(tmp_path)
    assert len(aligned) == 5 and first.warnings == [] and len(_rows(tmp_path)) == 6
    assert _rows_of(tmp_path, "SELECT * FROM languages") == languages
    aligned.clear()
    assert jsonl_bytes(_run(tmp_path).results) == jsonl_bytes(first.results) and aligned == []


class _Warming(FakeEmbedder):
    """A fake model that counts the runs that began to load it in the background."""

    def __init__(self) -> None:
        super().__init__()
        self.warmed = 0

    def warm(self) -> None:
        self.warmed += 1


def test_a_rerun_that_checks_nothing_again_does_not_load_the_model(tmp_path: Path) -> None:
    """A run begins to load the model at its start, unless a run of the same inputs kept every result (then
    no quote needs it), or a run on the same documents with the same settings kept most (a re-run: the few
    quotes left load it only if one needs a cosine); another setting, or no cache, loads it again."""
    embedder = _Warming()

    def run(quotes=QUOTES, config=None, cache: Path | None = tmp_path / "cache"):
        return quoteverify.run(TINY_CORPUS, quotes, config, embedder=embedder, cache_dir=cache)

    first = run()
    assert embedder.warmed == 1
    assert jsonl_bytes(run().results) == jsonl_bytes(first.results) and embedder.warmed == 1
    edited = [dict(q) for q in QUOTES]
    edited[2]["quote"] = "We lost 60 volunteers in the first month"
    entries = set(_rows(tmp_path))
    run(edited)
    assert embedder.warmed == 1  # one quote left to check, after the kept results were read: fewer than 50
    run(edited)
    assert embedder.warmed == 1
    (new_entry,) = set(_rows(tmp_path)) - entries  # the edited quote's
    _write(tmp_path, "DELETE FROM results WHERE key = ?", [new_entry[:1]])
    run(edited)
    assert embedder.warmed == 1
    run(edited, {"verdict": {"min_match_ratio": 0.61}})
    assert embedder.warmed == 2
    run(cache=None)
    assert embedder.warmed == 3


@pytest.mark.parametrize(("language", "warmed"), [("auto", 1), ("en", 1), ("de", 0)])
def test_the_model_begins_to_load_only_when_a_language_it_was_trained_for_is_there(language: str, warmed: int
                                                                                    ) -> None:
    """The English model is not loaded in the background for documents and quotes all in German: no cosine
    would be asked of it (the results are those of a run that loads it)."""
    embedder = _Warming()
    run = quoteverify.run(TINY_CORPUS, QUOTES, {"language": {"code": language}}, embedder=embedder)
    assert embedder.warmed == warmed
    assert len(run.results) == len(QUOTES)


def test_a_recorded_run_is_replayed_without_preparing_the_documents(tmp_path: Path, monkeypatch) -> None:
    """A run of the same inputs whose results are all kept reads them back in order, with the windows and the
    label warnings of the run that made them, and prepares nothing; any other run prepares as before."""
    from quoteverify.pipeline import stages

    corpus = dict(TINY_CORPUS, **{"notes": "Agenda: budget\nMs Novak: we agreed.\nSpeaker #1: the rest\n"})
    quotes = [*QUOTES, {"quote_id": "n1", "quote": "the rest", "document": "notes", "speaker": "Ms Novak"},
              {"quote_id": "blank", "quote": ""}]
    first = _run(tmp_path, quotes, corpus)
    assert any("Speaker #1" in w for w in first.warnings)
    prepared: list[int] = []
    original = stages.prepare
    monkeypatch.setattr(stages, "prepare", lambda *a, **k: prepared.append(1) or original(*a, **k))
    again = _run(tmp_path, quotes, corpus)
    assert prepared == []
    assert jsonl_bytes(again.results) == jsonl_bytes(first.results)
    assert (again.warnings, again.windows, again.quotes) == (first.warnings, first.windows, first.quotes)
    _run(tmp_path, quotes[:-1], corpus)  # other inputs: checked, from the kept entries
    assert prepared == [1]


@pytest.mark.parametrize("damage", [
    lambda raw, key: (raw[:-3] + b"]}}", None),  # the record changed: checksum mismatch
    lambda raw, key: (raw[:30], None),  # truncated
    lambda raw, key: (b"", None),  # emptied
    lambda raw, key: (raw, "0" * 32),  # its checksum changed
    lambda raw, key: (b'{"keys": []}', _checksum("runs", key, b'{"keys": []}')),  # forged: fields missing
    lambda raw, key: (b'{"keys": ', _checksum("runs", key, b'{"keys": ')),  # forged: not JSON
])
def test_a_damaged_run_record_only_costs_time(tmp_path: Path, aligned: list[str], damage) -> None:
    first = _run(tmp_path)
    [(key, payload, checksum)] = _rows(tmp_path, "runs")
    payload, forged = damage(payload, key)
    _write(tmp_path, "UPDATE runs SET payload = ?, checksum = ? WHERE key = ?", [(payload, forged or checksum, key)])
    second = _run(tmp_path)
    assert jsonl_bytes(second.results) == jsonl_bytes(first.results) and second.warnings == first.warnings
    assert aligned == [QUOTES[k]["quote"] for k in range(1, 6)]  # the first run's; the second reused its entries
    assert len(_rows(tmp_path, "runs")) == 1  # the record written again
    _run(tmp_path)
    assert len(aligned) == 5


def test_a_run_whose_entry_is_lost_is_checked_again(tmp_path: Path, aligned: list[str]) -> None:
    first = _run(tmp_path)
    lost = _rows(tmp_path)[0]
    _write(tmp_path, "DELETE FROM results WHERE key = ?", [lost[:1]])
    aligned.clear()
    second = _run(tmp_path)
    assert len(aligned) <= 1 and jsonl_bytes(second.results) == jsonl_bytes(first.results)
    assert second.warnings == [] and lost in _rows(tmp_path)


# --- several processes writing one cache at once ----------------------------------------------------


def _processes(target, arguments: list[tuple]) -> list:
    """Run ``target(barrier, queue, p, *arguments[p])`` in one forked process each, all at once; what each put
    on the queue, by process."""
    import multiprocessing

    context = multiprocessing.get_context("fork")
    barrier, queue = context.Barrier(len(arguments)), context.Queue()
    # Daemons, ended below if they hang: a test that fails does not hold up the session.
    processes = [context.Process(target=target, args=(barrier, queue, p, *args), daemon=True)
                 for p, args in enumerate(arguments)]
    try:
        for process in processes:
            process.start()
        out = dict(queue.get(timeout=300) for _ in processes)
        for process in processes:
            process.join(timeout=60)
            assert process.exitcode == 0
    finally:
        for process in processes:
            if process.is_alive():
                process.terminate()
    return [out[p] for p in range(len(arguments))]


# Languages told, not detected: lingua's parallel detection hangs in a process forked from one that used it.
_TOLD = {**NO_EMBED, "language": {"code": "en"}}


def _run_twice(barrier, queue, p: int, cache: Path, quotes: list[dict]) -> None:
    try:
        shas = []
        for _ in range(2):  # a cold run, all writing; then each run replays while the others write their records
            barrier.wait(timeout=120)
            done = quoteverify.run(TINY_CORPUS, quotes, _TOLD, cache_dir=cache)
            shas.append((hashlib.sha256(jsonl_bytes(done.results)).hexdigest(), done.warnings))
        queue.put((p, shas))
    except BaseException as exc:
        queue.put((p, repr(exc)))


def test_many_processes_running_on_one_cache_at_once_all_give_the_right_results(tmp_path: Path) -> None:
    """Runs sharing a cache (a cluster's workers, several commands) write its results at once: each waits for
    the others' transactions; none fails, none reads a result that is not its own."""
    runs = []
    for p in range(6):
        quotes = list(QUOTES)  # the same entries, and the same run (its record) or another
        if p % 2:
            quotes.append({"quote_id": f"own{p}", "quote": f"we lost {p} boats in the flood", "document": "meeting-01"})
        runs.append((tmp_path / "cache", quotes))
    done = _processes(_run_twice, runs)
    expected = [(hashlib.sha256(jsonl_bytes(quoteverify.run(TINY_CORPUS, quotes, _TOLD).results)).hexdigest(), [])
                for _, quotes in runs]
    assert done == [[e, e] for e in expected]
    assert len(_rows(tmp_path)) == 6 + 3 and len(_rows(tmp_path, "runs")) == 1 + 3


def _save_and_load(barrier, queue, p: int, cache: Path, results: list, rounds: int) -> None:
    from quoteverify.plumbing.resultcache import ResultCache

    try:
        wrong = []
        for r in range(rounds):
            kept = ResultCache(cache, run=f"run-{p}-{r}")
            # Keys every process writes (the same result under each), and keys of this process alone.
            mine = {f"shared-{k}": results[k % len(results)] for k in range(300)}
            mine.update({f"own-{p}-{r}-{k}": results[(k + p) % len(results)] for k in range(50)})
            barrier.wait(timeout=120)
            kept.save(mine, run=list(mine))
            kept.keep_run(windows=p, warnings=[f"process {p}"], layouts={})
            replayed = kept.replay()
            if replayed is None or [x.to_dict() for x in replayed.results] != [x.to_dict() for x in mine.values()]:
                wrong.append(r)
            if kept.warnings or replayed is None or (replayed.windows, replayed.warnings) != (p, [f"process {p}"]):
                wrong.append((r, kept.warnings))
        queue.put((p, wrong))
    except BaseException as exc:
        queue.put((p, repr(exc)))


def test_many_processes_saving_the_same_results_at_once_lose_and_mix_up_nothing(tmp_path: Path) -> None:
    from quoteverify.plumbing.resultcache import ResultCache

    results = _run(tmp_path, cache=False).results
    processes, rounds = 8, 6
    assert _processes(_save_and_load, [(tmp_path / "cache", results, rounds)] * processes) == [[]] * processes
    rows = _rows(tmp_path)
    assert len(rows) == 300 + processes * rounds * 50 and len(_rows(tmp_path, "runs")) == processes * rounds
    everything = {key: results[int(key.rsplit("-", 1)[1]) % len(results)] for key, _, _ in rows if key[0] == "s"}
    everything.update({key: results[(int(key.split("-")[3]) + int(key.split("-")[1])) % len(results)]
                       for key, _, _ in rows if key[0] == "o"})
    kept = ResultCache(tmp_path / "cache")
    found = kept.load(dict(enumerate(everything)))
    assert [found[k].to_dict() for k in range(len(everything))] == [x.to_dict() for x in everything.values()]
    assert kept.warnings == []
