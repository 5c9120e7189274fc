"""The per-quote result cache: a re-run redoes only the quotes that can change, and a
damaged cache never gives a wrong result."""
from __future__ import annotations

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


def test_a_rerun_aligns_nothing_and_gives_the_same_bytes(tmp_path: Path, aligned: list[str]) -> None:
    first = _run(tmp_path)
    assert len(aligned) == 5
    aligned.clear()
    second = _run(tmp_path)
    assert aligned == [] and len(list((tmp_path / "cache" / "results").rglob("*.json"))) == 6
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


@pytest.mark.parametrize("damage", [
    lambda raw: raw[:-5] + b"xxxxx",  # payload changed: checksum mismatch
    lambda raw: raw[:40],  # truncated
    lambda raw: b"",  # emptied
    lambda raw: raw.replace(b'"status": "', b'"status": "verified", "x": "', 1),  # a field added
])
def test_a_damaged_entry_is_discarded_with_a_warning(tmp_path: Path, aligned: list[str], damage) -> None:
    first = _run(tmp_path)
    entries = sorted((tmp_path / "cache" / "results").rglob("*.json"))
    assert len(entries) == 6
    for entry in entries:
        entry.write_bytes(damage(entry.read_bytes()))
    aligned.clear()
    second = _run(tmp_path)
    assert len(aligned) == 5
    assert jsonl_bytes(second.results) == jsonl_bytes(first.results)
    assert second.warnings == [f"result cache: 6 damaged entries in {tmp_path / 'cache' / 'results'} discarded; "
                               "those quotes were checked again"]
    aligned.clear()
    third = _run(tmp_path)  # the entry was written again
    assert aligned == [] and third.warnings == []


def test_another_quotes_intact_entry_under_this_name_is_discarded(tmp_path: Path) -> None:
    first = _run(tmp_path)
    entries = sorted((tmp_path / "cache" / "results").rglob("*.json"))
    entries[0].write_bytes(entries[1].read_bytes())
    second = _run(tmp_path)
    assert jsonl_bytes(second.results) == jsonl_bytes(first.results)
    assert len(second.warnings) == 1


def test_a_forged_entry_with_a_matching_checksum_but_wrong_fields_is_discarded(tmp_path: Path) -> None:
    import hashlib

    first = _run(tmp_path)
    entry = sorted((tmp_path / "cache" / "results").rglob("*.json"))[0]
    payload = b'{"status": "verified"}'
    checksum = hashlib.sha256(entry.stem.encode() + b"\n" + payload).hexdigest().encode()
    entry.write_bytes(checksum + b"\n" + payload)
    second = _run(tmp_path)
    assert jsonl_bytes(second.results) == jsonl_bytes(first.results)
    assert len(second.warnings) == 1


def test_without_a_cache_folder_nothing_is_kept(tmp_path: Path, aligned: list[str]) -> None:
    _run(tmp_path, cache=False)
    aligned.clear()
    _run(tmp_path, cache=False)
    assert len(aligned) == 5
    assert not (tmp_path / "cache").exists()


def test_a_results_folder_that_cannot_be_written_only_costs_time(tmp_path: Path, aligned: list[str]) -> None:
    (tmp_path / "cache").mkdir()
    (tmp_path / "cache" / "results").write_text("not a folder")
    first = _run(tmp_path)
    aligned.clear()
    second = _run(tmp_path)
    assert len(aligned) == 5 and second.warnings == []
    assert jsonl_bytes(second.results) == jsonl_bytes(first.results)


class _Warming(FakeEmbedder):
    """A fake model that counts the runs that began to load it in the background."""

    def __init__(self) -> None:
        super().__init__()
        self.warmed = 0

    def warm(self) -> None:
        self.warmed += 1


def test_a_rerun_that_checks_nothing_again_does_not_load_the_model(tmp_path: Path) -> None:
    """A run begins to load the model at its start, unless a run of the same inputs kept every result (then
    no quote needs it); an edited quote, a lost entry or another setting loads it again."""
    embedder = _Warming()

    def run(quotes=QUOTES, config=None, cache: Path | None = tmp_path / "cache"):
        return quoteverify.run(TINY_CORPUS, quotes, config, embedder=embedder, cache_dir=cache)

    first = run()
    assert embedder.warmed == 1
    assert jsonl_bytes(run().results) == jsonl_bytes(first.results) and embedder.warmed == 1
    edited = [dict(q) for q in QUOTES]
    edited[2]["quote"] = "We lost 60 volunteers in the first month"
    entries = set((tmp_path / "cache" / "results").rglob("*.json"))
    run(edited)
    assert embedder.warmed == 2
    run(edited)
    assert embedder.warmed == 2
    (new_entry,) = set((tmp_path / "cache" / "results").rglob("*.json")) - entries  # the edited quote's
    new_entry.unlink()
    run(edited)
    assert embedder.warmed == 3
    run(edited, {"verdict": {"min_match_ratio": 0.61}})
    assert embedder.warmed == 4
    run(cache=None)
    assert embedder.warmed == 5


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
    lambda raw: raw[:-3] + b"]}}",  # the record changed: checksum mismatch
    lambda raw: raw[:30],  # truncated
    lambda raw: b"",  # emptied
])
def test_a_damaged_run_record_only_costs_time(tmp_path: Path, aligned: list[str], damage) -> None:
    first = _run(tmp_path)
    (record,) = (tmp_path / "cache" / "results" / "runs").glob("*.run")
    record.write_bytes(damage(record.read_bytes()))
    second = _run(tmp_path)
    assert jsonl_bytes(second.results) == jsonl_bytes(first.results) and second.warnings == first.warnings
    assert aligned == [QUOTES[k]["quote"] for k in range(1, 6)]  # the first run's; the second reused its entries


def test_a_run_whose_entry_is_lost_is_checked_again(tmp_path: Path, aligned: list[str]) -> None:
    first = _run(tmp_path)
    sorted((tmp_path / "cache" / "results").rglob("*.json"))[0].unlink()
    aligned.clear()
    second = _run(tmp_path)
    assert len(aligned) <= 1 and jsonl_bytes(second.results) == jsonl_bytes(first.results)
