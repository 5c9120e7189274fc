"""The verdict contract: each benign kind of difference and its positive test.

A difference between a quote and its source is benign only when one of these
tests shows it is; whatever passes none is a change of meaning. Each test is a
small function; its thresholds come from the ``verdict`` section of the config
and its word classes from the language's lexicon (quoteverify.model.lexicon). Where
a language has no lexicon, no slip, bracket that replaces words, or ellipsis
inside a sentence can be shown benign.
"""
from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from rapidfuzz.distance import OSA

from ..model.lexicon import MEANING_CLASSES, Lexicon, is_word, lexicon_for, straight
from ..model.types import DifferenceKind
from ..sources.tokenize import WORD


@dataclass(frozen=True)
class Contract:
    """What the rules need for one quote: the language's lexicon and the thresholds."""

    language: str
    lexicon: Lexicon | None
    word_min_zipf: float          # a spelling this frequent (wordfreq Zipf) is a word: a slip into it is a word change
    bracket_context_words: int    # how far back what a bracket names must occur
    function_word_zipf: float = 6.0  # a word this frequent names nothing a bracket must find before it
    turning_reach_words: int = 12    # how far into the rest of a cut sentence a turning word is looked for
    false_start_words: int = 6       # the longest phrase left out as a false start
    address_words: int = 6           # the longest form of address an ellipsis may leave out

    @classmethod
    def of(cls, language: str, verdict) -> Contract:
        return cls(language, lexicon_for(language), verdict.word_min_zipf, verdict.bracket_context_words,
                   verdict.function_word_zipf, verdict.turning_reach_words, verdict.false_start_words,
                   verdict.address_words)

    def is_negation(self, word: str) -> bool:
        return self.lexicon is not None and self.lexicon.is_negation(word)

    def meaning_words(self, words: Sequence[str]) -> list[tuple[str, str]]:
        """(class, words) of what carries meaning among ``words``: negations, quantifiers, limiters, ..."""
        return self.lexicon.find(words, MEANING_CLASSES) if self.lexicon else []


def scripts(word: str) -> frozenset[str]:
    """The writing systems of a word's letters, as Unicode names them (LATIN, CYRILLIC, GREEK, ...)."""
    return frozenset(unicodedata.name(ch, "?").split(" ")[0] for ch in word if ch.isalpha())


def mixed_script(word: str) -> bool:
    """A word whose letters come from more than one script ("lаst" with a Cyrillic а): never benign."""
    return len(scripts(word)) > 1


def slip(contract: Contract, quote_word: str, source_word: str) -> bool:
    """A typo: the quote's spelling is no word of the language at any frequency, in one script, and one
    slip from the source word.

    A slip keeps the first letter and is one edit away (a swap of neighbours
    counts as one; two edits in a word of seven letters or more). Names,
    numbers and negations are never slips: the caller labels those first.
    """
    if contract.lexicon is None or not quote_word or not source_word or quote_word[0] != source_word[0]:
        return False
    if mixed_script(quote_word) or not one_slip(quote_word, source_word):
        return False
    if len(quote_word) < len(source_word) and any(
            source_word.startswith(p) and not quote_word.startswith(p) for p in contract.lexicon.negating_prefixes):
        return False  # "uable" for "unable", "isufficient" for "insufficient": the slip drops a negation's letter
    return not is_word(quote_word, contract.lexicon, min_zipf=contract.word_min_zipf)


def one_slip(quote_word: str, source_word: str) -> bool:
    """One slip of the keyboard or the ear apart: the first letter kept, one edit (a swap of neighbours
    counts as one; two in a word of seven letters or more)."""
    shortest = min(len(quote_word), len(source_word))
    return (bool(quote_word) and quote_word[:1] == source_word[:1] and shortest >= 3
            and OSA.distance(quote_word, source_word) <= (1 if shortest < 7 else 2))


def near_word(contract: Contract, quote_word: str, source_word: str) -> bool:
    """A slip into another real word ("prize" for "price", "form" for "from"): a person must judge whether it
    is a slip or a change, but it does not flip the word into its opposite ("unable" for "able")."""
    if contract.lexicon is None or not one_slip(quote_word, source_word) or mixed_script(quote_word):
        return False
    short, long_ = sorted((quote_word, source_word), key=len)
    return not any(long_ == prefix + short for prefix in contract.lexicon.negating_prefixes)


