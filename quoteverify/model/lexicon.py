"""Word classes of a language, read from ``quoteverify/lexicons/<language>.yaml``.

The verdict contract calls a difference benign only when a positive test shows
it is; several tests ask whether some words carry meaning a reader relies on:
a negation, a quantifier, a limiter, a hedge or modal, a condition or
exception, or a reporting frame. Those classes are data, one file per
language, so a language is added by writing a file, not code. A language with
no file has no lexicon (``lexicon_for`` returns None) and is checked
conservatively by the rules.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path

import yaml

# The classes whose words an ellipsis may not hide and a bracket may not add, in the order reasons name them.
MEANING_CLASSES = ("negation", "quantifier", "limiter", "hedge", "condition", "reporting")
# The classes of words that turn the rest of their sentence: a contrast ("but"), a self-correction.
TURNING_CLASSES = ("contrast", "correction")
_FILE_KEYS = {"negation": "negations", "quantifier": "quantifiers", "limiter": "limiters", "hedge": "hedges",
              "condition": "conditions", "reporting": "reporting", "contrast": "contrasts",
              "correction": "corrections", "filler": "filler_phrases", "anaphor": "anaphors",
              "aside": "aside_openers", "connective": "connectives", "frame": "frames",
              "coordinator": "coordinators", "address": "addresses", "answer": "answers",
              "reason": "reasons", "example": "examples", "conjunction": "conjunctions",
              "turning_preposition": "turning_prepositions"}
APOSTROPHES = "'’ʼ`´"

# The ISO 639-1 codes of the languages the detector (lingua) can name, as data: the config checks its language
# settings against them without loading lingua (tests/test_language.py holds the two lists together).
LANGUAGE_CODES = frozenset("""
    af ar az be bg bn bs ca cs cy da de el en eo es et eu fa fi fr ga gu he hi hr hu hy id is it ja ka kk ko la lg
    lt lv mi mk mn mr ms nb nl nn pa pl pt ro ru sk sl sn so sq sr st sv sw ta te th tl tn tr ts uk ur vi xh yo zh zu
