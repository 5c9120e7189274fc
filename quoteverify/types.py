"""The named results that flow between the stages."""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

STATUSES = ("verified", "review", "unverified")
MATCH_TYPES = ("exact", "normalized", "elided", "edited", "altered", "reordered",
               "spliced", "paraphrase", "misattributed", "unlocated")
# The confidence bands' lower edges as configs/default.yaml sets them (confidence.band_high, band_medium; a test
# checks they agree), for what runs without a config: band() and recheck --below.
BAND_HIGH, BAND_MEDIUM = 0.8, 0.6


@dataclass(frozen=True)
class Turn:
    """A transcript turn from ``start`` (an offset into the document's text) on: who speaks, and when."""

    start: int       # where the label (or cue) starts
    speaker: str
    timestamp: str
    body: int = 0    # where the words after the label start


@dataclass(frozen=True)
class Document:
    """One source: its id (the file stem), where it came from and its text.

    ``text`` is what every offset refers to: the file's text, or for .docx,
    .pdf, .vtt and .srt the text quoteverify.formats extracts. ``cues`` are the
    turns of a subtitle file, one per cue; other documents' turns are read
    from the speaker labels in their text.
    """

    doc_id: str
    path: str
    text: str
    sha256: str
    encoding: str = "utf-8"
    cues: tuple[Turn, ...] = ()
    language: str = ""  # ISO 639-1, given or detected (quoteverify.language); "" when unknown


@dataclass(frozen=True)
class Quote:
    """One row of the quote table, as given.

    ``problem`` is set when the row cannot be checked as it stands (an empty
    quote); ``notes`` carries warnings that still allow a check (an unknown
    claimed document).
    """

    row: int
    quote_id: str
    text: str
    claimed_document: str = ""
    speaker: str = ""
    finding: str = ""
    extra: tuple[tuple[str, str], ...] = ()
    problem: str = ""
    notes: tuple[str, ...] = ()
    finding_confidence: float | None = None  # the analyst's confidence in the finding, 0-1, if given
    language: str = ""  # the quote table's language column, as given (quoteverify.language reads it)
    # Where a QDA project codes it: (start, end) in the claimed document's text, and the line there.
    at: tuple[int, int, int] | None = None


@dataclass(frozen=True)
class Window:
    """Word tokens [start, end) of one document."""

    doc: int
    start: int
    end: int


@dataclass(frozen=True)
class Candidate:
    """A stretch of one document worth aligning a quote against (word tokens)."""

    doc: int
    start: int
    end: int
    score: float


@dataclass(frozen=True)
class Segment:
    """A piece of the quote located in a source.

    q_start/q_end index the quote's word tokens, d_start/d_end the document's;
    ``fragment`` is the ellipsis-separated fragment the piece belongs to.
    """

    doc: int
    q_start: int
    q_end: int
    d_start: int
    d_end: int
    fragment: int
    matched: int  # word tokens equal on both sides


@dataclass(frozen=True)
class Alignment:
    """Where the pieces of one quote were found, and how."""

    method: str  # exact | fuzzy | none
    segments: tuple[Segment, ...]
    quote_words: int
    bm25_score: float | None = None
    bm25_ratio: float | None = None
    nearest: Segment | None = None  # the closest passage, for a suggestion
    passage: Segment | None = None  # the quote-length passage around the best piece, for a paraphrase


@dataclass(frozen=True)
class Difference:
    """One difference between the quote and its source span."""

    kind: str
    quote_text: str
    source_text: str


@dataclass(frozen=True)
class Elision:
    """What one ellipsis of a quote stands for in the source."""

    text: str                     # the source text left out
    words: int                    # how many words that is
    sentences: int                # whole sentences of one turn left out; 0 when the ellipsis is inside a sentence
    speakers: tuple[str, ...] = ()  # the speakers before and after it, when they differ
    hidden: tuple[tuple[str, str], ...] = ()  # (class, words) that carry meaning, left out inside a sentence


@dataclass(frozen=True)
class Comparison:
    """The diff stage's result for one quote."""

    differences: tuple[Difference, ...]
    match_ratio: float | None
    matched_text: str
    # Original-text span of the located quote and its pieces.
    document: str = ""
    start: int | None = None
    end: int | None = None
    pieces: tuple[tuple[str, int, int], ...] = ()
    elided: tuple[Elision, ...] = ()  # what each ellipsis stands for
    pieces_text: str = ""  # the located pieces joined by " ... ": what the quote is compared with
    bracket_reasons: tuple[str, ...] = ()  # why a bracket is not benign, where one is not


@dataclass
class QuoteResult:
    """Everything known about one quote: the row of every output."""

    quote_id: str
    quote: str
    row: int
    claimed_document: str = ""
    document: str = ""
    start: int | None = None
    end: int | None = None
    matched_text: str = ""
    context_before: str = ""
    context_after: str = ""
    line: int | None = None
    speaker: str = ""
    timestamp: str = ""
    # ISO 639-1 code of the language the quote was checked in (its lexicon's); "" when unknown.
    language: str = ""
    status: str = "unverified"
    match_type: str = "unlocated"
    confidence: float = 0.0
    band: str = "low"
    reasons: list[str] = field(default_factory=list)
    differences: list[dict[str, str]] = field(default_factory=list)
    bm25_score: float | None = None
    bm25_ratio: float | None = None
    cosine: float | None = None
    match_ratio: float | None = None
    suggestion: str = ""
    document_sha256: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    # The finding the quote is cited for and its stated confidence, as the quote table gives them (see findings).
    finding: str = ""
    finding_confidence: float | None = None
    claimed_speaker: str = ""  # the speaker the quote table names, or empty
    # The reviewer's verdict from a triage workbook (see quoteverify.review); empty until reviewed.
    # Kept last, so the reviewer's columns end every output.
    decision: str = ""
    reviewer_note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def count_by_status(results: Iterable[QuoteResult]) -> dict[str, int]:
    """How many results have each status, in the order of STATUSES (0 where none)."""
    counts = Counter(r.status for r in results)
    return {status: counts[status] for status in STATUSES}


def document_label(result: QuoteResult) -> str:
    """The document a result counts towards in summaries: where found, else where claimed (quotes attributed to X
    that were not found count towards X)."""
    return result.document or result.claimed_document or "(no document)"


def count_by_document(results: Iterable[QuoteResult]) -> dict[str, dict[str, int]]:
    """count_by_status for each document (document_label), in document order."""
    groups: dict[str, list[QuoteResult]] = {}
    for result in results:
        groups.setdefault(document_label(result), []).append(result)
    return {label: count_by_status(groups[label]) for label in sorted(groups)}
