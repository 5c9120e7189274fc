"""What a quote leaves out of its source, and the positive tests that show it empty.

The verdict contract: a quote may leave source words out only where a test
shows that what it leaves out holds no content the kept words depend on.

- ``disfluent`` (and ``left_out``, which judges a cut wherever it could equally
  stand): the words a speaker did not mean as content — fillers, stage
  directions, repeats, timecodes and filler phrases the transcript sets off by
  punctuation (", you know,"), all marked when the document is prepared
  (tokenize.word_tokens), a repeat only whole; stutters ("st start"); false starts broken off and
  begun again ("she was given -- she was given"); the same speaker's label again.
- ``aside``: words ``set_off`` by parentheses, dashes, or commas with an aside
  opener (", which we discussed,"), holding no word of a contract class, no
  number and no name.
- ``addressed``: a form of address set off by commas (", Mr. Chair,", ", Herr
  Abgeordneter Jarolim,"): address words, determiners and names only, with no
  name or address on either side (an item of a list of names is no address).
- ``points_back``: a kept sentence after an ellipsis over whole sentences that
  opens by pointing back into them ("That ...", "It ...").
- ``edge_shown``: the rest of a sentence an ellipsis at a quote's start or end
  leaves out is fillers only, or a clause of its own joined by "and".
- ``turning`` and ``corrects``: the rest of a sentence an excerpt cuts (or the
  next sentence) holds a word that turns the kept words.

Anything a test does not show empty is content: the reasons name its words.
A language without a lexicon has no test but the prepared marks.
"""
from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from ..model.lexicon import MEANING_CLASSES, TURNING_CLASSES, straight
from ..sources.corpus import Source
from ..sources.numbers import number_words
from ..sources.numbers import phrases as number_phrases
from ..sources.tokenize import TOKEN, WORD
from .rules import Contract

_BREAK_OFF = re.compile(r"-|\.\.")
_STOP = re.compile(r"[.!?]")
# Pairs of marks that open and close an aside.
_ASIDE_MARKS = {"(": ")", "-": "-", ",": ","}
# The classes whose words a stretch must not hold to be left out as empty.
_CONTENT_CLASSES = MEANING_CLASSES + TURNING_CLASSES


def gap_text(src: Source, k: int) -> str:
    """The normalized text between source words k - 1 and k ("\\n" before the first and after the last)."""
    if k <= 0 or k >= len(src.tokens):
        return "\n"
    return src.norm.text[int(src.tokens.ends[k - 1]):int(src.tokens.starts[k])]


def disfluent(src: Source, contract: Contract, lo: int, hi: int) -> np.ndarray:
    """Which of source words [lo, hi) a speaker did not mean as content (see the module docstring)."""
    mask = src.tokens.weak[lo:hi].copy()
    if hi <= lo:
        return mask
    _keep_partial_repeats(src, contract, lo, hi, mask)
    mask |= _label_words(src, lo, hi)
    if contract.lexicon is None:
        return mask
    _mark_stutters(src, contract, lo, hi, mask)
    _mark_false_starts(src, contract, lo, hi, mask, contract.false_start_words)
    return mask


def left_out(src: Source, contract: Contract, lo: int, hi: int) -> np.ndarray:
    """``disfluent`` for source words [lo, hi) that a quote leaves out, judged wherever the same cut could
    stand: when the kept words just before the cut repeat at its end, the cut may be read as standing that
    much earlier ("I [could -- I] can" leaves out what "[I could --] I can" does: a false start); when the
    kept words just after it repeat its start, that much later ("the [of the] of the year" leaves out what
    "the of the [of the] year" does: a repeat)."""
    mask = disfluent(src, contract, lo, hi)
    words = src.tokens.words
    for shift in range(1, min(hi - lo, contract.false_start_words) + 1):
        if mask.all():
            break
        earlier = shift <= lo and words[lo - shift:lo] == words[hi - shift:hi]
        later = hi + shift <= len(words) and words[lo:lo + shift] == words[hi:hi + shift]
        for moved in (-shift if earlier else None, shift if later else None):
            if moved is not None and disfluent(src, contract, lo + moved, hi + moved).all():
                mask = np.ones(hi - lo, dtype=bool)
    return mask


