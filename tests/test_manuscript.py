"""The manuscript checked in place: verify ... paper.docx -o paper.checked.docx (and .md, .tex).

On the example's draft (data/example/paper.docx, .md, .tex: every quote of quotes.csv in a paragraph with its
participant tag): one note per quote, anchored on exactly its text; the draft otherwise the same (text,
formatting, styles, its own comment); every quote in review with a source passage given a fix as tracked
changes, whose accepted text verifies when checked again. Then the drafts that are hard to write back into.
"""
from __future__ import annotations

import copy
import io
import json
import os
import re
import shutil
import signal
import subprocess
import zipfile
from collections import defaultdict
from pathlib import Path

import docx
import pytest
from click.testing import CliRunner
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.opc.packuri import PackURI
from docx.opc.part import Part
from lxml import etree

from quoteverify.app.extract import extract_quotes
from quoteverify.cli import main
from quoteverify.plumbing import wordml

EXAMPLE = Path(__file__).resolve().parent.parent / "data" / "example"
W = wordml.W
AUTHOR = "quoteverify"


def w(tag: str) -> str:
    return wordml.w(tag)


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def results_of(path: Path) -> dict[str, dict]:
    return {r["quote_id"]: r for r in map(json.loads, path.read_text(encoding="utf-8").splitlines())}


def collapsed(text: str) -> str:
    return " ".join(text.split())


# ------------------------------------------------------------------ reading a .docx as written and as accepted

def _ours(element) -> bool:
    return element.get(w("author")) == AUTHOR


def rejected(root):
    """A copy of ``root`` with quoteverify's tracked changes rejected: its insertions out, its deletions back."""
    root = copy.deepcopy(root)
    for insertion in [e for e in root.iter(w("ins")) if _ours(e)]:
        insertion.getparent().remove(insertion)
    for deletion in [e for e in root.iter(w("del")) if _ours(e)]:
        for t in deletion.iter(w("delText")):
            t.tag = w("t")
        deletion.getparent().replace(deletion, *deletion) if len(deletion) == 1 else _unwrap(deletion)
    return root


def _unwrap(element) -> None:
    parent, at = element.getparent(), element.getparent().index(element)
    for k, child in enumerate(list(element)):
        parent.insert(at + k, child)
    parent.remove(element)


def accepted(root):
    """A copy of ``root`` with quoteverify's tracked changes accepted."""
    root = copy.deepcopy(root)
    for deletion in [e for e in root.iter(w("del")) if _ours(e)]:
        deletion.getparent().remove(deletion)
    for insertion in [e for e in root.iter(w("ins")) if _ours(e)]:
        _unwrap(insertion)
    return root


def styled(paragraph) -> list[tuple[str, bytes]]:
    """Each character of a paragraph with its run's formatting (canonical XML of w:rPr)."""
    out = []
    for piece in wordml.pieces(paragraph):
        properties = piece.run.find(w("rPr"))
        canonical = etree.tostring(properties, method="c14n", exclusive=True) if properties is not None else b""
        out += [(ch, canonical) for ch in piece.text]
    return out


def paragraph_properties(paragraph) -> bytes:
    properties = paragraph.find(w("pPr"))
    return etree.tostring(properties, method="c14n", exclusive=True) if properties is not None else b""


def anchors(root) -> dict[str, str]:
    """The text each comment's range covers, as written (quoteverify's insertions out, its deletions in)."""
    root = rejected(root)
    open_ids: set[str] = set()
    texts: dict[str, str] = defaultdict(str)
    for e in root.iter():
        if e.tag == w("commentRangeStart"):
            open_ids.add(e.get(w("id")))
        elif e.tag == w("commentRangeEnd"):
            open_ids.discard(e.get(w("id")))
        elif e.tag == w("t") and e.text:
            for k in open_ids:
                texts[k] += e.text
    return dict(texts)


