"""From quotes to findings: how well each finding's cited quotes hold up.

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

import csv
import io
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, fields
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .display import utf8
from .export.tables import check_output_path, spreadsheet_safe, write_bytes_atomic
from .types import QuoteResult, count_by_status
from .wording import plural

if TYPE_CHECKING:
    from .export.appendix import _Style

DEFAULT_CONFIDENCE = 1.0
MAJORITY_NOTE = "Majority of cited quotes could not be located in the source"
# The penalty for a minority of unlocated quotes: 1 - SLOPE x share, never below FLOOR.
PENALTY_SLOPE = 0.4
PENALTY_FLOOR = 0.7
MAJORITY_FACTOR = 0.5
# Differences by which a located quote says the opposite of its source.
CONTRADICTIONS = frozenset({"number", "negation"})

SUPPORTED, NOT_ENOUGH_INFO, REFUTED = "SUPPORTED", "NOT ENOUGH INFO", "REFUTED"
FINDINGS_FORMATS = (".csv", ".jsonl")
REPORT_FORMATS = (".md", ".markdown")
CARDS_FORMATS = (".jsonl",)
SHEET = "Findings"
SHEET_WIDTHS = {"finding": 50, "note": 60}  # characters; the other columns fit their header


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


@dataclass(frozen=True)
class Finding:
    """One finding and how its quotes held up; the fields are the columns of ``--findings``."""

    finding: str
    n_quotes: int
    verified: int
    review: int
    unverified: int
    finding_confidence: float
    adjusted_confidence: float
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


FINDING_COLUMNS = tuple(f.name for f in fields(Finding))


@dataclass(frozen=True)
class Findings:
    """Every finding the quotes cite, in order of first citation, and warnings about the input."""

    findings: tuple[Finding, ...]
    warnings: tuple[str, ...] = ()


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
    """Per finding: counts by status and the confidence adjusted for unlocated quotes."""
    warnings: list[str] = []
    findings = []
    for finding, quotes in group_by_finding(results).items():
        counts = count_by_status(quotes)
        confidence = _stated_confidence(finding, quotes, warnings)
        cut = penalty(counts["unverified"], len(quotes))
        findings.append(Finding(finding, len(quotes), **counts, finding_confidence=confidence,
                                adjusted_confidence=round(confidence * cut.factor, 4), note=cut.note))
    return Findings(tuple(findings), tuple(warnings))


# --- the findings table ---------------------------------------------------------------------------


def findings_bytes(findings: Sequence[Finding], *, suffix: str) -> bytes:
    """The findings as CSV (``.csv``) or JSONL (``.jsonl``), columns FINDING_COLUMNS in that order."""
    rows = [f.to_dict() for f in findings]
    if suffix == ".jsonl":
        return utf8("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows))
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator="\r\n")  # as the results CSV
    writer.writerow(FINDING_COLUMNS)
    writer.writerows([spreadsheet_safe(row[c]) for c in FINDING_COLUMNS] for row in rows)
    return utf8(buffer.getvalue())


def _write(path: str | Path, suffixes: Sequence[str], render: Callable[[str], bytes]) -> None:
    """Write ``render(suffix)`` atomically to ``path``, whose extension must be one of ``suffixes``."""
    path = Path(path)
    check_output_path(path, suffixes=suffixes)
    data = render(path.suffix.lower())
    write_bytes_atomic(path, data)


def write_findings(path: str | Path, findings: Sequence[Finding]) -> None:
    """Write the findings table as .csv or .jsonl, by the extension of ``path``."""
    _write(path, FINDINGS_FORMATS, lambda suffix: findings_bytes(findings, suffix=suffix))


# --- claim cards ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Metrics:
    """The evidence behind a quote's verdict."""

    confidence: float
    cosine: float | None
    match_ratio: float | None
    bm25_score: float | None


@dataclass(frozen=True)
class Evidence:
    """One cited quote as evidence: where the source says it (empty when unlocated) and how it was found."""

    quote_id: str
    quote: str
    status: str
    document: str
    snippet: str  # the matched source text
    document_sha256: str
    start: int | None
    end: int | None
    method: str  # the match type
    metrics: Metrics
    checked_at: str  # ISO 8601, UTC


