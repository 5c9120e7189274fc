"""Decoders of what a user's files hold, bounded and total: bytes to text, JSON, CSV rows and YAML.

Python's own readers are neither: ``json`` reads ``Infinity`` and ``NaN``, turns a
5,000-digit number into a ValueError and 50,000 brackets into a RecursionError;
``csv`` stops at fields over 131,072 characters and, unless strict, runs the rows
after an unclosed ``"`` into one cell; ``yaml`` expands an alias bomb when the
value is printed and recurses once per level of nesting. Every reader of
quoteverify decodes through this module instead, so that whatever a file holds,
it gives a value or one InputError whose message never repeats the input.
"""
from __future__ import annotations

import codecs
import csv
import io
import json
import math
import sys
import types
import typing
from collections.abc import Iterator
from dataclasses import MISSING, fields, is_dataclass
from pathlib import Path
from typing import Any, TypeVar

import yaml

from .errors import InputError

# Nesting of a JSON or YAML value: quoteverify's own files nest 4 deep; a config, 3.
MAX_DEPTH = 64
# Digits of a JSON number: a float has 17 significant ones; no count or offset needs more than 20.
MAX_DIGITS = 100
# Nodes of a YAML document once its aliases are expanded: a config has some 150.
MAX_YAML_NODES = 100_000
# What a message may show of a value.
SHOWN = 60


class DecodeError(InputError):
    """Text that does not decode; the message says why (never the text itself) for the caller to place."""


def shown(value: Any) -> str:
    """``repr(value)`` for a message, cut to SHOWN characters: never a whole input, however large."""
    text = repr(value) if not isinstance(value, (list, dict, tuple)) else _container(value)
    return text if len(text) <= SHOWN else text[:SHOWN - 1] + "…"


def _container(value: list | tuple | dict) -> str:
    kind = "a mapping" if isinstance(value, dict) else "a list"
    return f"{kind} of {len(value)} item{'' if len(value) == 1 else 's'}"


# --- bytes to text --------------------------------------------------------------------------------

# Byte-order marks, longest first: a UTF-32-LE mark starts with the UTF-16-LE one.
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"), (codecs.BOM_UTF16_LE, "utf-16"),
         (codecs.BOM_UTF16_BE, "utf-16"))
# Files that reach a text reader under a text extension, by their first bytes.
_BINARY_MAGIC = ((b"%PDF-", "a PDF file"), (b"PK\x03\x04", "a zip archive (an .xlsx or .docx file?)"),
                 (b"\x89PNG", "a PNG image"), (b"\xff\xd8\xff", "a JPEG image"), (b"GIF8", "a GIF image"),
                 (b"\xd0\xcf\x11\xe0", "an old Office file (.doc or .xls)"))


def bom_encoding(data: bytes) -> str | None:
    """The encoding a UTF-16 or UTF-32 byte-order mark announces (its codec drops the mark), or None."""
    return next((encoding for bom, encoding in _BOMS if data.startswith(bom)), None)


def _without_bom(data: bytes) -> tuple[str, str] | None:
    """(text, encoding) of UTF-16 or UTF-32 saved without a byte-order mark, told by where its NUL bytes
    fall (ASCII letters pair with one NUL in UTF-16, three in UTF-32; an emoji may put a NUL where a letter
    goes, so a few are allowed there)."""
    head = data[:4096]
    for encoding, width, letter in (("utf-32-le", 4, 0), ("utf-32-be", 4, 3), ("utf-16-le", 2, 0),
                                    ("utf-16-be", 2, 1)):
        if len(data) % width:
            continue
        letters = head[letter::width]
        zeros = sum(head[k::width].count(0) for k in range(width) if k != letter)
        if zeros > 0.8 * (len(head) - len(letters)) and letters.count(0) <= 0.05 * len(letters):
            try:
                return data.decode(encoding), encoding
            except UnicodeDecodeError:
                return None
    return None


def decode_text(path: Path, data: bytes, warnings: list[str]) -> tuple[str, str]:
    """(text, encoding) of a text file: UTF-8, else UTF-16 or UTF-32 (by the byte-order mark, or the
    NUL bytes of one without), else Windows-1252 with a warning; a binary file is an InputError."""
    encoding = bom_encoding(data)
    if encoding is not None:
        try:
            return data.decode(encoding), encoding
        except UnicodeDecodeError:
            raise InputError(f"{path}: starts with a {encoding.upper()} byte-order mark but does not decode as "
                             f"{encoding.upper()}; re-save it as UTF-8") from None
    for magic, kind in _BINARY_MAGIC:
        if data.startswith(magic):
            raise InputError(f"{path}: is {kind}, not text; give it its real extension or convert it to text")
    if b"\x00" in data[:8192]:  # as git decides: a NUL byte near the start means binary
        if (wide := _without_bom(data)) is not None:
            return wide
        raise InputError(f"{path}: looks like a binary file (it holds NUL bytes), not text; "
                         "convert it to plain text or leave it out")
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    try:
        text = data.decode("cp1252")
    except UnicodeDecodeError:
        raise InputError(f"{path}: neither UTF-8 nor Windows-1252 text; re-save it as UTF-8") from None
    warnings.append(f"{path}: not UTF-8; decoded as Windows-1252 (offsets are into that decoding)")
    return text, "cp1252"


