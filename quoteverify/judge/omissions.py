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
from .rules import Contract, contraction_readings, function_word

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
    """A phrase broken off at a dash, dots or a filler and begun again with its first word: "we were -- we are",
    "I might -- I can", "that I, um, that I", "it is a -- it's a" (the phrase may begin before the words left
    out: "that you -- that I" leaves "you --" out); or a phrase of words that name nothing broken off at a dash
    and begun anew ("that these -- the GPs"). A negation or number in the broken-off phrase must be said again
    after it."""
    words = src.tokens.words
    for k in range(lo, min(hi, len(words) - 1)):
        restart, starts = _restarts(src, contract, k, most)
        for a in starts:
            dropped = _inverting(contract, words[a:k + 1])
            again = set(_inverting(contract, words[restart:restart + 1 + (k - a) + 2]))
            if all(d in again for d in dropped):
                mask[max(a, lo) - lo:k + 1 - lo] = True
                break
        else:
            if _BREAK_OFF.search(gap_text(src, k + 1)):
                a = _names_nothing_back_to(src, contract, lo, k, most)
                mask[a - lo:k + 1 - lo] |= a <= k


def _names_nothing_back_to(src: Source, contract: Contract, lo: int, k: int, most: int) -> int:
    """The first of the words [a, k] from ``lo`` on, at most ``most`` of them and within a sentence, that name
    nothing and hold no word of a contract class ("that these" of "that these -- the GPs"); k + 1 when word k
    does not."""
    words = src.tokens.words
    a = k + 1
    while a > max(lo, k - most + 1) and function_word(contract, words[a - 1]) and not stop_before(src, a):
        a -= 1
    while a <= k and carried(contract, words[a:k + 1]):
        a += 1
    return a


def _restart_at(src: Source, contract: Contract, k: int) -> int:
    """The word a speaker begins again with after breaking off after word k: the first after it that is no
    filler and no filler phrase the transcript sets off (``-- you know, I'm``, ``, um, that``); len(words) when
    there is none."""
    words, weak = src.tokens.words, src.tokens.weak
    j = k + 1
    while j < len(words) and weak[j] and not stop_before(src, j):
        n = _filler_at(contract, words, j)
        if not n or not weak[j:j + n].all():
            break
        j += n
    return j


def _filler_at(contract: Contract, words: Sequence[str], j: int) -> int:
    """How many words a filler or filler phrase that opens at word j has (0 when none does)."""
    if contract.lexicon is None:
        return 0
    if words[j] in contract.lexicon.fillers:
        return 1
    phrases = contract.lexicon.phrases["filler"]
    return next((n for n in contract.lexicon.openers["filler"].get(words[j], ())
                 if tuple(words[j:j + n]) in phrases), 0)


def _restarts(src: Source, contract: Contract, k: int, most: int) -> tuple[int, list[int]]:
    """The word a speaker begins again with after breaking off after word k (at a dash or dots, or with a filler:
    ``_restart_at``), and where the phrase broken off may start: each word a among the ``most`` words up to k, in
    one sentence, that the word begun again with says again ("it" for "it's": a contraction is said again by its
    first word)."""
    words = src.tokens.words
    j = _restart_at(src, contract, k)
    dash = bool(_BREAK_OFF.search(gap_text(src, k + 1)))
    if j >= len(words) or stop_before(src, j) or not (dash or j > k + 1):
        return j, []
    # Broken off with a filler alone, the phrase must name nothing ("that I, um, that I"): "seeing the room and
    # in, um, seeing a demonstration" is an item of a list.
    return j, [a for a in range(max(0, k - most + 1), k + 1) if _begins_again(contract, words[a], words[j])
               and not _STOP.search(src.norm.text, int(src.tokens.ends[a]), int(src.tokens.starts[k]))
               and (dash or all(function_word(contract, w) for w in words[a:k + 1]))]


def _begins_again(contract: Contract, word: str, again: str) -> bool:
    """Whether ``again`` begins anew with ``word``: the same word, or a contraction of it ("it's" for "it", "it"
    for "it's")."""
    return word == again or word in _opening(contract, again) or again in _opening(contract, word)


