"""Numbers in any form, reduced to their value: "8 million", "eight million" and
"8,000,000" are one number; "$863m" is 863 million dollars; "50%" is "fifty percent".

A quote may write a number in another form than the source (a benign
``number_format`` difference) but never another value (a load-bearing
``number`` difference). Number words and their values come from num2words for
each language, so nothing here lists them by hand.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import cache

_DIGITS = re.compile(r"^\d+(?:[.,]\d+)*$")
_ORDINAL_DIGITS = re.compile(r"^(\d+)(?:st|nd|rd|th|e|er|ère|eme|ème|º|ª|o|a|de|ste|te)$")
_SCALED = re.compile(r"^(\d+(?:[.,]\d+)?)(k|m|bn|b|tn)$")
_GLUED = re.compile(r"^(\d+(?:[.,]\d+)?)([^\W\d_]+)$")
_ARTICLE_ONE = {"en": ("a", "an")}  # the article that reads as "one" before a scale word
_SCALE_SUFFIX = {"k": 10**3, "m": 10**6, "bn": 10**9, "b": 10**9, "tn": 10**12}
CURRENCY_SIGNS = {"$": "$", "€": "€", "£": "£", "¥": "¥"}
# The words for a percent and for currencies, by language (a sign and its word are one unit).
_PERCENT = {"en": ("percent", "per cent", "pc"), "de": ("prozent",), "fr": ("pour cent", "pourcent"),
            "es": ("por ciento",), "pt": ("por cento",), "it": ("per cento",), "nl": ("procent",)}
_CURRENCY_WORDS = {"dollar": "$", "dollars": "$", "euro": "€", "euros": "€", "pound": "£", "pounds": "£",
                   "yen": "¥", "dólares": "$", "dólar": "$", "dollaro": "$", "dollari": "$", "sterling": "£"}
_OCLOCK = {"o'clock", "uhr", "heures", "heure", "uur"}


@dataclass(frozen=True)
class Words:
    """A language's number words: value of each cardinal and ordinal word, scales, and joiners."""

    cardinals: dict[str, int]
    compounds: dict[tuple[str, ...], int]  # numbers written in several words: "quatre vingt dix", "twenty one"
    ordinals: dict[str, int]
    scales: dict[str, int]
    joiners: frozenset[str]   # "and" in "one hundred and five"
    point: frozenset[str]     # "point" in "twelve point five"
    decimal_comma: bool       # 1,5 is one and a half (not fifteen hundred... or 15)
    language: str = ""

    @property
    def starters(self) -> frozenset[str]:
        """The tokens other than digits a number may start with."""
        found = self.__dict__.get("_starters")
        if found is None:
            found = frozenset(self.cardinals) | frozenset(self.ordinals) | self.point | frozenset(CURRENCY_SIGNS) \
                | frozenset(_ARTICLE_ONE.get(self.language, ()))
            object.__setattr__(self, "_starters", found)
        return found


def _split(text: str) -> list[str]:
    return [w for w in re.split(r"[\s\-]+", text.lower()) if w]


def _said(num2words: Callable[..., str], n: int, language: str, to: str) -> list[str]:
    """``n`` in words, split; [] where num2words's table for the language fails on it (Catalan ordinals
    raise KeyError for some numbers): that number is then read from digits only."""
    try:
        return _split(num2words(n, lang=language, to=to))
    except Exception:  # noqa: BLE001 - whatever a language table of the library raises for one number
        return []


