"""The real sentence model: it loads offline from the bundled package, in process and on Dask workers, and its cosines make sense."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import TINY_CORPUS

import quoteverify
from quoteverify.judge.embed import DEFAULT_MODEL, SentenceTransformerEmbedder, cosines
from quoteverify.model.errors import ConfigError
from quoteverify.model.rows import jsonl_bytes

SOURCE = "The council sent a boat, but it arrived two days later, when everything\r\nwas already over."
PARAPHRASE = "The council did send a boat, but it only turned up two days afterwards, when it was all finished."
UNRELATED = "I prefer strawberry ice cream on sunny afternoons at the beach."


def test_real_model_scores_a_paraphrase(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")
    embedder = SentenceTransformerEmbedder(DEFAULT_MODEL, threads=2)
    paraphrase, unrelated, verbatim = quoteverify.verify(
        TINY_CORPUS,
        [{"quote": PARAPHRASE, "document": "interview-03"}, UNRELATED,
         "The committee did not approve the budget until March."],
        embedder=embedder)

    # Reworded: few words align, the model says it means the same, so it is a located paraphrase.
    assert (paraphrase.status, paraphrase.match_type, paraphrase.document) == ("review", "paraphrase",
                                                                               "interview-03")
    assert paraphrase.cosine > 0.7
    start = TINY_CORPUS["interview-03"].index(SOURCE)
    assert start <= paraphrase.start < paraphrase.end <= start + len(SOURCE)

    assert (unrelated.status, unrelated.match_type) == ("unverified", "unlocated")
    assert (verbatim.status, verbatim.match_type, verbatim.cosine) == ("verified", "exact", None)

    near, far = cosines(embedder, [(PARAPHRASE, SOURCE), (UNRELATED, SOURCE)])
    assert near > 0.7
    assert far < 0.5
    vectors = embedder.encode([SOURCE, UNRELATED])
    assert vectors.shape == (2, 384)
    assert abs(float((vectors[0] ** 2).sum()) - 1.0) < 1e-4  # unit length


_IN_A_PROCESS = """
import sys
from quoteverify.judge.embed import SentenceTransformerEmbedder
from quoteverify.model.errors import ConfigError
missing = SentenceTransformerEmbedder("/nonexistent/model", threads=2)
missing.warm()
try:
    missing.encode(["a test"])
except ConfigError as exc:
    print("error:", exc)
warmed = SentenceTransformerEmbedder(threads=2)
warmed.warm()
vectors = warmed.encode(sys.argv[1:])
assert "sentence_transformers" not in sys.modules, "the model was loaded in this process"
sys.stdout.write(vectors.tobytes().hex())
"""


def test_a_model_loaded_in_the_background_encodes_as_one_loaded_on_first_use() -> None:
    """Begun in the background in a process of its own (this one never imports sentence-transformers), the
    model gives the vectors of a model loaded here, to the bit; one that cannot be loaded fails quietly
    there, and the encode that needs it says why."""
    done = subprocess.run([sys.executable, "-c", _IN_A_PROCESS, SOURCE, PARAPHRASE], capture_output=True,
                          text=True, check=True)
    error, _, vectors = done.stdout.partition("\n")
    assert error.startswith("error: embed.model '/nonexistent/model' is neither all-MiniLM-L6-v2 nor a local model")
    cold = SentenceTransformerEmbedder(DEFAULT_MODEL, threads=2)
    assert vectors == cold.encode([SOURCE, PARAPHRASE]).tobytes().hex()


def test_the_real_model_on_a_two_worker_local_cluster(tmp_path: Path) -> None:
    """The workers of a local cluster ask the one model the client loads (in a process of its own) for their
    vectors instead of loading it each: none imports torch, and the cosines and so the results are those of
    the in-process run."""
    pytest.importorskip("distributed")
    from distributed import Client, LocalCluster

    from quoteverify.pipeline.cluster.client import run_on_cluster

    quotes = [{"quote_id": "p", "quote": PARAPHRASE, "document": "interview-03"},
              {"quote_id": "u", "quote": UNRELATED, "document": ""},
              {"quote_id": "v", "quote": "The committee did not approve the budget until March.", "document": ""}]
    one = quoteverify.run(TINY_CORPUS, quotes, None, cache_dir=tmp_path / "one")
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster, \
            Client(cluster) as client:
        run = run_on_cluster(TINY_CORPUS, quotes, None, cluster=client, cache_dir=tmp_path / "cluster")
        loaded = client.run(lambda: "torch" in sys.modules or "sentence_transformers" in sys.modules)
    assert jsonl_bytes(run.results) == jsonl_bytes(one.results)
    assert run.embedder == one.embedder == DEFAULT_MODEL
    assert run.results[0].cosine is not None and run.results[0].cosine > 0.7
    assert len(loaded) == 2 and not any(loaded.values()), loaded


def test_a_started_local_cluster_gives_the_results_of_the_in_process_run_with_the_model(tmp_path: Path) -> None:
    """``--cluster local:2`` as the command line starts it, its workers asking the client's model."""
    pytest.importorskip("distributed")
    from quoteverify.pipeline.cluster.client import run_on_cluster

    quotes = [{"quote_id": "p", "quote": PARAPHRASE, "document": "interview-03"}, UNRELATED]
    one = quoteverify.run(TINY_CORPUS, quotes, None)
    run = run_on_cluster(TINY_CORPUS, quotes, None, cluster="local:2")
    assert jsonl_bytes(run.results) == jsonl_bytes(one.results)
    assert run.results[0].cosine is not None and run.results[0].cosine > 0.7


