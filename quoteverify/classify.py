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
from types import SimpleNamespace

from .diff import BENIGN, EDITS, LOAD_BEARING
from .turns import same_speaker, speaker_key
from .types import Alignment, Comparison, Elision, Quote

_BASE_CONFIDENCE = {
    "exact": 1.0, "normalized": 0.95, "elided": 0.9,
    "misattributed": 0.75, "altered": 0.45, "spliced": 0.4, "reordered": 0.4,
}


# Speaker labels of the person asking the questions, as speaker_key() gives them.
INTERVIEWER = re.compile(r"(?i)^(?:interviewer|moderator|facilitator|host|i|q|int|iv)(?:\s*\d+)?$")


@dataclass(frozen=True)
class Verdict:
    status: str
    match_type: str
    confidence: float
    band: str
    reasons: tuple[str, ...]


def band(confidence: float) -> str:
    return "high" if confidence >= 0.8 else "medium" if confidence >= 0.6 else "low"


def _verdict(status: str, match_type: str, confidence: float, reasons: list[str]) -> Verdict:
    confidence = round(min(1.0, max(0.0, confidence)), 3)
    return Verdict(status, match_type, confidence, band(confidence), tuple(reasons))


def _show(text: str, limit: int = 80) -> str:
    text = " ".join(text.split())
    return "'" + (text if len(text) <= limit else text[: limit - 1] + "…") + "'"


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
            problems.append(f"the ellipsis joins {gap.speakers[0]}'s words to {gap.speakers[1]}'s")
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


def needs_cosine(alignment: Alignment, comparison: Comparison, verdict: SimpleNamespace) -> bool:
    """Whether the verdict or its confidence can depend on the cosine.

    Only then is the quote embedded: a quote found word for word, or one far
    from every passage, is decided by lexical evidence alone.
    """
    if not comparison.pieces_text:
        return False
    if coverage(alignment) < verdict.min_coverage:
        return coverage(alignment, nearest=True) >= verdict.paraphrase_min_coverage
    kinds = {d.kind for d in comparison.differences}
    return "word" in kinds or (comparison.match_ratio or 0) < verdict.min_match_ratio


