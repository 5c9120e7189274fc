"""verify --cluster: the same results from Dask workers as from one process."""
from __future__ import annotations

import csv
import socket
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import TINY_CORPUS, FakeEmbedder
from lined_documents import Style, Turn, render

import quoteverify
from quoteverify.cli import main
from quoteverify.model.errors import InputError
from quoteverify.model.rows import jsonl_bytes
from quoteverify.pipeline.cluster.client import run_on_cluster
from quoteverify.pipeline.cluster.session import ClusterSpec, parse_cluster
from quoteverify.pipeline.cluster.shards import split as shards
from quoteverify.pipeline.cluster.worker import Holding, WorkerState, run_task

distributed = pytest.importorskip("distributed")


def _quotes(path: Path) -> Path:
    words = " ".join(TINY_CORPUS["interview-02"].split()).split(" ")
    rows = [
        ("q1", "it was harder than we expected", "interview-01"),  # verbatim, claimed
        ("q2", "The training was useful, but it was far too short.", "interview-01"),  # misattributed
        ("q3", "We lost 50 volunteers in the first month", "interview-01"),  # a number changed
        ("q4", "The water came up so fast ... we carried the children upstairs", ""),  # elided, unclaimed
        ("q5", "Our neighbours did. The council sent a helicopter", "interview-09"),  # unknown claim
        ("q6", "", ""),  # empty row: kept, with its reason
        ("q7", "Nobody here ever talked about the harvest at all.", ""),
    ]
    # Spliced and reversed stretches, so the fuzzy path has work on every worker.
    rows += [(f"r{i}", " ".join(words[i:i + 9][::-1]), "") for i in range(0, 45, 3)]
    rows += [(f"s{i}", " ".join(words[i:i + 6] + words[i + 20:i + 26]), "interview-02") for i in range(0, 40, 5)]
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["quote_id", "quote", "document"])
        writer.writerows(rows)
    return path


def test_cli_on_a_two_worker_local_cluster_is_byte_identical(corpus_dir: Path, tmp_path: Path) -> None:
    quotes = _quotes(tmp_path / "quotes.csv")
    runner = CliRunner()
    local = runner.invoke(main, ["verify", str(corpus_dir), str(quotes), "--no-embed", "-o",
                                 str(tmp_path / "local.jsonl")])
    assert local.exit_code == 0, local.output
    cluster = runner.invoke(main, ["verify", str(corpus_dir), str(quotes), "--no-embed", "--cluster", "local:2",
                                   "--no-cache", "-o", str(tmp_path / "cluster.jsonl")])
    assert cluster.exit_code == 0, cluster.output
    local_bytes = (tmp_path / "local.jsonl").read_bytes()
    assert local_bytes.count(b"\n") == 30
    assert (tmp_path / "cluster.jsonl").read_bytes() == local_bytes
    assert b'"match_type": "misattributed"' in local_bytes and b'"match_type": "unlocated"' in local_bytes


def test_a_running_scheduler_with_embeddings_on_the_workers(tmp_path: Path) -> None:
    quotes = _quotes(tmp_path / "quotes.csv")
    embedder = FakeEmbedder()
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster:
        run = run_on_cluster(TINY_CORPUS, quotes, None, cluster=cluster.scheduler_address, embedder=embedder,
                             cache_dir=tmp_path / "cache")
    one = quoteverify.run(TINY_CORPUS, quotes, None, embedder=FakeEmbedder())
    assert jsonl_bytes(run.results) == jsonl_bytes(one.results)
    assert run.embedder == one.embedder == "fake-bag-of-words"
    assert run.windows == one.windows and run.warnings == one.warnings
    assert any(r.cosine is not None for r in run.results)


class _BrokenEmbedder:
    name = "broken"

    def encode(self, texts):
        raise RuntimeError("model file is corrupt")


def test_a_task_failing_on_a_worker_is_a_one_line_error(tmp_path: Path) -> None:
    from quoteverify.model.errors import QuoteverifyError

    quotes = _quotes(tmp_path / "quotes.csv")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=":0") as cluster, distributed.Client(cluster) as client:
        with pytest.raises(QuoteverifyError) as failed:
            run_on_cluster(TINY_CORPUS, quotes, None, cluster=client, embedder=_BrokenEmbedder())
    assert str(failed.value) == ("the Dask cluster failed while checking quotes: RuntimeError: "
                                 "model file is corrupt")


@pytest.mark.parametrize("value, spec", [
    ("local", ClusterSpec(None, 0)), ("local:3", ClusterSpec(None, 3)),
    ("tcp://10.0.0.5:8786", ClusterSpec("tcp://10.0.0.5:8786", 0)),
])
def test_cluster_values(value: str, spec: ClusterSpec) -> None:
    parsed = parse_cluster(value)
    assert parsed.address == spec.address
    assert parsed.workers == spec.workers or (spec.workers == 0 and parsed.workers >= 1)


