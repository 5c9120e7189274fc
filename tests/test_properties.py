"""Properties (hypothesis): fast code against slow, obviously-correct references, and round trips."""
from __future__ import annotations

import itertools
import re
from types import SimpleNamespace

import numpy as np
from conftest import NO_EMBED, TINY_CORPUS
from hypothesis import HealthCheck, assume, given, note, settings
from hypothesis import strategies as st
from rapidfuzz import fuzz

import quoteverify
from quoteverify.model.config import load_config
from quoteverify.model.lexicon import lexicon_for
from quoteverify.search.align import Sides, _dp, _trace
from quoteverify.sources.corpus import EDITORIAL
from quoteverify.sources.normalize import normalize
from quoteverify.sources.tokenize import word_tokens
from quoteverify.sources.turns import Turns

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# ------------------------------------------------------------------------------------------------
# (1) The alignment DP equals a brute-force reference; the traceback never fails.


def ref_dp(q, q_weak, d, d_weak, p, *, local: bool) -> list[list[int]]:
    """The recurrence as written in a textbook: one cell at a time, three moves (and 0 when local)."""
    n, m = len(q), len(d)
    H = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        editorial = q[i - 1] == EDITORIAL
        for j in range(m + 1):
            best = H[i - 1][j] - (0 if editorial else p.weak_gap if q_weak[i - 1] else p.gap)
            if j > 0:
                s = -1 if editorial else p.match if d[j - 1] == q[i - 1] else -p.mismatch
                left = 1 if editorial else p.weak_gap if d_weak[j - 1] else p.gap
                best = max(best, H[i - 1][j - 1] + s, H[i][j - 1] - left)
            H[i][j] = max(best, 0) if local else best
    return H


def _moves(p, q, q_weak, d, d_weak):
    """Cost of each move into (i, j), with i, j counting words consumed."""
    def up(i):
        return -(0 if q[i - 1] == EDITORIAL else p.weak_gap if q_weak[i - 1] else p.gap)

    def left(i, j):
        if i == 0:
            return -p.gap  # before the first quote word: only ever worse than starting later
        return -(1 if q[i - 1] == EDITORIAL else p.weak_gap if d_weak[j - 1] else p.gap)

    def diag(i, j):
        if q[i - 1] == EDITORIAL:
            return -1
        return p.match if d[j - 1] == q[i - 1] else -p.mismatch
    return up, left, diag


def brute_force_best(q, q_weak, d, d_weak, p, *, local: bool) -> int:
    """Enumerate every path explicitly: local, any start and end; semi-global, row 0 to row n."""
    n, m = len(q), len(d)
    up, left, diag = _moves(p, q, q_weak, d, d_weak)

    def walks(i, j, score):
        if local or i == n:
            yield score
        if i < n:
            yield from walks(i + 1, j, score + up(i + 1))
        if j < m:
            yield from walks(i, j + 1, score + left(i, j + 1))
        if i < n and j < m:
            yield from walks(i + 1, j + 1, score + diag(i + 1, j + 1))

    starts = itertools.product(range(n + 1), range(m + 1)) if local else ((0, j) for j in range(m + 1))
    best = max(s for i, j in starts for s in walks(i, j, 0))
    return max(best, 0) if local else best


def global_best(q, q_weak, d, d_weak, p) -> int:
    """Best alignment of all of q with all of d (both ends fixed)."""
    n, m = len(q), len(d)
    up, left, diag = _moves(p, q, q_weak, d, d_weak)
    G = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n + 1):
        for j in range(m + 1):
            if i == j == 0:
                continue
            options = []
            if i > 0:
                options.append(G[i - 1][j] + up(i))
            if j > 0:
                options.append(G[i][j - 1] + left(i, j))
            if i > 0 and j > 0:
                options.append(G[i - 1][j - 1] + diag(i, j))
            G[i][j] = max(options)
    return G[n][m]


params = st.builds(
    lambda match, mismatch, gap, weak: SimpleNamespace(match=match, mismatch=mismatch, gap=gap,
                                                       weak_gap=min(weak, gap)),
    st.integers(1, 12), st.integers(0, 12), st.integers(0, 12), st.integers(0, 12))


