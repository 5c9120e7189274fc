"""The bounded decoders (quoteverify.model.decoders): every value or one DecodeError, whose message never repeats
the input, for JSON, CSV rows, YAML, text encodings and typed records; and the masking of URL passwords."""
from __future__ import annotations

import codecs
from dataclasses import dataclass
from pathlib import Path

import hostile_files
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quoteverify.model.decoders import DecodeError, csv_rows, decode_text, json_loads, record_of, shown, yaml_load
from quoteverify.model.errors import InputError
from quoteverify.model.rows import csv_text, spreadsheet_safe, spreadsheet_unsafe
from quoteverify.model.text import masked
from quoteverify.model.types import DIFFERENCE_KINDS, MATCH_TYPES, Difference, QuoteResult


def _nested(depth: int) -> list:
    value: list = []
    for _ in range(depth - 1):
        value = [value]
    return value


@pytest.mark.parametrize("text, expected", [
    ('{"a": [1, 2.5, "x"], "b": null}', {"a": [1, 2.5, "x"], "b": None}),
    ("-12", -12),
    (b'{"bytes": true}', {"bytes": True}),
    ("[" * 64 + "]" * 64, _nested(64)),  # the deepest allowed
])
def test_json_values(text, expected):
    assert json_loads(text) == expected


@pytest.mark.parametrize("text, message", [
    ("Infinity", "Infinity is not a JSON number"),
    ('{"a": -Infinity}', "-Infinity is not a JSON number"),
    ("[NaN]", "NaN is not a JSON number"),
    ("1e999", "1e999 is too large for a number"),
    ("9" * 5000, "a number of 5,000 digits"),
    ("0." + "1" * 200, "a number of 202 characters"),
    ("[" * 65 + "]" * 65, "nested more than 64 deep"),
    ("[" * 50_000 + "]" * 50_000, "nested more than 64 deep"),
    ('{"a": [' * 40 + "1" + "]}" * 40, "nested more than 64 deep"),
    ('{"a": ', "Expecting value at column 7"),
    ('{\n"a": }', "Expecting value at line 2, column 6"),
    (b"\xff[]", "not UTF-8 at byte 0"),
])
def test_json_refusals(text, message):
    with pytest.raises(DecodeError) as raised:
        json_loads(text)
    assert str(raised.value) == message


@pytest.mark.parametrize("text, expected", [
    ("window:\n  size: 32\n", {"window": {"size": 32}}),
    ("a: &x [1, 2]\nb: *x\n", {"a": [1, 2], "b": [1, 2]}),
    ("", None),
])
def test_yaml_values(text, expected):
    assert yaml_load(text) == expected


@pytest.mark.parametrize("text, message", [
    (hostile_files.yaml_alias_bomb(), "its aliases (*name) expand to more than 100,000 values, as an alias bomb's "
                                      "do; write the values out"),
    (hostile_files.yaml_deep(20_000), "nested more than 64 deep"),
    ("a:\n" + "".join(f"{'  ' * k}b:\n" for k in range(1, 70)), "nested more than 64 deep"),
    ("window: [unclosed\n", "line 2, column 1: expected ',' or ']', but got '<stream end>'"),
    ("a: *" + "n" * 500, "line 1, column 4: " + ("found undefined alias '" + "n" * 500)[:119] + "…"),
    ("a: " + "9" * 5000, "a number of more than 4,300 digits"),
    ("a: !!python/object:os.system x", "line 1, column 4: could not determine a constructor for the tag "
                                       "'tag:yaml.org,2002:python/object:os.system'"),
])
def test_yaml_refusals_never_repeat_the_input(text, message):
    with pytest.raises(DecodeError) as raised:
        yaml_load(text)
    assert str(raised.value) == message
    assert len(str(raised.value)) <= 200


def _rows(text: str, **options) -> list[tuple[int, int, list[str]]]:
    return list(csv_rows(text, source="t.csv", **options))


