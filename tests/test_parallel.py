"""Quotes aligned in worker processes give exactly the results of one process."""
from __future__ import annotations

import multiprocessing
import os
import signal
import time

import pytest
from conftest import TINY_CORPUS

import quoteverify
from quoteverify.model.rows import jsonl_bytes
from quoteverify.pipeline import parallel


def _square(x: int) -> int:
    return x * x


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_ordered_map_keeps_order_and_reports_progress(monkeypatch, workers: int) -> None:
    monkeypatch.setattr(parallel, "MIN_ITEMS", 1)
    seen: list[int] = []
    assert parallel.ordered_map(_square, list(range(50)), workers=workers, on_done=seen.append) == \
        [x * x for x in range(50)]
    assert seen[-1] == 50 and seen == sorted(seen)


@pytest.mark.parametrize("workers", [1, 2])
def test_ordered_chunks_come_back_in_order_chunk_by_chunk(monkeypatch, workers: int) -> None:
    monkeypatch.setattr(parallel, "MIN_ITEMS", 1)
    parts = list(parallel.ordered_chunks(_square, list(range(20)), workers=workers, chunk=8))
    assert [x for part in parts for x in part] == [x * x for x in range(20)]
    assert [len(part) for part in parts] == ([8, 8, 4] if workers > 1 else [1] * 20)


def _workers() -> list[multiprocessing.process.BaseProcess]:
    return [p for p in multiprocessing.active_children() if p.name == "quoteverify-worker"]