@cache
def words_for(language: str) -> Words | None:
    """The number words of a language, from num2words; None when num2words does not know it."""
    try:
        from num2words import num2words  # imported here: only quotes that differ from the source need it
        num2words(1, lang=language)
    except (ImportError, NotImplementedError, KeyError, TypeError):
        return None
    cardinals: dict[str, int] = {}
    compounds: dict[tuple[str, ...], int] = {}
    ordinals: dict[str, int] = {}
    scales: dict[str, int] = {}
    joiners: set[str] = set()
    for n in range(0, 1000):
        parts = _said(num2words, n, language, "cardinal")
        if not parts:
            continue
        if len(parts) == 1:
            cardinals.setdefault(parts[0], n)
        else:
            compounds.setdefault(tuple(parts), n)
            joiners.update(p for p in parts if not p.isdigit() and p in {"and", "und", "et", "y", "e", "en"})
        ords = _said(num2words, n, language, "ordinal") if 0 < n <= 100 else []
        if len(ords) == 1:
            ordinals.setdefault(ords[0], n)
    for exp in (2, 3, 6, 9, 12):
        for mult in (1, 2):
            parts = _split(num2words(mult * 10**exp, lang=language))
            scales.setdefault(parts[-1], 10**exp)
    # German writes scales into one word ("zweihundert"): those are already cardinals.
    for word in list(scales):
        if word in cardinals and scales[word] != cardinals[word]:
            del scales[word]
    point = {p for p in _split(num2words(0.5, lang=language))
             if p not in cardinals and p not in joiners}
    return Words(cardinals, compounds, ordinals, scales, frozenset(joiners), frozenset(point), language != "en",
                 language)


def _digits(token: str, decimal_comma: bool) -> Decimal | None:
    if not _DIGITS.match(token):
        return None
    group, decimal = (".", ",") if decimal_comma else (",", ".")
    parts = token.split(group)
    if len(parts) > 1 and not all(len(p.split(decimal)[0]) == 3 for p in parts[1:]):
        group, decimal = decimal, group  # "1.3" in a text that groups with points: a decimal after all
    try:
        return Decimal(token.replace(group, "").replace(decimal, "."))
    except InvalidOperation:
        return None


@dataclass(frozen=True)
class NumberPhrase:
    """Tokens [start, end) that write one number, and its value as a key ("8000000", "%50", "$863000000")."""

    start: int
    end: int
    key: str


