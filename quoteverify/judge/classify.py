"""Status, match type, confidence and reasons of one quote.

The rules that keep ``verified`` honest:
- verified only when every difference is benign (normalization, punctuation,
  an editorial bracket), a benign elision, or (if configured) a light edit;
- a changed number, negation or name is never verified, whatever the cosine;
- found in another document than claimed: review, misattributed;
- said by another speaker than claimed, or in an interviewer's turn (also in
  part, running across turns): review, misattributed;
- nothing aligns: unverified; a high cosine alone never locates a quote.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace

from ..model.config import ConfidenceConfig, VerdictConfig, load_config
from ..model.lexicon import straight
from ..model.text import clip
from ..model.types import (
    BAND_HIGH,
    BAND_MEDIUM,
    BENIGN,
    EDITS,
    LOAD_BEARING,
    SEVERITIES,
    Alignment,
    Band,
    Comparison,
    Difference,
    DifferenceKind,
    Elision,
    MatchType,
    Quote,
    Severity,
    SeverityOrNone,
    Status,
)
from ..sources.tokenize import WORD
from ..sources.turns import same_speaker, speaker_key
from . import odds
from .rules import only_function_words

# Speaker labels of the person asking the questions, as speaker_key() gives them.
INTERVIEWER = re.compile(r"(?i)^(?:interviewer|moderator|facilitator|host|i|q|int|iv)(?:\s*\d+)?$")


@dataclass(frozen=True)
class Verdict:
    status: Status
    match_type: MatchType
    confidence: float
    band: Band
    reasons: tuple[str, ...]
    severity: SeverityOrNone = ""  # for a review: what is at stake (types.SEVERITIES); empty otherwise
    # For a review: how likely a strict editor would call it a change of meaning (judge.odds), and the
    # features that was computed from.
    p_change: float | None = None
    signals: tuple[tuple[str, float], ...] = ()


def worst(severities: Iterable[SeverityOrNone]) -> SeverityOrNone:
    """The gravest of some severities ("" when there are none)."""
    ranked: list[Severity] = [s for s in severities if s]
    return min(ranked, key=SEVERITIES.index) if ranked else ""


def band(confidence: float, *, high: float = BAND_HIGH, medium: float = BAND_MEDIUM) -> Band:
    return "high" if confidence >= high else "medium" if confidence >= medium else "low"


def _default_confidence() -> ConfidenceConfig:
    return load_config().confidence


def _verdict(status: Status, match_type: MatchType, confidence: float, reasons: list[str], c: ConfidenceConfig,
             severity: SeverityOrNone = "") -> Verdict:
    confidence = round(min(1.0, max(0.0, confidence)), 3)
    return Verdict(status, match_type, confidence, band(confidence, high=c.band_high, medium=c.band_medium),
                   tuple(dict.fromkeys(reasons)), severity if status == "review" else "")


def _review(verdict: Verdict, said: list[tuple[str, str]], ev: Evidence, c: ConfidenceConfig) -> Verdict:
    """A verdict in review with its p_change (judge.odds), its severity from it (confidence.change_high and
    change_medium), and its reasons ordered by what raises p_change most."""
    model = odds.shipped()
    words = [d for d in ev.comparison.differences if d.kind in ("word", "near_word")]
    left_out = sum(len(WORD.findall(d.source_text)) for d in words if not d.quote_text) + sum(
        gap.words for gap in ev.comparison.elided if not gap.shown and (gap.marked or gap.where == "inside"))
    measured = odds.Measured(left_out, sum(len(WORD.findall(d.quote_text)) for d in words), verdict.severity,
                             verdict.confidence)
    found = odds.features((signal for _, signal in said), measured)
    p = round(model.p_change(found), 3)
    severity: Severity = "high" if p >= c.change_high else "medium" if p >= c.change_medium else "low"
    reasons = tuple(dict.fromkeys([*odds.ordered(said, model), *verdict.reasons]))
    return replace(verdict, severity=severity, reasons=reasons, p_change=p, signals=tuple(found.items()))


def _show(text: str, limit: int = 80) -> str:
    return "'" + clip(text, limit) + "'"


def _says(kind: str, quote_text: str, source_text: str) -> str:
    q = _show(quote_text) if quote_text else "nothing"
    s = _show(source_text) if source_text else "nothing"
    return f"{kind} differs: quote says {q}, source says {s}"


_CLASS_NAMES = {"negation": ("negation", "negations"), "number": ("number", "numbers"),
                "quantifier": ("quantifier", "quantifiers"), "limiter": ("limiter", "limiters"),
                "hedge": ("hedge or modal", "hedges or modals"), "condition": ("condition", "conditions"),
                "reporting": ("reporting frame", "reporting frames"), "contrast": ("contrast", "contrasts"),
                "correction": ("correction", "corrections")}
# Classes of words whose loss inverts a claim rather than leaving some of it out.
_INVERTING = frozenset({"negation", "number"})


def _count(n: int, names: tuple[str, str]) -> str:
    return f"{n:,} {names[0] if n == 1 else names[1]}"


@dataclass(frozen=True)
class Problem:
    """Why a quote needs review, what is at stake (one of types.SEVERITIES) and, where the problem sets it,
    the confidence it leaves (how likely the quote is faithful all the same)."""

    reason: str
    severity: Severity
    confidence: float | None = None
    signal: str = ""  # what kind of evidence it is (judge.odds.SIGNALS): what p_change weighs


@dataclass(frozen=True)
class Omitting:
    """What the omission rules need besides the omissions: the settings and the quote's language and size."""

    verdict: VerdictConfig
    confidence: ConfidenceConfig
    language: str
    has_lexicon: bool
    quote_words: int