def test_shards_are_balanced_by_characters() -> None:
    from quoteverify.model.types import Document

    docs = [Document(f"d{i}", "", "x" * n, "") for i, n in enumerate([90, 10, 50, 40, 30, 30, 20])]
    parts = shards(docs, 3)
    assert [[d.doc_id for d in p] for p in parts] == [["d0"], ["d2", "d5", "d1"], ["d3", "d4", "d6"]]
    assert sorted(d.doc_id for p in parts for d in p) == sorted(d.doc_id for d in docs)
    assert shards(docs[:1], 4) == [[docs[0]]]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("value, message", [
    ("local:0", "Error: --cluster local:0: the number of local workers must be 1 to 256\n"),
    ("local:two", "Error: --cluster 'local:two' is not local, local:N (N workers) or tcp://HOST:PORT "
                  "(a running Dask scheduler)\n"),
    ("http://host:8786", "Error: --cluster 'http://host:8786' is not local, local:N (N workers) or "
                         "tcp://HOST:PORT (a running Dask scheduler)\n"),
])
def test_bad_cluster_values_are_one_line_errors(corpus_dir: Path, tmp_path: Path, value: str, message: str) -> None:
    quotes = _quotes(tmp_path / "quotes.csv")
    result = CliRunner().invoke(main, ["verify", str(corpus_dir), str(quotes), "--cluster", value])
    assert result.exit_code == 2
    assert result.output == message


def test_an_unreachable_scheduler_is_a_one_line_error(corpus_dir: Path, tmp_path: Path) -> None:
    (tmp_path / "quick.yaml").write_text("cluster:\n  connect_seconds: 1\n")
    quotes = _quotes(tmp_path / "quotes.csv")
    address = f"tcp://127.0.0.1:{_free_port()}"
    result = CliRunner().invoke(main, ["verify", str(corpus_dir), str(quotes), "--no-embed", "--cluster", address,
                                       "--config", str(tmp_path / "quick.yaml"), "-o", str(tmp_path / "out.jsonl")])
    assert result.exit_code == 2
    assert result.output == (f"Error: cannot reach the Dask scheduler at {address} within 1 s; start one with "
                             "'dask scheduler' or use --cluster local:N\n")
    assert not (tmp_path / "out.jsonl").exists()


def test_parse_errors_are_input_errors() -> None:
    with pytest.raises(InputError):
        parse_cluster("tcp://nohost")


def _sharded_corpus() -> dict[str, str]:
    """Six interviews of unequal length: two shards on two workers; one sentence stands in two of them."""
    import random

    rng = random.Random(21)
    words = ("river harvest council volunteers flood school water bridge market winter money training roof "
             "children neighbours helicopter road village doctor boat field storm fence clinic").split()
    corpus = {}
    for i, length in enumerate([60, 45, 40, 30, 25, 20]):
        lines = [f"Speaker {j % 3}: " + " ".join(rng.choice(words) for _ in range(12)) + "." for j in range(length)]
        corpus[f"interview-{i:02d}"] = "\n".join(lines) + "\n"
    return corpus


def _sharded_quotes(corpus: dict[str, str]) -> list[dict[str, str]]:
    from quoteverify.model.types import Document
    from quoteverify.pipeline.cluster.shards import split

    parts = split([Document(k, "", v, "") for k, v in corpus.items()], 2)
    one, two = sorted(d.doc_id for d in parts[0]), sorted(d.doc_id for d in parts[1])
    line = lambda doc, n: corpus[doc].splitlines()[n].split(": ", 1)[1]  # noqa: E731
    shared = "The bridge to the clinic was gone by the morning of the storm."
    for doc in (one[-1], two[-1]):  # the same sentence in a document of each shard
        corpus[doc] += f"Speaker 1: {shared}\n"
    first, last = sorted((one[-1], two[-1]))
    # Another said by Speaker 0 in the first and by Speaker 5 in the last; and twice in the first.
    corpus[first] += "Speaker 0: The ferry took an oath of silence.\nSpeaker 6: So the ferry took an oath.\n"
    corpus[last] += "Speaker 5: The ferry took an oath of silence.\n"
    return [
        {"quote_id": "u1", "quote": shared, "document": ""},  # in both shards: the first document's
        {"quote_id": "c1", "quote": shared, "document": last},  # claimed where it also is
        # The claimed speaker's document, though another document has it first; the claimed speaker's place.
        {"quote_id": "k1", "quote": "The ferry took an oath", "document": "", "speaker": "Speaker 5"},
        {"quote_id": "k2", "quote": "the ferry took an oath", "document": first, "speaker": "Speaker 6"},
        {"quote_id": "c2", "quote": line(one[0], 3), "document": one[0]},
        {"quote_id": "u2", "quote": line(two[0], 5), "document": ""},
        {"quote_id": "u3", "quote": line(one[0], 7) + " ... " + line(one[0], 8), "document": ""},
        {"quote_id": "p1", "quote": "", "document": two[0]},  # a problem: empty
        {"quote_id": "e1", "quote": line(two[0], 9), "document": "interview-99"},  # an unknown claim
    ], first


