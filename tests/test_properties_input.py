"""Properties (hypothesis) of what comes in: whatever the text, nothing crashes and nothing is lost.

- any text round-trips through normalize -> offset map -> original slice;
- any table of N quotes gives N results, in order, and N rows in every output;
- arbitrary Unicode documents (combining marks, emoji, RTL, control characters,
  lone surrogates from bad bytes decoded with surrogateescape) never crash, and
  every span reported is a slice of the document.
"""
from __future__ import annotations

import csv
import io
import json
import unicodedata
from pathlib import Path

import numpy as np
from conftest import TINY_CORPUS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import quoteverify
from quoteverify.model.rows import csv_bytes, jsonl_bytes
from quoteverify.model.types import MATCH_TYPES, STATUSES
from quoteverify.sources.normalize import _normalize_runs, _normalize_whole, normalize
from quoteverify.sources.quotes import load_quotes
from quoteverify.sources.tokenize import word_tokens

NO_EMBED = {"embed": {"enabled": False}}
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Characters researchers' files hold, and some they should not.
MESSY = st.sampled_from(list(
    "abc XYZ 019 ,.;:!?'\"-()[]…\n\r\t\x0b\x0c"               # plain text, line ends, odd whitespace
    "\u00a0\u2009\u200b\u200d\u00ad\ufeff\u2028\x85"          # NBSP, thin space, zero-width, soft hyphen, BOM, LS, NEL
    "\u2018\u2019\u201c\u201d\u2013\u2014\ufb01\u00df\u0130"  # curly quotes, dashes, ligature, ß, İ
    "e\u0301\u0308\u0327\u20dd"                               # combining marks
    "\U0001F600\U0001F44D\U0001F3FD\u200d\u2764"              # emoji, skin tone, ZWJ sequences
    "\u05e9\u05dc\u05d5\u05dd \u0645\u0631\u062d\u0628\u0627\u200f\u202e"  # Hebrew, Arabic, RLM, RLO
    "\x00\x07\x1b\x7f\ud800\udcff"                            # control characters, lone surrogates
))
ANY_CHAR = st.characters(exclude_categories=())  # every code point, surrogates included
TEXT = st.text(st.one_of(MESSY, ANY_CHAR), max_size=80)
# What bytes that are not UTF-8 become when decoded with surrogateescape (os.fsdecode, sys.argv ...).
BAD_BYTES = st.binary(max_size=40).map(lambda b: b.decode("utf-8", "surrogateescape"))


def quote_texts(documents: dict[str, str]) -> st.SearchStrategy[str]:
    """Random strings, and slices of the documents (found, or cut mid-word)."""
    sliced = st.sampled_from(sorted(documents.items())).flatmap(
        lambda item: st.tuples(st.integers(0, len(item[1])), st.integers(0, 300)).map(
            lambda ij: item[1][ij[0]:ij[0] + ij[1]]))
    return st.one_of(TEXT, BAD_BYTES, sliced, st.sampled_from(["", " ", "\t\n", "…", "[...]", "--", "=1+1"]))


# ------------------------------------------------------------------------------ normalization

@SETTINGS
@given(TEXT)
def test_offset_map_points_into_the_original(text: str) -> None:
    norm = normalize(text)
    assert len(norm.offsets) == len(norm.text)
    if len(norm.offsets):
        assert np.all(np.diff(norm.offsets) >= 0)  # in order
        assert 0 <= norm.offsets[0] and norm.offsets[-1] < len(text)


# Texts of the characters the two ways of normalizing treat apart: printable ASCII, runs of spaces and line
# ends, characters dropped, replaced one for one or by several ("ß", "ﬁ", "…"), and without combining marks.
UNMARKED = st.text(st.one_of(MESSY.filter(lambda ch: not unicodedata.category(ch).startswith("M")),
                             st.characters(exclude_categories=("Mn", "Mc", "Me"))), max_size=120)


@settings(max_examples=400, deadline=None)
@given(st.one_of(TEXT, UNMARKED, st.lists(st.sampled_from(["  ", " ", "\r\n", "\n", "A", "b", "ß", "…", "\u200b",
                                                          "\u00a0", "`", "\ufb01", "\x00"]), max_size=60).map("".join)))
def test_whole_text_normalization_is_the_run_by_run_one(text: str) -> None:
    """A long document is normalized on arrays, a block at a time (``_normalize_whole``); where it can be, that
    gives the text and offsets the run-by-run normalization gives (which a text with a combining mark always
    takes), whatever the blocks' length (7 characters: blocks cut runs of spaces and replacements apart)."""
    from quoteverify.sources import normalize as module

    runs = _normalize_runs(text)
    for block in (7, module.WHOLE_BLOCK_CHARS):
        kept, module.WHOLE_BLOCK_CHARS = module.WHOLE_BLOCK_CHARS, block
        try:
            whole = _normalize_whole(text)
        finally:
            module.WHOLE_BLOCK_CHARS = kept
        if whole is None:
            assert any(unicodedata.category(ch).startswith("M") for ch in text)
            continue
        assert (whole.text, whole.offsets.dtype, whole.offsets.tolist()) == (
            runs.text, runs.offsets.dtype, runs.offsets.tolist())