@dataclass(frozen=True)
class ClaimCard:
    """A finding as a claim, labelled by its evidence (precedence in the module docstring)."""

    claim: str
    label: str
    label_reason: str
    finding_confidence: float
    adjusted_confidence: float
    evidence: tuple[Evidence, ...]

    def to_dict(self) -> dict[str, Any]:
        """The card as JSON writes it (evidence as a list)."""
        return {**asdict(self), "evidence": [asdict(e) for e in self.evidence]}


def timestamp(moment: datetime | None = None) -> str:
    """``moment`` (default: now) as ISO 8601 in UTC, to the second, as the run manifest writes it."""
    return (moment or datetime.now(timezone.utc)).astimezone(timezone.utc).isoformat(timespec="seconds")


def contradicts(result: QuoteResult) -> bool:
    """Whether a located quote says the opposite of its source: altered by a number or a negation."""
    return result.match_type == "altered" and any(d["kind"] in CONTRADICTIONS for d in result.differences)


def label(quotes: Sequence[QuoteResult]) -> tuple[str, str]:
    """(label, the reason for it) for a finding cited by ``quotes``."""
    refuting = [q.quote_id for q in quotes if contradicts(q)]
    if refuting:
        which = ("quote " if len(refuting) == 1 else "quotes ") + ", ".join(refuting)
        return REFUTED, f"the source contradicts {which} (a changed number or negation)"
    if all(q.status == "verified" for q in quotes):
        return SUPPORTED, f"all {len(quotes)} quotes verified"
    unlocated = sum(q.status == "unverified" for q in quotes)
    review = sum(q.status == "review" for q in quotes)
    parts = [f"{n} {what}" for n, what in ((unlocated, "not located"), (review, "in review")) if n]
    return NOT_ENOUGH_INFO, f"of {len(quotes)} quotes, {' and '.join(parts)}"


def _evidence(result: QuoteResult, checked_at: str) -> Evidence:
    return Evidence(
        quote_id=result.quote_id, quote=result.quote, status=result.status, document=result.document,
        snippet=result.matched_text, document_sha256=result.document_sha256, start=result.start, end=result.end,
        method=result.match_type,
        metrics=Metrics(result.confidence, result.cosine, result.match_ratio, result.bm25_score),
        checked_at=checked_at)


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


def cards_bytes(results: Sequence[QuoteResult], *, checked_at: datetime | None = None) -> bytes:
    """The claim cards as JSONL, one card per line."""
    cards = claim_cards(results, checked_at=checked_at)
    return utf8("".join(json.dumps(card.to_dict(), ensure_ascii=False) + "\n" for card in cards))


def write_cards(path: str | Path, results: Sequence[QuoteResult], *, checked_at: datetime | None = None) -> None:
    """Write the claim cards as JSONL (``.jsonl``)."""
    _write(path, CARDS_FORMATS, lambda _: cards_bytes(results, checked_at=checked_at))


# --- the Markdown report --------------------------------------------------------------------------


def _where(result: QuoteResult) -> str:
    place = ", ".join(filter(None, (result.document, f"line {result.line}" if result.line is not None else "",
                                    result.timestamp)))
    return f" — {place}" if place else ""


def _quote_line(result: QuoteResult) -> str:
    from .export.appendix import markdown_escape

    line = f"- {markdown_escape(result.quote_id)}: “{markdown_escape(result.quote)}”"
    if result.status == "unverified":
        return f"{line} (unverified)"
    line += markdown_escape(_where(result))
    if result.status == "review":
        reason = f": {markdown_escape(result.reasons[0])}" if result.reasons else ""
        line += f" (review{reason})"
    return line


