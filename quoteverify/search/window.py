"""Overlapping windows of word tokens, per document (never across documents)."""
from __future__ import annotations

from ..model.types import Window
from ..sources.corpus import Corpus


def make_windows(corpus: Corpus, *, size: int, overlap: float) -> list[Window]:
    """Windows of ``size`` words, each sharing ``overlap`` of its words with the next."""
    stride = max(1, round(size * (1.0 - overlap)))
    windows: list[Window] = []
    for doc, source in enumerate(corpus.sources):
        n = len(source.tokens)
        start = 0
        while True:
            end = min(start + size, n)
            windows.append(Window(doc, start, end))
            if end >= n:
                break
            start += stride
    return windows