def _plain(value: Decimal) -> str:
    text = format(value.normalize(), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def number_words(language: str) -> Words:
    """The number words a text in ``language`` is read with: its own, or English where num2words has none."""
    words = words_for(language) or words_for("en")
    assert words is not None
    return words


def phrases(tokens: Sequence[str], language: str) -> list[NumberPhrase]:
    """The number phrases among some tokens (words and punctuation, normalized) of one text."""
    words = number_words(language)
    percent = tuple(tuple(p.split()) for p in _PERCENT.get(language, ()) + _PERCENT["en"])
    out: list[NumberPhrase] = []
    k, n = 0, len(tokens)
    starters = words.starters
    while k < n:
        token = tokens[k]
        if not (token[:1].isdigit() or token in starters):
            k += 1  # most tokens start no number: not worth reading one from
            continue
        start = k
        unit = ""
        if tokens[k] in CURRENCY_SIGNS and k + 1 < n and _starts_number(tokens[k + 1], words):
            unit = CURRENCY_SIGNS[tokens[k]]
            k += 1
        value, k, kind = _read_number(tokens, k, words, allow_scaled_suffix=bool(unit))
        if value is None:
            k = start + 1
            continue
        # What may follow: a percent, a currency word, "o'clock", a time's minutes.
        if k < n and tokens[k] == "%":
            unit, k = "%", k + 1
        else:
            for p in percent:
                if tuple(tokens[k:k + len(p)]) == p:
                    unit, k = "%", k + len(p)
                    break
            else:
                if k < n and tokens[k] in _CURRENCY_WORDS and unit in ("", _CURRENCY_WORDS[tokens[k]]):
                    unit, k = _CURRENCY_WORDS[tokens[k]], k + 1
                elif k < n and tokens[k] in _OCLOCK:
                    kind, k = "time", k + 1
                    value = value * 100
                elif (k + 1 < n and tokens[k] == ":" and kind == "cardinal"
                      and (minutes := _digits(tokens[k + 1], False)) is not None and len(tokens[k + 1]) == 2):
                    kind, k = "time", k + 2
                    value = value * 100 + minutes
        prefix = {"cardinal": "", "ordinal": "#", "time": "@"}[kind]
        out.append(NumberPhrase(start, k, f"{unit}{prefix}{_plain(value)}"))
    return out


def _starts_number(token: str, words: Words) -> bool:
    return bool(_DIGITS.match(token) or _SCALED.match(token) or _GLUED.match(token) or token in words.cardinals)


def _cardinal(tokens: Sequence[str], k: int, words: Words) -> tuple[int | None, int]:
    """The cardinal written at token k, in one word or several (hyphens skipped), and the token after it."""
    at: list[int] = []
    j = k
    while j < len(tokens) and len(at) < 4:
        if tokens[j] != "-":
            if tokens[j] not in words.cardinals and tokens[j] not in words.joiners:
                break
            at.append(j)
        j += 1
    for size in range(len(at), 1, -1):
        value = words.compounds.get(tuple(tokens[i] for i in at[:size]))
        if value is not None:
            return value, at[size - 1] + 1
    return words.cardinals.get(tokens[k]), k + 1


def _one_token_number(tokens: Sequence[str], k: int, words: Words, *,
                      allow_scaled_suffix: bool) -> tuple[Decimal | None, int, str] | None:
    """A number token k writes on its own ("1st", "first", "2million", "$863m") or with the article before
    a scale ("a hundred"); None when it starts a number of several words, or none."""
    token, n = tokens[k], len(tokens)
    if (m := _ORDINAL_DIGITS.match(token)) and not _DIGITS.match(token):
        return Decimal(m.group(1)), k + 1, "ordinal"
    if token in words.ordinals and token not in words.cardinals:
        return Decimal(words.ordinals[token]), k + 1, "ordinal"
    if (m := _GLUED.match(token)) and m.group(2) in words.scales:  # "2million", as PDFs run words together
        base = _digits(m.group(1), words.decimal_comma)
        if base is not None:
            return base * words.scales[m.group(2)], k + 1, "cardinal"
    if token in _ARTICLE_ONE.get(words.language, ()) and k + 1 < n and tokens[k + 1] in words.scales:
        tokens = list(tokens[:k + 1]) + ["1"] + list(tokens[k + 1:])  # "a hundred" is one hundred
        scaled, after, kind = _read_number(tokens[k + 1:], 0, words, allow_scaled_suffix=allow_scaled_suffix)
        return scaled, k + after, kind
    if allow_scaled_suffix and (m := _SCALED.match(token)):
        base = _digits(m.group(1), words.decimal_comma)
        if base is not None:
            return base * _SCALE_SUFFIX[m.group(2)], k + 1, "cardinal"
    return None


def _read_number(tokens: Sequence[str], k: int, words: Words, *,
                 allow_scaled_suffix: bool) -> tuple[Decimal | None, int, str]:
    """The number written from token k on: (value, the token after it, cardinal|ordinal)."""
    n = len(tokens)
    if k >= n:
        return None, k, "cardinal"
    one_token = _one_token_number(tokens, k, words, allow_scaled_suffix=allow_scaled_suffix)
    if one_token is not None:
        return one_token
    total, current, seen, by_digits = Decimal(0), Decimal(0), False, False
    while k < n:
        token = tokens[k]
        digits = _digits(token, words.decimal_comma)
        if digits is not None and not seen:
            current, seen, by_digits, k = digits, True, True, k + 1
            continue
        value, after = _cardinal(tokens, k, words)
        if value is not None and not by_digits and (
                not seen or (current % 100 == 0 and current > 0 and value < 100)
                or (current % 10 == 0 and current % 100 != 0 and value < 10) or (current == 0 and total > 0)):
            current += value
            seen, k = True, after
            continue
        if token in words.scales and seen:
            scale = words.scales[token]
            if scale == 100:
                current = (current or Decimal(1)) * 100
            else:
                total, current = total + (current or Decimal(1)) * scale, Decimal(0)
            k += 1
            continue
        if (token in words.joiners and seen and not by_digits and current % 100 == 0
                and k + 1 < n and tokens[k + 1] in words.cardinals):
            k += 1
            continue
        if token in words.point and k + 1 < n and tokens[k + 1] in words.cardinals:
            frac, j = "", k + 1
            while j < n and tokens[j] in words.cardinals and words.cardinals[tokens[j]] < 10:
                frac += str(words.cardinals[tokens[j]])
                j += 1
            if frac:
                current += Decimal("0." + frac)
                seen, k = True, j
            break
        break
    if not seen:
        return None, k, "cardinal"
    return total + current, k, "cardinal"
