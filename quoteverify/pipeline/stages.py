"""verify(): the stages in order, nothing else."""
from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import accumulate
from pathlib import Path
from typing import TYPE_CHECKING

from ..judge.classify import coverage, needs_cosine
from ..judge.diff import compare
from ..judge.embed import CachedEmbedder, Embedder, SentenceTransformerEmbedder, cosines
from ..judge.rules import Contract
from ..model.config import Config, ConfigGiven, VerdictConfig, as_config
from ..model.lexicon import lexicon_for, load_word_list
from ..model.types import Alignment, Comparison, Document, Progress, Quote, QuoteResult, Run
from ..plumbing.archive import ArchiveLimits
from ..plumbing.cache import Cache
from ..plumbing.resultcache import ResultCache, corpus_key, run_key
from ..search.align import Aligner
from ..search.index import Bm25Index, Bm25Settings, import_backend
from ..search.window import make_windows
from ..sources.corpus import (
    Corpus,
    Numbering,
    PackedDocument,
    PreparedDocument,
    PreparedQuote,
    claimed_by_labels,
    prepare_document,
    prepare_row,
)
from ..sources.documents import DocumentsGiven, LoadedDocuments, read_documents
from ..sources.language import cosine_applies, detect_quote_languages, with_languages
from ..sources.lined import partly_read
from ..sources.numbers import number_words
from ..sources.pages import layout_of
from ..sources.quotes import check_claims, read_quotes, speaker_claims
from ..sources.turns import Turns, label_warnings
from .parallel import Beside, ordered_chunks, ordered_map
from .results import build_result, judged_language, language_found

if TYPE_CHECKING:
    from ..sources.quotes import QuotesGiven


@dataclass(frozen=True)
class Inputs:
    """The documents and quotes of a run as read, before they are checked: each quote's claim checked
    against the documents' ids, and the warnings reading gave."""

    documents: LoadedDocuments
    quotes: list[Quote]
    warnings: list[str]
    quotes_sha256: str  # of the quote table file; empty for quotes given in Python
    speaker_column: str | None = None  # the quote table's column read as the claimed speakers, if any
    table: str = ""  # the quote table's file, as given


def read_inputs(documents: DocumentsGiven, quotes: QuotesGiven, config: Config) -> Inputs:
    """Read the documents and the quotes however they were given (run() and a cluster's run both start here)."""
    limits = ArchiveLimits.of(config)
    loaded = read_documents(documents, limits)
    table = read_quotes(quotes, vars(config.columns), limits)
    claims = check_claims(list(table.quotes), (d.doc_id for d in loaded.documents),
                          column=dict(table.used).get("document"), source=table.path)
    quote_list = claimed_by_labels(claims.quotes, loaded.documents)
    return Inputs(loaded, quote_list, [*loaded.warnings, *table.warnings, *claims.warnings], table.sha256,
                  dict(table.used).get("speaker"), table.path)


def embedder_for(config: Config, embedder: Embedder | None, cache: Cache) -> CachedEmbedder | None:
    """The embedder a run uses: ``embedder`` (or the configured model, loaded when first asked), its vectors
    kept in ``cache``; None when the config turns embeddings off."""
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


# Quotes left to check in a re-run (once the kept results are read) from which the model begins to load beside
# them: fewer are checked first, and load it only if one needs a cosine (most edits need none).
WARM_QUOTES = 50
EXACT_PARALLEL = 5_000  # fewer quotes than this are looked up word for word in this process: workers cost more
PARALLEL_CHARS = 2_000_000  # documents shorter than this in all are prepared in this process: workers cost more


@dataclass(frozen=True)
class PreparedApart:
    """Documents prepared in worker processes: each as ``prepare_document`` makes it, and their words numbered
    in this process as they came back."""

    documents: list[PreparedDocument]
    numbering: Numbering


def _repays_processes(documents: Iterable[Document]) -> bool:
    """Whether the documents are long enough in all (``PARALLEL_CHARS``) to repay starting processes for them."""
    return sum(len(d.text) for d in documents) >= PARALLEL_CHARS


