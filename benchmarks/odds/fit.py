"""Fit p_change (quoteverify/judge/odds.py) on the labelled sets, and report how well it orders review piles.

    python benchmarks/odds/fit.py collect   # run quoteverify on every labelled set: benchmarks/odds/signals.jsonl
    python benchmarks/odds/fit.py fit       # fit on signals.jsonl: quoteverify/judge/odds.json, docs/p-change.md

``collect`` needs ../shared/bench beside the checkout (the shared sets) and checks every set with the real model,
as a user's run does; it keeps, for each quote the contract sends to review, its set, its label (a change of
meaning, or an honest quote, as the set's editor judged it; debatable cases are left out) and the features
p_change is computed from. ``fit`` is deterministic: a logistic regression (L2, Newton's method in numpy) on
those rows, its weights rounded to 4 places. tests/test_odds.py checks that the shipped weights are what it
gives. Leave-one-set-out figures (fit without a set, score that set) are what docs/p-change.md reports: no set
is scored by a model that saw it.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from quoteverify.judge.odds import FEATURES, SIGNALS  # noqa: E402

SHARED = ROOT.parent / "shared" / "bench"
OWN = ROOT / "benchmarks"
SIGNALS_FILE = Path(__file__).resolve().parent / "signals.jsonl"
WEIGHTS_FILE = ROOT / "quoteverify" / "judge" / "odds.json"
REPORT_FILE = ROOT / "docs" / "p-change.md"
# L2 on the weights (not the bias): a signal's weight strongly (honest quotes in review are few, and no signal
# should rest on a handful of them), a measure's lightly. Chosen among 1, 5, 20 and 100 by the mean of the
# leave-one-set-out AUCs.
SIGNAL_PENALTY = 20.0
MEASURE_PENALTY = 1.0

# name: (documents, labelled set folder, the speaker column's name or "")
SETS = {
    "dev": (SHARED / "dev" / "docs", SHARED / "dev", ""),
    "adversarial": (SHARED / "dev" / "docs", SHARED / "adversarial", ""),
    "multilingual": (SHARED / "multilingual" / "docs", SHARED / "multilingual", ""),
    "transcripts": (SHARED / "transcripts" / "docs", SHARED / "transcripts", ""),
    "quotesum": (SHARED / "quotesum" / "docs", SHARED / "quotesum", ""),
    "paged": (SHARED / "paged" / "docs", SHARED / "paged", ""),
    "short": (SHARED / "dev" / "docs", SHARED / "short", "speaker"),
    "lined": (SHARED / "lined" / "docs", SHARED / "lined", "speaker"),
    "extra_en": (SHARED / "scale" / "docs", OWN / "adversarial_extra", ""),
    "extra_ml": (SHARED / "multilingual" / "docs", OWN / "adversarial_extra" / "multilingual", ""),
    "forms_en": (SHARED / "scale" / "docs", OWN / "adversarial_forms", ""),
    "forms_ml": (SHARED / "multilingual" / "docs", OWN / "adversarial_forms" / "multilingual", ""),
    "rules_en": (SHARED / "scale" / "docs", OWN / "adversarial_rules", ""),
    "rules_tr": (SHARED / "transcripts" / "docs", OWN / "adversarial_rules" / "transcripts", ""),
}


def labels(folder: Path) -> dict[str, tuple[bool, bool]]:
    """quote id -> (a change of meaning, debatable), from a set's cases.jsonl or truth.jsonl."""
    found = {}
    cases = folder / "cases.jsonl"
    for line in (cases if cases.exists() else folder / "truth.jsonl").read_text(encoding="utf-8").splitlines():
        case = json.loads(line)
        honest = case["expect"] in ("verified", "located")
        found[case.get("quote_id") or case["id"]] = (not honest, bool(case.get("debatable")))
    return found


def collect() -> int:
    from quoteverify import verify

    rows = []
    for name, (docs, folder, speaker) in SETS.items():
        if not folder.exists():
            print(f"{name}: {folder} not found; left out", file=sys.stderr)
            continue
        truth = labels(folder)
        config = {"columns": {"speaker": speaker}} if speaker else None
        results = verify(docs, folder / "quotes.csv", config)
        kept = 0
        for result in results:
            change, debatable = truth.get(result.quote_id, (None, True))
            if result.status != "review" or change is None or debatable:
                continue
            rows.append({"set": name, "quote_id": result.quote_id, "change": change, "features": result.signals})
            kept += 1
        print(f"{name}: {kept} review rows", file=sys.stderr)
    SIGNALS_FILE.write_text("".join(json.dumps(r, sort_keys=True) + "\n" for r in rows), encoding="utf-8")
    return 0


def read_rows(path: Path = SIGNALS_FILE) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def matrix(rows: Sequence[dict]) -> tuple[np.ndarray, np.ndarray]:
    x = np.array([[float(r["features"].get(name, 0.0)) for name in FEATURES] for r in rows], dtype=np.float64)
    y = np.array([1.0 if r["change"] else 0.0 for r in rows], dtype=np.float64)
    return x, y


def fit_arrays(x: np.ndarray, y: np.ndarray) -> tuple[float, np.ndarray]:
    """(bias, weights) of an L2-penalised logistic regression on FEATURES, by Newton's method from zero."""
    n, d = x.shape
    design = np.hstack([np.ones((n, 1)), x])
    beta = np.zeros(d + 1)
    ridge = np.array([0.0] + [SIGNAL_PENALTY if name in SIGNALS else MEASURE_PENALTY for name in FEATURES])
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-np.clip(design @ beta, -50, 50)))
        gradient = design.T @ (p - y) + ridge * beta
        hessian = (design * (p * (1 - p))[:, None]).T @ design + np.diag(ridge) + 1e-9 * np.eye(d + 1)
        step = np.linalg.solve(hessian, gradient)
        beta -= step
        if np.max(np.abs(step)) < 1e-10:
            break
    return float(beta[0]), beta[1:]


