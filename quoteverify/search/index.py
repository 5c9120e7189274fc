"""BM25 over windows: which stretches of which documents a quote may come from."""
from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from ..model.config import IndexConfig
from ..model.types import Candidate, Window
from ..plumbing.cache import Cache, digest
from ..sources.corpus import Corpus
from .window import Windows

# The scores of this many of the last queries are kept: aligning one quote asks for the same words again (the
# retry reading near words as equal, the claimed document alone), each time a pass over every window.
RECENT_QUERIES = 4


@dataclass(frozen=True)
class Bm25Stats:
    """What BM25 word weights depend on beyond one window: how many windows hold each word, how many
    windows there are and their total length. Summed over the shards of a corpus, the corpus's own."""

    doc_freqs: dict[str, int]
    windows: int
    words: int

    def __add__(self, other: Bm25Stats) -> Bm25Stats:
        freqs = dict(self.doc_freqs)
        for word, n in other.doc_freqs.items():
            freqs[word] = freqs.get(word, 0) + n
        return Bm25Stats(freqs, self.windows + other.windows, self.words + other.words)

    @cached_property
    def key(self) -> str:
        return digest("stats", self.windows, self.words, *sorted(f"{w}\x01{n}" for w, n in self.doc_freqs.items()))


@dataclass(frozen=True)
class Retrieval:
    """Candidate regions for one query, best first, and the evidence behind them."""

    candidates: tuple[Candidate, ...]
    best_score: float | None
    ratio: float | None  # best score / best score elsewhere


@dataclass(frozen=True)
class Bm25Settings:
    """Which BM25 implementation scores the windows, and its k1 and b (the config's ``index`` section)."""

    backend: str = "bm25s"
    k1: float = 1.5
    b: float = 0.75

    @classmethod
    def of(cls, index: IndexConfig) -> Bm25Settings:
        return cls(index.backend, index.k1, index.b)


def _window_words(corpus: Corpus, win_doc: np.ndarray, win_start: np.ndarray, win_end: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray]:
    """The word ids of every window, one after the other, and the window of each."""
    lengths = win_end - win_start
    first = corpus.doc_starts[win_doc] + win_start  # corpus-wide position of each window's first word
    shift = np.repeat(first - (np.cumsum(lengths) - lengths), lengths)
    kind = np.int32 if len(lengths) < 2**31 else np.int64
    return corpus.all_ids[shift + np.arange(len(shift))], np.repeat(np.arange(len(lengths), dtype=kind), lengths)