def prepare_documents(documents: Sequence[Document], cache: Cache, workers: int,
                      beside: Callable[[], None] | None = None) -> PreparedApart | None:
    """Each document normalized, tokenized and its turns read, in ``workers`` processes, when the documents are
    long enough to repay starting them; else None (the corpus prepares them in this process). ``beside``: work
    for this process meanwhile (ordered_map). Each document is unpacked and its words numbered here as it
    comes back, while the workers prepare the next."""
    if workers <= 1 or len(documents) < 2 or not _repays_processes(documents):
        return None

    def task(k: int) -> tuple[int, PackedDocument, list[str], bool]:
        packed = prepare_document(documents[k], cache).packed(documents[k])
        packed.turns.unread(documents[k].text)  # for the run's summary (label_warnings), found here
        return k, packed, cache.warnings, cache.writable

    ready: list[PreparedDocument] = []
    numbering = Numbering()
    for part in ordered_chunks(task, range(len(documents)), workers=workers, min_items=2, chunk=8, beside=beside):
        for k, packed, warnings, writable in part:
            cache.heard(warnings, writable=writable)
            ready.append(packed.unpacked(documents[k].text))
            numbering.add(ready[-1].tokens.words)
    return PreparedApart(ready, numbering)


def prepare(documents: tuple[Document, ...], config: Config, *, cache: Cache,
            lap: Callable[[str], None] | None = None,
            normalized: list[PreparedDocument] | None = None, beside: Callable[[], None] | None = None) -> Prepared:
    """Normalize, window and (lazily) index the documents; ``normalized``: each document normalized and
    tokenized already (``corpus.prepare_document``); ``beside``: as for prepare_documents."""
    numbering = None
    if normalized is None:
        apart = prepare_documents(documents, cache, config.align.workers, beside)
        if apart is not None:
            normalized, numbering = apart.documents, apart.numbering
    corpus = Corpus(documents, cache=cache, prepared=normalized, numbering=numbering)
    if lap:
        lap("normalize")
    windows = make_windows(corpus, size=config.window.size, overlap=config.window.overlap)
    index = Bm25Index(corpus, windows, bm25=Bm25Settings.of(config.index),
                      cache=cache, key=f"{config.window.size}/{config.window.overlap}")
    aligner = Aligner(corpus, index, align=config.align, top_k=config.index.top_k)
    if lap:
        lap("window")
    return Prepared(corpus, index, aligner, len(windows))


def load_ahead(languages: Iterable[str], config: Config) -> None:
    """Load now what checking quotes in these languages loads on first use: each one's lexicon, word list
    and number words, and the BM25 backend. Done while workers prepare the documents, so that the workers
    that align the quotes, forked later, find them loaded instead of each loading them again."""
    import_backend(config.index.backend)
    for language in sorted(set(languages) - {""}):
        lexicon = lexicon_for(language)
        if lexicon is not None:
            load_word_list(lexicon)
        number_words(language)


@lru_cache(maxsize=64)
def _contract(language: str, verdict: VerdictConfig) -> Contract:
    """The verdict contract of a language under some settings, made once."""
    return Contract.of(language, verdict)


@dataclass(frozen=True)
class QuoteLanguages:
    """Each quote's language as given (its table's column, or detected before the check), and, where a
    worker holds only part of the corpus, as told against the whole corpus (None: detected here)."""

    given: Sequence[str]
    told: Sequence[str] | None = None


@dataclass(frozen=True)
class Watch:
    """Who hears how a check goes: ``progress`` (quotes done, of how many), ``lap`` (a stage has ended), ``warm``
    (begin loading the model: once the kept results are read, when WARM_QUOTES quotes at least are left to
    check; a re-run checking fewer loads it only if one of them needs a cosine, when it is asked)."""

    progress: Progress | None = None
    lap: Callable[[str], None] | None = None
    warm: Callable[[], None] | None = None


def same_checks(indexes: Iterable[int], check_of: Callable[[int], Hashable]) -> list[tuple[int, ...]]:
    """``indexes`` grouped by what checking them reads (``check_of``), in order of first occurrence: a quote
    given again (the same text, claim, speaker and language, as an extraction often repeats one) is checked
    once for all its rows."""
    groups: dict[Hashable, list[int]] = {}
    for k in indexes:
        groups.setdefault(check_of(k), []).append(k)
    return [tuple(group) for group in groups.values()]


@dataclass(frozen=True)
class Settled:
    """What checking one quote found: where and how it aligns, its differences, and its result if no cosine
    can inform it (else None: it is built once the cosines are in)."""

    alignment: Alignment
    comparison: Comparison
    result: QuoteResult | None