def _opening(contract: Contract, word: str) -> set[str]:
    """The first word of each reading of a contraction spelt out ("it" of "it's"); none for another word."""
    return {reading[0] for reading in contraction_readings(contract.lexicon, [word]) if len(reading) > 1}


def stop_before(src: Source, k: int) -> bool:
    """Whether a sentence stop stands between source words k - 1 and k: word k opens a sentence."""
    return bool(_STOP.search(gap_text(src, k)))


def broken_off(src: Source, contract: Contract, end: int) -> list[tuple[str, str]]:
    """A quote that ends (before source word ``end``) where the speaker broke off and began again, taking back a
    word of the broken-off phrase ("Ericsson may not -- may withdraw"): (class, words) of the restart, as
    ``turning`` gives them; [] when the quote's end is no false start, when the restart says every word of
    the broken-off phrase again ("a good year -- a very good year"), or when a second dash in the sentence
    closes what the first opened (an aside: "the eye - the muscles of orbit - to focus")."""
    words, most = src.tokens.words, contract.false_start_words
    _, restarts = _restarts(src, contract, end - 1, most)
    if not restarts:
        return []
    # Where the sentence ends, looked for only as far as the restart is read (2 * most + 3 words).
    reach = min(len(words), end + 2 * most + 3)
    stop = next((j for j in range(end + 1, reach) if stop_before(src, j)), reach)
    if any(_BREAK_OFF.search(gap_text(src, j)) for j in range(end + 2, stop)):
        return []  # "the eye - the muscles of orbit - to focus": a pair of dashes sets an aside off
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
    inner = TITLE_POINT.sub("", src.norm.text[int(src.tokens.starts[lo]):int(src.tokens.ends[hi - 1])])
    if _STOP.search(inner) or "\n" in inner or (opener in ",-" and opener in inner):
        return False
    words = src.tokens.words[lo:hi]
    if opener != "," or _opens_with(contract, words, "aside"):
        return True
    # A clause of its own with its own subject (", and the statistics prove that,"; not ", and have been used,"
    # nor ", and control,", items of a list), a reason or examples, but not the words a kept word before them
    # wants ("a number of, and a range of clinicians, so"): that word must name something.
    own_clause = len(words) > 2 and (words[0],) in contract.lexicon.phrases["conjunction"] and (
        _subject(contract.lexicon, words[1]) or _reason_clause(contract, words[1:]))
    return (own_clause or _reason_clause(contract, words) or _opens_with(contract, words, "example")) and lo > 0 \
        and not function_word(contract, src.tokens.words[lo - 1])


# The point after a title ("Mr. McFarlane"), which ends no sentence.
TITLE_POINT = re.compile(r"(?i)\b(?:dr|mr|mrs|ms|mx|prof|rev|sr|jr|st|gen|col|capt|lt|sgt|hon)\.")


def aside(src: Source, contract: Contract, lo: int, hi: int) -> bool:
    """Source words [lo, hi) are an aside: set off (set_off), holding no word of a contract class, no number
    and no name (but for examples: ", like Mr. McFarlane or Admiral Poindexter,"), or a phrase that only
    comments on the telling (", as I said,", ", if you like,")."""
    if not set_off(src, contract, lo, hi):
        return False
    words = src.tokens.words[lo:hi]
    assert contract.lexicon is not None
    if tuple(words) in contract.lexicon.phrases["aside"]:
        return True
    return not carried(contract, words) and (_opens_with(contract, words, "example") or not names_in(src, lo, hi))


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


