"""The author's manuscript as the quote source of a run, and the corrected quotations it is given back.

    quoteverify verify transcripts/ paper.docx -o paper.checked.docx

``read_manuscript`` reads the quotes as ``quoteverify extract`` does (ids q1, q2, ... in the order of the
draft; the participant tag as the claimed speaker; where each stands as its context) into the quote table of
a run, and keeps each quote's place for the checked manuscript (quoteverify.export.manuscript).

``propose_fixes`` finds, for each quote in review whose source passage is known, the corrected quotation:
the source's words, with the author's harmless edits kept (case, quotation marks, fillers left out, benign
brackets) and an ellipsis where the author left words out. Candidates are tried in order, each one checked
again against the same documents, and the first that is verified is proposed:

1. the quote with each difference that matters put back to the source's words, words left out without an
   ellipsis marked with one, the author's own ellipses kept;
2. the source passage itself, the author's ellipses filled in (harmless edits still kept);
3. the whole sentences the passage stands in (the rest of a cut sentence may turn the quote);
4. for passages spliced together from apart: two quotations, each verified on its own.

A quote attributed to another speaker than the one who says its words gets the speaker's name in its tag.
No candidate verified: no fix, and the reason why.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from difflib import SequenceMatcher
from pathlib import Path

from ..model.config import Config
from ..model.lexicon import straight
from ..model.manuscript import Edit, Fix, Span, Spot
from ..model.text import plural
from ..model.types import BENIGN, Document, QuoteResult, Run
from ..pipeline.stages import run as run_check
from ..plumbing.archive import ArchiveLimits
from ..sources.documents import sha256_bytes
from ..sources.quotes import LoadedQuotes, quotes_from_records
from ..sources.tokenize import TOKEN
from .extract import QUOTE_TABLE_COLUMNS, Extraction, extract_quotes


@dataclass(frozen=True)
class Manuscript:
    """A draft read as a quote table: its quotes (``quotes``, for the run) and where each stands."""

    path: Path
    extraction: Extraction
    quotes: LoadedQuotes

    @property
    def spots(self) -> dict[str, Spot]:
        return {q.quote_id: q.spot for q in self.extraction.quotes if q.spot is not None}


def read_manuscript(path: str | Path, *, min_words: int, limits: ArchiveLimits | None = None) -> Manuscript:
    """The quotes of a draft (.docx, .md, .tex) as the quote table of a run: one row per quote, numbered from 1
    in the draft's order; the summary of what was read and skipped as the table's ``info``."""
    path = Path(path)
    extraction = extract_quotes(path, min_words=min_words, limits=limits)
    header = list(QUOTE_TABLE_COLUMNS)
    records = [(n, {"quote_id": q.quote_id, "quote": q.quote, "speaker": q.speaker, "context": q.context})
               for n, q in enumerate(extraction.quotes, start=1)]
    quotes, warnings = quotes_from_records(records, header, str(path), limits=limits)
    if not quotes:
        warnings.append(f"{path}: no quoted passage found (quotes in “...” or \"...\" with a participant tag such "
                        "as (P3), or block quotes); nothing to check")
    loaded = LoadedQuotes(tuple(quotes), tuple(header), sha256_bytes(path.read_bytes()),
                          (*extraction.warnings, *warnings), info=extraction.summary())
    return Manuscript(path, extraction, loaded)


# ------------------------------------------------------------------ tokens

_APOSTROPHE = str.maketrans("’", "'")  # read as a straight one inside a word, in as many characters
_WHOLE = re.compile(r"\[[^\[\]\n]{0,200}\]|\.\.\.")  # read as one token each
_MARKS = str.maketrans({"“": '"', "”": '"', "„": '"', "«": '"', "»": '"', "‘": "'", "’": "'", "…": "..."})
_ELLIPSIS = "..."
# What a quote may differ by and still be the author's harmless edit, kept in a corrected quotation; a typo
# is not an edit and is corrected.
_KEPT = BENIGN | {"disfluency", "contraction"}
_LOAD_BEARING = {"number", "negation", "name"}
# Signs written against the word before them, and after them.
_CLOSING = set(",.;:!?)]}”’»")
_OPENING = set("([{“‘«")


@dataclass(frozen=True)
class _Token:
    text: str
    start: int   # of the word itself, in its text
    end: int
    space: str   # the white space before it

    @property
    def key(self) -> str:
        return straight(self.text).translate(_MARKS)


def _tokens(text: str) -> list[_Token]:
    """Words (with an apostrophe inside), an ellipsis, a [bracket] and single signs; each with the space before
    it."""
    whole = {m.start(): m.end() for m in _WHOLE.finditer(text)}
    spans: list[tuple[int, int]] = []
    for m in TOKEN.finditer(text.translate(_APOSTROPHE)):
        if spans and m.start() < spans[-1][1]:
            continue  # inside a bracket or an ellipsis already taken whole
        spans.append((m.start(), whole.get(m.start(), m.end())))
    tokens, at = [], 0
    for start, end in spans:
        tokens.append(_Token(text[start:end], start, end, text[at:start]))
        at = end
    return tokens


def _key(text: str) -> str:
    return " ".join(t.key for t in _tokens(text))


def _joined(chunks: list[str]) -> str:
    """Chunks of quotation joined by a space, except before a closing sign and after an opening one."""
    out = ""
    for chunk in chunks:
        chunk = " ".join(chunk.split())
        if not chunk:
            continue
        if out and chunk[0] not in _CLOSING and out[-1] not in _OPENING:
            out += " "
        out += chunk
    return out


# ------------------------------------------------------------------ candidates

@dataclass(frozen=True)
class _Merge:
    """How a candidate treats what the author left out: ``gaps`` words left out without an ellipsis (marked
    with one, or put back), ``ellipses`` the author's own (kept, or filled in with the source's words)."""

    gaps: str        # "ellipsis" or "source"
    ellipses: str    # "kept" or "source"


def _harmless(result: QuoteResult) -> tuple[set[tuple[str, str]], set[str]]:
    """The differences of a result that are the author's harmless edits (as pairs of quote and source text),
    and the source words whose change is load-bearing."""
    kept = {(_key(d.quote_text), _key(d.source_text)) for d in result.differences if d.kind in _KEPT}
    bearing = {_key(d.source_text) for d in result.differences if d.kind in _LOAD_BEARING and d.source_text}
    return kept, bearing


def _merged(quote: str, source: str, result: QuoteResult, how: _Merge) -> str:
    """The corrected quotation: the source's words, with the quote's harmless edits kept (see _Merge)."""
    q, s = _tokens(quote), _tokens(source)
    kept, bearing = _harmless(result)
    chunks: list[str] = []
    matcher = SequenceMatcher(None, [t.key for t in q], [t.key for t in s], autojunk=False)
    opcodes = matcher.get_opcodes()
    for k, (op, i1, i2, j1, j2) in enumerate(opcodes):
        ours = quote[q[i1].start:q[i2 - 1].end] if i2 > i1 else ""
        theirs = source[s[j1].start:s[j2 - 1].end] if j2 > j1 else ""
        pair = (_key(ours), _key(theirs))
        if op == "equal" or pair in kept:
            chunks.append(ours)
        elif op == "insert" and how.gaps == "ellipsis" and k in (0, len(opcodes) - 1) and pair[1] not in bearing:
            continue  # the passage's edge, beyond the quote's words: nothing left out between them
        elif op == "insert":  # source words the quote leaves out without a mark
            chunks.append(theirs if how.gaps == "source" or pair[1] in bearing else _ELLIPSIS)
        elif pair[0] == _ELLIPSIS and op == "replace":
            chunks.append(_ELLIPSIS if how.ellipses == "kept" else theirs)
        elif op == "replace":
            chunks.append(theirs)
    return _joined(chunks)


_SENTENCE_END = re.compile(r"[.!?…][\"'”’)]*(?=\s|$)")
_TURN_BREAK = re.compile(r"\n[ \t\r]*\n|:[ \t\r\n]+(?=\S|$)")
_SENTENCE_REACH = 400  # characters a sentence is looked for either side of a passage


def _sentence_span(text: str, start: int, end: int) -> tuple[int, int]:
    """[start, end) widened to the sentences it stands in, within its turn."""
    before = text[max(0, start - _SENTENCE_REACH):start]
    lo = start - len(before)
    cuts = [m.end() for m in _SENTENCE_END.finditer(before)] + [m.end() for m in _TURN_BREAK.finditer(before)]
    first = lo + max(cuts, default=0)
    if not cuts and lo > 0:
        first = start
    after = text[end:end + _SENTENCE_REACH]
    stop = _SENTENCE_END.search(after)
    turn = _TURN_BREAK.search(after)
    last = end + min(m.end() if m is stop else m.start() for m in (stop, turn) if m is not None) \
        if stop or turn else end
    while first < start and text[first].isspace():
        first += 1
    return first, max(last, end)


@dataclass(frozen=True)
class _Candidate:
    quotes: tuple[str, ...]  # the corrected quotation (two, where one is split)
    speaker: str             # the speaker its tag names
    why: str


def _speaker(result: QuoteResult) -> str:
    """The speaker whose words the quote are, where the quote names another; else the one it names."""
    if result.speaker and any(r.startswith("said by ") for r in result.reasons):
        return result.speaker
    return result.claimed_speaker


def _kept_or_marked(result: QuoteResult, documents: dict[str, Document]) -> _Candidate | None:
    if any(d.kind == "order" for d in result.differences):
        return None  # the quote's words in another order: the source's order (_source_passage) keeps them all
    text = _merged(result.quote, result.matched_text, result, _Merge("ellipsis", "kept"))
    gaps = text.count(_ELLIPSIS) > result.quote.count(_ELLIPSIS) + result.quote.count("…")
    return _Candidate((text,), _speaker(result), "the source's words where the quote differs in a way that "
                      "matters, your harmless edits kept" + (", and an ellipsis where words are left out"
                                                              if gaps else ""))


def _source_passage(result: QuoteResult, documents: dict[str, Document]) -> _Candidate | None:
    text = _merged(result.quote, result.matched_text, result, _Merge("source", "source"))
    if any(d.kind == "order" for d in result.differences):
        return _Candidate((text,), _speaker(result), "the source passage, its words in the source's order")
    return _Candidate((text,), _speaker(result), "the source passage as it stands, with the words the quote "
                      "leaves out put back (your harmless edits kept)")


def _whole_sentences(result: QuoteResult, documents: dict[str, Document]) -> _Candidate | None:
    document = documents.get(result.document)
    if document is None or result.start is None or result.end is None:
        return None
    start, end = _sentence_span(document.text, result.start, result.end)
    if (start, end) == (result.start, result.end):
        return None
    text = _merged(result.quote, document.text[start:end], result, _Merge("source", "source"))
    return _Candidate((text,), _speaker(result), "the whole sentence of the source: the words the quote cuts "
                      "off may turn what it says")


def _split(result: QuoteResult, documents: dict[str, Document]) -> _Candidate | None:
    joined = next((d for d in result.differences if d.kind == "splice"), None)
    if joined is None:
        return None
    at = result.quote.find(joined.quote_text)
    if at <= 0:
        return None
    first, second = result.quote[:at].strip(), result.quote[at:].strip()
    return _Candidate((first, second), _speaker(result), f"two quotations: the passages are apart in the source "
                      f"({joined.source_text.split(';', 1)[-1].strip()})")


# The candidates, in the order they are tried (see the module's docstring).
_STEPS: tuple[Callable[[QuoteResult, dict[str, Document]], _Candidate | None], ...] = (
    _kept_or_marked, _source_passage, _whole_sentences, _split)


# ------------------------------------------------------------------ checked again

def _checked_again(candidates: dict[str, _Candidate], results: dict[str, QuoteResult], run: Run,
                   cache_dir: str | Path | None) -> dict[str, list[QuoteResult]]:
    """Each candidate's quotations checked against the run's documents, with the run's settings (no
    embeddings: a corrected quotation is verified on its words, and a cosine never makes a quote verified)."""
    rows = [{"quote_id": f"{qid}#{k}", "quote": text, "speaker": c.speaker if k == len(c.quotes) - 1 else "",
             "document": results[qid].claimed_document}
            for qid, c in candidates.items() for k, text in enumerate(c.quotes)]
    if not rows:
        return {}
    config: Config = replace(run.config, embed=replace(run.config.embed, enabled=False))
    checked = run_check(list(run.documents), rows, config, cache_dir=cache_dir).results
    found: dict[str, list[QuoteResult]] = {}
    for row, result in zip(rows, checked):
        found.setdefault(str(row["quote_id"]).rsplit("#", 1)[0], []).append(result)
    return found


def _fixable(result: QuoteResult) -> bool:
    return result.status == "review" and bool(result.matched_text) and bool(result.document)


def propose_fixes(run: Run, spots: dict[str, Spot], *, edits: bool, cache_dir: str | Path | None = None
                  ) -> dict[str, Fix]:
    """The corrected quotation of each quote in review whose source passage is known (see the module's
    docstring), by quote id; ``edits``: also the changes to the manuscript that make each (a .docx's)."""
    documents = {d.doc_id: d for d in run.documents}
    pending = {r.quote_id: r for r in run.results if _fixable(r) and r.quote_id in spots}
    fixes: dict[str, Fix] = {}
    last_reason: dict[str, str] = {}
    for step in _STEPS:
        candidates = {qid: c for qid, r in pending.items() if (c := step(r, documents)) is not None
                      and (c.quotes != (r.quote,) or c.speaker != r.claimed_speaker)
                      and (len(c.quotes) == 1 or not spots[qid].block)}
        for qid, checked in _checked_again(candidates, pending, run, cache_dir).items():
            if all(r.status == "verified" for r in checked):
                fixes[qid] = _fix(pending.pop(qid), candidates[qid], spots[qid], checked, edits=edits)
            else:
                last_reason[qid] = next(r for r in checked if r.status != "verified").reasons[:1][0] \
                    if any(r.reasons for r in checked if r.status != "verified") else ""
    for qid in pending:
        reason = last_reason.get(qid, "")
        fixes[qid] = Fix(qid, "", "no corrected quotation is proposed: even the source's own words would still "
                         "need review here" + (f" ({reason})" if reason else ""))
    return fixes


def _fix(result: QuoteResult, candidate: _Candidate, spot: Spot, checked: list[QuoteResult], *,
         edits: bool) -> Fix:
    marks = spot.marks
    quote = f"{marks[1]} and {marks[0]}".join(candidate.quotes) if len(candidate.quotes) > 1 else candidate.quotes[0]
    speaker = candidate.speaker if candidate.speaker != result.claimed_speaker else ""
    said = f"the tag names {speaker}, who says these words in the source"
    why = said.replace("the tag", "the words as quoted; the tag", 1) if candidate.quotes == (result.quote,) \
        else candidate.why + (f"; {said}" if speaker else "")
    how = ", ".join(sorted({r.match_type for r in checked}))
    changes: tuple[Edit, ...] = ()
    if edits:
        changes = _edits(spot.raw, quote, spot.quote)
        if speaker and spot.tag is not None:
            changes += (Edit(spot.tag, speaker),)
    return Fix(result.quote_id, quote, f"{why} (checked again: verified, {how})", speaker, changes)


def _edits(raw: str, new: str, span: Span) -> tuple[Edit, ...]:
    """The changes that make the manuscript's ``raw`` quote text read ``new``: for each run of words that
    differs, the text from the word before to the word after it replaced (the white space both keep left as
    it is), so that a word put in brings its space and a word taken out takes one."""
    a, b = _tokens(raw), _tokens(new)
    changes = []
    matcher = SequenceMatcher(None, [t.text for t in a], [t.text for t in b], autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        lo, hi = a[i1 - 1].end if i1 else 0, a[i2].start if i2 < len(a) else len(raw)
        text = new[b[j1 - 1].end if j1 else 0:b[j2].start if j2 < len(b) else len(new)]
        old = raw[lo:hi]
        while old and text and old[0] == text[0] and old[0].isspace():
            old, text, lo = old[1:], text[1:], lo + 1
        while old and text and old[-1] == text[-1] and old[-1].isspace():
            old, text, hi = old[:-1], text[:-1], hi - 1
        changes.append(Edit(span.at(span.start + lo, span.start + hi), text))
    return tuple(changes)


def fix_counts(fixes: Iterable[Fix]) -> str:
    """How many fixes were proposed, for the run's summary."""
    fixes = list(fixes)
    proposed = sum(1 for f in fixes if f.quote)
    return (f"{plural(proposed, 'corrected quotation')} proposed for the {plural(len(fixes), 'quote')} in review "
            "with a source passage, each checked again and verified")