class _Check:
    """One call of check_quotes: the quotes, the corpus they are checked against, and each quote's language
    as far as it is known (given, then told for the quotes not found word for word, then judged by where
    each was found)."""

    def __init__(self, prepared: Prepared, quote_list: Sequence[Quote], config: Config, languages: QuoteLanguages):
        self.prepared, self.quotes, self.config = prepared, quote_list, config
        self.given = list(languages.given)
        self.told = languages.told
        self.languages = list(languages.given)  # told below for the quotes not found word for word
        self.prepared_quotes: dict[int, PreparedQuote] = {}

    def language_of(self, k: int, alignment: Alignment) -> str:
        return judged_language(self.languages[k], self.given[k], alignment, self.prepared.corpus,
                               self.quotes[k].claimed_document, self.config.language.source_share)

    def contract(self, k: int, alignment: Alignment) -> Contract:
        return _contract(self.language_of(k, alignment), self.config.verdict)

    def exact_pass(self) -> tuple[dict[int, Alignment], list[int]]:
        """Prepare each checkable quote and look it up word for word: (the exact alignments found, the quotes
        still to align)."""
        corpus, aligner = self.prepared.corpus, self.prepared.aligner

        def look_up(k: int) -> Alignment | None:
            quote = self.quotes[k]
            return aligner.align_exact(self.prepared_quote(k), corpus.by_id.get(quote.claimed_document),
                                       quote.speaker)

        exacts: dict[int, Alignment] = {}
        rest: list[int] = []
        groups = same_checks((k for k, quote in enumerate(self.quotes) if not quote.problem),
                             lambda k: (self.quotes[k].text, self.quotes[k].claimed_document, self.quotes[k].speaker))
        for group, exact in zip(groups, ordered_map(lambda group: look_up(group[0]), groups,
                                                    workers=self.config.align.workers, min_items=EXACT_PARALLEL)):
            for k in group:
                if exact is None:
                    rest.append(k)
                else:
                    exacts[k] = exact
        return dict(sorted(exacts.items())), sorted(rest)

    def prepared_quote(self, k: int) -> PreparedQuote:
        """Quote ``k`` made ready to align, once per process: a worker that looked it up sends back only its
        alignment (a prepared quote costs more to send than to make again)."""
        if k not in self.prepared_quotes:
            self.prepared_quotes[k] = prepare_row(self.quotes[k], self.prepared.corpus)
        return self.prepared_quotes[k]

    def compare_exact(self, k: int, exact: Alignment) -> tuple[Alignment, Comparison]:
        return exact, compare(self.prepared_quote(k), exact, self.prepared.corpus,
                              splice_gap_words=self.config.align.splice_gap_words, contract=self.contract(k, exact))

    def align_and_compare(self, k: int) -> tuple[Alignment, Comparison]:
        """Locate a quote the exact fast path did not, and name its differences."""
        pq, quote, config = self.prepared_quote(k), self.quotes[k], self.config
        corpus = self.prepared.corpus
        alignment = self.prepared.aligner.align(pq, corpus.by_id.get(quote.claimed_document), quote.speaker)
        target = alignment
        if alignment.passage is not None and coverage(alignment) < config.verdict.min_coverage:
            # Too little aligns for a quotation: compare with the passage it may paraphrase, its one place.
            target = Alignment("passage", (alignment.passage,), alignment.quote_words)
            alignment = replace(alignment, occurrences=1, speaker_occurrences=None, others=())
        return alignment, compare(pq, target, corpus, splice_gap_words=config.align.splice_gap_words,
                                  contract=self.contract(k, alignment))

    def settle(self, group: tuple[int, ...], exact: Alignment | None) -> list[Settled]:
        """Compare the quotes of ``group`` (the same check: ``same_checks``) found word for word (``exact``), or
        align and compare them, once; and build each one's result here (in a worker) when no cosine can
        inform it."""
        k = group[0]
        alignment, comparison = self.compare_exact(k, exact) if exact is not None else self.align_and_compare(k)
        if needs_cosine(alignment, comparison, self.config.verdict):
            return [Settled(alignment, comparison, None)] * len(group)
        return [Settled(alignment, comparison, build_result(self.quotes[j], alignment, comparison, None,
                                                            self.prepared.corpus, self.config,
                                                            self.language_of(j, alignment))) for j in group]

    def same_check(self, k: int) -> tuple[str, str, str, str, str]:
        """What checking quote ``k`` reads of it (its result also reads its id, row and other columns)."""
        quote = self.quotes[k]
        return quote.text, quote.claimed_document, quote.speaker, self.given[k], self.languages[k]

    def tell_languages(self, rest: Sequence[int]) -> None:
        """Each quote's language as given, or as told (against the whole corpus), or detected here. Only the
        quotes not found word for word (``rest``) need it: one that is is in its document's language."""
        if self.told is not None:
            self.languages = list(self.told)
            return
        detect_quote_languages([s.document for s in self.prepared.corpus.sources], self.quotes, self.languages,
                               rest, self.config.language)

    def cosine_scores(self, checked: Mapping[int, tuple[Alignment, Comparison]], embed: Embedder | None
                      ) -> tuple[dict[int, float], set[int]]:
        """The cosine of each quote whose verdict or confidence it can inform, and the quotes left without one
        because the model was not trained for their language."""
        config, corpus = self.config, self.prepared.corpus
        needs = [k for k in sorted(checked) if needs_cosine(*checked[k], config.verdict)]
        # A model not trained for a quote's language scores word pieces, not meaning: no cosine for such a quote.
        unjudged = {k for k in needs if embed is not None
                    and not cosine_applies(language_found(self.languages[k], checked[k][0], corpus,
                                                          self.quotes[k].claimed_document), config)}
        needs = [k for k in needs if k not in unjudged]
        if embed is None or not needs:
            return {}, unjudged
        values = cosines(embed, [(self.quotes[k].text, checked[k][1].pieces_text) for k in needs])
        return dict(zip(needs, values)), unjudged


