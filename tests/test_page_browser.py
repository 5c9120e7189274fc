"""The review page in a real browser: headless Chromium from the system's packages, driven by Playwright.

Skipped, with the reason, where either is missing; .ci/run installs Chromium (apt-get install chromium).
"""
from __future__ import annotations

import json
import os
import shutil
import time
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from quoteverify.app.review import read_review
from quoteverify.cli import main
from quoteverify.export.page import load_results, write_page
from quoteverify.model.types import QuoteResult, triage_order

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed: pip install -e '.[test]'")

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "data" / "example"
CHROMIUM = os.environ.get("QUOTEVERIFY_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
# Flags for a headless browser in a container, with nothing of its own going to the network.
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
HOSTILE = ['<script>window.pwned = 1</script>', '"><img src=x onerror="window.pwned = 2">', "{{ 7 * 7 }}",
           "</script><!-- <script>"]

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).is_file(),
                                reason=f"no Chromium at {CHROMIUM}: apt-get install chromium (as .ci/run does)")


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


class Tab:
    """A page in its own browser profile, recording console errors and any request that is not a file."""

    def __init__(self, browser, path: Path):
        self.context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.context.route("**/*", self._route)
        self.page = self.context.new_page()
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("dialog", lambda d: (self.errors.append("dialog: " + d.message), d.dismiss()))
        self.url = path.resolve().as_uri()

    def _route(self, route):
        if not route.request.url.startswith(("file:", "blob:", "data:")):
            self.requests.append(route.request.url)
            route.abort()
        else:
            route.continue_()

    def open(self):
        self.page.goto(self.url, wait_until="load")
        self.page.wait_for_selector("#cards .card, #empty:not([hidden])")
        return self.page

    def ids(self) -> list[str]:
        return self.page.eval_on_selector_all("#cards .card", "cards => cards.map(c => c.dataset.quoteId)")

    def save(self, button: str, folder: Path) -> Path:
        with self.page.expect_download() as download:
            self.page.click(button)
        path = folder / download.value.suggested_filename
        download.value.save_as(path)
        return path

    def close(self):
        self.context.close()


