"""The first run against an exact substring scan, measured side by side: ``quoteverify verify`` as a fresh
command, each run next to a scan of the same inputs, in alternating rounds.

    python benchmarks/first_run.py ../shared/bench/scale [--rounds 3] [--before OTHER/.venv/bin/quoteverify]
                                   [--cases first,no-embed,cached,cluster,cluster-embed]

The scan is the floor any verifier pays: a fresh Python reads the files and looks each quote up with
``in`` in every document. Each case runs right after a scan of its own, and its ratio is to that scan, so
that a busy moment of a shared machine weighs on both. Cases:

- ``first``: a cold cache folder, with the embedding model;
- ``no-embed``: the same with ``--no-embed``;
- ``cached``: ``first`` again on the cache it filled (a re-run of the same inputs);
- ``edited``: ``first`` again on the cache it filled, with EDITED quotes edited as a writer edits a draft (a
  full stop made an exclamation mark): those are checked again, the rest read from the cache;
- ``cluster``: ``--cluster local:2 --no-embed --no-cache`` against ``--no-embed --no-cache`` in process (the
  ratio is cluster / in process, each also to its scan);
- ``cluster-embed``: the same two with the model.

With ``--before``, every case also runs with that other installation's ``quoteverify`` (a checkout of an
earlier commit in its own venv), alternating with this one, and their JSONL must be byte-identical.
Wall time, CPU time (user + sys of the command and the processes it waited for) and peak memory (the largest
process's) are printed per run, and the median ratios at the end. CPU time is steadier than wall time on a
shared machine.
"""
from __future__ import annotations

import argparse
import csv
import filecmp
import shutil
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve()
CASES = ("first", "no-embed", "cached", "edited", "cluster", "cluster-embed")
EDITED = 10  # quotes edited for the ``edited`` case


@dataclass(frozen=True)
class Timed:
    wall: float
    cpu: float
    peak_mb: float


def scan(set_dir: Path) -> int:
    """The floor: read every document and the quotes, find each quote with ``in``."""
    docs = set_dir / "docs"
    texts = [p.read_text(encoding="utf-8") for p in sorted(docs.glob("*.txt"))]
    with open(set_dir / "quotes.csv", newline="", encoding="utf-8") as f:
        quotes = [row["quote"] for row in csv.DictReader(f)]
    return sum(1 for q in quotes if any(q in t for t in texts))


def timed(command: list[str], tmp: Path) -> Timed:
    """Run ``command`` under /usr/bin/time: wall seconds, user + sys seconds, peak resident MB."""
    out = tmp / "time.txt"
    done = subprocess.run(["/usr/bin/time", "-o", str(out), "-f", "%e %U %S %M", *command],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr[-2000:]}")
    wall, user, system, kb = out.read_text().split()[-4:]
    return Timed(float(wall), float(user) + float(system), float(kb) / 1024)


def _verify(quoteverify: str, set_dir: Path, out: Path, *extra: str, quotes: Path | None = None) -> list[str]:
    return [quoteverify, "verify", str(set_dir / "docs"), str(quotes or set_dir / "quotes.csv"), "-o", str(out),
            "-q", *extra]