def _say_unjudged(results: list[QuoteResult], unjudged: set[int]) -> None:
    for k in sorted(unjudged):
        language = f"'{results[k].language}'" if results[k].language else "an unknown language"
        results[k].reasons.append(f"meaning not compared: the embedding model is not trained for {language} "
                                  "(embed.languages)")


def _index_beside(prepared: Prepared, quote_list: Sequence[Quote], config: Config) -> Beside | None:
    """The BM25 index built in a forked process while this one looks the quotes up word for word (a core waits
    otherwise), for the quotes that pass leaves; when there is a core for it (the quotes are looked up in this
    process, not in workers), and documents long enough to repay starting a process. None: built here."""
    index = prepared.index
    if (config.align.workers <= 1 or index.built or index.backend != "bm25s" or len(quote_list) >= EXACT_PARALLEL
            or not _repays_processes(s.document for s in prepared.corpus.sources) or not Beside.possible()):
        return None
    return Beside(index.built_apart)


def check_quotes(prepared: Prepared, quote_list: Sequence[Quote], config: Config, embed: Embedder | None, *,
                 languages: QuoteLanguages, cached: ResultCache | None = None, watch: Watch = Watch()
                 ) -> list[QuoteResult]:
    """One result per quote, in order: the stages after indexing.

    Both the in-process run and a cluster worker (quoteverify.pipeline.cluster) call this. ``cached``:
    results kept between runs (resultcache)."""
    lap, progress = watch.lap or (lambda stage: None), watch.progress
    check = _Check(prepared, quote_list, config, languages)
    # The exact fast path first, here; what it does not settle is aligned in parallel.
    checked: dict[int, tuple[Alignment, Comparison]] = {
        k: (Alignment("none", (), 0), Comparison((), None, "")) for k, q in enumerate(quote_list) if q.problem}
    index_beside = _index_beside(prepared, quote_list, config)
    try:
        exacts, rest = check.exact_pass()
        if cached is not None and cached.root is None:
            cached = None  # a cache without a folder keeps nothing: no key to make
        keys = {k: cached.key(quote_list[k], config, embed, prepared.corpus, exact=exacts.get(k),
                              language=check.languages[k]) for k in range(len(quote_list))} if cached else {}
        reused = cached.load(keys) if cached else {}
        rest = [k for k in rest if k not in reused]
        if watch.warm is not None and len(rest) >= WARM_QUOTES:
            watch.warm()
        check.tell_languages(rest)
        if progress:
            progress(len(checked) + len(reused), len(quote_list))
        if rest:  # the index, before the workers start, which share it
            waited = time.perf_counter()
            built = index_beside.result() if index_beside else None
            if built is not None:
                prepared.index.take(built, seconds=time.perf_counter() - waited)
            prepared.index.build()
    finally:
        if index_beside:
            index_beside.stop()
    # The quotes found word for word are compared, the others aligned and compared, in the same workers.
    groups = same_checks([*(k for k in exacts if k not in reused), *rest], check.same_check)
    done = [len(checked) + len(reused), *accumulate(len(group) for group in groups)]  # quotes, by groups done
    report = (lambda n: progress(done[0] + done[n], len(quote_list))) if progress else None
    settled = {k: found for group, founds in zip(groups, ordered_map(
        lambda group: check.settle(group, exacts.get(group[0])), groups, workers=config.align.workers,
        on_done=report)) for k, found in zip(group, founds)}
    checked.update((k, (found.alignment, found.comparison)) for k, found in settled.items())
    prepared.index_seconds = prepared.index.build_seconds
    check.languages = [check.language_of(k, checked[k][0]) if k in checked else check.languages[k]
                       for k in range(len(quote_list))]
    lap("align")
    scores, unjudged = check.cosine_scores(checked, embed)
    lap("embed")
    built = {**reused, **{k: found.result for k, found in settled.items() if found.result is not None}}
    results = [built[k] if k in built
               else build_result(quote, *checked[k], scores.get(k), prepared.corpus, config, check.languages[k])
               for k, quote in enumerate(quote_list)]
    _say_unjudged(results, unjudged)
    if cached is not None:
        cached.save({keys[k]: results[k] for k in keys if k not in reused}, run=[keys[k] for k in sorted(keys)])
    lap("classify")
    return results


