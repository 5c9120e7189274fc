"""The review page: one self-contained HTML file with every quote beside its source.

The page is rendered with Jinja2 from ``templates/page.html.j2``; its CSS and
script are inlined and nothing is fetched, so it opens from ``file://`` and
can be sent by mail. The results travel as JSON inside a
``<script type="application/json">`` element and the script builds each card
with ``textContent`` only, so no quote or document name is ever read as HTML.
Cards are built as the reviewer scrolls, which keeps 5,000 quotes quick to open.

The reviewer's decisions and notes are kept in the browser's localStorage
under the run's fingerprint and saved as a decisions file (JSON or CSV) that
``quoteverify review`` and ``verify --previous`` read like a reviewed workbook
(see quoteverify.app.decision_files).
"""
from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any

from ..model.errors import OutputError
from ..model.rows import results_file_bytes, results_from_jsonl
from ..model.text import other_places, place, utf8
from ..model.types import (
    DECISIONS,
    MATCH_TYPES,
    SEVERITIES,
    STATUSES,
    DifferenceKind,
    QuoteResult,
    Weight,
    count_by_document,
    count_by_severity,
    count_by_status,
    document_label,
    fingerprint,
    triage_order,
    unchecked_claim,
    weight,
)
from ..plumbing.guard import marked
from ..plumbing.transaction import write_bytes_atomic
from . import guide
from .excel import CHART_COLOURS, highlights, shown_differences

PAGE_FORMATS = (".html",)
# The weight of a highlighted passage, as the workbook colours it, in one letter to keep 5,000 quotes small.
WEIGHT_CODES: dict[Weight, str] = {"load-bearing": "l", "changed": "c", "benign": "b"}
# The summary chart: pixels.
CHART_LABEL, CHART_BAR, CHART_ROW = 190, 420, 22


def run_fingerprint(results: Iterable[QuoteResult]) -> str:
    """Identifies a run's quotes and where they were found; the page keeps decisions under it."""
    digest = hashlib.sha256()
    for result in results:
        digest.update(f"{result.quote_id}\x1f{fingerprint(result)}\x1e".encode("utf-8", "surrogatepass"))
    return digest.hexdigest()[:16]


def _segments(text: str, fragments: list[tuple[str, DifferenceKind]]) -> list[Any]:
    """``text`` cut into plain strings and [text, weight] pairs, highlighted as in the workbook.

    Pieces rather than offsets: Python counts code points and JavaScript UTF-16 units, so
    offsets would drift after the first emoji.
    """
    parts: list[Any] = []
    position = 0
    for span in highlights(text, fragments):
        if span.start > position:
            parts.append(text[position:span.start])
        parts.append([text[span.start:span.end], WEIGHT_CODES[weight(span.kind)]])
        position = span.end
    if position < len(text):
        parts.append(text[position:])
    return parts


def _card(result: QuoteResult) -> dict[str, Any]:
    differences = shown_differences(result.differences)
    card = {
        "id": result.quote_id, "row": result.row, "status": result.status, "match": result.match_type,
        "confidence": result.confidence, "band": result.band, "severity": result.severity, "p_change": result.p_change,
        # What a QDA project codes the segment as (all its codes), and the finding the quote is cited for.
        "codes": result.extra.get("codes", ""), "finding": result.finding,
        "quote": _segments(result.quote, [(d.quote_text, d.kind) for d in differences]),
        "matched": _segments(result.matched_text, [(d.source_text, d.kind) for d in differences]),
        "before": result.context_before, "after": result.context_after,
        "document": result.document, "claimed": result.claimed_document, "group": document_label(result),
        "line": result.line, "page": result.page, "page_kind": result.page_kind, "cite": result.cite,
        "speaker": result.speaker, "timestamp": result.timestamp,
        "place": place(result.occurrences, result.speaker_occurrences, result.claimed_speaker or result.speaker)
        if result.occurrences > 1 else "",
        "others": other_places(result.other_lines, result.occurrences),
        "reasons": result.reasons, "kinds": sorted({d.kind for d in result.differences}),
        "suggestion": result.suggestion, "cosine": result.cosine, "match_ratio": result.match_ratio,
        "bm25": result.bm25_score, "fp": fingerprint(result),
        "decision": result.decision, "note": result.reviewer_note,
        "unchecked": unchecked_claim(result),  # pale green: the claimed document or speaker was not checked
    }
    # Empty fields are left out: the script reads a missing one as empty, and the file stays smaller.
    return {k: v for k, v in card.items() if v not in ("", None, [])}