def test_worker_errors_reach_the_caller(monkeypatch) -> None:
    monkeypatch.setattr(parallel, "MIN_ITEMS", 1)
    with pytest.raises(ZeroDivisionError) as raised:
        parallel.ordered_map(lambda x: 1 // x, [1, 0, 2] * 20, workers=2)
    assert isinstance(raised.value.__cause__, parallel.RemoteTraceback)  # where it was raised, in the worker
    assert "ZeroDivisionError" in str(raised.value.__cause__) and "in _work" in str(raised.value.__cause__)
    assert _workers() == []


def _killed_on_zero(x: int) -> int:
    if x == 0:
        os.kill(os.getpid(), signal.SIGKILL)  # as the kernel ends a process out of memory
    return x


def test_a_worker_that_dies_is_an_error_at_once_not_a_wait(monkeypatch) -> None:
    monkeypatch.setattr(parallel, "MIN_ITEMS", 1)
    with pytest.raises(RuntimeError) as raised:
        parallel.ordered_map(_killed_on_zero, [1, 0, 2] * 20, workers=2)
    assert str(raised.value) == ("a worker process was killed (signal 9, out of memory?) before it sent back "
                                 "its work")
    assert _workers() == []


def _stuck_on_one(x: int) -> int:
    if x == 1:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        time.sleep(600)
    return 1 // x


def test_workers_still_busy_when_another_fails_are_ended_within_seconds(monkeypatch) -> None:
    """One worker fails while the other is held up (and ignores SIGTERM): the failure is raised at once, and the
    other is killed STOP_SECONDS later, not waited for."""
    monkeypatch.setattr(parallel, "MIN_ITEMS", 1)
    started = time.monotonic()
    with pytest.raises(ZeroDivisionError):
        parallel.ordered_map(_stuck_on_one, [0, 1, 2, 3], workers=2, chunk=1)
    assert time.monotonic() - started < parallel.STOP_SECONDS + 20
    assert _workers() == []


def test_a_caller_that_stops_reading_ends_the_workers(monkeypatch) -> None:
    monkeypatch.setattr(parallel, "MIN_ITEMS", 1)
    parts = parallel.ordered_chunks(_square, list(range(400)), workers=2, chunk=4)
    assert next(parts) == [0, 1, 4, 9]
    assert len(_workers()) == 2
    parts.close()
    assert _workers() == []


def test_parallel_run_is_byte_identical(monkeypatch) -> None:
    """Quotes looked up word for word, compared, aligned and their results built in workers."""
    from quoteverify.pipeline import stages

    monkeypatch.setattr(parallel, "MIN_ITEMS", 1)
    monkeypatch.setattr(stages, "EXACT_PARALLEL", 1)
    seen: list[int] = []
    ordered_map = parallel.ordered_map
    monkeypatch.setattr(stages, "ordered_map", lambda task, items, **k: seen.append(len(items)) or ordered_map(
        task, items, **k))
    words = " ".join(TINY_CORPUS["interview-01"].split()).split(" ")
    # Reworded, spliced and made-up quotes, so the exact fast path leaves work for the workers.
    quotes = [" ".join(words[i:i + 9][::-1]) for i in range(0, 60, 3)]
    quotes += [" ".join(words[i:i + 6] + words[i + 20:i + 26]) for i in range(0, 40, 5)]
    quotes += ["Nobody here ever talked about the harvest at all.", ""]
    config = {"embed": {"enabled": False}}
    one = quoteverify.verify(TINY_CORPUS, quotes, {**config, "align": {"workers": 1}})
    two = quoteverify.verify(TINY_CORPUS, quotes, {**config, "align": {"workers": 2}})
    assert len(one) == len(quotes)
    assert jsonl_bytes(one) == jsonl_bytes(two)
    assert seen[-2:] == [len(quotes) - 1, len(quotes) - 1]  # the exact pass, then the rest: all but the blank


def test_documents_prepared_in_workers_are_those_prepared_here(monkeypatch) -> None:
    """Normalized text, offsets, words, weak marks, pages and turns, whichever process prepared them."""
    from quoteverify.model.types import Document
    from quoteverify.pipeline import stages
    from quoteverify.plumbing.cache import Cache
    from quoteverify.sources.corpus import Corpus

    monkeypatch.setattr(stages, "PARALLEL_CHARS", 1)
    documents = tuple(Document(f"{doc_id}-{copy}", "", text, "", language="en")
                      for copy in range(2) for doc_id, text in TINY_CORPUS.items())
    cache = Cache(None)
    apart = stages.prepare_documents(documents, cache, workers=2)
    assert apart is not None and stages.prepare_documents(documents, cache, workers=1) is None
    here, there = Corpus(documents), Corpus(documents, prepared=apart.documents, numbering=apart.numbering)
    assert there.vocab is apart.numbering.vocab  # numbered as they came back, not again
    # The lines shaped like labels but not read, for the run's summary, found by the workers.
    from quoteverify.sources.labels import unread
    for ready, document in zip(apart.documents, documents, strict=True):
        assert ready.turns is not None and ready.turns._unread == unread(document.text, set(ready.turns.starts()))
    assert there.vocab == here.vocab and list(there.vocab) == list(here.vocab)
    assert there.all_ids.dtype == here.all_ids.dtype and there.all_ids.tolist() == here.all_ids.tolist()
    for a, b in zip(here.sources, there.sources, strict=True):
        assert (a.norm.text, a.norm.original, a.tokens.words) == (b.norm.text, b.norm.original, b.tokens.words)
        for x, y in [(a.norm.offsets, b.norm.offsets), (a.tokens.starts, b.tokens.starts),
                     (a.tokens.ends, b.tokens.ends), (a.tokens.weak, b.tokens.weak)]:
            assert x.dtype == y.dtype and x.tolist() == y.tolist()
        assert repr(a.pages) == repr(b.pages)
        assert [a.turns.at(k) for k in range(0, len(a.document.text), 7)] == \
            [b.turns.at(k) for k in range(0, len(b.document.text), 7)]


@pytest.mark.parametrize("workers", [1, 2])
def test_a_quote_given_again_is_checked_once_with_its_own_row(monkeypatch, workers: int) -> None:
    """The same text, claim and speaker on several rows: aligned and compared once, each row's result its own
    (id, row, columns) and the same as when it is given alone; progress counts quotes, not checks."""
    from quoteverify.pipeline import stages
    from quoteverify.search.align import Aligner

    monkeypatch.setattr(parallel, "MIN_ITEMS", 1)
    monkeypatch.setattr(stages, "EXACT_PARALLEL", 1)
    aligned: list[str] = []
    original = Aligner.align
    monkeypatch.setattr(Aligner, "align", lambda self, pq, *a: aligned.append(pq.text) or original(self, pq, *a))
    quote = {"quote": "We lost 50 volunteers in the first month", "document": "interview-01"}
    rows = [dict(quote, quote_id="a", note="first"), {"quote_id": "b", "quote": "it was harder than we expected"},
            dict(quote, quote_id="c", note="again"), dict(quote, quote_id="d", document="")]
    seen: list[tuple[int, int]] = []
    config = {"embed": {"enabled": False}, "align": {"workers": workers}}
    results = quoteverify.verify(TINY_CORPUS, rows, config, progress=lambda n, total: seen.append((n, total)))
    if workers == 1:  # the aligner runs in this process: its calls are seen
        assert aligned.count(quote["quote"]) == 2  # a and c once, d (another claim) once
    assert seen[-1] == (4, 4)
    alone = {r["quote_id"]: quoteverify.verify(TINY_CORPUS, [r], config)[0] for r in rows}
    for result in results:
        assert {**result.to_dict(), "row": 0} == {**alone[result.quote_id].to_dict(), "row": 0}


@pytest.mark.parametrize("workers", [1, 2])
def test_work_beside_the_workers_is_done_here_once_and_only_with_workers(monkeypatch, workers: int) -> None:
    import os

    monkeypatch.setattr(parallel, "MIN_ITEMS", 1)
    beside: list[int] = []
    assert parallel.ordered_map(_square, list(range(20)), workers=workers, beside=lambda: beside.append(os.getpid())) \
        == [x * x for x in range(20)]
    assert beside == ([os.getpid()] if workers > 1 else [])


def test_what_the_quotes_need_loads_while_workers_prepare_the_documents(monkeypatch) -> None:
    """Each language's lexicon, word list and number words and the BM25 backend are loaded here while the
    documents are prepared in workers, before the aligning workers fork (they then find them loaded)."""
    import sys

    from quoteverify.model.lexicon import _zipf
    from quoteverify.pipeline import stages
    from quoteverify.sources.numbers import words_for

    monkeypatch.setattr(stages, "PARALLEL_CHARS", 1)
    asked: list[set[str]] = []
    load_ahead = stages.load_ahead
    monkeypatch.setattr(stages, "load_ahead", lambda languages, config: asked.append(set(languages)) or load_ahead(
        languages, config))
    texts = {f"{doc_id}-{copy}": text for copy in range(2) for doc_id, text in TINY_CORPUS.items()}
    results = quoteverify.verify(texts, [next(iter(TINY_CORPUS.values()))[:60]], {"embed": {"enabled": False}})
    assert len(results) == 1 and [languages - {""} for languages in asked] == [{"en"}]
    assert "bm25s" in sys.modules and words_for.cache_info().currsize and _zipf.cache_info().currsize


def _slow(seconds: float, scratch: str = "") -> str:
    """Sleep, holding a scratch file that it removes however it ends (as a cache entry's temporary folder)."""
    import os
    import time

    if scratch:
        open(scratch, "w").close()
    try:
        time.sleep(seconds)
    finally:
        if scratch:
            os.unlink(scratch)
    return "slept"


def test_work_beside_in_a_forked_process_gives_its_value_or_none(capfd, tmp_path) -> None:
    """Its value, pickled back; None (and no traceback printed) when the task raises; a process not waited
    for is ended by stop, through its own clean-up."""
    if not parallel.Beside.possible():
        pytest.skip("no fork here")
    assert parallel.Beside(lambda: {"squares": [x * x for x in range(5)]}).result() == {"squares": [0, 1, 4, 9, 16]}
    assert parallel.Beside(lambda: 1 // 0).result() is None
    assert "Traceback" not in capfd.readouterr().err
    import time

    scratch = tmp_path / "scratch"
    waiting = parallel.Beside(lambda: _slow(60, str(scratch)))
    for _ in range(500):
        if scratch.exists():
            break
        time.sleep(0.01)
    assert scratch.exists()
    waiting.stop()
    assert not waiting._process.is_alive() and waiting._process.exitcode == 1 and not scratch.exists()
    assert "Traceback" not in capfd.readouterr().err


def test_an_index_built_in_another_process_scores_as_one_built_here() -> None:
    """The scores of every window, to the bit, the corpus's vocabulary as a build here leaves it, and the
    score arrays of numpy's own dtypes (np.add.at sums those of an unpickled dtype ten times slower, and
    in another order)."""
    import numpy as np

    from quoteverify.model.types import Document
    from quoteverify.pipeline import stages
    from quoteverify.plumbing.cache import Cache

    if not parallel.Beside.possible():
        pytest.skip("no fork here")
    documents = tuple(Document(doc_id, "", text, "", language="en") for doc_id, text in TINY_CORPUS.items())
    config = quoteverify.model.config.as_config({"embed": {"enabled": False}})
    here = stages.prepare(documents, config, cache=Cache(None))
    there = stages.prepare(documents, config, cache=Cache(None))
    built = parallel.Beside(there.index.built_apart).result()
    assert built is not None and built.own_vocab and not there.index.built
    there.index.take(built)
    here.index.build()
    assert list(there.corpus.vocab.items()) == list(here.corpus.vocab.items())
    for name, array in there.index._model.scores.items():
        if isinstance(array, np.ndarray):
            assert array.dtype is np.dtype(array.dtype.str), name
    words = list(here.corpus.vocab)
    for k in range(0, len(words) - 3, 3):
        query = words[k:k + 3]
        assert here.index.scores(query).tobytes() == there.index.scores(query).tobytes()


@pytest.mark.parametrize("workers", [1, 2])
def test_the_index_is_built_beside_the_exact_pass_only_where_a_core_waits(monkeypatch, workers: int) -> None:
    """With workers and documents long enough, the index is built in a forked process while this one looks
    the quotes up word for word: the same results, and no process left behind."""
    import multiprocessing

    from quoteverify.pipeline import stages

    monkeypatch.setattr(stages, "PARALLEL_CHARS", 1)
    taken: list[bool] = []
    take = stages.Bm25Index.take
    monkeypatch.setattr(stages.Bm25Index, "take", lambda self, built, **k: taken.append(True) or take(self, built, **k))
    words = " ".join(TINY_CORPUS["interview-01"].split()).split(" ")
    quotes = [" ".join(words[i:i + 9][::-1]) for i in range(0, 60, 6)] + [" ".join(words[5:15])]
    config = {"embed": {"enabled": False}}
    one = quoteverify.verify(TINY_CORPUS, quotes, {**config, "align": {"workers": 1}})
    results = quoteverify.verify(TINY_CORPUS, quotes, {**config, "align": {"workers": workers}})
    assert jsonl_bytes(results) == jsonl_bytes(one)
    assert taken == ([True] if workers > 1 and parallel.Beside.possible() else [])
    assert not [p for p in multiprocessing.active_children() if p.name == "quoteverify-beside"]


def test_a_cache_the_index_process_could_not_write_is_not_written_here_either(tmp_path) -> None:
    """What the cache warned of in the process that built the index is said once here, and a cache it could
    not write is written no more by this process either (as when the index is built here)."""
    from quoteverify.model.types import Document
    from quoteverify.pipeline import stages
    from quoteverify.plumbing.cache import Cache

    if not parallel.Beside.possible():
        pytest.skip("no fork here")
    documents = tuple(Document(doc_id, "", text, "", language="en") for doc_id, text in TINY_CORPUS.items())
    config = quoteverify.model.config.as_config({"embed": {"enabled": False}})
    (tmp_path / "index").write_text("a file where the index folder goes")
    here = stages.prepare(documents, config, cache=Cache(tmp_path))
    here.index.build()
    cache = Cache(tmp_path)
    there = stages.prepare(documents, config, cache=cache)
    assert cache.writable
    built = parallel.Beside(there.index.built_apart).result()
    assert built is not None and not built.cache_writable
    there.index.take(built)
    assert not cache.writable and cache.warnings == here.index.cache.warnings
    assert len(cache.warnings) == 1 and "cannot be written" in cache.warnings[0]
