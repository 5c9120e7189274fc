"""verify on a 2-worker Dask LocalCluster against the in-process run, and the result cache.

    python benchmarks/cluster_bench.py ../shared/bench/scale [--workers 2] [--big-chars 50e6] [--big-quotes 200000]
                                       [--skip-big] [--no-embed]

1. The scale set in process, then on the LocalCluster, in this process: the
   JSONL must be byte-identical; the ratio cluster / in-process is the overhead.
2. A re-run with 10 of the quotes edited, with the result cache the first run
   filled: its time as a ratio of the first (cold) run, in process and as a
   fresh ``quoteverify verify`` command.
3. A big corpus: the scale documents copied under new names until there are
   ``--big-chars`` characters, and the scale quotes repeated (new ids, claims
   spread over the copies) to ``--big-quotes``, checked on the LocalCluster
   without embeddings: quotes per second and each worker's peak memory, with
   what it holds (its shard, and the other shards' documents it gathered).

Timings on a shared machine are noisy; ratios measured in one run are the
figures to compare.
"""
from __future__ import annotations

import argparse
import csv
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from big_run import big_inputs  # noqa: E402  (this folder: the big corpus, built as big_run.py builds it)

import quoteverify.pipeline.cluster.client as cluster_module  # noqa: E402
from quoteverify.model.rows import jsonl_bytes  # noqa: E402
from quoteverify.pipeline.cluster.client import run_on_cluster  # noqa: E402
from quoteverify.pipeline.cluster.session import connect, parse_cluster  # noqa: E402
from quoteverify.pipeline.cluster.worker import WorkerState, run_task  # noqa: E402
from quoteverify.pipeline.stages import run  # noqa: E402
from quoteverify.sources.documents import load_documents  # noqa: E402
from quoteverify.sources.quotes import load_quotes  # noqa: E402