""".split())
# The language setting that asks for detection instead of naming a language.
AUTO = "auto"


def _folder() -> Path:
    return Path(str(resources.files("quoteverify").joinpath("lexicons")))


def languages() -> tuple[str, ...]:
    """The languages that have a lexicon file."""
    return tuple(sorted(p.stem for p in _folder().glob("*.yaml")))


@dataclass(frozen=True)
class Lexicon:
    """The word classes of one language (all lower case, apostrophes straight)."""

    language: str
    wordfreq: str                                   # wordfreq's code for the real-word test
    phrases: dict[str, frozenset[tuple[str, ...]]]   # class -> its words and phrases, as word tuples
    negation_suffixes: tuple[str, ...]
    negation_prefixes: tuple[str, ...]
    # Prefixes that make a word its opposite ("un" of "unable"): a slip that adds or drops one is no slip.
    negating_prefixes: tuple[str, ...]
    fillers: frozenset[str]
    pronouns: frozenset[str]
    speaker_pronouns: frozenset[str]                # I, me, my: a bracket may name the speaker for them
    determiners: frozenset[str]
    person_shifts: frozenset[tuple[str, str]]   # (the speaker's pronoun, a third person's), as a bracket may shift it
    contractions: dict[str, tuple[tuple[str, ...], ...]]
    irregular_contractions: dict[str, tuple[str, ...]]
    elisions: tuple[str, ...]
    spelling_suffixes: tuple[tuple[str, str], ...]
    spelling_words: frozenset[frozenset[str]]
    # A preposition and an article written as one word ("zum": zu dem, "del": de el), for rules that need them.
    contracted_articles: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # Particles of a separable verb that close its clause (German "vorbei", Dutch "toe").
    separable_particles: frozenset[str] = frozenset()
    # Spellings that name one sense of the word their other spelling names ("cheque" of "check").
    spelling_one_sense: frozenset[str] = frozenset()
    # Verb forms that may contradict how an ambiguous contraction is spelt out (rules.verb_forms_of): class ->
    # words (plain, participles, perfect_only, skip).
    verb_forms: dict[str, frozenset[str]] = field(default_factory=dict)
    # A reading of an ambiguous contraction -> the verb form after it that contradicts it (plain, participle,
    # ing, perfect).
    contraction_cues: dict[str, str] = field(default_factory=dict)
    # A number word with another sense -> ("after": the words before it that show the number, or "not_after":
    # the words before it that show the other sense).
    number_senses: dict[str, tuple[str, frozenset[str]]] = field(default_factory=dict)
    # class -> first word -> the lengths of its phrases that open with that word, longest first (``find``)
    openers: dict[str, dict[str, tuple[int, ...]]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "openers", {cls: _openers(entries) for cls, entries in self.phrases.items()})

    def is_negation(self, word: str) -> bool:
        """A word that negates on its own, or by its ending ("isn't") or beginning ("n'est")."""
        if (word,) in self.phrases["negation"]:
            return True
        return (any(word.endswith(s) and len(word) > len(s) for s in self.negation_suffixes)
                or any(word.startswith(p) and len(word) > len(p) for p in self.negation_prefixes))

    def find(self, words: Sequence[str], classes: Iterable[str] = MEANING_CLASSES) -> list[tuple[str, str]]:
        """(class, phrase) for each word or phrase of the given classes among ``words``, in class order."""
        found: list[tuple[str, str]] = []
        for cls in classes:
            entries, openers = self.phrases[cls], self.openers[cls]
            hits: list[str] = []
            k = 0
            while k < len(words):
                # The longest phrase of the class that opens at word k, if any: only the lengths of the phrases
                # that open with that word are tried.
                for n in openers.get(words[k], ()):
                    if n <= len(words) - k and tuple(words[k:k + n]) in entries:
                        hits.append(" ".join(words[k:k + n]))
                        k += n - 1
                        break
                else:
                    if cls == "negation" and self.is_negation(words[k]):
                        hits.append(words[k])
                k += 1
            found += [(cls, h) for h in dict.fromkeys(hits)]
        return found

    def same_spelling(self, a: str, b: str) -> bool:
        """Whether two words are one word spelt two ways (British and American, say)."""
        if frozenset((a, b)) in self.spelling_words:
            return True
        for x, y in self.spelling_suffixes:
            for p, q in ((a, b), (b, a)):
                if p.endswith(x) and q.endswith(y) and p[: -len(x)] == q[: -len(y)] and len(p) > len(x) + 1:
                    # A doubled l is British only after an unstressed syllable: travelled, not filled for filed.
                    if x.startswith("ll") and len(_VOWELS.findall(p[: -len(x)])) < 2:
                        continue
                    return True
        return False


_VOWELS = re.compile(r"[aeiouy]+")


def _openers(entries: Iterable[tuple[str, ...]]) -> dict[str, tuple[int, ...]]:
    """For each word that opens a phrase of ``entries``, the lengths of those phrases, longest first."""
    lengths: dict[str, set[int]] = {}
    for entry in entries:
        if entry:
            lengths.setdefault(entry[0], set()).add(len(entry))
    return {word: tuple(sorted(ns, reverse=True)) for word, ns in lengths.items()}


def _words(entry: object) -> tuple[str, ...]:
    if not isinstance(entry, str):  # YAML reads a bare no, yes, on or off as a boolean
        raise ValueError(f"lexicon entry {entry!r} is not text; put it in quotes")
    # Tokens split at hyphens ("peut-être" is two words), so entries are split the same way.
    return tuple(straight(entry).replace("-", " ").split())


def straight(text: str) -> str:
    """Case-folded with every kind of apostrophe made straight, as normalized text has it.

    Case folding, not lower case: normalized text spells "ß" as "ss", so "bloß" must be looked up as "bloss".
    """
    for a in APOSTROPHES[1:]:
        text = text.replace(a, "'")
    return unicodedata.normalize("NFKC", text).casefold()


def _read(path: Path) -> Lexicon:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    phrases = {cls: frozenset(_words(e) for e in data.get(key) or ()) for cls, key in _FILE_KEYS.items()}
    contractions = {straight(k): tuple(tuple(straight(w) for w in reading) for reading in v)
                    for k, v in (data.get("contractions") or {}).items()}
    irregular = {straight(k): tuple(straight(w) for w in v)
                 for k, v in (data.get("irregular_contractions") or {}).items()}
    return Lexicon(
        language=data["language"], wordfreq=data.get("wordfreq", data["language"]), phrases=phrases,
        negation_suffixes=tuple(straight(s) for s in data.get("negation_suffixes") or ()),
        negation_prefixes=tuple(straight(s) for s in data.get("negation_prefixes") or ()),
        negating_prefixes=tuple(straight(s) for s in data.get("negating_prefixes") or ()),
        fillers=frozenset(straight(w) for w in data.get("fillers") or ()),
        pronouns=frozenset(straight(w) for w in data.get("pronouns") or ()),
        speaker_pronouns=frozenset(straight(w) for w in data.get("speaker_pronouns") or ()),
        determiners=frozenset(straight(w) for w in data.get("determiners") or ()),
        person_shifts=frozenset((straight(a), straight(b)) for a, b in data.get("person_shifts") or ()),
        contractions=contractions, irregular_contractions=irregular,
        elisions=tuple(straight(e) for e in data.get("elisions") or ()),
        spelling_suffixes=tuple((straight(a), straight(b)) for a, b in data.get("spelling_suffixes") or ()),
        spelling_words=frozenset(frozenset((straight(a), straight(b)))
                                 for a, b in data.get("spelling_words") or ()),
        contracted_articles={straight(k): tuple(straight(w) for w in v)
                             for k, v in (data.get("contracted_articles") or {}).items()},
        spelling_one_sense=frozenset(straight(w) for w in data.get("spelling_one_sense") or ()),
        separable_particles=frozenset(" ".join(_words(w)) for w in data.get("separable_particles") or ()),
        verb_forms={k: frozenset(" ".join(_words(w)) for w in v) for k, v in (data.get("verb_forms") or {}).items()},
        contraction_cues={straight(k): v for k, v in (data.get("contraction_cues") or {}).items()},
        number_senses=_number_senses(data.get("number_senses") or {}),
    )


def _number_senses(data: dict) -> dict[str, tuple[str, frozenset[str]]]:
    senses = {}
    for word, rule in data.items():
        [(side, words)] = rule.items()
        if side not in ("after", "not_after"):
            raise ValueError(f"number_senses: {word!r} needs 'after' or 'not_after', not {side!r}")
        senses[straight(word)] = (side, frozenset(" ".join(_words(w)) for w in words))
    return senses


@cache
def lexicon_for(language: str | None) -> Lexicon | None:
    """The lexicon of a language (an ISO 639-1 code such as "en"), or None when there is none."""
    if not language:
        return None
    path = _folder() / f"{language.lower()}.yaml"
    return _read(path) if path.is_file() else None


@lru_cache(maxsize=200_000)
def _zipf(word: str, code: str) -> float:
    from wordfreq import zipf_frequency  # loads a language's word list on first use (~0.3 s)

    return zipf_frequency(word, code)


def load_word_list(lexicon: Lexicon) -> None:
    """Read the language's wordfreq list now rather than at the first ``is_word`` (a second or so)."""
    _zipf("a", lexicon.wordfreq)  # a word, or wordfreq reads no list


def is_word(word: str, lexicon: Lexicon, *, min_zipf: float) -> bool:
    """Whether ``word`` is a word of the language: at least ``min_zipf`` in wordfreq's list."""
    return _zipf(word, lexicon.wordfreq) >= min_zipf
