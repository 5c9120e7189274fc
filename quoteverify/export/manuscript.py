r"""The checked manuscript: the author's own draft back, the same in every other respect, with a note at each
quote and the corrected quotations proposed as tracked changes.

    quoteverify verify transcripts/ paper.docx -o paper.checked.docx

- .docx: one Word comment anchored on exactly each quote's text (python-docx's comments API), and each fix
  as a tracked change (w:del and w:ins, by ``NoteOptions.author`` at the run's time) that Word's Accept and
  Reject act on. The draft's text, styles and comments are kept as they are; a quote's runs are only split
  where a comment or a change starts or ends, each half keeping its formatting.
- .md: an HTML comment after each quote (or a footnote, ``style="footnote"``).
- .tex: a ``%`` comment line after the line where each quote ends (or ``\todo{}`` after the quote,
  ``style="todo"``, for the todonotes package).

A note holds the quote id (the workbook's and the review page's), the status and severity, the reasons,
where the passage is (document, speaker, page and line or timestamp, which of its places) and the fix, if
any. A text manuscript gets no tracked changes: its note gives the corrected quotation instead. Renderers
take results as data: the places (model.manuscript.Spot) and fixes come from quoteverify.app.
"""
from __future__ import annotations

import codecs
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from ..model.decoders import bom_encoding, decode_text
from ..model.errors import InputError, OutputError
from ..model.manuscript import MANUSCRIPT_FORMATS, Fix, NoteOptions, Spot
from ..model.text import other_places, plural
from ..model.types import QuoteResult
from ..plumbing import wordml
from ..plumbing.archive import ArchiveLimits, check_archive
from ..plumbing.transaction import write_bytes_atomic, write_output
from .appendix import cited_page

# Said at the start of every note, and how a draft that holds them already is told.
NOTE_MARK = "quoteverify"


@dataclass(frozen=True)
class Entry:
    """One quote to note: its result, where it stands, and its fix (None: not in review, or fixes off)."""

    result: QuoteResult
    spot: Spot
    fix: Fix | None = None


@dataclass(frozen=True)
class Written:
    """What a checked manuscript holds: its notes, its fixes made as tracked changes, and the fixes that could
    not be (by quote id: why)."""

    path: Path
    notes: int
    changes: int
    not_made: tuple[tuple[str, str], ...] = ()
    warnings: tuple[str, ...] = ()

    def summary(self) -> str:
        kind = "comment" if self.path.suffix.lower() == ".docx" else "note"
        said = f"{self.path}: {plural(self.notes, kind)}"
        if self.path.suffix.lower() == ".docx":
            said += f", {plural(self.changes, 'fix', 'fixes')} as tracked changes"
        return said + "".join(f"; {qid}'s fix is in its comment, not made: {why}" for qid, why in self.not_made)


# ------------------------------------------------------------------ the note

def _sentence(text: str) -> str:
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "?", "!")) else ".")


def _location(result: QuoteResult) -> str:
    """Where the passage is: document, speaker, page and line or timestamp, and which of its places."""
    line = f"line {result.line}" if result.line is not None else ""
    page = f"{result.cite} (page:line)" if result.cite else ", ".join(filter(None, (cited_page(result), line)))
    where = ", ".join(filter(None, (result.document, result.speaker, page, result.timestamp)))
    n = result.occurrences
    if n < 1:
        return where
    among = f"1 of {plural(n, 'place')}"
    speaker = result.claimed_speaker or result.speaker
    if n > 1 and speaker and result.speaker_occurrences is not None:
        among += f", {result.speaker_occurrences} in {speaker}'s turns"
    others = other_places(result.other_lines, n)
    return f"{where} ({among}{f'; the others at {others}' if others else ''})"


def _status(result: QuoteResult) -> str:
    if result.status == "review" and result.p_change is not None:
        odds = f"{result.p_change:.0%} likely a change of meaning"
        return f"review, {result.severity}: {odds} ({result.match_type})"
    return f"{result.status} ({result.match_type})"


