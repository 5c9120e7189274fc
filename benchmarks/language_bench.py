"""How well, how fast and in how much memory the language of documents and quotes is told.

    python benchmarks/language_bench.py ../shared/bench/multilingual            # low-accuracy mode, as run
    python benchmarks/language_bench.py ../shared/bench/multilingual --high     # lingua's high-accuracy mode

The set needs ``docs/*.txt`` named ``<code>_...`` and a ``cases.jsonl`` with
``quote_id``, ``quote``, ``document`` and ``language``. Prints: documents named
right; quotes named right by the detector alone and by the rule the pipeline
uses (quoteverify.sources.language.with_languages: a quote of at least
language.min_quote_words words the detector is language.min_confidence sure of
keeps its own language, else its claimed document's); the seconds that rule
takes for the whole set, models loaded on first use included, against reading
the files (the baseline, in the same process); and the growth of the process's
peak memory.
"""
from __future__ import annotations

import argparse
import json
import resource
import time
from pathlib import Path


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("set_dir", type=Path)
    parser.add_argument("--high", action="store_true", help="lingua's high-accuracy mode instead of low")
    args = parser.parse_args()

    from quoteverify.model.config import load_config
    from quoteverify.model.types import Document, Quote
    from quoteverify.sources import language

    settings = load_config().language
    start = time.perf_counter()
    docs = {p.stem: p.read_text(encoding="utf-8") for p in sorted((args.set_dir / "docs").glob("*.txt"))}
    cases = [json.loads(line) for line in (args.set_dir / "cases.jsonl").read_text(encoding="utf-8").splitlines()]
    baseline = time.perf_counter() - start

    peak = _peak_mb()
    start = time.perf_counter()
    if args.high:
        from lingua import LanguageDetectorBuilder

        detector = LanguageDetectorBuilder.from_all_languages().build()
        language._detector = lambda among=None: detector  # type: ignore[assignment]  # all languages, high accuracy
    documents, quotes, own = language.with_languages(
        [Document(d, "", t, "") for d, t in docs.items()],
        [Quote(k, c["quote_id"], c["quote"], c["document"]) for k, c in enumerate(cases)], settings)
    seconds = time.perf_counter() - start
    doc_language = {d.doc_id: d.language for d in documents}
    rule = [code or doc_language.get(q.claimed_document, "") for code, q in zip(own, quotes)]
    own = [language.detect(c["quote"]) for c in cases]

    docs_right = sum(code == d[:2] for d, code in doc_language.items())
    own_right = sum(code == c["language"] for code, c in zip(own, cases))
    rule_right = sum(code == c["language"] for code, c in zip(rule, cases))
    print(f"mode: {'high' if args.high else 'low'} accuracy, all languages")
    print(f"documents named right: {docs_right}/{len(docs)}")
    print(f"quotes named right by the detector alone: {own_right}/{len(cases)}")
    print(f"quotes named right by the pipeline's rule: {rule_right}/{len(cases)}")
    for code, c in zip(own, cases):
        if code != c["language"]:
            print(f"  {c['quote_id']}: detected {code}, is {c['language']} ({len(c['quote'].split())} words)")
    print(f"detection: {seconds:.2f} s, {seconds / max(baseline, 1e-6):.0f}x reading the files ({baseline:.3f} s)")
    print(f"peak memory grew by {_peak_mb() - peak:.0f} MB")


if __name__ == "__main__":
    main()
