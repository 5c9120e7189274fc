"""How long a checked manuscript takes, against checking the same quotes as a CSV.

A draft of about 200 pages (500 words a page) is made of a benchmark set's quotes, each in a paragraph of
findings between paragraphs of filler prose; the quotes are extracted from it into a CSV (quoteverify
extract, so both runs check the same quotes), and then, in alternating rounds, with the same settings:

    A: quoteverify verify DOCS quotes.csv -o results.csv
    B: quoteverify verify DOCS draft.docx -o draft.checked.docx

both without the cache (--no-cache: every run prepares the documents, loads the model and checks every
quote; B also checks its corrected quotations again). Prints each round, the medians and their ratio B / A.

    python benchmarks/manuscript_bench.py                       # dev set, 300 quotes, 200 pages, 3 rounds
    python benchmarks/manuscript_bench.py --set ../shared/bench/dev --quotes 300 --pages 200 --rounds 3
    python benchmarks/manuscript_bench.py --keep /tmp/draft      # keep the draft and the outputs there

Measured (2 cores shared with other work, load 7-10; the dev set, embeddings on, 5 rounds): csv 18.3-35.1 s,
median 33.5 s; checked manuscript 31.3-38.8 s, median 37.4 s; ratio 1.12. In one process, the parts the
manuscript adds to a 22 s check: reading the draft 0.2 s, the 146 quotes in review's corrected quotations
checked again 3-4 s (143 proposed), writing 300 comments and 143 fixes 0.3 s.
"""
from __future__ import annotations

import argparse
import csv
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DEFAULT_SET = Path("/work/shared/bench/dev")
WORDS_PER_PAGE = 500
FILLER = ("the analysis of these accounts suggests that participants described their work in terms of routine "
          "coordination and the shared expectations of colleagues while several interviews returned to questions "
          "of time pressure resources and the informal arrangements through which teams managed competing demands "
          "across sites and over the period of the study").split()


def quotes_of(folder: Path, count: int) -> list[str]:
    """``count`` quotes of the set, of five words or more and without quotation marks of their own, in order."""
    with open(folder / "quotes.csv", encoding="utf-8", newline="") as handle:
        rows = [r["quote"] for r in csv.DictReader(handle)]
    usable = [q for q in rows if len(q.split()) >= 5 and not set(q) & set('"“”«»')]
    return (usable * (count // len(usable) + 1))[:count]


def write_draft(path: Path, quotes: list[str], pages: int) -> int:
    """The draft: filler paragraphs of about 65 words with a quote in every few; its number of words."""
    import docx

    rng = random.Random(7)
    document = docx.Document()
    document.add_heading("Findings", level=1)
    words = 0
    filler = pages * WORDS_PER_PAGE - sum(len(q.split()) + 12 for q in quotes)
    for k, quote in enumerate(quotes):
        for _ in range(round(filler / 65 * (k + 1) / len(quotes)) - round(filler / 65 * k / len(quotes))):
            text = " ".join(rng.choice(FILLER) for _ in range(65)).capitalize() + "."
            document.add_paragraph(text)
            words += 65
        document.add_paragraph(f"As participant {k % 40 + 1} put it, “{quote}”, which we read as part of this.")
        words += len(quote.split()) + 12
    document.save(path)
    return words


def timed(command: list[str]) -> float:
    started = time.perf_counter()
    outcome = subprocess.run(command, capture_output=True, text=True, timeout=3600)
    elapsed = time.perf_counter() - started
    if outcome.returncode not in (0, 1):
        sys.exit(f"failed: {' '.join(command)}\n{outcome.stderr}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--set", type=Path, default=DEFAULT_SET)
    parser.add_argument("--quotes", type=int, default=300)
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-embed", action="store_true", help="both runs without the language model")
    parser.add_argument("--keep", type=Path, help="a folder to keep the draft and the outputs in")
    args = parser.parse_args()
    folder = args.keep or Path(tempfile.mkdtemp(prefix="manuscript-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    draft = folder / "draft.docx"
    words = write_draft(draft, quotes_of(args.set, args.quotes), args.pages)
    exe = str(Path(sys.executable).with_name("quoteverify"))
    subprocess.run([exe, "extract", str(draft), "-o", str(folder / "quotes.csv")], check=True, capture_output=True)
    with open(folder / "quotes.csv", encoding="utf-8", newline="") as handle:
        extracted = sum(1 for _ in csv.DictReader(handle))
    print(f"draft: {words:,} words (about {words / WORDS_PER_PAGE:.0f} pages), {extracted} quotes; "
          f"documents: {args.set / 'docs'}")
    common = ["--no-cache", "-q", *(["--no-embed"] if args.no_embed else [])]
    table = [exe, "verify", str(args.set / "docs"), str(folder / "quotes.csv"), "-o", str(folder / "results.csv"),
             *common]
    checked = [exe, "verify", str(args.set / "docs"), str(draft), "-o", str(folder / "draft.checked.docx"), *common]
    times: dict[str, list[float]] = {"csv": [], "manuscript": []}
    for k in range(args.rounds):
        times["csv"].append(timed(table))
        times["manuscript"].append(timed(checked))
        print(f"round {k + 1}: csv {times['csv'][-1]:.1f} s, checked manuscript {times['manuscript'][-1]:.1f} s")
    a, b = statistics.median(times["csv"]), statistics.median(times["manuscript"])
    print(f"median: csv {a:.1f} s, checked manuscript {b:.1f} s; ratio {b / a:.2f} (target <= 1.5)")


if __name__ == "__main__":
    main()