def note_lines(entry: Entry, options: NoteOptions, *, tracked: bool) -> list[str]:
    """The note at a quote, one line per paragraph; [] for a verified quote when options.verified is "none".
    ``tracked``: the fix is made as a tracked change (a .docx), else its quotation is given in the note."""
    result, fix = entry.result, entry.fix
    if result.status == "verified":
        if options.verified == "none":
            return []
        return [f"{NOTE_MARK} {result.quote_id}: verified ({result.match_type}) in {_location(result)}."]
    lines = [f"{NOTE_MARK} {result.quote_id}: {_status(result)}."]
    lines += [_sentence(reason) for reason in result.reasons]
    if result.document:
        lines.append(f"Source: {_location(result)}.")
    if result.suggestion and result.status == "unverified":
        lines.append(_sentence(f"Closest passage: {result.suggestion}"))
    if fix is not None and fix.quote:
        how = "Fix, as a tracked change" if tracked else "Suggested quotation"
        opening, closing = entry.spot.marks
        shown = fix.quote if entry.spot.block else f"{opening or '“'}{fix.quote}{closing or '”'}"
        lines.append(f"{how}: {shown}" + (f" ({fix.speaker})" if fix.speaker else "") + f" — {fix.why}.")
    elif fix is not None:
        lines.append(_sentence(fix.why))
    lines.append(f"Decide it in the workbook or on the review page: quote id {result.quote_id}.")
    return lines


# ------------------------------------------------------------------ .docx

@dataclass
class _Draft:
    """A .docx opened for writing: its stories' paragraphs, and the notes' parts changed."""

    document: object
    paragraphs: dict[str, list]
    notes: dict[str, tuple[object, object]]  # story -> (part, parsed root)


def _open_docx(draft: Path, limits: ArchiveLimits) -> _Draft:
    # python-docx (and lxml under it) is needed only for a .docx manuscript.
    import docx

    data = draft.read_bytes()
    check_archive(draft, data, limits)
    document = docx.Document(io.BytesIO(data))
    notes = {story: (part, wordml.parse_part(part)) for story, part in wordml.note_parts(document).items()}
    paragraphs = {"body": wordml.paragraphs(document.element.body)}
    paragraphs.update({story: wordml.paragraphs(root) for story, (_, root) in notes.items()})
    return _Draft(document, paragraphs, notes)


def _blocked(draft: _Draft, fix: Fix) -> str:
    """Why a fix cannot be made as tracked changes ('' when it can)."""
    for edit in fix.edits:
        paragraph = draft.paragraphs[edit.span.story][edit.span.paragraph]
        if not wordml.editable(paragraph, edit.span.start, edit.span.end):
            return ("the text it changes is a field's result, a content control or another author's tracked "
                    "change; make the change by hand")
    return ""


def _comment(draft: _Draft, entry: Entry, lines: list[str], options: NoteOptions, date: str) -> None:
    comment = draft.document.comments.add_comment(text="\n".join(lines), author=options.author,  # type: ignore[attr-defined]
                                                  initials="QV")
    comment._comment_elm.set(wordml.w("date"), date)
    span = entry.spot.quote
    wordml.mark_comment(draft.paragraphs[span.story][span.paragraph], span.start, span.end, comment.comment_id)


def _changes(draft: _Draft, fixes: list[tuple[Entry, Fix]], revision: wordml.Revision) -> None:
    """Every fix's edits, paragraph by paragraph from the last character to the first."""
    edits = [(edit, entry.spot) for entry, fix in fixes for edit in fix.edits]
    edits.sort(key=lambda e: (e[0].span.story, e[0].span.paragraph, e[0].span.start, e[0].span.end), reverse=True)
    for edit, spot in edits:
        span = edit.span
        lean = "after" if span.start == span.end == spot.quote.start else "before"
        wordml.replace_tracked(draft.paragraphs[span.story][span.paragraph], span.start, span.end, edit.text,
                               revision, lean=lean)