@st.composite
def dp_inputs(draw, max_len: int = 7):
    n = draw(st.integers(0, max_len))
    m = draw(st.integers(0, max_len))
    q = draw(st.lists(st.sampled_from([0, 1, 2, -1, EDITORIAL]), min_size=n, max_size=n))
    d = draw(st.lists(st.integers(0, 3), min_size=m, max_size=m))
    q_weak = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    d_weak = draw(st.lists(st.booleans(), min_size=m, max_size=m))
    return q, q_weak, d, d_weak, draw(params)


def arrays(q, q_weak, d, d_weak):
    return (np.asarray(q, dtype=np.int32), np.asarray(q_weak, dtype=bool),
            np.asarray(d, dtype=np.int32), np.asarray(d_weak, dtype=bool))


@SETTINGS
@given(dp_inputs(), st.booleans())
def test_dp_equals_the_reference_recurrence(inputs, local) -> None:
    q, q_weak, d, d_weak, p = inputs
    H = _dp(Sides(*arrays(q, q_weak, d, d_weak)), p, local=local)
    assert H.tolist() == ref_dp(q, q_weak, d, d_weak, p, local=local)


@settings(max_examples=100, deadline=None)
@given(dp_inputs(max_len=4), st.booleans())
def test_dp_optimum_equals_every_path_enumerated(inputs, local) -> None:
    q, q_weak, d, d_weak, p = inputs
    assume(q)
    H = _dp(Sides(*arrays(q, q_weak, d, d_weak)), p, local=local)
    best = int(H.max()) if local else int(H[-1].max())
    assert best == brute_force_best(q, q_weak, d, d_weak, p, local=local)


@SETTINGS
@given(dp_inputs(), st.booleans())
def test_trace_never_fails_and_finds_an_optimal_stretch(inputs, local) -> None:
    q, q_weak, d, d_weak, p = inputs
    assume(q and d)
    a = arrays(q, q_weak, d, d_weak)
    H = _dp(Sides(*a), p, local=local)
    if local:
        i, j = divmod(int(np.argmax(H)), H.shape[1])
    else:
        i, j = len(q), int(np.argmax(H[-1]))
    i0, j0, matched = _trace(H, Sides(*a), p, i, j, local=local)
    assert 0 <= i0 <= i and 0 <= j0 <= j
    assert 0 <= matched <= min(i - i0, j - j0)
    assert matched <= sum(1 for x in q[i0:i] if x in d[j0:j])
    # The stretch it found is aligned optimally end to end: its score is the cell's.
    if not local and j0 == 0 and i0 > 0:
        i0 = 0  # quote words before column 0 align to nothing
    assert global_best(q[i0:i], q_weak[i0:i], d[j0:j], d_weak[j0:j], p) == H[i, j]


# ------------------------------------------------------------------------------------------------
# (2) normalize -> offset map -> original slice -> normalize gives back the same tokens.

MESSY = st.text(
    alphabet=st.one_of(
        st.sampled_from(list("abcXYZ019 ,.;:!?'\"-()[]\n\r\t")),
        st.sampled_from(list("\u2018\u2019\u201c\u201d\u2013\u2014\u2026\u00a0\u2009\u200b\u200d\u00ad\ufeff"
                             "\ufb01\ufb02\u00df\u00e9\u0301\u0308\u0130\uff21\U0001F600\u00e6\u03a9\u0436")),
    ),
    max_size=60)


@settings(max_examples=100, deadline=None)
@given(MESSY, st.data())
def test_offset_map_round_trip(text: str, data) -> None:
    norm = normalize(text)
    tokens = word_tokens(norm.text)
    assume(len(tokens))
    k = data.draw(st.integers(0, len(tokens) - 1))
    l = data.draw(st.integers(k, len(tokens) - 1))
    a, b = norm.to_original(int(tokens.starts[k]), int(tokens.ends[l]))
    assert 0 <= a < b <= len(text)
    assert word_tokens(normalize(text[a:b]).text).words == tokens.words[k:l + 1]


# ------------------------------------------------------------------------------------------------
# Random documents from a word list.

