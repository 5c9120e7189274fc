"""verify(): the stages in order, nothing else."""
from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..judge.classify import classify, coverage, needs_cosine
from ..judge.diff import compare
from ..judge.embed import CachedEmbedder, Embedder, SentenceTransformerEmbedder, cosines
from ..judge.rules import Contract
from ..model.config import Config, VerdictConfig, as_config
from ..model.lexicon import lexicon_for
from ..model.text import clip
from ..model.types import Alignment, Comparison, Document, Progress, Quote, QuoteResult, Run
from ..plumbing.archive import ArchiveLimits
from ..plumbing.cache import Cache
from ..plumbing.resultcache import ResultCache
from ..search.align import Aligner
from ..search.index import Bm25Index
from ..search.window import make_windows
from ..sources.corpus import Corpus, PreparedDocument, PreparedQuote, prepare_quote
from ..sources.documents import LoadedDocuments, load_documents, sha256_bytes
from ..sources.language import cosine_applies, detect_quote_languages, with_languages
from ..sources.quotes import LoadedQuotes, check_claims, coerce_quotes, load_quotes
from ..sources.turns import label_warnings
from .parallel import ordered_map


def _documents(documents: Any, limits: ArchiveLimits) -> LoadedDocuments:
    if isinstance(documents, LoadedDocuments):
        return documents
    if isinstance(documents, Mapping):
        # surrogatepass: text decoded with surrogateescape still gets a hash
        docs = tuple(Document(str(k), "", str(v), sha256_bytes(str(v).encode("utf-8", "surrogatepass")))
                     for k, v in sorted(documents.items()))
        return LoadedDocuments(docs)
    if isinstance(documents, (str, Path)):
        documents = [documents]
    items = list(documents)
    if items and all(isinstance(d, Document) for d in items):
        return LoadedDocuments(tuple(sorted(items, key=lambda d: d.doc_id)))
    return load_documents(items, limits=limits)


def _quotes(quotes: Any, columns: Mapping[str, str], limits: ArchiveLimits) -> tuple[list[Quote], list[str], str]:
    if isinstance(quotes, (str, Path)):
        quotes = load_quotes(quotes, columns=columns, limits=limits)
    if isinstance(quotes, LoadedQuotes):
        return list(quotes.quotes), list(quotes.warnings), quotes.sha256
    return coerce_quotes(quotes, columns=columns), [], ""


def _embedder(config: Config, embedder: Embedder | None, cache: Cache) -> Embedder | None:
    if not config.embed.enabled:
        return None
    if embedder is None:
        embedder = SentenceTransformerEmbedder(config.embed.model, batch_size=config.embed.batch_size,
                                               threads=config.embed.threads)
    return CachedEmbedder(embedder, cache)


@dataclass
class Prepared:
    """The documents made ready to search: what every quote is checked against."""

    corpus: Corpus
    index: Bm25Index
    aligner: Aligner
    windows: int
    index_seconds: float = 0.0


def prepare(documents: tuple[Document, ...], config: Config, *, cache: Cache,
            lap: Callable[[str], None] | None = None,
            normalized: list[PreparedDocument] | None = None) -> Prepared:
    """Normalize, window and (lazily) index the documents; ``normalized``: each document normalized and
    tokenized already (``corpus.prepare_document``)."""
    corpus = Corpus(documents, cache=cache, prepared=normalized)
    if lap:
        lap("normalize")
    windows = make_windows(corpus, size=config.window.size, overlap=config.window.overlap)
    index = Bm25Index(corpus, windows, backend=config.index.backend, k1=config.index.k1, b=config.index.b,
                      cache=cache, key=f"{config.window.size}/{config.window.overlap}")
    aligner = Aligner(corpus, index, align=config.align, top_k=config.index.top_k)
    if lap:
        lap("window")
    return Prepared(corpus, index, aligner, len(windows))


@lru_cache(maxsize=64)
def _contract(language: str, verdict: VerdictConfig) -> Contract:
    """The verdict contract of a language under some settings, made once."""
    return Contract.of(language, verdict)


