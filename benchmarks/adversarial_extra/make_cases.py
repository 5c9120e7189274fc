"""Build the held-out adversarial set: cases.jsonl and quotes.csv here and in multilingual/.

    python3 benchmarks/adversarial_extra/make_cases.py        (from the repository root, or anywhere)

Reads the documents from ../shared/bench/scale/docs and ../shared/bench/multilingual/docs (relative to the
repository root). Deterministic: the only random choice, which ellipsis form a quote uses, comes from a
seeded generator keyed by the case's own text, so adding or removing a case never changes another one.

Every case is one edit of one real passage, written in the spec files as a template with one marker
``⟦old|new⟧``: the passage is the template with ``old``, the quote the template with ``new``. ``⟦old|⟧`` at
the start or the end of a template is a cut (an excerpt): the quote is the passage without ``old``. In
``new``, ``…`` stands for an ellipsis whose written form is drawn from ELLIPSES.
"""
import csv
import json
import os
import sys
from pathlib import Path

from spec import EXCERPT_FAMILIES, split_template

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
BENCH = ROOT / ".." / "shared" / "bench"
SCALE_DOCS = BENCH / "scale" / "docs"
ML_DOCS = BENCH / "multilingual" / "docs"
DEV_DOCS = BENCH / "dev" / "docs"
FIELDS = ["quote_id", "quote", "document", "family", "expect", "debatable", "rationale", "edit", "source_doc",
          "source_start", "source_end", "undo"]
MEANING = {"ellipsis_content": "ell", "excerpt_turned": "cut", "bracket_content": "brk", "word_rare": "word",
           "speech_act": "act", "turns": "turn"}
GENUINE = {"genuine_fillers": "fill", "genuine_false_start": "fs", "genuine_aside": "aside",
           "genuine_whole_sentences": "sent", "genuine_isation": "ize", "genuine_verbatim_excerpt": "exc"}


def load_docs(folder, exclude=()):
    docs = {}
    for name in sorted(os.listdir(folder)):
        if name.endswith(".txt") and name not in exclude:
            with open(folder / name, encoding="utf-8", newline="") as fh:
                docs[name[:-4]] = fh.read()
    return docs


def describe_edit(spec, quote, undo):
    if spec.edit:
        return spec.edit
    qs, qe, old = undo[0]
    new = quote[qs:qe]
    if not new:
        side = "start" if qs == 0 else "end"
        return f"cut at the {side} of the sentence, leaving out {old.strip()!r}"
    return f"{old!r} -> {new!r}"


def build(specs, docs, all_docs):
    """Cases from specs; every passage unique in its document and absent from every other document."""
    cases, taken, counters, problems = [], {}, {}, []
    for spec in specs:
        try:
            case = _case(spec, docs, all_docs, taken, counters)
        except SystemExit as exc:
            problems.append(str(exc))
            continue
        cases.append(case)
    if problems:
        raise SystemExit("\n".join(problems))
    return cases


def _case(spec, docs, all_docs, taken, counters):
    """One case from one spec, checked against the documents and the passages already taken."""
    if True:
        short = MEANING.get(spec.family) or GENUINE.get(spec.family)
        if short is None:
            raise SystemExit(f"unknown family {spec.family}")
        if spec.doc not in docs:
            raise SystemExit(f"{spec.doc}: not a usable document (a dev document, or missing)")
        passage, quote, undo = split_template(spec)
        text = docs[spec.doc]
        if text.count(passage) != 1:
            raise SystemExit(f"{spec.doc}: passage found {text.count(passage)} times: {passage!r}")
        elsewhere = [d for d, t in all_docs.items() if d != spec.doc and passage in t]
        if elsewhere:
            raise SystemExit(f"{spec.doc}: passage also in {elsewhere}: {passage!r}")
        if spec.family in EXCERPT_FAMILIES:
            where = [d for d, t in all_docs.items() if quote in t]
            if where != [spec.doc] or text.count(quote) != 1:
                raise SystemExit(f"{spec.doc}: excerpt not unique to one place: {quote!r} in {where}")
        start = text.find(passage)
        end = start + len(passage)
        for s, e, other in taken.get(spec.doc, []):
            if start < e and s < end:
                raise SystemExit(f"{spec.doc}: passage overlaps {other}: {passage!r}")
        key = f"{spec.language}-{short}" if spec.language else short
        counters[key] = counters.get(key, 0) + 1
        qid = f"{key}-{counters[key]:03d}"
        taken.setdefault(spec.doc, []).append((start, end, qid))
        case = {"quote_id": qid, "quote": quote, "document": spec.doc, "family": spec.family,
                "expect": "review" if spec.family in MEANING else "verified", "debatable": spec.debatable,
                "rationale": spec.why, "edit": describe_edit(spec, quote, undo), "source_doc": spec.doc,
                "source_start": start, "source_end": end, "undo": undo}
        if spec.language:
            case["language"] = spec.language
        return case


def write(folder, cases):
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "cases.jsonl", "w", encoding="utf-8", newline="\n") as fh:
        for c in cases:
            fh.write(json.dumps(c, ensure_ascii=False) + "\n")
    with open(folder / "quotes.csv", "w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["quote_id", "quote", "document"])
        for c in cases:
            w.writerow([c["quote_id"], c["quote"], c["document"]])


def main():
    sys.path.insert(0, str(HERE))
    import specs_en
    import specs_ml
    dev = set(os.listdir(DEV_DOCS))
    scale_all = load_docs(SCALE_DOCS)
    scale = {d: t for d, t in scale_all.items() if d + ".txt" not in dev}
    en = build(specs_en.specs(scale), scale, scale_all)
    write(HERE, en)
    ml_docs = load_docs(ML_DOCS)
    ml = build(specs_ml.specs(ml_docs), ml_docs, ml_docs)
    write(HERE / "multilingual", ml)
    print(f"{len(en)} English cases -> {HERE / 'cases.jsonl'}; {len(ml)} multilingual -> multilingual/cases.jsonl")


if __name__ == "__main__":
    main()