def test_csv_rows_count_records_not_lines_and_read_long_cells():
    long = "x" * 300_000
    assert _rows(f'a,b\r\n1,"two\nlines"\r\n\r\n3,"{long}"\r\n') == [
        (1, 1, ["a", "b"]), (2, 3, ["1", "two\nlines"]), (3, 4, []), (4, 5, ["3", long])]


@pytest.mark.parametrize("text, message", [
    ('a,b\n1,ok\n2,"never closed\n3,x\n4,y\n', 't.csv: row 3 (line 3): a double-quoted cell is not closed where it '
                                              'should be, so the rows after it would run together; close its " (a " '
                                              'inside a quoted cell is written "")'),
    ('a,b\n1,"ok" then\n', 't.csv: row 2 (line 2): a double-quoted cell is not closed where it should be, so the '
                           'rows after it would run together; close its " (a " inside a quoted cell is written "")'),
    ("a" + ",a" * 1500 + "\n", "t.csv: refused: row 1 has 1,501 columns, more than the limit of 1,000 "
                               "(limits.max_columns in --config)"),
])
def test_csv_rows_refusals(text, message):
    with pytest.raises(InputError) as raised:
        _rows(text, max_columns=1000)
    assert str(raised.value) == message


TRANSCRIPT = "Maria: We lost 15 volunteers.\r\nJames: \U0001F600 fine.\n"


@pytest.mark.parametrize("data, encoding", [
    (TRANSCRIPT.encode("utf-8"), "utf-8"),
    (codecs.BOM_UTF8 + TRANSCRIPT.encode("utf-8"), "utf-8"),
    (TRANSCRIPT.encode("utf-16"), "utf-16"),
    (TRANSCRIPT.encode("utf-16-be"), "utf-16-be"),
    (TRANSCRIPT.encode("utf-32"), "utf-32"),
    (codecs.BOM_UTF32_BE + TRANSCRIPT.encode("utf-32-be"), "utf-32"),
    (TRANSCRIPT.encode("utf-32-le"), "utf-32-le"),
    (TRANSCRIPT.encode("utf-32-be"), "utf-32-be"),
])
def test_text_encodings_are_told_by_their_marks_and_nul_bytes(data, encoding):
    text, found = decode_text(Path("t.txt"), data, [])
    assert (text.removeprefix("\ufeff"), found) == (TRANSCRIPT, encoding)


def test_a_utf32_mark_on_bytes_that_are_not_utf32_is_one_line():
    with pytest.raises(InputError) as raised:
        decode_text(Path("t.txt"), codecs.BOM_UTF32_LE + b"\xff\xff\xff\xff", [])
    assert str(raised.value) == ("t.txt: starts with a UTF-32 byte-order mark but does not decode as UTF-32; "
                                 "re-save it as UTF-8")


@dataclass(frozen=True)
class _Inner:
    name: str
    share: float


@dataclass(frozen=True)
class _Outer:
    count: int
    inner: tuple[_Inner, ...]
    note: str | None = None
    tags: dict[str, int] | None = None


@pytest.mark.parametrize("data, message", [
    ([1], "_Outer must be a mapping, not a list of 1 item"),
    ({"count": 1}, "_Outer has no field 'inner'"),
    ({"count": 1, "inner": [], "other": 2}, "_Outer has an unknown field 'other'"),
    ({"count": True, "inner": []}, "_Outer.count must be a whole number, not True"),
    ({"count": 1.5, "inner": []}, "_Outer.count must be a whole number, not 1.5"),
    ({"count": 1, "inner": [{"name": "a", "share": "x" * 200}]},
     "_Outer.inner item.share must be a number, not '" + "x" * 58 + "…"),
    ({"count": 1, "inner": 7}, "_Outer.inner must be a list, not 7"),
    ({"count": 1, "inner": [], "tags": {"a": "b"}}, "_Outer.tags.a must be a whole number, not 'b'"),
])
def test_typed_records_name_the_field(data, message):
    with pytest.raises(DecodeError) as raised:
        record_of(_Outer, data)
    assert str(raised.value) == message


