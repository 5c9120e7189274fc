"""The named results that flow between the stages."""
from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field, fields
from typing import TYPE_CHECKING, Any, Literal, get_args

if TYPE_CHECKING:
    from .config import Config

# The verdict's vocabulary: each word a Literal type, so that mypy checks every place one is made or compared,
# and its tuple of words in order (the tuple is read from the type: the two cannot drift apart). A result
# serialises them as the plain strings they are.
Status = Literal["verified", "review", "unverified"]
STATUSES: tuple[Status, ...] = get_args(Status)
# What is at stake in a quote that needs review, worst first (see classify.severity):
# high: a claim altered or inverted; medium: content left out or put in; low: cosmetic or uncertain.
Severity = Literal["high", "medium", "low"]
SEVERITIES: tuple[Severity, ...] = get_args(Severity)
# A result's severity: one of SEVERITIES for a review, "" for any other status.
SeverityOrNone = Literal[Severity, ""]
# A confidence band (classify.band): where a result's confidence stands against confidence.band_high/medium.
Band = Literal["high", "medium", "low"]
MatchType = Literal["exact", "normalized", "elided", "edited", "altered", "reordered",
                    "spliced", "paraphrase", "misattributed", "unlocated"]
MATCH_TYPES: tuple[MatchType, ...] = get_args(MatchType)
# Every kind of difference the diff names (docs/contract.md says what each means).
DifferenceKind = Literal[
    "normalization", "punctuation", "editorial", "elision", "disfluency", "typo", "contraction", "spelling",
    "number_format", "markup", "clitic", "cut", "page_break", "footnote", "number", "negation", "name", "word",
    "near_word", "case", "speech_act", "hyphenation", "homoglyph", "excerpt", "splice", "order",
    # quotation marks put in around words (scare quotes); a form that may say another thing than the source's:
    # a contraction spelt out against the verb after it, digits for a word that is no number there, a spelling
    # that names one sense of the source's word
    "quote_marks", "sense"]
DIFFERENCE_KINDS: tuple[DifferenceKind, ...] = get_args(DifferenceKind)
# Kinds of difference by weight: shown alike by the classifier and every renderer.
BENIGN: frozenset[DifferenceKind] = frozenset({
    "normalization", "punctuation", "editorial", "number_format", "spelling", "markup",
    # page furniture (quoteverify.sources.pages) between quoted words: a running header or footer,
    # a page number, a page marker or footnote text at a page break; a footnote marker or note elsewhere
    "page_break", "footnote",
    # a clitic the source writes on a word the quote ends with ("Joe" for "Joe's")
    "clitic"})
# How a result's page is named (QuoteResult.page_kind): the number printed on the page (a running header's or
# footer's folio, a page marker, the PDF's page labels), or the page's position in the file (1 = first).
PageKind = Literal["printed", "position"]
PAGE_KINDS: tuple[PageKind, ...] = get_args(PageKind)
# How a document is laid out: a line-numbered transcript (pages of numbered lines, cited page:line), paged (a PDF's
# pages, page breaks, markers or running headers), or neither.
Layout = Literal["lined", "paged", "unpaged"]
LAYOUTS: tuple[Layout, ...] = get_args(Layout)
EDITS: frozenset[DifferenceKind] = frozenset({"disfluency", "typo", "contraction"})
LOAD_BEARING: frozenset[DifferenceKind] = frozenset({"number", "negation", "name"})
# How much a kind of difference weighs, as the workbook and the review page colour it.
Weight = Literal["load-bearing", "benign", "changed"]


def weight(kind: DifferenceKind) -> Weight:
    """A number, a negation or a name changed weighs most; a benign difference or a light edit least."""
    if kind in LOAD_BEARING:
        return "load-bearing"
    if kind in BENIGN or kind in EDITS:
        return "benign"
    return "changed"