def _holding(hidden: tuple[tuple[str, str], ...]) -> str:
    """The words of contract classes among what is left out, as a reason names them."""
    if len(hidden) <= 3:
        return ", ".join(f"'{w}'" for _, w in hidden)
    by_class: dict[str, int] = {}
    for cls, _ in hidden:
        by_class[cls] = by_class.get(cls, 0) + 1
    counts = [_count(n, _CLASS_NAMES.get(cls, (cls, cls + "s"))) for cls, n in by_class.items()]
    return ", ".join(counts[:-1]) + f" and {counts[-1]}" if len(counts) > 1 else counts[0]


def _stake(gap: Elision, o: Omitting, where: str = "ellipsis") -> tuple[Severity, float, str]:
    """What leaving ``gap`` out puts at stake, the confidence left, and the signal it gives (``where`` and what
    it leaves out: ellipsis_inverting, ellipsis_slight, ellipsis_qualifier, ellipsis_content): high when it
    inverts (a negation, a number); low when all it leaves out is an intensifier ("very", "just") or words
    that name nothing ("you", "could", "that": most likely a false start or filler no test recognised) or an
    aside holding a qualifier; else medium."""
    c = o.confidence
    classes = {cls for cls, _ in gap.hidden}
    if classes & _INVERTING:
        return "high", c.elided_review, f"{where}_inverting"
    said = {straight(w) for w in WORD.findall(gap.left_out.casefold())}
    limiters = {part for cls, w in gap.hidden if cls == "limiter" for part in w.split()}
    if said and said <= limiters:
        return "low", c.uncertain_review, f"{where}_slight"
    if not gap.hidden and only_function_words(o.language, gap.left_out, min_zipf=o.verdict.function_word_zipf):
        return "low", c.slight_omission_review, f"{where}_slight"
    if gap.set_off:  # an aside (", I think,", "-- about this --") holding a qualifier
        return "low", c.slight_omission_review, f"{where}_slight"
    return "medium", c.elided_review, f"{where}_{'qualifier' if gap.hidden else 'content'}"


