"""Line-numbered transcripts (quoteverify.sources.lined): a Supreme Court argument, a deposition with a cover, an
index and a certificate, and a hearing with THE CHAIRMAN, written in three reporters' styles
(tests/lined_documents.py). Their layout is read by structure, never as words of the text; speakers are read
from the labels of the record; every located quote is cited by page:line."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import NO_EMBED
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from lined_documents import (
    ARGUMENT,
    DEPOSITION,
    DEPOSITION_TURNS,
    HEARING,
    HEARING_TURNS,
    SUPREME_COURT,
    Style,
    Transcript,
    Turn,
    blank,
    drawn_pages,
    page,
    render,
)
from paged_documents import line, pdf

import quoteverify
from quoteverify.app.repeat import write_manifest
from quoteverify.export import write_results
from quoteverify.export.appendix import render_appendix
from quoteverify.model.types import QuoteResult
from quoteverify.plumbing.manifest import Manifest
from quoteverify.sources.lined import read_lined
from quoteverify.sources.pages import FURNITURE, LINE_NUMBER, Pages, page_structure
from quoteverify.sources.turns import same_speaker, speaker_key

SC = render(ARGUMENT, SUPREME_COURT)
DEPO = render(DEPOSITION_TURNS, DEPOSITION)
HEARD = render(HEARING_TURNS, HEARING)
DOCUMENTS = {"argument": (SC, ARGUMENT), "deposition": (DEPO, DEPOSITION_TURNS), "hearing": (HEARD, HEARING_TURNS)}


def _said(turns: list[Turn]) -> list[str]:
    """The words of the proceedings as a reader reads them: every label and turn from the first turn to the page
    after the last (the reporter's parentheticals among them), without headings."""
    first = next(k for k, t in enumerate(turns) if t.kind == "turn")
    last = max(k for k, t in enumerate(turns) if t.kind == "turn")
    end = next((k for k in range(last, len(turns)) if turns[k].kind == "page"), len(turns))
    words: list[str] = []
    for turn in turns[first:end]:
        if turn.kind == "turn":
            words += f"{turn.label} {turn.text}".split()
        elif turn.kind == "cover":
            words += turn.text.split()
    return words


@pytest.mark.parametrize(("name", "names", "people"), [
    ("argument", ("1", "2", "3", "4", "5", "6", "7"), ()),
    ("deposition", ("1", "2", "3", "4", "5", "6"),
     ((0, "witness", "RAYMOND T. KOWALSKI"), (1429, "witness", "RAYMOND T. KOWALSKI"), (1595, "examiner", "MR. LUND"),
      (2551, "examiner", "MR. LUND"), (3273, "examiner", "MS. ABARA"))),
    ("hearing", ("1", "2", "3"), ((0, "witness", "DR. ALICE GREEN"),)),
])
def test_the_layout_is_read_by_structure_and_only_the_proceedings_are_words(
        name: str, names: tuple[str, ...], people: tuple) -> None:
    doc, turns = DOCUMENTS[name]
    pages = page_structure(doc.text)
    assert (pages.lined, pages.names, pages.printed.all(), pages.people, pages.partly) == (
        True, names, True, people, ())
    numbers = [doc.text[a:b] for (a, b), kind in zip(pages.spans.tolist(), pages.kinds.tolist()) if kind == LINE_NUMBER]
    lines = 28 if name == "deposition" else 25
    assert numbers == [str(n) for n in range(1, lines + 1)] * len(names)
    # Cover, appearances, index, page numbers, footers, headings, BY lines, the swearing, the certificate: none
    # of it is a word of the text.
    kept = pages.masked(doc.text, "\x00", kinds=(FURNITURE, LINE_NUMBER)).replace("\x00", "")
    assert kept.split() == _said(turns)


def test_line_numbers_of_a_page_are_cited_with_the_page_the_reporter_prints() -> None:
    pages = page_structure(SC.text)
    first, last = SC.of_turn(ARGUMENT.index(next(t for t in ARGUMENT if t.label == "MS. MARSH:")))[::30][:2]
    assert pages.cite(*SC.span(first, first)) == SC.cite(first, first)
    assert pages.cite(SC.words[first].start, SC.words[last].end) == SC.cite(first, last)
    assert re.fullmatch(r"3:\d+(-\d+)?", SC.cite(first, last))
    assert page_structure("no transcript here\n").cite(0, 5) == ""


def _sentences(doc: Transcript, turn: int) -> list[tuple[int, int]]:
    """The (first, last) words of each sentence of a turn."""
    found, start = [], None
    for k in doc.of_turn(turn):
        start = k if start is None else start
        word = doc.text[doc.words[k].start:doc.words[k].end]
        if word[-1] in ".?!" and word not in ("Mr.", "Ms.", "Dr."):
            found.append((start, k))
            start = None
    return found


def _across(doc: Transcript, turns: list[Turn], label: str, where: str) -> tuple[int, int]:
    """A sentence of a turn of ``label`` within one line, over a line break within a page, or over a page."""
    for turn, t in enumerate(turns):
        if t.kind != "turn" or t.label != label:
            continue
        for first, last in _sentences(doc, turn):
            a, b = doc.words[first], doc.words[last]
            kind = "line" if (a.page, a.line) == (b.page, b.line) else "lines" if a.page == b.page else "page"
            if kind == where and last - first >= 3:
                return first, last
    raise LookupError(f"no sentence of {label} {where}")


# (document, the label of the turn quoted, where the sentence stands, the speaker claimed, the speaker found)
HONEST = [
    ("argument", "MS. MARSH:", "lines", "Ms. Marsh", "MS. MARSH"),
    ("argument", "MS. MARSH:", "page", "Marsh", "MS. MARSH"),
    ("argument", "JUSTICE KAGAN:", "page", "", "JUSTICE KAGAN"),
    ("argument", "JUSTICE KAGAN:", "lines", "Justice Kagan", "JUSTICE KAGAN"),
    ("argument", "JUSTICE SOTOMAYOR:", "lines", "Sotomayor", "JUSTICE SOTOMAYOR"),
    ("argument", "MR. OKAFOR:", "line", "Mr. Okafor", "MR. OKAFOR"),
    ("argument", "CHIEF JUSTICE ROBERTS:", "lines", "Chief Justice Roberts", "CHIEF JUSTICE ROBERTS"),
    ("deposition", "A.", "lines", "the witness", "A (RAYMOND T. KOWALSKI)"),
    ("deposition", "A.", "page", "Kowalski", "A (RAYMOND T. KOWALSKI)"),
    ("deposition", "A.", "line", "A.", "A (RAYMOND T. KOWALSKI)"),
    ("deposition", "Q.", "line", "Mr. Lund", "Q (MR. LUND)"),
    ("deposition", "THE WITNESS:", "lines", "Mr. Kowalski", "THE WITNESS (RAYMOND T. KOWALSKI)"),
    ("hearing", "THE WITNESS:", "lines", "Dr. Green", "THE WITNESS (DR. ALICE GREEN)"),
    ("hearing", "THE CHAIRMAN:", "page", "Chairman White", "THE CHAIRMAN (CHAIRMAN WHITE)"),
    ("hearing", "THE CHAIRMAN:", "line", "the Chairman", "THE CHAIRMAN (CHAIRMAN WHITE)"),
    ("hearing", "SENATOR ORTEGA:", "lines", "Senator Ortega", "SENATOR ORTEGA"),
]


def _check(quotes: list[dict]) -> list[QuoteResult]:
    texts = {name: doc.text for name, (doc, _) in DOCUMENTS.items()}
    return quoteverify.verify(texts, quotes, NO_EMBED)


def test_honest_quotes_are_verified_at_their_place_with_their_speaker_and_citation() -> None:
    cases = []
    for name, label, where, claimed, _ in HONEST:
        doc, turns = DOCUMENTS[name]
        first, last = _across(doc, turns, label, where)
        cases.append((name, doc, first, last, claimed))
    results = _check([{"quote": doc.quote(a, b), "document": name, "speaker": claimed}
                      for name, doc, a, b, claimed in cases])
    got = [(r.status, r.document, (r.start, r.end), r.cite, r.speaker) for r in results]
    assert got == [("verified", name, doc.span(a, b), doc.cite(a, b), speaker)
                   for (name, doc, a, b, _), (*_, speaker) in zip(cases, HONEST)]
    assert results[1].page == f"{doc_page(SC, cases[1][2])}–{doc_page(SC, cases[1][3])}"
    # The line breaks are named as a hard-wrapped transcript's are, the page's furniture as a page break.
    assert [d.kind for d in results[1].differences] == ["normalization", "page_break"]


def doc_page(doc: Transcript, word: int) -> int:
    return doc.words[word].page


def _inside(doc: Transcript, first: int, last: int, put: str) -> str:
    """The words first..last with ``put`` between the two words a line (or page) break falls between."""
    for k in range(first, last):
        a, b = doc.words[k], doc.words[k + 1]
        if (a.page, a.line) != (b.page, b.line):
            return f"{doc.quote(first, k)} {put} {doc.quote(k + 1, last)}"
    raise LookupError("no break")


def test_a_number_or_footer_carried_into_a_quote_is_a_change() -> None:
    a, b = _across(SC, ARGUMENT, "MS. MARSH:", "lines")
    c, d = _across(SC, ARGUMENT, "MS. MARSH:", "page")
    next_line = str(next(SC.words[k + 1].line for k in range(a, b) if SC.words[k].line != SC.words[k + 1].line))
    quotes = [_inside(SC, a, b, next_line), _inside(SC, c, d, str(SC.words[d].page)),
              _inside(SC, c, d, "Alderson Reporting Company"), _inside(SC, c, d, "Official - Subject to Final Review")]
    results = _check([{"quote": q, "document": "argument", "speaker": "Ms. Marsh"} for q in quotes])
    assert [r.status for r in results] == ["review"] * 4
    assert results[0].reasons[0] == f"number differs: quote says '{next_line}', source says nothing"
    assert [r.cite for r in results] == [SC.cite(a, b)] + [SC.cite(c, d)] * 3


def test_who_says_it_in_a_deposition() -> None:
    asked = next(k for k, t in enumerate(DEPOSITION_TURNS) if t.text.startswith("Did anyone ever tell you"))
    question, answer = DEPO.of_turn(asked), DEPO.of_turn(asked + 2)  # the objection stands between
    ask = DEPO.quote(question[0], question[-1])
    joined = f"{DEPO.quote(question[-4], question[-1])} ... {DEPO.quote(answer[0], answer[4])}"
    cross = next(k for k, t in enumerate(DEPOSITION_TURNS) if t.text.startswith("Mr. Kowalski, you never"))
    words = DEPO.of_turn(cross)
    results = _check([
        {"quote": ask, "document": "deposition", "speaker": "the witness"},  # the question as the answer
        {"quote": joined, "document": "deposition", "speaker": "Kowalski"},  # an ellipsis over Q. to A.
        {"quote": DEPO.quote(words[0], words[-1]), "document": "deposition", "speaker": "Ms. Abara"},
        {"quote": DEPO.quote(words[0], words[-1]), "document": "deposition", "speaker": "Mr. Lund"},
    ])
    assert [(r.status, r.speaker) for r in results] == [
        ("review", "Q (MR. LUND)"), ("review", "Q (MR. LUND)"), ("verified", "Q (MS. ABARA)"),
        ("review", "Q (MS. ABARA)")]
    assert results[0].reasons[0] == "said by Q (MR. LUND), not by claimed the witness"
    assert "the ellipsis joins Q (MR. LUND)'s words to THE WITNESS (RAYMOND T. KOWALSKI)'s" in results[1].reasons


@pytest.mark.parametrize("quote", [
    "VIDEOTAPED DEPOSITION OF RAYMOND T. KOWALSKI",  # the cover
    "On behalf of the Defendant: SUSAN ABARA, ESQ.",  # the appearances
    "do hereby certify that the witness was duly sworn",  # the certificate
    "having been first duly sworn, was examined and testified as follows",  # the swearing
])
def test_cover_index_and_certificate_are_no_words_of_the_text(quote: str) -> None:
    (result,) = _check([{"quote": quote, "document": "deposition"}])
    assert (result.status, result.cite) == ("unverified", "")


def test_a_transcript_read_in_part_is_named_in_one_warning() -> None:
    unnamed = render([Turn("Q.", "Where were you that night, sir?"), Turn("A.", "At home with my family."),
                      *[Turn("Q." if k % 2 else "A.", f"Answer number {k} of the long record.") for k in range(60)]],
                     Style(lines=25, footer=()))
    second = [m.start() for m in re.finditer(r"\n17(?=[ \n])", unnamed.text)][1]
    skipped = f"{unnamed.text[:second]}\n18{unnamed.text[second + 3:]}"  # page 2 numbers 16, 18, 18, 19, ...
    run = quoteverify.run({"record": skipped, "plain": "Q: hello there\nA: hi\n"},
                          ["At home with my family."], NO_EMBED)
    assert run.results[0].speaker == "A"
    partly = [w for w in run.warnings if "read only in part" in w]
    assert partly == ["line-numbered transcript read only in part: record (line numbers out of sequence on page 2, "
                      "no witness named for its A. turns (by the cover, a heading or the swearing), Q. turns before "
                      "any BY line name no examiner); citations and speakers there may be off: check them against "
                      "the transcript (docs/pages.md)"]
    assert run.layouts == {"record": "lined", "plain": "unpaged"}


@pytest.mark.parametrize("text", [
    "".join(f"{k}\n00:00:{k:02d},000 --> 00:00:{k + 1:02d},000\nLine {k} of the film.\n\n" for k in range(1, 80)),
    "".join(f"{k} step {k} of the recipe\n" for k in range(1, 30)),  # one numbered list: no pages
    # Paragraphs numbered from 1 in each section: the sections are not as long as each other, as pages are.
    "".join(f"{k} Paragraph {k} of section {n}, on its own line.\n" for n, size in enumerate((12, 15, 9, 14, 11))
            for k in range(1, size + 1)),
    "Interviewer: 1 question.\nP1: 2 answers, 3 ideas.\n" * 40,
])
def test_texts_that_only_look_numbered_are_not_transcripts(text: str) -> None:
    assert read_lined(text) is None
    assert not page_structure(text).lined


def test_a_transcript_as_a_pdf_is_read_the_same(tmp_path: Path) -> None:
    # pypdf's text keeps no indent and sets each page's number alone on a line at the margin, where line
    # numbers stand: "2", "1 C O N T E N T S", ...
    path = tmp_path / "argument.pdf"
    path.write_bytes(pdf([[line(x, y, words) for x, y, words in drawn] for drawn in drawn_pages(SC, SUPREME_COURT)]))
    first, last = _across(SC, ARGUMENT, "MS. MARSH:", "page")
    heading = "ORAL ARGUMENT OF DAVID OKAFOR, ESQ. ON BEHALF OF THE RESPONDENT"
    run = quoteverify.run([path], [{"quote": SC.quote(first, last), "speaker": "Ms. Marsh"}, heading], NO_EMBED)
    found, furniture = run.results
    assert (found.status, found.cite, found.speaker) == ("verified", SC.cite(first, last), "MS. MARSH")
    assert furniture.status == "unverified"  # a heading between turns, though the PDF's text drops its indent
    assert run.layouts == {"argument": "lined"} and not [w for w in run.warnings if "in part" in w]


def test_pages_of_a_transcript_survive_the_cache() -> None:
    pages = page_structure(DEPO.text)
    again = Pages.from_arrays(pages.arrays())
    assert (again.lines.tolist(), again.people, again.partly, again.opens.tolist(), again.names) == (
        pages.lines.tolist(), pages.people, pages.partly, pages.opens.tolist(), pages.names)
    assert again.record == pages.record


@pytest.mark.parametrize(("claimed", "found", "same"), [
    ("A.", "A (JOHN M. POINDEXTER)", True),
    ("the witness", "A (JOHN M. POINDEXTER)", True),
    ("Poindexter", "A (JOHN M. POINDEXTER)", True),
    ("Mr. Poindexter", "THE WITNESS (JOHN M. POINDEXTER)", True),
    ("John Poindexter", "A (JOHN M. POINDEXTER)", True),
    ("Mr. Liman", "A (JOHN M. POINDEXTER)", False),
    ("Q", "A (JOHN M. POINDEXTER)", False),
    ("Q.", "Q (MR. LIMAN)", True),
    ("Liman", "Q (MR. LIMAN)", True),
    ("the witness", "Q (MR. LIMAN)", False),
    ("Fortas", "JUSTICE FORTAS", True),
    ("Rehnquist", "CHIEF JUSTICE REHNQUIST", True),
    ("Justice Rehnquist", "CHIEF JUSTICE REHNQUIST", True),
    ("Justice White", "CHIEF JUSTICE REHNQUIST", False),
    ("Hamilton", "THE CHAIRMAN (CHAIRMAN HAMILTON)", True),
    ("Mr. Smith", "Mrs. SMITH", False),
])
def test_a_speaker_of_the_record_is_named_by_role_or_surname(claimed: str, found: str, same: bool) -> None:
    assert same_speaker(claimed, found) is same


def test_a_person_of_the_record_is_one_speaker_whatever_the_role() -> None:
    assert speaker_key("A (JOHN M. POINDEXTER)") == speaker_key("THE WITNESS (JOHN M. POINDEXTER)") == "johnmpoindexter"
    assert speaker_key("Q (MR. LIMAN)") == speaker_key("MR. LIMAN")


def test_outputs_cite_page_and_line_and_the_manifest_counts_layouts(tmp_path: Path) -> None:
    first, last = _across(SC, ARGUMENT, "MS. MARSH:", "page")
    quote = SC.quote(first, last)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "argument.txt").write_text(SC.text, encoding="utf-8")
    (tmp_path / "docs" / "notes.txt").write_text("Interviewer: hello\nP1: a plain transcript\n", encoding="utf-8")
    run = quoteverify.run(tmp_path / "docs", [quote], NO_EMBED)
    cite = SC.cite(first, last)
    assert run.results[0].cite == cite
    for suffix in (".jsonl", ".csv", ".html", ".xlsx"):
        write_results(tmp_path / f"results{suffix}", run.results, run=run)
    assert json.loads((tmp_path / "results.jsonl").read_text("utf-8"))["cite"] == cite
    assert f",{cite}," in (tmp_path / "results.csv").read_text("utf-8")
    assert f'"cite":"{cite}"' in (tmp_path / "results.html").read_text("utf-8").replace(" ", "")
    from openpyxl import load_workbook

    sheet = load_workbook(tmp_path / "results.xlsx")["Quotes"]
    header = [c.value for c in next(sheet.iter_rows(max_row=1))]
    assert sheet.cell(2, header.index("cite") + 1).value == cite
    manifest = write_manifest(tmp_path / "run.json", run)
    assert json.loads((tmp_path / "run.json").read_text("utf-8"))["layouts"] == {"lined": 1, "paged": 0, "unpaged": 1}
    appendix = render_appendix(run.results, Manifest.from_dict(manifest.to_dict()))
    assert f"{cite} (page:line)" in appendix
    assert "Line-numbered transcripts (1 of the 2 sources) were read by their layout" in appendix