def case_changes_word(quote_word: str, source_word: str) -> bool:
    """Whether writing a word in another case makes it another word: a name or an acronym against a
    common word ("May"/"may", "US"/"us", "Polish"/"polish"). The caller has ruled out what shows the
    change to be style: a sentence's first word, a quote or source written in one case throughout, "I"."""
    if quote_word == source_word or quote_word.casefold() != source_word.casefold():
        return False
    forms = {_case_form(quote_word), _case_form(source_word)}
    return "lower" in forms and bool(forms & {"capital", "upper"})


def _case_form(word: str) -> str:
    letters = [ch for ch in word if ch.isalpha()]
    if not letters or all(ch.islower() for ch in letters):
        return "lower"
    if len(letters) > 1 and all(ch.isupper() for ch in letters):
        return "upper"
    return "capital" if letters[0].isupper() else "mixed"


def spelling_variant(contract: Contract, quote_words: Sequence[str], source_words: Sequence[str]) -> bool:
    """One word in two spellings of the language (colour/color, learnt/learned). The caller checks
    narrows_sense: "cheque" for "check" is such a pair, but names one sense of the word."""
    lexicon = contract.lexicon
    if lexicon is None or not quote_words or not source_words:
        return False
    if lexicon.same_spelling(" ".join(quote_words), " ".join(source_words)):
        return True  # "all right" for "alright"
    if len(quote_words) != len(source_words):
        return False
    return all(q == s or lexicon.same_spelling(q, s) for q, s in zip(quote_words, source_words))


def narrows_sense(lexicon: Lexicon, quote_words: Sequence[str], source_words: Sequence[str]) -> bool:
    """Whether the quote respells a source word as a spelling that names only one of its senses: "cheque"
    (money) for "check" (also to verify), "storey" (a floor) for "story" (lexicon spelling_one_sense)."""
    narrow = lexicon.spelling_one_sense
    return any(q in narrow for q in quote_words) and not any(s in narrow for s in source_words)


def verb_forms_of(lexicon: Lexicon, word: str) -> frozenset[str]:
    """What a word shows of the verb it is, from the lexicon's verb_forms: "plain" (like, have, need),
    "participle" (seen, asked; "perfect" too for been, had, got, gotten), "ing" (going); none for a word
    the lists do not know (put, come, a noun): it shows nothing."""
    forms = lexicon.verb_forms
    if word in forms.get("plain", ()):
        return frozenset({"plain"})
    if word in forms.get("participles", ()) or (word.endswith("ed") and not word.endswith("eed") and len(word) > 3):
        return frozenset({"participle", "perfect"} if word in forms.get("perfect_only", ()) else {"participle"})
    return frozenset({"ing"}) if word.endswith("ing") and len(word) > 4 else frozenset()


def spelt_out_as_said(lexicon: Lexicon, reading: str, following: Sequence[str]) -> bool:
    """Whether an ambiguous contraction ("I'd": would or had; "it's": is or has) spelt out as ``reading`` is
    not contradicted by the verb after it (``following``: the source's next words in the sentence, fillers
    left out; the lexicon's skip words and -ly adverbs are looked past): "had" before a plain verb ("I had
    like"), "would" before a past participle ("you would seen"), "has" before an -ing form ("he has going"),
    "is" before a participle of the perfect alone ("it is been") are (lexicon contraction_cues). A verb the
    lists do not know ("I would put") contradicts nothing: only the sentence can tell, and the reading stands."""
    contradicting = lexicon.contraction_cues.get(reading)
    if contradicting is None:
        return True
    skip = lexicon.verb_forms.get("skip", frozenset())
    verb = next((w for w in following if w not in skip and not w.endswith("ly")), "")
    return contradicting not in verb_forms_of(lexicon, verb)


def number_in_sense(lexicon: Lexicon, word: str, before: str) -> bool:
    """Whether a number word with another sense is a number where it stands, by the word ``before`` it
    (lexicon number_senses): "one" of "no one" is nobody, "second" of "in a second" a moment; "one of
    them" and "the second point" are numbers. A word with no other sense always is."""
    sense = lexicon.number_senses.get(word)
    if sense is None:
        return True
    side, words = sense
    return (before in words) == (side == "after")


