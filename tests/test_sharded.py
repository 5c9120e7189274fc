"""The shards' exact summaries, reduced, find the document the whole-corpus exact path finds."""
from __future__ import annotations

import random
from dataclasses import replace

import pytest

from quoteverify.model.config import as_config
from quoteverify.model.types import Document
from quoteverify.pipeline.cluster.shards import pick_exact
from quoteverify.search.places import ExactSummary, exact_align, exact_summary
from quoteverify.sources.corpus import Corpus, prepare_quote

WORDS = "the flood came fast we lost the roof and the council sent a boat to the school".split()


def _corpus(rng: random.Random) -> list[Document]:
    docs = []
    for i in range(7):
        words = [rng.choice(WORDS) for _ in range(rng.randint(5, 80))]
        # Turns of three speakers, so a claimed speaker decides between places.
        lines = [f"{rng.choice('ABC')}: " + " ".join(words[k:k + 7]) for k in range(0, len(words), 7)]
        docs.append(Document(f"d{i}", "", "\n".join(lines), ""))
    return docs


def _quote(rng: random.Random, docs: list[Document]) -> str:
    words = [w for w in rng.choice(docs).text.split() if not w.endswith(":")]
    a = rng.randrange(len(words))
    quote = words[a:a + rng.randint(1, 6)]
    if rng.random() < 0.3:
        b = a + len(quote) + rng.randint(0, 4)
        quote += ["..."] + words[b:b + 3]
    return " ".join(quote)


@pytest.mark.parametrize("seed", range(30))
def test_the_reduced_summaries_find_the_whole_corpus_exact_match(seed: int) -> None:
    rng = random.Random(seed)
    docs = _corpus(rng)
    settings = as_config(None).align
    whole = Corpus(docs)
    cut = sorted(rng.sample(range(len(docs)), 2))
    parts = [[k for k in range(len(docs)) if k % 3 == s] for s in range(3)] if seed % 2 else \
        [list(range(cut[0])), list(range(cut[0], len(docs)))]
    shard_corpora = [(Corpus([docs[k] for k in p]), p) for p in parts if p]
    for _ in range(20):
        text = _quote(rng, docs)
        claimed = rng.choice([None, None, rng.randrange(len(docs))])
        speaker = rng.choice(["", "", "A", "B", "C", "D"])
        expected = exact_align(prepare_quote(text, whole), whole, settings, claimed, speaker)
        summaries = [replace(one, doc=p[one.doc]) for corpus, p in shard_corpora
                     for one in exact_summary_of(text, corpus, speaker)]
        picked = pick_exact(summaries, claimed)
        assert (None if picked is None else picked.doc) == (None if expected is None else expected.segments[0].doc), \
            (text, claimed, speaker)


def exact_summary_of(text: str, corpus: Corpus, speaker: str = "") -> list[ExactSummary]:
    return exact_summary(prepare_quote(text, corpus), corpus, as_config(None).align, speaker)


def _summary(doc: int, firsts: int, found: int, spoken: int = -1) -> ExactSummary:
    return ExactSummary(doc, firsts, found, spoken, spoken >= 0)


def test_only_the_first_occurrences_are_tried() -> None:
    # 1,500 occurrences of the first word in each of two shards' documents, the whole match in the second
    # shard's document only after them: the in-process run tries 2,000 and stops, and so must the reduce.
    summaries = [_summary(0, 1500, -1), _summary(1, 1500, 600)]
    assert pick_exact(summaries, None) is None
    assert pick_exact(summaries, 1) == summaries[1]  # claimed: its occurrences are tried first
    assert pick_exact([_summary(0, 1500, -1), _summary(1, 1500, 400)], None).doc == 1


def test_a_claimed_speaker_picks_the_document_where_they_say_it() -> None:
    # Nothing claimed: the first document where the claimed speaker says it, within the tries; else the first
    # document that has it at all. A claimed document that has it wins whoever says it there.
    spoken = [_summary(0, 10, 0), _summary(1, 10, 3, 5), _summary(2, 10, 0, 0)]
    assert pick_exact(spoken, None).doc == 1
    assert pick_exact(spoken, 0).doc == 0
    assert pick_exact([_summary(0, 10, 0), _summary(2, 10, 0)], None).doc == 0
    assert pick_exact([_summary(0, 1995, 0), _summary(1, 10, 3, 5)], None).doc == 0  # past the tries