# ----------------------------------------------------------------------------------------------- properties

_WORDS = ("river", "meter", "board", "county", "water", "road", "bridge", "school", "record", "permit", "engineer",
          "station", "budget", "winter", "grant", "farm", "truck", "yard", "office", "letter", "report", "hearing",
          "township", "company", "resident", "franchise", "pipe", "valve", "tank", "pump")
_VERBS = ("reviewed", "signed", "measured", "repaired", "inspected", "described", "approved", "recorded", "moved")


@st.composite
def _transcripts(draw: st.DrawFn) -> tuple[Transcript, Style]:
    """A transcript of plain sentences (no word that may turn a cut sentence) in a drawn reporter's style."""
    style = Style(lines=draw(st.sampled_from([25, 26, 28])), width=draw(st.integers(44, 66)),
                  left=draw(st.booleans()), gap=draw(st.sampled_from([" ", "  ", "   ", "\t"])),
                  opening=draw(st.integers(4, 12)), qa_opening=draw(st.integers(2, 6)),
                  folio=draw(st.sampled_from(["head", "foot"])),
                  folio_format=draw(st.sampled_from(["{n}", "Page {n}", "- {n} -"])),
                  footer=draw(st.sampled_from([(), ("Alderson Reporting Company",),
                                               ("ACME REPORTING  (800) 555-0199", "www.acme-reporting.example")])),
                  blank=draw(st.booleans()), first_page=draw(st.integers(1, 400)))
    rng = draw(st.randoms(use_true_random=False))
    turns: list[Turn] = []
    sentences = 0
    for k in range(draw(st.integers(16, 30))):
        said = []
        for _ in range(rng.randint(1, 5)):
            words = [rng.choice(_WORDS) for _ in range(rng.randint(5, 14))]
            words.insert(rng.randint(1, len(words) - 1), rng.choice(_VERBS))
            said.append(f"The {' '.join(words)} {sentences}.")
            sentences += 1
        turns.append(Turn(["MR. ABLE:", "MS. BAKER:", "JUSTICE CRANE:"][k % 3], " ".join(said)))
        if rng.random() < 0.05:
            turns.append(page())
        if rng.random() < 0.15:  # a blank numbered line, at times a page's first
            turns.append(blank())
    return render(turns, style), style


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(_transcripts(), st.data())
def test_honest_spans_across_any_line_or_page_break_verify(drawn: tuple[Transcript, Style], data: st.DataObject
                                                           ) -> None:
    doc, _ = drawn
    sentences = [s for turn in sorted({w.turn for w in doc.words}) for s in _sentences(doc, turn)]
    broken = [(a, b) for a, b in sentences
              if (doc.words[a].page, doc.words[a].line) != (doc.words[b].page, doc.words[b].line)]
    assume(broken)  # a transcript whose every sentence stands on one line has none to quote across a break
    chosen = data.draw(st.lists(st.sampled_from(broken), min_size=1, max_size=8, unique=True))
    results = quoteverify.verify({"record": doc.text}, [doc.quote(a, b) for a, b in chosen], NO_EMBED)
    assert [(r.status, r.start, r.end, r.cite) for r in results] == [
        ("verified", *doc.span(a, b), doc.cite(a, b)) for a, b in chosen]