def run(documents: DocumentsGiven, quotes: QuotesGiven, config: ConfigGiven = None, *,
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

    inputs = read_inputs(documents, quotes, config)
    warnings = list(inputs.warnings)
    cache = Cache(cache_dir)
    embed = embedder_for(config, embedder, cache)
    kept = ResultCache(cache_dir, warnings=warnings, run=run_key(inputs.quotes, inputs.documents.documents, config,
                                                                 embed) if cache_dir is not None else "",
                       corpus=corpus_key(inputs.documents.documents, config, embed) if cache_dir is not None else "")
    lap("load")
    documents_with_languages, quote_list, own_languages = with_languages(inputs.documents.documents, inputs.quotes,
                                                                          config.language, cache=cache)
    loaded = replace(inputs.documents, documents=documents_with_languages)
    lap("language")
    replayed = kept.replay()
    if replayed is not None:  # a run of the same inputs kept every result: nothing to check again
        return Run(replayed.results, loaded.documents, config, embed.name if embed else None, timings,
                   [*warnings, *cache.warnings, *replayed.warnings], replayed.windows, inputs.quotes_sha256,
                   tuple(quote_list), replayed.layouts)
    languages = {d.language for d in loaded.documents} | set(own_languages)  # the documents' and the quotes' own
    warm = None
    if embed is not None and _model_may_judge(languages, config):
        if kept.checked_before():  # a re-run: the model, if its quotes need it, once their kept results are read
            warm = embed.warm
        else:
            embed.warm()  # beside normalizing, indexing and aligning
    prepared = prepare(loaded.documents, config, cache=cache, lap=lap, beside=lambda: load_ahead(languages, config))
    speakers = speaker_claims(quote_list, lambda: [s.turns for s in prepared.corpus.sources],
                              column=inputs.speaker_column, source=inputs.table)
    results = check_quotes(prepared, quote_list, config, embed, languages=QuoteLanguages(own_languages),
                           cached=kept, watch=Watch(progress, lap, warm))
    timings["index"] = prepared.index_seconds
    timings["align"] -= timings["index"]
    labels, layouts = _read_as(loaded.documents, results, prepared.corpus)
    kept.keep_run(windows=prepared.windows, warnings=[*speakers, *labels], layouts=layouts)
    return Run(results, loaded.documents, config, embed.name if embed else None, timings,
               [*warnings, *cache.warnings, *speakers, *labels], prepared.windows, inputs.quotes_sha256,
               tuple(quote_list), layouts)


def _read_as(documents: Sequence[Document], results: list[QuoteResult], corpus: Corpus
             ) -> tuple[list[str], dict[str, str]]:
    """How the documents were read: the warnings of speaker labels not read and of layouts read in part, and each
    document's layout."""
    def turns(document: Document) -> Turns:
        return corpus.sources[corpus.by_id[document.doc_id]].turns

    labels = label_warnings(documents, results, lambda d: turns(d).starts(), lambda d: turns(d).unread(d.text))
    labels += partly_read({s.document.doc_id: s.pages.partly for s in corpus.sources})
    return labels, {s.document.doc_id: layout_of(s.pages) for s in corpus.sources}


def _model_may_judge(languages: Iterable[str], config: Config) -> bool:
    """Whether the model is likely to judge a quote: a document or a quote is in a language it was trained
    for (``languages``: the documents' and the quotes' own). Only whether it begins to load in the background
    depends on this: a quote told to be in such a language among documents in others loads it when its cosine
    is needed."""
    return any(cosine_applies(language, config) for language in languages)


def verify(documents: DocumentsGiven, quotes: QuotesGiven, config: ConfigGiven = None, *,
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