# A reviewer's verdict on a quote, as offered by the workbook and the review page.
DECISIONS = ("accept", "reject", "fix quote", "fix source")
# The columns of `quoteverify review -o reviewed.jsonl|.csv`, in this order.
REVIEW_COLUMNS = ("quote_id", "row", "cell", "status", "decision", "reviewer_note", "problem")
QUOTES_SHEET = "Quotes"  # the workbook's sheet of quotes, which `review` and --previous read back
# Reports how many of the quotes are done: (done, total).
Progress = Callable[[int, int], None]
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
class LineBox:
    """Where a PDF reader drew one line of a page's extracted text (quoteverify.sources.formats).

    ``start``/``end`` index the document's text; ``x``/``y`` are the line's first glyph in points from the
    page's lower left corner (y grows upwards); ``size`` the height of most of its glyphs; ``across`` the x
    of a jump within the line to text set far to its right (another column read across), 0 when none.
    """

    start: int
    end: int
    x: float
    y: float
    size: float
    across: float = 0.0


@dataclass(frozen=True)
class PageLayout:
    """One page of a PDF as its reader laid it out: the span of its text in the document's text, the
    page label the PDF gives it ("" when the PDF sets none), its lines, and the spans of digits set
    smaller than the line around them and glued to a word (raised footnote markers)."""

    start: int
    end: int
    label: str = ""
    lines: tuple[LineBox, ...] = ()
    raised: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class Document:
    """One source: its id (the file stem), where it came from and its text.

    ``text`` is what every offset refers to: the file's text, or for .docx,
    .pdf, .vtt and .srt the text quoteverify.sources.formats extracts. ``cues`` are the
    turns of a subtitle file, one per cue; other documents' turns are read
    from the speaker labels in their text.
    """

    doc_id: str
    path: str
    text: str
    sha256: str
    encoding: str = "utf-8"
    cues: tuple[Turn, ...] = ()
    language: str = ""  # ISO 639-1, given or detected (quoteverify.sources.language); "" when unknown
    # A PDF's pages as its reader laid them out: where lines sit and how large (quoteverify.sources.pages reads the
    # pages and their furniture from them); empty for other formats, whose pages are read from the text.
    layout: tuple[PageLayout, ...] = ()


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
    language: str = ""  # the quote table's language column, as given (quoteverify.sources.language reads it)
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
    # The equally good places in its document (quoteverify.search.places): how many, how many of them in turns of
    # the claimed speaker (None: the document has no turns), and where the others start (word index).
    occurrences: int = 0
    speaker_occurrences: int | None = None
    others: tuple[int, ...] = ()


@dataclass(frozen=True)
class Difference:
    """One difference between the quote and its source span."""

    kind: DifferenceKind
    quote_text: str
    source_text: str

    def as_dict(self) -> dict[str, str]:
        """As the JSONL, the CSV and the audit store hold it."""
        return {"kind": self.kind, "quote_text": self.quote_text, "source_text": self.source_text}