def benign_join(contract: Contract, quote_words: Sequence[str], source_words: Sequence[str], *,
                hyphenated: bool) -> bool:
    """Words joined or split ("equi-/pment" for "equipment") with the same letters.

    Benign only when the split is marked (``hyphenated``: a hyphen at a line
    end, or an apostrophe as in "it [sic]'s") or one of its pieces is no word
    of the language; "not able" for "notable", "a typical" for "atypical" and
    "re-search" for "research" are other words.
    """
    if hyphenated:
        return True
    if contract.lexicon is None:
        return False
    split = quote_words if len(quote_words) > len(source_words) else source_words
    return any(not is_word(w, contract.lexicon, min_zipf=contract.word_min_zipf) for w in split)


def with_clitic(quote_word: str, source_word: str) -> bool:
    """Whether the source word is the quote word with a clitic: "joe's" for "joe", "parties'" for "parties"."""
    return source_word == quote_word + "'s" or (source_word == quote_word + "'" and quote_word.endswith("s"))


def clitic(contract: Contract, quote_word: str, source_word: str) -> bool:
    """A clitic the quote leaves off the word it ends on: "Grandpa Joe" for "Grandpa Joe's stories".

    Benign only in a language whose 's is a clitic (its lexicon's contractions have it: English) and on
    a word that names something: never a number ("early 30" for "early 30's" changes what is said), a
    pronoun or determiner, a contraction of its own ("let's") or a function word ("it's", "there's",
    "what's": "it" says nothing of "it is"). The caller checks that the quote ends at the word's edge.
    """
    lexicon = contract.lexicon
    if lexicon is None or "'s" not in lexicon.contractions or not with_clitic(quote_word, source_word):
        return False
    if any(ch.isdigit() for ch in quote_word) or source_word in lexicon.irregular_contractions:
        return False
    if quote_word in lexicon.pronouns or quote_word in lexicon.determiners:
        return False
    return not function_word(contract, quote_word)


def cut_word(contract: Contract, quote_word: str, source_word: str, *, at_start: bool) -> bool:
    """A quote that starts (``at_start``) or ends inside a source word: "isual acuity" for "visual acuity",
    "visual acui" for "visual acuity". The piece quoted must be no word of the language: "meeting" for "meetings"
    is another word, not a cut one."""
    if contract.lexicon is None or len(quote_word) >= len(source_word):
        return False
    inside = source_word.endswith(quote_word) if at_start else source_word.startswith(quote_word)
    return inside and not is_word(quote_word, contract.lexicon, min_zipf=contract.word_min_zipf)


@dataclass(frozen=True)
class BracketTest:
    kind: DifferenceKind  # editorial (benign), word, negation or number
    reason: str    # why, for a non-benign bracket
    signal: str = ""  # what kind of evidence that reason is (judge.odds.SIGNALS)


@dataclass(frozen=True)
class BracketSite:
    """Where a bracket stands in the source: what a reader has just heard there."""

    context: frozenset[str]       # words spoken in this sentence and the one before (no labels, no fillers)
    speaker: frozenset[str] = frozenset()  # the words of the speaker's label
    after: str = ""               # the quote's word just before the bracket (a gloss follows a pronoun)
    named: tuple[str, ...] = ()   # names said earlier in the turn, other than the speaker's, in order
    following: str = ""           # the source word after the words the bracket replaces, if no mark parts them


