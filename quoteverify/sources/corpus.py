"""The normalize stage for both sides: sources and quotes made ready to match.

A ``Source`` is one document normalized and cut into word tokens, each word
also an integer id from the corpus vocabulary so alignment compares ints. Its
page furniture (running headers, page numbers, footnotes: quoteverify.sources.pages)
is left out of its words, so a quote runs across a page break word for word;
offsets still index the original text.
The corpus keeps all word ids in one array with a
postings list (word id -> positions), so the exact fast path looks up a quote's
rarest word and compares ids at the few places it occurs. A ``PreparedQuote`` is a quote normalized, its editorial
markup (ellipses, brackets) parsed, and its words split into fragments.
"""
from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from ..model.lexicon import lexicon_for
from ..model.types import Document, Quote
from ..plumbing.cache import PREPARE_VERSION, Cache, StoredSource, digest
from .labels import quote_label
from .normalize import NormalizedText, fold_confusables, normalize
from .pages import FURNITURE, LINE_NUMBER, NOTE, Pages, layout_of, page_structure
from .tokenize import FILLERS, WORD, QuotePart, WordTokens, quote_parts, word_tokens
from .turns import Turn, Turns, same_speaker, speaker_key

EDITORIAL = -2  # id of the word slot an editorial insertion stands in
_SENTENCE_END = re.compile(r"[.!?]+[\"')\]]*(?=\s)")
_BLANK_LINE = re.compile(r"(?:\r\n|\r(?!\n)|\n)[ \t]*(?:\r\n|\r(?!\n)|\n)")


@dataclass(frozen=True)
class PreparedDocument:
    """One document made ready to match: its text normalized (page furniture left out), its word tokens,
    its pages, and its turns if they are built already (else on first use)."""

    norm: NormalizedText
    tokens: WordTokens
    pages: Pages
    turns: Turns | None = None

    def packed(self, document: Document) -> PackedDocument:
        """What a worker process sends back of ``document`` prepared: no original text (the receiver has it),
        the words as one string (one object to pickle, not one per word), and the turns built."""
        turns = self.turns or turns_of(document.text, self.pages, cues=document.cues, title=document.doc_id)
        small = np.int32 if len(self.norm.original) < 2**31 else np.int64  # half the bytes to send
        return PackedDocument(self.norm.text, self.norm.offsets, self.tokens.starts.astype(small),
                              self.tokens.ends.astype(small), self.tokens.weak, "\n".join(self.tokens.words),
                              self.pages, turns)


@dataclass(frozen=True)
class PackedDocument:
    """A PreparedDocument without its original text, its words joined by line breaks (see ``packed``)."""

    text: str
    offsets: np.ndarray
    starts: np.ndarray
    ends: np.ndarray
    weak: np.ndarray
    words: str
    pages: Pages
    turns: Turns

    def unpacked(self, original: str) -> PreparedDocument:
        return PreparedDocument(NormalizedText(original, self.text, self.offsets),
                                WordTokens(self.words.split("\n") if self.words else [],
                                           self.starts.astype(np.int64), self.ends.astype(np.int64), self.weak),
                                self.pages, self.turns)


