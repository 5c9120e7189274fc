"""Overlapping windows of word tokens, per document (never across documents)."""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from ..model.types import Window
from ..sources.corpus import Corpus


@dataclass(frozen=True)
class Windows:
    """Windows as arrays, in order: each one's document, first word and end (a corpus has tens of thousands)."""

    doc: np.ndarray  # int32
    start: np.ndarray  # int64
    end: np.ndarray  # int64

    @classmethod
    def of(cls, windows: Windows | list[Window]) -> Windows:
        if isinstance(windows, Windows):
            return windows
        return cls(np.fromiter((w.doc for w in windows), dtype=np.int32, count=len(windows)),
                   np.fromiter((w.start for w in windows), dtype=np.int64, count=len(windows)),
                   np.fromiter((w.end for w in windows), dtype=np.int64, count=len(windows)))

    def __len__(self) -> int:
        return len(self.doc)

    def __getitem__(self, k: int) -> Window:
        return Window(int(self.doc[k]), int(self.start[k]), int(self.end[k]))

    def __iter__(self) -> Iterator[Window]:
        return map(Window, self.doc.tolist(), self.start.tolist(), self.end.tolist())


def make_windows(corpus: Corpus, *, size: int, overlap: float) -> Windows:
    """Windows of ``size`` words, each sharing ``overlap`` of its words with the next: in each document, from
    its first word, every ``stride`` words, until one reaches its end (a document of no words has one, empty)."""
    stride = max(1, round(size * (1.0 - overlap)))
    lengths = np.fromiter((len(source.tokens) for source in corpus.sources), dtype=np.int64,
                          count=len(corpus.sources))
    counts = 1 + np.maximum(0, -(-(lengths - size) // stride))  # the last starts where start + size >= length
    first = np.cumsum(counts) - counts
    start = (np.arange(int(counts.sum()), dtype=np.int64) - np.repeat(first, counts)) * stride
    doc = np.repeat(np.arange(len(lengths), dtype=np.int32), counts)
    return Windows(doc, start, np.minimum(start + size, lengths[doc]))