def edited_quotes(set_dir: Path, out: Path, round_number: int) -> Path:
    """The set's quote table with EDITED quotes edited (other rows each round, so no round replays another)."""
    with open(set_dir / "quotes.csv", newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        rows, fields = list(reader), reader.fieldnames or []
    step = max(1, len(rows) // EDITED)
    for k in range(EDITED):
        row = rows[(k * step + 7 * round_number) % len(rows)]
        row["quote"] = row["quote"].rstrip(".") + "!"
    with open(out, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)
    return out


def one_round(label: str, quoteverify: str, set_dir: Path, cases: list[str], tmp: Path, round_number: int = 0
              ) -> dict[str, tuple[Timed, Timed]]:
    """Each case of one installation, each after a scan: {case: (the case, its scan)}; outputs in ``tmp``."""
    floor = [sys.executable, str(HERE), str(set_dir), "--scan"]
    measured: dict[str, tuple[Timed, Timed]] = {}
    cache = tmp / f"cache-{label}"
    shutil.rmtree(cache, ignore_errors=True)
    runs = {
        "first": ("--cache-dir", str(cache)),
        "no-embed": ("--no-embed", "--cache-dir", str(tmp / f"cache-ne-{label}")),
        "cached": ("--cache-dir", str(cache)),
        "edited": ("--cache-dir", str(cache)),
        "cluster": ("--no-embed", "--no-cache", "--cluster", "local:2"),
        "in-process": ("--no-embed", "--no-cache"),
        "cluster-embed": ("--no-cache", "--cluster", "local:2"),
        "in-process-embed": ("--no-cache",),
    }
    order = [c for c in CASES if c in cases]
    if ("cached" in order or "edited" in order) and "first" not in order:
        order.insert(0, "first")  # the cache the re-run reads
    expanded = []
    for case in order:
        expanded += {"cluster": ["in-process", "cluster"], "cluster-embed": ["in-process-embed", "cluster-embed"]
                     }.get(case, [case])
    for case in expanded:
        shutil.rmtree(tmp / f"cache-ne-{label}", ignore_errors=True)
        base = timed(floor, tmp)
        quotes = edited_quotes(set_dir, tmp / "edited.csv", round_number) if case == "edited" else None
        run = timed(_verify(quoteverify, set_dir, tmp / f"{label}-{case}.jsonl", *runs[case], quotes=quotes), tmp)
        measured[case] = (run, base)
        print(f"  {label:6} {case:17} {run.wall:6.2f} s wall {run.cpu:6.2f} s CPU {run.peak_mb:6.0f} MB   "
              f"scan {base.wall:5.2f} s ({base.cpu:5.2f} CPU)   ratio {run.wall / base.wall:5.2f}x wall "
              f"{run.cpu / base.cpu:5.2f}x CPU", flush=True)
    return measured


def _summary(label: str, rounds: list[dict[str, tuple[Timed, Timed]]]) -> None:
    cases = list(rounds[0])
    for case in cases:
        walls = [r[case][0].wall / r[case][1].wall for r in rounds]
        cpus = [r[case][0].cpu / r[case][1].cpu for r in rounds]
        peak = max(r[case][0].peak_mb for r in rounds)
        print(f"  {label:6} {case:17} to the scan: median {statistics.median(walls):5.2f}x wall "
              f"(runs {', '.join(f'{w:.2f}' for w in walls)}), {statistics.median(cpus):5.2f}x CPU; "
              f"peak {peak:.0f} MB")
    for cluster, alone in (("cluster", "in-process"), ("cluster-embed", "in-process-embed")):
        if cluster in cases:
            walls = [r[cluster][0].wall / r[alone][0].wall for r in rounds]
            print(f"  {label:6} {cluster} / {alone}: median {statistics.median(walls):.2f}x wall "
                  f"(runs {', '.join(f'{w:.2f}' for w in walls)})")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("set_dir", type=Path, help="a benchmark set: docs/ and quotes.csv")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--cases", default="first,no-embed,cached", help=f"comma-separated, of {', '.join(CASES)}")
    ap.add_argument("--before", help="another installation's quoteverify command, run alternately")
    ap.add_argument("--scan", action="store_true", help=argparse.SUPPRESS)  # one timed scan, in its own process
    a = ap.parse_args()
    if a.scan:
        scan(a.set_dir)
        return 0
    cases = a.cases.split(",")
    if unknown := [c for c in cases if c not in CASES]:
        ap.error(f"unknown case {unknown[0]!r}; cases: {', '.join(CASES)}")
    here = shutil.which("quoteverify", path=str(Path(sys.executable).parent)) or "quoteverify"
    installs = [("after", here)] + ([("before", a.before)] if a.before else [])
    results: dict[str, list[dict[str, tuple[Timed, Timed]]]] = {label: [] for label, _ in installs}
    tmp = Path(tempfile.mkdtemp(prefix="first-run-"))
    identical = True
    try:
        for n in range(a.rounds):
            print(f"round {n + 1}")
            for label, command in installs if n % 2 == 0 else installs[::-1]:
                results[label].append(one_round(label, command, a.set_dir, cases, tmp, n))
            if a.before:
                for case in results["after"][-1]:
                    same = filecmp.cmp(tmp / f"after-{case}.jsonl", tmp / f"before-{case}.jsonl", shallow=False)
                    identical = identical and same
                    if not same:
                        print(f"  JSONL differs: {case}")
        print("summary")
        for label, rounds in results.items():
            _summary(label, rounds)
        if a.before:
            for case in results["after"][0]:
                walls = [r[case][0].wall for r in results["after"]]
                befores = [r[case][0].wall for r in results["before"]]
                cpus = [r[case][0].cpu for r in results["after"]]
                cpu_befores = [r[case][0].cpu for r in results["before"]]
                print(f"  after / before {case:17} {statistics.median(walls) / statistics.median(befores):5.2f}x "
                      f"wall, {statistics.median(cpus) / statistics.median(cpu_befores):5.2f}x CPU")
            print(f"  JSONL byte-identical before and after: {identical}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0 if identical else 1


if __name__ == "__main__":
    sys.exit(main())
