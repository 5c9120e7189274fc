"""How well the quotes support each finding: from quotes to findings and claim cards (quoteverify.export.findings
writes them as files).

A quote table may name, for each quote, the ``finding`` (theme, claim) it is
cited for, and optionally the analyst's ``finding_confidence`` (0 to 1). A
finding without a stated confidence starts at 1.0; when its rows state
different values, the first one given counts and a warning says so.

The adjusted confidence penalises findings that rest on quotes that could not
be located (status ``unverified``). With u of n quotes unverified:

- u = 0: unchanged;
- 0 < u/n < 1/2: multiplied by max(0.7, 1 - 0.4 u/n);
- u/n >= 1/2: halved, with the note MAJORITY_NOTE.

(Below a majority the factor stays above 1 - 0.4 x 0.5 = 0.8, so the floor
of 0.7 never binds; it is kept because the schedule states it.)

Quotes in review are not penalised: they were found, and a person decides.

Claim cards state, per finding, whether its evidence supports it, in the
labels of fact-checking data sets. Precedence, first match wins:

1. REFUTED: a located quote contradicts it, i.e. a quote whose match type is
   ``altered`` with a changed number or negation (the source says something
   else), whatever the other quotes say;
2. SUPPORTED: every quote is verified;
3. NOT ENOUGH INFO: otherwise: some quotes are unlocated, or found but still
   need review (reworded, misattributed, a changed name ...).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone

from ..model.text import plural
from ..model.types import FINDING_COLUMNS, ClaimCard, Evidence, Finding, Findings, Metrics, QuoteResult, count_by_status  # noqa: F401

DEFAULT_CONFIDENCE = 1.0
MAJORITY_NOTE = "Majority of cited quotes could not be located in the source"
# The penalty for a minority of unlocated quotes: 1 - SLOPE x share, never below FLOOR.
PENALTY_SLOPE = 0.4
PENALTY_FLOOR = 0.7
MAJORITY_FACTOR = 0.5
# Differences by which a located quote says the opposite of its source.
CONTRADICTIONS = frozenset({"number", "negation"})

SUPPORTED, NOT_ENOUGH_INFO, REFUTED = "SUPPORTED", "NOT ENOUGH INFO", "REFUTED"


@dataclass(frozen=True)
class Penalty:
    """What the unlocated quotes of a finding do to its confidence."""

    factor: float
    note: str = ""


def penalty(unverified: int, total: int) -> Penalty:
    """The penalty for ``unverified`` unlocated quotes out of ``total`` (see the module docstring)."""
    if unverified == 0 or total == 0:
        return Penalty(1.0)
    if 2 * unverified < total:  # compared in integers: exactly half is a majority penalty
        return Penalty(max(PENALTY_FLOOR, 1 - PENALTY_SLOPE * unverified / total))
    return Penalty(MAJORITY_FACTOR, MAJORITY_NOTE)


def group_by_finding(results: Iterable[QuoteResult]) -> dict[str, list[QuoteResult]]:
    """Results by the finding they cite, findings in order of first citation; uncited quotes left out."""
    groups: dict[str, list[QuoteResult]] = {}
    for result in results:
        if result.finding:
            groups.setdefault(result.finding, []).append(result)
    return groups


def _stated_confidence(finding: str, quotes: list[QuoteResult], warnings: list[str]) -> float:
    stated = [(q.row, q.finding_confidence) for q in quotes if q.finding_confidence is not None]
    if not stated:
        return DEFAULT_CONFIDENCE
    row, value = stated[0]
    if any(other != value for _, other in stated):
        values = ", ".join(f"{v:g} (row {r})" for r, v in stated)
        warnings.append(f"finding '{finding}': its rows state different finding_confidence values ({values}); "
                        f"used the first, {value:g}; give one value per finding")
    return value


def summarize_findings(results: Iterable[QuoteResult]) -> Findings:
    """Per finding: counts by status, the confidence adjusted for unlocated quotes, and its label."""
    results = list(results)
    warnings: list[str] = []
    findings = []
    for finding, quotes in group_by_finding(results).items():
        counts = count_by_status(quotes)
        confidence = _stated_confidence(finding, quotes, warnings)
        cut = penalty(counts["unverified"], len(quotes))
        findings.append(Finding(finding, len(quotes), **counts, finding_confidence=confidence,
                                adjusted_confidence=round(confidence * cut.factor, 4), note=cut.note))
    labels = tuple(label(quotes) for quotes in group_by_finding(results).values())
    return Findings(tuple(findings), tuple(warnings), labels, _adjustment(findings))


def _adjustment(findings: Sequence[Finding]) -> str:
    """The penalty schedule in words, with how many findings got the majority penalty."""
    if not findings:
        return ""
    majority = sum(f.note == MAJORITY_NOTE for f in findings)
    return (f"The quotes were cited for {plural(len(findings), 'finding')}. Each finding's confidence (as "
            f"stated in the quote table, {DEFAULT_CONFIDENCE:g} where none was stated) was adjusted for the quotes "
            f"that could not be located: multiplied by one minus {PENALTY_SLOPE:g} times the share of its quotes "
            f"that were unverified, but by no less than {PENALTY_FLOOR:g}, when fewer than half were unverified, "
            f"and by {MAJORITY_FACTOR:g} when half or more were. Findings resting on a majority of quotes that "
            f"could not be located in the source: {majority}.")


# --- claim cards ----------------------------------------------------------------------------------


def timestamp(moment: datetime | None = None) -> str:
    """``moment`` (default: now) as ISO 8601 in UTC, to the second, as the run manifest writes it."""
    return (moment or datetime.now(timezone.utc)).astimezone(timezone.utc).isoformat(timespec="seconds")


def contradicts(result: QuoteResult) -> bool:
    """Whether a located quote says the opposite of its source: altered by a number or a negation."""
    return result.match_type == "altered" and any(d.kind in CONTRADICTIONS for d in result.differences)


def label(quotes: Sequence[QuoteResult]) -> tuple[str, str]:
    """(label, the reason for it) for a finding cited by ``quotes``."""
    refuting = [q.quote_id for q in quotes if contradicts(q)]
    if refuting:
        which = ("quote " if len(refuting) == 1 else "quotes ") + ", ".join(refuting)
        return REFUTED, f"the source contradicts {which} (a changed number or negation)"
    if all(q.status == "verified" for q in quotes):
        return SUPPORTED, ("the one quote verified" if len(quotes) == 1 else f"all {len(quotes)} quotes verified")
    unlocated = sum(q.status == "unverified" for q in quotes)
    review = sum(q.status == "review" for q in quotes)
    parts = [f"{n} {what}" for n, what in ((unlocated, "not located"), (review, "in review")) if n]
    return NOT_ENOUGH_INFO, f"of {plural(len(quotes), 'quote')}, {' and '.join(parts)}"


def _evidence(result: QuoteResult, checked_at: str) -> Evidence:
    return Evidence(
        quote_id=result.quote_id, quote=result.quote, status=result.status, document=result.document,
        snippet=result.matched_text, document_sha256=result.document_sha256, start=result.start, end=result.end,
        method=result.match_type,
        metrics=Metrics(result.confidence, result.cosine, result.match_ratio, result.bm25_score),
        checked_at=checked_at, cite=result.cite)


def claim_cards(results: Sequence[QuoteResult], *, checked_at: datetime | None = None) -> list[ClaimCard]:
    """One card per finding, in order of first citation; ``checked_at`` defaults to now."""
    when = timestamp(checked_at)
    adjusted = {f.finding: f for f in summarize_findings(results).findings}
    cards = []
    for finding, quotes in group_by_finding(results).items():
        verdict, reason = label(quotes)
        cards.append(ClaimCard(finding, verdict, reason, adjusted[finding].finding_confidence,
                               adjusted[finding].adjusted_confidence, tuple(_evidence(q, when) for q in quotes)))
    return cards