def points_back(contract: Contract, words: Sequence[str], *, left_out: Sequence[str], asked: bool,
                labelled: bool = True) -> str:
    """The word a kept sentence opens with when it points back into sentences an ellipsis leaves out (their words
    ``left_out``): an answer ("No.", "Yes, of course") to what they say, unless they say nothing but an answer,
    fillers and connectives themselves ("Well, no. ... No, you don't"); after connectives and fillers, a word
    such as "That" or "It"; in a transcript without speaker labels (``labelled`` False), any word after a
    question left out (``asked``), which may be another speaker's ("... Oh, I don't think so."); "" when it does
    not."""
    if contract.lexicon is None or not words:
        return ""
    lexicon = contract.lexicon
    said = [w for w in left_out if w not in lexicon.fillers and not {(w,)} & (lexicon.phrases["connective"]
                                                                             | lexicon.phrases["answer"])]
    for n in lexicon.openers["answer"].get(words[0], ()) if said else ():
        if tuple(words[:n]) in lexicon.phrases["answer"]:
            return " ".join(words[:n])
    opening = _after_connectives(contract, list(words))
    if opening and (opening[0],) in lexicon.phrases["anaphor"]:
        return opening[0]
    return words[0] if asked and not labelled else ""


_CLAUSE = re.compile(r"[,;:()\-]")
_FRAMING = ("negation", "reporting", "frame", "condition")
_TURNING_AFTER = ("contrast", "correction", "condition")
# A qualifier that stands as a clause of its own next to the cut qualifies the kept words: "In theory, [...]",
# "[...], at most."
_QUALIFYING = ("hedge", "limiter", "quantifier", "frame")
# How many words just before a cut a frame must stand within to govern the kept words: "they say [...]",
# "I don't think [...]", "it's not true that [...]".
_FRAME_WORDS = 3


def turning(contract: Contract, rest: str, *, before: bool, reach: int) -> list[tuple[str, str]]:
    """(class, words) in the rest of a sentence an excerpt cuts that turn the kept words (``_before_cut``,
    ``_after_cut``)."""
    if contract.lexicon is None:
        return []
    pieces = [(piece, _words_of(piece)) for piece in _CLAUSE.split(rest)]
    clauses = [words for _, words in pieces if words]
    if not clauses:
        return []
    if before:
        named = [_title_cased(piece) for piece, words in pieces if words]
        return _widest(_before_cut(contract, clauses, named, reach))
    # A name after the cut says nothing of the kept words: "[a decision] under the False Claims Act in 2009".
    unnamed = [_words_of(_without_names(piece)) for piece in _CLAUSE.split(rest)]
    return _widest(_after_cut(contract, rest, [words for words in unnamed if words], reach))


def _words_of(text: str) -> list[str]:
    """The words of some source text as the lexicon holds them (case-folded, apostrophes straight)."""
    return [straight(w) for w in WORD.findall(text.casefold())]


def _before_cut(contract: Contract, clauses: list[list[str]], named: list[bool], reach: int
                ) -> list[tuple[str, str]]:
    """What turns the kept words in the rest of a sentence before the cut: a negation, an attribution, a frame
    of belief or a condition just before the cut in its own clause ("They say [my father was consulted]", "I
    don't think [...]"); an attribution anywhere in that clause ("was told by the Minister that [...]"); a
    condition opening a clause ("If we win, [we will celebrate]"); a qualifier that is all the rest says ("In
    theory, [...]"). A clause written in capitals word by word is a title or a name ("You Don't Know Jack [is a
    video game]"): no frame."""
    lexicon = contract.lexicon
    assert lexicon is not None
    # The clause that runs into the cut; where the cut follows a comma, the clause before it ("ihr glaubt, [der
    # Markt wird ...]", "they said, [...]").
    adjacent = clauses[-1] if not named[-1] else []
    found = lexicon.find(adjacent[-_FRAME_WORDS:], _FRAMING) + lexicon.find(adjacent[-reach:], ("reporting",))
    found += _qualifier_alone(contract, clauses)
    found = [hit for hit in found if hit[0] != "reporting" or not _said_by_the_speaker(contract, adjacent, hit[1])]
    for clause, title in zip(clauses, named):  # a condition opening a clause before the cut: "if we win, [...]"
        opening = _after_connectives(contract, clause)
        found += [hit for hit in lexicon.find(opening[:3], ("condition",))
                  if opening[:1] == hit[1].split()[:1] and not title]
    return found


