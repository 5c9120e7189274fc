"""REFI-QDA projects (.qdpx) and Taguette exports as input (issue 19)."""
from __future__ import annotations

import io
import json
import random
import re
import time
import uuid
import zipfile
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

import pytest
from click.testing import CliRunner
from conftest import NO_EMBED

import quoteverify
from quoteverify.cli import main
from quoteverify.model.errors import InputError
from quoteverify.sources.qdpx import Convention, read_qdpx
from quoteverify.sources.quotes import load_quotes

WORDS = ("clinic budget nurses volunteers committee paperwork ministry training patients shifts weekend "
         "evening sessions manager council boat flood children neighbours water funding staff money "
         "programme system month year village road school teacher market harvest rain doctor").split()
VERBS = "said asked waited closed opened carried helped noticed stopped started lost found kept".split()
SPEAKERS = {"interview-01": ("Interviewer", "Maria"), "interview-02": ("Interviewer", "Tomás")}


def _sentence(rng: random.Random, k: int) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(5, 9))]
    words.insert(2, rng.choice(VERBS))
    words.insert(rng.randint(3, len(words)), f"{k}")  # a number makes each sentence its own
    if k % 7 == 0:
        words.insert(1, "😀")  # outside the BMP: two UTF-16 code units
    return words[0].capitalize() + " " + " ".join(words[1:]) + "."


def transcript(doc: str, sentences: int, seed: int, *, newline: str = "\n", bom: bool = False
               ) -> tuple[str, list[tuple[int, int]]]:
    """A transcript and the (start, end) of each participant sentence in it (Python indexes)."""
    rng = random.Random(seed)
    text, spans = "\ufeff" if bom else "", []
    interviewer, participant = SPEAKERS[doc]
    k = 0
    while k < sentences:
        text += f"{interviewer}: {_sentence(rng, 10_000 + seed * 1000 + k)}{newline}"
        text += f"{participant}: "
        for _ in range(min(4, sentences - k)):
            sentence = _sentence(rng, seed * 1000 + k)
            spans.append((len(text), len(text) + len(sentence)))
            text += sentence + " "
            k += 1
        text = text[:-1] + newline
    return text, spans


def positions(text: str, start: int, end: int, convention: Convention) -> tuple[int, int]:
    """The positions a program using ``convention`` writes for text[start:end]."""
    def at(k: int) -> int:
        head = text[:k]
        n = len(head)
        if convention.utf16:
            n += sum(1 for c in head if ord(c) > 0xFFFF)
        if head.startswith("\ufeff") and not convention.bom_counted:
            n -= 1
        if not convention.crlf_two:
            n -= head.count("\r\n")
        return n
    return at(start), at(end)