def classify(quote: Quote, alignment: Alignment, comparison: Comparison, cosine: float | None, *,
             verdict: SimpleNamespace, claimed_known: bool, speaker: str = "",
             turn_speakers: tuple[str, ...] = (), language: str = "en", has_lexicon: bool = True) -> Verdict:
    """The verdict on one quote from its alignment, differences and cosine.

    ``speaker`` is the speaker of the transcript turn the quote was found in, if known;
    ``turn_speakers`` the speakers whose turns the quoted words run across, in order.
    """
    notes = list(quote.notes)
    if quote.problem:
        return _verdict("unverified", "unlocated", 0.0, [quote.problem] + notes)
    words = max(1, alignment.quote_words)
    kinds = {d.kind for d in comparison.differences}
    if not alignment.segments or coverage(alignment) < verdict.min_coverage:
        near = bool(alignment.segments or alignment.nearest)
        near_cov = coverage(alignment, nearest=True)
        if (cosine is not None and cosine >= verdict.paraphrase_cosine
                and near_cov >= verdict.paraphrase_min_coverage and comparison.document):
            return _verdict("review", "paraphrase", 0.3 + 0.3 * cosine,
                            [f"reworded: only {near_cov:.0%} of the quote's words align, "
                             f"but the passage means much the same (cosine {cosine:.2f})"] + notes)
        return _verdict("unverified", "unlocated", 0.25 * min(1.0, near_cov),
                        ["no passage in the sources aligns with this quote"
                         + (f" (at best {near_cov:.0%} of its words)" if near else "")] + notes)

    reasons: list[str] = []
    status, match_type = "verified", "exact"
    confidence = None
    if "splice" in kinds:
        status, match_type = "review", "spliced"
        reasons += [f"spliced: {_show(d.quote_text, 50)} is from {d.source_text}"
                    for d in comparison.differences if d.kind == "splice"]
    elif "order" in kinds:
        status, match_type = "review", "reordered"
        reasons += [f"out of order: {_show(d.quote_text, 50)} is in {d.source_text}"
                    for d in comparison.differences if d.kind == "order"]
    elif kinds & LOAD_BEARING:
        status, match_type = "review", "altered"
        reasons += [_says(d.kind, d.quote_text, d.source_text)
                    for d in comparison.differences if d.kind in LOAD_BEARING]
    elif (hidden := elision_problems(comparison.elided, max_words=verdict.max_elided_words,
                                     has_lexicon=has_lexicon, language=language)):
        status, match_type = "review", "elided"
        reasons += hidden
        confidence = 0.45
    elif "word" in kinds or (comparison.match_ratio or 0) < verdict.min_match_ratio:
        status, match_type = "review", "paraphrase"
        changed = [d for d in comparison.differences if d.kind == "word"]
        reasons += list(comparison.bracket_reasons)
        reasons += [_says("wording", d.quote_text, d.source_text) for d in changed[:3]]
        if len(changed) > 3:
            reasons.append(f"and {len(changed) - 3} more word changes")
        evidence = cosine if cosine is not None else (comparison.match_ratio or 0)
        confidence = 0.3 + 0.4 * max(0.0, evidence)
    elif kinds & EDITS:
        typos = sum(1 for d in comparison.differences if d.kind == "typo")
        match_type = "edited"
        reasons += [f"{d.kind}: quote has {_show(d.quote_text) if d.quote_text else 'nothing'}, "
                    f"source has {_show(d.source_text) if d.source_text else 'nothing'}"
                    for d in comparison.differences if d.kind in EDITS][:5]
        light = typos / words <= verdict.edited_max_changes
        if not (verdict.edited_is_verified and light):
            status = "review"
            reasons.append("edited quotes need review (verdict.edited_is_verified is off)"
                           if light else f"{typos} misspelt words out of {words}")
        confidence = (0.8 + 0.15 * (comparison.match_ratio or 0)) if status == "verified" else 0.75
    elif "elision" in kinds:
        match_type = "elided"
        reasons += elision_notes(comparison.elided)
    elif kinds & BENIGN:
        match_type = "normalized"
    if (claimed_known and quote.claimed_document and comparison.document
            and comparison.document != quote.claimed_document):
        reasons.insert(0, f"found in {comparison.document}, not in claimed {quote.claimed_document}")
        if status == "verified":
            status, match_type, confidence = "review", "misattributed", None
    wrong_speaker = []
    if quote.speaker and speaker and not same_speaker(quote.speaker, speaker):
        wrong_speaker.append(f"said by {speaker}, not by claimed {quote.speaker}")
    elif speaker and INTERVIEWER.match(speaker_key(speaker)) and not quote.speaker:
        wrong_speaker.append(f"from the interviewer's turn ({speaker}), not a participant's")
    if len(turn_speakers) > 1:
        crossing = f"runs across {len(turn_speakers)} speaker turns ({', '.join(turn_speakers)})"
        # Someone else's words are in it when a speaker is claimed or an interviewer's turn is crossed;
        # otherwise it is said, by the speakers named, and the reason is for the reader.
        if quote.speaker or any(INTERVIEWER.match(speaker_key(s)) for s in turn_speakers):
            wrong_speaker.append(crossing)
        else:
            reasons.append(crossing)
    if wrong_speaker:
        reasons[:0] = wrong_speaker
        if status == "verified":
            status, match_type, confidence = "review", "misattributed", None
    if confidence is None:
        confidence = _BASE_CONFIDENCE[match_type]
    if status == "review":
        confidence = min(confidence, 0.79)
    return _verdict(status, match_type, confidence, reasons + notes)
