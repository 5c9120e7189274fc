"""The findings (quoteverify.app.support) as files: the table (CSV/JSONL), the claim cards (JSONL) and a
Markdown report. They take the findings as data; the rules that make them stay in quoteverify.app.support."""
from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path

from ..model.rows import csv_text
from ..model.text import plural, utf8
from ..model.types import FINDING_COLUMNS, ClaimCard, Finding, Findings, QuoteResult
from ..plumbing.guard import check_output_path, marked
from ..plumbing.transaction import write_bytes_atomic
from .appendix import markdown_escape

FINDINGS_FORMATS = (".csv", ".jsonl")
REPORT_FORMATS = (".md", ".markdown")
CARDS_FORMATS = (".jsonl",)


# --- the findings table ---------------------------------------------------------------------------


def findings_bytes(findings: Sequence[Finding], *, suffix: str) -> bytes:
    """The findings as CSV (``.csv``) or JSONL (``.jsonl``), columns FINDING_COLUMNS in that order."""
    rows = [f.to_dict() for f in findings]
    if suffix == ".jsonl":
        return utf8("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows))
    return utf8(csv_text(FINDING_COLUMNS, ([row[c] for c in FINDING_COLUMNS] for row in rows)))


def _write(path: str | Path, suffixes: Sequence[str], render: Callable[[str], bytes]) -> None:
    """Write ``render(suffix)`` atomically to ``path``, whose extension must be one of ``suffixes``."""
    path = Path(path)
    check_output_path(path, suffixes=suffixes)
    data = render(path.suffix.lower())
    write_bytes_atomic(path, data)


def write_findings(path: str | Path, findings: Sequence[Finding]) -> None:
    """Write the findings table as .csv or .jsonl, by the extension of ``path``."""
    _write(path, FINDINGS_FORMATS, lambda suffix: findings_bytes(findings, suffix=suffix))


def cards_bytes(cards: Sequence[ClaimCard]) -> bytes:
    """The claim cards (quoteverify.app.support.claim_cards) as JSONL, one card per line."""
    return utf8("".join(json.dumps(card.to_dict(), ensure_ascii=False) + "\n" for card in cards))


def write_cards(path: str | Path, cards: Sequence[ClaimCard]) -> None:
    """Write the claim cards as JSONL (``.jsonl``)."""
    _write(path, CARDS_FORMATS, lambda _: cards_bytes(cards))



# --- the Markdown report --------------------------------------------------------------------------


def _where(result: QuoteResult) -> str:
    line = f"line {result.line}" if result.line is not None else ""
    # A line-numbered transcript is cited by page and line, as its readers cite it.
    place = ", ".join(filter(None, (result.document, result.cite or line, result.timestamp)))
    return f" — {place}" if place else ""


def _quote_line(result: QuoteResult) -> str:
    line = f"- {markdown_escape(result.quote_id)}: “{markdown_escape(result.quote)}”"
    if result.status == "unverified":
        return f"{line} (unverified)"
    line += markdown_escape(_where(result))
    if result.status == "review":
        reason = f": {markdown_escape(result.reasons[0])}" if result.reasons else ""
        line += f" (review{reason})"
    return line


def render_report(results: Sequence[QuoteResult], summary: Findings) -> str:
    """A Markdown report: each finding, its label and confidence, and its quotes, unverified ones marked.

    ``summary`` is what quoteverify.app.support.summarize_findings made of ``results``."""
    # The mark keeps a report written among the transcripts from being read as one (quoteverify.plumbing.guard).
    title = f"<!-- {marked('report')} -->\n# Findings and their quotes"
    if not summary.findings:
        return f"{title}\n\nNo quote names a finding: the quote table has no `finding` column, or it is empty.\n"
    groups: dict[str, list[QuoteResult]] = {}
    for result in results:
        groups.setdefault(result.finding, []).append(result)
    uncited = sum(not r.finding for r in results)
    cited = len(results) - uncited
    blocks = [title, f"{plural(len(summary.findings), 'finding')} cited by {plural(cited, 'quote')}. Each quote "
                     "that could not be located in the sources is marked (unverified); the confidence of its "
                     "finding is lowered accordingly."]
    for finding, (verdict, reason) in zip(summary.findings, summary.labels):
        quotes = groups[finding.finding]
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


def write_report(path: str | Path, results: Sequence[QuoteResult], summary: Findings) -> None:
    """Write the Markdown report (``.md``)."""
    _write(path, REPORT_FORMATS, lambda _: utf8(render_report(results, summary)))
