"""Property (hypothesis): whatever a file holds, every reader of quoteverify gives a value or one QuoteverifyError
on one line, short, that never repeats the input: random bytes, random JSON, YAML and CSV structures, and files
quoteverify wrote with one value anywhere in them replaced by a random one."""
from __future__ import annotations

import csv
import io
import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any, Callable

import pytest
import yaml
from click.testing import CliRunner
from conftest import TINY_CORPUS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from quoteverify.app.decision_files import read_decisions
from quoteverify.app.extract import extract_quotes
from quoteverify.app.review import read_review
from quoteverify.app.store import open_store
from quoteverify.cli import main
from quoteverify.export.page import load_results
from quoteverify.model.config import load_config
from quoteverify.model.decoders import csv_rows, decode_text, json_loads, record_of, yaml_load
from quoteverify.model.errors import QuoteverifyError
from quoteverify.model.types import QuoteResult
from quoteverify.plumbing.manifest import read_manifest
from quoteverify.sources.documents import load_documents
from quoteverify.sources.qdpx import read_qdpx
from quoteverify.sources.quotes import load_quotes

SETTINGS = settings(max_examples=80, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
# A message may name a file, a row and the fix; it never carries the input along.
LONGEST_MESSAGE = 600

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-10**30, 10**30), st.floats(allow_nan=True),
                    st.text(max_size=30), st.sampled_from(["", "quote", "=1+1", "\n", "'", '"', "9" * 400]))
JSON_VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                            st.dictionaries(st.text(max_size=12), inner,
                                                                            max_size=4)), max_leaves=20)
BYTES = st.one_of(st.binary(max_size=600), st.sampled_from([b"", b"\xff\xfe\x00\x00", b"PK\x03\x04", b"%PDF-1.4\n",
                                                           b"\xef\xbb\xbf", b"[" * 3000, b"{" * 3000]))
CELLS = st.text(st.sampled_from(list('ab ,;\t"\'\n\r=|x9')) | st.characters(), max_size=20)
CSV_TABLES = st.lists(st.lists(CELLS, max_size=6), max_size=8)


def _check(read: Callable[[], Any]) -> None:
    try:
        read()
    except QuoteverifyError as exc:
        message = str(exc)
        assert "\n" not in message and len(message) <= LONGEST_MESSAGE, message


def _csv_text(rows: list[list[str]], header: list[str] | None = None) -> str:
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer)
    if header:
        writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue()


def _replace_somewhere(value: Any, path: list[int], new: Any) -> Any:
    """``value`` with the item that ``path`` picks (an index at each level, modulo the items there) replaced."""
    if not path or not isinstance(value, (list, dict)) or not value:
        return new
    if isinstance(value, dict):
        key = sorted(value)[path[0] % len(value)]
        return {**value, key: _replace_somewhere(value[key], path[1:], new)}
    k = path[0] % len(value)
    return [*value[:k], _replace_somewhere(value[k], path[1:], new), *value[k + 1:]]


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """What quoteverify writes of one run: results, manifest, decisions, a store."""
    folder = tmp_path_factory.mktemp("written")
    (folder / "docs").mkdir()
    for doc_id, text in TINY_CORPUS.items():
        (folder / "docs" / f"{doc_id}.txt").write_bytes(text.encode("utf-8"))
    (folder / "quotes.csv").write_text("quote_id,quote,finding\nq1,it was harder than we expected,F\n"
                                       "q2,We lost 50 volunteers,F\n", encoding="utf-8")
    done = CliRunner().invoke(main, ["verify", str(folder / "docs"), str(folder / "quotes.csv"), "--no-embed",
                                     "--no-cache", "-o", str(folder / "r.jsonl"), "--manifest",
                                     str(folder / "run.json"), "--store", str(folder / "s.sqlite")])
    assert done.exit_code == 0, done.output
    return folder


# --- the decoders ---------------------------------------------------------------------------------------------


@SETTINGS
@given(st.one_of(JSON_VALUES.map(lambda v: json.dumps(v, allow_nan=True)), st.text(max_size=200),
                 BYTES.map(lambda b: b.decode("utf-8", "replace"))))
def test_json_text_decodes_or_says_why(text: str) -> None:
    _check(lambda: json_loads(text))
    _check(lambda: record_of(QuoteResult, json_loads(text)))


@SETTINGS
@given(st.one_of(JSON_VALUES.map(lambda v: yaml.safe_dump(v, allow_unicode=True)), st.text(max_size=200)))
def test_yaml_text_decodes_or_says_why(text: str) -> None:
    _check(lambda: yaml_load(text))


@SETTINGS
@given(st.one_of(CSV_TABLES.map(_csv_text), st.text(st.sampled_from(list('ab,"\n\r')), max_size=60)))
def test_csv_text_decodes_or_says_why(text: str) -> None:
    _check(lambda: list(csv_rows(text, source="t.csv", max_columns=4)))


@SETTINGS
@given(BYTES)
def test_bytes_decode_as_text_or_say_why(data: bytes) -> None:
    _check(lambda: decode_text(Path("t.txt"), data, []))


# --- every reader of a file -------------------------------------------------------------------------------------

DOCUMENT_SUFFIXES = (".txt", ".md", ".vtt", ".srt", ".docx", ".pdf", ".qdpx")
QUOTE_SUFFIXES = (".csv", ".tsv", ".jsonl", ".txt", ".xlsx", ".qdpx")