def bracket(contract: Contract, inserted: Sequence[str], replaced: Sequence[str], site: BracketSite) -> BracketTest:
    """An editorial bracket against the source words it replaces: benign only when it adds nothing.

    Benign: the same words (a case change, ``[T]he``); a gloss of the pronoun it follows whose every
    content word the speaker has just said (``we [the members]``); an insertion of function words only;
    a pronoun put for a name or noun phrase (``[her]`` for *Dr. Okafor*); the speaker's pronoun shifted
    to the third person (``[she]`` for *I*) when no other person is named before it in the turn; the
    speaker's own name for *I*; or a noun phrase put for a third-person or demonstrative pronoun (not a
    determiner: ``this [computer]``) whose every content word occurs in the sentence before (``site``).
    Anything else puts something in that the speaker did not say.
    """
    if list(inserted) == list(replaced) or "".join(inserted) == "".join(replaced):
        return BracketTest("editorial", "")  # [T]he, T[he]: a case change
    lexicon = contract.lexicon
    if lexicon is None:
        what = "replaces" if replaced else "adds"
        return BracketTest("word", f"the language ({contract.language}) has no lexicon to check what the "
                                   f"bracket {what}", "no_lexicon")
    added = [w for _, w in contract.meaning_words(inserted)]
    if added:
        return BracketTest("word", f"the bracket adds {', '.join(repr(w) for w in added)}", "bracket_adds")
    if not replaced:
        if site.after in lexicon.speaker_pronouns:  # "I [Maria Lopez]": the name on the speaker's label
            return _names_the_speaker(contract, list(inserted), site)
        if _before_its_noun(contract, site):
            return BracketTest("word", f"the bracket adds {' '.join(inserted)!r} to '{site.after} {site.following}', "
                                       "which the speaker did not say", "bracket_adds")  # "that [good] market"
        if site.after in lexicon.pronouns:
            return _names_only_what_came_before(contract, list(inserted), site.context)  # "we [the members]"
        content = [w for w in inserted if not function_word(contract, w)]
        if content:
            return BracketTest("word", f"the bracket adds {', '.join(repr(w) for w in content)}, "
                                       "which the speaker did not say", "bracket_adds")
        return BracketTest("editorial", "")  # "[to]", "[is]": a word the grammar wants
    covered = {w for reading in contraction_readings(lexicon, replaced) for w in reading}
    standing = [w for w in replaced if w not in inserted]
    new = [w for w in inserted if w not in replaced and w not in covered]
    if len(new) == 1 and len(standing) == 1 and (standing[0], new[0]) in lexicon.person_shifts:
        if site.named:
            return BracketTest("word", f"the bracket puts '{new[0]}' for '{standing[0]}', but "
                                       f"{site.named[-1]} is named before it: a reader may take them for the speaker",
                               "bracket_rival")
        return BracketTest("editorial", "")  # "[she]" for "I": the speaker named in the third person
    pointing = lexicon.pronouns | lexicon.determiners
    if new and all(w in lexicon.pronouns for w in new):
        if any(w in pointing for w in standing) or contract.meaning_words(standing):
            return BracketTest("word", "the bracket replaces " + repr(" ".join(replaced)), "bracket_replaces")
        return BracketTest("editorial", "")  # "[her]" for a name: the same referent, less specific
    if not all(w in pointing or _expands_to(lexicon, w) for w in standing):
        return BracketTest("word", "the bracket replaces " + repr(" ".join(replaced)), "bracket_replaces")
    return _referent(contract, new, standing, site)


def _before_its_noun(contract: Contract, site: BracketSite) -> bool:
    """Whether a bracket stands between a determiner and the word it goes with ("that [good] market", "a [new]
    plan"): it then says something of that word, however common its own words are, rather than naming what a
    pronoun stands for ("that [the plan] was")."""
    lexicon = contract.lexicon
    assert lexicon is not None
    return (site.after in lexicon.determiners and bool(site.following) and site.following not in lexicon.pronouns
            and site.following not in lexicon.determiners and not function_word(contract, site.following))


def _referent(contract: Contract, new: list[str], standing: list[str], site: BracketSite) -> BracketTest:
    """A noun phrase put for a pronoun: benign when it names the speaker for *I*, or, for a third person or
    a demonstrative used alone, or a possessive one named by its possessor ("[the TUC's] rights" for "our
    rights"), what the sentence before names."""
    lexicon = contract.lexicon
    assert lexicon is not None
    if any(w in lexicon.speaker_pronouns for w in standing):
        return _names_the_speaker(contract, new, site)  # "[Maria Lopez]" for "I", said by Maria Lopez
    possessor = len(standing) == 1 and standing[0] in lexicon.pronouns and bool(new) and new[-1].endswith("'s")
    if site.following and len(standing) == 1 and standing[0] in lexicon.determiners and not possessor \
            and not function_word(contract, site.following):
        return BracketTest("word", f"the bracket replaces {standing[0]!r} of '{standing[0]} {site.following}', "
                                   "a determiner, not a pronoun that names something", "bracket_replaces")
    return _names_only_what_came_before(contract, new, site.context)


def _names_the_speaker(contract: Contract, words: list[str], site: BracketSite) -> BracketTest:
    """Benign when every content word a bracket puts for (or after) the speaker's own pronoun is on the
    speaker's label."""
    assert contract.lexicon is not None
    content = [w.removesuffix("'s") for w in words
               if not function_word(contract, w) and w not in contract.lexicon.pronouns]
    if content and all(w in site.speaker for w in content):
        return BracketTest("editorial", "")
    return BracketTest("word", f"the bracket names {' '.join(words)!r} where the speaker speaks of themself, "
                               "and the speaker's label does not", "bracket_speaker")