# --- JSON -----------------------------------------------------------------------------------------


def _constant(name: str) -> Any:
    raise DecodeError(f"{name} is not a JSON number")


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise DecodeError(f"a number of {len(text):,} digits")
    return int(text)


def _float(text: str) -> float:
    if len(text) > MAX_DIGITS:
        raise DecodeError(f"a number of {len(text):,} characters")
    value = float(text)
    if not math.isfinite(value):
        raise DecodeError(f"{text} is too large for a number")
    return value


def _depth(value: Any) -> int:
    """How deep lists and mappings nest in ``value`` (without recursion)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (list, dict)):
            deepest = max(deepest, depth)
            if deepest > MAX_DEPTH:
                break
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def json_loads(text: str | bytes) -> Any:
    """The JSON value of ``text`` (or its UTF-8 bytes): finite numbers of at most MAX_DIGITS digits, nested at
    most MAX_DEPTH deep; anything else is a DecodeError saying what and where (line and column), never the
    text."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise DecodeError(f"not UTF-8 at byte {exc.start}") from None
    try:
        value = json.loads(text, parse_constant=_constant, parse_int=_integer, parse_float=_float)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno}, column {exc.colno}" if "\n" in text else f"column {exc.colno}"
        raise DecodeError(f"{exc.msg} at {where}") from None
    except RecursionError:
        raise DecodeError(f"nested more than {MAX_DEPTH} deep") from None
    # Counting brackets is quick; only text with more of them than the depth allowed is walked.
    if text.count("[") + text.count("{") > MAX_DEPTH and _depth(value) > MAX_DEPTH:
        raise DecodeError(f"nested more than {MAX_DEPTH} deep")
    return value


# --- typed records ------------------------------------------------------------------------------

T = TypeVar("T")


def record_of(cls: type[T], data: Any, *, name: str = "") -> T:
    """An instance of the dataclass ``cls`` from a decoded mapping, each value checked against its field's
    annotation (str, int, float, bool, None, lists, tuples, mappings, nested dataclasses); an unknown,
    missing or mistyped field is a DecodeError naming it. What JSON, a manifest or a store row held becomes a
    named result only once it is what the named result says."""
    if isinstance(data, cls):
        return data
    label = name or cls.__name__
    if not isinstance(data, dict):
        raise DecodeError(f"{label} must be a mapping, not {shown(data)}")
    hints = typing.get_type_hints(cls)
    known = {f.name: f for f in fields(cls)}  # type: ignore[arg-type]
    unknown = [key for key in data if key not in known]
    if unknown:
        raise DecodeError(f"{label} has an unknown field {shown(unknown[0])}")
    missing = [n for n, f in known.items() if n not in data and f.default is MISSING
               and f.default_factory is MISSING]
    if missing:
        raise DecodeError(f"{label} has no field '{missing[0]}'")
    return cls(**{key: _typed(f"{label}.{key}", hints[key], value) for key, value in data.items()})


def _typed(name: str, hint: Any, value: Any) -> Any:
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        options = [a for a in args if a is not type(None)]
        hint, origin, args = options[0], typing.get_origin(options[0]), typing.get_args(options[0])
    if hint is Any:
        return value
    if origin is typing.Literal:  # a word of the verdict's vocabulary (types.Status, ...): one of its words
        if isinstance(value, str) and value in args:
            return value
        words = ", ".join(repr(a) for a in args) if len(args) <= 10 else f"the {len(args)} that docs/contract.md lists"
        raise DecodeError(f"{name} must be one of {words}, not {shown(value)}")
    if is_dataclass(hint) and isinstance(hint, type):
        return record_of(hint, value, name=name)
    if origin in (list, tuple) and isinstance(value, (list, tuple)):
        if origin is tuple and args and args[-1] is not Ellipsis:
            if len(value) != len(args):
                raise DecodeError(f"{name} must have {len(args)} items, not {len(value)}")
            return tuple(_typed(f"{name} item", a, v) for a, v in zip(args, value))
        items = [_typed(f"{name} item", args[0] if args else Any, v) for v in value]
        return tuple(items) if origin is tuple else items
    if origin is dict and isinstance(value, dict):
        key_hint, value_hint = args or (Any, Any)
        return {_typed(f"{name} key", key_hint, k): _typed(f"{name}.{k}", value_hint, v) for k, v in value.items()}
    if hint is float and isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    if hint in (str, bool) and type(value) is hint:
        return value
    if hint is int and isinstance(value, int) and not isinstance(value, bool):
        return value
    raise DecodeError(f"{name} must be {_KINDS.get(origin or hint, 'something else')}, not {shown(value)}")