def _after_cut(contract: Contract, rest: str, clauses: list[list[str]], reach: int) -> list[tuple[str, str]]:
    """What turns the kept words in the rest of a sentence after the cut, up to a clause joined by "and" (which
    says its own thing) and within ``reach`` words: a contrast, a correction or a condition opening a clause
    (", but not ...", "until you get ...", "except that ...") or anywhere in the clause the quote cuts ("[to do
    well] in school if ..."), or a preposition of those classes anywhere (", all of them except Leeds"); an
    attribution of the kept words (", he said", ", according to ...", ", said the minister": not a verb of saying
    of which the kept words are the subject, "[The Council] stated in 1922 ..."); a negation opening a clause or
    in the clause the quote cuts ("zij doen dat [nog niet]"), but not "No" before a number ("No. 1"); a verb's
    particle left at the end ("dat zeg ik graag [toe]"); a qualifier that is all the rest says ("[...], at
    most")."""
    lexicon = contract.lexicon
    assert lexicon is not None
    joined = next((k for k, c in enumerate(clauses) if k and _opens_with(contract, c, "coordinator")), len(clauses))
    clauses = clauses[:joined]
    found = _qualifier_alone(contract, clauses)
    # The clause the quote cuts goes on (no mark between) with a negation ("zij doen dat [nog niet]"), a word
    # that turns it ("[to do well] in school if they've got ..."), or ends on its verb's particle ("dat zeg ik
    # graag [toe]").
    if not _CLAUSE.match(rest.lstrip()) and not _opens_with(contract, clauses[0], "coordinator"):
        found += [("negation", w) for w in clauses[0][:reach] if lexicon.is_negation(w)]
        found += lexicon.find(clauses[0][:reach], _TURNING_AFTER)
        if len(clauses) == 1 and len(clauses[0]) == 1 and clauses[0][0] in lexicon.separable_particles:
            found.append(("particle", clauses[0][0]))
    seen = 0
    for clause in clauses:
        if seen >= reach:
            break
        opening = [w for w in clause if w not in lexicon.fillers]
        found += _opening_turn(contract, opening)
        # A preposition that limits what the clause says, wherever it stands: ", all of them except Leeds".
        found += [hit for hit in lexicon.find(opening[:reach - seen], _TURNING_AFTER)
                  if tuple(hit[1].split()) in lexicon.phrases["turning_preposition"]]
        seen += len(clause)
    return found


def _opening_turn(contract: Contract, opening: list[str]) -> list[tuple[str, str]]:
    """A turn that a clause after the cut opens with (fillers left out): a contrast, correction or condition
    ("but not ...", "until ..."), a negation ("not in ...", not "No. 1"), or an attribution of the words before it
    (``_attributes``)."""
    lexicon = contract.lexicon
    assert lexicon is not None
    if not opening:
        return []
    hits = [hit for hit in lexicon.find(opening[:4], _TURNING_AFTER) if opening[0] == hit[1].split()[0]]
    if lexicon.is_negation(opening[0]) and not (len(opening) > 1 and _DIGITS.search(opening[1])):
        hits.append(("negation", opening[0]))
    return hits + _attributes(contract, opening)


_DIGITS = re.compile(r"\d")


def _attributes(contract: Contract, opening: list[str]) -> list[tuple[str, str]]:
    """An attribution of what comes before it that a clause opens with: a phrase (", according to ...", ", in
    my view"), a subject and a verb of saying (", he said", ", Jane Roe said", ", or so the managers claim"), or
    the verb before its subject (", said the minister", ", said Jane Roe"). A verb of saying first with no subject
    after it takes the words before it for its subject ("[an assistant professor of law], said, ...", "[The
    Council] stated in 1922 ..."): they are not what is said."""
    lexicon = contract.lexicon
    assert lexicon is not None
    found = []
    for cls, phrase in lexicon.find(opening[:5], ("reporting",)):
        words = phrase.split()
        at = next(k for k in range(len(opening)) if opening[k:k + len(words)] == words)
        after = opening[at + len(words):at + len(words) + 1]
        subject_after = bool(after) and (_subject(lexicon, after[0]) or not function_word(contract, after[0]))
        before = _after_connectives(contract, opening[:at])
        subject_before = bool(before) and (_subject(lexicon, before[0]) or not function_word(contract, before[0]))
        if len(words) > 1 or subject_before or (at == 0 and subject_after):
            found.append((cls, phrase))
    return found


