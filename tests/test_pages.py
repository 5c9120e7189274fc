"""Pages and page furniture (quoteverify.sources.pages): found by structure, never by a list of headers; what is
furniture is left out of matching; every located result names its page."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from conftest import NO_EMBED
from hypothesis import given, settings
from hypothesis import strategies as st
from paged_documents import body_lines, book_page, laid_out, line, pdf

import quoteverify
from quoteverify.model.types import Document
from quoteverify.plumbing.cache import Cache
from quoteverify.sources.corpus import normalize_pages, prepare_document
from quoteverify.sources.formats import extract
from quoteverify.sources.normalize import normalize
from quoteverify.sources.pages import FURNITURE, JOIN, MARKER, NOTE, Pages, page_structure
from quoteverify.sources.tokenize import word_tokens


def spans_of(pages: Pages, text: str, kind: int) -> list[str]:
    return [text[a:b] for (a, b), k in zip(pages.spans.tolist(), pages.kinds.tolist()) if k == kind]


LINES = body_lines()


def _verso_recto(n: int) -> list[str]:
    return [f"{n} SLAVE NARRATIVES"] if n % 2 == 0 else [f"ALABAMA NARRATIVES {n}"]


# Each layout: the laid-out text, how its pages are named (prefix, first number) and whether that is the
# number printed on them (else their position in the file).
LAYOUTS = {
    "header on every page, form feeds": (
        laid_out(LINES, per_page=20, separator="\f", header=lambda n: ["ANNUAL REPORT OF THE COMMISSION"],
                 footer=lambda n: [f"- {n} -"]), "", 1, True),
    "alternating left and right headers, as extracted (no page breaks)": (
        laid_out(LINES, per_page=26, header=_verso_recto, first=44), "", 44, True),
    "a title line beside a page number line": (
        laid_out(LINES, per_page=24, header=lambda n: [f"{n}", "CONGRESSIONAL RECORD — SENATE"], first=5563),
        "", 5563, True),
    "footers only": (laid_out(LINES, per_page=22, footer=lambda n: [f"Page {n}"]), "", 1, True),
    "pages that each begin with a real sentence, form feeds, no furniture": (
        laid_out(LINES, per_page=21, separator="\f"), "", 1, False),
    "page markers": (
        laid_out(LINES, per_page=25, header=lambda n: [f"[[Page S{n}]]"], first=5563), "S", 5563, True),
}


@pytest.mark.parametrize("name", LAYOUTS)
def test_pages_and_furniture_found_by_structure(name: str) -> None:
    layout, prefix, first, printed = LAYOUTS[name]
    pages = page_structure(layout.text)
    assert pages.names == tuple(f"{prefix}{first + k}" for k in range(len(layout.pages)))
    assert pages.printed.tolist() == [printed] * len(layout.pages)
    assert spans_of(pages, layout.text, FURNITURE) == layout.furniture
    # Every line of the body is the author's, the first line of every page too.
    assert not (set(spans_of(pages, layout.text, FURNITURE)) & {text for body in layout.pages for text in body})


def test_a_chapters_running_head_on_its_pages_only() -> None:
    """A running head that names the chapter recurs on that chapter's pages only, and never inside one."""
    lines = body_lines(6)
    layout = laid_out(lines, per_page=20, separator="\f",
                      header=lambda n: ["THE RIVER"] if 4 <= n <= 7 else ["THE HILLS"] if n >= 9 else [],
                      footer=lambda n: [f"{n}"])
    pages = page_structure(layout.text)
    assert spans_of(pages, layout.text, FURNITURE) == layout.furniture


def test_no_pages_no_furniture_in_a_transcript() -> None:
    text = "Interviewer: Where were you born?\n" + "\n".join(f"Maria: {text}" for text in LINES[:60])
    pages = page_structure(text)
    assert (pages.paged, len(pages.spans), pages.label(0, 10)) == (False, 0, ("", ""))


def test_a_line_recurring_inside_pages_is_no_header() -> None:
    """"Yeah." starts half the pages, and stands inside pages too: the author's. A bare speaker label is
    never furniture, however often it starts a page."""
    body = list(LINES[:120])
    for k in (0, 20, 60, 30, 75):
        body[k] = "Yeah."
    for k in (40, 80, 100):
        body[k] = "Interviewer:"
    layout = laid_out(body, per_page=20, separator="\f", footer=lambda n: [f"{n}"])
    pages = page_structure(layout.text)
    assert spans_of(pages, layout.text, FURNITURE) == layout.furniture