def _inside(gap: Elision, o: Omitting) -> Problem | None:
    """An ellipsis between two pieces of the quote: benign only when a test showed it empty."""
    if gap.shown or not gap.words:
        return None
    if gap.points_back:
        into = "answer a question among" if "?" in gap.left_out else "point back into"
        return Problem(f"the sentence kept after the ellipsis opens with '{gap.points_back}', which may {into} the "
                       f"{gap.sentences} sentence{'s' if gap.sentences != 1 else ''} it leaves out: "
                       f"{_show(gap.left_out, 60)}", "medium", o.confidence.excerpt_review, "points_back")
    if not o.has_lexicon:
        return Problem(f"ellipsis inside a sentence: the language ({o.language}) has no lexicon to check what it "
                       f"leaves out: {_show(gap.left_out, 60)}", "medium", signal="no_lexicon")
    reason = f"ellipsis leaves out {_show(gap.left_out, 60)}"
    if gap.hidden:
        reason += f", which holds {_holding(gap.hidden)}" if len(gap.hidden) <= 3 else \
            f": {gap.words:,} words, including {_holding(gap.hidden)}"
    return Problem(reason, *_stake(gap, o))


def _edge(gap: Elision, o: Omitting) -> tuple[Problem | None, str]:
    """The rest of a sentence the quote starts or ends in: (a problem, or a note for the reader)."""
    side = "starts" if gap.where == "before" else "ends"
    if gap.marked:
        if gap.shown in ("clause", "connective") or gap.shown and not gap.hidden:
            return None, ""
        holds = f", which holds {_holding(gap.hidden)}" if gap.hidden else ", which is part of the sentence it cuts"
        return Problem(f"the ellipsis where the quote {side} leaves out {_show(gap.left_out, 60)}{holds}",
                       *_stake(gap, o, "edge")), ""
    turns = _holding(gap.hidden)
    if o.quote_words < o.verdict.excerpt_min_words:
        return None, (f"a short quote: the sentence it {side} in goes on {_show(gap.left_out, 60)} ({turns}); "
                      "read it in context")
    return Problem(f"the quote {side} inside a sentence that goes on {_show(gap.left_out, 60)}, whose {turns} "
                   "may turn what it says", "medium", o.confidence.excerpt_review, _cut_signal(gap)), ""


# The classes of a word that turns a cut sentence, by what the signal names (the first that the rest holds).
_CUT_SIGNALS = (("negation", "cut_negation"), ("correction", "cut_correction"), ("contrast", "cut_contrast"),
                ("condition", "cut_condition"), ("reporting", "cut_attribution"), ("frame", "cut_attribution"))


def _cut_signal(gap: Elision) -> str:
    """The signal of a cut sentence's rest that may turn the quote: by the gravest class of word it holds."""
    classes = {cls for cls, _ in gap.hidden}
    return next((signal for cls, signal in _CUT_SIGNALS if cls in classes), "cut_qualifier")


def omission_problems(elided: tuple[Elision, ...], o: Omitting) -> tuple[list[Problem], list[str]]:
    """Why what the quote leaves out is not benign (one problem per omission), and notes on what it leaves
    out benignly (omissions: each is benign only when a test showed it empty).

    Never across a change of speaker; never more than verdict.max_elided_words source words under one ellipsis.
    """
    problems: list[Problem] = []
    notes: list[str] = []
    most = o.verdict.max_elided_words
    for gap in elided:
        if gap.speakers:
            first, *between, last = gap.speakers
            if speaker_key(first) != speaker_key(last):
                problems.append(Problem(f"the ellipsis joins {first}'s words to {last}'s", "high",
                                        signal="ellipsis_speakers"))
            else:
                problems.append(Problem(f"the ellipsis runs over {' and '.join(between)}'s words between {first}'s",
                                        "high", signal="ellipsis_speakers"))
        elif gap.where != "inside":
            problem, note = _edge(gap, o)
            problems += [problem] if problem else []
            notes += [note] if note else []
        elif gap.words > most:
            problems.append(Problem(f"ellipsis stands for {gap.words:,} source words (more than {most})", "medium",
                                    signal="ellipsis_long"))
        else:
            problem = _inside(gap, o)
            problems += [problem] if problem else []
            notes += [] if problem else elision_notes((gap,))
    return problems, notes


