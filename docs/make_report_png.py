"""Make docs/report.png, the README's picture of the review page, from the current code.

Runs the README's first command on the bundled example (with the embedding model, as a user would) and
takes a screenshot of the page it writes in headless Chromium (Debian's, /usr/bin/chromium):

    python docs/make_report_png.py            # writes docs/report.png
    python docs/make_report_png.py --check    # only says whether docs/report.png shows the current counts
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from click.testing import CliRunner

from quoteverify.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "data" / "example"
PICTURE = ROOT / "docs" / "report.png"
COUNTS = ROOT / "docs" / "report.json"  # the counts the picture shows, so a test can tell it is current
CHROMIUM = os.environ.get("QUOTEVERIFY_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
# As the page's browser tests start it: no network, no first-run work, a profile of its own.
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars")


def example_counts(folder: Path) -> dict[str, int]:
    """Run the example as the README does; the page goes to folder/results.html. Counts by status."""
    page, results = folder / "results.html", folder / "results.jsonl"
    outcome = CliRunner().invoke(main, ["verify", str(EXAMPLE / "transcripts"), str(EXAMPLE / "quotes.csv"),
                                        "-o", str(page), "-o", str(results), "--no-cache"])
    if outcome.exit_code != 0:
        sys.exit(outcome.output)
    statuses = [json.loads(line)["status"] for line in results.read_text(encoding="utf-8").splitlines()]
    return {s: statuses.count(s) for s in ("verified", "review", "unverified")}


def screenshot(page: Path, picture: Path, folder: Path) -> None:
    subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={folder / 'profile'}", "--window-size=1280,1500",
                    f"--screenshot={picture}", page.as_uri()], check=True, capture_output=True, timeout=120)


def main_() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare the counts the picture shows")
    check = parser.parse_args().check
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        counts = example_counts(folder)
        if check:
            shown = json.loads(COUNTS.read_text(encoding="utf-8"))
            sys.exit(0 if shown == counts else f"docs/report.png shows {shown}, a run gives {counts}: "
                                               "run python docs/make_report_png.py")
        screenshot(folder / "results.html", PICTURE, folder)
    COUNTS.write_text(json.dumps(counts) + "\n", encoding="utf-8")
    print(f"{PICTURE}: the review page of data/example ({counts})")


if __name__ == "__main__":
    main_()
