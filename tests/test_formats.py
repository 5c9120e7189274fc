"""Documents in other formats: .docx, .vtt, .srt and .pdf, extracted text, cues, offsets."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import docx
import pytest
from conftest import NO_EMBED, span_of
from paged_documents import line, pdf

import quoteverify
from quoteverify.model.errors import InputError
from quoteverify.model.types import Turn
from quoteverify.sources.documents import load_documents
from quoteverify.sources.formats import Extracted, dehyphenate, extract
from quoteverify.sources.normalize import normalize


def write_docx(path: Path, paragraphs: list[str], table: list[list[str]] | None = None) -> Path:
    document = docx.Document()
    for text in paragraphs:
        document.add_paragraph(text)
    if table:
        grid = document.add_table(rows=len(table), cols=len(table[0]))
        for r, row in enumerate(table):
            for c, value in enumerate(row):
                grid.cell(r, c).text = value
    document.save(path)
    return path


def pdf_bytes(pages: list[list[str]]) -> bytes:
    """A minimal PDF: each string one line of Helvetica, pages in order."""
    return pdf([[line(72, 760 - 14 * k, text) for k, text in enumerate(lines)] for lines in pages])


def check(result, text: str, quote: str) -> None:
    """The result's span is a slice of the extracted text, and that slice is the quote, up to normalization."""
    assert result.matched_text == text[result.start:result.end]
    assert normalize(text[result.start:result.end]).text == normalize(quote).text


# ---------------------------------------------------------------------------------------------- .docx

def test_docx_paragraphs_joined_with_newlines(tmp_path: Path) -> None:
    path = write_docx(tmp_path / "interview-07.docx",
                      ["Interviewer: How did the first year go?",
                       "Maria: It was harder than we expected. We lost 15 volunteers in the first month.",
                       "",
                       "Interviewer: Why?"],
                      table=[["Maria", "The committee did not approve the budget."], ["James", "Nor did the board."]])
    (doc,) = load_documents([path]).documents
    assert doc.text == ("Interviewer: How did the first year go?\n"
                        "Maria: It was harder than we expected. We lost 15 volunteers in the first month.\n"
                        "\n"
                        "Interviewer: Why?\n"
                        "Maria\tThe committee did not approve the budget.\n"
                        "James\tNor did the board.")
    assert (doc.doc_id, doc.encoding, doc.cues) == ("interview-07", "docx", ())

    quote = "We lost 15 volunteers in the first month."
    found, table = quoteverify.verify([path], [{"quote": quote, "speaker": "Maria"},
                                               "The committee did not approve the budget."], NO_EMBED)
    assert (found.status, found.document, (found.start, found.end)) == ("verified", "interview-07",
                                                                        span_of(doc.text, quote))
    assert (found.speaker, found.line) == ("Maria", 2)
    check(found, doc.text, quote)
    assert (table.status, table.speaker, table.line) == ("verified", "Maria", 5)  # a row: speaker, tab, words


def test_docx_line_break_inside_a_paragraph(tmp_path: Path) -> None:
    document = docx.Document()
    run = document.add_paragraph().add_run("Maria: first line")
    run.add_break()
    run.add_text("second line")
    document.save(tmp_path / "a.docx")
    assert extract(tmp_path / "a.docx", (tmp_path / "a.docx").read_bytes()).text == \
        "Maria: first line\nsecond line"


def test_docx_tracked_changes_are_a_warning(tmp_path: Path) -> None:
    from docx.oxml import parse_xml

    document = docx.Document()
    paragraph = document.add_paragraph("Maria: We lost ")
    paragraph._p.append(parse_xml('<w:ins xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" '
                                  'w:id="1" w:author="R"><w:r><w:t>15 </w:t></w:r></w:ins>'))
    paragraph.add_run("volunteers.")
    document.save(tmp_path / "edited.docx")
    loaded = load_documents([tmp_path / "edited.docx"])
    assert loaded.documents[0].text == "Maria: We lost volunteers."
    assert loaded.warnings == (f"{tmp_path / 'edited.docx'}: has tracked changes, and text inserted with changes "
                               "tracked is not read; accept or reject the changes in Word and save it again",)


def test_damaged_docx(tmp_path: Path) -> None:
    path = tmp_path / "broken.docx"
    path.write_bytes(b"PK\x03\x04 not really a zip")
    with pytest.raises(InputError, match=r"^.*broken\.docx: not a readable \.docx file \(.*\); "
                                         r"re-save it from Word as \.docx$"):
        load_documents([path])


def test_word_lock_files_in_a_folder_are_left_out(tmp_path: Path) -> None:
    write_docx(tmp_path / "interview-07.docx", ["Maria: Hello."])
    (tmp_path / "~$terview-07.docx").write_bytes(b"\x00lock")
    assert [d.doc_id for d in load_documents([tmp_path]).documents] == ["interview-07"]


