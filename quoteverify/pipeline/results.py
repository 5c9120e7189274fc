"""One result per quote, built once from what the stages found: its verdict, and where it stands in its
source when it was located there."""
from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field, replace
from typing import Literal

from ..judge.classify import Setting, classify, coverage
from ..model.config import Config
from ..model.lexicon import lexicon_for
from ..model.text import clip
from ..model.types import Alignment, Comparison, Difference, Document, MatchType, PageKind, Quote, QuoteResult, Turn
from ..sources.corpus import Corpus, Source


@dataclass(frozen=True)
class Place:
    """Where a located quote stands in its source, as a result reports it; the defaults are a result's
    own for a quote not located (or located only near a passage it may come from)."""

    document: str = ""
    document_sha256: str = ""
    start: int | None = None
    end: int | None = None
    matched_text: str = ""
    context_before: str = ""
    context_after: str = ""
    line: int | None = None
    page: str = ""
    page_kind: Literal[PageKind, ""] = ""
    cite: str = ""
    occurrences: int = 0
    speaker_occurrences: int | None = None
    other_lines: list[int] = field(default_factory=list)
    speaker: str = ""
    timestamp: str = ""
    differences: list[Difference] = field(default_factory=list)


def build_result(quote: Quote, alignment: Alignment, comparison: Comparison, cosine: float | None,
                 corpus: Corpus, config: Config, own_language: str = "") -> QuoteResult:
    """The result of one quote: the classifier's verdict on what was found, and where it was found."""
    comparison, coded_elsewhere = _where_coded(quote, comparison, corpus)
    source = corpus.sources[corpus.by_id[comparison.document]] if comparison.document else None
    start = comparison.start or 0  # set wherever a document is
    turn = source.turn_at(start) if source is not None else None
    language = language_found(own_language, alignment, corpus, quote.claimed_document)
    setting = Setting(quote.claimed_document in corpus.by_id, turn.speaker if turn else "",
                      _turn_speakers(source, comparison), language, lexicon_for(language) is not None)
    verdict = classify(quote, alignment, comparison, cosine, verdict=config.verdict, confidence=config.confidence,
                       setting=setting)
    reasons = [*verdict.reasons, coded_elsewhere] if coded_elsewhere else list(verdict.reasons)
    if quote.speaker and verdict.status == "verified" and not (turn and turn.speaker):
        # Verified on the words alone: who says them was not checked, and the row says so.
        reasons.append(f"claimed speaker '{quote.speaker}' not checked: no speaker label where it was found")
    place, suggestion = Place(), ""
    if source is not None and verdict.status == "unverified":
        suggestion = (f"closest passage: {comparison.document} line {source.line_of(start)}: "
                      f"{clip(comparison.matched_text, 300)!r}")
    elif source is not None:
        place = _place(source, alignment, comparison, verdict.match_type, config, turn)
    return QuoteResult(
        quote_id=quote.quote_id, quote=quote.text, row=quote.row, claimed_document=quote.claimed_document,
        document=place.document, start=place.start, end=place.end, matched_text=place.matched_text,
        context_before=place.context_before, context_after=place.context_after, line=place.line,
        page=place.page, page_kind=place.page_kind, cite=place.cite, occurrences=place.occurrences,
        other_lines=place.other_lines, speaker=place.speaker, speaker_occurrences=place.speaker_occurrences,
        timestamp=place.timestamp,
        language=language, status=verdict.status, match_type=verdict.match_type, confidence=verdict.confidence,
        band=verdict.band, severity=verdict.severity, p_change=verdict.p_change, reasons=reasons,
        differences=place.differences, bm25_score=_round(alignment.bm25_score),
        bm25_ratio=_round(alignment.bm25_ratio), cosine=cosine, match_ratio=comparison.match_ratio,
        # The signals in one order, however a result was read back (the cache, a cluster's worker).
        signals=dict(sorted(verdict.signals)), suggestion=suggestion, document_sha256=place.document_sha256,
        extra=dict(quote.extra), finding=quote.finding, finding_confidence=quote.finding_confidence,
        claimed_speaker=quote.speaker)


def _where_coded(quote: Quote, comparison: Comparison, corpus: Corpus) -> tuple[Comparison, str]:
    """A quote a QDA project codes at a place of its claimed document: the same words found there are
    reported there; found elsewhere in it, the reason that says so ("" when none)."""
    if quote.at is None or not comparison.document or comparison.document != quote.claimed_document:
        return comparison, ""
    a, b, line = quote.at
    if (comparison.start, comparison.end) == (a, b):
        return comparison, ""
    if corpus.sources[corpus.by_id[comparison.document]].document.text[a:b] == comparison.matched_text:
        # The same words stand twice in the source: the project's place is the one to report.
        return replace(comparison, start=a, end=b, pieces=((comparison.document, a, b),)), ""
    return comparison, f"not where the QDA project codes it (line {line} of the project's copy)"


def _turn_speakers(source: Source | None, comparison: Comparison) -> tuple[str, ...]:
    """The speakers whose turns the quoted words run across, in order."""
    if source is None:
        return ()
    start, end = comparison.start or 0, comparison.end or 0
    spans = [(a, b) for doc, a, b in comparison.pieces if doc == comparison.document]
    return source.turns.speakers(spans or [(start, end)])