def comments(path: Path) -> dict[str, tuple[str, str]]:
    """Each comment of a .docx, by id, as python-docx reads it: (author, text)."""
    return {str(c.comment_id): (c.author, c.text) for c in docx.Document(path).comments}


def parts(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def canonical(xml: bytes) -> bytes:
    return etree.tostring(etree.fromstring(xml, etree.XMLParser(remove_blank_text=True)), method="c14n", exclusive=True)


def accept_all(path: Path, out: Path) -> Path:
    """The checked .docx with every change of quoteverify accepted and its comments left as they are."""
    document = docx.Document(path)
    body = document.element.body
    body.getparent().replace(body, accepted(body))
    document.save(out)
    return out


# ------------------------------------------------------------------ the example's draft

@pytest.fixture(scope="module")
def checked(tmp_path_factory) -> tuple[Path, dict[str, dict]]:
    folder = tmp_path_factory.mktemp("manuscript")
    out, results = folder / "paper.checked.docx", folder / "results.jsonl"
    outcome = invoke("verify", EXAMPLE / "transcripts", EXAMPLE / "paper.docx", "-o", out, "-o", results,
                     "--cache-dir", folder / "cache")
    assert outcome.exit_code == 0, outcome.output
    assert f"{out}: 21 comments, 13 fixes as tracked changes\n" in outcome.stderr
    return out, results_of(results)


def test_one_comment_per_quote_anchored_on_exactly_its_text(checked) -> None:
    out, results = checked
    quotes = extract_quotes(EXAMPLE / "paper.docx", min_words=5).quotes
    ours = {k: text for k, (author, text) in comments(out).items() if author == AUTHOR}
    assert len(ours) == len(quotes) == len(results) == 21
    covered = anchors(docx.Document(out).element.body)
    by_id = {text.split(":")[0].removeprefix(f"{AUTHOR} "): k for k, text in ours.items()}
    assert list(by_id) == [q.quote_id for q in quotes] == list(results)  # the workbook's ids, in the draft's order
    for quote in quotes:
        assert collapsed(covered[by_id[quote.quote_id]]) == quote.quote


def test_the_comments_say_status_reasons_place_and_fix(checked) -> None:
    out, results = checked
    texts = {text.split(":")[0].removeprefix(f"{AUTHOR} "): text for author, text in comments(out).values()
             if author == AUTHOR}
    assert texts["q1"] == "quoteverify q1: verified (exact) in interview-01-nurse, P3, line 27, 00:02:48 (1 of 1 place)."
    assert texts["q5"].splitlines() == [
        "quoteverify q5: review, high: 98% likely a change of meaning (altered).",
        "Number differs: quote says 'ten', source says 'fourteen'.",
        "Source: interview-01-nurse, P3, line 22, 00:02:05 (1 of 1 place).",
        "Fix, as a tracked change: “Last month I counted, actually, because I wanted to bring it to the staffing "
        "meeting, and it was nine shifts out of fourteen.” — the source's words where the quote differs in a way "
        "that matters, your harmless edits kept (checked again: verified, normalized).",
        "Decide it in the workbook or on the review page: quote id q5.",
    ]
    assert "Fix, as a tracked change: “it sounds like nights are where the real nursing happens” (Interviewer)" \
        in texts["q9"]
    assert texts["q20"].splitlines()[:2] == [
        "quoteverify q20: unverified (unlocated).", results["q20"]["reasons"][0][:1].upper()
        + results["q20"]["reasons"][0][1:] + "."]


def test_the_draft_is_otherwise_the_same(checked) -> None:
    out, _ = checked
    before, after = docx.Document(EXAMPLE / "paper.docx"), docx.Document(out)
    old = wordml.paragraphs(before.element.body)
    new = wordml.paragraphs(rejected(after.element.body))
    assert len(old) == len(new)
    for a, b in zip(old, new):
        assert styled(a) == styled(b)  # every character, in its formatting
        assert paragraph_properties(a) == paragraph_properties(b)
    assert ("Co-author", "Cite the 2019 study here as well?") in comments(out).values()
    old_parts, new_parts = parts(EXAMPLE / "paper.docx"), parts(out)
    assert set(new_parts) - set(old_parts) <= {"word/comments.xml"}
    for name in old_parts.keys() - {"word/document.xml", "word/comments.xml", "[Content_Types].xml",
                                    "word/_rels/document.xml.rels"}:
        assert canonical(old_parts[name]) == canonical(new_parts[name]) if name.endswith(".xml") \
            else old_parts[name] == new_parts[name], name


def test_every_review_quote_with_a_passage_gets_a_fix_whose_accepted_text_verifies(checked, tmp_path) -> None:
    out, results = checked
    body = docx.Document(out).element.body
    changes = [e for e in body.iter(w("ins"), w("del"))]
    assert changes and all(e.get(w("author")) == AUTHOR and e.get(w("date")) for e in changes)
    review = [qid for qid, r in results.items() if r["status"] == "review" and r["matched_text"]]
    texts = {text.split(":")[0].removeprefix(f"{AUTHOR} "): text for author, text in comments(out).values()
             if author == AUTHOR}
    assert len(review) == 13 and all("Fix, as a tracked change" in texts[qid] for qid in review)
    again = tmp_path / "results.jsonl"
    accept_all(out, tmp_path / "paper.accepted.docx")
    outcome = invoke("verify", EXAMPLE / "transcripts", tmp_path / "paper.accepted.docx", "-o", again,
                     "--cache-dir", tmp_path / "cache")
    assert outcome.exit_code == 0, outcome.output
    statuses = [(r["status"], r["quote"]) for r in results_of(again).values()]
    # q14's two passages, 261 words apart, are now two quotations; the invented q20 is still in no transcript.
    assert len(statuses) == 22
    assert [s for s in statuses if s[0] != "verified"] == [("unverified", results["q20"]["quote"])]


def _soffice() -> str | None:
    return shutil.which("soffice") or shutil.which("libreoffice")


@pytest.mark.skipif(_soffice() is None, reason="LibreOffice is not installed")
def test_libreoffice_reads_the_comments_and_the_changes(checked, tmp_path) -> None:
    out, _ = checked
    command = [_soffice(), "--headless", f"-env:UserInstallation=file://{tmp_path / 'profile'}", "--convert-to",
               "fodt", "--outdir", str(tmp_path), str(out)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        process.wait(timeout=180)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    flat = (tmp_path / "paper.checked.fodt").read_text(encoding="utf-8")
    notes = re.findall(r"<office:annotation\b.*?</office:annotation>", flat, re.S)
    assert sum(f">{AUTHOR}<" in n for n in notes) == 21 and len(notes) == 22
    assert len(re.findall(r"<text:changed-region\b", flat)) >= 26  # each fix deletes and inserts


# ------------------------------------------------------------------ .md and .tex

def _unnoted_markdown(text: str) -> str:
    return re.sub(r"<!-- quoteverify q\d+: .*? -->", "", text)


def _unnoted_footnotes(text: str) -> str:
    text = re.sub(r"\[\^quoteverify-q\d+\](?!:)", "", text)
    return re.sub(r"\n*(?:\[\^quoteverify-q\d+\]: [^\n]*\n)+$", "\n", text)


def _unnoted_tex(text: str) -> str:
    return re.sub(r"(?m)^% [^\n]*\n", "", text)


def _unnoted_todo(text: str) -> str:
    out, at = [], 0
    while (start := text.find("\\todo{quoteverify q", at)) >= 0:
        out.append(text[at:start])
        depth, k = 0, start + len("\\todo")
        while True:
            if text[k] == "\\":
                k += 2
                continue
            depth += {"{": 1, "}": -1}.get(text[k], 0)
            k += 1
            if depth == 0:
                break
        at = k
    return "".join(out) + text[at:]


@pytest.mark.parametrize(("name", "options", "unnoted", "notes"), [
    ("paper.md", [], _unnoted_markdown, r"<!-- quoteverify q\d+: "),
    ("paper.md", ["--notes", "footnote"], _unnoted_footnotes, r"\[\^quoteverify-q\d+\](?!:)"),
    ("paper.tex", [], _unnoted_tex, r"(?m)^% quoteverify q\d+: "),
    ("paper.tex", ["--notes", "todo"], _unnoted_todo, r"\\todo\{quoteverify q\d+: "),
])
def test_a_text_draft_gets_one_note_per_quote_and_is_otherwise_the_same(tmp_path, name, options, unnoted,
                                                                       notes) -> None:
    out = tmp_path / name.replace(".", ".checked.")
    outcome = invoke("verify", EXAMPLE / "transcripts", EXAMPLE / name, "-o", out, "--no-embed", *options,
                     "--cache-dir", tmp_path / "cache")
    assert outcome.exit_code == 0, outcome.output
    text = out.read_text(encoding="utf-8")
    assert len(re.findall(notes, text)) == 21
    assert unnoted(text) == (EXAMPLE / name).read_text(encoding="utf-8")
    assert "Suggested quotation: " in text and "Fix, as a tracked change" not in text
    assert f"{out}: 21 notes\n" in outcome.stderr


def test_verified_quotes_may_get_no_note_and_fixes_may_be_left_out(tmp_path) -> None:
    out = tmp_path / "paper.checked.docx"
    outcome = invoke("verify", EXAMPLE / "transcripts", EXAMPLE / "paper.docx", "-o", out, "--no-embed",
                     "--verified-notes", "none", "--no-fixes", "--cache-dir", tmp_path / "cache")
    assert outcome.exit_code == 0, outcome.output
    assert f"{out}: 14 comments, 0 fixes as tracked changes\n" in outcome.stderr  # 7 verified, with no note
    body = docx.Document(out).element.body
    assert not list(body.iter(w("ins"), w("del")))
    assert all("Fix, as a tracked change" not in text for _, text in comments(out).values())


# ------------------------------------------------------------------ drafts that are hard to write back into

NS = f'xmlns:w="{W}"'


def run_xml(text: str, properties: str = "") -> str:
    return f'<w:r>{f"<w:rPr>{properties}</w:rPr>" if properties else ""}<w:t xml:space="preserve">{text}</w:t></w:r>'


def field_xml(instruction: str, result: str) -> str:
    """A complex field: its instruction, and the result Word shows."""
    return ('<w:r><w:fldChar w:fldCharType="begin"/></w:r>'
            f'<w:r><w:instrText xml:space="preserve"> {instruction} </w:instrText></w:r>'
            '<w:r><w:fldChar w:fldCharType="separate"/></w:r>'
            f'{run_xml(result)}<w:r><w:fldChar w:fldCharType="end"/></w:r>')


def draft(path: Path, paragraphs: list[str], footnotes: list[str] = ()) -> Path:
    """A .docx whose body holds ``paragraphs`` (the inner XML of each w:p) and whose footnotes hold
    ``footnotes`` (each the inner XML of a footnote's w:p), each referenced from a paragraph of its own."""
    from docx.oxml.parser import parse_xml

    document = docx.Document()
    body = document.element.body
    for inner in paragraphs:
        body.insert(len(body) - 1, parse_xml(f"<w:p {NS}>{inner}</w:p>"))
    if footnotes:
        notes = "".join(f'<w:footnote w:id="{k}"><w:p>{inner}</w:p></w:footnote>'
                        for k, inner in enumerate(footnotes, start=1))
        xml = (f'<w:footnotes {NS}><w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p>'
               f'</w:footnote>{notes}</w:footnotes>').encode()
        part = Part(PackURI("/word/footnotes.xml"),
                    "application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml", xml,
                    document.part.package)
        document.part.relate_to(part, RT.FOOTNOTES)
        for k in range(1, len(footnotes) + 1):
            body.insert(len(body) - 1, parse_xml(f'<w:p {NS}>{run_xml("See the note.")}'
                                                 f'<w:r><w:footnoteReference w:id="{k}"/></w:r></w:p>'))
    document.save(path)
    return path


def check(corpus_dir: Path, path: Path, *options) -> tuple[object, Path]:
    out = path.with_name(path.stem + ".checked.docx")
    before = path.read_bytes()
    outcome = invoke("verify", corpus_dir, path, "-o", out, "--no-embed", "--no-cache", *options)
    assert path.read_bytes() == before  # the draft is never changed
    return outcome, out


def texts_by_quote(out: Path) -> dict[str, str]:
    return {text.split(":")[0].removeprefix(f"{AUTHOR} "): text for author, text in comments(out).values()
            if author == AUTHOR}


def test_quotes_split_across_runs_keep_their_formatting(corpus_dir: Path, tmp_path: Path) -> None:
    path = draft(tmp_path / "paper.docx", [
        run_xml("Maria recalled: “We lost ") + run_xml("50", "<w:b/>") + run_xml(" volunteers in the first", "<w:i/>")
        + run_xml(" month” (Maria).")])
    outcome, out = check(corpus_dir, path)
    assert outcome.exit_code == 0, outcome.output
    body = docx.Document(out).element.body
    (inserted,) = [e for e in body.iter(w("ins"))]
    assert wordml.paragraph_text(inserted) == "15" and inserted.find(f".//{w('b')}") is not None  # bold, as "50"
    old, new = wordml.paragraphs(docx.Document(path).element.body), wordml.paragraphs(rejected(body))
    assert [styled(p) for p in old] == [styled(p) for p in new]
    assert collapsed(list(anchors(body).values())[0]) == "We lost 50 volunteers in the first month"
    assert wordml.paragraph_text(wordml.paragraphs(body)[0]) == \
        "Maria recalled: “We lost 15 volunteers in the first month” (Maria)."


def test_a_draft_with_tracked_changes_is_read_as_accepted_and_theirs_are_not_changed(corpus_dir: Path,
                                                                                     tmp_path: Path) -> None:
    theirs = 'w:id="90" w:author="Co-author" w:date="2026-01-02T00:00:00Z"'
    path = draft(tmp_path / "paper.docx", [
        run_xml("Maria recalled: “We lost ") + f'<w:ins {theirs}>{run_xml("50")}</w:ins>'
        + f'<w:del w:id="91" w:author="Co-author" w:date="2026-01-02T00:00:00Z"><w:r><w:delText>15</w:delText>'
          '</w:r></w:del>' + run_xml(" volunteers in the first month” (Maria)."),
        run_xml("James said “The training was useful, but it was far too long” (James).")])
    outcome, out = check(corpus_dir, path)
    assert outcome.exit_code == 0, outcome.output
    assert f"Warning: {path}: has tracked changes; its quotes are read as the text reads with every change " \
           "accepted\n" in outcome.stderr
    assert (f"{out}: 2 comments, 1 fix as tracked changes; q1's fix is in its comment, not made: the text it "
            "changes is a field's result, a content control or another author's tracked change; make the change "
            "by hand\n") in outcome.stderr
    texts = texts_by_quote(out)
    assert "Number differs: quote says '50', source says '15'." in texts["q1"]
    assert "Suggested quotation: “We lost 15 volunteers in the first month”" in texts["q1"]
    body = docx.Document(out).element.body
    assert [(e.tag, e.get(w("author"))) for e in body.iter(w("ins"), w("del"))] == [
        (w("ins"), "Co-author"), (w("del"), "Co-author"), (w("del"), AUTHOR), (w("ins"), AUTHOR)]


def test_fields_are_read_as_shown_and_never_changed(corpus_dir: Path, tmp_path: Path) -> None:
    path = draft(tmp_path / "paper.docx", [
        run_xml("Maria said “The committee did not approve the budget until ") + field_xml("DOCPROPERTY Month", "May")
        + run_xml("” (Maria)."),
        run_xml("James said “The training was useful, but it was far too short” ")
        + field_xml("ADDIN ZOTERO_ITEM CSL_CITATION {}", "(Smith, 2019, p. 4)") + run_xml("."),
        '<w:fldSimple w:instr=" AUTHOR "><w:r><w:t>Aisha</w:t></w:r></w:fldSimple>'
        + run_xml(" said “The water came up so fast. By noon the whole ground floor was gone” (Aisha).")])
    outcome, out = check(corpus_dir, path)
    assert outcome.exit_code == 0, outcome.output
    assert f"; skipped 0 quoted phrases under 5 words and 1 citation of the literature" in outcome.stderr
    texts = texts_by_quote(out)
    assert list(texts) == ["q1", "q2"]
    assert "Suggested quotation: “The committee did not approve the budget until March”" in texts["q1"]
    assert "q1's fix is in its comment, not made" in outcome.stderr
    assert texts["q2"].startswith("quoteverify q2: verified")
    fields = [e for e in docx.Document(out).element.body.iter(w("instrText"))]
    assert [f.text for f in fields] == [" DOCPROPERTY Month ", " ADDIN ZOTERO_ITEM CSL_CITATION {} "]


def test_quotes_in_footnotes_are_checked_and_noted_there(corpus_dir: Path, tmp_path: Path) -> None:
    path = draft(tmp_path / "paper.docx", [run_xml("James said “The training was useful, but it was far too short” "
                                                   "(James).")],
                 footnotes=[run_xml("Maria put it plainly: “We lost 50 volunteers in the first month” (Maria).")])
    outcome, out = check(corpus_dir, path)
    assert outcome.exit_code == 0, outcome.output
    assert f"{out}: 2 comments, 1 fix as tracked changes\n" in outcome.stderr
    document = docx.Document(out)
    (notes,) = [wordml.parse_part(p) for p in wordml.note_parts(document).values()]
    texts = texts_by_quote(out)
    assert texts["q2"].startswith("quoteverify q2: review, high")
    covered = anchors(notes)
    assert [collapsed(t) for t in covered.values()] == ["We lost 50 volunteers in the first month"]
    (note,) = wordml.notes(accepted(notes))
    assert "We lost 15 volunteers" in wordml.paragraph_text(note.find(w("p")))
    assert len(list(notes.iter(w("ins")))) == 1


@pytest.mark.parametrize(("head", "message"), [
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 500 + "EncryptionInfo".encode("utf-16-le") + b"\0" * 500,
     "is protected with a password (Word encrypts such a .docx); save a copy without the password (File > Info > "
     "Protect Document > Encrypt with Password, cleared) and give that"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 1000, "is a Word 97-2003 document (.doc) named .docx; save it "
     "from Word as .docx"),
])
def test_a_draft_that_cannot_be_opened_is_said_so(corpus_dir: Path, tmp_path: Path, head: bytes,
                                                   message: str) -> None:
    path = tmp_path / "paper.docx"
    path.write_bytes(head)
    outcome, out = check(corpus_dir, path)
    assert outcome.exit_code == 2
    assert outcome.stderr == f"Error: {path}: {message}\n"
    assert not out.exists()


def test_the_checked_manuscript_never_replaces_its_draft(corpus_dir: Path, tmp_path: Path) -> None:
    path = draft(tmp_path / "paper.docx", [run_xml("James said “The training was useful, but it was far too short” "
                                                   "(James).")])
    before = path.read_bytes()
    cases = [
        (["-o", path], f"-o {path}: is the manuscript this run reads and would be replaced; give the output another "
                       "name"),
        (["-o", tmp_path / "paper.checked.md"], f"-o {tmp_path / 'paper.checked.md'}: the checked manuscript is "
                                                "written in its draft's format; name it paper.checked.docx"),
        (["-o", tmp_path / "out.docx", "--notes", "todo"], f"--notes todo is for a .tex draft, not {path}; leave it "
                                                           "out (comments)"),
    ]
    for args, message in cases:
        outcome = invoke("verify", corpus_dir, path, *args, "--no-embed", "--no-cache")
        assert (outcome.exit_code, outcome.stderr) == (2, f"Error: {message}\n")
    table = tmp_path / "quotes.csv"
    table.write_text("quote\nThe training was useful\n", encoding="utf-8")
    outcome = invoke("verify", corpus_dir, table, "-o", tmp_path / "out.docx", "--no-embed", "--no-cache")
    assert outcome.stderr == (f"Error: -o {tmp_path / 'out.docx'}: a .docx output is the checked manuscript, written "
                              "back into the draft the quotes come from; give the draft (.docx, .md, .tex) as QUOTES\n")
    checked_once = tmp_path / "paper.checked.docx"
    assert invoke("verify", corpus_dir, path, "-o", checked_once, "--no-embed", "--no-cache").exit_code == 0
    outcome = invoke("verify", corpus_dir, checked_once, "-o", tmp_path / "again.docx", "--no-embed", "--no-cache")
    assert outcome.stderr == (f"Error: {checked_once}: holds 1 note of an earlier check by quoteverify (a checked "
                              "manuscript?); check the draft itself, or take those notes out first\n")
    assert path.read_bytes() == before


@pytest.mark.parametrize("encoding", ["cp1252", "utf-16", "utf-8-sig"])
def test_a_text_draft_keeps_its_encoding(corpus_dir: Path, tmp_path: Path, encoding: str) -> None:
    text = ("# Café\r\n\r\nJames said “The training was useful, but it was far too short” (James), and Maria "
            "“We lost 50 volunteers in the first month” (Maria).\r\n")
    path = tmp_path / "paper.md"
    path.write_bytes(text.encode(encoding))
    out = tmp_path / "paper.checked.md"
    outcome = invoke("verify", corpus_dir, path, "-o", out, "--no-embed", "--no-cache")
    assert outcome.exit_code == 0, outcome.output
    written = out.read_bytes().decode(encoding)
    assert _unnoted_markdown(written) == text
    assert "Suggested quotation: “We lost 15 volunteers in the first month”" in written


def test_a_run_on_a_draft_is_rerun_from_its_manifest(corpus_dir: Path, tmp_path: Path) -> None:
    path = tmp_path / "paper.md"
    path.write_text("Maria said “We lost 50 volunteers in the first month” (Maria).\n", encoding="utf-8")
    out, manifest = tmp_path / "paper.checked.md", tmp_path / "run.json"
    first = invoke("verify", corpus_dir, path, "-o", out, "--manifest", manifest, "--no-embed", "--no-cache")
    assert first.exit_code == 0, first.output
    written = out.read_bytes()
    out.unlink()
    again = invoke("rerun", manifest)
    assert again.exit_code == 0, again.output
    assert "Results are identical to the recorded run" in again.stderr
    assert out.read_bytes() == written


def test_todo_notes_without_todonotes_are_warned_of(corpus_dir: Path, tmp_path: Path) -> None:
    path = tmp_path / "paper.tex"
    path.write_text("\\documentclass{article}\n\\begin{document}\nShe said ``We lost 50 volunteers in the first "
                    "month''~(Maria).\n\\end{document}\n", encoding="utf-8")
    out = tmp_path / "paper.checked.tex"
    outcome = invoke("verify", corpus_dir, path, "-o", out, "--notes", "todo", "--no-embed", "--no-cache")
    assert outcome.exit_code == 0, outcome.output
    assert (f"Warning: {out}: its preamble loads no todonotes package, which \\todo{{}} needs: add "
            "\\usepackage{todonotes}\n") in outcome.stderr
    assert "\\todo{quoteverify q1: review, high: " in out.read_text(encoding="utf-8")
