"""The real sentence model, once: it loads offline from the bundled package and its cosines make sense."""
from __future__ import annotations

import pytest

import quoteverify
from conftest import TINY_CORPUS
from quoteverify.embed import DEFAULT_MODEL, SentenceTransformerEmbedder, cosines

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