def _place(source: Source, alignment: Alignment, comparison: Comparison, match_type: MatchType, config: Config,
           turn: Turn | None) -> Place:
    """Where a located quote stands: its span, context, line, pages, its other places and its speaker."""
    start, end = comparison.start or 0, comparison.end or 0
    before, after = _context(source.document, start, end, config.output.context_chars)
    page, page_kind = source.pages.label(*_passage(alignment, comparison, match_type, config.align.max_gap_words))
    return Place(
        document=comparison.document, document_sha256=source.document.sha256, start=start, end=end,
        matched_text=comparison.matched_text, context_before=before,
        context_after=after, line=source.line_of(start), page=page, page_kind=page_kind,
        cite=source.pages.cite(*_cited(comparison, match_type)), occurrences=alignment.occurrences,
        speaker_occurrences=alignment.speaker_occurrences,
        other_lines=[source.line_of(source.span(w, w + 1)[0]) for w in alignment.others],
        speaker=turn.speaker if turn is not None else "", timestamp=turn.timestamp if turn is not None else "",
        differences=list(comparison.differences))


def _context(document: Document, start: int, end: int, chars: int) -> tuple[str, str]:
    """The text before and after a passage, up to ``chars`` characters each side, never cut inside a word (a
    word cut at the edge is left out); in a subtitle file, whose cues' speakers are not in the text, each cue
    there opens with its speaker's name where the speaker changes, as a transcript's labels would."""
    text = document.text
    a, b = max(0, start - chars), min(len(text), end + chars)
    if a > 0 and not text[a - 1].isspace() and not text[a].isspace():
        a = next((k for k in range(a, start) if text[k].isspace()), start)
    if b < len(text) and not text[b - 1].isspace() and not text[b].isspace():
        b = next((k for k in range(b - 1, end - 1, -1) if text[k].isspace()), end)
    return _named(document, a, start, first=True), _named(document, end, b, first=False)


def _named(document: Document, a: int, b: int, *, first: bool) -> str:
    """``document.text[a:b]``; in a subtitle file, with "Name: " before each cue that starts there whose speaker
    differs from the cue's before it, or that is the first to start there when the text before is not shown
    (``first``: the context before a passage, which may end with the passage's own cue's name), unless the
    cue's text names its speaker itself."""
    text, cues = document.text, document.cues
    if not cues:
        return text[a:b]
    parts, at = [], a
    k = opening = bisect_left(cues, a, key=lambda cue: cue.start)
    while k < len(cues) and (cues[k].start <= b if first else cues[k].start < b):
        cue = cues[k]
        changed = k == 0 or cues[k - 1].speaker != cue.speaker or (first and k == opening)
        if changed and cue.speaker and cue.body == cue.start:
            parts += [text[at:cue.start], f"{cue.speaker}: "]
            at = cue.start
        k += 1
    return "".join(parts) + text[at:b]


def _passage(alignment: Alignment, comparison: Comparison, match_type: MatchType, gap: int) -> tuple[int, int]:
    """The span whose pages a result names: its whole span, but for a quote spliced or reordered from
    pieces apart, the passage that holds most of its words (the largest piece and those within ``gap``
    words of it, as far as an ellipsis may reach), which is where a reader would look it up."""
    start, end = comparison.start or 0, comparison.end or 0
    segments = sorted(alignment.segments, key=lambda s: s.q_start)
    if match_type not in ("spliced", "reordered") or len(segments) != len(comparison.pieces):
        return start, end
    main = segments[max(range(len(segments)), key=lambda k: segments[k].matched)]
    near = [piece for s, piece in zip(segments, comparison.pieces) if s.doc == main.doc
            and s.d_start <= main.d_end + gap and main.d_start <= s.d_end + gap and piece[0] == comparison.document]
    return (min(p[1] for p in near), max(p[2] for p in near)) if near else (start, end)


def _cited(comparison: Comparison, match_type: MatchType) -> tuple[int, int]:
    """The span a result's page:line citation names: its whole span, but for a quote spliced or reordered from
    pieces apart, its first piece (where the quote begins; its differences name where the others stand)."""
    start, end = comparison.start or 0, comparison.end or 0
    if match_type not in ("spliced", "reordered") or not comparison.pieces:
        return start, end
    doc, a, b = comparison.pieces[0]
    return (a, b) if doc == comparison.document else (start, end)


def judged_language(told: str, given: str, alignment: Alignment, corpus: Corpus, claimed: str, share: float) -> str:
    """A quote's language: as given, else as told, unless ``share`` of its words or more align word for word
    with its source: then it is in that document's language. A detector misled by a slip ('six monthz' reads
    as Tswana to lingua's trigrams) does not make a quote of English words Tswana."""
    own = told if told == given or coverage(alignment) < share else ""
    return language_found(own, alignment, corpus, claimed)


def language_found(own: str, alignment: Alignment, corpus: Corpus, claimed: str = "") -> str:
    """The quote's own language, else that of the document it was found in (or near, or ``claimed``)."""
    if own:
        return own
    found = next(iter(alignment.segments), None) or alignment.passage or alignment.nearest
    doc = found.doc if found is not None else corpus.by_id.get(claimed)
    return corpus.sources[doc].document.language if doc is not None else ""


def _round(value: float | None) -> float | None:
    return None if value is None else round(float(value), 4)
