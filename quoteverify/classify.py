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
from dataclasses import dataclass

from .config import ConfidenceConfig, VerdictConfig, load_config
from .tokenize import WORD
from .turns import same_speaker, speaker_key
from .types import BAND_HIGH, BAND_MEDIUM, BENIGN, EDITS, LOAD_BEARING, Alignment, Comparison, Elision, Quote
from .wording import clip

# Speaker labels of the person asking the questions, as speaker_key() gives them.
INTERVIEWER = re.compile(r"(?i)^(?:interviewer|moderator|facilitator|host|i|q|int|iv)(?:\s*\d+)?$")


@dataclass(frozen=True)
class Verdict:
    status: str
    match_type: str
    confidence: float
    band: str
    reasons: tuple[str, ...]


def band(confidence: float, *, high: float = BAND_HIGH, medium: float = BAND_MEDIUM) -> str:
    return "high" if confidence >= high else "medium" if confidence >= medium else "low"


def _default_confidence() -> ConfidenceConfig:
    return load_config().confidence


def _verdict(status: str, match_type: str, confidence: float, reasons: list[str], c: ConfidenceConfig) -> Verdict:
    confidence = round(min(1.0, max(0.0, confidence)), 3)
    return Verdict(status, match_type, confidence, band(confidence, high=c.band_high, medium=c.band_medium),
                   tuple(reasons))


def _show(text: str, limit: int = 80) -> str:
    return "'" + clip(text, limit) + "'"


def _says(kind: str, quote_text: str, source_text: str) -> str:
    q = _show(quote_text) if quote_text else "nothing"
    s = _show(source_text) if source_text else "nothing"
    return f"{kind} differs: quote says {q}, source says {s}"


_CLASS_NAMES = {"negation": ("negation", "negations"), "number": ("number", "numbers"),
                "quantifier": ("quantifier", "quantifiers"), "limiter": ("limiter", "limiters"),
                "hedge": ("hedge or modal", "hedges or modals"), "condition": ("condition", "conditions"),
                "reporting": ("reporting frame", "reporting frames")}


def _count(n: int, names: tuple[str, str]) -> str:
    return f"{n:,} {names[0] if n == 1 else names[1]}"


def elision_problems(elided: tuple[Elision, ...], *, max_words: int, has_lexicon: bool, language: str) -> list[str]:
    """Why an ellipsis is not benign, one line per ellipsis; empty when every one is.

    Benign: whole sentences of one speaker's turn, or words inside a sentence
    that carry no negation, number, quantifier, limiter, hedge or modal,
    condition or exception, or reporting frame; never across a change of
    speaker, never more than ``max_words`` source words.
    """
    problems = []
    for gap in elided:
        if gap.speakers:
            first, *between, last = gap.speakers
            if speaker_key(first) != speaker_key(last):
                problems.append(f"the ellipsis joins {first}'s words to {last}'s")
            else:
                problems.append(f"the ellipsis runs over {' and '.join(between)}'s words between {first}'s")
            continue
        if gap.words > max_words:
            problems.append(f"ellipsis stands for {gap.words:,} source words (more than {max_words})")
            continue
        if gap.sentences or not gap.words:
            continue
        if not has_lexicon:
            problems.append(f"ellipsis inside a sentence: the language ({language}) has no lexicon "
                            "to check what it hides")
            continue
        if not gap.hidden:
            continue
        if len(gap.hidden) <= 3:
            shown = ", ".join(f"'{w}'" for _, w in gap.hidden)
            problems.append(f"ellipsis hides {shown}")
            continue
        by_class: dict[str, int] = {}
        for cls, _ in gap.hidden:
            by_class[cls] = by_class.get(cls, 0) + 1
        counts = [_count(n, _CLASS_NAMES.get(cls, (cls, cls + "s"))) for cls, n in by_class.items()]
        listed = ", ".join(counts[:-1]) + f" and {counts[-1]}" if len(counts) > 1 else counts[0]
        problems.append(f"ellipsis omits {gap.words:,} words, including {listed}")
    return problems


