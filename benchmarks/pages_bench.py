"""What reading pages (quoteverify.sources.pages) adds to preparing documents, against normalizing them.

    python benchmarks/pages_bench.py ../shared/bench/scale/docs [../shared/bench/paged/docs ...]

Every document is read for pages, paged or not, so the figure that matters is the ratio of
``page_structure`` to ``normalize`` + ``word_tokens`` (what preparing a document cost before), measured
in the same process on the same texts. A text dense with short numbered lines (the worst case for the
page-number chain) is timed too. Timings on a shared machine are noisy: compare ratios.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from quoteverify.model.types import Document  # noqa: E402
from quoteverify.sources.corpus import normalize_pages  # noqa: E402
from quoteverify.sources.documents import load_documents  # noqa: E402
from quoteverify.sources.normalize import normalize  # noqa: E402
from quoteverify.sources.pages import page_structure  # noqa: E402
from quoteverify.sources.tokenize import word_tokens  # noqa: E402


def timed(work) -> float:
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


def compare(name: str, documents: list) -> None:
    chars = sum(len(d.text) for d in documents)
    prepare = timed(lambda: [word_tokens(normalize(d.text).text) for d in documents])
    structures = []
    pages = timed(lambda: structures.extend(page_structure(d.text, d.layout) for d in documents))
    skipping = timed(lambda: [normalize_pages(d.text, s) for d, s in zip(documents, structures)])
    paged = sum(s.paged for s in structures)
    print(f"{name}: {len(documents)} documents, {chars:,} characters, {paged} paged")
    print(f"  normalize + tokenize {prepare:.3f} s; pages {pages:.3f} s ({pages / prepare:.1%} of it); "
          f"normalizing without furniture {skipping:.3f} s")


def main() -> None:
    for folder in sys.argv[1:] or ["../shared/bench/scale/docs"]:
        compare(folder, list(load_documents([folder]).documents))
    dense = "\n".join(f"In {1900 + i % 100} we counted {i} sheep and {i * 3} goats." for i in range(15000))
    compare("short numbered lines (worst case)", [Document("dense", "", dense, "")])


if __name__ == "__main__":
    main()