def test_a_long_document_is_normalized_on_whole_arrays(monkeypatch) -> None:
    from quoteverify.sources import normalize as module

    calls: list[int] = []
    whole = module._normalize_whole
    monkeypatch.setattr(module, "_normalize_whole", lambda text: calls.append(len(text)) or whole(text))
    long = "Maria:  It was “harder” than we expected.\r\n" * 60
    assert normalize(long).text == _normalize_runs(long).text and calls == [len(long)]
    assert normalize(long[:100]).text == _normalize_runs(long[:100]).text and calls == [len(long)]  # short: runs


@SETTINGS
@given(TEXT)
def test_normalized_text_round_trips_through_the_original_slice(text: str) -> None:
    norm = normalize(text)
    start, end = norm.to_original(0, len(norm.text))
    assert 0 <= start <= end <= len(text)
    assert normalize(text[start:end]).text == norm.text


@SETTINGS
@given(TEXT, st.data())
def test_any_word_span_round_trips(text: str, data) -> None:
    norm = normalize(text)
    tokens = word_tokens(norm.text)
    if not len(tokens):
        return
    k = data.draw(st.integers(0, len(tokens) - 1))
    last = data.draw(st.integers(k, len(tokens) - 1))
    start, end = norm.to_original(int(tokens.starts[k]), int(tokens.ends[last]))
    assert 0 <= start < end <= len(text)
    words, want = word_tokens(normalize(text[start:end]).text).words, tokens.words[k:last + 1]
    # A character that NFKC makes several words ("¼" is "1⁄4") cannot be cut: the slice holds all of them.
    splits = [c for c in (text[start], text[end - 1]) if len(word_tokens(normalize(c).text).words) > 1]
    if not splits:
        assert words == want
    else:
        assert any(words[i:i + len(want)] == want for i in range(len(words) - len(want) + 1))


# ------------------------------------------------------------------------- N quotes, N results

@SETTINGS
@given(st.lists(quote_texts(TINY_CORPUS), max_size=12), st.booleans())
def test_n_quotes_give_n_results_in_order(texts: list[str], as_dicts: bool) -> None:
    quotes = [{"quote": t, "quote_id": "same", "document": "interview-01"} for t in texts] if as_dicts else texts
    results = quoteverify.verify(TINY_CORPUS, quotes, NO_EMBED)
    assert [r.quote for r in results] == texts
    assert [r.row for r in results] == list(range(1, len(texts) + 1))
    assert len({r.quote_id for r in results}) == len(texts)  # repeated ids made unique
    for result in results:
        assert result.status in STATUSES and result.match_type in MATCH_TYPES
        assert result.status == "verified" or result.reasons  # never unverified without a reason
        if result.document:
            text = TINY_CORPUS[result.document]
            assert text[result.start:result.end] == result.matched_text
    # Every output has a row for each, whatever the characters.
    assert len(jsonl_bytes(results).splitlines()) == len(texts)
    assert [json.loads(line)["quote"] for line in jsonl_bytes(results).decode("utf-8").splitlines()] == texts
    assert len(list(csv.reader(io.StringIO(csv_bytes(results).decode("utf-8"), newline="")))) == len(texts) + 1


CELL = st.text(st.characters(exclude_categories=("Cs",), exclude_characters="\x00"), max_size=40)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(CELL, CELL), max_size=15), st.sampled_from([",", ";", "\t"]),
       st.sampled_from(["utf-8", "utf-8-sig", "utf-16"]))
def test_any_csv_table_loads_every_row(tmp_path_factory, cells: list[tuple[str, str]], delimiter: str,
                                       encoding: str) -> None:
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, delimiter=delimiter, lineterminator="\r\n")
    writer.writerow(["quote", "note"])
    writer.writerows(cells)
    path = tmp_path_factory.mktemp("tables") / "quotes.csv"
    path.write_bytes(buffer.getvalue().encode(encoding))
    loaded = load_quotes(path)
    kept = [(q, n) for q, n in cells if q or n]  # a row of empty cells is a blank row
    assert [(q.text, dict(q.extra)["note"]) for q in loaded.quotes] == kept
    assert all(q.problem == ("" if q.text.strip() else "empty quote: nothing to verify") for q in loaded.quotes)


# ---------------------------------------------------------------------- arbitrary documents

@SETTINGS
@given(st.dictionaries(st.text("abcdef-_", min_size=1, max_size=8), st.one_of(TEXT, BAD_BYTES),
                       min_size=1, max_size=3), st.data())
def test_arbitrary_unicode_documents_never_crash(documents: dict[str, str], data) -> None:
    texts = data.draw(st.lists(quote_texts(documents), max_size=6))
    results = quoteverify.verify(documents, texts, NO_EMBED)
    assert [r.quote for r in results] == texts
    for result in results:
        if result.document:
            assert documents[result.document][result.start:result.end] == result.matched_text


def test_a_document_is_found_in_itself_whatever_its_bytes(tmp_path: Path) -> None:
    # Bytes of every value, decoded the way a file of unknown encoding would be.
    text = bytes(range(1, 256)).decode("cp1252", "replace") + " We lost 15 volunteers."
    (result,) = quoteverify.verify({"d": text}, ["We lost 15 volunteers."], NO_EMBED)
    assert (result.status, text[result.start:result.end]) == ("verified", "We lost 15 volunteers.")