def test_typed_records_build_nested_named_results():
    outer = record_of(_Outer, {"count": 2, "inner": [{"name": "a", "share": 1}], "tags": {"x": 1}})
    assert outer == _Outer(2, (_Inner("a", 1.0),), None, {"x": 1})
    result = record_of(QuoteResult, {"quote_id": "q", "quote": "x", "row": 3, "start": None,
                                     "differences": [{"kind": "number", "quote_text": "15", "source_text": "50"}]})
    assert result.differences == [Difference("number", "15", "50")] and result.start is None


@pytest.mark.parametrize("data, message", [
    ({"status": "fine"}, "QuoteResult.status must be one of 'verified', 'review', 'unverified', not 'fine'"),
    ({"status": 1}, "QuoteResult.status must be one of 'verified', 'review', 'unverified', not 1"),
    ({"severity": "grave"}, "QuoteResult.severity must be one of 'high', 'medium', 'low', '', not 'grave'"),
    ({"page_kind": "folio"}, "QuoteResult.page_kind must be one of 'printed', 'position', '', not 'folio'"),
    ({"differences": [{"kind": "typos", "quote_text": "a", "source_text": "b"}]},
     "QuoteResult.differences item.kind must be one of the 28 that docs/contract.md lists, not 'typos'"),
])
def test_the_verdict_vocabulary_is_checked_when_read_back(data, message):
    with pytest.raises(DecodeError) as raised:
        record_of(QuoteResult, {"quote_id": "q", "quote": "x", "row": 3, **data})
    assert str(raised.value) == message


def test_every_word_of_the_vocabulary_reads_back():
    for status, severity in [("review", "high"), ("verified", ""), ("unverified", "")]:
        for match_type in MATCH_TYPES:
            result = record_of(QuoteResult, {"quote_id": "q", "quote": "x", "row": 3, "status": status,
                                             "match_type": match_type, "severity": severity, "differences": [
                                                 {"kind": k, "quote_text": "", "source_text": ""}
                                                 for k in DIFFERENCE_KINDS]})
            assert (result.status, result.match_type, result.severity) == (status, match_type, severity)


@pytest.mark.parametrize("value, expected", [
    ("short", "'short'"),
    ("x" * 100, "'" + "x" * 58 + "…"),
    ([[1]] * 10**6, "a list of 1000000 items"),
    ({"a": 1}, "a mapping of 1 item"),
])
def test_shown_values_are_short(value, expected):
    assert shown(value) == expected


@pytest.mark.parametrize("text, expected", [
    ("postgresql://user:hunter2@db.example.org:5432/runs", "postgresql://user:***@db.example.org:5432/runs"),
    ("--store postgresql://u:p@ss:w@rd@h/db -o x", "--store postgresql://u:***@h/db -o x"),
    ("tcp://u:pw@10.0.0.1:8786 and http://h:80/x", "tcp://u:***@10.0.0.1:8786 and http://h:80/x"),
    ("postgresql://user@host/db", "postgresql://user@host/db"),
    ("sqlite:///runs.sqlite", "sqlite:///runs.sqlite"),
    ("We met at 10:30@noon", "We met at 10:30@noon"),
])
def test_url_passwords_are_masked(text, expected):
    assert masked(text) == expected


def test_a_command_line_argument_is_masked_whole():
    assert masked("postgresql://u:a secret@h/db", argument=True) == "postgresql://u:***@h/db"


@settings(max_examples=200, deadline=None)
@given(st.text(st.sampled_from("'=+-@\t\rab,\"\n"), max_size=12))
def test_spreadsheet_protection_round_trips(text):
    protected = spreadsheet_safe(text)
    assert not protected.startswith(("=", "+", "-", "@", "\t", "\r"))
    assert spreadsheet_unsafe(protected) == text
    table = csv_text(["a"], [[text]])
    assert list(csv_rows(table, source="t.csv"))[1][2] == [protected]