def elision_notes(elided: tuple[Elision, ...]) -> list[str]:
    """What a benign ellipsis left out, for the reader: whole sentences of the turn, disfluencies, an aside."""
    notes = []
    for gap in elided:
        if gap.shown == "sentences":
            notes.append(f"ellipsis leaves out {gap.sentences} whole sentence{'s' if gap.sentences > 1 else ''} "
                         "of the same turn")
        elif gap.shown == "disfluency":
            notes.append("ellipsis leaves out only fillers, repeats, false starts, timecodes or the speaker's own "
                         f"label: {_show(gap.text.strip(), 60)}")
        elif gap.shown == "aside":
            notes.append(f"ellipsis leaves out an aside: {_show(gap.text.strip(), 60)}")
        elif gap.shown == "address":
            notes.append(f"ellipsis leaves out a form of address: {_show(gap.text.strip(), 60)}")
    return notes


def coverage(alignment: Alignment, *, nearest: bool = False) -> float:
    """Share of the quote's words matched exactly by the located pieces (or the nearest passage)."""
    pieces = alignment.segments or ((alignment.nearest,) if nearest and alignment.nearest else ())
    return sum(s.matched for s in pieces) / max(1, alignment.quote_words)


def needs_cosine(alignment: Alignment, comparison: Comparison, verdict: VerdictConfig) -> bool:
    """Whether the verdict or its confidence can depend on the cosine.

    Only then is the quote embedded: a quote found word for word, or one far
    from every passage, is decided by lexical evidence alone.
    """
    if not comparison.pieces_text:
        return False
    if coverage(alignment) < verdict.min_coverage:
        return coverage(alignment, nearest=True) >= verdict.paraphrase_min_coverage
    kinds = {d.kind for d in comparison.differences}
    if {"splice", "order"} & kinds or LOAD_BEARING & kinds:
        return False  # decided by those rules first: the cosine would change nothing
    # A word changed in a quote found in place: review either way, and the match ratio says how close.
    changed = sum(max(len(WORD.findall(d.quote_text)), len(WORD.findall(d.source_text)))
                  for d in comparison.differences if d.kind == "word")
    return changed >= verdict.cosine_min_word_changes or (comparison.match_ratio or 0) < verdict.min_match_ratio


@dataclass(frozen=True)
class Evidence:
    """What the rules look at for one quote."""

    quote: Quote
    alignment: Alignment
    comparison: Comparison
    cosine: float | None
    kinds: frozenset[DifferenceKind]
    language: str
    has_lexicon: bool
    omitted: tuple[Problem, ...] = ()  # what the quote leaves out that no test showed empty
    omission_notes: tuple[str, ...] = ()  # what it leaves out benignly, for the reader

    def of_kind(self, *kinds: DifferenceKind) -> list[Difference]:
        return [d for d in self.comparison.differences if d.kind in kinds]


@dataclass(frozen=True)
class Call:
    """What a rule decides: status, match type, confidence (None: the match type's base), reasons and,
    for a review, what is at stake."""

    status: Status
    match_type: MatchType
    confidence: float | None
    reasons: tuple[str, ...] = ()
    severity: SeverityOrNone = ""
    signals: tuple[str, ...] = ()  # the signal of each reason (judge.odds.SIGNALS), in the same order


# The rules for a located quote, in order: the first that applies names the match type and the confidence;
# every review rule that applies adds its reasons, and the gravest severity among them is the quote's.

def spliced(ev: Evidence, v: VerdictConfig, c: ConfidenceConfig) -> Call | None:
    if "splice" not in ev.kinds:
        return None
    found = ev.of_kind("splice")
    return Call("review", "spliced", None, tuple(f"spliced: {_show(d.quote_text, 50)} is from {d.source_text}"
                                                 for d in found), "high", ("splice",) * len(found))


def reordered(ev: Evidence, v: VerdictConfig, c: ConfidenceConfig) -> Call | None:
    if "order" not in ev.kinds:
        return None
    found = ev.of_kind("order")
    return Call("review", "reordered", None, tuple(f"out of order: {_show(d.quote_text, 50)} is in {d.source_text}"
                                                   for d in found), "high", ("order",) * len(found))