def _say_unjudged(results: list[QuoteResult], unjudged: set[int]) -> None:
    for k in sorted(unjudged):
        language = f"'{results[k].language}'" if results[k].language else "an unknown language"
        results[k].reasons.append(f"meaning not compared: the embedding model is not trained for {language} "
                                  "(embed.languages)")


def _align_and_compare(pq: PreparedQuote, quote: Quote, prepared: Prepared, config: Config,
                       contract: Callable[[Alignment], Contract]) -> tuple[Alignment, Comparison]:
    """Locate a quote the exact fast path did not, and name its differences."""
    corpus = prepared.corpus
    alignment = prepared.aligner.align(pq, corpus.by_id.get(quote.claimed_document), quote.speaker)
    target = alignment
    if alignment.passage is not None and coverage(alignment) < config.verdict.min_coverage:
        # Too little aligns for a quotation: compare with the passage it may paraphrase, its one place.
        target = Alignment("passage", (alignment.passage,), alignment.quote_words)
        alignment = replace(alignment, occurrences=1, speaker_occurrences=None, others=())
    return alignment, compare(pq, target, corpus, splice_gap_words=config.align.splice_gap_words,
                              contract=contract(alignment))


def _exact_pass(quote_list: Sequence[Quote], prepared: Prepared, prepared_quotes: dict[int, PreparedQuote]
                ) -> tuple[dict[int, Alignment], list[int]]:
    """Prepare each checkable quote (into ``prepared_quotes``) and look it up word for word:
    (the exact alignments found, the quotes still to align)."""
    exacts: dict[int, Alignment] = {}
    rest: list[int] = []
    for k, quote in enumerate(quote_list):
        if quote.problem:
            continue
        pq = prepare_quote(quote.text, prepared.corpus)
        prepared_quotes[k] = pq
        exact = prepared.aligner.align_exact(pq, prepared.corpus.by_id.get(quote.claimed_document), quote.speaker)
        if exact is None:
            rest.append(k)
        else:
            exacts[k] = exact
    return exacts, rest


def _cosine_scores(checked: Mapping[int, tuple[Alignment, Comparison]], quote_list: Sequence[Quote],
                   own_languages: Sequence[str], corpus: Corpus, config: Config, embed: Embedder | None
                   ) -> tuple[dict[int, float], set[int]]:
    """The cosine of each quote whose verdict or confidence it can inform, and the quotes left without one
    because the model was not trained for their language."""
    needs = [k for k in sorted(checked) if needs_cosine(*checked[k], config.verdict)]
    # A model not trained for a quote's language scores word pieces, not meaning: no cosine for such a quote.
    unjudged = {k for k in needs if embed is not None
                and not cosine_applies(_language(own_languages[k], checked[k][0], corpus,
                                                 quote_list[k].claimed_document), config)}
    needs = [k for k in needs if k not in unjudged]
    if embed is None or not needs:
        return {}, unjudged
    values = cosines(embed, [(quote_list[k].text, checked[k][1].pieces_text) for k in needs])
    return dict(zip(needs, values)), unjudged


def _kept(cached: ResultCache, quote_list: Sequence[Quote], config: Config, embed: Embedder | None,
          corpus: Corpus, exacts: Mapping[int, Alignment], rest: Sequence[int], own_languages: Sequence[str]
          ) -> tuple[dict[int, str], dict[int, QuoteResult]]:
    """Each checkable quote's result-cache key, and the results kept under them."""
    keys = {k: cached.key(quote_list[k], config, embed, corpus, exact=exacts.get(k), language=own_languages[k])
            for k in [*exacts, *rest]}
    return keys, cached.load(keys)


