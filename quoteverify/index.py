"""BM25 over windows: which stretches of which documents a quote may come from."""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from .cache import Cache, digest
from .corpus import Corpus
from .types import Candidate, Window


@dataclass(frozen=True)
class Retrieval:
    """Candidate regions for one query, best first, and the evidence behind them."""

    candidates: tuple[Candidate, ...]
    best_score: float | None
    ratio: float | None  # best score / best score elsewhere


class Bm25Index:
    """A BM25 index whose 'documents' are the corpus windows."""

    def __init__(self, corpus: Corpus, windows: list[Window], *, backend: str = "bm25s",
                 k1: float = 1.5, b: float = 0.75, cache: Cache | None = None, key: str = ""):
        self.corpus = corpus
        self.backend = backend
        self.k1, self.b = k1, b
        self.win_doc = np.fromiter((w.doc for w in windows), dtype=np.int32, count=len(windows))
        self.win_start = np.fromiter((w.start for w in windows), dtype=np.int64, count=len(windows))
        self.win_end = np.fromiter((w.end for w in windows), dtype=np.int64, count=len(windows))
        self.windows = windows
        self.cache = cache or Cache(None)
        # What the index depends on: the documents, the windows, the backend and its parameters.
        self.key = digest("index", corpus.key, key, backend, k1, b)
        self.build_seconds = 0.0
        self._model = None
        if backend not in ("bm25s", "rank-bm25"):
            raise ValueError(f"unknown BM25 backend {backend!r}")

    def build(self) -> None:
        """Build (or read from the cache) the index now, if it is not built yet and there are words."""
        if self._model is None and self.corpus.vocab:
            self._build()

    def _build(self):
        """Index on first use: a run whose quotes are all verbatim never pays for it."""
        started = time.perf_counter()
        corpus, windows, k1, b = self.corpus, self.windows, self.k1, self.b
        if self.backend == "bm25s":
            # Only the configured BM25 backend is imported.
            import bm25s

            stored = self.cache.index_dir(self.key)
            if stored is not None:
                try:
                    self._model = bm25s.BM25.load(stored, load_corpus=False, show_progress=False)
                except Exception as exc:  # whatever the library raises for a file it cannot read
                    self.cache.index_damaged(self.key, exc)
                    self._model = None
            if self._model is None:
                self._model = bm25s.BM25(k1=k1, b=b)
                ids = [corpus.sources[w.doc].ids[w.start:w.end].tolist() for w in windows]
                self._model.index((ids, corpus.vocab), show_progress=False)
                model = self._model
                self.cache.store_dir(self.key, lambda path: model.save(path, show_progress=False))
        else:
            # Only the configured BM25 backend is imported.
            from rank_bm25 import BM25Okapi

            self._model = BM25Okapi([corpus.sources[w.doc].tokens.words[w.start:w.end] for w in windows],
                                    k1=k1, b=b)
        self.build_seconds = time.perf_counter() - started

    def __len__(self) -> int:
        return len(self.win_doc)

    def scores(self, words: list[str] | tuple[str, ...]) -> np.ndarray:
        """BM25 score of every window for a query of words."""
        query = [w for w in words if w in self.corpus.vocab]
        if not query:
            return np.zeros(len(self), dtype=np.float32)
        if self._model is None:
            self._build()
        model: Any = self._model
        return np.asarray(model.get_scores(query), dtype=np.float32)

    def retrieve(self, words: list[str] | tuple[str, ...], *, top_k: int, span_words: int,
                 prefer_doc: int | None = None, only_doc: int | None = None) -> Retrieval:
        """The ``top_k`` best regions: best windows merged and widened to fit ``span_words``.

        ``prefer_doc`` adds that document's best region; ``only_doc`` searches nothing else.
        """
        scores = self.scores(words)
        if only_doc is not None:
            scores = np.where(self.win_doc == only_doc, scores, 0.0)
        if not len(scores) or scores.max() <= 0:
            return Retrieval((), None, None)
        take = min(len(scores), top_k * 3)
        top = np.argpartition(-scores, take - 1)[:take]
        top = top[np.lexsort((top, -scores[top]))]
        picked = list(top)
        if prefer_doc is not None:
            in_doc = np.flatnonzero(self.win_doc == prefer_doc)
            if len(in_doc):
                best_in_doc = int(in_doc[np.argmax(scores[in_doc])])
                if scores[best_in_doc] > 0 and best_in_doc not in picked:
                    picked.append(best_in_doc)
        margin = max(16, span_words // 2 + 8)
        regions: list[Candidate] = []
        for w in picked:
            doc = int(self.win_doc[w])
            n = len(self.corpus.sources[doc].tokens)
            mid = (int(self.win_start[w]) + int(self.win_end[w])) // 2
            half = max(span_words, int(self.win_end[w] - self.win_start[w])) // 2 + margin
            start, end = max(0, mid - half), min(n, mid + half)
            for i, r in enumerate(regions):
                if r.doc == doc and start < r.end and r.start < end:
                    regions[i] = Candidate(doc, min(start, r.start), max(end, r.end), r.score)
                    break
            else:
                regions.append(Candidate(doc, start, end, float(scores[w])))
        best = regions[0]
        elsewhere = [r.score for r in regions[1:]]
        ratio = best.score / elsewhere[0] if elsewhere and elsewhere[0] > 0 else None
        keep = regions[:top_k]
        if prefer_doc is not None and all(r.doc != prefer_doc for r in keep):
            keep += [r for r in regions if r.doc == prefer_doc][:1]
        return Retrieval(tuple(keep), best.score, ratio)