def _keep_partial_repeats(src: Source, contract: Contract, lo: int, hi: int, mask: np.ndarray) -> None:
    """A repeat is left out only whole: the repeated words among [lo, hi) (marked weak when the document was
    prepared: "the the", "of the of the") must be whole copies of the phrase just before or just after them
    ("I [I I] went", "of the [of the] world"). Part of a repeated phrase ("river [flood] river" of "flood
    river flood river") makes words the speaker never said in that order: those words are content again."""
    words = src.tokens.words
    skip = contract.lexicon.fillers if contract.lexicon is not None else frozenset()
    repeated = [k for k in range(lo, hi) if mask[k - lo] and words[k] not in skip
                and any(k - n >= 0 and words[k - n] == words[k] for n in (1, 2, 3))]
    if not repeated:
        return
    said = [words[k] for k in repeated]
    for n in (1, 2, 3):
        if len(said) % n:
            continue
        for phrase in (words[max(0, lo - n):lo], words[hi:hi + n]):
            if len(phrase) == n and said == list(phrase) * (len(said) // n):
                return
    for k in repeated:
        mask[k - lo] = False


def _label_words(src: Source, lo: int, hi: int) -> np.ndarray:
    """Words of [lo, hi) that are a label or timecode opening a turn in which the speaker before goes on."""
    mask = np.zeros(hi - lo, dtype=bool)
    a, b = src.span(lo, hi)
    if not src.turns.crossed(max(0, a - 1), b + 1):
        return mask
    for k in range(lo, hi):
        first = src.span(k, k + 1)[0]
        turn = src.turn_at(first)
        if turn is not None and turn.start <= first < turn.body:
            mask[k - lo] = src.turns.continued_label(src.document.text, turn.start, turn.body)
    return mask


def _mark_stutters(src: Source, contract: Contract, lo: int, hi: int, mask: np.ndarray) -> None:
    """A word cut off and said again in full: "st start", "th- the"; never a word that carries meaning."""
    words = src.tokens.words
    for k in range(lo, min(hi, len(words) - 1)):
        word, following = words[k], words[k + 1]
        if (following.startswith(word) and len(word) < len(following) and len(word) <= 3
                and not contract.meaning_words([word]) and not contract.is_negation(word)):
            mask[k - lo] = True


def _mark_false_starts(src: Source, contract: Contract, lo: int, hi: int, mask: np.ndarray, most: int) -> None:
    """A phrase broken off at a dash or dots and begun again with its first word: "we were -- we are",
    "I might -- I can", "I think -- I think" (the phrase may begin before the words left out: "that you --
    that I" leaves "you --" out). A negation or number in the broken-off phrase must be said again after it."""
    words = src.tokens.words
    for k in range(lo, min(hi, len(words) - 1)):
        for a in _restarts(src, k, most):
            dropped = _inverting(contract, words[a:k + 1])
            again = set(_inverting(contract, words[k + 1:k + 2 + (k - a) + 2]))
            if all(d in again for d in dropped):
                mask[max(a, lo) - lo:k + 1 - lo] = True
                break


def _restarts(src: Source, k: int, most: int) -> list[int]:
    """Where a phrase the speaker breaks off after word k (at a dash or dots) and begins again with the same
    word may start: each word a among the ``most`` words up to k, in one sentence, that word k + 1 says again."""
    words = src.tokens.words
    if k + 1 >= len(words) or not _BREAK_OFF.search(gap_text(src, k + 1)):
        return []
    return [a for a in range(max(0, k - most + 1), k + 1) if words[a] == words[k + 1] and not _STOP.search(
        src.norm.text, int(src.tokens.ends[a]), int(src.tokens.starts[k]))]


def stop_before(src: Source, k: int) -> bool:
    """Whether a sentence stop stands between source words k - 1 and k: word k opens a sentence."""
    return bool(_STOP.search(gap_text(src, k)))


def broken_off(src: Source, contract: Contract, end: int) -> list[tuple[str, str]]:
    """A quote that ends (before source word ``end``) where the speaker broke off and began again, taking back a
    word of the broken-off phrase ("Ericsson may not -- may withdraw"): (class, words) of the restart, as
    ``turning`` gives them; [] when the quote's end is no false start, or when the restart says every word of
    the broken-off phrase again ("a good year -- a very good year")."""
    words, most = src.tokens.words, contract.false_start_words
    restarts = _restarts(src, end - 1, most)
    if not restarts:
        return []
    # Where the sentence ends, looked for only as far as the restart is read (2 * most + 3 words).
    reach = min(len(words), end + 2 * most + 3)
    stop = next((j for j in range(end + 1, reach) if stop_before(src, j)), reach)
    fillers = contract.lexicon.fillers if contract.lexicon is not None else frozenset()
    for a in restarts:
        again = set(words[end:min(stop, end + 2 * (end - a) + 3)])
        if all(w in again or w in fillers for w in words[a:end]):
            return []
    return [("correction", " ".join(words[end:min(stop, end + 3)]))]


def _inverting(contract: Contract, words: Sequence[str]) -> list[tuple[str, str]]:
    """The negations and numbers among some words: what a false start may not take away."""
    return [hit for hit in carried(contract, words) if hit[0] in ("negation", "number")]


def carried(contract: Contract, words: Sequence[str]) -> list[tuple[str, str]]:
    """(class, words) of what carries meaning among some words: the contract's classes and numbers."""
    found = contract.lexicon.find(list(words), _CONTENT_CLASSES) if contract.lexicon else []
    found += [("number", " ".join(words[p.start:p.end])) for p in number_phrases(list(words), contract.language)]
    return list(dict.fromkeys(found))


def hidden(contract: Contract, parts: Sequence[str]) -> list[tuple[str, str]]:
    """(class, words) of the words that carry meaning in some stretches of source text."""
    numbers = number_words(contract.language)
    found: list[tuple[str, str]] = []
    for part in parts:
        said = [straight(w) for w in WORD.findall(part.casefold())]
        found += contract.meaning_words(said)
        if contract.lexicon is not None:
            found += contract.lexicon.find(said, TURNING_CLASSES)
        tokens = [m.group() for m in TOKEN.finditer(straight(part.casefold()))]
        found += [("number", " ".join(tokens[p.start:p.end])) for p in number_phrases(tokens, contract.language)]
        found += [("number", w) for w in dict.fromkeys(said)
                  if w in numbers.scales or w in numbers.ordinals]
    return list(dict.fromkeys(found))


def names_in(src: Source, lo: int, hi: int) -> list[str]:
    """Source words [lo, hi) written with a capital inside a sentence (not "I", not shouting): names."""
    text = src.document.text
    found = []
    for k in range(lo, hi):
        a, b = src.span(k, k + 1)
        word = text[a:b]
        if not word[:1].isupper() or word.isupper() or straight(word).startswith("i'") or word == "I":
            continue
        before = gap_text(src, k)
        if _STOP.search(before) or "\n" in before or ":" in before or k == 0:
            continue
        found.append(word)
    return found


def set_off(src: Source, contract: Contract, lo: int, hi: int) -> bool:
    """Source words [lo, hi) are set off as an aside: by parentheses, by dashes, or by commas with an aside
    opener first (", which we discussed,"; ", pears," may be an item of a list), within one sentence."""
    if contract.lexicon is None or hi <= lo:
        return False
    before, after = gap_text(src, lo), gap_text(src, hi)
    opener = next((c for c in reversed(before) if c in _ASIDE_MARKS), "")
    closer = next((c for c in after if not c.isspace()), "")
    if not opener or closer != _ASIDE_MARKS[opener] or _STOP.search(before + after):
        return False
    inner = src.norm.text[int(src.tokens.starts[lo]):int(src.tokens.ends[hi - 1])]
    if _STOP.search(inner) or "\n" in inner or (opener in ",-" and opener in inner):
        return False
    words = src.tokens.words[lo:hi]
    return opener != "," or _opens_with(contract, words, "aside")


def aside(src: Source, contract: Contract, lo: int, hi: int) -> bool:
    """Source words [lo, hi) are an aside: set off (set_off), holding no word of a contract class, no number
    and no name, or a phrase that only comments on the telling (", as I said,", ", if you like,")."""
    if not set_off(src, contract, lo, hi):
        return False
    words = src.tokens.words[lo:hi]
    assert contract.lexicon is not None
    if tuple(words) in contract.lexicon.phrases["aside"]:
        return True
    return not carried(contract, words) and not names_in(src, lo, hi)


def addressed(src: Source, contract: Contract, lo: int, hi: int) -> bool:
    """Source words [lo, hi) address the listener and say nothing themselves: set off by commas, opening with an
    address word ("Mr.", "Herr", "señor") and holding only address words, determiners and names, at most
    ``address_words`` of them. The words on either side must be no name or address word: ", Mr. Jones," between
    "Mr. Smith" and "Dr. Brown" is an item of a list of names, which is content."""
    lexicon = contract.lexicon
    if lexicon is None or not 0 < hi - lo <= contract.address_words or lo == 0 or hi >= len(src.tokens.words):
        return False
    if gap_text(src, lo).strip()[-1:] != "," or gap_text(src, hi).strip()[:1] != ",":
        return False
    words = src.tokens.words
    named = set(names_in(src, lo - 1, hi + 1))
    text = src.document.text

    def name(k: int) -> bool:
        a, b = src.span(k, k + 1)
        return text[a:b] in named

    def address(k: int) -> bool:
        return (words[k],) in lexicon.phrases["address"]

    if not address(lo) or any(address(k) or name(k) for k in (lo - 1, hi)):
        return False
    return all(address(k) or name(k) or words[k] in lexicon.determiners for k in range(lo, hi))


def _qualifier_alone(contract: Contract, clauses: list[list[str]]) -> list[tuple[str, str]]:
    """The hedge, limiter or quantifier that the rest of a cut sentence is made of, after its connectives
    ("In theory, [...]", "[...], at most."); [] when the rest says more than that."""
    assert contract.lexicon is not None
    if len(clauses) != 1:
        return []
    words = _after_connectives(contract, clauses[0])
    hits = contract.lexicon.find(words, _QUALIFYING)
    return hits[:1] if words and hits and hits[0][1] == " ".join(words) else []


def points_back(contract: Contract, words: Sequence[str]) -> str:
    """The word a kept sentence opens with when it points back: an answer ("No.", "Yes, of course"), or,
    after connectives and fillers, a word such as "That" or "It"; "" when it does not."""
    if contract.lexicon is None:
        return ""
    answers = contract.lexicon.phrases["answer"]
    for n in contract.lexicon.openers["answer"].get(words[0], ()) if words else ():
        if tuple(words[:n]) in answers:
            return " ".join(words[:n])
    opening = _after_connectives(contract, list(words))
    return opening[0] if opening and (opening[0],) in contract.lexicon.phrases["anaphor"] else ""


_CLAUSE = re.compile(r"[,;:()\-]")
_FRAMING = ("negation", "reporting", "frame", "condition")
_TURNING_AFTER = ("contrast", "correction", "condition", "reporting")
# A qualifier that stands as a clause of its own next to the cut qualifies the kept words: "In theory, [...]",
# "[...], at most."
_QUALIFYING = ("hedge", "limiter", "quantifier")
# How many words just before a cut a frame must stand within to govern the kept words: "they say [...]",
# "I don't think [...]", "it's not true that [...]".
_FRAME_WORDS = 3


def turning(contract: Contract, rest: str, *, before: bool, reach: int) -> list[tuple[str, str]]:
    """(class, words) in the rest of a sentence an excerpt cuts that turn the kept words.

    After the cut: a contrast, a correction, a condition or an attribution within ``reach`` words, or a
    negation opening a clause ("..., not ..."), up to a clause joined by "and" (which says its own thing).
    Before it: a negation, an attribution, a frame of belief
    or a condition just before the cut in its own clause ("They say [my father was consulted]", "I don't
    think [...]"), an attribution anywhere in that clause ("was told by the Minister that [...]"), or a
    condition opening the sentence ("If we win, [we will celebrate]").
    """
    if contract.lexicon is None:
        return []
    lexicon = contract.lexicon
    clauses = [[straight(w) for w in WORD.findall(c.casefold())] for c in _CLAUSE.split(rest)]
    clauses = [c for c in clauses if c]
    if not clauses:
        return []
    if before:
        # The clause that runs into the cut; where the cut follows a comma, the clause before it ("ihr
        # glaubt, [der Markt wird ...]", "they said, [...]").
        adjacent = clauses[-1]
        found = lexicon.find(adjacent[-_FRAME_WORDS:], _FRAMING) + lexicon.find(adjacent[-reach:], ("reporting",))
        found += _qualifier_alone(contract, clauses)
        found = [hit for hit in found if hit[0] != "reporting" or not _said_by_the_speaker(contract, adjacent, hit[1])]
        for clause in clauses:  # a condition opening a clause before the cut: "if we win, [we celebrate]"
            opening = _after_connectives(contract, clause)
            found += [hit for hit in lexicon.find(opening[:3], ("condition",)) if opening[:1] == hit[1].split()[:1]]
        return _widest(found)
    # A clause joined by "and" or "so" says its own thing: what follows it no longer bears on the kept words.
    joined = next((k for k, c in enumerate(clauses) if k and _opens_with(contract, c, "coordinator")), len(clauses))
    clauses = clauses[:joined]
    found = lexicon.find([w for c in clauses for w in c][:reach], _TURNING_AFTER)
    found += _qualifier_alone(contract, clauses)
    # The clause the quote cuts goes on (no mark between) with a negation ("zij doen dat [nog niet]"), or ends
    # on its verb's particle ("dat zeg ik graag [toe]").
    if not _CLAUSE.match(rest.lstrip()) and not _opens_with(contract, clauses[0], "coordinator"):
        found += [("negation", w) for w in clauses[0][:reach] if lexicon.is_negation(w)]
        if len(clauses) == 1 and len(clauses[0]) == 1 and clauses[0][0] in lexicon.separable_particles:
            found.append(("particle", clauses[0][0]))
    seen = 0
    for clause in clauses:
        if seen >= reach:
            break
        opening = [w for w in clause[:2] if w not in lexicon.fillers]
        if opening and lexicon.is_negation(opening[0]):
            found.append(("negation", opening[0]))
        seen += len(clause)
    return _widest(found)


def _opens_with(contract: Contract, clause: list[str], cls: str) -> bool:
    """Whether a clause opens with a word or phrase of a class of the lexicon."""
    assert contract.lexicon is not None
    entries = contract.lexicon.phrases[cls]
    return any(tuple(clause[:n]) in entries for n in range(1, min(len(clause), 4) + 1))


def _said_by_the_speaker(contract: Contract, clause: list[str], phrase: str) -> bool:
    """Whether a reporting verb has the speaker for its subject ("I said [...]", "we told them [...]"): the
    speaker reporting their own words stands by them; "they say [...]" puts them at a distance."""
    assert contract.lexicon is not None
    first = phrase.split()[0]
    at = max((k for k, w in enumerate(clause) if w == first), default=-1)
    own = {a for a, _ in contract.lexicon.person_shifts} | contract.lexicon.speaker_pronouns
    return at > 0 and clause[at - 1] in own


def _widest(found: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The hits, once each, without those inside a wider one ("say" inside "they say")."""
    hits = list(dict.fromkeys(found))
    return [h for h in hits if not any(h[1] != o[1] and f" {h[1]} " in f" {o[1]} " for o in hits)]


def edge_shown(src: Source, contract: Contract, lo: int, hi: int, *, before: bool) -> str:
    """The test that shows the rest of a sentence (source words [lo, hi)), which an ellipsis at a quote's
    start (``before``) or end leaves out, empty: "disfluency" (fillers only), or "clause" (a clause of its
    own, joined by "and" or "so" and holding no word of a contract class); "" when none does."""
    if hi <= lo:
        return "disfluency"
    if disfluent(src, contract, lo, hi).all():
        return "disfluency"
    if contract.lexicon is None or carried(contract, src.tokens.words[lo:hi]):
        return ""
    coordinators = contract.lexicon.phrases["coordinator"]
    words = src.tokens.words
    for n in range(1, 4):
        if before and lo <= hi - n and tuple(words[hi - n:hi]) in coordinators:
            return "clause"  # "We went home, and ... we stayed": the kept clause starts after "and"
        if not before and lo + n <= hi and tuple(words[lo:lo + n]) in coordinators \
                and _SET_OFF_BEFORE.search(gap_text(src, lo)):
            return "clause"  # "We stayed ..." for "We stayed, and then we went home"
    return ""


_SET_OFF_BEFORE = re.compile(r"[,;:\-]")


def corrects(contract: Contract, following: str) -> list[tuple[str, str]]:
    """The correction a following sentence opens with ("Oh sorry, four million"): it takes back what the
    sentence before said."""
    if contract.lexicon is None:
        return []
    words = _after_connectives(contract, [straight(w) for w in WORD.findall(following.casefold())][:6])
    hits = contract.lexicon.find(words[:3], ("correction",))
    return [hit for hit in hits if words[:1] == hit[1].split()[:1]]


def _after_connectives(contract: Contract, words: list[str]) -> list[str]:
    """``words`` without the connectives and fillers they open with ("And so, um, if ..." -> "if ...")."""
    assert contract.lexicon is not None
    skip = contract.lexicon.phrases["connective"] | contract.lexicon.phrases["filler"]
    k = 0
    while k < len(words) and ((words[k],) in skip or words[k] in contract.lexicon.fillers):
        k += 1
    return words[k:]