@dataclass
class Source:
    document: Document
    norm: NormalizedText
    tokens: WordTokens
    ids: np.ndarray
    offset: int  # position of the first word in the corpus-wide id array
    pages: Pages = field(default_factory=Pages)
    _turns: Turns | None = field(default=None, repr=False)

    def span(self, start: int, end: int) -> tuple[int, int]:
        """Original-text span of word tokens [start, end)."""
        return self.norm.to_original(int(self.tokens.starts[start]), int(self.tokens.ends[end - 1]))

    def word_at(self, offset: int) -> int:
        """The index of the first word token at or after an original-text offset."""
        norm = int(np.searchsorted(self.norm.offsets, np.asarray(offset, dtype=self.norm.offsets.dtype)))
        return int(np.searchsorted(self.tokens.starts, norm))

    def line_of(self, offset: int) -> int:
        """1-based line number of an original-text offset (CRLF, CR and LF all end lines)."""
        text = self.document.text
        # Counting is a memchr-speed scan: cheaper than a table of line starts for a few quotes a document.
        breaks = text.count("\n", 0, offset) + text.count("\r", 0, offset) - text.count("\r\n", 0, offset)
        inside_crlf = 0 < offset < len(text) and text[offset - 1] == "\r" and text[offset] == "\n"
        return 1 + breaks - inside_crlf

    def _paragraph(self, a: int, b: int) -> tuple[int, int]:
        """Original offsets of the paragraph holding [a, b): bounded by blank lines and turns."""
        text = self.document.text
        lo = max((m.end() for m in _BLANK_LINE.finditer(text, max(0, a - 20_000), a)), default=0)
        turn = self.turn_at(a)
        if turn is not None and turn.start >= lo:
            lo = turn.body if turn.body <= a else turn.start
        after = _BLANK_LINE.search(text, b)
        hi = after.start() if after else len(text)
        following = self.turns.next_start(b)
        return lo, min(hi, following) if following is not None else hi

    def paragraph_words(self, start: int, end: int) -> tuple[int, int]:
        """Word range of the paragraph (or the turn) that holds words [start, end)."""
        a, b = self.span(start, end)
        return self._words_between_range(*self._paragraph(a, b))

    def passage_words(self, start: int, end: int, min_words: int) -> tuple[int, int]:
        """Whole sentences around words [start, end), at least ``min_words`` long if the paragraph allows.

        The paragraph is bounded by blank lines and speaker turns; sentences end at . ! or ?.
        """
        a, b = self.span(start, end)
        lo, hi = self._paragraph(a, b)
        cuts = [lo] + [m.end() for m in _SENTENCE_END.finditer(self.document.text, lo, hi)] + [hi]
        i = max(k for k, c in enumerate(cuts) if c <= a)
        j = min(k for k, c in enumerate(cuts) if c >= b)
        words = self._words_between
        while words(cuts[i], cuts[j]) < min_words and (i > 0 or j < len(cuts) - 1):
            if j < len(cuts) - 1:
                j += 1
            else:
                i -= 1
        return self._words_between_range(cuts[i], cuts[j])

    def reach(self, word: int, limit: int, *, back: bool) -> int:
        """From the boundary before ``word``, how many words (up to ``limit``) lie on one side
        without crossing a sentence end or a line break."""
        text, n = self.document.text, 0
        while n < limit:
            k = word - n - 1 if back else word + n  # the next word to take in
            if k < 0 or k >= len(self.tokens):
                break
            left, right = (k, k + 1) if back else (k - 1, k)
            if left >= 0 and right < len(self.tokens):
                gap = text[self.span(left, left + 1)[1]:self.span(right, right + 1)[0]]
                if _SENTENCE_END.search(gap + " ") or any(c in gap for c in ":\r\n"):
                    break
            n += 1
        return n

    def words_in(self, lo: int, hi: int) -> tuple[int, int]:
        """Word range of the words wholly inside original offsets [lo, hi)."""
        return self._words_between_range(lo, hi)

    def _words_between_range(self, lo: int, hi: int) -> tuple[int, int]:
        """Word range of the words wholly inside original offsets [lo, hi)."""
        bounds = np.asarray([lo, hi], dtype=self.norm.offsets.dtype)  # same dtype: no copy of the haystack
        lo_norm, hi_norm = np.searchsorted(self.norm.offsets, bounds)
        return int(np.searchsorted(self.tokens.starts, lo_norm)), int(np.searchsorted(self.tokens.starts, hi_norm))

    def _words_between(self, lo: int, hi: int) -> int:
        first, last = self._words_between_range(lo, hi)
        return last - first

    @property
    def turns(self) -> Turns:
        """The document's transcript turns (speaker labels, or a subtitle file's cues), built on first use."""
        if self._turns is None:
            self._turns = turns_of(self.document.text, self.pages, cues=self.document.cues,
                                   title=self.document.doc_id)
        return self._turns

    def turn_at(self, offset: int) -> Turn | None:
        """The transcript turn an original-text offset falls in, if the text has speaker labels."""
        return self.turns.at(offset)