def check_quotes(prepared: Prepared, quote_list: Sequence[Quote], config: Config, embed: Embedder | None, *,
                 own_languages: Sequence[str], progress: Progress | None = None,
                 lap: Callable[[str], None] | None = None, cached: ResultCache | None = None,
                 told: Sequence[str] | None = None) -> list[QuoteResult]:
    """One result per quote, in order: the stages after indexing.

    Both the in-process run and a cluster worker (quoteverify.pipeline.cluster.client) call this.
    ``own_languages``: each quote's language as given; ``cached``: results kept between runs (resultcache);
    ``told``: each quote's language told against the whole corpus (a worker holding a part must not tell)."""
    lap = lap or (lambda stage: None)
    corpus, index = prepared.corpus, prepared.index
    prepared_quotes: dict[int, PreparedQuote] = {}
    given = list(own_languages)
    own_languages = list(own_languages)  # told below for the quotes not found word for word

    def language_of(k: int, alignment: Alignment) -> str:
        return _quote_language(own_languages[k], given[k], alignment, corpus, quote_list[k].claimed_document,
                               config.language.source_share)

    def contract(k: int, alignment: Alignment) -> Contract:
        return _contract(language_of(k, alignment), config.verdict)

    def check(k: int) -> tuple[Alignment, Comparison]:
        return _align_and_compare(prepared_quotes[k], quote_list[k], prepared, config, lambda a: contract(k, a))

    # The exact fast path first, here; what it does not settle is aligned in parallel.
    checked: dict[int, tuple[Alignment, Comparison]] = {
        k: (Alignment("none", (), 0), Comparison((), None, "")) for k, q in enumerate(quote_list) if q.problem}
    exacts, rest = _exact_pass(quote_list, prepared, prepared_quotes)
    keys, reused = _kept(cached, quote_list, config, embed, corpus, exacts, rest, own_languages) if cached else ({}, {})
    rest = [k for k in rest if k not in reused]
    own_languages = _told(own_languages, told, quote_list, rest, corpus, config)
    gap = config.align.splice_gap_words
    checked.update((k, (exact, compare(prepared_quotes[k], exact, corpus, splice_gap_words=gap,
                                       contract=contract(k, exact)))) for k, exact in exacts.items() if k not in reused)
    if progress:
        progress(len(checked) + len(reused), len(quote_list))
    if rest:
        index.build()
        done = len(checked) + len(reused)
        report = (lambda n: progress(done + n, len(quote_list))) if progress else None
        checked.update(zip(rest, ordered_map(check, rest, workers=config.align.workers, on_done=report)))
    prepared.index_seconds = index.build_seconds
    own_languages = [language_of(k, checked[k][0]) if k in checked else own_languages[k]
                     for k in range(len(quote_list))]
    lap("align")

    scores, unjudged = _cosine_scores(checked, quote_list, own_languages, corpus, config, embed)
    lap("embed")

    results = [
        reused[k] if k in reused
        else _result(quote, *checked[k], scores.get(k), corpus, config, own_languages[k])
        for k, quote in enumerate(quote_list)
    ]
    _say_unjudged(results, unjudged)
    if cached is not None:
        cached.save({keys[k]: results[k] for k in keys if k not in reused})
    lap("classify")
    return results