_CANDIDATES = """people money clinic budget nurse volunteer committee ministry paperwork weekend training
system manager patient evening session shift flood water council boat children upstairs neighbour village
market teacher school garden harvest river bridge winter summer morning letter doctor hospital office report
meeting project remote button design colour battery screen kitchen family mother father brother sister friend
house street city country island mountain forest animal horse chicken bread coffee sugar salt paper pencil
window door table chair bottle glass plate spoon knife phone camera picture story music dance song voice
question answer problem reason result change plan idea memory feeling anger fear hope trust power energy
health illness medicine treatment payment salary rent price loan bank account contract lawyer judge court
police soldier army peace election vote party leader union strike factory machine engine truck train plane
ticket airport station journey holiday beach ocean storm cloud thunder desert valley canyon meadow orchard
arrived carried helped lost closed approved gave came knew asked said would could should really honestly
always often maybe perhaps quickly slowly together alone already again almost enough little much very
we they it she he i you our their was were is had has have did do""".split()


def _dissimilar(words: list[str]) -> list[str]:
    """Keep words no typo tolerance could take for one another."""
    kept: list[str] = []
    for word in words:
        if all(fuzz.ratio(word, other) < 70 for other in kept):
            kept.append(word)
    return kept


# Without "i": "I:" opening a line is an interviewer's label, and a quote in (or running into) an
# interviewer's turn is flagged for review by design, however verbatim.
VOCAB = _dissimilar([w for w in _CANDIDATES if w != "i"])
NUMBERS = ["15", "1998", "3.5", "twelve", "forty", "seven"]
NEGATIONS = ["not", "never", "don't", "nobody", "can't"]
OTHER_NUMBERS = ["16", "50", "2021", "4.5", "eleven", "ninety"]
SEPARATORS = [" ", " ", " ", " ", ", ", ". ", "\n", "\r\n", "; ", " -- ", ": "]


class Doc:
    """A generated document: its text and the original span of every word."""

    def __init__(self, words: list[str], seps: list[str], capitals: list[bool]):
        parts, spans, pos = [], [], 0
        for k, word in enumerate(words):
            if k:
                parts.append(seps[k - 1])
                pos += len(seps[k - 1])
            shown = word.capitalize() if capitals[k] else word
            parts.append(shown)
            spans.append((pos, pos + len(shown)))
            pos += len(shown)
        self.words = words
        self.seps = seps
        self.capitals = capitals
        self.text = "".join(parts) + "."
        self.spans = spans

    def __repr__(self) -> str:
        return f"Doc({self.text!r})"

    def slice(self, i: int, j: int) -> tuple[str, int, int]:
        """The original text of words i..j inclusive, and its span."""
        start, end = self.spans[i][0], self.spans[j][1]
        return self.text[start:end], start, end

    def contains(self, words: list[str]) -> bool:
        n = len(words)
        return any(self.words[k:k + n] == words for k in range(len(self.words) - n + 1))


@st.composite
def documents(draw, *, unique: bool = True, extra: tuple[str, ...] = (), min_words: int = 6,
              max_words: int = 50, vocab: list[str] | None = None) -> Doc:
    """A document of n words (of ``vocab``, by default VOCAB); with ``unique``, no word twice, and some of
    ``extra`` mixed in."""
    n = draw(st.integers(min_words, max_words))
    if unique:
        words = draw(st.lists(st.sampled_from(vocab or VOCAB), unique=True, min_size=n, max_size=n))
        for word in draw(st.lists(st.sampled_from(extra), unique=True, max_size=3)) if extra else ():
            words.insert(draw(st.integers(0, len(words))), word)
    else:
        words = draw(st.lists(st.sampled_from(VOCAB[:25]), min_size=n, max_size=n))
    n = len(words)
    seps = draw(st.lists(st.sampled_from(SEPARATORS), min_size=n - 1, max_size=n - 1))
    capitals = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    return Doc(words, seps, capitals)


@st.composite
def spans(draw, doc: Doc, min_words: int = 1, max_words: int = 20) -> tuple[int, int]:
    i = draw(st.integers(0, len(doc.words) - min_words))
    j = draw(st.integers(i + min_words - 1, min(len(doc.words), i + max_words) - 1))
    return i, j