def altered(ev: Evidence, v: VerdictConfig, c: ConfidenceConfig) -> Call | None:
    """A changed number, negation or name: never verified, whatever the cosine."""
    if not ev.kinds & LOAD_BEARING:
        return None
    found = ev.of_kind(*LOAD_BEARING)
    return Call("review", "altered", None, tuple(_says(d.kind, d.quote_text, d.source_text) for d in found), "high",
                tuple(d.kind for d in found))


def hidden_by_ellipsis(ev: Evidence, v: VerdictConfig, c: ConfidenceConfig) -> Call | None:
    """Something left out that no test showed empty: under an ellipsis, or cut off with the sentence's rest."""
    if not ev.omitted:
        return None
    level = min(c.elided_review if p.confidence is None else p.confidence for p in ev.omitted)
    return Call("review", "elided", level, tuple(p.reason for p in ev.omitted), worst(p.severity for p in ev.omitted),
                tuple(p.signal for p in ev.omitted))


def reworded(ev: Evidence, v: VerdictConfig, c: ConfidenceConfig) -> Call | None:
    """Any other changed word, or too low a match ratio: a paraphrase at best.

    A word exchanged is a claim altered (high); words only left out or put in, content (medium)."""
    if not ev.kinds & {"word", "near_word"} and (ev.comparison.match_ratio or 0) >= v.min_match_ratio:
        return None
    changed = ev.of_kind("word", "near_word")
    reasons = list(ev.comparison.bracket_reasons)
    signals = list(ev.comparison.bracket_signals)
    reasons += [_word_reason(d.quote_text, d.source_text, d.kind == "near_word") for d in changed[:3]]
    signals += [_word_signal(d) for d in changed[:3]]
    if len(changed) > 3:
        reasons.append(f"and {len(changed) - 3} more word changes")
        signals.append("words_many")
    if not changed and not ev.comparison.bracket_reasons:
        reasons.append(f"the words match only {ev.comparison.match_ratio or 0:.0%} of the passage's")
        signals.append("words_many")
    evidence = ev.cosine if ev.cosine is not None else (ev.comparison.match_ratio or 0)
    # A word exchanged for another alters the claim, and so does a bracket that stands for other words than
    # the source's; a slip into a real word may be only a slip, and words left out or put in (by a bracket
    # too) are content lost or added.
    exchanged = any(d.kind == "word" and d.quote_text and d.source_text for d in changed) or not changed
    if ev.comparison.bracket_reasons:
        exchanged = ev.comparison.bracket_replaces
    level = c.paraphrase_base + c.paraphrase_span * max(0.0, evidence)
    severity: Severity = "high" if exchanged else "medium"
    if severity == "medium" and not ev.comparison.bracket_reasons and all(
            only_function_words(ev.language, d.quote_text or d.source_text, min_zipf=v.function_word_zipf)
            for d in changed):
        severity, level = "low", c.slight_omission_review  # only words that name nothing ("you", "the")
    return Call("review", "paraphrase", level, tuple(reasons), severity, tuple(signals))


def _word_signal(d: Difference) -> str:
    """The signal of a word difference: a slip into another word, a word exchanged, put in or left out."""
    if d.kind == "near_word":
        return "near_word"
    return "word_exchanged" if d.quote_text and d.source_text else "word_added" if d.quote_text else "word_dropped"


def _word_reason(quote_text: str, source_text: str, near: bool = False) -> str:
    if near:
        return _says("wording", quote_text, source_text) + " (a slip into another word, or another word)"
    if not quote_text:
        return f"the quote leaves out {_show(source_text)}"
    if not source_text:
        return f"the quote puts in {_show(quote_text)}, which the source does not say"
    return _says("wording", quote_text, source_text)


# Differences a person must look at, though little is at stake: how a question or a word is written.
UNCERTAIN: dict[DifferenceKind, str] = {"speech_act": "speech act", "case": "case", "hyphenation": "hyphenation",
                                        "homoglyph": "script", "quote_marks": "quotation marks",
                                        "sense": "reading"}