def elision_notes(elided: tuple[Elision, ...]) -> list[str]:
    """What a benign ellipsis left out, for the reader: whole sentences of the turn."""
    notes = []
    for gap in elided:
        if gap.sentences and not gap.speakers:
            notes.append(f"ellipsis leaves out {gap.sentences} whole sentence{'s' if gap.sentences > 1 else ''} "
                         "of the same turn")
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
    kinds: frozenset[str]
    language: str
    has_lexicon: bool

    def of_kind(self, *kinds: str) -> list:
        return [d for d in self.comparison.differences if d.kind in kinds]


@dataclass(frozen=True)
class Call:
    """What a rule decides: status, match type, confidence (None: the match type's base) and reasons."""

    status: str
    match_type: str
    confidence: float | None
    reasons: tuple[str, ...] = ()


# The rules for a located quote, first match wins: each names the difference that decides the match type.

def spliced(ev: Evidence, v: VerdictConfig, c: ConfidenceConfig) -> Call | None:
    if "splice" not in ev.kinds:
        return None
    return Call("review", "spliced", None, tuple(f"spliced: {_show(d.quote_text, 50)} is from {d.source_text}"
                                                 for d in ev.of_kind("splice")))


def reordered(ev: Evidence, v: VerdictConfig, c: ConfidenceConfig) -> Call | None:
    if "order" not in ev.kinds:
        return None
    return Call("review", "reordered", None, tuple(f"out of order: {_show(d.quote_text, 50)} is in {d.source_text}"
                                                   for d in ev.of_kind("order")))


def altered(ev: Evidence, v: VerdictConfig, c: ConfidenceConfig) -> Call | None:
    """A changed number, negation or name: never verified, whatever the cosine."""
    if not ev.kinds & LOAD_BEARING:
        return None
    return Call("review", "altered", None, tuple(_says(d.kind, d.quote_text, d.source_text)
                                                 for d in ev.of_kind(*LOAD_BEARING)))


def hidden_by_ellipsis(ev: Evidence, v: VerdictConfig, c: ConfidenceConfig) -> Call | None:
    problems = elision_problems(ev.comparison.elided, max_words=v.max_elided_words, has_lexicon=ev.has_lexicon,
                                language=ev.language)
    return Call("review", "elided", c.elided_review, tuple(problems)) if problems else None


def reworded(ev: Evidence, v: VerdictConfig, c: ConfidenceConfig) -> Call | None:
    """Any other changed word, or too low a match ratio: a paraphrase at best."""
    if "word" not in ev.kinds and (ev.comparison.match_ratio or 0) >= v.min_match_ratio:
        return None
    changed = ev.of_kind("word")
    reasons = list(ev.comparison.bracket_reasons)
    reasons += [_says("wording", d.quote_text, d.source_text) for d in changed[:3]]
    if len(changed) > 3:
        reasons.append(f"and {len(changed) - 3} more word changes")
    evidence = ev.cosine if ev.cosine is not None else (ev.comparison.match_ratio or 0)
    return Call("review", "paraphrase", c.paraphrase_base + c.paraphrase_span * max(0.0, evidence), tuple(reasons))


def cut_inside_a_word(ev: Evidence, v: VerdictConfig, c: ConfidenceConfig) -> Call | None:
    """A quote that starts or ends inside a word ("isual acuity"): found, but not as the source says it."""
    if "cut" not in ev.kinds:
        return None
    return Call("review", "edited", c.edited_review, tuple(
        f"cut inside a word: quote has {_show(d.quote_text)}, source has {_show(d.source_text)}"
        for d in ev.of_kind("cut")))


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
    return Call("review", "edited", c.edited_review, tuple(reasons))


def elided(ev: Evidence, v: VerdictConfig, c: ConfidenceConfig) -> Call | None:
    if "elision" not in ev.kinds:
        return None
    return Call("verified", "elided", None, tuple(elision_notes(ev.comparison.elided)))


def normalized(ev: Evidence, v: VerdictConfig, c: ConfidenceConfig) -> Call | None:
    return Call("verified", "normalized", None) if ev.kinds & BENIGN else None


def exact(ev: Evidence, v: VerdictConfig, c: ConfidenceConfig) -> Call | None:
    return Call("verified", "exact", None)


LOCATED_RULES = (spliced, reordered, altered, hidden_by_ellipsis, reworded, cut_inside_a_word, edited, elided,
                 normalized, exact)