def make_qdpx(path: Path, sources: dict[str, str], segments: list[tuple[str, int, int, str, str]], *,
              inline: bool = False, extra_xml: str = "", header: str = "") -> Path:
    """A REFI-QDA project as NVivo and QualCoder write one: sources in sources/, codes, coded selections
    with a description and a linked note. segments: (document, start position, end position, code, memo)."""
    codes = sorted({code for _, _, _, code, _ in segments})
    code_guid = {code: str(uuid.uuid5(uuid.NAMESPACE_URL, code)).upper() for code in codes}
    source_guid = {doc: str(uuid.uuid5(uuid.NAMESPACE_DNS, doc)).upper() for doc in sources}
    notes, body = [], []
    for doc, text in sources.items():
        guid = source_guid[doc]
        content = f"<PlainTextContent>{escape(text)}</PlainTextContent>" if inline else ""
        attrs = "" if inline else f' plainTextPath="internal://{guid}.txt"'
        selections = []
        for k, (d, start, end, code, memo) in enumerate(segments):
            if d != doc:
                continue
            sel = str(uuid.uuid5(uuid.NAMESPACE_OID, f"{doc}{k}")).upper()
            note = str(uuid.uuid5(uuid.NAMESPACE_X500, f"{doc}{k}")).upper()
            notes.append(f'<Note guid="{note}" name="memo {k}"><PlainTextContent>{escape(memo)} (note)'
                         f'</PlainTextContent></Note>')
            selections.append(
                f'<PlainTextSelection guid="{sel}" name="segment {k}" startPosition="{start}" endPosition="{end}">'
                f"<Description>{escape(memo)}</Description>"
                f'<Coding guid="{uuid.uuid4()}"><CodeRef targetGUID="{code_guid[code]}"/></Coding>'
                f'<NoteRef targetGUID="{note}"/></PlainTextSelection>')
        body.append(f'<TextSource guid="{guid}" name={quoteattr(doc + ".txt")}{attrs}>{content}'
                    + "".join(selections) + "</TextSource>")
    xml = (f'{header}<?xml version="1.0" encoding="utf-8"?>\n' if not header else header) + (
        '<Project xmlns="urn:QDA-XML:project:1.0" name="study" origin="NVivo">'
        '<CodeBook><Codes>' + "".join(f'<Code guid="{code_guid[c]}" name={quoteattr(c)} isCodable="true"/>'
                                      for c in codes) + '</Codes></CodeBook>'
        f'<Sources>{"".join(body)}</Sources><Notes>{"".join(notes)}</Notes>{extra_xml}</Project>')
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("project.qde", xml)
        if not inline:
            for doc, text in sources.items():
                archive.writestr(f"sources/{source_guid[doc]}.txt", text.encode("utf-8"))
    return path


def project(tmp_path: Path, convention: Convention, sentences: int = 150, *, crlf: bool = True,
            bom: bool = True) -> tuple[Path, dict[str, str], list[tuple[str, int, int]]]:
    """Two transcripts (one with CRLF line ends, one with a byte-order mark) and every participant sentence
    coded; returns the project, the texts and each segment's expected (document, start, end)."""
    one, spans_one = transcript("interview-01", sentences, 1, newline="\r\n" if crlf else "\n")
    two, spans_two = transcript("interview-02", sentences, 2, bom=bom)
    texts = {"interview-01": one, "interview-02": two}
    expected = [("interview-01", a, b) for a, b in spans_one] + [("interview-02", a, b) for a, b in spans_two]
    segments = [(doc, *positions(texts[doc], a, b, convention), f"code {k % 5}", f"memo {k}")
                for k, (doc, a, b) in enumerate(expected)]
    return make_qdpx(tmp_path / "study.qdpx", texts, segments), texts, expected


NVIVO = Convention(utf16=False, bom_counted=True, crlf_two=True)


def test_a_300_segment_project_reads_fast_and_every_segment_verifies_at_its_place(tmp_path: Path) -> None:
    path, texts, expected = project(tmp_path, Convention(utf16=True, bom_counted=False, crlf_two=True))
    started = time.perf_counter()
    read = read_qdpx(path)
    seconds = time.perf_counter() - started
    assert seconds < 10, seconds
    assert len(read.quotes) == 300
    assert read.convention == (f"{path}: positions read as UTF-16 code units, byte-order mark not counted, "
                               "CRLF as 2 characters: 300 of 300 coded segments start and end on word boundaries")
    assert sorted(d.doc_id for d in read.documents) == ["interview-01", "interview-02"]
    results = quoteverify.verify(path, path, NO_EMBED)
    assert [(r.status, r.match_type) for r in results] == [("verified", "exact")] * 300
    assert [(r.document, r.start, r.end) for r in results] == expected
    assert all(texts[r.document][r.start:r.end] == r.quote for r in results)
    first = results[0]
    assert (first.finding, first.extra["codes"], first.extra["memo"]) == ("code 0", "code 0", "memo 0\nmemo 0 (note)")
    assert first.extra["qda_guid"] == first.quote_id and len(first.quote_id) == 36
    assert first.speaker == "Maria"


