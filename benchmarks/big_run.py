"""A large corpus checked in process: quotes per second and peak memory, this installation against another.

    python benchmarks/big_run.py ../shared/bench/scale [--chars 58.5e6] [--quotes 200000]
                                 [--before OTHER/.venv/bin/python] [--rounds 1]

The corpus is the scale set's documents copied under new names until there are ``--chars`` characters
(5 copies of its 11.7M: 58.5M, 1,160 documents), and its quotes repeated to ``--quotes`` (new ids, claims
spread over the copies), as ``cluster_bench.py`` builds it. Each installation checks it in a fresh Python of
its own (``quoteverify.run``, no embeddings, no cache, the configured align workers), under /usr/bin/time:
wall and CPU seconds (with the worker processes it waited for) and peak memory (the largest process's).
With ``--before`` (another checkout's venv python) the two alternate, and their JSONL must be byte-identical.
"""
from __future__ import annotations

import argparse
import filecmp
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path


def big_inputs(set_dir: Path, target_chars: float, n_quotes: int) -> tuple[tuple, list]:
    """The scale documents copied to ``target_chars``, the scale quotes repeated to ``n_quotes``."""
    from quoteverify.sources.documents import load_documents
    from quoteverify.sources.quotes import load_quotes

    docs = load_documents([set_dir / "docs"]).documents
    chars = sum(len(d.text) for d in docs)
    copies = max(1, -(-int(target_chars) // chars))
    big = tuple(sorted((replace(d, doc_id=f"{d.doc_id}-copy{c}") for c in range(copies) for d in docs),
                       key=lambda d: d.doc_id))
    base = load_quotes(set_dir / "quotes.csv").quotes
    quotes = []
    for k in range(n_quotes):
        q = base[k % len(base)]
        copy = (k // len(base)) % copies
        claimed = f"{q.claimed_document}-copy{copy}" if q.claimed_document else ""
        quotes.append(replace(q, quote_id=f"{q.quote_id}-{k}", row=k + 2, claimed_document=claimed))
    return big, quotes


def one(set_dir: Path, chars: float, n_quotes: int, out: Path) -> None:
    """The measured run, in this (fresh) process: the installation this Python imports."""
    import quoteverify
    from quoteverify.model.rows import jsonl_bytes

    big, quotes = big_inputs(set_dir, chars, n_quotes)
    started = time.perf_counter()
    result = quoteverify.run(big, quotes, {"embed": {"enabled": False}})
    seconds = time.perf_counter() - started
    out.write_bytes(jsonl_bytes(result.results))
    print(f"{seconds:.2f} {sum(len(d.text) for d in big)} {len(quotes)}")


def measure(python: str, args: argparse.Namespace, out: Path, tmp: Path) -> tuple[float, float, float, float]:
    """(run seconds, process wall, process CPU, peak MB) of one run with ``python``."""
    timing = tmp / "time.txt"
    done = subprocess.run(["/usr/bin/time", "-o", str(timing), "-f", "%e %U %S %M", python, __file__,
                           str(args.set_dir), "--chars", str(args.chars), "--quotes", str(args.quotes),
                           "--one", str(out)], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{python} failed:\n{done.stderr[-2000:]}")
    seconds = float(done.stdout.split()[0])
    wall, user, system, kb = timing.read_text().split()[-4:]
    return seconds, float(wall), float(user) + float(system), float(kb) / 1024


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("set_dir", type=Path, help="a benchmark set: docs/ and quotes.csv")
    ap.add_argument("--chars", type=float, default=58.5e6)
    ap.add_argument("--quotes", type=int, default=200_000)
    ap.add_argument("--before", help="another installation's python, run alternately")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--one", type=Path, help=argparse.SUPPRESS)  # a measured run, writing its JSONL here
    a = ap.parse_args()
    if a.one:
        one(a.set_dir, a.chars, a.quotes, a.one)
        return 0
    installs = [("after", sys.executable)] + ([("before", a.before)] if a.before else [])
    tmp = Path(tempfile.mkdtemp(prefix="big-run-"))
    identical = True
    try:
        for n in range(a.rounds):
            for label, python in installs if n % 2 == 0 else installs[::-1]:
                seconds, wall, cpu, peak = measure(python, a, tmp / f"{label}.jsonl", tmp)
                print(f"round {n + 1} {label:6} run {seconds:7.1f} s, {a.quotes / seconds:6.0f} quotes/s; process "
                      f"{wall:7.1f} s wall, {cpu:7.1f} s CPU, peak {peak:6.0f} MB", flush=True)
            if a.before:
                same = filecmp.cmp(tmp / "after.jsonl", tmp / "before.jsonl", shallow=False)
                identical = identical and same
                print(f"  JSONL byte-identical before and after: {same}", flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0 if identical else 1


if __name__ == "__main__":
    sys.exit(main())