def _holding(client: distributed.Client) -> dict[str, Holding]:
    """What each worker holds: its shards, the documents kept for gathered checks, a whole corpus."""
    return client.run(run_task, WorkerState.holding)


def test_sharded_checking_keeps_each_shard_on_its_worker() -> None:
    corpus = _sharded_corpus()
    quotes, first = _sharded_quotes(corpus)
    one = quoteverify.run(corpus, quotes, {"embed": {"enabled": False}})
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster, distributed.Client(cluster) as client:
        run = run_on_cluster(corpus, quotes, {"embed": {"enabled": False}}, cluster=client)
        held = list(_holding(client).values())
    assert jsonl_bytes(run.results) == jsonl_bytes(one.results)
    assert run.windows == one.windows and run.warnings == one.warnings
    # Every quote settled on a shard: no worker read the whole corpus, each held only its shard.
    assert [h.whole_documents for h in held] == [0, 0]
    assert len({h.pid for h in held}) == 2
    assert sorted(h.documents for h in held) == [3, 3]
    assert sum(h.chars for h in held) == sum(map(len, corpus.values()))
    u1, c1, k1, k2 = one.results[:4]
    assert (u1.document, c1.document, u1.status) == (first, quotes[1]["document"], "verified")
    assert (k1.document, k1.speaker, k1.status, k1.occurrences, k1.speaker_occurrences) == (
        quotes[1]["document"], "Speaker 5", "verified", 1, 1)
    assert (k2.document, k2.speaker, k2.status, k2.occurrences, k2.speaker_occurrences) == (
        first, "Speaker 6", "verified", 2, 1)


def test_sharded_checking_reduces_across_shards(tmp_path: Path) -> None:
    corpus = _sharded_corpus()
    quotes, first = _sharded_quotes(corpus)
    docs = sorted(corpus)
    line = corpus[docs[0]].splitlines()[4].split(": ", 1)[1]
    quotes += [
        {"quote_id": "m1", "quote": line, "document": docs[-1]},  # verbatim in another document: misattributed
        {"quote_id": "f1", "quote": " ".join(line.split()[::-1]), "document": ""},  # shuffled: the fuzzy path
        {"quote_id": "f2", "quote": line.replace("the", "a", 1) + " and more", "document": docs[0]},
        # Claimed for a speaker who speaks in the claimed document, but not these words: checked closely.
        {"quote_id": "k3", "quote": "The ferry took an oath", "document": first, "speaker": "Speaker 2"},
    ]
    one = quoteverify.run(corpus, quotes, {"embed": {"enabled": False}}, embedder=None)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster, distributed.Client(cluster) as client:
        seen: list[tuple[int, int]] = []
        run = run_on_cluster(corpus, quotes, {"embed": {"enabled": False}}, cluster=client,
                             progress=lambda done, total: seen.append((done, total)), cache_dir=tmp_path / "cache")
        again = run_on_cluster(corpus, quotes, {"embed": {"enabled": False}}, cluster=client,
                               cache_dir=tmp_path / "cache")  # the results now come from the cache
    assert jsonl_bytes(run.results) == jsonl_bytes(one.results) == jsonl_bytes(again.results)
    assert one.results[9].match_type == "misattributed"
    k3 = one.results[-1]
    assert (k3.status, k3.reasons[0]) == ("review", "said by Speaker 0, not by claimed Speaker 2")
    assert seen == sorted(seen) and seen[-1] == (len(quotes), len(quotes))


def test_long_quote_lists_go_to_the_workers_as_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past cluster.SCATTER_ITEMS quotes, a shard's or a chunk's quotes are scattered ahead, not put in the
    task graph; the results are the same, byte for byte."""
    from quoteverify.pipeline.cluster import session

    monkeypatch.setattr(session, "SCATTER_ITEMS", 2)  # this small corpus then takes the scatter path
    corpus = _sharded_corpus()
    quotes, _ = _sharded_quotes(corpus)
    quotes += [{"quote_id": "f1", "quote": " ".join(corpus[sorted(corpus)[0]].split()[40:30:-1]), "document": ""}]
    one = quoteverify.run(corpus, quotes, {"embed": {"enabled": False}})
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster, distributed.Client(cluster) as client:
        sent = session.sent_ahead(client, ([1, 2, 3], ["en", "en", "en"]))
        kept = session.sent_ahead(client, ([1, 2], ["en", "en"]))
        run = run_on_cluster(corpus, quotes, {"embed": {"enabled": False}}, cluster=client)
        assert isinstance(sent, distributed.Future) and sent.result() == ([1, 2, 3], ["en", "en", "en"])
    assert kept == ([1, 2], ["en", "en"])
    assert jsonl_bytes(run.results) == jsonl_bytes(one.results)


def _topic_corpus() -> dict[str, str]:
    """Eight interviews on topics of their own: a quote's best windows are in a few of them."""
    import random

    rng = random.Random(5)
    common = "we the and said was council water school money road village winter".split()
    corpus = {}
    for i in range(8):
        own = [f"{topic}{i}" for topic in "harvest bridge clinic storm fence doctor market boat field roof".split()]
        lines = [f"Speaker {j % 3}: " + " ".join(rng.choice(own + common) for _ in range(12)) + "." for j in range(150)]
        corpus[f"interview-{i:02d}"] = "\n".join(lines) + "\n"
    return corpus