@dataclass(frozen=True)
class Elision:
    """What a quote leaves out of a sentence of its source: what an ellipsis stands for, or the rest of a
    sentence that the quote cuts at its start or end (quoteverify.judge.omissions says when either is benign)."""

    text: str                     # the source text left out
    words: int                    # how many words that is
    sentences: int                # whole sentences of one turn left out; 0 when the ellipsis is inside a sentence
    speakers: tuple[str, ...] = ()  # the speakers before and after it, when they differ
    hidden: tuple[tuple[str, str], ...] = ()  # (class, words) that carry meaning among what is left out
    # The words left out that no test showed empty of content, as the source writes them; "" when one did.
    left_out: str = ""
    # the test that showed it empty: disfluency, aside, address, sentences, clause or connective; "" when none
    shown: str = ""
    points_back: str = ""         # the word a kept sentence after whole sentences left out opens with ("That")
    set_off: bool = False         # set off like an aside (by dashes, parentheses, commas), but holding a qualifier
    # where: "inside" (an ellipsis between two pieces), "before"/"after" (the rest of the sentence the quote
    # starts or ends in); marked: an ellipsis marks it (an excerpt's cut edge has none)
    where: str = "inside"
    marked: bool = True
    span: tuple[int, int] | None = None  # where what is left out stands in the original text, when known


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
    bracket_replaces: bool = False  # whether such a bracket stands for source words (else it only adds some)
    bracket_signals: tuple[str, ...] = ()  # the signal of each of bracket_reasons (judge.odds.SIGNALS)


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
    # The first and last page of the span ("45" or "45–46") in a paged document, and how they are named
    # (one of PAGE_KINDS); empty for an unpaged document or an unlocated quote (quoteverify.sources.pages).
    page: str = ""
    page_kind: Literal[PageKind, ""] = ""
    # In a line-numbered transcript (quoteverify.sources.lined): page:line of the first and last word, as
    # lawyers cite a transcript ("18:21-19:3", "18:21-25"); empty in other documents or unlocated.
    cite: str = ""
    # The equally good places of the quote in ``document`` (the one reported among them), and the lines where
    # the others start (the first 20); 0 and [] when it was not located.
    occurrences: int = 0
    other_lines: list[int] = field(default_factory=list)
    speaker: str = ""
    # How many of those places are in turns of the claimed speaker (with none claimed, of ``speaker``);
    # None when the document has no speaker turns.
    speaker_occurrences: int | None = None
    timestamp: str = ""
    # ISO 639-1 code of the language the quote was checked in (its lexicon's); "" when unknown.
    language: str = ""
    status: Status = "unverified"
    match_type: MatchType = "unlocated"
    confidence: float = 0.0
    band: Band = "low"
    severity: SeverityOrNone = ""  # for a review: one of SEVERITIES; empty otherwise
    # For a review: how likely a strict editor would call the quote a change of meaning, 0 to 1
    # (quoteverify.judge.odds); None otherwise.
    p_change: float | None = None
    reasons: list[str] = field(default_factory=list)
    differences: list[Difference] = field(default_factory=list)
    bm25_score: float | None = None
    bm25_ratio: float | None = None
    cosine: float | None = None
    match_ratio: float | None = None
    # For a review: the evidence p_change was computed from (judge.odds.FEATURES: each signal its reasons carry,
    # and the match's measures); empty otherwise.
    signals: dict[str, float] = field(default_factory=dict)
    suggestion: str = ""
    document_sha256: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    # The finding the quote is cited for and its stated confidence, as the quote table gives them (see findings).
    finding: str = ""
    finding_confidence: float | None = None
    claimed_speaker: str = ""  # the speaker the quote table names, or empty
    # The reviewer's verdict from a triage workbook (see quoteverify.app.review); empty until reviewed.
    # Kept last, so the reviewer's columns end every output.
    decision: str = ""
    reviewer_note: str = ""

    def __post_init__(self) -> None:
        # A result read back from JSONL, the cache or the audit store has its differences as dicts.
        self.differences = [d if isinstance(d, Difference) else Difference(**d) for d in self.differences]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def fingerprint(result: QuoteResult) -> str:
    """Identifies a quote's text and where it was found: any change to either changes it."""
    parts = (result.quote, result.document, str(result.start), str(result.end), result.matched_text)
    return hashlib.sha256("\x1f".join(parts).encode("utf-8", "surrogatepass")).hexdigest()[:16]


@dataclass
class Run:
    """A finished check: the results and what produced them."""

    results: list[QuoteResult]
    documents: tuple[Document, ...]
    config: Config
    embedder: str | None
    timings: dict[str, float] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    windows: int = 0
    quotes_sha256: str = ""  # of the quote table file; empty for quotes given in Python
    quotes: tuple[Quote, ...] = ()  # as checked, in input order: what the audit store needs to check them again
    # How each document is laid out, by id (one of LAYOUTS; quoteverify.sources.pages.layout_of): the manifest
    # counts them. Empty for a run that did not read them.
    layouts: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Escalation:
    """A quote still below the confidence threshold when checked again: for a person to look at."""

    run_id: int
    quote_id: str
    row: int
    quote: str
    claimed_document: str
    finding: str
    recorded_status: Status
    recorded_confidence: float
    status: Status
    match_type: MatchType
    confidence: float
    document: str
    start: int | None
    end: int | None
    reasons: tuple[str, ...]
    suggestion: str


ESCALATION_COLUMNS = tuple(f.name for f in fields(Escalation))