# ---------------------------------------------------------------------------------------------- .vtt

VTT = """WEBVTT - interview 07
Kind: captions

STYLE
::cue { color: yellow }

NOTE the first cue has an id

intro
00:00:01.000 --> 00:00:04.000 align:start
<v Interviewer>How did the first year go?</v>

00:00:04.500 --> 00:00:09.000
<v.loud Maria Lopez>It was <i>harder</i> than we expected.
We lost 15 volunteers &amp; two nurses.</v>

00:00:09.000 --> 00:00:11.000
in the first month.

00:00:11.000 --> 00:00:12.500
Interviewer: Why did it close?

00:00:12.500 --> 00:00:15.000
<c.yellow>The committee</c> did not approve<00:00:14.000> the budget.
"""
VTT_TEXT = ("How did the first year go?\n"
            "It was harder than we expected. We lost 15 volunteers & two nurses.\n"
            "in the first month.\n"
            "Interviewer: Why did it close?\n"
            "The committee did not approve the budget.\n")


def test_vtt_cues_one_per_line_with_speakers_and_timestamps(tmp_path: Path) -> None:
    extracted = extract(tmp_path / "a.vtt", VTT)
    assert extracted.text == VTT_TEXT
    start = [VTT_TEXT.index(s) for s in ("How did", "It was", "in the first", "Interviewer:", "The committee")]
    assert extracted.cues == (
        Turn(start[0], "Interviewer", "00:00:01.000", start[0]),
        Turn(start[1], "Maria Lopez", "00:00:04.500", start[1]),
        Turn(start[2], "Maria Lopez", "00:00:09.000", start[2]),  # no speaker of its own: the previous cue's
        Turn(start[3], "Interviewer", "00:00:11.000", start[3] + len("Interviewer:")),  # a Name: label
        Turn(start[4], "Interviewer", "00:00:12.500", start[4]),
    )


def test_vtt_results_get_the_speaker_and_timestamp_of_their_cue(tmp_path: Path) -> None:
    (tmp_path / "interview-07.vtt").write_text(VTT, encoding="utf-8")
    (doc,) = load_documents([tmp_path]).documents
    assert (doc.text, doc.encoding, len(doc.cues)) == (VTT_TEXT, "utf-8", 5)
    quotes = [{"quote": "We lost 15 volunteers & two nurses in the first month.", "speaker": "Maria Lopez"},
              {"quote": "The committee did not approve the budget.", "speaker": "Interviewer"},
              "in the first month. Interviewer: Why did it close?"]
    across_cues, last, crossing = quoteverify.verify([tmp_path], quotes, NO_EMBED)
    assert (across_cues.speaker, across_cues.timestamp, across_cues.line) == ("Maria Lopez", "00:00:04.500", 2)
    assert (across_cues.status, across_cues.reasons) == ("verified", [])  # two cues, one speaker: no crossing
    assert (last.status, last.speaker, last.timestamp, last.line) == ("verified", "Interviewer", "00:00:12.500", 5)
    check(last, VTT_TEXT, quotes[1]["quote"])
    assert (crossing.status, crossing.speaker, crossing.timestamp) == ("review", "Maria Lopez", "00:00:09.000")
    assert crossing.reasons[0] == "runs across 2 speaker turns (Maria Lopez, Interviewer)"
    check(crossing, VTT_TEXT, quotes[2])


def test_vtt_without_cues(tmp_path: Path) -> None:
    path = tmp_path / "empty.vtt"
    path.write_text("WEBVTT\n\nNOTE nothing here yet\n", encoding="utf-8")
    with pytest.raises(InputError) as error:
        load_documents([path])
    assert str(error.value) == (f"{path}: no cues found (a cue is a line such as '00:00:01.000 --> 00:00:04.000' "
                                "and its text); check that it is a .vtt subtitle file")


# ---------------------------------------------------------------------------------------------- .srt

SRT = ("\ufeff1\r\n"
       "00:00:01,000 --> 00:00:03,200\r\n"
       "{\\an8}P3: We never went back\r\n"
       "to that ward.\r\n"
       "\r\n"
       "2\r\n"
       "00:00:03,500 --> 00:00:06,000\r\n"
       "<i>It was too much for all of us.</i>\r\n"
       "\r\n"
       "3\r\n"
       "00:00:06,100 --> 00:00:08,000\r\n"
       "<font color=\"#ffffff\">INTERVIEWER:</font> And then?\r\n")


