"""Time each stage of a run and compare the total with a plain exact-substring scan.

    python benchmarks/stages.py ../shared/bench/scale [--no-embed] [--quotes N] [--repeat-quotes K]

The baseline is the floor any verifier pays: reading the files and looking
each quote up with ``str.find`` in every document. Timings on a shared machine
are noisy; the ratio to the baseline, measured in the same process, is the
figure to compare between versions.
"""
from __future__ import annotations

import argparse
import csv
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from quoteverify.export import write_results  # noqa: E402
from quoteverify.pipeline.stages import run  # noqa: E402
from quoteverify.sources.documents import load_documents  # noqa: E402
from quoteverify.sources.quotes import load_quotes  # noqa: E402


def substring_scan(docs_dir: Path, quotes_csv: Path) -> tuple[float, int]:
    started = time.perf_counter()
    texts = [p.read_text(encoding="utf-8") for p in sorted(docs_dir.glob("*.txt"))]
    with open(quotes_csv, newline="", encoding="utf-8") as f:
        quotes = [row["quote"] for row in csv.DictReader(f)]
    found = sum(1 for q in quotes if any(q in t for t in texts))
    return time.perf_counter() - started, found


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("set_dir", type=Path, help="a benchmark set: docs/ and quotes.csv")
    ap.add_argument("--no-embed", action="store_true")
    ap.add_argument("--repeat-quotes", type=int, default=1, metavar="K",
                    help="check the quote table K times over (e.g. 34 for about 50,000 quotes)")
    ap.add_argument("--cache-dir", type=Path, help="cache folder (default: none, a cold run)")
    a = ap.parse_args()

    base, found = substring_scan(a.set_dir / "docs", a.set_dir / "quotes.csv")
    print(f"baseline: exact substring scan {base:.2f} s ({found} quotes found verbatim)")

    started = time.perf_counter()
    docs = load_documents([a.set_dir / "docs"])
    table = load_quotes(a.set_dir / "quotes.csv")
    quotes = list(table.quotes) * a.repeat_quotes
    config = {"embed": {"enabled": not a.no_embed}}
    result = run(docs, quotes, config, cache_dir=a.cache_dir)
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        write_results(Path(tmp) / "results.jsonl", result.results)
        result.timings["export"] = time.perf_counter() - t0
    total = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    for stage, seconds in result.timings.items():
        print(f"{stage:10} {seconds:7.2f} s  {seconds / base:7.1f}x baseline")
    print(f"{'total':10} {total:7.2f} s  {total / base:7.1f}x baseline; "
          f"{len(quotes) / total:,.0f} quotes/s; peak memory {peak:,.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