_KINDS = {str: "text", int: "a whole number", float: "a number", bool: "true or false", list: "a list",
          tuple: "a list", dict: "a mapping"}


# --- CSV ------------------------------------------------------------------------------------------


def csv_rows(text: str, *, source: str | Path, delimiter: str = ",", max_columns: int | None = None
             ) -> Iterator[tuple[int, int, list[str]]]:
    """(record number, last line number, cells) of each row of ``text``, as a spreadsheet numbers rows (by
    record, however many lines a quoted cell spans). A double quote left open is an InputError naming the
    row where it opens; so is a row of more than ``max_columns`` cells (limits.max_columns)."""
    # No cell can be longer than the text; the module's default (131,072) would fail a long quote.
    if len(text) + 1 > csv.field_size_limit():
        csv.field_size_limit(min(len(text) + 1, sys.maxsize))
    # strict: an unclosed double quote is an error, not a cell that swallows the rows after it.
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    record, line = 0, 0  # the last record read, and the line it ended on
    try:
        for record, cells in enumerate(reader, start=1):
            if max_columns is not None and len(cells) > max_columns:
                raise InputError(f"{source}: refused: row {record} has {len(cells):,} columns, more than the limit "
                                 f"of {max_columns:,} (limits.max_columns in --config)")
            line = reader.line_num
            yield record, line, cells
    except csv.Error as exc:
        if '"' in str(exc) or "end of data" in str(exc):
            raise InputError(f"{source}: row {record + 1} (line {line + 1}): a double-quoted cell is not closed "
                             "where it should be, so the rows after it would run together; close its \" (a \" "
                             "inside a quoted cell is written \"\")") from None
        raise InputError(f"{source}: line {reader.line_num}: not readable as CSV ({exc})") from None


# --- YAML -----------------------------------------------------------------------------------------


class _TooDeep(Exception):
    pass


class _BoundedLoader(yaml.SafeLoader):
    """PyYAML's safe loader, refusing nesting deeper than MAX_DEPTH before its composer recurses."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        self._depth += 1
        if self._depth > MAX_DEPTH:
            raise _TooDeep
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


def _expanded_nodes(root: yaml.Node) -> int:
    """How many nodes ``root`` holds once every alias is expanded (each node counted once, without recursion;
    a billion laughs stops as soon as the count passes MAX_YAML_NODES)."""
    sizes: dict[int, int] = {}
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        if id(node) in sizes:
            continue
        children = ([c for pair in node.value for c in pair] if isinstance(node, yaml.MappingNode)
                    else list(node.value) if isinstance(node, yaml.SequenceNode) else [])
        if done:
            sizes[id(node)] = min(1 + sum(sizes[id(c)] for c in children), MAX_YAML_NODES + 1)
        else:
            stack.append((node, True))
            stack.extend((c, False) for c in children if id(c) not in sizes)
    return sizes[id(root)]


def yaml_load(text: str) -> Any:
    """The value of a YAML document, read with the safe loader: nested at most MAX_DEPTH deep, at most
    MAX_YAML_NODES nodes with its aliases expanded; anything else is a DecodeError naming the line."""
    loader: _BoundedLoader | None = None
    try:
        loader = _BoundedLoader(text)  # its reader already refuses control characters
        node = loader.get_single_node()
        if node is None:
            return None
        if _expanded_nodes(node) > MAX_YAML_NODES:
            raise DecodeError(f"its aliases (*name) expand to more than {MAX_YAML_NODES:,} values, as an alias "
                              "bomb's do; write the values out")
        return loader.construct_document(node)
    except _TooDeep:
        raise DecodeError(f"nested more than {MAX_DEPTH} deep") from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""
        raise DecodeError(f"{where}{cut(exc.problem or exc.context or 'not YAML')}") from None
    except (yaml.YAMLError, ValueError, TypeError, OverflowError, RecursionError) as exc:
        if "integer string conversion" in str(exc):  # Python's own bound on int("9" * 5000)
            raise DecodeError(f"a number of more than {sys.get_int_max_str_digits():,} digits") from None
        raise DecodeError(cut(str(exc).splitlines()[0] if str(exc) else type(exc).__name__)) from None
    finally:
        if loader is not None:
            loader.dispose()


def cut(text: str, limit: int = 2 * SHOWN) -> str:
    """``text`` for a message as it is, cut to ``limit`` characters."""
    return text if len(text) <= limit else text[:limit - 1] + "…"