def turns_of(text: str, pages: Pages, *, cues: tuple[Turn, ...], title: str) -> Turns:
    """The transcript turns of a document's ``text`` (or its subtitle ``cues``), its page furniture and line
    numbers left out: a running header is no speaker's label, and a label opens a numbered line."""
    if pages.skips((FURNITURE, NOTE, LINE_NUMBER)):
        text = pages.masked(text, " ", kinds=(FURNITURE, NOTE, LINE_NUMBER))
    return Turns(text, cues=cues, title=title, record=pages.record)


def claimed_by_labels(quotes: Sequence[Quote], documents: Sequence[Document]) -> list[Quote]:
    """The quotes, each that opens with the label of a speaker of the documents ("P1: We get ...") and names no
    speaker otherwise claiming that speaker: its words must be that speaker's. (A quote that opens with words shaped
    like a label that name no speaker, "Upstairs: the neighbours", claims nobody.)"""
    labels = {k: label for k, q in enumerate(quotes)
              if not q.speaker and not q.problem and (label := quote_label(q.text)) is not None}
    if not labels:
        return list(quotes)
    known = {key for document in documents for key in document_turns(document).speaker_keys()}
    return [replace(q, speaker=labels[k].speaker) if k in labels and speaker_key(labels[k].speaker) in known else q
            for k, q in enumerate(quotes)]


def document_turns(document: Document) -> Turns:
    """A document's transcript turns read from scratch, as a prepared document's (``Source.turns``)."""
    return turns_of(document.text, page_structure(document.text, document.layout), cues=document.cues,
                    title=document.doc_id)


def document_layout(document: Document) -> tuple[str, tuple[str, ...]]:
    """A document's layout read from scratch (pages.layout_of), and what of a line-numbered transcript's layout
    was not read (Pages.partly)."""
    pages = page_structure(document.text, document.layout)
    return layout_of(pages), pages.partly


def stable_order(ids: np.ndarray) -> np.ndarray:
    """``np.argsort(ids, kind="stable")`` of non-negative int32 ids, by their low and then their high 16 bits:
    numpy sorts 16-bit keys by radix, twice as fast as it sorts 32-bit ones."""
    order = np.argsort((ids & 0xFFFF).astype(np.uint16), kind="stable")
    high = (ids >> 16).astype(np.uint16)
    if high.any():
        order = order[np.argsort(high[order], kind="stable")]
    return order


@dataclass
class Numbering:
    """The corpus vocabulary as documents are added in order: each distinct word numbered where it first
    occurs, and each document's words as those numbers."""

    vocab: dict[str, int] = field(default_factory=dict)
    ids: list[np.ndarray] = field(default_factory=list)

    def add(self, words: list[str]) -> None:
        vocab = self.vocab
        for word in dict.fromkeys(words):  # each distinct word once, in order
            if word not in vocab:
                vocab[word] = len(vocab)
        self.ids.append(np.fromiter(map(vocab.__getitem__, words), dtype=np.int32, count=len(words)))