@pytest.fixture(scope="module")
def example(tmp_path_factory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("page")
    jsonl, html = folder / "results.jsonl", folder / "report.html"
    outcome = CliRunner().invoke(main, ["verify", str(EXAMPLE / "transcripts"), str(EXAMPLE / "quotes.csv"),
                                        "--no-embed", "-o", str(jsonl), "-o", str(html)])
    assert outcome.exit_code == 0, outcome.output
    return jsonl, html


@pytest.fixture
def tab(browser, example):
    tab = Tab(browser, example[1])
    yield tab
    tab.close()


def test_loads_offline_without_console_errors(tab, example):
    page = tab.open()
    results = load_results(example[0])
    assert len(tab.ids()) == len(results) == 21
    assert page.title() == "quoteverify review: 21 quotes"
    assert page.text_content("#shown") == "showing 21 of 21"
    to_decide = sum(r.status != "verified" for r in results)
    assert page.text_content("#progress") == f"decided 0 of {to_decide} to decide"
    assert page.locator("svg rect").count() >= 3
    # Worst first, as the workbook.
    assert tab.ids() == [results[k].quote_id for k in triage_order(results)]
    assert (tab.errors, tab.requests) == ([], [])


def test_cards_show_quote_source_and_highlights(tab, example):
    page = tab.open()
    results = {r.quote_id: r for r in load_results(example[0])}
    altered = next(r for r in results.values() if r.match_type == "altered")
    card = page.locator(f'.card[data-quote-id="{altered.quote_id}"]')
    assert card.locator(".quote .text").text_content() == altered.quote
    source = card.locator(".source .text").text_content()
    assert altered.matched_text in source and source.startswith("…" + altered.context_before)
    assert card.locator(".hl-l").count() >= 1  # a load-bearing change, in red
    assert card.locator(".reasons li").all_text_contents() == altered.reasons
    unlocated = next(r for r in results.values() if r.status == "unverified")
    assert unlocated.suggestion in page.locator(f'.card[data-quote-id="{unlocated.quote_id}"] .source').text_content()


def test_filters(tab, example):
    page = tab.open()
    results = load_results(example[0])

    def shown(**expected):
        return sorted(tab.ids())

    def ids_where(test):
        return sorted(r.quote_id for r in results if test(r))

    page.select_option("#f-status", "unverified")
    assert shown() == ids_where(lambda r: r.status == "unverified")
    page.select_option("#f-status", "")
    page.select_option("#f-match", "altered")
    assert shown() == ids_where(lambda r: r.match_type == "altered")
    page.select_option("#f-match", "")
    page.select_option("#f-kind", "number")
    assert shown() == ids_where(lambda r: any(d.kind == "number" for d in r.differences)) != []
    page.select_option("#f-kind", "")
    page.select_option("#f-document", "interview-03-farmer")
    assert shown() == ids_where(lambda r: (r.document or r.claimed_document) == "interview-03-farmer")
    page.select_option("#f-document", "")
    page.fill("#f-text", "car park")
    assert shown() == ids_where(lambda r: "car park" in r.quote.lower() or "car park" in r.matched_text.lower())
    page.fill("#f-text", "no such words anywhere")
    assert shown() == [] and page.is_visible("#empty")
    page.fill("#f-text", "")
    assert len(tab.ids()) == 21
    assert tab.errors == []


def test_keys_and_clicks_decide_and_decisions_survive_a_reload(tab, example, tmp_path):
    page = tab.open()
    order = tab.ids()
    page.keyboard.press("j")
    page.keyboard.press("a")                 # first card: accept
    page.keyboard.press("ArrowDown")
    page.keyboard.press("r")                 # second: reject
    page.keyboard.press("j")
    page.keyboard.press("f")                 # third: fix quote ...
    page.keyboard.press("u")                 # ... taken back
    page.keyboard.press("k")
    page.keyboard.press("n")                 # a note on the second
    page.keyboard.type("number is 50 <b>not</b> 15")
    page.keyboard.press("Escape")
    page.locator(f'.card[data-quote-id="{order[3]}"] button[data-decision="fix source"]').click()
    assert page.locator(".card.current").get_attribute("data-quote-id") == order[3]
    page.keyboard.press("?")
    assert page.locator("#keys").get_attribute("open") is not None

    expected = {order[0]: "accept", order[1]: "reject", order[2]: "", order[3]: "fix source"}

    def decisions():
        return {i: page.locator(f'.card[data-quote-id="{i}"]').get_attribute("data-decision") for i in expected}

    assert decisions() == expected
    to_decide = sum(r.status != "verified" for r in load_results(example[0]))
    assert page.text_content("#progress") == f"decided 3 of {to_decide} to decide"
    # Chromium commits localStorage a moment after the page writes it (on a loaded machine, after a reload
    # has begun): allow a few reloads, as the test of a reopened file allows a few tries.
    for _ in range(20):
        page.reload()
        page.wait_for_selector("#cards .card")
        if decisions() == expected:
            break
        time.sleep(0.1)
    assert decisions() == expected
    assert page.locator(f'.card[data-quote-id="{order[1]}"] textarea').input_value() == "number is 50 <b>not</b> 15"
    # The decisions file reads back through quoteverify review as a reviewed workbook does.
    for button in ("#save-json", "#save-csv"):
        saved = tab.save(button, tmp_path)
        review = read_review(saved)
        got = {q.quote_id: q.decision for q in review.quotes}
        assert {i: got[i] for i in expected} == expected and len(got) == 21
        assert next(q for q in review.quotes if q.quote_id == order[1]).reviewer_note == "number is 50 <b>not</b> 15"
        outcome = CliRunner().invoke(main, ["review", str(saved)])
        assert outcome.exit_code == 0
        # The first cards are the worst: all three decided quotes are among those to decide.
        to_decide = sum(q.status != "verified" for q in review.quotes)
        assert outcome.stderr.splitlines()[0] == (f"{saved}: 21 quotes, {to_decide} to decide (review or "
                                                  "unverified): 1 accept, 1 reject, 0 fix quote, 1 fix source; "
                                                  f"{to_decide - 3} undecided, 0 invalid")
    # ... and carries into the next run.
    again = tmp_path / "again.jsonl"
    outcome = CliRunner().invoke(main, ["verify", str(EXAMPLE / "transcripts"), str(EXAMPLE / "quotes.csv"),
                                        "--no-embed", "--previous", str(saved), "-o", str(again)])
    assert outcome.exit_code == 0, outcome.output
    rows = {r["quote_id"]: r["decision"] for r in map(json.loads, again.read_text().splitlines())}
    assert {i: rows[i] for i in expected} == expected
    assert tab.errors == []


def test_reopening_the_file_keeps_decisions_and_a_new_run_does_not_inherit_them(browser, example, tmp_path):
    tab = Tab(browser, example[1])
    page = tab.open()
    first = tab.ids()[0]
    page.keyboard.press("j")
    page.keyboard.press("s")
    other = tab.context.new_page()  # the same file opened again, in the same browser

    def reopened() -> str | None:
        other.goto(tab.url)
        return other.locator(f'.card[data-quote-id="{first}"]').get_attribute("data-decision")

    # Chromium hands localStorage to another tab's process a moment later, so allow it a few tries.
    for _ in range(20):
        if reopened() == "fix source":
            break
        time.sleep(0.1)
    assert reopened() == "fix source"
    # A page of different results (another run) starts empty.
    results = load_results(example[0])
    changed = tmp_path / "changed.html"
    write_page(changed, [replace(results[0], quote=results[0].quote + " And more.")] + results[1:])
    other.goto(changed.resolve().as_uri())
    assert other.eval_on_selector_all(".card[data-decision]", "cs => cs.filter(c => c.dataset.decision).length") == 0
    tab.close()


def test_hostile_text_shows_as_text(browser, tmp_path):
    results = [QuoteResult("q1", HOSTILE[0], 2, claimed_document=HOSTILE[1], suggestion=HOSTILE[1]),
               QuoteResult("q2", HOSTILE[2], 3, document=HOSTILE[3], matched_text=HOSTILE[1], start=0, end=9,
                           status="review", match_type="paraphrase", reasons=[HOSTILE[0]],
                           context_before=HOSTILE[2], speaker=HOSTILE[1]),
               QuoteResult(HOSTILE[1], HOSTILE[3], 4, reviewer_note=HOSTILE[0], decision="accept")]
    path = tmp_path / "hostile.html"
    write_page(path, results, title=HOSTILE[0])
    tab = Tab(browser, path)
    page = tab.open()
    assert page.evaluate("window.pwned") is None
    assert page.locator("img").count() == 0 and page.locator("script").count() == 2
    assert page.title() == f"{HOSTILE[0]}: 3 quotes"
    assert page.locator('.card[data-quote-id="q1"] .quote .text').text_content() == HOSTILE[0]
    assert page.locator('.card[data-quote-id="q2"] .quote .text').text_content() == HOSTILE[2]
    assert HOSTILE[1] in page.locator('.card[data-quote-id="q2"] .source').text_content()
    assert page.locator('.card[data-quote-id="q2"] .reasons li').text_content() == HOSTILE[0]
    # Its decision and note were carried into the results: shown as made (the cards are in triage order).
    ids = [card.get_attribute("data-quote-id") for card in page.locator(".card").all()]
    third = page.locator(".card").nth(ids.index(HOSTILE[1]))
    assert (third.get_attribute("data-decision"), third.locator("textarea").input_value()) == ("accept", HOSTILE[0])
    assert third.get_attribute("data-quote-id") == HOSTILE[1]
    assert HOSTILE[3] in page.locator(".docs").text_content()
    assert page.locator("#f-document option").all_text_contents()[1:] == sorted([HOSTILE[1], HOSTILE[3], "(no document)"])
    assert (tab.errors, tab.requests) == ([], [])
    tab.close()


def many(results: list[QuoteResult], n: int) -> list[QuoteResult]:
    return [replace(results[k % len(results)], quote_id=f"q{k}", row=k + 2) for k in range(n)]


def test_5000_quotes_open_in_under_3_seconds_and_scroll(browser, example, tmp_path):
    path = tmp_path / "large.html"
    write_page(path, many(load_results(example[0]), 5000))
    size = path.stat().st_size
    tab = Tab(browser, path)
    started = time.perf_counter()
    page = tab.open()
    opened = time.perf_counter() - started
    print(f"\n5,000 quotes: {size / 1e6:.1f} MB, opened in {opened:.2f} s")
    assert opened < 3.0
    assert page.text_content("#shown") == "showing 5000 of 5000"
    first = len(tab.ids())
    assert 0 < first < 200  # built lazily
    # Scroll down 40 screens, a frame at a time; cards are built as they come near.
    gaps = page.evaluate("""async () => {
        const gaps = [];
        for (let k = 0; k < 40; k++) {
            const t = performance.now();
            window.scrollBy(0, 900);
            await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
            gaps.push(performance.now() - t);
        }
        return gaps.sort((a, b) => a - b);
    }""")
    print(f"scroll: median {gaps[len(gaps) // 2]:.0f} ms, slowest {gaps[-1]:.0f} ms per 900 px step")
    assert len(tab.ids()) > first
    assert gaps[len(gaps) // 2] < 200
    page.keyboard.press("End")
    for _ in range(3):
        page.keyboard.press("j")
    assert page.locator(".card.current").count() == 1
    assert (tab.errors, tab.requests) == ([], [])
    tab.close()


def test_a_run_without_quotes_opens(browser, tmp_path):
    path = tmp_path / "empty.html"
    write_page(path, [])
    tab = Tab(browser, path)
    page = tab.open()
    assert page.is_visible("#empty") and page.text_content("#shown") == "showing 0 of 0"
    page.keyboard.press("j")
    page.keyboard.press("a")
    assert (tab.errors, tab.requests) == ([], [])
    tab.close()


def test_severity_badge_filter_codes_and_guide(browser, tmp_path):
    """A review's severity is a badge and a filter; a QDA segment's codes (or a quote's finding) show on its card;
    the page carries the guide the workbook and the README give; a hard line wrap is not coloured."""
    from quoteverify.export import guide
    from quoteverify.model.types import Difference

    wrap = Difference("normalization", "car at the end", "car at\nthe end")
    results = [QuoteResult("q1", "We lost fifty.", 2, status="review", severity="high", match_type="altered",
                           confidence=0.5, extra={"codes": "loss; staffing"}, finding="loss"),
               QuoteResult("q2", "I got to my car at the end", 3, status="review", severity="low", confidence=0.6,
                           matched_text="I got to my car at\nthe end", document="d", start=0, end=26,
                           differences=[wrap], finding="coping"),
               QuoteResult("q3", "Fine.", 4, status="verified", confidence=1.0)]
    path = tmp_path / "severity.html"
    write_page(path, results)
    page = Tab(browser, path).open()
    assert page.locator('.card[data-quote-id="q1"] .badge.sev-high').text_content() == "high"
    assert page.locator('.card[data-quote-id="q1"] .codes').text_content() == "codes loss; staffing"
    assert page.locator('.card[data-quote-id="q2"] .codes').text_content() == "finding coping"
    assert page.locator('.card[data-quote-id="q2"] .hl-b').count() == 0
    page.select_option("#f-severity", "low")
    assert [c.get_attribute("data-quote-id") for c in page.locator(".card").all()] == ["q2"]
    assert page.text_content('[data-severity-count="high"]') == "1"
    text = page.locator("#guide").text_content()
    assert all(m in text for m in [*guide.STATUS_MEANING.values(), *guide.SEVERITY_MEANING.values(),
                                   *(m for ms in guide.DECISION_MEANING.values() for m in ms.values())])


def test_a_quote_said_in_several_places_shows_them(browser, tmp_path):
    results = [QuoteResult("q1", "took an oath", 2, claimed_document="hearing", document="hearing", start=70,
                           end=82, matched_text="took an oath", line=2, occurrences=3, other_lines=[1, 3],
                           speaker="CHAIRMAN", speaker_occurrences=1, claimed_speaker="Chairman",
                           status="verified", match_type="exact", confidence=1.0, band="high"),
               QuoteResult("q2", "The witness is sworn.", 3, document="hearing", start=150, end=171, line=4,
                           matched_text="The witness is sworn.", occurrences=1, status="verified",
                           match_type="exact", confidence=1.0, band="high")]
    path = tmp_path / "places.html"
    write_page(path, results)
    tab = Tab(browser, path)
    page = tab.open()
    meta = page.locator('.card[data-quote-id="q1"] .meta').text_content()
    assert "place 1 of 3 (1 in Chairman's turns)" in meta and "also at lines 1, 3" in meta
    only = page.locator('.card[data-quote-id="q2"] .meta').text_content()
    assert "place" not in only and "also at" not in only
    assert (tab.errors, tab.requests) == ([], [])
    tab.close()