_ASKING = """
import sys
from quoteverify.judge.embed import ModelAddress, SharedModel
model = SharedModel(ModelAddress(sys.argv[1], bytes.fromhex(sys.argv[2])), threads=2)
vectors = model.encode(sys.argv[3:])
assert "torch" not in sys.modules, "the model was loaded in this process"
sys.stdout.write(vectors.tobytes().hex())
"""


def test_another_process_asks_the_shared_model_for_the_vectors_of_a_model_loaded_here() -> None:
    """A model process listening (``shared_model``) answers another process of this machine with the vectors
    of a model loaded in that process, to the bit; a process with the wrong key is refused and loads its own
    (here: a model that is not there, so it says why), and the model process goes on answering."""
    from quoteverify.judge.embed import ModelAddress, SharedModel, shared_model

    address = shared_model(DEFAULT_MODEL, 2)
    assert address is not None
    wrong = SharedModel(ModelAddress(address.path, b"not the key"), "/nonexistent/model", threads=2)
    with pytest.raises(ConfigError, match="neither all-MiniLM-L6-v2 nor a local model folder"):
        wrong.encode(["a test"])
    done = subprocess.run([sys.executable, "-c", _ASKING, address.path, address.authkey.hex(), SOURCE, PARAPHRASE],
                          capture_output=True, text=True, check=True)
    cold = SentenceTransformerEmbedder(DEFAULT_MODEL, threads=2)
    assert done.stdout == cold.encode([SOURCE, PARAPHRASE]).tobytes().hex()


def test_an_asker_whose_model_process_is_gone_loads_the_model_itself() -> None:
    from quoteverify.judge.embed import ModelAddress, SharedModel

    gone = SharedModel(ModelAddress("/nonexistent/socket", b"key"), "/nonexistent/model", threads=2)
    with pytest.raises(ConfigError, match="neither all-MiniLM-L6-v2 nor a local model folder"):
        gone.encode(["a test"])


def test_askers_of_a_model_process_gone_or_held_up_by_a_peer_are_never_left_waiting() -> None:
    """A peer that connects and says nothing, or sends what is no key and leaves, holds up no other asker;
    the model process killed, an asker is refused at once and loads the model itself (here: one that is not
    there, so it says why)."""
    import os
    import signal
    import socket
    import time

    from quoteverify.judge.embed import SharedModel, _ModelProcess, shared_model

    address = shared_model(DEFAULT_MODEL, 1)
    assert address is not None
    silent = socket.socket(socket.AF_UNIX)
    silent.connect(address.path)
    junk = socket.socket(socket.AF_UNIX)
    junk.connect(address.path)
    junk.sendall(b"GET / HTTP/1.1\r\n\r\n")
    junk.close()
    asked = SharedModel(address, threads=1).encode([SOURCE])
    silent.close()
    assert asked.tobytes() == SentenceTransformerEmbedder(DEFAULT_MODEL, threads=1).encode([SOURCE]).tobytes()

    process = _ModelProcess._running[DEFAULT_MODEL, 1]._process
    os.kill(process.pid, signal.SIGKILL)
    process.join()
    started = time.monotonic()
    with pytest.raises(ConfigError, match="neither all-MiniLM-L6-v2 nor a local model folder"):
        SharedModel(address, "/nonexistent/model", threads=1).encode(["a test"])
    assert time.monotonic() - started < 5