class Corpus:
    """All sources, one vocabulary, and lookup by document id.

    With a ``cache``, prepared documents and the vocabulary are read from it
    when their inputs are unchanged, and written to it otherwise.
    """

    def __init__(self, documents: list[Document] | tuple[Document, ...], *, cache: Cache | None = None,
                 prepared: list[PreparedDocument] | None = None, numbering: Numbering | None = None):
        """``prepared``: the documents already normalized and tokenized (by ``prepare_document``);
        ``numbering``: their words numbered already, in order (else numbered here, or read from the cache)."""
        cache = cache or Cache(None)
        keys = [_text_key(d) for d in documents]
        self.key = digest("corpus", PREPARE_VERSION, *keys)
        if prepared is None:
            prepared = [_prepare(d, cache, key) for d, key in zip(documents, keys)]
        total = sum(len(p.tokens) for p in prepared)
        stored = cache.load_vocab(self.key)
        if stored is not None and len(stored["all_ids"]) == total:
            words = stored["words"].tobytes().decode("utf-8", "surrogatepass")
            self.vocab = {w: i for i, w in enumerate(words.split("\n"))} if words else {}
            self.all_ids = stored["all_ids"].astype(np.int32)
            self._order = stored["order"].astype(np.int64)
        else:
            if numbering is None or len(numbering.ids) != len(prepared):
                numbering = Numbering()
                for ready in prepared:
                    numbering.add(ready.tokens.words)
            vocab = self.vocab = numbering.vocab
            self.all_ids = np.concatenate(numbering.ids) if numbering.ids else np.zeros(0, np.int32)
            self._order = stable_order(self.all_ids)
            cache.save_vocab(self.key, words=list(vocab), all_ids=self.all_ids, order=self._order)
        self._finish(documents, prepared)

    @classmethod
    def assembled(cls, sources: list[Source], vocab: dict[str, int]) -> Corpus:
        """A corpus of documents prepared and numbered already (``sources``), their word ids all from
        ``vocab``, which may hold more words than they do: ids are only ever compared, and a word of no
        document here occurs nowhere here."""
        corpus = cls.__new__(cls)
        corpus.key = digest("corpus", PREPARE_VERSION, *(_text_key(s.document) for s in sources))
        corpus.vocab = vocab
        corpus.all_ids = np.concatenate([s.ids for s in sources]) if sources else np.zeros(0, np.int32)
        corpus._order = stable_order(corpus.all_ids)
        corpus._finish([s.document for s in sources], [PreparedDocument(s.norm, s.tokens, s.pages) for s in sources],
                       [s.turns for s in sources])
        return corpus

    def _finish(self, documents: list[Document] | tuple[Document, ...],
                prepared: list[PreparedDocument], turns: list[Turns | None] | None = None) -> None:
        self.sources: list[Source] = []
        offset = 0
        for k, (document, ready) in enumerate(zip(documents, prepared)):
            n = len(ready.tokens)
            self.sources.append(Source(document, ready.norm, ready.tokens, self.all_ids[offset:offset + n], offset,
                                       ready.pages, turns[k] if turns else ready.turns))
            offset += n
        self.by_id: dict[str, int] = {s.document.doc_id: i for i, s in enumerate(self.sources)}
        self.doc_starts = np.asarray([s.offset for s in self.sources], dtype=np.int64)
        # Postings in CSR form: positions of word id w are _order[_bounds[w]:_bounds[w + 1]].
        self._bounds = np.concatenate(([0], np.cumsum(np.bincount(self.all_ids, minlength=len(self.vocab)))))
        # By id; and 0 for the two past the end, read for -1 (a word no source has) and -2 (EDITORIAL).
        self._frequency = np.append(np.diff(self._bounds), [0, 0])

    def positions(self, word_id: int) -> np.ndarray:
        """Corpus-wide positions of a word id, ascending."""
        if not 0 <= word_id < len(self.vocab):
            return self._order[:0]
        return self._order[self._bounds[word_id]:self._bounds[word_id + 1]]

    def frequencies(self, word_ids: np.ndarray) -> np.ndarray:
        """How many times each of ``word_ids`` (ids of the vocabulary, -1 for a word no source has, as
        ``ids_of`` gives them, or EDITORIAL) occurs in the corpus: ``len(positions(w))`` of each, at once."""
        return self._frequency[word_ids]

    def locate(self, position: int) -> tuple[int, int]:
        """(document index, word index in it) of a corpus-wide position."""
        doc = int(np.searchsorted(self.doc_starts, position, side="right")) - 1
        return doc, position - int(self.doc_starts[doc])

    def ids_of(self, words: list[str]) -> np.ndarray:
        """Vocabulary ids of quote words; a word no source has gets -1 (equal to nothing)."""
        return np.fromiter((self.vocab.get(w, -1) for w in words), dtype=np.int32, count=len(words))

    def __len__(self) -> int:
        return len(self.sources)