def _subject(lexicon, word: str) -> bool:
    """Whether a word may open the subject of a clause: a pronoun (or one contracted with its verb: "he's"), a
    determiner or a title ("he", "the", "Mr")."""
    return (word in lexicon.pronouns or word in lexicon.determiners or (word,) in lexicon.phrases["address"]
            or word.split("'")[0] in lexicon.pronouns)


def _reason_clause(contract: Contract, words: Sequence[str]) -> bool:
    """Whether words open a clause giving a reason, with a subject of its own: "since he's the pilot", "because
    they liked it" (not "since March", a time)."""
    lexicon = contract.lexicon
    assert lexicon is not None
    n = next((n for n in lexicon.openers["reason"].get(words[0], ()) if tuple(words[:n]) in lexicon.phrases["reason"]),
             0) if words else 0
    return bool(n) and len(words) > n and _subject(lexicon, words[n])


def plainly_said(contract: Contract, rest: str) -> bool:
    """Whether the clause that runs into a cut (the end of ``rest``, the rest of the sentence before it) says
    plainly what follows: no negation, no hedge or modal, no condition ('they could have said', 'if he said')."""
    if contract.lexicon is None:
        return False
    adjacent = next((words for piece in reversed(_CLAUSE.split(rest)) if (words := _words_of(piece))), [])
    return not contract.lexicon.find(adjacent, ("negation", "hedge", "condition"))


def _without_names(text: str) -> str:
    """``text`` with each run of two words or more written with a capital (not in capitals throughout: "False
    Claims Act", "United States") made one neutral word."""
    words = list(WORD.finditer(text))
    runs: list[tuple[int, int]] = []
    k = 0
    while k < len(words):
        j = k
        while j + 1 < len(words) and _capitalised(words[j + 1].group()) and not text[words[j].end():words[
                j + 1].start()].strip():
            j += 1
        if j > k and _capitalised(words[k].group()):
            runs.append((words[k].start(), words[j].end()))
            k = j + 1
        else:
            k += 1
    for a, b in reversed(runs):
        text = text[:a] + "name" + text[b:]
    return text


def _capitalised(word: str) -> bool:
    return word[:1].isupper() and not word.isupper()


def _title_cased(piece: str) -> bool:
    """Whether a stretch of text is written with a capital word by word, as a title or a name is ("You Don't
    Know Jack"): two words or more, each opening with a capital, not all in capitals (a transcript's shouting, or
    one written in capitals throughout)."""
    words = WORD.findall(piece)
    return len(words) > 1 and all(w[:1].isupper() for w in words) and any(_capitalised(w) for w in words)


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
    start (``before``) or end leaves out, empty: "disfluency" (fillers only); "connective" (before the quote, only
    words that join the sentence to the one before, and fillers: "And actually, ...", "But, um, ..."); or
    "clause" (a clause of its own, joined by "and" or "so", or after the quote one giving a reason, ", because
    ...", holding no word of a contract class); "" when none does."""
    if hi <= lo:
        return "disfluency"
    mask = disfluent(src, contract, lo, hi)
    if mask.all():
        return "disfluency"
    if contract.lexicon is None:
        return ""
    words = src.tokens.words
    connectives = contract.lexicon.phrases["connective"]
    if before and all(m or ((w,) in connectives and not contract.is_negation(w)) for w, m in zip(words[lo:hi], mask)):
        return "connective"  # what ties the sentence to the one before, which the quote does not keep either
    if carried(contract, words[lo:hi]):
        return ""
    coordinators = contract.lexicon.phrases["coordinator"]
    set_off_before = bool(_SET_OFF_BEFORE.search(gap_text(src, lo)))
    if not before and set_off_before and _reason_clause(contract, words[lo:hi]):
        return "clause"  # "We stayed ..." for "We stayed, because it rained"
    for n in range(1, 4):
        if before and lo <= hi - n and tuple(words[hi - n:hi]) in coordinators:
            return "clause"  # "We went home, and ... we stayed": the kept clause starts after "and"
        if not before and lo + n <= hi and tuple(words[lo:lo + n]) in coordinators and set_off_before:
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