@dataclass(frozen=True)
class Bar:
    """One row of the summary chart: a document and the width of each status's part."""

    label: str
    total: int
    parts: tuple[tuple[str, int, float, float], ...]  # (status, count, x, width)
    y: int


def _summary(results: list[QuoteResult]) -> dict[str, Any]:
    statuses = count_by_status(results)
    match_types = Counter(r.match_type for r in results)
    per_document = count_by_document(results)
    documents = list(per_document)
    widest = max((sum(c.values()) for c in per_document.values()), default=1)
    bars = []
    for k, name in enumerate(documents):
        counts = per_document[name]
        x, parts = float(CHART_LABEL), []
        for status in STATUSES:
            width = CHART_BAR * counts[status] / widest
            parts.append((status, counts[status], round(x, 1), round(width, 1)))
            x += width
        bars.append(Bar(name, sum(counts.values()), tuple(parts), k * CHART_ROW))
    severities = count_by_severity(results)
    return {
        "statuses": [(s, statuses[s]) for s in STATUSES],
        "severities": [(s, severities[s]) for s in SEVERITIES],
        "match_types": [(m, match_types[m]) for m in MATCH_TYPES if match_types[m]],
        "documents": [(d, [per_document[d][s] for s in STATUSES], sum(per_document[d].values()))
                      for d in documents],
        "bars": bars, "chart_height": max(len(documents), 1) * CHART_ROW + 24,
        "chart_width": CHART_LABEL + CHART_BAR + 60, "chart_label": CHART_LABEL, "chart_bar": CHART_BAR,
        "widest": widest,
    }


def script_json(data: Any) -> str:
    """JSON that can sit inside a <script> element: no '</script', '<!--' or ']]>' can occur in it.

    Escaping every '<', '>' and '&' as a \\u sequence reads back as the same characters.
    """
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026") \
        .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def render_page(results: list[QuoteResult], *, title: str = "quoteverify review") -> str:
    """The review page for ``results`` as HTML text; the same results give the same bytes."""
    # jinja2 is needed only for the review page.
    from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

    env = Environment(loader=PackageLoader("quoteverify.export", "templates"),
                      autoescape=select_autoescape(default=True, default_for_string=True),
                      undefined=StrictUndefined, keep_trailing_newline=True)
    # Worst first, as the workbook; the sort is stable, so ties keep their input order.
    order = triage_order(results)
    run = run_fingerprint(results)
    data = {"run": run, "decisions": list(DECISIONS), "statuses": list(STATUSES),
            "quotes": [_card(results[k]) for k in order]}
    # The same guide as the workbook's first sheet and the README's.
    decisions = [(d, [guide.DECISION_MEANING[d][s] for s in guide.DECISION_STATUSES]) for d in DECISIONS]
    kinds = sorted({d.kind for r in results for d in r.differences})
    template = env.get_template("page.html.j2")
    return template.render(title=title, run=run, count=len(results), summary=_summary(results),
                           colours=CHART_COLOURS, match_types=[m for m in MATCH_TYPES],
                           statuses=STATUSES, kinds=kinds, decisions=DECISIONS, severities=SEVERITIES,
                           guide=guide, guide_decisions=decisions,
                           data_json=script_json(data), css=_asset("page.css"), script=_asset("page.js"),
                           generator=marked("review page"))


def _asset(name: str) -> str:
    return files("quoteverify.export").joinpath("templates").joinpath(name).read_text(encoding="utf-8")


def page_bytes(results: list[QuoteResult], *, title: str = "quoteverify review") -> bytes:
    # A lone surrogate (bytes that were not UTF-8) cannot be UTF-8: shown as U+FFFD, as in every output.
    return utf8(render_page(results, title=title))


def load_results(path: str | Path) -> list[QuoteResult]:
    """The results of a run, read from the JSONL it wrote (verify -o results.jsonl)."""
    path = Path(path)
    return results_from_jsonl(path, results_file_bytes(path, "the review page"))


def write_page(path: str | Path, results: list[QuoteResult], *, title: str = "quoteverify review") -> None:
    path = Path(path)
    if path.suffix.lower() not in PAGE_FORMATS:
        raise OutputError(f"{path}: unknown format '{path.suffix}' for the review page; use .html")
    data = page_bytes(results, title=title)
    write_bytes_atomic(path, data)