CONFIG = load_config(overrides=NO_EMBED)


def verify_one(doc: Doc, quote: str):
    (result,) = quoteverify.verify({"doc": doc.text, "other": OTHER_DOCUMENT}, [quote], CONFIG)
    return result


# A second document, so that "found" also means "found in the right one".
OTHER_DOCUMENT = TINY_CORPUS["interview-02"]


_EN = lexicon_for("en")


def _class_words(*classes: str) -> frozenset[str]:
    """Every word of the English lexicon's phrases of these classes."""
    return frozenset(w for cls in classes for entry in _EN.phrases[cls] for w in entry)


# Qualifiers: alone as the rest of a sentence, they qualify a cut ("Already, [...]", "[...] maybe.").
QUALIFIERS = _class_words("hedge", "limiter", "quantifier")
# Words that may turn a sentence an excerpt is cut from ("they said", "but", "maybe"): a verbatim excerpt
# whose sentence holds one goes to review when the quote is long enough to claim something.
TURNING = _class_words("negation", "contrast", "condition", "correction", "reporting", "frame") | QUALIFIERS | {
    "don't", "can't"}


NEUTRAL = [w for w in VOCAB if w not in TURNING]


def untouched_by_the_rest(doc: Doc, i: int, j: int) -> bool:
    """No word outside words i..j could turn them."""
    return not TURNING & set(doc.words[:i] + doc.words[j + 1:])


def qualified_alone(doc: Doc, i: int, j: int) -> bool:
    """The rest of the sentence on either side of words i..j is nothing but qualifiers ("Already, [...]",
    "[...] maybe."): it qualifies the span (contract.md, where a quote starts or ends inside a sentence)."""
    stops = [k for k, sep in enumerate(doc.seps) if "." in sep]  # sep k stands between words k and k + 1
    first = max((k + 1 for k in stops if k < i), default=0)
    last = min((k for k in stops if k >= j), default=len(doc.words) - 1)
    return any(rest and all(w in QUALIFIERS for w in rest) for rest in (doc.words[first:i], doc.words[j + 1:last + 1]))


def broken_off_after(doc: Doc, i: int, j: int) -> bool:
    """The speaker breaks off after word j (a dash or dots) and begins again with one of the last six words
    ("may not -- may withdraw"): the span ends on a false start the speaker took back."""
    return j + 1 < len(doc.words) and bool(re.search(r"-|\.\.", doc.seps[j])) and (
        doc.words[j + 1] in doc.words[max(0, j - 5):j + 1])


# (3) Any verbatim span of a random document is verified, at its exact offsets, where nothing around it turns it.

@SETTINGS
@given(st.data())
def test_verbatim_span_is_verified_at_its_offsets(data) -> None:
    doc = data.draw(documents(vocab=NEUTRAL, extra=("not", "said")))
    i, j = data.draw(spans(doc))
    assume(untouched_by_the_rest(doc, i, j))
    quote, start, end = doc.slice(i, j)
    # Words of a line read as a speaker label ("Not Summer Morning Letter doctor:") are no one's speech.
    assume(not Turns(doc.text).in_label(start, end))
    result = verify_one(doc, quote)
    assert (result.status, result.match_type) == ("verified", "exact")
    assert (result.document, result.start, result.end) == ("doc", start, end)
    assert result.matched_text == quote


@SETTINGS
@given(st.data())
def test_verbatim_span_of_a_repetitive_document_is_verified(data) -> None:
    """With repeated words the span may occur twice; it is found at one of its occurrences."""
    doc = data.draw(documents(unique=False))
    i, j = data.draw(spans(doc, min_words=2))
    quote, start, end = doc.slice(i, j)
    assume(not Turns(doc.text).in_label(start, end))  # a speaker label's words are no one's speech
    assume(not broken_off_after(doc, i, j))  # a false start the speaker took back is no claim (contract.md)
    assume(not qualified_alone(doc, i, j))
    result = verify_one(doc, quote)
    note(f"quote {quote!r}: {result.status} {result.match_type} {result.reasons}")
    assert result.status == "verified"
    assert result.document == "doc"
    assert word_tokens(normalize(result.matched_text).text).words == word_tokens(normalize(quote).text).words
    occurrences = [k for k in range(len(doc.words)) if doc.words[k:k + j - i + 1] == doc.words[i:j + 1]]
    if len(occurrences) == 1:
        assert (result.start, result.end) == (start, end)