# Of those, the ones that may put in a stance or another sense: more at stake than how a word is written.
STANCE_OR_SENSE: frozenset[DifferenceKind] = frozenset({"quote_marks", "sense"})


def uncertain(ev: Evidence, v: VerdictConfig, c: ConfidenceConfig) -> Call | None:
    """A question made a statement, a case change that makes another word (us, US), a hyphen, a letter of
    another script that looks the same: review, low. Quotation marks put in around words (scare quotes), and
    a form that may read otherwise than the source's ("I had like" for "I'd like", "no 1" for "no one",
    "cheque" for "check"): review, medium."""
    found = ev.of_kind(*UNCERTAIN)
    if not found:
        return None
    severity: Severity = "medium" if any(d.kind in STANCE_OR_SENSE for d in found) else "low"
    return Call("review", "edited", c.uncertain_review, tuple(
        _marked(ev.quote.text) if d.kind == "quote_marks" else _says(UNCERTAIN[d.kind], d.quote_text, d.source_text)
        for d in found), severity, tuple(d.kind for d in found))


# Words in quotation marks inside a quote: "a “fair” bit", «réforme».
_IN_MARKS = re.compile(r"(?<!\w)[\"\u201c\u201e\u00ab\u2039'\u2018\u201a]"
                       r"(\w[^\"\u201c\u201d\u00ab\u00bb\u2039\u203a]{0,60}?)"
                       r"[\"\u201d\u201c\u00bb\u203a'\u2019\u2018]")


def _marked(quote: str) -> str:
    """The reason for quotation marks put in, naming the first words they mark inside the quote (not the
    marks it is wrapped in)."""
    body = quote.strip()
    end = len(body.rstrip(".,;:!?"))
    found = next((m for i in range(1, end) if (m := _IN_MARKS.match(body, i)) and m.end() < end), None)
    around = f" around {_show(found.group(1))}" if found else ""
    return f"the quote puts quotation marks{around} that the source does not have (scare quotes, or words " \
           "marked as said by someone else)"


def cut_inside_a_word(ev: Evidence, v: VerdictConfig, c: ConfidenceConfig) -> Call | None:
    """A quote that starts or ends inside a word ("isual acuity"): found, but not as the source says it."""
    if "cut" not in ev.kinds:
        return None
    found = ev.of_kind("cut")
    return Call("review", "edited", c.uncertain_review, tuple(
        f"cut inside a word: quote has {_show(d.quote_text)}, source has {_show(d.source_text)}"
        for d in found), "low", ("cut_word",) * len(found))


def edited(ev: Evidence, v: VerdictConfig, c: ConfidenceConfig) -> Call | None:
    """Fillers left out, slips into no word, contractions: verified while light (verdict.edited_max_changes)."""
    if not ev.kinds & EDITS:
        return None
    edits = ev.of_kind(*EDITS)
    reasons = [f"{d.kind}: quote has {_show(d.quote_text) if d.quote_text else 'nothing'}, "
               f"source has {_show(d.source_text) if d.source_text else 'nothing'}" for d in edits][:5]
    typos = sum(1 for d in edits if d.kind == "typo")
    light = typos / max(1, ev.alignment.quote_words) <= v.edited_max_changes
    if v.edited_is_verified and light:
        return Call("verified", "edited", c.edited_base + c.edited_span * (ev.comparison.match_ratio or 0),
                    tuple(reasons))
    reasons.append("edited quotes need review (verdict.edited_is_verified is off)"
                   if light else f"{typos} misspelt words out of {ev.alignment.quote_words}")
    return Call("review", "edited", c.edited_review, tuple(reasons), "low", ("typos",) * len(reasons))


def elided(ev: Evidence, v: VerdictConfig, c: ConfidenceConfig) -> Call | None:
    if "elision" not in ev.kinds:
        return None
    return Call("verified", "elided", None)


def normalized(ev: Evidence, v: VerdictConfig, c: ConfidenceConfig) -> Call | None:
    return Call("verified", "normalized", None) if ev.kinds & BENIGN else None


