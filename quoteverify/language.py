"""The language of documents and quotes, detected offline with lingua.

The verdict rules read a language's word classes (quoteverify.lexicon) to tell a
benign difference from a meaning change; a document or quote in a language with
no lexicon is checked conservatively. So detection must name a language it does
not know a lexicon for (Hungarian, Japanese) rather than force it into one that
has a lexicon: the detector knows all of lingua's 75 languages. It runs in
lingua's low-accuracy mode (trigrams only), loading each language's model on
first use: about 0.3 s and 70 MB for the first text against 1.3 GB and 12 s in
high-accuracy mode, and on the multilingual benchmark the two modes agree (every
document, 253 of 254 quotes). Short texts are where the modes differ, and a
short quote takes its document's language anyway.
"""
from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache
from typing import Any, Iterable

from .types import Document, Quote

AUTO = "auto"
CODE = re.compile(r"[a-z]{2}")


@lru_cache(maxsize=1)
def _detector() -> Any:
    from lingua import LanguageDetectorBuilder  # a Rust extension; imported only when something is detected

    return LanguageDetectorBuilder.from_all_languages().with_low_accuracy_mode().build()


@lru_cache(maxsize=1)
def known_codes() -> frozenset[str]:
    """The ISO 639-1 codes the detector can name."""
    from lingua import Language

    return frozenset(lang.iso_code_639_1.name.lower() for lang in Language.all())


def detect(text: str, *, min_confidence: float = 0.0) -> str | None:
    """The language of ``text`` as an ISO 639-1 code ("de"), or None when it cannot tell.

    ``min_confidence``: None unless the detector gives the language at least this
    confidence (0 to 1; lingua's confidences over all languages sum to 1).
    """
    if not any(ch.isalpha() for ch in text):
        return None
    if min_confidence <= 0.0:
        language = _detector().detect_language_of(text)
        return None if language is None else language.iso_code_639_1.name.lower()
    values = _detector().compute_language_confidence_values(text)
    if not values or values[0].value < min_confidence:
        return None
    return values[0].language.iso_code_639_1.name.lower()


def document_language(text: str, *, sample_chars: int) -> str:
    """The language of a document, from its first ``sample_chars`` characters; "" when unknown."""
    return detect(text[:sample_chars]) or ""


def quote_language(text: str, *, min_words: int, min_confidence: float) -> str:
    """The language of a quote long enough to tell, and clearly in one language; else "" (its document's)."""
    if len(text.split()) < min_words:
        return ""
    return detect(text, min_confidence=min_confidence) or ""


def cosine_applies(language: str | None, config: Any) -> bool:
    """Whether the embedding model can judge meaning in ``language``: it was trained for that language.

    An English-only model scores a German quote against its German source by
    word pieces, not meaning; its cosine must not call such a quote a paraphrase.
    ``config`` is a Config (``config.embed.languages``). An unknown language is
    not one the model was trained for.
    """
    languages: Iterable[str] = config.embed.languages
    return bool(language) and language in languages


def with_languages(documents: Iterable[Document], quotes: Iterable[Quote], settings: Any
                   ) -> tuple[tuple[Document, ...], list[Quote]]:
    """Documents and quotes with their languages: as given, else ``settings.code``, else detected.

    ``settings`` is the config's ``language`` section. A document given with a
    language keeps it; a quote's language column wins over everything. A quote
    left without a language takes its document's when its result is made.
    """
    forced = "" if settings.code == AUTO else settings.code
    docs = tuple(d if d.language else replace(
        d, language=forced or document_language(d.text, sample_chars=settings.sample_chars)) for d in documents)
    checked = []
    for quote in quotes:
        given = quote.language.strip().lower()
        if given and given not in known_codes():
            note = (f"language '{quote.language}' is not an ISO 639-1 code such as de or fr; "
                    + (f"checked as {forced}" if forced else "detected instead"))
            quote, given = replace(quote, notes=quote.notes + (note,)), ""
        if not given and not forced and not quote.problem:
            given = quote_language(quote.text, min_words=settings.min_quote_words,
                                   min_confidence=settings.min_confidence)
        checked.append(replace(quote, language=given) if given != quote.language else quote)
    return docs, checked