@dataclass(frozen=True)
class PreparedQuote:
    """A quote ready to align.

    ``words`` are the quote's word tokens in order, an editorial insertion
    counting as one slot (id EDITORIAL); ``fragment`` numbers the
    ellipsis-separated fragment of each slot; starts/ends index ``norm.text``.
    """

    text: str            # the quote with word-completing brackets resolved ("[T]he" -> "The")
    norm: NormalizedText
    parts: tuple[QuotePart, ...]
    words: tuple[str, ...]
    ids: np.ndarray
    weak: np.ndarray
    fragment: np.ndarray
    starts: np.ndarray
    ends: np.ndarray
    completions: tuple[str, ...]  # "[T]he"-style brackets resolved before matching
    extents: tuple[tuple[int, int], ...]  # normalized text span of each fragment, between ellipses
    # Per word slot: the id of the word with a clitic ("joe's" for "joe") where the word ends a fragment, so
    # that "Grandpa Joe" is found at "Grandpa Joe's stories"; -1 elsewhere (see ``clitic_ids``).
    clitic_ids: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))

    @property
    def fragments(self) -> int:
        return int(self.fragment.max()) + 1 if len(self.fragment) else 0

    def fragment_range(self, f: int) -> tuple[int, int]:
        idx = np.flatnonzero(self.fragment == f)
        return (int(idx[0]), int(idx[-1]) + 1) if len(idx) else (0, 0)

    def editorial_words(self, slot: int) -> int:
        """How many words the editorial insertion in a word slot holds: "[Dr. Okafor]" two."""
        return max(1, len(WORD.findall(self.norm.text, int(self.starts[slot]), int(self.ends[slot]))))

    @property
    def content_words(self) -> int:
        return int(np.count_nonzero(self.ids != EDITORIAL))


def _text_key(document: Document) -> str:
    """What preparing a document depends on: its text as extracted (not the file's bytes,
    which a .vtt and a .txt copy share while their texts differ), a PDF's layout, and its language's filler
    phrases."""
    h = hashlib.sha256(document.text.encode("utf-8", "surrogatepass"))
    if document.layout:
        h.update(repr(document.layout).encode("utf-8"))
    fillers = sorted(" ".join(p) for p in _filler_phrases(document.language))
    h.update("\x1f".join([document.language, *fillers]).encode("utf-8"))
    return h.hexdigest()


def _filler_phrases(language: str) -> frozenset[tuple[str, ...]]:
    lexicon = lexicon_for(language)
    return lexicon.phrases["filler"] if lexicon is not None else frozenset()


def prepare_document(document: Document, cache: Cache) -> PreparedDocument:
    """Find the pages of one document, normalize it without their furniture and tokenize it, or read
    all three from the cache."""
    return _prepare(document, cache, _text_key(document))


def _prepare(document: Document, cache: Cache, key: str) -> PreparedDocument:
    stored = cache.load_source(key)
    if stored is not None and len(stored.offsets) == len(stored.text):
        try:
            pages = Pages.from_arrays(stored.pages)
        except (KeyError, ValueError, UnicodeDecodeError):
            pass  # an entry without its pages: prepared again
        else:
            norm = NormalizedText(document.text, stored.text, stored.offsets)
            return PreparedDocument(norm, WordTokens(stored.words, stored.starts, stored.ends, stored.weak),
                                    pages)
    pages = page_structure(document.text, document.layout)
    norm = normalize_pages(document.text, pages)
    tokens = word_tokens(norm.text, _filler_phrases(document.language))
    cache.save_source(key, StoredSource(norm.text, norm.offsets, tokens.starts, tokens.ends, tokens.weak,
                                       tokens.words, pages.arrays()))
    return PreparedDocument(norm, tokens, pages)