def _names_only_what_came_before(contract: Contract, words: list[str], context: frozenset[str]) -> BracketTest:
    """Benign when every content word a bracket puts in occurs (or its stem does) in the text before it."""
    lexicon = contract.lexicon
    assert lexicon is not None
    stems = {stem(contract.language, w) for w in context}
    for word in words:
        word = word.removesuffix("'s")
        if word in lexicon.pronouns or word in lexicon.determiners or function_word(contract, word):
            continue
        if word not in context and stem(contract.language, word) not in stems:
            return BracketTest("word", f"the bracket names {word!r}, which the speaker has not just mentioned",
                               "bracket_unmentioned")
    return BracketTest("editorial", "")


def only_function_words(language: str, text: str, *, min_zipf: float) -> bool:
    """Whether every word of ``text`` is so frequent that it names nothing (the, of, you, could, that):
    leaving only such words out of a quote, or putting only such in, puts little at stake. False in a
    language without a lexicon."""
    lexicon = lexicon_for(language)
    words = [straight(w) for w in WORD.findall(text.casefold())]
    return lexicon is not None and bool(words) and all(is_word(w, lexicon, min_zipf=min_zipf) for w in words)


def function_word(contract: Contract, word: str) -> bool:
    """A word so frequent it names nothing (the, of, to, is): verdict.function_word_zipf or more in wordfreq."""
    assert contract.lexicon is not None
    return is_word(word, contract.lexicon, min_zipf=contract.function_word_zipf)


_SNOWBALL = {"en": "english", "de": "german", "fr": "french", "es": "spanish", "it": "italian",
             "pt": "portuguese", "nl": "dutch"}


@lru_cache(maxsize=100_000)
def stem(language: str, word: str) -> str:
    """The Snowball stem of a word ("methods" -> "method"); the word itself where Snowball has no stemmer."""
    if language not in _SNOWBALL:
        return word
    return _stemmer(_SNOWBALL[language]).stem(word)


@cache
def _stemmer(name: str):
    from nltk.stem.snowball import SnowballStemmer  # about a second to import: only brackets that name a referent

    return SnowballStemmer(name)


def _expands_to(lexicon: Lexicon, word: str) -> bool:
    """Whether a contracted word is a pronoun and a verb ("it's", "they're")."""
    return any(word.endswith(ending) and word[:-len(ending)] in lexicon.pronouns for ending in lexicon.contractions)


def contraction_readings(lexicon: Lexicon | None, words: Sequence[str], limit: int = 6) -> set[tuple[str, ...]]:
    """Every reading of some words with their contractions spelt out ("isn't" -> "is not")."""
    if lexicon is None or len(words) > limit:
        return set()
    readings: list[tuple[str, ...]] = [()]
    for word in words:
        readings = [r + o for r in readings for o in _spellings(lexicon, word)[0]]
    return set(readings)


def _spellings(lexicon: Lexicon, word: str) -> tuple[list[tuple[str, ...]], bool]:
    """One word's readings with its contraction spelt out ("I'd": i would, i had), and whether the
    contraction reads two ways (would or had)."""
    if word in lexicon.irregular_contractions:
        return [lexicon.irregular_contractions[word]], False
    for ending, meanings in lexicon.contractions.items():
        if word.endswith(ending) and len(word) > len(ending):
            options = [(word[: -len(ending)], *meaning) for meaning in meanings]
            return options + [(word,)] if ending == "'s" else options, len(meanings) > 1  # 's: or a possessive
    return [(word,)], False


def spelt_out(lexicon: Lexicon, source_words: Sequence[str], reading: Sequence[str]) -> list[tuple[int, str]]:
    """(index, word) for each contraction among ``source_words`` that reads two ways, with the word that
    ``reading`` (a reading of the source words that the quote's words have too) spells it out as: "had" for
    "I'd" in ("i", "had")."""
    chosen: list[tuple[int, str]] = []
    at = 0
    for k, word in enumerate(source_words):
        options, two_ways = _spellings(lexicon, word)
        option = next((o for o in options if tuple(reading[at:at + len(o)]) == o), options[0])
        if two_ways and len(option) > 1:
            chosen.append((k, option[1]))
        at += len(option)
    return chosen