def fit(rows: Sequence[dict]) -> dict:
    """The weights file's content fitted on ``rows``: bias and weights, rounded to 4 places (zeros left out)."""
    bias, weights = fit_arrays(*matrix(rows))
    return {"bias": round(bias, 4),
            "weights": {name: round(float(w), 4) for name, w in zip(FEATURES, weights) if round(float(w), 4)}}


def predict(model: dict, rows: Sequence[dict]) -> np.ndarray:
    x, _ = matrix(rows)
    w = np.array([model["weights"].get(name, 0.0) for name in FEATURES])
    return 1.0 / (1.0 + np.exp(-np.clip(model["bias"] + x @ w, -50, 50)))


def auc(p: np.ndarray, y: np.ndarray) -> float:
    """The share of (change, honest) pairs in which the change has the higher p_change (ties count half)."""
    changes, honest = p[y == 1], p[y == 0]
    if not len(changes) or not len(honest):
        return float("nan")
    above = (changes[:, None] > honest[None, :]).sum() + 0.5 * (changes[:, None] == honest[None, :]).sum()
    return float(above / (len(changes) * len(honest)))


def leave_one_set_out(rows: Sequence[dict]) -> tuple[dict[str, dict], np.ndarray, np.ndarray]:
    """Per set: its rows scored by a model fitted without it; and the pooled predictions and labels."""
    report, pooled_p, pooled_y = {}, [], []
    for name in dict.fromkeys(r["set"] for r in rows):
        held = [r for r in rows if r["set"] == name]
        model = fit([r for r in rows if r["set"] != name])
        p = predict(model, held)
        _, y = matrix(held)
        order = np.argsort(-p, kind="stable")
        half = order[:max(1, len(order) // 2)]
        report[name] = {"rows": len(held), "changes": int(y.sum()), "honest": int(len(y) - y.sum()),
                        "auc": auc(p, y), "honest_in_first_half": float((y[half] == 0).mean())}
        pooled_p.append(p)
        pooled_y.append(y)
    return report, np.concatenate(pooled_p), np.concatenate(pooled_y)


def reliability(p: np.ndarray, y: np.ndarray, bins: int = 10) -> list[tuple[str, int, float, float]]:
    """(bin, rows, mean predicted, share of changes) per tenth of p_change."""
    table = []
    for k in range(bins):
        lo, hi = k / bins, (k + 1) / bins
        inside = (p >= lo) & ((p < hi) if k < bins - 1 else (p <= hi))
        if inside.any():
            table.append((f"{lo:.1f}-{hi:.1f}", int(inside.sum()), float(p[inside].mean()), float(y[inside].mean())))
    return table


def report(rows: Sequence[dict], model: dict) -> str:
    per_set, p, y = leave_one_set_out(rows)
    lines = ["# p_change: how it was fitted, and how well it orders review piles", "",
             "Written by `python benchmarks/odds/fit.py fit` from `benchmarks/odds/signals.jsonl` (which "
             "`python benchmarks/odds/fit.py collect` makes by checking every labelled set); do not edit by hand. "
             "What p_change is and how it is used: [contract](contract.md#what-is-at-stake-severity-and-p_change).",
             "", "## Leave one set out", "",
             "Each set's review rows scored by a model fitted on the other sets only. AUC: the share of (change, "
             "honest quote) pairs of review rows in which the change comes first (0.5 is a random pile). "
             "Honest in first half: the share of honest quotes among the first half of the review rows.", "",
             "| set | review rows | changes | honest | AUC | honest in first half |", "|---|---|---|---|---|---|"]
    for name, r in per_set.items():
        shown = "n/a" if r["auc"] != r["auc"] else f"{r['auc']:.3f}"
        lines.append(f"| {name} | {r['rows']} | {r['changes']} | {r['honest']} | {shown} | "
                     f"{r['honest_in_first_half']:.1%} |")
    lines += ["", f"Pooled over all sets (each scored without itself): AUC {auc(p, y):.3f}.", "",
              "## Reliability (pooled leave-one-set-out predictions)", "",
              "| p_change | rows | mean predicted | share that are changes | difference |", "|---|---|---|---|---|"]
    for name, n, predicted, observed in reliability(p, y):
        lines.append(f"| {name} | {n} | {predicted:.3f} | {observed:.3f} | {abs(predicted - observed):.3f} |")
    lines += ["", "## The shipped weights (fitted on all sets)", "",
              "A weight is what a feature adds to the log odds of a change; the signals are 1 when some reason of "
              "the quote carries them, the measures run from 0 to 1.", "",
              f"Bias: {model['bias']:+.4f}", "", "| feature | weight |", "|---|---|"]
    for name in FEATURES:
        if name in model["weights"]:
            lines.append(f"| `{name}` | {model['weights'][name]:+.4f} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("step", choices=("collect", "fit"))
    step = ap.parse_args().step
    if step == "collect":
        return collect()
    rows = read_rows()
    model = fit(rows)
    WEIGHTS_FILE.write_text(json.dumps(model, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    text = report(rows, model)
    REPORT_FILE.write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