def _write_docx(path: Path, draft_path: Path, entries: list[Entry], options: NoteOptions, date: str,
                limits: ArchiveLimits) -> Written:
    draft = _open_docx(draft_path, limits)
    fixed: list[tuple[Entry, Fix]] = []
    not_made: list[tuple[str, str]] = []
    notes = 0
    for entry in entries:
        fix = entry.fix if options.fixes else None
        why = _blocked(draft, fix) if fix is not None and fix.edits else ""
        if why:
            not_made.append((entry.result.quote_id, why))
        elif fix is not None and fix.edits:
            fixed.append((entry, fix))
        lines = note_lines(Entry(entry.result, entry.spot, fix), options, tracked=not why)
        if lines:
            _comment(draft, entry, lines, options, date)
            notes += 1
    roots = [draft.document.element, *(root for _, root in draft.notes.values())]  # type: ignore[attr-defined]
    _changes(draft, fixed, wordml.Revision(options.author, date, wordml.next_ids(*roots)))
    for story, (part, root) in draft.notes.items():
        if any(e.spot.quote.story == story for e in entries):
            part._blob = _xml_bytes(root)  # type: ignore[attr-defined]
    write_output(path, draft.document.save)  # type: ignore[attr-defined]
    return Written(path, notes, len(fixed), tuple(not_made))


def _xml_bytes(root) -> bytes:
    # lxml (under python-docx) is needed only for a .docx manuscript.
    from lxml import etree

    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)


# ------------------------------------------------------------------ .md and .tex

def _markdown_note(lines: list[str]) -> str:
    # "--" may not stand inside an HTML comment.
    return "<!-- " + " ".join(lines).replace("--", "- -") + " -->"


_TODONOTES = re.compile(r"\\usepackage\s{0,20}(?:\[[^\]]{0,200}\])?\s{0,20}\{[^}]{0,200}\btodonotes\b")
_TEX_SPECIAL = re.compile(r"([\\{}$&#^_%~])")
_TEX_ESCAPES = {"\\": r"\textbackslash{}", "^": r"\^{}", "~": r"\~{}"}


def _tex_escaped(text: str) -> str:
    return _TEX_SPECIAL.sub(lambda m: _TEX_ESCAPES.get(m[1], "\\" + m[1]), text)


def _text_notes(text: str, entries: list[Entry], options: NoteOptions, suffix: str) -> Iterator[tuple[int, str]]:
    """(offset, note) to insert into a text manuscript, in the order of the entries."""
    newline = "\r\n" if "\r\n" in text else "\n"
    for entry in entries:
        lines = note_lines(entry, options, tracked=False)
        if not lines:
            continue
        after = entry.spot.after
        if suffix == ".md" and options.style == "footnote":
            yield after, f"[^{NOTE_MARK}-{entry.result.quote_id}]"
        elif suffix == ".md":
            yield after, _markdown_note(lines)
        elif options.style == "todo":
            yield after, "\\todo{" + _tex_escaped(" ".join(lines)) + "}"
        else:
            end = text.find("\n", after)
            comment = newline.join(f"% {line}" for line in lines)
            yield (len(text), newline + comment) if end < 0 else (end + 1, comment + newline)


def _footnotes(text: str, entries: list[Entry], options: NoteOptions) -> str:
    """The Markdown footnotes' text, appended at the end of the manuscript."""
    newline = "\r\n" if "\r\n" in text else "\n"
    notes = [f"[^{NOTE_MARK}-{e.result.quote_id}]: " + " ".join(lines)
             for e in entries if (lines := note_lines(e, options, tracked=False))]
    if not notes:
        return ""
    return ("" if text.endswith(("\n", "\r")) or not text else newline) + newline + newline.join(notes) + newline