@pytest.mark.parametrize("convention", [
    Convention(utf16=False, bom_counted=True, crlf_two=True),
    Convention(utf16=True, bom_counted=True, crlf_two=True),
    Convention(utf16=False, bom_counted=False, crlf_two=True),
    Convention(utf16=False, bom_counted=True, crlf_two=False),
    Convention(utf16=True, bom_counted=False, crlf_two=False),
], ids=lambda c: c.describe())
def test_the_position_convention_is_detected(tmp_path: Path, convention: Convention) -> None:
    path, texts, expected = project(tmp_path, convention, sentences=30)
    read = read_qdpx(path)
    assert read.convention.startswith(f"{path}: positions read as {convention.describe()}: 60 of 60 ")
    assert [(q.claimed_document, *q.at[:2]) for q in read.quotes] == expected
    assert all(texts[q.claimed_document][q.at[0]:q.at[1]] == q.text for q in read.quotes)


def test_a_segment_that_fits_no_convention_is_reported_not_cut(tmp_path: Path) -> None:
    text, spans = transcript("interview-01", 8, 3)
    (a, b), (c, d) = spans[0], spans[1]
    segments = [("interview-01", a, b, "ok", ""), ("interview-01", c + 2, d - 1, "shifted", ""),
                ("interview-01", len(text) + 5, len(text) + 40, "past the end", ""),
                ("interview-01", 40, 12, "backwards", "")]
    path = make_qdpx(tmp_path / "p.qdpx", {"interview-01": text}, segments)
    results = quoteverify.verify(path, path, NO_EMBED)
    assert [(r.finding, r.status) for r in results] == [("ok", "verified"), ("shifted", "unverified"),
                                                       ("past the end", "unverified"), ("backwards", "unverified")]
    convention = "Unicode code points, byte-order mark counted, CRLF as 2 characters"
    # The coder sees what was coded: the text the positions cover, widened to whole words.
    widened = re.search(r"\w*" + re.escape(text[12:40]) + r"\w*", text)
    assert widened is not None
    assert [r.quote for r in results] == [text[a:b], text[c:d - 1], "segment 2", widened.group().strip()]
    assert results[1].reasons == [
        f"positions {c + 2}-{d - 1} of coded segment in interview-01 do not fit its text ({convention}): they do "
        "not start and end on word boundaries; the quote shown is the text they cover, widened to whole words; "
        "recode the segment or export the project again"]
    assert results[2].reasons == [
        f"positions {len(text) + 5}-{len(text) + 40} of coded segment in interview-01 do not fit its text "
        f"({convention}): they do not start and end on word boundaries or lie past its end; recode the segment "
        "or export the project again"]


def test_segments_checked_against_the_current_transcripts(tmp_path: Path) -> None:
    """verify transcripts/ project.qdpx: the coded segments still stand in the transcripts as they are now."""
    path, texts, expected = project(tmp_path, NVIVO, sentences=12, crlf=False, bom=False)
    folder = tmp_path / "now"
    folder.mkdir()
    (folder / "interview-02.txt").write_text(texts["interview-02"], encoding="utf-8")
    doc, a, b = expected[0]
    changed = texts[doc][:a] + "A new first line.\n" + texts[doc][a:b].replace(" 1000", " 1001", 1) + texts[doc][b:]
    (folder / "interview-01.txt").write_text(changed, encoding="utf-8")
    result = CliRunner().invoke(main, ["verify", str(folder), str(path), "--no-embed", "--no-cache", "-o", "-"])
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines()[0] == (f"{path}: positions read as Unicode code points, byte-order mark "
                                             "counted, CRLF as 2 characters: 24 of 24 coded segments start and end "
                                             "on word boundaries")
    rows = [json.loads(line) for line in io.StringIO(result.stdout)]
    assert (rows[0]["status"], rows[0]["match_type"]) == ("review", "altered")
    assert rows[1]["status"] == "verified"
    assert rows[1]["reasons"] == ["not where the QDA project codes it (line 2 of the project's copy)"]
    assert [r["status"] for r in rows[12:]] == ["verified"] * 12 and all(r["reasons"] == [] for r in rows[12:])