def test_page_labels_of_a_span() -> None:
    layout = LAYOUTS["alternating left and right headers, as extracted (no page breaks)"][0]
    pages = page_structure(layout.text)
    second = layout.text.index(layout.pages[1][0])
    assert pages.label(second + 5, second + 40) == ("45", "printed")
    assert pages.label(second - 60, second + 40) == ("44–45", "printed")
    plain = page_structure(LAYOUTS["pages that each begin with a real sentence, form feeds, no furniture"][0].text)
    assert plain.label(0, 10) == ("1", "position")


FIRST_PAGE = [
    "My father¹ worked the lower fields until the fever took him, and I heard2 the",
    "bell ring that morning. We kept an mp3 player later, and the mp3 files of the",
    "songs are with my daughter.",
] + LINES[:34] + [
    "¹ Henry Lee, born about 1850.",
    "2 The plantation bell, rung before daylight.",
]
FOOTNOTED = "\n".join(["12 SLAVE NARRATIVES"] + FIRST_PAGE + ["CHAPTER ONE 13"] + LINES[34:70]
                      + ["14 SLAVE NARRATIVES"] + LINES[70:106] + ["CHAPTER ONE 15"] + LINES[106:135])


def test_footnote_markers_and_notes_at_the_foot() -> None:
    pages = page_structure(FOOTNOTED)
    assert spans_of(pages, FOOTNOTED, MARKER) == ["¹", "2"]
    assert spans_of(pages, FOOTNOTED, NOTE) == FIRST_PAGE[-2:]
    words = word_tokens(normalize_pages(FOOTNOTED, pages).text).words
    assert words[:6] == ["my", "father", "worked", "the", "lower", "fields"]
    assert "heard" in words and "mp3" in words and "heard2" not in words


@pytest.mark.parametrize(("text", "words"), [
    ("the planta-\ntion bell rang", ["the", "plantation", "bell", "rang"]),
    ("a well-known man and a well-\nknown woman", ["a", "well", "known", "man", "and", "a", "well", "known", "woman"]),
    ("I was going to-\nwe went home and we went to town", ["i", "was", "going", "to", "we", "went", "home", "and",
                                                        "we", "went", "to", "town"]),
    ("in 2019-\n2020 it rained", ["in", "2019", "2020", "it", "rained"]),
    ("the Anglo-\nSaxon name", ["the", "anglo", "saxon", "name"]),
    ("the planta- \r\n  tion bell", ["the", "plantation", "bell"]),
])
def test_line_end_hyphens_in_a_text(text: str, words: list[str]) -> None:
    assert word_tokens(normalize_pages(text, page_structure(text)).text).words == words


def test_a_hyphen_at_a_page_break_joins_across_the_furniture() -> None:
    body = LINES[:60]
    body[19] = body[19] + " planta-"
    body[20] = "tion " + body[20]
    layout = laid_out(body, per_page=20, header=_verso_recto, first=44)
    pages = page_structure(layout.text)
    assert spans_of(pages, layout.text, FURNITURE) == layout.furniture
    assert spans_of(pages, layout.text, JOIN) == ["-\n", "\n"]
    assert "plantation" in word_tokens(normalize_pages(layout.text, pages).text).words


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab -\n.¹2", max_size=40), st.lists(st.tuples(st.integers(0, 40), st.integers(0, 6)),
                                                          max_size=4))
def test_skipping_keeps_offsets_into_the_original(text: str, cuts: list[tuple[int, int]]) -> None:
    """Against a slow reference: the text normalized without the skipped characters, each normalized
    character mapped to an original one outside them."""
    spans: list[list[int]] = []
    for start, length in sorted(cuts):
        start = min(start, len(text))
        if spans and start <= spans[-1][1]:
            continue
        spans.append([start, min(len(text), start + length)])
    pages = Pages(spans=np.asarray(spans, np.int64).reshape(-1, 2), kinds=np.zeros(len(spans), np.int8))
    norm = normalize_pages(text, pages)
    skipped = {k for a, b in spans for k in range(a, b)}
    assert norm.text == normalize("".join(c for k, c in enumerate(text) if k not in skipped)).text
    assert not skipped & set(norm.offsets.tolist())


def test_pages_round_trip_through_the_cache(tmp_path: Path) -> None:
    layout = LAYOUTS["alternating left and right headers, as extracted (no page breaks)"][0]
    document = Document("book", "", layout.text, "0" * 64)
    first = prepare_document(document, Cache(tmp_path))
    again = prepare_document(document, Cache(tmp_path))
    assert again.pages.names == first.pages.names
    assert np.array_equal(again.pages.spans, first.pages.spans)
    assert again.norm.text == first.norm.text and "narratives" not in again.tokens.words


# ------------------------------------------------------------------------------------------- verdicts

