"""Write the example's paper draft three ways: paper.docx, paper.md and paper.tex.

Every quote of quotes.csv stands in a paragraph of findings with its participant tag, as a paper prints it
(Q13 as a block quote, Q17 without a tag, as its row names no speaker); around them, a title, a methods
paragraph with a scare quote and a quote of the literature (which quoteverify leaves out), and in the .docx
a comment of a co-author. Run it from the repository's root after changing quotes.csv:

    python data/example/make_drafts.py
"""
from __future__ import annotations

import csv
from datetime import datetime, timezone
from pathlib import Path

HERE = Path(__file__).resolve().parent
TITLE = "Night shifts, remote classes and junior water rights"
METHODS = ("We interviewed a ward nurse (P3), a secondary teacher (Maria) and a hay farmer (Dale). "
           "Earlier work calls such accounts “stories of making do” (Okafor, 2019, p. 12); we call them "
           "“coping” only in a loose sense.")
# Each finding: its heading, and its paragraphs as (text before, quote id, text after) or a block quote ("block").
FINDINGS = (
    ("Nights", [
        ("Night work changes what counts as care. As P3 put it,", "Q01", ""),
        ("Priorities were set by the hour:", "Q20", "The small hours were different again:"),
        ("", "Q04", ""),
        ("The end of a shift did not end it:", "Q06", ""),
        ("Staffing was counted, not guessed:", "Q08", "Help, when it was called, was slow:"),
        ("", "Q18", ""),
        ("Support was a matter of who said so.", "Q10", ""),
        ("Asked who would cover, P3 asked back:", "Q21", ""),
        ("Even the interviewer thought that", "Q19", ""),
    ]),
    ("Remote classes", [
        ("Presence in class became a chat message:", "Q02", ""),
        ("Access was unequal:", "Q05", ""),
        ("The strain was hard to name:", "Q07", ""),
        ("Maria was clear about going back:", "Q09", ""),
        ("What the chat gave and took:", "Q11", ""),
        ("What she missed most was the room itself.", "block:Q13", ""),
        ("Families made do.", "Q15", ""),
    ]),
    ("Water", [
        ("The season starts with a schedule:", "Q03", ""),
        ("Seniority decides who waters:", "Q14", ""),
        ("Shortage forced choices:", "Q12", ""),
        ("The state's part was remembered differently:", "Q16", ""),
        ("As one farmer summed it up,", "Q17", ""),
    ]),
)
COMMENT = ("Co-author", "Cite the 2019 study here as well?")


def _quotes() -> dict[str, dict[str, str]]:
    with open(HERE / "quotes.csv", encoding="utf-8", newline="") as handle:
        return {row["quote_id"]: row for row in csv.DictReader(handle)}


def _inline(quote: str, *, tex: bool = False) -> str:
    """The quote as printed: a quotation inside it in single marks; in LaTeX, TeX's marks and \\ldots."""
    quote = quote.replace("“", "‘").replace("”", "’")
    if tex:
        quote = quote.replace("...", "\\ldots{}").replace("‘", "`").replace("’", "'")
        return f"``{quote}''"
    return f"“{quote}”"


def _tag(row: dict[str, str], *, tex: bool = False) -> str:
    return f"{'~' if tex else ' '}({row['speaker']})" if row["speaker"] else ""


def _paragraphs(*, tex: bool = False):
    """(kind, text) in order: "heading", "paragraph", "block" and "tag" (the tag after a block quote)."""
    quotes = _quotes()
    yield "paragraph", METHODS.replace("“", "``").replace("”", "''") if tex else METHODS
    for heading, paragraphs in FINDINGS:
        yield "heading", heading
        for before, qid, after in paragraphs:
            if qid.startswith("block:"):
                row = quotes[qid.split(":")[1]]
                yield "paragraph", before
                yield "block", row["quote"].replace("...", "\\ldots{}") if tex else row["quote"]
                yield "tag", f"{'---' if tex else '—'} {row['speaker']}"
                continue
            row = quotes[qid]
            text = f"{before} {_inline(row['quote'], tex=tex)}{_tag(row, tex=tex)}.".strip()
            yield "paragraph", f"{text} {after}".strip()


def markdown() -> str:
    lines = [f"# {TITLE}", ""]
    for kind, text in _paragraphs():
        lines += {"heading": [f"## {text}"], "block": [f"> {text}"], "tag": [f"> {text}"]}.get(kind, [text])
        lines += [">"] if kind == "block" else [""]
    return "\n".join(lines).rstrip("\n") + "\n"


def latex() -> str:
    lines = ["\\documentclass{article}", "\\usepackage[utf8]{inputenc}", "\\usepackage{todonotes}",
             f"\\title{{{TITLE}}}", "\\begin{document}", "\\maketitle", ""]
    for kind, text in _paragraphs(tex=True):
        if kind == "heading":
            lines += [f"\\section{{{text}}}", ""]
        elif kind == "block":
            lines += ["\\begin{quote}", text]
        elif kind == "tag":
            lines += [text, "\\end{quote}", ""]
        else:
            lines += [text, ""]
    return "\n".join([*lines, "\\end{document}"]) + "\n"


def word(path: Path) -> None:
    import docx

    document = docx.Document()
    document.core_properties.created = document.core_properties.modified = datetime(2026, 1, 5, tzinfo=timezone.utc)
    document.add_heading(TITLE, level=1)
    for kind, text in _paragraphs():
        if kind == "heading":
            document.add_heading(text, level=2)
        elif kind == "block":
            document.add_paragraph(text, style="Quote")
        else:
            paragraph = document.add_paragraph(text)
            if text.startswith("We interviewed"):
                comment = document.add_comment(paragraph.runs[0], text=COMMENT[1], author=COMMENT[0], initials="CA")
                comment._comment_elm.set(
                    "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}date", "2026-01-05T10:00:00Z")
    document.save(path)


if __name__ == "__main__":
    (HERE / "paper.md").write_text(markdown(), encoding="utf-8")
    (HERE / "paper.tex").write_text(latex(), encoding="utf-8")
    word(HERE / "paper.docx")
    print("Wrote paper.md, paper.tex and paper.docx in", HERE)
