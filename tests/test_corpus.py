"""The corpus (sources as word ids, with postings) and quotes prepared for alignment."""
from __future__ import annotations

import pytest
from conftest import TINY_CORPUS

from quoteverify.model.types import Document
from quoteverify.sources.corpus import EDITORIAL, Corpus, prepare_quote


@pytest.fixture
def corpus() -> Corpus:
    return Corpus([Document(doc_id, "", text, "") for doc_id, text in sorted(TINY_CORPUS.items())])


def test_sources_in_order_with_one_vocabulary(corpus: Corpus) -> None:
    assert [s.document.doc_id for s in corpus.sources] == ["interview-01", "interview-02", "interview-03",
                                                            "meeting-01"]
    assert corpus.by_id["interview-03"] == 2
    assert len(corpus.all_ids) == sum(len(s.ids) for s in corpus.sources)
    the = corpus.vocab["the"]
    assert all(corpus.sources[d].tokens.words[i] == "the"
               for d, i in (corpus.locate(int(p)) for p in corpus.positions(the)))


def test_positions_and_locate(corpus: Corpus) -> None:
    (position,) = corpus.positions(corpus.vocab["okafor"])
    doc, word = corpus.locate(int(position))
    assert corpus.sources[doc].document.doc_id == "interview-01"
    assert corpus.sources[doc].tokens.words[word] == "okafor"


def test_unknown_words_get_minus_one(corpus: Corpus) -> None:
    assert corpus.ids_of(["the", "zyzzyva"]).tolist() == [corpus.vocab["the"], -1]


def test_span_is_an_original_slice(corpus: Corpus) -> None:
    src = corpus.sources[corpus.by_id["interview-03"]]
    i = src.tokens.words.index("carried")
    start, end = src.span(i, i + 3)
    assert src.document.text[start:end] == "carried the\r\nchildren"


def test_line_numbers_count_crlf_as_one_line_break(corpus: Corpus) -> None:
    src = corpus.sources[corpus.by_id["interview-03"]]
    text = src.document.text
    assert src.line_of(0) == 1
    assert src.line_of(text.index("children upstairs")) == 3
    assert src.line_of(text.index("Our neighbours")) == 5


def test_turns_name_the_speaker(corpus: Corpus) -> None:
    src = corpus.sources[corpus.by_id["meeting-01"]]
    text = src.document.text
    assert src.turn_at(text.index("expertise")).speaker == "Project Manager"
    assert src.turn_at(text.index("(laughs)")).speaker == "User Interface"


@pytest.mark.parametrize(("quote", "text", "words", "fragments", "completions"), [
    ("We lost 15 volunteers.", "We lost 15 volunteers.", ["we", "lost", "15", "volunteers"], [0, 0, 0, 0], []),
    ("[T]he committee did not", "The committee did not", ["the", "committee", "did", "not"], [0, 0, 0, 0],
     ["[T]"]),
    ("the[y] said", "they said", ["they", "said"], [0, 0], ["[y]"]),
    ("We lost ... the clinic", "We lost ... the clinic", ["we", "lost", "the", "clinic"], [0, 0, 1, 1], []),
    ("We lost \u2026 the clinic [...] closed (...) twice", "We lost \u2026 the clinic [...] closed (...) twice",
     ["we", "lost", "the", "clinic", "closed", "twice"], [0, 0, 1, 1, 2, 3], []),
    ("... and then ...", "... and then ...", ["and", "then"], [0, 0], []),
    ("and [the committee] did", "and [the committee] did", ["and", "", "did"], [0, 0, 0], []),
    ("we [sic] looked", "we [sic] looked", ["we", "looked"], [0, 0], []),
    ("", "", [], [], []),
])
def test_prepare_quote(corpus: Corpus, quote: str, text: str, words: list[str], fragments: list[int],
                       completions: list[str]) -> None:
    pq = prepare_quote(quote, corpus)
    assert pq.text == text
    assert list(pq.words) == words
    assert pq.fragment.tolist() == fragments
    assert list(pq.completions) == completions
    assert pq.fragments == (max(fragments) + 1 if fragments else 0)


def test_prepared_ids(corpus: Corpus) -> None:
    pq = prepare_quote("Um, [the board] did zyzzyva", corpus)
    assert pq.ids.tolist() == [corpus.vocab["um"], EDITORIAL, corpus.vocab["did"], -1]
    assert pq.weak.tolist() == [True, False, False, False]
    assert pq.content_words == 3
    assert [pq.norm.text[a:b] for a, b in zip(pq.starts, pq.ends)] == ["um", "[the board]", "did", "zyzzyva"]


def test_fragment_extents_lie_between_ellipses(corpus: Corpus) -> None:
    pq = prepare_quote("We lost ... the clinic", corpus)
    assert [pq.norm.text[a:b] for a, b in pq.extents] == ["we lost ", " the clinic"]
    assert pq.fragment_range(1) == (2, 4)


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_passage_is_whole_sentences_of_one_turn_without_its_label(newline: str) -> None:
    text = newline.join(["Grad A: Sure.", "", "Grad E: But we could talk about this stuff, I think this would be "
                         "fun to do. Right.", "", "Professor C: That, uh, you know."])
    corpus = Corpus([Document("m", "", text, "0" * 64)])
    source = corpus.sources[0]
    fun = source.tokens.words.index("fun")
    lo, hi = source.passage_words(fun, fun + 1, 10)
    a, b = source.span(lo, hi)
    assert text[a:b] == "But we could talk about this stuff, I think this would be fun to do"
    assert source.paragraph_words(fun, fun + 1) == (lo, hi + 1)  # the turn goes on with "Right."


def test_stable_order_is_numpys_stable_argsort() -> None:
    import numpy as np

    from quoteverify.sources.corpus import stable_order

    rng = np.random.default_rng(7)
    for high in (50, 70_000, 2**31 - 1):  # ids in the low 16 bits only, and above them
        ids = rng.integers(0, high, 5_000).astype(np.int32)
        ids[::7] = ids[0]  # ties, whose order must be kept
        assert stable_order(ids).tolist() == np.argsort(ids, kind="stable").tolist()
    assert stable_order(np.zeros(0, np.int32)).tolist() == []


def test_word_frequencies_are_the_lengths_of_their_postings(corpus: Corpus) -> None:
    """``frequencies`` counts each id's positions at once: 0 for a word no source has (-1) and an editorial
    slot (EDITORIAL)."""
    import numpy as np

    ids = np.asarray([*range(len(corpus.vocab)), -1, 0, EDITORIAL, -1], dtype=np.int32)
    assert corpus.frequencies(ids).tolist() == [len(corpus.positions(int(w))) for w in ids]
    assert corpus.frequencies(ids).sum() == len(corpus.all_ids) + len(corpus.positions(0))  # every word, 0 again