def test_quotes_not_found_word_for_word_are_checked_without_the_whole_corpus(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With a corpus larger than a worker may gather, the fuzzy quotes (edited, shuffled, spliced across
    the shards, misattributed) are checked on one worker each against the documents they can match:
    byte-identical to the in-process run, and no worker reads the whole corpus."""
    from quoteverify.pipeline.cluster import client as cluster_module
    from quoteverify.pipeline.cluster import session

    corpus = _topic_corpus()
    docs = sorted(corpus)
    lines = {doc: [ln.split(": ", 1)[1] for ln in corpus[doc].splitlines()] for doc in docs}
    quotes = [{"quote_id": "v1", "quote": lines[docs[5]][20], "document": docs[5]},
              # Speaker 2's words claimed for Speaker 1, who speaks there too: looked for in their turns.
              {"quote_id": "k1", "quote": lines[docs[5]][20], "document": docs[5], "speaker": "Speaker 1"}]
    quotes += [
        {"quote_id": "m1", "quote": lines[docs[0]][4], "document": docs[-1]},  # verbatim elsewhere
        {"quote_id": "f1", "quote": " ".join(lines[docs[1]][6].split()[::-1]), "document": ""},  # shuffled
        {"quote_id": "f2", "quote": lines[docs[2]][3].replace(" ", " the ", 1), "document": docs[2]},  # edited
        {"quote_id": "s1", "quote": lines[docs[0]][10] + " " + lines[docs[-1]][2], "document": ""},  # spliced
        {"quote_id": "s2", "quote": lines[docs[3]][1] + " ... " + lines[docs[4]][7], "document": docs[3]},
        {"quote_id": "n1", "quote": "Nobody here ever mentioned any helicopter rescue.", "document": ""},
    ]
    total = sum(map(len, corpus.values()))
    config = {"embed": {"enabled": False}, "cluster": {"gather_chars": total // 2}}
    one = quoteverify.run(corpus, quotes, config)
    whole_corpus: list[int] = []
    monkeypatch.setattr(session, "SCATTER_ITEMS", 3)  # quotes ranked and confirmed 3 to a task, sent ahead
    original = cluster_module.start_whole_corpus_checks
    monkeypatch.setattr(cluster_module, "start_whole_corpus_checks", lambda run, quotes, **options: (
        whole_corpus.append(len(quotes)), original(run, quotes, **options))[1])
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster, distributed.Client(cluster) as client:
        seen: list[tuple[int, int]] = []
        run = run_on_cluster(corpus, quotes, config, cluster=client, cache_dir=tmp_path / "cache",
                             progress=lambda done, n: seen.append((done, n)))
        kept = _holding(client)
        again = run_on_cluster(corpus, quotes, config, cluster=client, cache_dir=tmp_path / "cache")
    assert jsonl_bytes(run.results) == jsonl_bytes(one.results) == jsonl_bytes(again.results)
    assert run.warnings == one.warnings
    assert sum(whole_corpus) == 0  # no quote was left to the whole corpus
    assert all(k.whole_documents == 0 and k.guest_chars <= total // 2 for k in kept.values()), kept
    assert any(k.guest_chars for k in kept.values())  # a splice across the shards gathered documents
    by_id = {r.quote_id: r for r in one.results}
    assert by_id["m1"].match_type == "misattributed"
    assert by_id["n1"].status == "unverified"
    assert (by_id["k1"].match_type, by_id["k1"].reasons[0]) == ("misattributed", "said by Speaker 2, not by claimed Speaker 1")
    assert seen == sorted(seen) and seen[-1] == (len(quotes), len(quotes))


def test_a_gathered_check_beaten_by_a_document_it_lacked_is_not_kept(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    # The first round checks each quote against its claimed document alone (no ranking): a quote whose
    # source is another document is beaten there and checked again with it. The first round's result must
    # not be kept between runs (it was kept under the whole corpus's key, and the second round read it back).
    from quoteverify.pipeline.cluster import gathering

    corpus = _topic_corpus()
    docs = sorted(corpus)
    lines = {doc: [ln.split(": ", 1)[1] for ln in corpus[doc].splitlines()] for doc in docs}
    quotes = [{"quote_id": "w1", "quote": lines[docs[2]][3].replace(" ", " the ", 1), "document": docs[6]},
              {"quote_id": "w2", "quote": lines[docs[1]][8].replace(" ", " so ", 1), "document": docs[5]},
              {"quote_id": "v1", "quote": lines[docs[4]][9], "document": docs[4]}]
    config = {"embed": {"enabled": False}, "cluster": {"gather_chars": sum(map(len, corpus.values())) // 2}}
    one = quoteverify.run(corpus, quotes, config)
    assert [r.document for r in one.results] == [docs[2], docs[1], docs[4]]
    monkeypatch.setattr(gathering, "_rank", lambda *args: None)
    rounds: list[set[int]] = []
    confirm = gathering._confirm
    monkeypatch.setattr(gathering, "_confirm", lambda *args: (rounds.append(confirm(*args)), rounds[-1])[1])
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster:
        for _ in range(2):  # the second run reads what the first kept
            run = run_on_cluster(corpus, quotes, config, cluster=cluster.scheduler_address,
                                 cache_dir=tmp_path / "cache")
            assert jsonl_bytes(run.results) == jsonl_bytes(one.results)
    assert rounds[0] == {0, 1}  # both beaten in the first round of the first run


def _imported(names: tuple[str, ...]) -> list[bool]:
    """Runs on a worker: whether each module is imported there."""
    import sys

    return [name in sys.modules for name in names]


def test_a_local_clusters_workers_start_with_what_every_check_imports() -> None:
    # Imported once by the fork server the workers start from, not by each worker on its first check.
    from quoteverify.model.config import as_config
    from quoteverify.pipeline.cluster.session import open_session

    with open_session(ClusterSpec(None, 1), as_config({"embed": {"enabled": False}}), False) as client:
        imported = client.run(_imported, ("bm25s", "wordfreq"))
    assert list(imported.values()) == [[True, True]]


def _lingua_detectors() -> int:
    """Runs on a worker: how many language detectors it has built (each loads models of many languages)."""
    from quoteverify.sources.language import _detector

    return _detector.cache_info().currsize


def test_the_client_tells_the_languages_of_the_quotes_checked_against_the_whole_corpus() -> None:
    # The quotes the shards do not settle go to the whole corpus with their languages told once, here, against
    # it, as the in-process run tells them: no worker loads the language models to tell them again.
    corpus = _sharded_corpus()
    quotes, _ = _sharded_quotes(corpus)
    docs = sorted(corpus)
    line = corpus[docs[0]].splitlines()[4].split(": ", 1)[1]
    quotes += [
        {"quote_id": "f1", "quote": " ".join(line.split()[::-1]), "document": ""},  # shuffled: the fuzzy path
        {"quote_id": "de", "quote": "Die Brücke zur Klinik war am Morgen nach dem Sturm schon weg, sagte der Arzt.",
         "document": docs[0]},
    ]
    one = quoteverify.run(corpus, quotes, {"embed": {"enabled": False}})
    assert one.results[-1].language == "de"
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster, distributed.Client(cluster) as client:
        run = run_on_cluster(corpus, quotes, {"embed": {"enabled": False}}, cluster=client)
        held = list(_holding(client).values())
        detectors = client.run(_lingua_detectors)
    assert jsonl_bytes(run.results) == jsonl_bytes(one.results)
    assert max(h.whole_documents for h in held) == len(corpus)  # checked against the whole corpus
    assert list(detectors.values()) == [0, 0]


def test_a_worker_takes_the_other_shards_prepared_when_there_is_no_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    # Two workers' states in this process: each prepares its shard; the first then makes the whole corpus
    # from its own shard and the second's, shipped, preparing no document again.
    from quoteverify.model.config import as_config
    from quoteverify.pipeline import stages
    from quoteverify.pipeline.cluster import worker as worker_module
    from quoteverify.pipeline.cluster.worker import shard_key
    from quoteverify.plumbing.archive import ArchiveLimits
    from quoteverify.plumbing.cache import Cache
    from quoteverify.sources.documents import read_documents

    config = as_config(None)
    documents = read_documents(TINY_CORPUS, ArchiveLimits.of(config)).documents
    parts = [tuple(documents[:2]), tuple(documents[2:])]
    assert all(parts)
    first, second = WorkerState(), WorkerState()
    for state, part in zip((first, second), parts):
        state.prepare_shard(shard_key(part, config), part, config, None, [shard_key(part, config)])
    shipped = second.shipped_shard(shard_key(parts[1], config))
    assert [one.doc_id for one in shipped] == [d.doc_id for d in parts[1]]
    prepared_again: list[str] = []
    original = worker_module.prepare_document
    monkeypatch.setattr(worker_module, "prepare_document",
                        lambda d, cache: (prepared_again.append(d.doc_id), original(d, cache))[1])
    whole = first.whole_corpus(documents, config, None, [shipped])
    assert prepared_again == []
    alone = stages.prepare(documents, config, cache=Cache(None))
    for got, want in zip(whole.corpus.sources, alone.corpus.sources, strict=True):
        assert got.norm.text == want.norm.text and got.tokens.words == want.tokens.words
        assert (got.ids == want.ids).all() and got.turns.starts() == want.turns.starts()
        assert [got.turns.at(o) for o in got.turns.starts()] == [want.turns.at(o) for o in want.turns.starts()]
    # Without them, the other shard's documents are prepared here.
    assert WorkerState().whole_corpus(documents, config, None) is not None


def test_the_speaker_label_warnings_come_from_the_workers_turns(tmp_path: Path) -> None:
    # Lines shaped like labels that were not read, and a document without labels where a speaker is claimed:
    # the cluster's warnings are the in-process run's, from the turns its workers built.
    corpus = dict(TINY_CORPUS)
    corpus["podcast"] = ("Maria: We lost fifteen volunteers in the spring of that year.\n"
                         "Speaker #1: Why did that happen so fast?\n"
                         "Maria: The budget never came, and the town rebuilt the bridge too late.\n"
                         "**Alice**: Nobody told us about any of it.\n")
    corpus["memo"] = "The board met on Tuesday and agreed to fund the new library wing in full.\n"
    # A first line that is the document's title, not a speaker's label.
    corpus["farming-hay-a-year-on-the-ranch"] = ("Farming Hay: A Year On The Ranch\n"
                                                 "Dale: we cut the hay in June every single year.\n"
                                                 "Dale: and we bale it in July when the weather holds.\n")
    # A line-numbered transcript whose A. turns no cover names: read only in part, which the run says too.
    corpus["record"] = render([Turn("Q." if k % 2 else "A.", f"Answer {k} of the long record of the yard.")
                               for k in range(60)], Style(lines=25)).text
    quotes = [{"quote": "We lost fifteen volunteers in the spring", "document": "podcast"},
              {"quote": "the town rebuilt the bridge too late", "document": "podcast"},
              {"quote": "agreed to fund the new library wing", "document": "memo", "speaker": "Chair"},
              {"quote": "it was harder than we expected", "document": "interview-01"},
              {"quote": "we cut the hay in June every single year", "document": "farming-hay-a-year-on-the-ranch"}]
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster:
        # In shards (the workers' turns) and not (the turns read in the client), with a cache the workers
        # share and without: the same warnings.
        for sharded, cache in [(True, None), (False, None), (False, tmp_path / "cache")]:
            config = {"embed": {"enabled": False}, "cluster": {"sharded": sharded}}
            one = quoteverify.run(corpus, quotes, config)
            assert any(w.startswith("podcast: 2 speaker turns read, but 2 lines") for w in one.warnings)
            assert any(w.startswith("memo: no speaker labels read") for w in one.warnings)
            assert any(w.startswith("line-numbered transcript read only in part: record (") for w in one.warnings)
            run = run_on_cluster(corpus, quotes, config, cluster=cluster.scheduler_address, cache_dir=cache)
            assert jsonl_bytes(run.results) == jsonl_bytes(one.results)
            assert run.warnings == one.warnings
            assert run.layouts == one.layouts == {**{doc: "unpaged" for doc in corpus}, "record": "lined"}


def test_a_worker_lost_after_the_shards_checks_costs_only_time(monkeypatch: pytest.MonkeyPatch) -> None:
    # The whole-corpus checks take the lost worker's shard prepared (shipped) and the warnings take its turns:
    # neither waits for it; another worker answers without the shard and the rest is read again.
    from quoteverify.pipeline.cluster import client as client_module

    on_shards = client_module._on_shards

    def then_lose_a_worker(run: object, shards: object) -> object:
        found = on_shards(run, shards)  # type: ignore[arg-type]
        client, victim = run.client, shards.addresses[0]  # type: ignore[attr-defined]
        _lose(client, victim)
        assert victim not in client.scheduler_info()["workers"]
        return found

    monkeypatch.setattr(client_module, "_on_shards", then_lose_a_worker)
    corpus = dict(TINY_CORPUS)
    corpus["podcast"] = ("Maria: We lost fifteen volunteers in the spring of that year.\n"
                         "**Alice**: Nobody told us about any of it.\n")
    # A line-numbered transcript whose A. turns no cover names: read only in part, which the run says too.
    corpus["record"] = render([Turn("Q." if k % 2 else "A.", f"Answer {k} of the long record of the yard.")
                               for k in range(60)], Style(lines=25)).text
    quotes = [{"quote": "We lost fifteen volunteers in the spring", "document": "podcast"},
              {"quote": "the council rebuilt the old bridge much too late", "document": "interview-01"},
              {"quote": "it was harder than we expected", "document": "interview-01"}]
    config = {"embed": {"enabled": False}}
    one = quoteverify.run(corpus, quotes, config)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster:
        run = run_on_cluster(corpus, quotes, config, cluster=cluster.scheduler_address)
    assert jsonl_bytes(run.results) == jsonl_bytes(one.results)
    assert run.warnings == one.warnings


def test_a_worker_lost_with_a_long_chunk_sent_ahead_costs_only_time(monkeypatch: pytest.MonkeyPatch) -> None:
    # A whole-corpus chunk's quotes, sent ahead as data, reach every worker: the worker running the chunk
    # lost, another runs it again with its own copy (before, the copy went with the worker, and the run
    # failed with Dask's "already forgotten").
    import os
    import time

    from quoteverify.pipeline.cluster import client as client_module
    from quoteverify.pipeline.cluster import session

    monkeypatch.setattr(session, "SCATTER_ITEMS", 1)  # every chunk of more than one quote is sent ahead
    start = client_module.start_whole_corpus_checks

    def then_lose_a_worker(run: object, quotes: list[int], **kw: object) -> object:
        checks = start(run, quotes, **kw)  # type: ignore[arg-type]
        client = run.client  # type: ignore[attr-defined]
        assert any(isinstance(g, distributed.Future) and str(g.key).startswith("list") for g in checks.given)
        while not any(client.processing().values()):
            time.sleep(0.01)
        victim = next(w for w, tasks in client.processing().items() if tasks)  # where the chunk runs
        # Kept, or the task is forgotten before it runs.
        exits.append(client.submit(os._exit, 1, workers=[victim], allow_other_workers=False, pure=False))
        return checks

    exits: list[object] = []

    monkeypatch.setattr(client_module, "start_whole_corpus_checks", then_lose_a_worker)
    quotes = [{"quote": "the council rebuilt the old bridge much too late", "document": "interview-01"},
              {"quote": "it was harder than we expected", "document": "interview-01"},
              {"quote": "the committee did not approve the budget until march", "document": ""},
              {"quote": "We lost fifty volunteers", "document": ""}]
    config = {"embed": {"enabled": False}, "cluster": {"sharded": False, "min_chunk": 4}}
    one = quoteverify.run(TINY_CORPUS, quotes, config)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster, distributed.Client(cluster) as client:
        before = set(client.run(os.getpid).values())
        run = run_on_cluster(TINY_CORPUS, quotes, config, cluster=client)
        client.wait_for_workers(2)
        assert set(client.run(os.getpid).values()) != before  # a worker was lost (another took its place)
    assert jsonl_bytes(run.results) == jsonl_bytes(one.results)


def _lose(client: object, victim: str) -> None:
    """The worker at ``victim`` ends; the cluster starts another, empty, in its place."""
    import os
    import time

    # Kept while waiting: a future let go of is forgotten, its task with it, if it has not run yet.
    exit_ = client.submit(os._exit, 1, workers=[victim], allow_other_workers=False, pure=False)  # type: ignore[attr-defined]
    deadline = time.monotonic() + 30
    while victim in client.scheduler_info()["workers"] and time.monotonic() < deadline:  # type: ignore[attr-defined]
        time.sleep(0.1)
    del exit_


@pytest.mark.parametrize("when", ["looking quotes up", "gathering documents", "preparing the shards",
                                  "after a wait"])
def test_a_worker_lost_with_its_shard_is_a_one_line_error_not_a_wait(monkeypatch: pytest.MonkeyPatch,
                                                                       when: str) -> None:
    # The tasks only a shard's worker can run would wait for it for ever: the run fails in one line instead.
    from quoteverify.model.errors import QuoteverifyError
    from quoteverify.pipeline.cluster import client as client_module
    from quoteverify.pipeline.cluster import gathering

    corpus = _topic_corpus()
    docs = sorted(corpus)
    line = corpus[docs[2]].splitlines()[3].split(": ", 1)[1]
    quotes = [{"quote": line, "document": docs[2]}, {"quote": line.replace(" ", " the ", 1), "document": docs[2]}]
    config = {"embed": {"enabled": False}, "cluster": {"gather_chars": sum(map(len, corpus.values())) // 2}}
    from quoteverify.pipeline.cluster.shards import ShardSet

    if when == "preparing the shards":  # the shards' documents go with the worker: the task is cancelled
        settle = ShardSet.settle
        monkeypatch.setattr(ShardSet, "settle", lambda shards, what, futures: (
            what.startswith("preparing") and _lose(shards.client, shards.addresses[0]),
            settle(shards, what, futures))[1])
    elif when == "after a wait":  # lost between its tasks' end and their answers' fetching
        wait = ShardSet.wait
        monkeypatch.setattr(ShardSet, "wait", lambda shards, what, futures, every: (
            wait(shards, what, futures, every=every),
            what.startswith("looking") and _lose(shards.client, shards.addresses[0]))[0])
    elif when == "looking quotes up":
        on_shards = client_module._on_shards
        monkeypatch.setattr(client_module, "_on_shards", lambda run, shards: (
            _lose(run.client, shards.addresses[0]), on_shards(run, shards))[1])
    else:
        two_at_a_time = gathering.two_at_a_time
        monkeypatch.setattr(gathering, "two_at_a_time", lambda shards, tasks, submit: (
            _lose(shards.client, shards.addresses[tasks[0].shard]), two_at_a_time(shards, tasks, submit))[1])
    outcome: list[object] = []

    def run(address: str) -> None:
        try:
            outcome.append(run_on_cluster(corpus, quotes, config, cluster=address))
        except BaseException as exc:  # noqa: BLE001 - the outcome is asserted on below
            outcome.append(exc)

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster:
        # Waited for a minute at most, in a thread left behind if it waits on: not a test without end.
        waiting = threading.Thread(target=run, args=(cluster.scheduler_address,), daemon=True)
        waiting.start()
        waiting.join(timeout=60)
    assert outcome, "still waiting after 60 s"
    if when == "preparing the shards" and not isinstance(outcome[0], BaseException):
        # A run that finishes anyway (the task ran before the loss was seen) gives the in-process results.
        assert jsonl_bytes(outcome[0].results) == jsonl_bytes(quoteverify.run(corpus, quotes, config).results)  # type: ignore[attr-defined]
        return
    assert isinstance(outcome[0], QuoteverifyError), outcome
    message = str(outcome[0])
    assert message.startswith("the Dask cluster failed while ") and "\n" not in message
    assert message.endswith(") was lost; run again") and "the worker holding a shard of the documents (tcp://" in message


def test_a_failure_on_the_cluster_is_said_in_one_line() -> None:
    from quoteverify.model.errors import QuoteverifyError
    from quoteverify.pipeline.cluster import session

    with pytest.raises(QuoteverifyError) as failed:
        with session.failures("checking quotes"):
            raise RuntimeError("1 Future cancelled:\nReasons:\n  lost")
    assert str(failed.value) == "the Dask cluster failed while checking quotes: RuntimeError: 1 Future cancelled: Reasons: lost"


def test_a_worker_without_the_shard_asked_for_answers_without_it() -> None:
    # Where a shard's worker was lost, its tasks that may run elsewhere answer with nothing of it.
    state = WorkerState()
    assert state.shipped_shard("a lost shard") == []
    assert state.turn_starts("a lost shard", ["podcast"]) == {}


def _checked(n: int) -> object:
    from quoteverify.pipeline.cluster.worker import ChunkChecked

    return ChunkChecked([f"result {n}"], [f"warning {n}"], 7)  # type: ignore[list-item]


@pytest.mark.parametrize("cancelled_times", [1, 2, 3])
def test_a_chunk_the_scheduler_cancels_is_checked_again_a_bounded_number_of_times(monkeypatch: pytest.MonkeyPatch,
                                                                                  cancelled_times: int) -> None:
    # A worker lost after checking a chunk takes its result along; when the documents' other copies were let
    # go of meanwhile, Dask cannot check it again and cancels it ("already forgotten"): it is submitted anew.
    from quoteverify.model.errors import QuoteverifyError
    from quoteverify.pipeline.cluster import client as client_module
    from quoteverify.pipeline.cluster.client import WholeCorpusChecks

    monkeypatch.setattr(client_module, "CHUNK_RETRIES", 2)

    with distributed.Client(processes=False, n_workers=1, threads_per_worker=1, dashboard_address=":0") as client:
        def cancelled() -> distributed.Future:
            # A task no worker may run, cancelled: it never takes the worker's thread.
            future = client.submit(_checked, -1, workers=["tcp://127.0.0.1:9"], allow_other_workers=False, pure=False)
            future.cancel()
            return future

        asked: list[int] = []

        def again(i: int) -> distributed.Future:
            asked.append(i)
            return cancelled() if len(asked) < cancelled_times else client.submit(_checked, i, pure=False)

        checks = WholeCorpusChecks([10, 11], [client.submit(_checked, 0, pure=False), cancelled()], [], again)
        if cancelled_times > 2:
            with pytest.raises(QuoteverifyError, match="cancelled"):
                checks.collect(None)
            assert asked == [1, 1]
            return
        found = checks.collect(None)
    assert asked == [1] * cancelled_times
    assert found.results == {10: "result 0", 11: "result 1"} and found.warnings == ["warning 0", "warning 1"]
    assert found.windows == 7


def test_chunks_checked_again_share_one_new_copy_of_the_documents() -> None:
    # The documents are sent again once for every chunk resubmitted while that copy stays whole (not once per
    # chunk: a large corpus), and the chunks resubmitted give the results of the first submission.
    from quoteverify.model.config import as_config
    from quoteverify.model.types import Document, Quote
    from quoteverify.pipeline.cluster.client import ClusterRun, start_whole_corpus_checks
    from quoteverify.pipeline.cluster.worker import Checking

    config = as_config({"embed": {"enabled": False}, "cluster": {"min_chunk": 1, "chunks_per_worker": 2}})
    documents = tuple(Document(doc_id, "", text, "", language="en") for doc_id, text in TINY_CORPUS.items())
    quotes = [Quote(1, "q1", "it was harder than we expected"), Quote(2, "q2", "the council rebuilt the old bridge")]
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=1, dashboard_address=":0") as client:
        run = ClusterRun(client, documents, quotes, ["", ""], Checking(config, None, None), None)
        checks = start_whole_corpus_checks(run, [0, 1], sharded=False)
        assert len(checks.futures) == 2 and checks.again is not None
        first = [f.result().results for f in checks.futures]
        given = len(checks.given)
        again = [checks.again(0), checks.again(1)]
        sent = [g for g in checks.given[given:] if isinstance(g, tuple) and len(g) == len(documents)]
        assert len(sent) == 1
        assert [jsonl_bytes(f.result().results) for f in again] == [jsonl_bytes(r) for r in first]
