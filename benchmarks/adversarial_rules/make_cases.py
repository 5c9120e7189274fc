"""Build the adversarial probe set of the positive tests of 39c2e5f (issue 49): quotes.csv and cases.jsonl for the
scale meetings (this folder) and for the public transcripts (transcripts/). Every case is one hand-written edit of
one real passage (specs_scale.py, specs_transcripts.py), its expectation decided by reading, before any run.

    python3 benchmarks/adversarial_rules/make_cases.py

Deterministic: the files come out byte for byte the same."""
from __future__ import annotations

import csv
import io
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
BENCH = HERE.parents[1].parent / "shared" / "bench"
sys.path.insert(0, str(HERE))

from specs import Case  # noqa: E402
from specs_scale import CASES as SCALE  # noqa: E402
from specs_transcripts import CASES as TRANSCRIPTS  # noqa: E402

EXCERPT = {"excerpt_far_attribution", "excerpt_midclause_turn", "genuine_excerpt_own_words", "genuine_excerpt_rest",
           "whole_quotation", "genuine_whole_quotation", "excerpt_restart_taken_back",
           "excerpt_trailing_frame"}
PREFIX = {"excerpt_far_attribution": "far", "genuine_excerpt_own_words": "gown", "excerpt_midclause_turn": "mid",
          "genuine_excerpt_rest": "grest", "whole_quotation": "wq", "genuine_whole_quotation": "gwq",
          "aside_clause_content": "aside", "genuine_aside_clause": "gaside", "trailing_reason": "reason",
          "genuine_trailing_reason": "greason", "leading_connective": "conn", "genuine_leading_connective": "gconn",
          "answer_without_question": "ans", "genuine_answer": "gans", "bracket_person": "person",
          "genuine_bracket_person": "gperson", "bracket_participant": "partic", "genuine_bracket_participant": "gpartic",
          "bracket_from_question": "asked", "genuine_bracket_from_question": "gasked", "false_start_filler": "restart",
          "genuine_false_start": "gfalse", "excerpt_restart_taken_back": "takeback", "speaker_label": "label",
          "genuine_speaker_label": "glabel", "excerpt_trailing_frame": "frame"}


def text_of(folder: Path, doc: str) -> str:
    with open(folder / f"{doc}.txt", encoding="utf-8", newline="") as f:
        return f.read()


def locate(text: str, case: Case) -> int:
    """Offset of the passage in the document: where ctx + passage occurs once."""
    probe = case.ctx + case.passage
    if text.count(probe) != 1:
        raise SystemExit(f"{case.doc}: passage found {text.count(probe)} times: {probe[:80]!r}")
    return text.find(probe) + len(case.ctx)


def build(cases: list[Case], folder: Path, out: Path) -> None:
    counts: dict[str, int] = {}
    rows, lines = [], []
    for case in cases:
        if case.expect not in ("review", "verified"):
            raise SystemExit(f"bad expect {case.expect}")
        if case.family.startswith("genuine") != (case.expect == "verified"):
            raise SystemExit(f"{case.family}: expect {case.expect}")
        text = text_of(folder, case.doc)
        start = locate(text, case)
        if case.family in EXCERPT:
            if case.quote not in case.passage:
                raise SystemExit(f"{case.doc}: excerpt not in passage: {case.quote!r}")
        elif case.quote == case.passage:
            raise SystemExit(f"{case.doc}: no edit: {case.quote!r}")
        counts[case.family] = counts.get(case.family, 0) + 1
        qid = f"{PREFIX[case.family]}-{counts[case.family]:03d}"
        rows.append((qid, case.quote, case.doc))
        lines.append(json.dumps({"quote_id": qid, "quote": case.quote, "document": case.doc, "family": case.family,
                                 "expect": case.expect, "debatable": case.debatable, "rationale": case.why,
                                 "edit": case.edit, "source_doc": case.doc, "source_start": start,
                                 "source_end": start + len(case.passage)}, ensure_ascii=False))
    ids = [r[0] for r in rows]
    assert len(ids) == len(set(ids))
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(("quote_id", "quote", "document"))
    writer.writerows(rows)
    out.mkdir(parents=True, exist_ok=True)
    (out / "quotes.csv").write_text(buf.getvalue(), encoding="utf-8")
    (out / "cases.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    review = sum(c.expect == "review" for c in cases)
    print(f"{out.relative_to(HERE.parents[1])}: {len(cases)} cases, {review} review, {len(cases) - review} verified, "
          f"{sum(c.debatable for c in cases)} debatable")


def check_overlap(cases: list[Case], folder: Path) -> None:
    spans: dict[str, list[tuple[int, int]]] = {}
    for case in cases:
        start = locate(text_of(folder, case.doc), case)
        for a, b in spans.get(case.doc, []):
            if start < b and a < start + len(case.passage):
                raise SystemExit(f"{case.doc}: passages overlap at {start}: {case.passage[:60]!r}")
        spans.setdefault(case.doc, []).append((start, start + len(case.passage)))


if __name__ == "__main__":
    for cases, folder, out in ((SCALE, BENCH / "scale" / "docs", HERE),
                               (TRANSCRIPTS, BENCH / "transcripts" / "docs", HERE / "transcripts")):
        check_overlap(cases, folder)
        build(cases, folder, out)
