"""How well the review pile is ranked: among `review` rows, how often a real change stands above a genuine quote.

    python benchmarks/triage_rank.py SET_DIR RESULTS.jsonl [--show N]

SET_DIR holds the truth: ``cases.jsonl`` (the adversarial-style sets: ``expect`` is ``verified`` for a
genuine quote, anything else for a change) or ``truth.jsonl`` (dev: ``verified`` and ``located`` are
genuine; ``review``, ``unverified`` and ``not-verified`` are changes). The order is the workbook's
(``quoteverify.model.types.triage_key``: unverified, then review by severity, then confidence). The figure is
the share of (change, genuine) pairs of review rows in which the change comes first (a tie counts half):
0.5 is a random pile, 1.0 a pile where every change stands above every genuine quote. It also prints the
review rows by severity, and with ``--show`` the genuine quotes ranked highest.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from quoteverify.model.rows import results_from_jsonl  # noqa: E402
from quoteverify.model.types import triage_key  # noqa: E402

GENUINE = {"verified", "located"}


def truth(set_dir: Path) -> dict[str, bool]:
    """quote id -> whether the quote is genuine."""
    cases = set_dir / "cases.jsonl"
    path = cases if cases.exists() else set_dir / "truth.jsonl"
    genuine = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        genuine[row.get("quote_id") or row["id"]] = row["expect"] in GENUINE
    return genuine


def pair_share(keys_change: list[tuple], keys_genuine: list[tuple]) -> float:
    """Share of (change, genuine) pairs in which the change sorts first; ties count half."""
    if not keys_change or not keys_genuine:
        return float("nan")
    above = 0.0
    for c in keys_change:
        for g in keys_genuine:
            above += 1.0 if c < g else 0.5 if c == g else 0.0
    return above / (len(keys_change) * len(keys_genuine))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("set_dir", type=Path)
    ap.add_argument("results", type=Path)
    ap.add_argument("--show", type=int, default=0, help="list the N genuine review rows ranked highest")
    a = ap.parse_args()
    genuine = truth(a.set_dir)
    results = [r for r in results_from_jsonl(a.results, a.results.read_bytes()) if r.status == "review"]
    change = [triage_key(r) for r in results if not genuine.get(r.quote_id, False)]
    honest = [r for r in results if genuine.get(r.quote_id, False)]
    share = pair_share(change, [triage_key(r) for r in honest])
    by = Counter((r.severity or "-", "genuine" if genuine.get(r.quote_id, False) else "change") for r in results)
    print(f"review rows: {len(results)} ({len(change)} changes, {len(honest)} genuine)")
    for severity in ("high", "medium", "low", "-"):
        if by[severity, "change"] or by[severity, "genuine"]:
            print(f"  severity {severity:6s} changes {by[severity, 'change']:4d}  genuine {by[severity, 'genuine']:4d}")
    print(f"change above genuine among review rows: {share:.1%}")
    for r in sorted(honest, key=triage_key)[:a.show]:
        print(f"  {r.quote_id} {r.severity} {r.confidence}: {'; '.join(r.reasons)[:160]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
