"""p_change: how likely a strict editor would call a quote in review a change of meaning.

The verdict contract decides the status: a quote is ``verified`` only when every difference passed a positive
test. What it cannot say is which of the quotes in review are most likely real changes: a changed number is
almost always one, a bracket naming someone the speaker mentioned three sentences back seldom is. ``p_change``
puts a number on that from what the judge found: each reason a rule gives carries a signal (the kind of
evidence: a number changed, an ellipsis leaving out a qualifier, a cut sentence whose rest holds a contrast,
another speaker's turn), and a logistic model weighs those signals with how well the words align, the cosine,
and the quote's length. Its weights are data (``odds.json`` beside this module), fitted on the project's
labelled sets by ``benchmarks/odds/fit.py``, and ``p_change`` orders and explains the review pile: it never
changes a status.
"""
from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources

# The signals a rule's reason may carry (classify), each a feature worth 1 when some reason carries it.
SIGNALS = (
    "number", "negation", "name", "splice", "order", "reworded",
    "word_exchanged", "word_added", "word_dropped", "words_many", "near_word",
    "bracket_replaces", "bracket_adds", "bracket_unmentioned", "bracket_rival", "bracket_speaker",
    "ellipsis_inverting", "ellipsis_qualifier", "ellipsis_content", "ellipsis_slight", "ellipsis_long",
    "ellipsis_speakers", "points_back", "no_lexicon",
    "edge_inverting", "edge_qualifier", "edge_content", "edge_slight",
    "cut_negation", "cut_correction", "cut_contrast", "cut_condition", "cut_attribution", "cut_qualifier",
    "other_document", "other_speaker", "interviewer", "crosses_speakers",
    "speech_act", "case", "hyphenation", "homoglyph", "quote_marks", "sense", "cut_word", "typos",
)
# Measures, each scaled to 0..1: how many source words the quote leaves out and how many it puts in that no test
# showed empty, and what the contract's rules alone say of it: the gravest severity of their reasons (rule_high,
# rule_medium) and the confidence they leave. (The match ratio, the cosine, the share of words aligned and the
# quote's length were tried and left out: each lowered the leave-one-set-out figures, docs/p-change.md.)
MEASURES = ("left_out", "put_in", "rule_high", "rule_medium", "rule_confidence")
FEATURES = SIGNALS + MEASURES


@dataclass(frozen=True)
class Odds:
    """A fitted logistic model: p_change = 1 / (1 + exp(-(bias + sum of weight x feature)))."""

    bias: float
    weights: Mapping[str, float]

    def p_change(self, features: Mapping[str, float]) -> float:
        z = self.bias + sum(self.weights.get(name, 0.0) * value for name, value in features.items())
        return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z))))

    def weight(self, signal: str) -> float:
        """How much a signal raises (or lowers) the log odds of a change."""
        return self.weights.get(signal, 0.0)


@dataclass(frozen=True)
class Measured:
    """What the judge measured of one quote in review, besides the signals of its reasons."""

    left_out: int                 # source words it leaves out that no test showed empty
    put_in: int                   # words it puts in (or exchanges) that the source does not say
    rule_severity: str            # the gravest severity the contract's rules give its reasons
    rule_confidence: float        # the confidence they leave


def _scaled(n: int, most: int) -> float:
    return round(min(1.0, math.log1p(max(0, n)) / math.log1p(most)), 4)


def features(signals: Iterable[str], measured: Measured) -> dict[str, float]:
    """The model's features of one quote in review: 1 for each signal its reasons carry, and its measures."""
    m = measured
    found = dict.fromkeys((s for s in signals if s in SIGNALS), 1.0)
    return {**found, "left_out": _scaled(m.left_out, 200), "put_in": _scaled(m.put_in, 50),
            "rule_high": 1.0 if m.rule_severity == "high" else 0.0,
            "rule_medium": 1.0 if m.rule_severity == "medium" else 0.0,
            "rule_confidence": round(m.rule_confidence, 4)}


def weights_path() -> str:
    return str(resources.files("quoteverify.judge").joinpath("odds.json"))


@cache
def shipped() -> Odds:
    """The weights that ship with quoteverify (judge/odds.json)."""
    with open(weights_path(), encoding="utf-8") as f:
        data = json.load(f)
    return Odds(float(data["bias"]), {k: float(v) for k, v in data["weights"].items()})


def ordered(reasons: Iterable[tuple[str, str]], odds: Odds) -> list[str]:
    """Reasons (each with its signal) with those whose signal raises p_change most first; ties keep their order."""
    pairs = list(reasons)
    return [reason for _, reason in sorted(((-odds.weight(signal), k), reason) for k, (reason, signal)
                                           in enumerate(pairs))]
