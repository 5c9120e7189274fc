"""The language of documents and quotes, detected offline with lingua.

The verdict rules read a language's word classes (quoteverify.model.lexicon) to tell a
benign difference from a meaning change; a document or quote in a language with
no lexicon is checked conservatively. So languages are told among all of
lingua's 75: Hungarian or Japanese is named as such, not forced into a language
that has a lexicon. Most quotes are in the language of their documents, and
checking that first, among the documents' languages and those with a lexicon,
is about eight times faster (some 0.1 ms a quote) than asking among all.
Detection runs in lingua's low-accuracy mode (trigrams only), loading each
language's model on first use: about 0.3 to 0.6 s and 60 MB for the first
text, against 12 to 19 s and 0.9 to 1.3 GB in high-accuracy mode; on the
multilingual benchmark the two modes agree (every document, 253 of 254
quotes). Short texts are where the modes differ, and a short quote takes its
document's language anyway.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from functools import lru_cache
from importlib import metadata
from typing import Any

from ..model.lexicon import AUTO, LANGUAGE_CODES
from ..model.lexicon import languages as lexicon_languages
from ..model.types import Document, Quote
from ..plumbing.cache import Cache, digest


@lru_cache(maxsize=4)
def _detector(among: frozenset[str] | None = None) -> Any:
    """A detector for all languages, or for the languages (ISO 639-1 codes) ``among``."""
    from lingua import IsoCode639_1, LanguageDetectorBuilder  # a Rust extension: imported on first detection

    if among is None:
        builder = LanguageDetectorBuilder.from_all_languages()
    else:
        builder = LanguageDetectorBuilder.from_iso_codes_639_1(*(getattr(IsoCode639_1, c.upper()) for c in among))
    return builder.with_low_accuracy_mode().build()


def known_codes() -> frozenset[str]:
    """The ISO 639-1 codes the detector can name."""
    return LANGUAGE_CODES


def _readable(text: str) -> str | None:
    """``text`` as lingua can take it, or None when it holds no letter to tell a language by."""
    if not any(ch.isalpha() for ch in text):
        return None
    # Text decoded with surrogateescape keeps lone surrogates, which lingua (Rust) cannot take.
    return text.encode("utf-8", "replace").decode("utf-8")


def detect(text: str, *, min_confidence: float = 0.0, among: Iterable[str] | None = None) -> str | None:
    """The language of ``text`` as an ISO 639-1 code ("de"), or None when it cannot tell.

    ``min_confidence``: None unless the detector gives the language at least this
    confidence (0 to 1; lingua's confidences over the candidates sum to 1).
    ``among``: the candidate languages (at least two codes); default all.
    """
    readable = _readable(text)
    if readable is None:
        return None
    text = readable
    detector = _detector(None if among is None else frozenset(among))
    if min_confidence <= 0.0:
        language = detector.detect_language_of(text)
        return None if language is None else language.iso_code_639_1.name.lower()
    values = detector.compute_language_confidence_values(text)
    if not values or values[0].value < min_confidence:
        return None
    return values[0].language.iso_code_639_1.name.lower()


def _sample(text: str, sample_chars: int) -> str:
    """``sample_chars`` characters in the middle of a document (past a title page, names and dates at its
    start): what its language is detected from."""
    start = max(0, (len(text) - sample_chars) // 2)
    return text[start:start + sample_chars]


def document_language(text: str, *, sample_chars: int) -> str:
    """The language of a document, from ``sample_chars`` characters in its middle; "" when unknown."""
    return detect(_sample(text, sample_chars)) or ""


@lru_cache(maxsize=1)
def _detector_name() -> str:
    """What a detected language depends on besides the text: the detector, its version and mode."""
    return f"lingua {metadata.version('lingua-language-detector')} low-accuracy"


def document_languages(texts: Sequence[str], *, sample_chars: int, cache: Cache | None = None) -> list[str]:
    """``document_language`` of each text; what ``cache`` does not know is detected in parallel (lingua
    uses every core) and remembered there."""
    samples = [_sample(text, sample_chars) for text in texts]
    store = cache if cache is not None and cache.enabled else None
    keys = [digest("language", _detector_name(), sample) for sample in samples] if store else []
    known = store.database.load_languages(keys) if store else {}
    todo = [k for k in range(len(samples)) if not store or keys[k] not in known]
    told = dict(zip(todo, _detect_many([samples[k] for k in todo])))
    if store:
        store.database.save_languages({keys[k]: code for k, code in told.items()})
    return [told[k] if k in told else known[keys[k]] for k in range(len(samples))]


def _detect_many(texts: Sequence[str]) -> list[str]:
    """``detect`` of each text ("" when it cannot tell), in parallel."""
    readable = [_readable(text) for text in texts]
    asked = [k for k, text in enumerate(readable) if text is not None]
    found = _detector(None).detect_languages_in_parallel_of([readable[k] for k in asked]) if asked else []
    out = [""] * len(texts)
    for k, language in zip(asked, found):
        out[k] = "" if language is None else language.iso_code_639_1.name.lower()
    return out


def quote_language(text: str, *, min_words: int, min_confidence: float, expected: str = "",
                   among: Iterable[str] | None = None) -> str:
    """The language of a quote long enough to tell, and clearly in one language; else "" (its document's).

    ``expected``: the language the quote is most likely in (its document's); when
    the detector is sure of it among the languages ``among``, all languages are not asked.
    """
    if len(text.split()) < min_words:
        return ""
    if expected and among is not None and detect(text, min_confidence=min_confidence, among=among) == expected:
        return expected
    return detect(text, min_confidence=min_confidence) or ""


def cosine_applies(language: str | None, config: Any) -> bool:
    """Whether the embedding model can judge meaning in ``language``: it was trained for that language.

    An English-only model scores a German quote against its German source by
    word pieces, not meaning; its cosine must not call such a quote a paraphrase.
    ``config`` is a Config (``config.embed.languages``). An unknown language is
    not one the model was trained for.
    """
    languages: Iterable[str] = config.embed.languages
    return bool(language) and str(language) in languages


def with_languages(documents: Iterable[Document], quotes: Iterable[Quote], settings: Any, *,
                   cache: Cache | None = None) -> tuple[tuple[Document, ...], list[Quote], list[str]]:
    """Documents with their languages, the quotes, and each quote's language as given.

    A document keeps a language it was given, else gets ``settings.code``, else
    its detected one (``settings`` is the config's ``language`` section; a
    ``cache`` remembers what was detected, by the text sampled). A
    quote's language as given is its language column, else ``settings.code``,
    else "": then ``detect_quote_languages`` may tell it, or it takes its
    document's when its result is made. The quotes come back as given, but for
    a note on a language column that is no language code.
    """
    forced = "" if settings.code == AUTO else settings.code
    documents = tuple(documents)
    unknown = [d for d in documents if not d.language and not forced]
    detected = iter(document_languages([d.text for d in unknown], sample_chars=settings.sample_chars, cache=cache))
    docs = tuple(d if d.language else replace(d, language=forced or next(detected)) for d in documents)
    checked, own = [], []
    for quote in quotes:
        given = quote.language.strip().lower()
        if given and given not in known_codes():
            note = (f"language '{quote.language}' is not an ISO 639-1 code such as de or fr; "
                    + (f"checked as {forced}" if forced else "detected instead"))
            quote, given = replace(quote, notes=quote.notes + (note,)), ""
        checked.append(quote)
        own.append(given or forced)
    return docs, checked, own


def detect_quote_languages(documents: Iterable[Document], quotes: Sequence[Quote], own: list[str],
                           indices: Iterable[int], settings: Any) -> None:
    """Fill in ``own[k]`` for the quotes at ``indices`` whose language was not given, where it can be told.

    Only quotes the exact fast path did not find need this: a quote found word
    for word is in its document's language.
    """
    if settings.code != AUTO:
        return
    docs = tuple(documents)
    corpus = {d.language for d in docs if d.language in known_codes()}
    among = frozenset(corpus) | frozenset(lexicon_languages())
    by_id = {d.doc_id: d.language for d in docs}
    for k in indices:
        quote = quotes[k]
        if own[k] or quote.problem:
            continue
        expected = by_id.get(quote.claimed_document) or (min(corpus) if len(corpus) == 1 else "")
        own[k] = quote_language(quote.text, min_words=settings.min_quote_words,
                                min_confidence=settings.min_confidence, expected=expected, among=among)