def test_verify_with_only_a_project(tmp_path: Path) -> None:
    path, _, _ = project(tmp_path, NVIVO, sentences=6)
    out = tmp_path / "r.csv"
    result = CliRunner().invoke(main, ["verify", str(path), "-o", str(out), "--no-embed", "--no-cache"])
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines()[-3].startswith("12 quotes: 12 verified, 0 review, 0 unverified (")
    assert "qda_guid" in out.read_text(encoding="utf-8").splitlines()[0].split(",")


def test_a_papers_quotes_against_the_projects_sources(tmp_path: Path) -> None:
    path, texts, expected = project(tmp_path, NVIVO, sentences=6, crlf=False)
    doc, a, b = expected[3]
    quotes = tmp_path / "paper.csv"
    quotes.write_text(f"quote,document\n\"{texts[doc][a:b]}\",{doc}.txt\n", encoding="utf-8")
    rows = quoteverify.verify(path, quotes, NO_EMBED)
    assert [(r.status, r.document, r.start, r.end) for r in rows] == [("verified", doc, a, b)]


def test_inline_text_sources(tmp_path: Path) -> None:
    text, spans = transcript("interview-02", 5, 4)
    path = make_qdpx(tmp_path / "p.qdpx", {"interview-02": text}, [("interview-02", a, b, "c", "") for a, b in spans],
                     inline=True)
    assert [r.status for r in quoteverify.verify(path, path, NO_EMBED)] == ["verified"] * 5


@pytest.mark.parametrize(("build", "message"), [
    (lambda p: p.write_bytes(b"not a zip"), "{p}: not a readable .qdpx project (File is not a zip file); export "
                                            "the project again (REFI-QDA project, .qdpx)"),
    (lambda p: zipfile.ZipFile(p, "w").writestr("other.xml", "<a/>"),
     "{p}: no project.qde in this archive; is it a REFI-QDA project (.qdpx)?"),
    (lambda p: zipfile.ZipFile(p, "w").writestr("project.qde", "<Codebook/>"),
     "{p}: project.qde is not a REFI-QDA project (its root is <Codebook>)"),
    (lambda p: zipfile.ZipFile(p, "w").writestr("project.qde", "<Project"),
     "{p}: project.qde is not well-formed XML (unclosed token: line 1, column 0); export the project again"),
    (lambda p: make_qdpx(p, {"a": "Some text here."}, [], header=(
        '<?xml version="1.0"?><!DOCTYPE Project [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>')),
     "{p}: refused: its project.qde declares entities or a DTD, as XML bombs do; export the project again"),
])
def test_bad_projects_are_one_line_errors(tmp_path: Path, build, message: str) -> None:
    path = tmp_path / "bad.qdpx"
    build(path)
    result = CliRunner().invoke(main, ["verify", str(path), "--no-embed", "--no-cache"])
    assert result.exit_code == 2
    assert result.stderr == "Error: " + message.format(p=path) + "\n"