def _encoded(data: bytes, chunks: list[tuple[str, bool]]) -> bytes:
    """The manuscript's text in its own encoding (its byte-order mark kept); a note's character the encoding
    cannot hold becomes '?'."""
    text, encoding = decode_text(Path("manuscript"), data, [])
    prefix = b""
    if bom_encoding(data) is not None:
        prefix = next(b for b in (codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE, codecs.BOM_UTF16_LE,
                                  codecs.BOM_UTF16_BE) if data.startswith(b))
        encoding += "-le" if prefix in (codecs.BOM_UTF32_LE, codecs.BOM_UTF16_LE) else "-be"
    return prefix + b"".join(chunk.encode(encoding, errors="replace" if note else "strict")
                             for chunk, note in chunks)


def _write_text(path: Path, draft_path: Path, entries: list[Entry], options: NoteOptions) -> Written:
    data = draft_path.read_bytes()
    text, _ = decode_text(draft_path, data, [])
    body = text.removeprefix("\ufeff")
    lead = text[:len(text) - len(body)]
    suffix = draft_path.suffix.lower()
    inserts = sorted(_text_notes(body, entries, options, suffix), key=lambda n: n[0])
    chunks: list[tuple[str, bool]] = [(lead, False)]
    at = 0
    for offset, note in inserts:
        chunks += [(body[at:offset], False), (note, True)]
        at = offset
    chunks.append((body[at:], False))
    if suffix == ".md" and options.style == "footnote":
        chunks.append((_footnotes(body, entries, options), True))
    write_bytes_atomic(path, _encoded(data, chunks))
    warnings: tuple[str, ...] = ()
    if suffix == ".tex" and options.style == "todo" and inserts and not _TODONOTES.search(body):
        warnings = ("its preamble loads no todonotes package, which \\todo{} needs: add \\usepackage{todonotes}",)
    return Written(path, len(inserts), 0, warnings=warnings)


# ------------------------------------------------------------------ the checked manuscript

def write_checked(path: str | Path, draft: str | Path, entries: list[Entry], *, options: NoteOptions,
                  limits: ArchiveLimits | None = None) -> Written:
    """Write the checked manuscript of ``draft`` to ``path`` (never over the draft: the caller's guard says so):
    a note at each entry's quote and, in a .docx, its fix as tracked changes."""
    path, draft = Path(path), Path(draft)
    check_checked_output(path, draft)
    when = options.date or datetime.now(timezone.utc)
    date = when.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    if draft.suffix.lower() == ".docx":
        return _write_docx(path, draft, entries, options, date, limits or ArchiveLimits.of())
    return _write_text(path, draft, entries, options)


def check_checked_output(output: Path, draft: Path | None) -> None:
    """Refuse a checked manuscript in another format than its draft's, or without a draft."""
    suffix = output.suffix.lower()
    if draft is None or draft.suffix.lower() not in MANUSCRIPT_FORMATS:
        raise OutputError(f"-o {output}: a {suffix} output is the checked manuscript, written back into the draft "
                          f"the quotes come from; give the draft ({', '.join(MANUSCRIPT_FORMATS)}) as QUOTES")
    if suffix != draft.suffix.lower():
        raise OutputError(f"-o {output}: the checked manuscript is written in its draft's format; name it "
                          f"{draft.stem}.checked{draft.suffix.lower()}")


def checked_already(draft: Path, *, author: str, limits: ArchiveLimits | None = None) -> None:
    """Refuse a draft that holds the notes of an earlier check (a checked manuscript given as the draft): its
    notes would be noted again."""
    suffix = draft.suffix.lower()
    if suffix == ".docx":
        document = _open_docx(draft, limits or ArchiveLimits.of()).document
        held = len([c for c in document.comments if c.author == author])  # type: ignore[attr-defined]
    else:
        text, _ = decode_text(draft, draft.read_bytes(), [])
        held = len(re.findall(rf"(?:<!-- |^% |\[\^|\\todo\{{){NOTE_MARK}[ -]q", text, re.MULTILINE))
    if held:
        raise InputError(f"{draft}: holds {plural(held, 'note')} of an earlier check by {author} (a checked "
                         "manuscript?); check the draft itself, or take those notes out first")
