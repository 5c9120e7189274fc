"""Every regular expression of quoteverify runs in linear time on any text, since documents and quotes are
anyone's: read from each module, as compiled, with the parser of Python's own ``re``.

Two shapes make a backtracking engine quadratic or worse on a crafted text:

- an unbounded repeat inside another (``(a+)+``, ``(?:x[ \\t]*)+``), unless each round of the outer one starts
  with a character the inner one cannot match (``\\w+(?:'\\w+)*``: a word, then apostrophe-word rounds);
- a pattern that opens with characters that a later unbounded repeat also matches before a character it needs
  (``<[^>]*>`` on ``<<<<...``: every ``<`` starts a scan to the end of the line).
"""
from __future__ import annotations

import importlib
import pkgutil
import re
import re._constants as C  # noqa: N812
import re._parser as P  # noqa: N812
from typing import Any

import pytest

import quoteverify

# Nested repeats whose rounds each start with a separator the inner repeat cannot match: linear.
SEPARATED = {
    r"\w+(?:(?:'|(?<=[0-9])[.,](?=[0-9]))\w+)*",                           # a word with apostrophes or digits
    r"\w+(?:(?:'|(?<=[0-9])[.,](?=[0-9]))\w+)*|[^\w\s]",                   # the same, or one sign
    r"(?:\r\n|\r(?!\n)|\n)[ \t]*(?:(?:\r\n|\r(?!\n)|\n)[ \t]*)+",          # blank lines: each round a line break
    r"\b[^\W\d_]+(?:-[^\W\d_]+)+",                                         # hyphenated words
    r"^\d+(?:[.,]\d+)*$",                                                  # digits grouped by . or ,
}


def _patterns() -> list[tuple[str, re.Pattern]]:
    found = []
    for info in pkgutil.walk_packages(quoteverify.__path__, "quoteverify."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        found += [(f"{info.name}.{name}", value) for name, value in vars(module).items()
                  if isinstance(value, re.Pattern)]
    return found


PATTERNS = _patterns()
REPEATS = (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT)


def _nested(items: Any, inside: bool = False) -> bool:
    """Whether an unbounded repeat lies inside another."""
    for op, arg in items:
        if op in REPEATS:
            unbounded = arg[1] == C.MAXREPEAT
            if (unbounded and inside) or _nested(arg[2], inside or unbounded):
                return True
        elif op == C.SUBPATTERN and _nested(arg[3], inside):
            return True
        elif op == C.BRANCH and any(_nested(branch, inside) for branch in arg[1]):
            return True
        elif op in (C.ASSERT, C.ASSERT_NOT) and _nested(arg[1], inside):
            return True
    return False


def _matches(char: int, op: Any, arg: Any) -> bool:
    """Whether a one-character item (a literal, a class, any) matches ``char``."""
    if op == C.LITERAL:
        return arg == char
    if op == C.NOT_LITERAL:
        return arg != char
    if op == C.ANY:
        return char != ord("\n")
    if op == C.IN:
        negate = any(o == C.NEGATE for o, _ in arg)
        hit = False
        for o, a in arg:
            if o == C.LITERAL and a == char or o == C.RANGE and a[0] <= char <= a[1]:
                hit = True
            elif o == C.CATEGORY:
                hit = hit or _in_category(char, a)
        return hit != negate
    return False


def _in_category(char: int, category: Any) -> bool:
    probe = {C.CATEGORY_DIGIT: r"\d", C.CATEGORY_NOT_DIGIT: r"\D", C.CATEGORY_SPACE: r"\s",
             C.CATEGORY_NOT_SPACE: r"\S", C.CATEGORY_WORD: r"\w", C.CATEGORY_NOT_WORD: r"\W"}.get(category)
    return probe is not None and re.fullmatch(probe, chr(char)) is not None


def _prefix(items: Any) -> list[int]:
    """The literal characters every match starts with."""
    found: list[int] = []
    for op, arg in items:
        if op == C.LITERAL:
            found.append(arg)
        elif op == C.SUBPATTERN:
            inner = list(arg[3])
            found += _prefix(inner)
            if len(_prefix(inner)) < len(inner):
                break
        elif op not in (C.AT, C.ASSERT, C.ASSERT_NOT):
            break
    return found


def _repeats_of(items: Any) -> list[tuple[Any, Any]]:
    """Every unbounded repeat of one character item in ``items``."""
    found = []
    for op, arg in items:
        if op in REPEATS:
            body = list(arg[2])
            if arg[1] == C.MAXREPEAT and len(body) == 1 and body[0][0] in (C.LITERAL, C.NOT_LITERAL, C.IN, C.ANY):
                found.append(body[0])
            found += _repeats_of(body)
        elif op == C.SUBPATTERN:
            found += _repeats_of(arg[3])
        elif op == C.BRANCH:
            for branch in arg[1]:
                found += _repeats_of(branch)
    return found


def _restarts(items: Any) -> bool:
    """Whether a branch opens with literal characters that one of its later unbounded repeats matches all of:
    text made of that opening again and again restarts the repeat's scan at every copy."""
    items = list(items)
    branches = items[0][1][1] if len(items) == 1 and items[0][0] == C.BRANCH else [items]
    for branch in branches:
        prefix = _prefix(branch)
        if prefix and any(all(_matches(c, op, arg) for c in prefix) for op, arg in _repeats_of(branch)):
            return True
    return False


@pytest.mark.parametrize("name, pattern", PATTERNS, ids=[name for name, _ in PATTERNS])
def test_no_regex_backtracks_out_of_linear_time(name: str, pattern: re.Pattern) -> None:
    parsed = list(P.parse(pattern.pattern, pattern.flags))
    assert pattern.pattern in SEPARATED or not _nested(parsed), f"{name}: a repeat inside a repeat"
    assert not _restarts(parsed), f"{name}: its first character is matched again by a later repeat"


@pytest.mark.parametrize("pattern, nested, restarts", [
    (r"(a+)+b", True, False),
    (r"(?:x[ \t]*)+", True, False),
    (r"<[^>\n]*>", False, True),
    (r"<v(?:\.[^\s>]*)?[ \t]+([^>]+)>", False, True),
    (r"<[^<>\n]*>", False, False),
    (r"\{\\[^{}\n]*\}", False, False),
    (r"a{1,40}b", False, False),
    (r"tcp://[^\s:/]+:\d{1,5}", False, False),
])
def test_the_checks_can_fail(pattern: str, nested: bool, restarts: bool) -> None:
    parsed = list(P.parse(pattern))
    assert (_nested(parsed), _restarts(parsed)) == (nested, restarts)


def test_every_module_was_read() -> None:
    assert len(PATTERNS) > 40