def test_a_zip_bomb_is_refused_before_unzipping(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import quoteverify.sources.qdpx as qdpx

    path, _, _ = project(tmp_path, NVIVO, sentences=4)
    monkeypatch.setattr(qdpx, "MAX_UNZIPPED", 1000)
    with pytest.raises(InputError) as error:
        read_qdpx(path)
    assert str(error.value).startswith(f"{path}: refused: 3 files that would unzip to ")
    assert str(error.value).endswith(" bytes, as zip bombs do; a QDA project is far smaller")


# --- Taguette ---------------------------------------------------------------------------------------


def test_taguette_highlights_read_as_a_quote_table(tmp_path: Path, corpus_dir: Path) -> None:
    """Taguette's highlight export: id, document, tag, content; one row per highlight and tag."""
    table = tmp_path / "highlights.csv"
    table.write_text("id,document,tag,content\n"
                     "11,interview-01.txt,funding,The committee did not approve the budget until March.\n"
                     "12,Interview-02,staffing,They said they would send extra staff.\n", encoding="utf-8")
    loaded = load_quotes(table)
    assert [(q.quote_id, q.claimed_document, q.finding) for q in loaded.quotes] == [
        ("11", "interview-01.txt", "funding"), ("12", "Interview-02", "staffing")]
    results = quoteverify.verify(corpus_dir, loaded, NO_EMBED)
    assert [(r.status, r.document, r.claimed_document) for r in results] == [
        ("verified", "interview-01", "interview-01"), ("verified", "interview-02", "interview-02")]


def test_taguette_xlsx_export(tmp_path: Path) -> None:
    import openpyxl

    book = openpyxl.Workbook()
    book.active.append(["id", "document", "tag", "content"])
    book.active.append([3, "interview-01", "funding", "We lost 15 volunteers"])
    book.save(tmp_path / "h.xlsx")
    quote = load_quotes(tmp_path / "h.xlsx").quotes[0]
    assert (quote.quote_id, quote.text, quote.claimed_document, quote.finding) == (
        "3", "We lost 15 volunteers", "interview-01", "funding")


def test_a_project_run_can_be_rerun(tmp_path: Path) -> None:
    path, texts, _ = project(tmp_path, NVIVO, sentences=6)
    manifest, out = tmp_path / "run.json", tmp_path / "r.jsonl"
    runner = CliRunner()
    first = runner.invoke(main, ["verify", str(path), "--no-embed", "--no-cache", "--manifest", str(manifest),
                                 "-o", str(out)])
    assert first.exit_code == 0, first.output
    again = runner.invoke(main, ["rerun", str(manifest), "-o", str(tmp_path / "again.jsonl")])
    assert again.exit_code == 0, again.output
    assert again.stderr.splitlines()[-1] == ("Results are identical to the recorded run: the same status and result "
                                             "for every quote (12 verified, 0 review, 0 unverified).")
    # A source changed inside the project is named.
    changed = {**texts, "interview-02": texts["interview-02"].replace("Interviewer", "Interviewee", 1)}
    segments = [("interview-01", 0, 11, "c", "")]
    make_qdpx(path, changed, segments)
    again = runner.invoke(main, ["rerun", str(manifest), "-o", str(tmp_path / "again.jsonl")])
    assert again.exit_code == 2
    assert [line.split(":")[0] for line in again.stderr.splitlines()[:2]] == [
        "Changed", "Changed"]
    assert "study.qdpx!interview-02.txt: sha256 changed" in again.stderr


def test_a_docx_source(tmp_path: Path) -> None:
    """A source the project holds only as .docx (richTextPath) is read through the docx reader."""
    import docx

    from quoteverify.sources.formats import extract

    document = docx.Document()
    for line in ("Interviewer: How did the year go?", "Maria: The committee did not approve the budget until March."):
        document.add_paragraph(line)
    buffer = io.BytesIO()
    document.save(buffer)
    text = extract(Path("s.docx"), buffer.getvalue()).text
    start = text.index("The committee")
    qde = ('<?xml version="1.0" encoding="utf-8"?><Project xmlns="urn:QDA-XML:project:1.0" name="p">'
           '<CodeBook><Codes><Code guid="C1" name="budget" isCodable="true"/></Codes></CodeBook><Sources>'
           '<TextSource guid="S1" name="Interview 01.docx" richTextPath="internal://S1.docx">'
           f'<PlainTextSelection guid="G1" startPosition="{start}" endPosition="{len(text)}">'
           '<Coding guid="K1"><CodeRef targetGUID="C1"/></Coding></PlainTextSelection></TextSource></Sources>'
           '</Project>')
    path = tmp_path / "p.qdpx"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("project.qde", qde)
        archive.writestr("sources/S1.docx", buffer.getvalue())
    [result] = quoteverify.verify(path, path, NO_EMBED)
    assert (result.status, result.document, result.quote, result.finding, result.speaker) == (
        "verified", "Interview 01", "The committee did not approve the budget until March.", "budget", "Maria")


def test_a_source_outside_the_project_is_a_warning_and_its_segments_are_reported(tmp_path: Path) -> None:
    qde = ('<?xml version="1.0" encoding="utf-8"?><Project xmlns="urn:QDA-XML:project:1.0" name="p"><Sources>'
           '<TextSource guid="S1" name="far.txt" plainTextPath="relative:///far.txt">'
           '<PlainTextSelection guid="G1" startPosition="0" endPosition="4"/></TextSource>'
           '<TextSource guid="S2" name="near.txt"><PlainTextContent>Near words here.</PlainTextContent>'
           '<PlainTextSelection guid="G2" startPosition="0" endPosition="10"/></TextSource></Sources></Project>')
    path = tmp_path / "p.qdpx"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("project.qde", qde)
    run = quoteverify.run(path, path, NO_EMBED)
    assert run.warnings[0] == (f"{path}: source 'far.txt' has no text inside the project (it links to "
                               "relative:///far.txt); export the project with its sources, or give the transcripts "
                               "as documents")
    assert [(r.quote_id, r.status, r.reasons) for r in run.results] == [
        ("G1", "unverified", ["coded segment of source 'far', whose text is not in the project: not checked",
                              "claimed document 'far' is not among the documents; searched all, so which document it "
         "comes from was not checked"]),
        ("G2", "verified", [])]


def test_a_project_without_the_namespace(tmp_path: Path) -> None:
    path = tmp_path / "p.qdpx"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("project.qde", '<Project name="p"><Sources><TextSource guid="S" name="a.txt">'
                         "<PlainTextContent>Maria: We kept going anyway.</PlainTextContent>"
                         '<PlainTextSelection guid="G" startPosition="7" endPosition="28"/></TextSource></Sources>'
                         "</Project>")
    [result] = quoteverify.verify(path, path, NO_EMBED)
    assert (result.quote, result.status, result.speaker) == ("We kept going anyway.", "verified", "Maria")


def test_a_video_title_opening_a_source_is_no_speaker(tmp_path: Path) -> None:
    """A source that opens with its own title (a video's, "Name: subtitle" or "Title  12:31") names no speaker;
    labels further on still do."""
    title = "Farming Hay: A Year On The Ranch"
    text = (f"{title}\nso my family has farmed this valley since the fifties and the water never ran short.\n"
            "Interviewer: And now?\nDale: Now the ditch runs dry by August most years.\n")
    first, second = text.index("so my family"), text.index("Now the ditch")
    segments = [(title, first, text.index(".", first) + 1, "history", ""),
                (title, second, text.index(".", second) + 1, "drought", "")]
    path = make_qdpx(tmp_path / "p.qdpx", {title: text}, segments)
    results = quoteverify.verify(path, path, NO_EMBED)
    assert [(r.status, r.speaker) for r in results] == [("verified", ""), ("verified", "Dale")]


@pytest.mark.parametrize(("text", "title", "speaker"), [
    ("Water Rights On The Snake River  12:31\nso we farmed.\n", "Water Rights On The Snake River", ""),
    ("Farming Hay: A Year On The Ranch\n[00:00:05] so we farmed.\n", "farming-hay-a-year-on-the-ranch", ""),
    # a document named after its one speaker is that speaker's; a label that recurs is a speaker's
    ("Dale: so we farmed.\n", "dale", "Dale"),
    ("Dale: so we farmed.\n", "dale-interview", "Dale"),
    ("Maria: I was born.\nInterviewer: And?\nMaria: so we farmed.\n", "Maria: I was born", "Maria"),
])
def test_title_line_or_speaker(text: str, title: str, speaker: str) -> None:
    from quoteverify.sources.turns import Turns

    turn = Turns(text, title=title).at(text.index("so we farmed"))
    assert (turn.speaker if turn else "") == speaker