def run(documents: Any, quotes: Any, config: Config | Mapping[str, Any] | str | Path | None = None, *,
        embedder: Embedder | None = None, progress: Progress | None = None,
        cache_dir: str | Path | None = None) -> Run:
    """Check every quote against the documents; one result per quote, in input order.

    ``cache_dir``: keep prepared documents, the BM25 index and embeddings there
    between runs (see quoteverify.plumbing.cache); None caches nothing.
    """
    config = as_config(config)
    timings: dict[str, float] = {}
    clock = time.perf_counter()

    def lap(stage: str) -> None:
        nonlocal clock
        now = time.perf_counter()
        timings[stage] = timings.get(stage, 0.0) + now - clock
        clock = now

    limits = ArchiveLimits.of(config)
    loaded = _documents(documents, limits)
    quote_list, warnings, quotes_sha256 = _quotes(quotes, vars(config.columns), limits)
    warnings = list(loaded.warnings) + warnings
    quote_list = check_claims(quote_list, (d.doc_id for d in loaded.documents))
    lap("load")
    cache = Cache(cache_dir)
    documents_with_languages, quote_list, own_languages = with_languages(loaded.documents, quote_list,
                                                                          config.language, cache=cache)
    loaded = replace(loaded, documents=documents_with_languages)
    lap("language")
    prepared = prepare(loaded.documents, config, cache=cache, lap=lap)
    embed = _embedder(config, embedder, cache)
    results = check_quotes(prepared, quote_list, config, embed, own_languages=own_languages, progress=progress,
                           lap=lap, cached=ResultCache(cache_dir, warnings=warnings))
    timings["index"] = prepared.index_seconds
    timings["align"] -= timings["index"]
    warnings += cache.warnings
    corpus = prepared.corpus
    warnings += label_warnings(loaded.documents, results, lambda d: corpus.sources[corpus.by_id[d.doc_id]].turns)
    return Run(results, loaded.documents, config, embed.name if embed else None, timings, warnings,
               prepared.windows, quotes_sha256, tuple(quote_list))

def verify(documents: Any, quotes: Any, config: Config | Mapping[str, Any] | str | Path | None = None, *,
           embedder: Embedder | None = None, progress: Progress | None = None,
           cache_dir: str | Path | None = None) -> list[QuoteResult]:
    """Verify quotes against documents.

    documents: folder or file paths, ``Document`` objects, or a mapping id -> text.
    quotes: a quote table path (or what ``load_quotes`` read from one), a pandas
    DataFrame (one quote per row, its columns found as in a quote table), or a
    list of strings, dicts (``quote``, ``quote_id``, ``document`` ...) or
    ``Quote`` objects; the config's ``columns:`` block names other columns.
    config: a Config, a YAML path, or a mapping of overrides such as
    ``{"embed": {"enabled": False}}``. cache_dir: as for run().
    """
    return run(documents, quotes, config, embedder=embedder, progress=progress, cache_dir=cache_dir).results


def _result(quote: Quote, alignment: Alignment, comparison: Comparison, cosine: float | None,
            corpus: Corpus, config: Config, own_language: str = "") -> QuoteResult:
    claimed_known = quote.claimed_document in corpus.by_id
    source = corpus.sources[corpus.by_id[comparison.document]] if comparison.document else None
    coded_elsewhere = ""
    if quote.at is not None and source is not None and comparison.document == quote.claimed_document:
        a, b, line = quote.at
        if (comparison.start, comparison.end) != (a, b):
            if source.document.text[a:b] == comparison.matched_text:
                # The same words stand twice in the source: the project's place is the one to report.
                comparison = replace(comparison, start=a, end=b, pieces=((comparison.document, a, b),))
            else:
                coded_elsewhere = f"not where the QDA project codes it (line {line} of the project's copy)"
    start, end = comparison.start or 0, comparison.end or 0  # set wherever a document is
    turn = None
    turn_speakers: tuple[str, ...] = ()
    if source is not None:
        turn = source.turn_at(start)
        spans = [(a, b) for doc, a, b in comparison.pieces if doc == comparison.document]
        turn_speakers = source.turns.speakers(spans or [(start, end)])
    language = _language(own_language, alignment, corpus, quote.claimed_document)
    verdict = classify(quote, alignment, comparison, cosine, verdict=config.verdict, confidence=config.confidence,
                       claimed_known=claimed_known,
                       speaker=turn.speaker if turn else "", turn_speakers=turn_speakers,
                       language=language, has_lexicon=lexicon_for(language) is not None)
    if coded_elsewhere:
        verdict = replace(verdict, reasons=(*verdict.reasons, coded_elsewhere))
    result = QuoteResult(
        quote_id=quote.quote_id, quote=quote.text, row=quote.row, claimed_document=quote.claimed_document,
        status=verdict.status, match_type=verdict.match_type, confidence=verdict.confidence, band=verdict.band,
        severity=verdict.severity, reasons=list(verdict.reasons), bm25_score=_round(alignment.bm25_score),
        bm25_ratio=_round(alignment.bm25_ratio), cosine=cosine, match_ratio=comparison.match_ratio,
        extra=dict(quote.extra), finding=quote.finding, finding_confidence=quote.finding_confidence,
        claimed_speaker=quote.speaker)
    result.language = language
    if source is None:
        return result
    text = source.document.text
    if verdict.status == "unverified":
        result.suggestion = (f"closest passage: {comparison.document} line {source.line_of(start)}: "
                             f"{clip(comparison.matched_text, 300)!r}")
        return result
    ctx = config.output.context_chars
    result.document = comparison.document
    result.document_sha256 = source.document.sha256
    result.start, result.end = start, end
    result.matched_text = comparison.matched_text
    result.context_before = text[max(0, start - ctx):start]
    result.context_after = text[end:end + ctx]
    result.line = source.line_of(start)
    result.page, result.page_kind = source.pages.label(*_passage(alignment, comparison, verdict.match_type,
                                                                  config.align.max_gap_words))
    result.occurrences = alignment.occurrences
    result.speaker_occurrences = alignment.speaker_occurrences
    result.other_lines = [source.line_of(source.span(w, w + 1)[0]) for w in alignment.others]
    if turn is not None:
        result.speaker, result.timestamp = turn.speaker, turn.timestamp
    result.differences = list(comparison.differences)
    return result