EDITED = 10


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _edit(quotes_csv: Path, out: Path, suffix: str) -> None:
    with open(quotes_csv, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    step = max(1, (len(rows) - 1) // EDITED)
    for row in rows[1::step][:EDITED]:
        row[1] = row[1] + suffix
    with open(out, "w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows(rows)


def scale_part(set_dir: Path, workers: int, config: dict, tmp: Path) -> None:
    docs = load_documents([set_dir / "docs"])
    quotes_csv = set_dir / "quotes.csv"
    chars = sum(len(d.text) for d in docs.documents)
    print(f"scale set: {len(docs.documents)} documents, {chars / 1e6:.1f}M characters, "
          f"{len(load_quotes(quotes_csv).quotes)} quotes")
    cache = tmp / "cache"
    started = time.perf_counter()
    local = run(docs, quotes_csv, config, cache_dir=cache)
    t_local = time.perf_counter() - started
    started = time.perf_counter()
    # A cold cache of its own, as the in-process run had: the workers share it on this machine.
    fallback = _count_whole_corpus()
    remote = run_on_cluster(docs, quotes_csv, config, cluster=f"local:{workers}", cache_dir=tmp / "cache-cluster")
    t_cluster = time.perf_counter() - started
    same = jsonl_bytes(local.results) == jsonl_bytes(remote.results)
    print(f"  in process (cold, baseline)    {t_local:7.2f} s")
    print(f"  LocalCluster, {workers} workers        {t_cluster:7.2f} s   ratio {t_cluster / t_local:.2f}x   "
          f"(starting the cluster included)   JSONL byte-identical: {same}")
    print(f"    {len(remote.results) - fallback[0]} quotes settled on the shards, {fallback[0]} checked against "
          "the whole corpus (it is no larger than cluster.gather_chars)")
    gathering = {**config, "cluster": {"gather_chars": 4_000_000}}
    fallback = _count_whole_corpus()
    gathered = _count_gathered()
    started = time.perf_counter()
    remote = run_on_cluster(docs, quotes_csv, gathering, cluster=f"local:{workers}", cache_dir=tmp / "cache-gather")
    t_gather = time.perf_counter() - started
    same = same and jsonl_bytes(local.results) == jsonl_bytes(remote.results)
    print(f"  LocalCluster, gathering (cluster.gather_chars 4M) {t_gather:7.2f} s   ratio {t_gather / t_local:.2f}x   "
          f"JSONL byte-identical: {jsonl_bytes(local.results) == jsonl_bytes(remote.results)}")
    print(f"    {len(remote.results) - fallback[0] - gathered[0]} quotes settled word for word on their shards, "
          f"{gathered[0]} checked against the documents they can match, gathered, {fallback[0]} against the "
          "whole corpus")
    with connect(parse_cluster(f"local:{workers}")) as client:
        for label, sharded in (("sharded, cold workers", True), ("sharded, warm workers", True),
                               ("whole corpus per worker, warm", False)):
            started = time.perf_counter()
            again = run_on_cluster(docs, quotes_csv, {**config, "cluster": {"sharded": sharded}}, cluster=client)
            seconds = time.perf_counter() - started
            same = same and jsonl_bytes(again.results) == jsonl_bytes(local.results)
            print(f"  cluster running, {label:30s} {seconds:7.2f} s   ratio {seconds / t_local:.2f}x")

    edited = tmp / "quotes-edited.csv"
    _edit(quotes_csv, edited, " indeed")
    started = time.perf_counter()
    rerun = run(docs, edited, config, cache_dir=cache)
    t_rerun = time.perf_counter() - started
    fresh = run(docs, edited, config)
    print(f"  re-run, {EDITED} quotes edited, cached  {t_rerun:7.2f} s   ratio {t_rerun / t_local:.3f}x   "
          f"identical to an uncached run: {jsonl_bytes(rerun.results) == jsonl_bytes(fresh.results)}")
    command = [sys.executable, "-m", "quoteverify", "verify", str(set_dir / "docs"), str(edited),
               "-o", str(tmp / "rerun.jsonl"), "--cache-dir", str(cache)]
    if not config["embed"]["enabled"]:
        command.append("--no-embed")
    _edit(quotes_csv, edited, " truly")  # other edits: ten quotes the cache has not seen
    started = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    t_cli = time.perf_counter() - started
    print(f"  another 10 edited, as a command   {t_cli:7.2f} s   ratio {t_cli / t_local:.3f}x   "
          "(interpreter start and imports included)")
    if not same:
        raise SystemExit("cluster results differ from the in-process run")


def big_part(set_dir: Path, workers: int, target_chars: float, n_quotes: int) -> None:
    big, quotes = big_inputs(set_dir, target_chars, n_quotes)
    total = sum(len(d.text) for d in big)
    print(f"big corpus: {len(big)} documents, {total / 1e6:.1f}M characters, {len(quotes)} quotes")
    # The same check in process, in a process of its own: its time and peak memory are the baseline.
    command = [sys.executable, __file__, str(set_dir), "--in-process", "--big-chars", str(target_chars),
               "--big-quotes", str(n_quotes)]
    alone = subprocess.run(command, check=True, capture_output=True, text=True).stdout.split()
    t_alone, mb_alone = float(alone[0]), float(alone[1])
    print(f"  in process: {t_alone:.1f} s, {len(quotes) / t_alone:.0f} quotes/s, peak {mb_alone:.0f} MB "
          f"({mb_alone / (total / 1e6):.1f} MB per million characters)")
    sharded_peaks: dict = {}
    settled = _count_whole_corpus(sharded_peaks)
    gathered = _count_gathered()
    started = time.perf_counter()
    with connect(parse_cluster(f"local:{workers}")) as client:
        result = run_on_cluster(big, quotes, {"embed": {"enabled": False}}, cluster=client)
        peaks = client.run(_worker_peak)
        held = list(client.run(run_task, WorkerState.holding).values())
    seconds = time.perf_counter() - started
    print(f"  LocalCluster, {workers} workers: {seconds:.1f} s (ratio {seconds / t_alone:.2f}x), "
          f"{len(result.results) / seconds:.0f} quotes/s; {len(quotes) - settled[0] - gathered[0]} quotes settled "
          f"word for word on their shards, {gathered[0]} checked against the documents they can match, gathered, "
          f"{settled[0]} against the whole corpus")
    shard_of = {h.pid: h for h in held}
    for pid, mb in sorted(peaks.values()):
        shard = shard_of.get(pid)
        documents, chars, guests = (shard.documents, shard.chars, shard.guest_chars) if shard else (0, 0, 0)
        print(f"  worker {pid}: its shard {documents} documents, {chars / 1e6:.1f}M characters; "
              f"other shards' documents kept at the end {guests / 1e6:.1f}M characters; peak {mb:.0f} MB "
              f"({mb / ((chars + guests) / 1e6):.1f} MB per million characters held)")
    print(f"  client process: peak {_peak_mb():.0f} MB (it reads every document, as the in-process run does)")


def _worker_peak() -> tuple[int, float]:
    return os.getpid(), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _count_gathered() -> list[int]:
    """How many quotes the next cluster runs check against the documents they can match, gathered."""
    counted = [0]
    gathered = cluster_module.check_in_rounds

    def counting(*args, **kwargs):
        found = gathered(*args, **kwargs)
        counted[0] += len(found.results)
        return found

    cluster_module.check_in_rounds = counting
    return counted


def _count_whole_corpus(peaks: dict | None = None) -> list[int]:
    """How many quotes the next cluster runs check against the whole corpus (not on a shard alone);
    ``peaks``: filled with each worker's peak memory before that (while it held only its shard)."""
    counted = [0, time.perf_counter()]  # quotes, and when the last run began checking them
    whole = cluster_module.start_whole_corpus_checks

    def counting(run, quotes, **options):
        counted[0] += len(quotes)
        counted[1] = time.perf_counter()
        if peaks is not None:
            peaks.update(run.client.run(_worker_peak))
        return whole(run, quotes, **options)

    cluster_module.start_whole_corpus_checks = counting
    return counted


def in_process(set_dir: Path, target_chars: float, n_quotes: int) -> None:
    big, quotes = big_inputs(set_dir, target_chars, n_quotes)
    started = time.perf_counter()
    run(big, quotes, {"embed": {"enabled": False}})
    print(f"{time.perf_counter() - started:.2f} {_peak_mb():.0f}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("set_dir", type=Path, help="a benchmark set: docs/ and quotes.csv")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--no-embed", action="store_true")
    ap.add_argument("--skip-big", action="store_true")
    ap.add_argument("--big-chars", type=float, default=50e6)
    ap.add_argument("--big-quotes", type=int, default=200_000)
    ap.add_argument("--in-process", action="store_true", help=argparse.SUPPRESS)  # big_part's baseline
    a = ap.parse_args()
    if a.in_process:
        in_process(a.set_dir, a.big_chars, a.big_quotes)
        return 0
    config = {"embed": {"enabled": not a.no_embed}}
    tmp = Path(tempfile.mkdtemp(prefix="cluster-bench-"))
    try:
        scale_part(a.set_dir, a.workers, config, tmp)
        if not a.skip_big:
            big_part(a.set_dir, a.workers, a.big_chars, a.big_quotes)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