BOOK = LAYOUTS["alternating left and right headers, as extracted (no page breaks)"][0]


def _across(layout, page: int, before: int, after: int) -> str:
    """The last ``before`` words of a page's body and the first ``after`` of the next one's."""
    return " ".join(" ".join(layout.pages[page]).split()[-before:] + " ".join(layout.pages[page + 1]).split()[:after])


QUOTES = [
    ("across", _across(BOOK, 0, 9, 8)),
    ("header inside", _across(BOOK, 0, 9, 0) + " 45 ALABAMA NARRATIVES " + _across(BOOK, 1, 0, 8)),
    ("header opening", "ALABAMA NARRATIVES 45 " + _across(BOOK, 1, 0, 12)),
    ("line dropped", " ".join(" ".join(BOOK.pages[0][-3:-1]).split() + BOOK.pages[1][0].split()[:6])),
    ("word changed", " ".join(w if k != 10 else "nothing" for k, w in enumerate(_across(BOOK, 0, 9, 8).split()))),
]


def test_quotes_across_page_breaks() -> None:
    results = {q: r for (q, _), r in zip(QUOTES, quoteverify.verify({"book": BOOK.text},
                                                                   [t for _, t in QUOTES], NO_EMBED))}
    across = results["across"]
    assert (across.status, across.page, across.page_kind) == ("verified", "44–45", "printed")
    assert [(d.kind, d.source_text) for d in across.differences if d.kind == "page_break"] == [
        ("page_break", "ALABAMA NARRATIVES 45")]
    for name in ("header inside", "header opening", "line dropped", "word changed"):
        assert results[name].status != "verified", name


def test_a_footnote_marker_left_out_is_benign() -> None:
    text = FOOTNOTED
    quote = "My father worked the lower fields until the fever took him, and I heard the bell ring that morning."
    (result,) = quoteverify.verify({"volume": text}, [quote], NO_EMBED)
    assert (result.status, result.page, result.page_kind) == ("verified", "12", "printed")
    assert [(d.kind, d.source_text) for d in result.differences if d.kind == "footnote"] == [
        ("footnote", "¹"), ("footnote", "2")]
    (carried,) = quoteverify.verify({"volume": text}, ["My father¹ worked the lower fields"], NO_EMBED)
    assert carried.status == "review"


# ----------------------------------------------------------------------------------------------- PDFs

def _book_pdf(tmp_path: Path) -> tuple[Path, list[list[str]]]:
    """Four pages of a book printed 44-47, page 45 with a raised footnote marker and its note."""
    bodies = [LINES[k * 30:(k + 1) * 30] for k in range(4)]
    marked = {(3, len(bodies[1][3].split(" ")[0])): "2"}
    pages = [book_page(body, number=44 + k, title="SLAVE NARRATIVES" if k % 2 == 0 else "ALABAMA",
                       notes=["2 As she told it in 1937."] if k == 1 else [], marked=marked if k == 1 else None)
             for k, body in enumerate(bodies)]
    path = tmp_path / "narratives.pdf"
    path.write_bytes(pdf(pages))
    return path, bodies


def test_pdf_pages_furniture_and_markers_from_the_layout(tmp_path: Path) -> None:
    path, bodies = _book_pdf(tmp_path)
    extracted = extract(path, path.read_bytes())
    text = extracted.text
    assert [(p.label, len(p.lines)) for p in extracted.layout] == [("", 31), ("", 32), ("", 31), ("", 31)]
    assert [text[a:b] for page in extracted.layout for a, b in page.raised] == ["2"]
    pages = page_structure(text, extracted.layout)
    assert pages.names == ("44", "45", "46", "47")
    assert spans_of(pages, text, FURNITURE) == ["44 SLAVE NARRATIVES", "ALABAMA 45", "46 SLAVE NARRATIVES",
                                                 "ALABAMA 47"]
    assert (spans_of(pages, text, MARKER), spans_of(pages, text, NOTE)) == (["2"], ["2 As she told it in 1937."])
    quote = " ".join(" ".join(bodies[1][2:5]).split()[3:20])
    assert "2" not in quote
    (result,) = quoteverify.verify([path], [quote], NO_EMBED)
    assert (result.status, result.page, result.page_kind) == ("verified", "45", "printed")
    assert [d.kind for d in result.differences if d.kind in ("footnote", "page_break")] == ["footnote"]


def test_pdf_page_labels_name_pages_that_print_no_number(tmp_path: Path) -> None:
    pages = [[line(72, 720 - 14 * k, text) for k, text in enumerate(LINES[n * 20:(n + 1) * 20])] for n in range(3)]
    path = tmp_path / "labelled.pdf"
    path.write_bytes(pdf(pages, first_label=7))
    extracted = extract(path, path.read_bytes())
    structure = page_structure(extracted.text, extracted.layout)
    assert (structure.names, structure.printed.tolist()) == (("7", "8", "9"), [True, True, True])


