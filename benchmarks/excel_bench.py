"""How long the Excel triage workbook takes to write, against writing JSONL of the same results.

Results come from a run on a benchmark set (embeddings off, so no model is
needed) or from a results JSONL written earlier; they are repeated to reach
each requested count (new quote_ids, so the workbook holds distinct rows).

    python benchmarks/excel_bench.py                                  # scale set, 1,500 and 50,000
    python benchmarks/excel_bench.py --results scale.jsonl --count 50000
    /usr/bin/time -v python benchmarks/excel_bench.py --results scale.jsonl --count 50000

Prints, per count: seconds for the workbook and for the JSONL, their ratio,
the workbook's size, and how much the process's peak memory grew while the
workbook was written (run one count per process, under /usr/bin/time -v, for
the whole process's peak).
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import resource
import sys
import tempfile
import time
from pathlib import Path

from quoteverify import QuoteResult, run
from quoteverify.export.excel import write_workbook
from quoteverify.model.rows import jsonl_bytes

DEFAULT_SET = Path("/work/shared/bench/scale")


def results_from_set(folder: Path) -> tuple[list[QuoteResult], object]:
    finished = run([folder / "docs"], folder / "quotes.csv", {"embed": {"enabled": False}})
    return finished.results, finished


def results_from_jsonl(path: Path) -> list[QuoteResult]:
    with path.open(encoding="utf-8") as handle:
        return [QuoteResult(**json.loads(line)) for line in handle if line.strip()]


def repeated(results: list[QuoteResult], count: int) -> list[QuoteResult]:
    """``count`` results cycling through ``results``; repeats get quote_ids of their own."""
    out = []
    for k in range(count):
        base = results[k % len(results)]
        copy = k // len(results)
        out.append(base if copy == 0 else dataclasses.replace(base, quote_id=f"{base.quote_id}~{copy}",
                                                              row=base.row + copy * len(results)))
    return out


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kilobytes on Linux


def measure(results: list[QuoteResult], finished, folder: Path) -> dict[str, float]:
    jsonl_path = folder / "results.jsonl"
    xlsx_path = folder / "results.xlsx"
    # The workbook first: building the JSONL in memory raises the peak, which would hide the workbook's.
    rss_before = peak_rss_mb()
    started = time.perf_counter()
    write_workbook(xlsx_path, results, run=finished)
    xlsx_seconds = time.perf_counter() - started
    rss_growth = peak_rss_mb() - rss_before

    started = time.perf_counter()
    jsonl_path.write_bytes(jsonl_bytes(results))
    jsonl_seconds = time.perf_counter() - started
    return {
        "quotes": len(results), "jsonl_s": jsonl_seconds, "xlsx_s": xlsx_seconds,
        "ratio": xlsx_seconds / jsonl_seconds, "xlsx_mb": xlsx_path.stat().st_size / 1e6,
        "jsonl_mb": jsonl_path.stat().st_size / 1e6, "peak_growth_mb": rss_growth,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--set", type=Path, default=DEFAULT_SET, help="benchmark set folder (docs/, quotes.csv)")
    source.add_argument("--results", type=Path, help="a results JSONL to reuse instead of running the set")
    parser.add_argument("--count", type=int, action="append",
                        help="number of results to write (repeatable; default 1500 and 50000)")
    args = parser.parse_args(argv)

    started = time.perf_counter()
    if args.results:
        base, finished = results_from_jsonl(args.results), None
    else:
        base, finished = results_from_set(args.set)
    print(f"{len(base)} base results in {time.perf_counter() - started:.1f} s; "
          f"peak memory so far {peak_rss_mb():.0f} MB", file=sys.stderr)

    print(f"{'quotes':>8} {'jsonl s':>8} {'xlsx s':>8} {'ratio':>6} {'jsonl MB':>9} {'xlsx MB':>8} "
          f"{'peak +MB':>9}")
    with tempfile.TemporaryDirectory() as tmp:
        for count in args.count or [1500, 50_000]:
            row = measure(repeated(base, count), finished, Path(tmp))
            print(f"{row['quotes']:>8} {row['jsonl_s']:>8.2f} {row['xlsx_s']:>8.2f} {row['ratio']:>6.1f} "
                  f"{row['jsonl_mb']:>9.1f} {row['xlsx_mb']:>8.1f} {row['peak_growth_mb']:>9.0f}")


if __name__ == "__main__":
    main()