def exact(ev: Evidence, v: VerdictConfig, c: ConfidenceConfig) -> Call | None:
    return Call("verified", "exact", None)


LOCATED_RULES = (spliced, reordered, altered, hidden_by_ellipsis, reworded, cut_inside_a_word, uncertain, edited,
                 elided, normalized, exact)


def unlocated(ev: Evidence, v: VerdictConfig, c: ConfidenceConfig) -> Call:
    """Too few words align: a paraphrase when the meaning is close enough (cosine), else unverified.

    A high cosine alone never locates a quote: enough of its words must align too; and a passage whose
    negation, number or name differs from the quote's never "means much the same".
    """
    alignment, cosine = ev.alignment, ev.cosine
    near_cov = coverage(alignment, nearest=True)
    near = near_cov >= v.paraphrase_min_coverage and bool(ev.comparison.document)
    if near_cov >= v.min_coverage and ev.comparison.document and ev.kinds & LOAD_BEARING:
        call = altered(ev, v, c)
        assert call is not None
        return Call("review", "altered", None, (*call.reasons, f"only {near_cov:.0%} of the quote's words align "
                                                f"with the passage"), "high", (*call.signals, "reworded"))
    if cosine is not None and cosine >= v.paraphrase_cosine and near:
        return Call("review", "paraphrase", c.reworded_base + c.reworded_span * cosine,
                    (f"reworded: only {near_cov:.0%} of the quote's words align, "
                     f"but the passage means much the same (cosine {cosine:.2f})",), "high", ("reworded",))
    nearest = bool(alignment.segments or alignment.nearest)
    return Call("unverified", "unlocated", c.unlocated_max * min(1.0, near_cov),
                ("no passage in the sources aligns with this quote"
                 + (f" (at best {near_cov:.0%} of its words)" if nearest else ""),))


def misattributed(ev: Evidence, claimed_known: bool) -> list[str]:
    """Found in another document than the one claimed."""
    quote, document = ev.quote, ev.comparison.document
    if claimed_known and quote.claimed_document and document and document != quote.claimed_document:
        return [f"found in {document}, not in claimed {quote.claimed_document}"]
    return []


def wrong_speaker(ev: Evidence, speaker: str, turn_speakers: tuple[str, ...]) -> tuple[list[Problem], list[str]]:
    """(problems, notes) of who says the quoted words: another speaker than claimed, an interviewer,
    or several speakers' turns (a problem when a speaker is claimed or an interviewer is among them)."""
    quote = ev.quote
    problems: list[Problem] = []
    notes: list[str] = []
    if quote.speaker and speaker and not same_speaker(quote.speaker, speaker):
        problems.append(Problem(f"said by {speaker}, not by claimed {quote.speaker}", "high", signal="other_speaker"))
    elif speaker and INTERVIEWER.match(speaker_key(speaker)) and not quote.speaker:
        problems.append(Problem(f"from the interviewer's turn ({speaker}), not a participant's", "medium",
                                signal="interviewer"))
    if len(turn_speakers) > 1:
        crossing = f"runs across {len(turn_speakers)} speaker turns ({', '.join(turn_speakers)})"
        # An ellipsis that joins the speakers is named as such (omission_problems); else the quote must name
        # each speaker it runs into.
        unnamed = _unnamed(quote.text, turn_speakers) and not any(gap.speakers for gap in ev.comparison.elided)
        if quote.speaker or unnamed or any(INTERVIEWER.match(speaker_key(s)) for s in turn_speakers):
            problems.append(Problem(crossing, "high", signal="crosses_speakers"))
        else:
            notes.append(crossing)
    return problems, notes


def _unnamed(quote: str, turn_speakers: tuple[str, ...]) -> bool:
    """Whether a quote that runs across speakers' turns gives another speaker's words without the label that
    says whose they are ("Jack, how do you read? Fred, Houston is reading you" over a "CC:" label): a word of the
    label of each turn it runs into, as the source writes it, must be among the quote's words."""
    said = set(WORD.findall(quote.casefold()))
    return any(speaker_key(later) != speaker_key(before) and not set(WORD.findall(later.casefold())) & said
               for before, later in zip(turn_speakers, turn_speakers[1:]))