# (4) Any normalization-only perturbation is verified, at the same offsets.

@st.composite
def perturbed(draw, quote: str) -> str:
    """The quote with what normalization takes away changed: its case as a whole (a word in capitals or with a
    capital inside a mixed-case sentence may be another word: US, May), its first letter, apostrophes, invisible
    characters and spacing."""
    style = draw(st.sampled_from(["same", "upper", "lower"]))
    quote = {"same": quote, "upper": quote.upper(), "lower": quote.lower()}[style]
    if style != "upper" and draw(st.booleans()):
        quote = quote[:1].swapcase() + quote[1:]  # "we went" -> "We went", as a quote opens
    out = []
    for word in quote.split(" "):
        if "'" in word and draw(st.booleans()):
            word = word.replace("'", "\u2019")
        if len(word) > 2 and draw(st.booleans()):
            cut = draw(st.integers(1, len(word) - 1))
            word = word[:cut] + draw(st.sampled_from(["\u200b", "\u00ad", "\u200d"])) + word[cut:]
        out.append(word)
    spaces = st.sampled_from([" ", "  ", "\u00a0", " \u200b", "\n", "\t", " \r\n "])
    text = out[0]
    for word in out[1:]:
        text += draw(spaces) + word
    return text


@SETTINGS
@given(st.data())
def test_normalization_only_changes_are_verified(data) -> None:
    doc = data.draw(documents(vocab=NEUTRAL, extra=("don't", "we're", "it's")))
    i, j = data.draw(spans(doc))
    assume(untouched_by_the_rest(doc, i, j))
    quote, start, end = doc.slice(i, j)
    changed = data.draw(perturbed(quote))
    result = verify_one(doc, changed)
    assert result.status == "verified"
    assert result.match_type in ("exact", "normalized")
    assert (result.document, result.start, result.end) == ("doc", start, end)


# (5) Changing a number, or adding or removing a negation, is never verified.

@st.composite
def with_a_word(draw, pool: list[str], *, inside: bool = False):
    """A unique-word document holding a word of ``pool`` at k, and a span i..j around it.

    ``inside``: the word is neither the first nor the last of the span.
    """
    doc = draw(documents(min_words=8))
    k = draw(st.integers(1 if inside else 0, len(doc.words) - (2 if inside else 1)))
    words = list(doc.words)
    words[k] = draw(st.sampled_from(pool))
    doc = Doc(words, doc.seps, doc.capitals)
    i = draw(st.integers(max(0, k - 8), k - 1 if inside else k))
    j = draw(st.integers(k + 1 if inside else k, min(len(doc.words) - 1, k + 8)))
    return doc, i, j, k


def replace_word(doc: Doc, i: int, j: int, k: int, new: str) -> str:
    """The original slice of words i..j with word k replaced by ``new`` (or dropped when empty)."""
    text, start, _ = doc.slice(i, j)
    a, b = doc.spans[k][0] - start, doc.spans[k][1] - start
    if new:
        return text[:a] + new + text[b:]
    after = text[b:]
    return (text[:a] + after.lstrip(" ,.;:-\r\n")) if a else after.lstrip(" ,.;:-\r\n")


@SETTINGS
@given(st.data())
def test_a_changed_number_is_never_verified(data) -> None:
    doc, i, j, k = data.draw(with_a_word(NUMBERS))
    new = data.draw(st.sampled_from(OTHER_NUMBERS))
    result = verify_one(doc, replace_word(doc, i, j, k, new))
    assert result.status != "verified"