def _readers(path: Path) -> list[Callable[[], Any]]:
    """Every reader that takes a file of ``path``'s extension."""
    suffix = path.suffix.lower()
    readers: list[Callable[[], Any]] = []
    if suffix in DOCUMENT_SUFFIXES:
        readers.append(lambda: load_documents([path]))
    if suffix in QUOTE_SUFFIXES:
        readers.append(lambda: load_quotes(path))
    if suffix in (".xlsx", ".json", ".csv"):
        readers.append(lambda: read_review(path))
    if suffix in (".json", ".csv"):
        readers.append(lambda: read_decisions(path))
    if suffix == ".json":
        readers.append(lambda: read_manifest(path))
    if suffix == ".jsonl":
        readers.append(lambda: load_results(path))
    if suffix in (".yaml", ".yml"):
        readers.append(lambda: load_config(path))
    if suffix == ".qdpx":
        readers.append(lambda: read_qdpx(path))
    if suffix in (".md", ".txt", ".docx"):
        readers.append(lambda: extract_quotes(path, min_words=3))
    return readers


SUFFIXES = sorted(set(DOCUMENT_SUFFIXES + QUOTE_SUFFIXES + (".json", ".yaml")))


def _utf8(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")  # hypothesis's text holds lone surrogates too


FILES = st.one_of(
    BYTES, JSON_VALUES.map(lambda v: _utf8(json.dumps(v, allow_nan=True))),
    JSON_VALUES.map(lambda v: _utf8(yaml.safe_dump(v))), CSV_TABLES.map(lambda t: _utf8(_csv_text(t))),
    CSV_TABLES.map(lambda t: _utf8(_csv_text(t, ["quote_id", "quote", "decision", "row"]))),
    st.lists(JSON_VALUES, max_size=4).map(lambda vs: _utf8("\n".join(json.dumps(v, allow_nan=True) for v in vs))))


@SETTINGS
@given(suffix=st.sampled_from(SUFFIXES), data=FILES)
def test_every_reader_reads_any_file_or_says_why_in_one_line(tmp_path_factory, suffix: str, data: bytes) -> None:
    path = tmp_path_factory.mktemp("any") / f"file{suffix}"
    path.write_bytes(data)
    for read in _readers(path):
        _check(read)


@SETTINGS
@given(which=st.sampled_from(["run.json", "r.jsonl", "decisions.json"]),
       where=st.lists(st.integers(0, 50), max_size=5), value=JSON_VALUES)
def test_a_file_quoteverify_wrote_with_any_value_replaced_reads_or_says_why(written: Path, tmp_path_factory,
                                                                            which: str, where: list[int],
                                                                            value: Any) -> None:
    folder = tmp_path_factory.mktemp("edited")
    if which == "decisions.json":
        original: Any = {"format": "quoteverify decisions", "version": 1, "run": "x", "decisions": [
            {"quote_id": "q1", "row": 2, "status": "review", "decision": "accept", "reviewer_note": "n",
             "fingerprint": "f"}]}
        text = json.dumps(_replace_somewhere(original, where, value), allow_nan=True)
    elif which == "run.json":
        original = json.loads((written / which).read_text(encoding="utf-8"))
        text = json.dumps(_replace_somewhere(original, where, value), allow_nan=True)
    else:
        lines = [json.loads(line) for line in (written / which).read_text(encoding="utf-8").splitlines()]
        text = "\n".join(json.dumps(_replace_somewhere(line, where, value), allow_nan=True) for line in lines)
    path = folder / which
    path.write_text(text, encoding="utf-8")
    for read in _readers(path):
        _check(read)


@SETTINGS
@given(where=st.lists(st.integers(0, 50), max_size=3), value=JSON_VALUES)
def test_a_config_with_any_value_replaced_loads_or_says_why(tmp_path_factory, where: list[int], value: Any) -> None:
    from quoteverify.model.config import default_path

    original = yaml.safe_load(default_path().read_text(encoding="utf-8"))
    path = tmp_path_factory.mktemp("config") / "config.yaml"
    path.write_text(yaml.safe_dump(_replace_somewhere(original, where, value)), encoding="utf-8")
    _check(lambda: load_config(path))


STORE_COLUMNS = {"runs": ["config", "corpus", "quotes", "time", "embedder", "quotes_sha256"],
                 "results": ["differences", "reasons", "extra", "confidence", "start", "quote", "row", "position",
                             "claimed_speaker"]}


@SETTINGS
@given(table=st.sampled_from(sorted(STORE_COLUMNS)), data=st.data(),
       value=st.one_of(JSON_VALUES.map(lambda v: json.dumps(v, allow_nan=True)), SCALARS))
def test_a_store_row_with_any_value_reads_or_says_why(written: Path, tmp_path_factory, table: str, data,
                                                      value: Any) -> None:
    column = data.draw(st.sampled_from(STORE_COLUMNS[table]))
    store = tmp_path_factory.mktemp("store") / "s.sqlite"
    shutil.copyfile(written / "s.sqlite", store)
    try:
        with sqlite3.connect(store) as connection:
            connection.execute(f"UPDATE {table} SET {column} = ?", (value,))
    except (sqlite3.IntegrityError, OverflowError):
        return  # SQLite itself refuses it (a NULL where none may be, a number past 64 bits): nothing to read
    finally:
        connection.close()

    def read() -> None:
        with open_store(store, create=False) as opened:
            opened.runs()
            opened.results(1)
            opened.quotes(1)

    _check(read)