def test_pdf_columns_read_across_are_reported(tmp_path: Path) -> None:
    left, right = LINES[:30], LINES[30:60]
    page = [item for k in range(30) for item in (line(50, 720 - 14 * k, left[k][:40], 9),
                                                 line(330, 720 - 14 * k, right[k][:40], 9))]
    path = tmp_path / "two-columns.pdf"
    path.write_bytes(pdf([page, page]))
    loaded = quoteverify.sources.documents.load_documents([path])
    assert loaded.warnings == (f"{path}: the lines of two columns are read across on pages 1–2 (in the file) "
                               "(the PDF reader joins columns set side by side line by line); quotes there may "
                               "not be found as written: check them against the PDF",)


def test_page_in_every_output(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from quoteverify.cli import main

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "book.txt").write_text(BOOK.text, encoding="utf-8")
    (tmp_path / "quotes.csv").write_text("quote\n" + json.dumps(QUOTES[0][1]) + "\n", encoding="utf-8")
    outputs = ["r.jsonl", "r.csv", "r.xlsx", "r.html"]
    args = ["verify", str(tmp_path / "docs"), str(tmp_path / "quotes.csv"), "--no-embed", "--no-cache"]
    for name in outputs:
        args += ["-o", str(tmp_path / name)]
    runner = CliRunner()
    result = runner.invoke(main, args)
    assert result.exit_code == 0, result.output
    row = json.loads((tmp_path / "r.jsonl").read_text(encoding="utf-8"))
    assert (row["page"], row["page_kind"]) == ("44–45", "printed")
    assert ",44–45,printed," in (tmp_path / "r.csv").read_text(encoding="utf-8")
    from openpyxl import load_workbook

    sheet = load_workbook(tmp_path / "r.xlsx")["Quotes"]
    header = [c.value for c in sheet[1]]
    assert sheet.cell(2, header.index("page") + 1).value == "44–45"
    assert '"page":"44–45","page_kind":"printed"' in (tmp_path / "r.html").read_text(encoding="utf-8")


@pytest.mark.parametrize(("source", "quote", "status", "kinds"), [
    # joined before matching: "planta" and "tion" are no words of the document
    ("The planta-\ntion bell rang before daylight.", "The plantation bell rang before daylight.", "verified",
     ["normalization"]),
    # both halves are words of the document, so the split stays; the hyphen at the line end still marks it
    ("To be fair, the cause was clear. It was be-\ncause of the river that we left.",
     "It was because of the river that we left.", "verified", ["normalization"]),
    # a hyphen that is not at a line end marks no split word: a hyphen for a person to judge
    ("To be fair, the cause was clear. It was be- cause of the river that we left.",
     "It was because of the river that we left.", "review", ["hyphenation"]),
])
def test_words_split_at_a_line_end(source: str, quote: str, status: str, kinds: list[str]) -> None:
    (result,) = quoteverify.verify({"text": source}, [quote], NO_EMBED)
    assert (result.status, [d.kind for d in result.differences]) == (status, kinds)


def test_pdf_footnotes_in_the_middle_of_the_text_are_reported_and_skipped(tmp_path: Path) -> None:
    """A PDF that draws its footnote before the last lines of its page: the reader gives it in the middle of
    the page's text. Its size still sets it apart: left out of matching, and the run says where."""
    body = LINES[:30]
    page = book_page(body, number=12, title="SLAVE NARRATIVES", notes=["1 Born about 1850."],
                     marked={(14, len(body[14])): "1"})
    note = page.pop()  # drawn after line 14 of the body, before the rest
    page.insert(2 + 15, note)
    path = tmp_path / "notes.pdf"
    path.write_bytes(pdf([page, book_page(LINES[30:60], number=13, title="ALABAMA"),
                          book_page(LINES[60:90], number=14, title="SLAVE NARRATIVES")]))
    loaded = quoteverify.sources.documents.load_documents([path])
    assert loaded.warnings == (f"{path}: footnotes come in the middle of the text on page 1 (in the file) as the "
                               "PDF reader gives it; they are left out of matching where their size sets them "
                               "apart, but check quotes there",)
    quote = " ".join(" ".join(body[14:16]).split())
    (result,) = quoteverify.verify(loaded, [quote], NO_EMBED)
    assert (result.status, result.page) == ("verified", "12")
    assert [(d.kind, d.source_text) for d in result.differences if d.kind == "footnote"] == [
        ("footnote", "1\n1 Born about 1850.")]