def render_report(results: Sequence[QuoteResult]) -> str:
    """A Markdown report: each finding, its label and confidence, and its quotes, unverified ones marked."""
    from .export.appendix import markdown_escape

    title = "# Findings and their quotes"
    summary = summarize_findings(results)
    if not summary.findings:
        return f"{title}\n\nNo quote names a finding: the quote table has no `finding` column, or it is empty.\n"
    groups = group_by_finding(results)
    uncited = sum(not r.finding for r in results)
    cited = len(results) - uncited
    blocks = [title, f"{plural(len(summary.findings), 'finding')} cited by {plural(cited, 'quote')}. Each quote "
                     "that could not be located in the sources is marked (unverified); the confidence of its "
                     "finding is lowered accordingly."]
    for finding in summary.findings:
        quotes = groups[finding.finding]
        verdict, reason = label(quotes)
        counts = (f"{plural(finding.n_quotes, 'quote')}: {finding.verified} verified, {finding.review} review, "
                  f"{finding.unverified} unverified")
        lines = [f"## {markdown_escape(finding.finding)}", "",
                 f"**{verdict}** ({markdown_escape(reason)}). Confidence {finding.finding_confidence:g}, adjusted "
                 f"{finding.adjusted_confidence:g}; {counts}."]
        if finding.note:
            lines.append(f"**{finding.note}.**")
        lines.append("")
        lines.extend(_quote_line(q) for q in quotes)
        blocks.append("\n".join(lines))
    if uncited:
        blocks.append(f"{plural(uncited, 'quote')} citing no finding {'is' if uncited == 1 else 'are'} not listed.")
    return "\n\n".join(blocks) + "\n"


def write_report(path: str | Path, results: Sequence[QuoteResult]) -> None:
    """Write the Markdown report (``.md``)."""
    _write(path, REPORT_FORMATS, lambda _: utf8(render_report(results)))


# --- the workbook sheet and the appendix section --------------------------------------------------


def write_findings_sheet(book, results: Sequence[QuoteResult], *, styles) -> None:
    """Add the Findings sheet to a write-only openpyxl ``book`` when the quotes cite findings.

    ``styles`` are the workbook's registered cell styles (export.excel._Styles).
    """
    from openpyxl.utils import get_column_letter

    from .export.excel import _cell  # the workbook's one way to write a cell safely

    findings = summarize_findings(results).findings
    if not findings:
        return
    sheet = book.create_sheet(SHEET)
    for number, name in enumerate(FINDING_COLUMNS, start=1):
        sheet.column_dimensions[get_column_letter(number)].width = SHEET_WIDTHS.get(name, len(name) + 4)
    sheet.freeze_panes = "A2"
    sheet.append([_cell(sheet, name, styles.header) for name in FINDING_COLUMNS])
    for finding in findings:
        row = finding.to_dict()
        sheet.append([_cell(sheet, row[name], styles.wrap if isinstance(row[name], str) else None)
                      for name in FINDING_COLUMNS])
    sheet.auto_filter.ref = f"A1:{get_column_letter(len(FINDING_COLUMNS))}{len(findings) + 1}"


APPENDIX_HEADER = ("Finding", "Quotes", "Verified", "Review", "Unverified", "Confidence", "Adjusted")


def appendix_section(results: Sequence[QuoteResult], style: _Style) -> str:
    """The appendix's Findings section in ``style`` (export.appendix), or "" when no quote cites a finding."""
    findings = summarize_findings(results).findings
    if not findings:
        return ""
    majority = sum(f.note == MAJORITY_NOTE for f in findings)
    text = (f"The quotes were cited for {plural(len(findings), 'finding')}. Each finding's confidence (as "
            f"stated in the quote table, {DEFAULT_CONFIDENCE:g} where none was stated) was adjusted for the quotes "
            f"that could not be located: multiplied by one minus {PENALTY_SLOPE:g} times the share of its quotes "
            f"that were unverified, but by no less than {PENALTY_FLOOR:g}, when fewer than half were unverified, "
            f"and by {MAJORITY_FACTOR:g} when half or more were. Findings resting on a majority of quotes that "
            f"could not be located in the source: {majority}.")
    rows = [(f.finding, str(f.n_quotes), str(f.verified), str(f.review), str(f.unverified),
             f"{f.finding_confidence:g}", f"{f.adjusted_confidence:g}") for f in findings]
    return "\n\n".join([style.heading("Findings"), style.escape(text), style.table(APPENDIX_HEADER, rows)])