def normalize_pages(text: str, pages: Pages) -> NormalizedText:
    """``text`` normalized with what its pages skip left out (furniture filled with a zero-width space,
    which normalization drops), its offsets still into ``text``."""
    if not len(pages.spans):
        return normalize(text)
    norm = normalize(pages.masked(text, "\u200b"))
    return NormalizedText(text, norm.text, norm.offsets)


_COMPLETION = re.compile(r"\[(\w{1,2})\](?=\w)|(?<=\w)\[(\w{1,2})\]")


def prepare_quote(text: str, corpus: Corpus, *, speaker: str = "") -> PreparedQuote:
    """A quote made ready to align; a speaker's label it opens with that names ``speaker``, the speaker it claims
    ("P1: We get ..."), says who speaks and is not looked for."""
    completions = tuple(m.group() for m in _COMPLETION.finditer(text))
    literal = _COMPLETION.sub(lambda m: m.group(1) or m.group(2), text)
    norm = fold_confusables(normalize(literal))
    label = quote_label(literal) if speaker else None
    label = label if label is not None and same_speaker(label.speaker, speaker) else None
    # A speaker's label it opens with says who speaks: no word of it is looked for (see judge.diff).
    label_end = int(np.searchsorted(norm.offsets, label.end)) if label is not None else 0
    parts = tuple(quote_parts(norm.text, label=label_end))
    words: list[str] = []
    frags: list[int] = []
    starts: list[int] = []
    ends: list[int] = []
    fragment = 0
    extents: list[tuple[int, int]] = []
    lo = 0
    for part in parts:
        if part.kind == "ellipsis":
            if words and frags[-1] == fragment:
                extents.append((lo, part.start))
                fragment += 1
            lo = part.end
            continue
        if part.kind == "editorial":
            words.append("")
            frags.append(fragment)
            starts.append(part.start)
            ends.append(part.end)
            continue
        if part.kind in ("sic", "label"):
            continue
        for m in WORD.finditer(norm.text, part.start, part.end):
            words.append(m.group())
            frags.append(fragment)
            starts.append(m.start())
            ends.append(m.end())
    if words and (not extents or len(extents) <= frags[-1]):
        extents.append((lo, len(norm.text)))
    ids = corpus.ids_of(words)
    ids[[i for i, w in enumerate(words) if w == ""]] = EDITORIAL
    weak = np.array([w in FILLERS for w in words], dtype=bool)
    return PreparedQuote(literal, norm, parts, tuple(words), ids, weak, np.asarray(frags, dtype=np.int32),
                         np.asarray(starts, dtype=np.int64), np.asarray(ends, dtype=np.int64), completions,
                         tuple(extents), clitic_ids(words, frags, corpus))


def prepare_row(quote: Quote, corpus: Corpus) -> PreparedQuote:
    """A quote of the table made ready to align (prepare_quote, with the speaker it claims)."""
    return prepare_quote(quote.text, corpus, speaker=quote.speaker)


CLITIC = "'s"  # what a source may write after the word a quote ends on: "Joe's" (normalized: ’ is ')


def clitic_ids(words: list[str], fragments: list[int], corpus: Corpus) -> np.ndarray:
    """For each word slot, the corpus id of the word with ``CLITIC`` where the word ends its fragment (the
    quote, or the text before an ellipsis) and the source has that form; -1 elsewhere. A number is left
    out: "early 30" is no quotation of "early 30's". Whether the dropped clitic is benign is for the diff
    (quoteverify.judge.rules.clitic) to say; here it only lets the quote be found there."""
    out = np.full(len(words), -1, dtype=np.int32)
    for k, word in enumerate(words):
        last = k + 1 == len(words) or fragments[k + 1] != fragments[k]
        if last and len(word) > 1 and not any(ch.isdigit() for ch in word) and not word.endswith(CLITIC):
            out[k] = corpus.vocab.get(word + CLITIC, -1)
    return out