def _pairs(words: np.ndarray, window: np.ndarray, n_windows: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each word in each window once, ordered by word and then window, as a column-major (CSC) matrix lists
    its entries: (the word, the window, how often the word occurs there)."""
    keys, counts = np.unique(words.astype(np.int64) * n_windows + window, return_counts=True)
    return (keys // n_windows).astype(np.int64), (keys % n_windows).astype(np.int32), counts


def _score_matrix(pairs: tuple[np.ndarray, np.ndarray, np.ndarray], lengths: np.ndarray, n_vocab: int,
                  idf: np.ndarray, tfc: Callable[[np.ndarray, int], np.ndarray]) -> dict[str, Any]:
    """bm25s's eager score matrix (``BM25.build_index_from_ids``: windows as rows, words as columns, CSC) with
    whole-array operations where bm25s loops over the windows: the same arrays, bit for bit. Its score of a
    word in a window is ``idf[word] * tfc(word's count there, window's length)``, the term part computed with
    the length as a Python int, as bm25s does window by window (numpy's promotion rules for a scalar and an
    array differ between versions): once per distinct window length (the last window of a document is
    shorter than the others)."""
    words, window, counts = pairs
    tf = counts.astype(np.float32)
    entry_length = lengths[window]
    data = np.empty(len(words), dtype=np.float32)
    common = int(np.bincount(lengths).argmax()) if len(lengths) else 0
    rest = np.flatnonzero(entry_length != common)
    main = np.ones(len(words), dtype=bool)
    main[rest] = False
    data[main] = idf[words[main]] * tfc(tf[main], common)
    for length in np.unique(entry_length[rest]).tolist():
        at = rest[entry_length[rest] == length]
        data[at] = idf[words[at]] * tfc(tf[at], int(length))
    indptr = np.zeros(n_vocab + 1, dtype=np.int64)
    np.cumsum(np.bincount(words, minlength=n_vocab), out=indptr[1:])
    return {"data": data, "indices": window, "indptr": indptr, "num_docs": len(lengths)}


def _give_vocab(model: Any, vocab: dict[str, int], *, own: bool) -> None:
    """Give a bm25s model the vocabulary its score matrix is by; ``own``: the corpus's own, which gets the empty
    token that ``BM25.index`` adds to the vocabulary it is given."""
    if own and "" not in vocab:
        vocab[""] = max(vocab.values(), default=-1) + 1
    model.vocab_dict = vocab
    model.unique_token_ids_set = set(vocab.values())


@dataclass(frozen=True)
class BuiltIndex:
    """An index built in another process (``Bm25Index.built_apart``): the backend's model, whether its
    vocabulary is the corpus's own (then left out), the seconds it took, what the cache warned of there and
    whether it could still write there."""

    model: Any
    own_vocab: bool
    seconds: float
    warnings: list[str]
    cache_writable: bool


BACKEND_MODULES = {"bm25s": "bm25s", "rank-bm25": "rank_bm25"}  # each BM25 backend's module, by its config name


def import_backend(backend: str) -> Any:
    """The module of a BM25 backend (``bm25s`` or ``rank_bm25``), imported on first call: only the configured
    one is imported, and only by a run that searches or loads ahead (bm25s, with scipy, takes some 0.4 s)."""
    if backend == "bm25s":
        # Only the configured BM25 backend is imported, when it is first needed.
        import bm25s

        return bm25s
    # Only the configured BM25 backend is imported, when it is first needed.
    import rank_bm25

    return rank_bm25


class Bm25Index:
    """A BM25 index whose 'documents' are the corpus windows."""

    def __init__(self, corpus: Corpus, windows: Windows | list[Window], *, bm25: Bm25Settings = Bm25Settings(),
                 cache: Cache | None = None, key: str = "", stats: Bm25Stats | None = None):
        backend, k1, b = bm25.backend, bm25.k1, bm25.b
        self.corpus = corpus
        self.backend = backend
        self.k1, self.b = k1, b
        self.windows = Windows.of(windows)
        self.win_doc, self.win_start, self.win_end = self.windows.doc, self.windows.start, self.windows.end
        self.cache = cache or Cache(None)
        # What the index depends on: the documents, the windows, the backend and its parameters.
        self.key = self._plain_key = digest("index", corpus.key, key, backend, k1, b)
        self.build_seconds = 0.0
        self.stats: Bm25Stats | None = None
        # Told every retrieval (quoteverify.pipeline.cluster.shards checks that a larger corpus would retrieve
        # the same).
        self.listener: Callable[[list[str] | tuple[str, ...], np.ndarray, int | None], None] | None = None
        self._recent: dict[tuple[str, ...], np.ndarray] = {}
        if stats is not None:
            self.use_stats(stats)
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
        self._recent.clear()
        corpus, windows, k1, b = self.corpus, self.windows, self.k1, self.b
        backend = import_backend(self.backend)
        if self.backend == "bm25s":
            stored = self.cache.index_dir(self.key)
            if stored is not None:
                try:
                    self._model = backend.BM25.load(stored, load_corpus=False, show_progress=False)
                except Exception as exc:  # whatever the library raises for a file it cannot read
                    self.cache.index_damaged(self.key, exc)
                    self._model = None
            if self._model is None:
                self._model = self._bm25s_model(backend, self.stats)
                model = self._model
                self.cache.store_dir(self.key, lambda path: model.save(path, show_progress=False))
        else:
            self._model = backend.BM25Okapi(
                [corpus.sources[w.doc].tokens.words[w.start:w.end] for w in windows], k1=k1, b=b)
        self.build_seconds = time.perf_counter() - started

    @property
    def built(self) -> bool:
        return self._model is not None

    def built_apart(self) -> BuiltIndex:
        """Build the index (``build``) for another process to ``take``: called in a process forked from it, which
        holds the same corpus (a bm25s model of its own vocabulary is sent without it: the taker has it)."""
        self.build()
        model: Any = self._model
        own = self.backend == "bm25s" and model is not None and model.vocab_dict is self.corpus.vocab
        if own:
            model.vocab_dict = model.unique_token_ids_set = None
        return BuiltIndex(model, own, self.build_seconds, self.cache.warnings, self.cache.writable)

    def take(self, built: BuiltIndex, *, seconds: float | None = None) -> None:
        """Use the index another process built of this same corpus and windows (``built_apart``); ``seconds``:
        the time this process spent on it (waiting, receiving), else the time it took there."""
        model: Any = built.model
        scores = getattr(model, "scores", None)
        if isinstance(scores, dict):  # a bm25s model
            # An array unpickled holds a copy of its dtype, not numpy's own: np.add.at (bm25s's scoring) then
            # takes a slow path, ten times slower, which also sums in another order.
            model.scores = {k: v.view(np.dtype(v.dtype.str)) if isinstance(v, np.ndarray) else v
                            for k, v in scores.items()}
        if built.own_vocab:
            _give_vocab(model, self.corpus.vocab, own=True)
        self._recent.clear()
        self._model, self.build_seconds = model, built.seconds if seconds is None else seconds
        self.cache.heard(built.warnings, writable=built.cache_writable)

    def use_stats(self, stats: Bm25Stats) -> None:
        """Weight the words with a larger corpus's stats (this corpus is a part of it): every window then
        scores what it scores in that corpus's index, to the bit. Only the bm25s backend can."""
        if self.backend != "bm25s":
            raise ValueError("corpus-wide BM25 stats need the bm25s backend")
        self.stats, self._model = stats, None
        self._recent.clear()
        self.key = digest(self._plain_key, stats.key)

    def score_with(self, model: Any) -> None:
        """Score with ``model`` (its ``get_scores(words)`` one score per window of this index), one that
        holds the scores already, instead of building an index of its own."""
        self._model = model
        self._recent.clear()

    def entries(self, vocab: Mapping[str, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """This bm25s index's scores as entries, by word: (the word's id in ``vocab``, which must hold
        every word of this index; the window; its score there)."""
        self.build()
        model: Any = self._model
        ids = np.zeros(len(model.vocab_dict) + 1, dtype=np.int64)
        for word, token in model.vocab_dict.items():
            ids[token] = vocab[word]
        indptr = np.asarray(model.scores["indptr"])
        tokens = np.repeat(np.arange(len(indptr) - 1), np.diff(indptr))
        return ids[tokens], np.asarray(model.scores["indices"], dtype=np.int64), np.asarray(model.scores["data"])

    def own_stats(self) -> Bm25Stats:
        """This index's own BM25 stats: in how many windows each word occurs, the windows, their words."""
        freqs = np.zeros(len(self.corpus.vocab), dtype=np.int64)
        lengths = 0
        for w in self.windows:
            ids = self.corpus.sources[w.doc].ids[w.start:w.end]
            freqs[np.unique(ids)] += 1
            lengths += len(ids)
        return Bm25Stats({word: int(n) for word, n in zip(self.corpus.vocab, freqs.tolist()) if n},
                         len(self.windows), lengths)

    def _bm25s_model(self, bm25s: Any, stats: Bm25Stats | None) -> Any:
        """A bm25s model of the windows, as ``BM25.index`` builds it from their word ids (``stats``: weighted
        with a larger corpus's window frequencies, window count and mean window length instead of these
        windows' own), its score matrix made by ``_score_matrix``."""
        # Only the configured BM25 backend is imported (this is a bm25s model).
        from bm25s import scoring

        model = bm25s.BM25(k1=self.k1, b=self.b)
        vocab = self.corpus.vocab if stats is None else dict(self.corpus.vocab)
        pairs = _pairs(*_window_words(self.corpus, self.win_doc, self.win_start, self.win_end), len(self.windows))
        lengths = self.win_end - self.win_start
        if stats is None:
            freqs = dict(enumerate(np.bincount(pairs[0], minlength=len(vocab)).tolist()))
            n_windows, mean = len(self.windows), lengths.mean()
        else:
            freqs = {i: stats.doc_freqs.get(w, 0) for w, i in vocab.items()}
            # bm25s takes the mean of the window lengths as a numpy float64: the same value, the same type.
            n_windows, mean = stats.windows, np.float64(stats.words) / np.float64(stats.windows)
        idf = scoring._build_idf_array(freqs, n_docs=n_windows, compute_idf_fn=scoring._select_idf_scorer(
            model.idf_method), dtype=model.dtype)
        tfc = scoring._select_tfc_scorer(model.method)
        model.scores = _score_matrix(pairs, lengths, len(vocab), idf, lambda tf, length: tfc(
            tf_array=tf, l_d=length, l_avg=mean, k1=self.k1, b=self.b, delta=model.delta))
        model.nonoccurrence_array = None
        _give_vocab(model, vocab, own=stats is None)
        return model

    def __len__(self) -> int:
        return len(self.win_doc)

    def scores(self, words: list[str] | tuple[str, ...]) -> np.ndarray:
        """BM25 score of every window for a query of words (read-only: it may be kept for the next query)."""
        query = tuple(w for w in words if w in self.corpus.vocab)
        if not query:
            return np.zeros(len(self), dtype=np.float32)
        if self._model is None:
            self._build()
        kept = self._recent.get(query)
        if kept is None:
            model: Any = self._model
            kept = np.asarray(model.get_scores(list(query)), dtype=np.float32)
            kept.flags.writeable = False
            self._recent[query] = kept
            if len(self._recent) > RECENT_QUERIES:
                del self._recent[next(iter(self._recent))]
        return kept

    def retrieve(self, words: list[str] | tuple[str, ...], *, top_k: int, span_words: int,
                 prefer_doc: int | None = None, only_doc: int | None = None) -> Retrieval:
        """The ``top_k`` best regions: best windows merged and widened to fit ``span_words``.

        ``prefer_doc`` adds that document's best region; ``only_doc`` searches nothing else.
        """
        scores = self.scores(words)
        if only_doc is not None:
            scores = np.where(self.win_doc == only_doc, scores, 0.0)
        if self.listener is not None:
            self.listener(words, scores, only_doc)
        if not len(scores) or scores.max() <= 0:
            return Retrieval((), None, None)
        take = min(len(scores), top_k * 3)
        top = np.argpartition(-scores, take - 1)[:take]
        top = top[np.lexsort((top, -scores[top]))]
        # A window without a word of the query is no candidate (and so the best windows of a corpus in
        # shards are those of its shards: quoteverify.pipeline.cluster.shards).
        picked = [int(w) for w in top if scores[w] > 0]
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