# ---- the gathered check: BM25 scores of a part of the corpus weighted with the whole corpus's stats


def _indexed(docs: list[Document], stats=None):
    from quoteverify.search.index import Bm25Index
    from quoteverify.search.window import make_windows

    corpus = Corpus(docs)
    index = Bm25Index(corpus, make_windows(corpus, size=16, overlap=0.25), stats=stats)
    return corpus, index


def _texts(rng: random.Random, n: int) -> list[Document]:
    words = WORDS + "river harvest bridge market clinic storm fence doctor".split()
    return [Document(f"d{i}", "", " ".join(rng.choice(words) for _ in range(rng.randint(10, 120))), "")
            for i in range(n)]


@pytest.mark.parametrize("seed", range(6))
def test_every_window_of_a_shard_scores_to_the_bit_what_it_scores_in_the_whole_index(seed: int) -> None:
    import numpy as np

    from quoteverify.search.index import Bm25Stats

    rng = random.Random(seed)
    docs = _texts(rng, 9)
    _, whole = _indexed(docs)
    parts = [[d for k, d in enumerate(docs) if k % 3 == s] for s in range(3)]
    stats = sum((_indexed(p)[1].own_stats() for p in parts), Bm25Stats({}, 0, 0))
    assert (stats.windows, stats.words) == (whole.own_stats().windows, whole.own_stats().words)
    shards = [_indexed(p, stats)[1] for p in parts]
    for _ in range(25):
        query = [rng.choice(WORDS + ["nowhere"]) for _ in range(rng.randint(1, 12))]
        scores = whole.scores(query)
        for part, index in zip(parts, shards):
            mine = np.isin(whole.win_doc, [docs.index(d) for d in part])
            assert np.array_equal(index.scores(query), scores[mine]), query


@pytest.mark.parametrize("seed", range(6))
def test_a_gathered_corpus_scores_from_the_pieces_as_the_whole_index(seed: int) -> None:
    """Documents of one shard and others' documents, each indexed alone: their postings joined score
    every window bit for bit as the whole corpus's index does, and retrieve the same windows."""
    import numpy as np

    from quoteverify.pipeline.cluster.worker import JoinedPostings
    from quoteverify.search.index import Bm25Index
    from quoteverify.search.window import make_windows

    rng = random.Random(seed)
    docs = _texts(rng, 8)
    whole_corpus, whole = _indexed(docs)
    stats = whole.own_stats()
    shard_docs = [d for k, d in enumerate(docs) if k % 2 == 0]
    shard_corpus, shard = _indexed(shard_docs, stats)
    members = sorted(rng.sample(range(len(docs)), 5))
    vocab = dict(shard_corpus.vocab)
    bounds = np.searchsorted(shard.win_doc, np.arange(len(shard_docs) + 1))
    pieces = []
    for k in members:
        if k % 2 == 0:
            i = shard_docs.index(docs[k])
            pieces.append((shard, int(bounds[i]), int(bounds[i + 1])))
        else:
            alone, index = _indexed([docs[k]], stats)
            for word in alone.vocab:
                vocab.setdefault(word, len(vocab))
            pieces.append((index, 0, len(index)))
    gathered = Corpus([docs[k] for k in members])
    index = Bm25Index(gathered, make_windows(gathered, size=16, overlap=0.25), stats=stats)
    index.score_with(JoinedPostings([(piece.entries(vocab), a, b) for piece, a, b in pieces], vocab))
    mine = np.isin(whole.win_doc, members)
    for _ in range(25):
        query = [rng.choice(WORDS + ["nowhere"]) for _ in range(rng.randint(1, 12))]
        assert np.array_equal(index.scores(query), whole.scores(query)[mine]), query