def unlocated(ev: Evidence, v: VerdictConfig, c: ConfidenceConfig) -> Call:
    """Too few words align: a paraphrase when the meaning is close enough (cosine), else unverified.

    A high cosine alone never locates a quote: enough of its words must align too.
    """
    alignment, cosine = ev.alignment, ev.cosine
    near_cov = coverage(alignment, nearest=True)
    if (cosine is not None and cosine >= v.paraphrase_cosine and near_cov >= v.paraphrase_min_coverage
            and ev.comparison.document):
        return Call("review", "paraphrase", c.reworded_base + c.reworded_span * cosine,
                    (f"reworded: only {near_cov:.0%} of the quote's words align, "
                     f"but the passage means much the same (cosine {cosine:.2f})",))
    near = bool(alignment.segments or alignment.nearest)
    return Call("unverified", "unlocated", c.unlocated_max * min(1.0, near_cov),
                ("no passage in the sources aligns with this quote"
                 + (f" (at best {near_cov:.0%} of its words)" if near else ""),))


def misattributed(ev: Evidence, claimed_known: bool) -> list[str]:
    """Found in another document than the one claimed."""
    quote, document = ev.quote, ev.comparison.document
    if claimed_known and quote.claimed_document and document and document != quote.claimed_document:
        return [f"found in {document}, not in claimed {quote.claimed_document}"]
    return []


def wrong_speaker(ev: Evidence, speaker: str, turn_speakers: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """(problems, notes) of who says the quoted words: another speaker than claimed, an interviewer,
    or several speakers' turns (a problem when a speaker is claimed or an interviewer is among them)."""
    quote = ev.quote
    problems: list[str] = []
    notes: list[str] = []
    if quote.speaker and speaker and not same_speaker(quote.speaker, speaker):
        problems.append(f"said by {speaker}, not by claimed {quote.speaker}")
    elif speaker and INTERVIEWER.match(speaker_key(speaker)) and not quote.speaker:
        problems.append(f"from the interviewer's turn ({speaker}), not a participant's")
    if len(turn_speakers) > 1:
        crossing = f"runs across {len(turn_speakers)} speaker turns ({', '.join(turn_speakers)})"
        if quote.speaker or any(INTERVIEWER.match(speaker_key(s)) for s in turn_speakers):
            problems.append(crossing)
        else:
            notes.append(crossing)
    return problems, notes


def classify(quote: Quote, alignment: Alignment, comparison: Comparison, cosine: float | None, *,
             verdict: VerdictConfig, confidence: ConfidenceConfig | None = None, claimed_known: bool,
             speaker: str = "", turn_speakers: tuple[str, ...] = (), language: str = "en",
             has_lexicon: bool = True) -> Verdict:
    """The verdict on one quote: the first of LOCATED_RULES that applies, then who said it and where.

    ``speaker`` is the speaker of the transcript turn the quote was found in, if known;
    ``turn_speakers`` the speakers whose turns the quoted words run across, in order.
    """
    c = confidence if confidence is not None else _default_confidence()
    notes = list(quote.notes)
    if quote.problem:
        return _verdict("unverified", "unlocated", 0.0, [quote.problem] + notes, c)
    ev = Evidence(quote, alignment, comparison, cosine, frozenset(d.kind for d in comparison.differences),
                  language, has_lexicon)
    if not alignment.segments or coverage(alignment) < verdict.min_coverage:
        call = unlocated(ev, verdict, c)
        level = call.confidence if call.confidence is not None else getattr(c, call.match_type)
        return _verdict(call.status, call.match_type, level, [*call.reasons, *notes], c)
    call = next(found for rule in LOCATED_RULES if (found := rule(ev, verdict, c)) is not None)
    status, match_type, reasons = call.status, call.match_type, list(call.reasons)
    level = call.confidence
    elsewhere = misattributed(ev, claimed_known)
    reasons[:0] = elsewhere
    if elsewhere and status == "verified":
        status, match_type, level = "review", "misattributed", None
    problems, crossing = wrong_speaker(ev, speaker, turn_speakers)
    reasons[:0] = problems
    reasons += crossing
    if problems and status == "verified":
        status, match_type, level = "review", "misattributed", None
    if level is None:
        level = getattr(c, match_type)
    if status == "review":
        level = min(level, c.review_max)
    return _verdict(status, match_type, level, reasons + notes, c)
