#!/usr/bin/env python3
"""Turn the generated cases (generate/build/*/cases.jsonl) into the shared adversarial format.

    python3 benchmarks/adversarial_forms/generate/make_cases.py     # and make_cases2.py ... make_cases4.py
    python3 benchmarks/adversarial_forms/to_bench.py

Writes cases.jsonl and quotes.csv (English, ../shared/bench/scale/docs) and multilingual/cases.jsonl and
multilingual/quotes.csv (../shared/bench/multilingual/docs) beside this file, with the fields of
../shared/bench/adversarial: expect is "review" for a meaning change and "verified" for an honest edit;
source_start/source_end are offsets of the edited passage in the document read with newline=""; undo lists
[quote_start, quote_end, source_text], which applied right to left turns the quote back into the passage.
Deterministic: the files come out byte for byte the same.
"""
from __future__ import annotations

import csv
import json
from difflib import SequenceMatcher
from pathlib import Path

HERE = Path(__file__).resolve().parent
BUILD = HERE / "generate" / "build"
BENCH = HERE.parents[2] / "shared" / "bench"
PARTS = {"": (("en", "en2", "en3", "en4"), BENCH / "scale" / "docs"),
         "multilingual": (("ml", "ml2"), BENCH / "multilingual" / "docs")}

# Labels changed on reading a case again, as a strict editor, without running quoteverify on it:
# quote id -> (expect, debatable, why).
RELABELLED = {
    "en2-ukus_false_pair-07": ("verified", True, "'check' for 'cheque' (of a cheque signed): the American spelling "
                                                 "of the same sense"),
    "en2-ukus_false_pair-14": ("review", True, "'chequed' is no word: a slip that may still read as the money "
                                               "sense"),
    "en2-number_format_trick-01": ("review", True, "'a 2nd stream' reads as an ordinal there"),
    "en2-number_format_trick-10": ("review", True, "'a 2nd point' reads as an ordinal there"),
    "en3-contraction_ambiguous-01": ("review", True, "'that's done with the assumption' reads as a passive (is) "
                                                     "as well as a perfect (has)"),
    "en4-contraction_ambiguous_grammatical-01": ("verified", True, "'then I'd put them in' is 'would' in its "
                                                                   "sentence, though the verb does not show it"),
    "en4-contraction_ambiguous_grammatical-03": ("verified", True, "'and then they'd come back' is 'would' "
                                                                   "(habit), though the verb does not show it"),
}


def undo(quote: str, source: str) -> list[list]:
    """[quote_start, quote_end, source_text] for each stretch where quote and passage differ."""
    ops = SequenceMatcher(None, quote, source, autojunk=False).get_opcodes()
    return [[i1, i2, source[j1:j2]] for op, i1, i2, j1, j2 in ops if op != "equal"]


def convert(case: dict, docs: Path, multilingual: bool) -> dict:
    with open(docs / f"{case['document']}.txt", encoding="utf-8", newline="") as f:
        text = f.read()
    start = text.index(case["source"])
    expect = "review" if case["kind"] == "meaning" else "verified"
    debatable, rationale = bool(case["debatable"]), case["edit"]
    if case["quote_id"] in RELABELLED:
        expect, debatable, why = RELABELLED[case["quote_id"]]
        rationale = f"{rationale} (relabelled: {why})"
    row = {"quote_id": case["quote_id"], "quote": case["quote"], "document": case["document"],
           "family": case["family"], "expect": expect, "debatable": debatable, "rationale": rationale,
           "edit": case["edit"], "source_doc": case["document"], "source_start": start,
           "source_end": start + len(case["source"]), "undo": undo(case["quote"], case["source"])}
    if multilingual:
        row["language"] = case["document"][:2]
    return row


def main() -> None:
    for folder, (rounds, docs) in PARTS.items():
        out = HERE / folder
        out.mkdir(exist_ok=True)
        rows = [convert(json.loads(line), docs, bool(folder)) for r in rounds
                for line in (BUILD / r / "cases.jsonl").read_text(encoding="utf-8").splitlines()]
        with open(out / "cases.jsonl", "w", encoding="utf-8") as f:
            f.writelines(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
        with open(out / "quotes.csv", "w", encoding="utf-8", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(["quote_id", "quote", "document"])
            writer.writerows([row["quote_id"], row["quote"], row["document"]] for row in rows)
        print(f"{out}: {len(rows)} cases")


if __name__ == "__main__":
    main()