def _passage(alignment: Alignment, comparison: Comparison, match_type: str, gap: int) -> tuple[int, int]:
    """The span whose pages a result names: its whole span, but for a quote spliced or reordered from
    pieces apart, the passage that holds most of its words (the largest piece and those within ``gap``
    words of it, as far as an ellipsis may reach), which is where a reader would look it up."""
    start, end = comparison.start or 0, comparison.end or 0
    segments = sorted(alignment.segments, key=lambda s: s.q_start)
    if match_type not in ("spliced", "reordered") or len(segments) != len(comparison.pieces):
        return start, end
    main = segments[max(range(len(segments)), key=lambda k: segments[k].matched)]
    near = [piece for s, piece in zip(segments, comparison.pieces) if s.doc == main.doc
            and s.d_start <= main.d_end + gap and main.d_start <= s.d_end + gap and piece[0] == comparison.document]
    return (min(p[1] for p in near), max(p[2] for p in near)) if near else (start, end)


def _told(own_languages: list[str], told: Sequence[str] | None, quote_list: Sequence[Quote], rest: Sequence[int],
          corpus: Corpus, config: Config) -> list[str]:
    """Each quote's language as given, or as ``told`` (against the whole corpus), or detected here. Only the
    quotes not found word for word (``rest``) need it: one that is is in its document's language."""
    if told is not None:
        return list(told)
    detect_quote_languages([s.document for s in corpus.sources], quote_list, own_languages, rest, config.language)
    return own_languages


def _quote_language(told: str, given: str, alignment: Alignment, corpus: Corpus, claimed: str, share: float) -> str:
    """A quote's language: as given, else as told, unless ``share`` of its words or more align word for word
    with its source: then it is in that document's language. A detector misled by a slip ('six monthz' reads
    as Tswana to lingua's trigrams) does not make a quote of English words Tswana."""
    own = told if told == given or coverage(alignment) < share else ""
    return _language(own, alignment, corpus, claimed)


def _language(own: str, alignment: Alignment, corpus: Corpus, claimed: str = "") -> str:
    """The quote's own language, else that of the document it was found in (or near, or ``claimed``)."""
    if own:
        return own
    found = next(iter(alignment.segments), None) or alignment.passage or alignment.nearest
    doc = found.doc if found is not None else corpus.by_id.get(claimed)
    return corpus.sources[doc].document.language if doc is not None else ""


def _round(value: float | None) -> float | None:
    return None if value is None else round(float(value), 4)