@SETTINGS
@given(st.data())
def test_a_removed_negation_is_never_verified(data) -> None:
    # Inside: a negation dropped from the edge leaves a shorter, verbatim quote.
    doc, i, j, k = data.draw(with_a_word(NEGATIONS, inside=True))
    result = verify_one(doc, replace_word(doc, i, j, k, ""))
    assert result.status != "verified"


@SETTINGS
@given(st.data())
def test_an_added_negation_is_never_verified(data) -> None:
    doc = data.draw(documents(extra=tuple(NUMBERS)))
    i, j = data.draw(spans(doc, min_words=2))
    k = data.draw(st.integers(i, j))
    negation = data.draw(st.sampled_from(NEGATIONS))
    words = doc.words[i:j + 1]
    words.insert(k - i + data.draw(st.integers(0, 1)), negation)
    assume(not doc.contains(words))
    text, start, _ = doc.slice(i, j)
    if data.draw(st.booleans()):
        quote = " ".join(words)
    else:  # keep the source's punctuation: insert into the original slice
        a = doc.spans[k][0] - start
        quote = text[:a] + negation + " " + text[a:]
    result = verify_one(doc, quote)
    assert result.status != "verified"


@SETTINGS
@given(st.data())
def test_a_word_turned_negative_is_never_verified(data) -> None:
    doc, i, j, k = data.draw(with_a_word(["is", "was", "did", "could", "would", "does"]))
    assume(j > i)
    result = verify_one(doc, replace_word(doc, i, j, k, doc.words[k] + "n't"))
    assert result.status != "verified"


# (6) Random text and shuffled sentences are never verified.

@SETTINGS
@given(st.data())
def test_random_text_is_never_verified(data) -> None:
    doc = data.draw(documents())
    words = data.draw(st.lists(st.sampled_from(VOCAB), min_size=3, max_size=20))
    assume(all(a != b for a, b in zip(words, words[1:])))  # a doubled word may be a stutter
    assume(not doc.contains(words))
    result = verify_one(doc, " ".join(words))
    assert result.status != "verified"


@SETTINGS
@given(st.data())
def test_shuffled_sentence_is_never_verified(data) -> None:
    doc = data.draw(documents(min_words=10))
    i, j = data.draw(spans(doc, min_words=4, max_words=15))
    words = doc.words[i:j + 1]
    shuffled = data.draw(st.permutations(words))
    if shuffled == words:
        shuffled[0], shuffled[-1] = shuffled[-1], shuffled[0]
    result = verify_one(doc, " ".join(shuffled).capitalize() + ".")
    assert result.status != "verified"


@SETTINGS
@given(st.data())
def test_sentences_in_another_order_are_never_verified(data) -> None:
    doc = data.draw(documents(min_words=16))
    cut1 = data.draw(st.integers(4, len(doc.words) - 8))
    cut2 = data.draw(st.integers(cut1 + 4, len(doc.words) - 4))
    first = " ".join(doc.words[cut1:cut2])
    second = " ".join(doc.words[max(0, cut1 - 6):cut1])
    result = verify_one(doc, f"{first}. {second}.")
    assert result.status != "verified"


# (7) Any table of N quotes gives N results, in input order.

QUOTE_TEXT = st.one_of(
    st.sampled_from(["", " ", "The patients noticed, of course.", "[...]", "...", "[sic]", "[T]he", "(laughs)",
                     "Three days is not enough ... learn", "\u2026 [the committee] \u2026", "um uh"]),
    MESSY,
)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(QUOTE_TEXT, st.sampled_from(["", "interview-02", "interview-99"])), max_size=8))
def test_every_quote_gets_one_result_in_order(rows) -> None:
    quotes = [{"quote": text, "document": claimed} for text, claimed in rows]
    results = quoteverify.verify(TINY_CORPUS, quotes, NO_EMBED)
    assert [r.quote for r in results] == [text for text, _ in rows]
    assert [r.row for r in results] == list(range(1, len(rows) + 1))
    assert len({r.quote_id for r in results}) == len(rows)
    for r in results:
        assert r.status in ("verified", "review", "unverified")
        if r.status != "verified":
            assert r.reasons
        if r.document:
            assert TINY_CORPUS[r.document][r.start:r.end] == r.matched_text
        else:
            assert r.start is None and r.end is None
