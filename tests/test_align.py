"""Alignment: the exact fast path, fuzzy pieces, and the dynamic programme underneath."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from conftest import TINY_CORPUS

from quoteverify.model.config import load_config
from quoteverify.model.types import Document
from quoteverify.search.align import Aligner, Sides, _dp, _trace, exact_align
from quoteverify.search.index import Bm25Index
from quoteverify.search.window import make_windows
from quoteverify.sources.corpus import EDITORIAL, Corpus, prepare_quote

CONFIG = load_config()


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return Corpus([Document(doc_id, "", text, "") for doc_id, text in sorted(TINY_CORPUS.items())])


@pytest.fixture(scope="module")
def aligner(corpus: Corpus) -> Aligner:
    windows = make_windows(corpus, size=CONFIG.window.size, overlap=CONFIG.window.overlap)
    return Aligner(corpus, Bm25Index(corpus, windows), align=CONFIG.align, top_k=CONFIG.index.top_k)


def pieces(corpus: Corpus, alignment) -> list[tuple[str, int, str]]:
    """(document, fragment, original text of the source words) of each located piece."""
    out = []
    for seg in alignment.segments:
        src = corpus.sources[seg.doc]
        start, end = src.span(seg.d_start, seg.d_end)
        out.append((src.document.doc_id, seg.fragment, src.document.text[start:end]))
    return out


@pytest.mark.parametrize(("quote", "method", "expected"), [
    ("The committee did not approve the budget until March.", "exact",
     [("interview-01", 0, "The committee did not approve the budget until March")]),
    ("the committee did NOT approve the budget until march", "exact",
     [("interview-01", 0, "The committee did not approve the budget until March")]),
    ("and we carried the children upstairs", "exact",
     [("interview-03", 0, "and we carried the\r\nchildren upstairs")]),
    ("The training was useful ... Three days is not enough to learn a new system.", "exact",
     [("interview-02", 0, "The training was useful"),
      ("interview-02", 1, "Three days is not enough to learn a new system")]),
    ("We should have asked [her] for help much earlier.", "exact",
     [("interview-01", 0, "We should have asked Dr. Okafor for help much earlier")]),
    ("The committee did not aprove the budget until March.", "fuzzy",
     [("interview-01", 0, "The committee did not approve the budget until March")]),
    ("Honestly, it was harder than we expected.", "fuzzy",
     [("interview-01", 0, "Honestly, um, it was harder than we expected")]),
    ("We should have asked Dr. Okafor for help much earlier. The training was useful, but it was far too short.",
     "fuzzy", [("interview-01", 0, "We should have asked Dr. Okafor for help much earlier"),
               ("interview-02", 0, "The training was useful, but it was far too short")]),
    ("The committee approved the budget in March after a long fight with the ministry.", "none", []),
])
def test_alignment(corpus: Corpus, aligner: Aligner, quote: str, method: str, expected: list) -> None:
    alignment = aligner.align(prepare_quote(quote, corpus))
    assert alignment.method == method
    assert pieces(corpus, alignment) == expected


def test_exact_segments_count_matched_words(corpus: Corpus, aligner: Aligner) -> None:
    alignment = aligner.align(prepare_quote("The training was useful ... Three days is not enough", corpus))
    assert [(s.q_start, s.q_end, s.matched) for s in alignment.segments] == [(0, 4, 4), (4, 9, 5)]
    assert alignment.quote_words == 9


def test_unlocated_quote_keeps_its_nearest_passage(corpus: Corpus, aligner: Aligner) -> None:
    alignment = aligner.align(prepare_quote(
        "The committee approved the budget in March after a long fight with the ministry.", corpus))
    near = alignment.nearest
    src = corpus.sources[near.doc]
    start, end = src.span(near.d_start, near.d_end)
    assert (src.document.doc_id, src.document.text[start:end], near.matched) == (
        "interview-01", "the budget until March", 3)
    assert alignment.bm25_score is not None and alignment.bm25_score > 0


def test_exact_path_prefers_the_claimed_document() -> None:
    corpus = Corpus([Document("a", "", "We met on Monday. Nothing else.", ""),
                     Document("b", "", "Later. We met on Monday.", "")])
    pq = prepare_quote("We met on Monday.", corpus)
    assert exact_align(pq, corpus, CONFIG.align, None).segments[0].doc == 0
    assert exact_align(pq, corpus, CONFIG.align, 1).segments[0].doc == 1


def test_exact_path_never_crosses_documents(corpus: Corpus) -> None:
    pq = prepare_quote("waited that long. Interviewer: Tell me about the training programme.", corpus)
    assert exact_align(pq, corpus, CONFIG.align, None) is None


def test_ellipsis_gap_is_bounded(corpus: Corpus) -> None:
    pq = prepare_quote("The training was useful ... Three days is not enough", corpus)
    p = SimpleNamespace(**{**vars(CONFIG.align), "max_gap_words": 6})
    assert exact_align(pq, corpus, p, None) is not None  # six words elided
    p.max_gap_words = 5
    assert exact_align(pq, corpus, p, None) is None


def test_fragments_must_keep_source_order(corpus: Corpus) -> None:
    pq = prepare_quote("Three days is not enough ... The training was useful", corpus)
    assert exact_align(pq, corpus, CONFIG.align, None) is None


# ------------------------------------------------- the dynamic programme itself

P = SimpleNamespace(match=10, mismatch=8, gap=10, weak_gap=1)
A, B, X, Y = 0, 1, 2, 3


def run(q, d, d_weak=None, q_weak=None, *, local=True):
    q_ids = np.asarray(q, dtype=np.int32)
    d_ids = np.asarray(d, dtype=np.int32)
    q_weak = np.asarray(q_weak if q_weak is not None else [False] * len(q))
    d_weak = np.asarray(d_weak if d_weak is not None else [False] * len(d))
    sides = Sides(q_ids, q_weak, d_ids, d_weak)
    return _dp(sides, P, local=local), sides


@pytest.mark.parametrize(("q", "d", "d_weak", "best"), [
    ([A, B], [A, B], None, 20),                 # two matches
    ([A, B], [A, X, B], [False, True, False], 19),  # a filler skipped for weak_gap
    ([A, B], [A, X, B], None, 10),              # a content word skipped costs a full gap
    ([A, B], [A, X], None, 10),                 # the best local alignment is the one match
    ([A, X, B], [A, Y, B], None, 12),           # match, mismatch, match
    ([A, EDITORIAL, B], [A, X, Y, B], None, 18),  # an editorial slot stands for two words at 1 each
    ([A, EDITORIAL, B], [A, B], None, 20),      # ... or for none, free
    ([X, Y], [A, B], None, 0),                  # nothing in common
])
def test_local_scores(q, d, d_weak, best) -> None:
    H, _ = run(q, d, d_weak)
    assert H.max() == best


def test_semi_global_uses_every_quote_word() -> None:
    H, args = run([X, A, B], [A, B, Y], local=False)
    assert H[-1].max() == 20 - 10  # the unmatched X costs a gap
    i0, j0, matched = _trace(H, args, P, 3, int(np.argmax(H[-1])), local=False)
    assert (j0, matched) == (0, 2)


def test_trace_finds_the_local_span() -> None:
    H, args = run([A, B], [Y, A, X, B, Y], [False, False, True, False, False])
    i, j = divmod(int(np.argmax(H)), H.shape[1])
    assert (i, j) == (2, 4)
    assert _trace(H, args, P, i, j, local=True) == (0, 1, 2)


def _reference_dp(q, q_weak, d, d_weak, local: bool) -> np.ndarray:
    """The recurrence cell by cell, as the docstring of _dp states it: a diagonal move scores a match or a
    mismatch, passing a quote word by costs a gap (weak_gap for a weak word), passing a source word by the
    same by the source word's weakness; an editorial slot matches nothing, scores -1 on the diagonal, is
    passed by for free, and source words are passed beside it at 1 each."""
    n, m = len(q), len(d)
    H = np.zeros((n + 1, m + 1), dtype=np.int64)
    for i in range(1, n + 1):
        editorial = q[i - 1] == EDITORIAL
        for j in range(m + 1):
            up = H[i - 1, j] - (0 if editorial else P.weak_gap if q_weak[i - 1] else P.gap)
            best = up
            if j:
                step = -1 if editorial else P.match if d[j - 1] == q[i - 1] else -P.mismatch
                left = H[i, j - 1] - (1 if editorial else P.weak_gap if d_weak[j - 1] else P.gap)
                best = max(best, H[i - 1, j - 1] + step, left)
            H[i, j] = max(best, 0) if local else best
    return H


@pytest.mark.parametrize("local", [True, False])
def test_the_row_at_a_time_programme_is_the_recurrence_cell_by_cell(local: bool) -> None:
    rng = np.random.default_rng(7)
    for _ in range(200):
        n, m = int(rng.integers(1, 12)), int(rng.integers(1, 30))
        q = rng.integers(-2, 6, n)  # -1: a word no source has; -2: an editorial slot
        d = rng.integers(0, 6, m)
        q_weak, d_weak = rng.random(n) < 0.3, rng.random(m) < 0.3
        H, _ = run(q, d, d_weak, q_weak, local=local)
        assert np.array_equal(H, _reference_dp(q, q_weak, d, d_weak, local)), (q, d, q_weak, d_weak)
