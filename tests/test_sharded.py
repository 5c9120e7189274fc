"""The shards' exact summaries, reduced, find the document the whole-corpus exact path finds."""
from __future__ import annotations

import random

import pytest

from quoteverify.align import exact_align
from quoteverify.config import as_config
from quoteverify.corpus import Corpus, prepare_quote
from quoteverify.sharded import pick_exact
from quoteverify.types import Document

WORDS = "the flood came fast we lost the roof and the council sent a boat to the school".split()


def _corpus(rng: random.Random) -> list[Document]:
    docs = []
    for i in range(7):
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(5, 80)))
        docs.append(Document(f"d{i}", "", text, ""))
    return docs


def _quote(rng: random.Random, docs: list[Document]) -> str:
    words = rng.choice(docs).text.split()
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
        expected = exact_align(prepare_quote(text, whole), whole, settings, claimed)
        summaries = [(p[d], n, first) for corpus, p in shard_corpora
                     for d, n, first in exact_summary_of(text, corpus)]
        assert pick_exact(summaries, claimed) == (None if expected is None else expected.segments[0].doc), text


def exact_summary_of(text: str, corpus: Corpus) -> list[tuple[int, int, int]]:
    from quoteverify.align import exact_summary

    return exact_summary(prepare_quote(text, corpus), corpus, as_config(None).align)


def test_only_the_first_occurrences_are_tried() -> None:
    # 1,500 occurrences of the first word in each of two shards' documents, the whole match in the second
    # shard's document only after them: the in-process run tries 2,000 and stops, and so must the reduce.
    summaries = [(0, 1500, -1), (1, 1500, 600)]
    assert pick_exact(summaries, None) is None
    assert pick_exact(summaries, 1) == 1  # claimed: its occurrences are tried first
    assert pick_exact([(0, 1500, -1), (1, 1500, 400)], None) == 1