def _located(ev: Evidence, v: VerdictConfig, c: ConfidenceConfig) -> Call:
    """The verdict on a located quote from LOCATED_RULES (see above)."""
    calls = [call for rule in LOCATED_RULES if (call := rule(ev, v, c)) is not None]
    first = calls[0]
    if first.status != "review":
        return replace(first, reasons=(*first.reasons, *ev.omission_notes))
    reviews = [call for call in calls if call.status == "review"]
    return replace(first, reasons=tuple(r for call in reviews for r in call.reasons),
                   severity=worst(call.severity for call in reviews),
                   signals=tuple(s for call in reviews for s in _signals_of(call)))


def _signals_of(call: Call) -> tuple[str, ...]:
    """A call's signal for each of its reasons (a reason without one carries none)."""
    return call.signals + ("",) * (len(call.reasons) - len(call.signals))


@dataclass(frozen=True)
class Setting:
    """Where a quote was found and in what language: what the rules need besides the evidence.

    ``claimed_known``: the document it claims is among the sources; ``speaker``: the speaker of the
    transcript turn it was found in, if known; ``turn_speakers``: the speakers whose turns the quoted
    words run across, in order; ``language`` and ``has_lexicon``: the language it is judged in, and
    whether quoteverify has that language's lexicon.
    """

    claimed_known: bool
    speaker: str = ""
    turn_speakers: tuple[str, ...] = ()
    language: str = "en"
    has_lexicon: bool = True


def classify(quote: Quote, alignment: Alignment, comparison: Comparison, cosine: float | None, *,
             verdict: VerdictConfig, confidence: ConfidenceConfig | None = None, setting: Setting) -> Verdict:
    """The verdict on one quote: LOCATED_RULES (or unlocated), then who said it and where (``setting``)."""
    c = confidence if confidence is not None else _default_confidence()
    language, has_lexicon = setting.language, setting.has_lexicon
    notes = list(quote.notes)
    if quote.problem:
        return _verdict("unverified", "unlocated", 0.0, [quote.problem] + notes, c)
    omitted, omission_notes = omission_problems(
        comparison.elided, Omitting(verdict, c, language, has_lexicon, alignment.quote_words))
    ev = Evidence(quote, alignment, comparison, cosine, frozenset(d.kind for d in comparison.differences),
                  language, has_lexicon, tuple(omitted), tuple(omission_notes))
    if not alignment.segments or coverage(alignment) < verdict.min_coverage:
        call = unlocated(ev, verdict, c)
        level = call.confidence if call.confidence is not None else getattr(c, call.match_type)
        found = _verdict(call.status, call.match_type, level, [*call.reasons, *notes], c, call.severity)
        return _review(found, list(zip(call.reasons, _signals_of(call))), ev, c) if call.status == "review" else found
    call = _located(ev, verdict, c)
    status, match_type, severity = call.status, call.match_type, call.severity
    said = list(zip(call.reasons, _signals_of(call))) if status == "review" else []
    reasons, level = list(call.reasons), call.confidence
    elsewhere = misattributed(ev, setting.claimed_known)
    reasons[:0] = elsewhere
    said[:0] = [(reason, "other_document") for reason in elsewhere]
    if elsewhere:
        severity = worst((severity, "high"))
        if status == "verified":
            status, match_type, level = "review", "misattributed", None
    problems, crossing = wrong_speaker(ev, setting.speaker, setting.turn_speakers)
    reasons[:0] = [p.reason for p in problems]
    said[:0] = [(p.reason, p.signal) for p in problems]
    reasons += crossing
    if problems:
        severity = worst((severity, *(p.severity for p in problems)))
        if status == "verified":
            status, match_type, level = "review", "misattributed", None
    if level is None:
        level = getattr(c, match_type)
    if status == "review":
        level = min(level, c.review_max)
    found = _verdict(status, match_type, level, reasons + notes, c, severity)
    return _review(found, said, ev, c) if status == "review" else found