@dataclass(frozen=True)
class Recheck:
    """The low-confidence quotes of a recorded run, checked again against the current documents."""

    run_id: int
    below: float
    rechecked: int  # quotes of the run below ``below``, checked again
    escalations: tuple[Escalation, ...]  # those still below it
    changed_documents: tuple[str, ...]  # "doc-id (changed|new|gone)" against the run's corpus


@dataclass(frozen=True)
class Finding:
    """One finding and how its quotes held up; the fields are the columns of ``--findings``."""

    finding: str
    n_quotes: int
    verified: int
    review: int
    unverified: int
    finding_confidence: float
    adjusted_confidence: float
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


FINDING_COLUMNS = tuple(f.name for f in fields(Finding))


@dataclass(frozen=True)
class Findings:
    """Every finding the quotes cite, in order of first citation, and warnings about the input."""

    findings: tuple[Finding, ...]
    warnings: tuple[str, ...] = ()
    labels: tuple[tuple[str, str], ...] = ()  # per finding: its claim card's label and the reason for it
    adjustment: str = ""  # how the confidences were adjusted, in words, for the appendix


@dataclass(frozen=True)
class Metrics:
    """The evidence behind a quote's verdict."""

    confidence: float
    cosine: float | None
    match_ratio: float | None
    bm25_score: float | None


@dataclass(frozen=True)
class Evidence:
    """One cited quote as evidence: where the source says it (empty when unlocated) and how it was found."""

    quote_id: str
    quote: str
    status: Status
    document: str
    snippet: str  # the matched source text
    document_sha256: str
    start: int | None
    end: int | None
    method: str  # the match type
    metrics: Metrics
    checked_at: str  # ISO 8601, UTC
    cite: str = ""  # page:line in a line-numbered transcript ("18:21-19:3"); empty elsewhere


@dataclass(frozen=True)
class ClaimCard:
    """A finding as a claim, labelled by its evidence (precedence in the module docstring)."""

    claim: str
    label: str
    label_reason: str
    finding_confidence: float
    adjusted_confidence: float
    evidence: tuple[Evidence, ...]

    def to_dict(self) -> dict[str, Any]:
        """The card as JSON writes it (evidence as a list)."""
        return {**asdict(self), "evidence": [asdict(e) for e in self.evidence]}


_STATUS_RANK: dict[Status, int] = {"unverified": 0, "review": 1, "verified": 2}


def triage_key(result: QuoteResult) -> tuple[int, float, float]:
    """Worst first: unverified, then review by p_change (the likeliest changes of meaning first), then verified;
    within each, by confidence."""
    odds = result.p_change if result.status == "review" and result.p_change is not None else 0.0
    return _STATUS_RANK.get(result.status, 0), -odds, result.confidence


def triage_order(results: list[QuoteResult]) -> list[int]:
    """The indices of ``results`` in the order a reviewer works through them (stable: ties keep input order)."""
    return sorted(range(len(results)), key=lambda k: triage_key(results[k]))


def count_by_status(results: Iterable[QuoteResult]) -> dict[str, int]:
    """How many results have each status, in the order of STATUSES (0 where none)."""
    counts = Counter(r.status for r in results)
    return {status: counts[status] for status in STATUSES}


def unchecked_claim(result: QuoteResult) -> str:
    """What the quote table claims for a verified quote that was not checked: "document" when the document it
    names is none of the sources (the quote was found in another), "speaker" when the speaker it names could not
    be compared (no speaker label where it was found); else "". A claim checked and wrong is never verified."""
    if result.status != "verified":
        return ""
    if result.claimed_document and result.claimed_document != result.document:
        return "document"
    return "speaker" if result.claimed_speaker and not result.speaker else ""


def count_by_decision(results: Iterable[QuoteResult]) -> dict[str, int]:
    """How many quotes have each decision, in the order of DECISIONS (0 where none); other values and none are
    not counted."""
    counts = Counter(r.decision for r in results)
    return {decision: counts[decision] for decision in DECISIONS}


def count_by_severity(results: Iterable[QuoteResult]) -> dict[str, int]:
    """How many quotes in review have each severity, in the order of SEVERITIES (0 where none)."""
    counts = Counter(r.severity for r in results if r.status == "review")
    return {severity: counts[severity] for severity in SEVERITIES}


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