def test_srt_cues(tmp_path: Path) -> None:
    path = tmp_path / "focus-group.srt"
    path.write_bytes(SRT.encode("utf-8"))
    (doc,) = load_documents([path]).documents
    assert doc.text == ("P3: We never went back to that ward.\n"
                        "It was too much for all of us.\n"
                        "INTERVIEWER: And then?\n")
    assert [(c.speaker, c.timestamp) for c in doc.cues] == [
        ("P3", "00:00:01,000"), ("P3", "00:00:03,500"), ("INTERVIEWER", "00:00:06,100")]
    quote = "We never went back to that ward. It was too much for all of us."
    result, interviewer = quoteverify.verify([path], [{"quote": quote, "speaker": "Participant 3"}, "And then?"],
                                             NO_EMBED)
    assert (result.status, result.speaker, result.timestamp, result.line) == ("verified", "P3", "00:00:01,000", 1)
    check(result, doc.text, quote)
    assert (interviewer.status, interviewer.reasons) == (
        "review", ["from the interviewer's turn (INTERVIEWER), not a participant's"])


# ---------------------------------------------------------------------------------------------- .pdf

PDF_PAGES = [
    ["Interviewer: How did the first year go?",
     "Maria: Honestly, it was harder than we expected. The infor-",
     "mation never reached us, and the self-",
     "organised clinic closed twice. A self-organised clinic cannot",
     "survive that."],
    ["Interviewer: Why?",
     "Maria: The committee did not approve the budget."],
]
PDF_TEXT = ("Interviewer: How did the first year go?\n"
            "Maria: Honestly, it was harder than we expected. The information\n"
            "never reached us, and the self-organised\n"
            "clinic closed twice. A self-organised clinic cannot\n"
            "survive that.\n"
            "Interviewer: Why?\n"
            "Maria: The committee did not approve the budget.")


def test_pdf_text_with_hyphenation_undone(tmp_path: Path) -> None:
    path = tmp_path / "interview-09.pdf"
    path.write_bytes(pdf_bytes(PDF_PAGES))
    (doc,) = load_documents([path]).documents
    assert (doc.text, doc.encoding) == (PDF_TEXT, "pdf")
    quotes = [{"quote": "The information never reached us, and the self-organised clinic closed twice.",
               "speaker": "Maria"},
              "The committee did not approve the budget."]
    first, second = quoteverify.verify([path], quotes, NO_EMBED)
    assert (first.status, first.match_type, first.speaker, first.line) == ("verified", "normalized", "Maria", 2)
    check(first, doc.text, quotes[0]["quote"])
    assert (second.status, second.line) == ("verified", 7)


@pytest.mark.parametrize(("text", "expected"), [
    ("the infor-\nmation was", "the information\nwas"),
    ("the infor-\nmation, and", "the information,\nand"),
    ("the infor-\nmation\nnext", "the information\nnext"),           # no empty line left behind
    ("a self-\nreported and self-reported", "a self-reported\nand self-reported"),
    ("in 2019-\n2020", "in 2019-\n2020"),                             # numbers: a range, not a word
    ("Smith-\nJones", "Smith-\nJones"),                              # a capital after the break: a name
    ("the infor- \r\n mation is", "the information\nis"),
])
def test_dehyphenate(text: str, expected: str) -> None:
    assert dehyphenate(text) == expected


def test_pdf_without_text(tmp_path: Path) -> None:
    path = tmp_path / "scan.pdf"
    path.write_bytes(pdf_bytes([[]]))
    with pytest.raises(InputError) as error:
        load_documents([path])
    assert str(error.value) == (f"{path}: no text in this PDF (a scan?); run OCR on it, or give the transcript "
                                "as .txt or .docx")


def test_damaged_pdf(tmp_path: Path) -> None:
    path = tmp_path / "broken.pdf"
    path.write_bytes(b"%PDF-1.4\nnothing else")
    with pytest.raises(InputError, match=r"broken\.pdf: not a readable PDF \("):
        load_documents([path])


# ---------------------------------------------------------------------------------------------- all

def test_plain_text_is_its_own_text(tmp_path: Path) -> None:
    assert extract(tmp_path / "a.md", "# Notes\r\nMaria: yes") == Extracted("# Notes\r\nMaria: yes")


def test_a_folder_of_mixed_formats(tmp_path: Path) -> None:
    write_docx(tmp_path / "b.docx", ["Maria: Word."])
    (tmp_path / "c.vtt").write_text(VTT, encoding="utf-8")
    (tmp_path / "d.srt").write_bytes(SRT.encode("utf-8"))
    (tmp_path / "e.pdf").write_bytes(pdf_bytes(PDF_PAGES))
    (tmp_path / "a.txt").write_text("Maria: Text.", encoding="utf-8")
    loaded = load_documents([tmp_path]).documents
    assert [(d.doc_id, d.encoding) for d in loaded] == [
        ("a", "utf-8"), ("b", "docx"), ("c", "utf-8"), ("d", "utf-8"), ("e", "pdf")]


def test_docx_and_pypdf_are_imported_only_when_needed(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("Maria: Text.", encoding="utf-8")
    code = ("import sys, quoteverify; from quoteverify.sources.documents import load_documents; "
            f"load_documents([{str(tmp_path)!r}]); "
            "print(sorted(m for m in ('docx', 'pypdf') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
