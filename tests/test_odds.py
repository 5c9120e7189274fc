"""p_change (quoteverify.judge.odds): fitted as the script fits it, in every review row, and what it orders."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from conftest import NO_EMBED, TINY_CORPUS

import quoteverify
from quoteverify.judge import odds
from quoteverify.model.config import load_config
from quoteverify.model.types import QuoteResult, triage_order

ROOT = Path(__file__).resolve().parent.parent


def _fit_script():
    spec = importlib.util.spec_from_file_location("odds_fit", ROOT / "benchmarks" / "odds" / "fit.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_shipped_weights_are_what_the_script_fits() -> None:
    fit = _fit_script()
    rows = fit.read_rows(ROOT / "benchmarks" / "odds" / "signals.jsonl")
    assert len({r["set"] for r in rows}) >= 8 and all(set(r["features"]) <= set(odds.FEATURES) for r in rows)
    shipped = json.loads((ROOT / "quoteverify" / "judge" / "odds.json").read_text(encoding="utf-8"))
    assert fit.fit(rows) == shipped
    model = odds.shipped()
    assert (model.bias, dict(model.weights)) == (shipped["bias"], shipped["weights"])


def test_leave_one_set_out_never_scores_a_set_with_a_model_that_saw_it() -> None:
    fit = _fit_script()
    rows = fit.read_rows(ROOT / "benchmarks" / "odds" / "signals.jsonl")
    held = [r for r in rows if r["set"] == "transcripts"]
    without = fit.fit([r for r in rows if r["set"] != "transcripts"])
    report, pooled, labels = fit.leave_one_set_out(rows)
    assert report["transcripts"]["auc"] == fit.auc(fit.predict(without, held), fit.matrix(held)[1])
    assert len(pooled) == len(labels) == len(rows)


def _results(quotes: list) -> list[QuoteResult]:
    return quoteverify.verify(TINY_CORPUS, quotes, NO_EMBED)


def test_every_review_row_has_p_change_and_its_evidence_and_no_other_row_does() -> None:
    results = _results(["We lost 50 volunteers in the first month.", "Three days is not enough to learn a new system.",
                        "Completely made up sentence about dragons and castles."])
    review, verified, unverified = results
    assert review.status == "review" and 0.0 <= review.p_change <= 1.0
    assert review.signals["number"] == 1.0 and set(review.signals) <= set(odds.FEATURES)
    assert (verified.status, verified.p_change, verified.signals) == ("verified", None, {})
    assert (unverified.status, unverified.p_change, unverified.signals) == ("unverified", None, {})


def test_severity_is_p_change_cut_at_the_configured_thresholds() -> None:
    c = load_config().confidence
    quotes = ["We lost 50 volunteers in the first month.", "The committee approved the budget until March.",
              "honestly, UM, it was harder than we expected.", "We lost 15 volunteers ... twice."]
    for result in _results(quotes):
        if result.status == "review":
            expected = "high" if result.p_change >= c.change_high else \
                "medium" if result.p_change >= c.change_medium else "low"
            assert result.severity == expected


def test_reasons_come_with_what_raises_p_change_most_first() -> None:
    (result,) = _results([{"quote": "We lost 50 volunteers in the first month.", "speaker": "James"}])
    weights = {reason: odds.shipped().weight(signal) for reason, signal in (
        ("said by Maria, not by claimed James", "other_speaker"),
        ("number differs: quote says '50', source says '15'", "number"))}
    assert result.reasons == sorted(weights, key=lambda reason: -weights[reason])


def test_review_rows_are_ordered_by_p_change() -> None:
    def row(quote_id: str, p: float | None, status: str = "review") -> QuoteResult:
        return QuoteResult(quote_id=quote_id, quote="x", row=1, status=status, p_change=p, confidence=0.5)  # type: ignore[arg-type]

    results = [row("a", 0.91), row("b", None, "verified"), row("c", 0.99), row("d", None, "unverified"),
               row("e", 0.95)]
    assert [results[k].quote_id for k in triage_order(results)] == ["d", "c", "e", "a", "b"]


@pytest.mark.parametrize("signals", [("number",), ("case", "speech_act"), ()])
def test_p_change_is_a_probability_of_the_features(signals: tuple[str, ...]) -> None:
    measured = odds.Measured(left_out=3, put_in=1, rule_severity="medium", rule_confidence=0.45)
    found = odds.features(signals, measured)
    assert set(found) <= set(odds.FEATURES) and all(0.0 <= v <= 1.0 for v in found.values())
    assert 0.0 < odds.shipped().p_change(found) < 1.0
