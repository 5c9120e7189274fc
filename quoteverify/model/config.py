"""Configuration: configs/default.yaml, overridden key by key by a user's YAML.

The dataclasses below are the one schema: each section's keys and their types,
bounds and choices (as field metadata). configs/default.yaml holds the values
and says what each key means; tests/test_config.py checks the two agree.
"""
from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Union

from .decoders import DecodeError, shown, yaml_load
from .errors import ConfigError, option
from .lexicon import AUTO, LANGUAGE_CODES


def between(lo: float, hi: float) -> dict[str, Any]:
    """Field metadata: the value must lie in [lo, hi] (the bounds as written appear in the error message)."""
    return {"between": (lo, hi)}


def unit() -> dict[str, Any]:
    """Field metadata: a share, cosine or confidence from 0 to 1."""
    return between(0.0, 1.0)


def one_of(*choices: str) -> dict[str, Any]:
    return {"choices": choices}


def language_codes(*, auto: bool) -> dict[str, Any]:
    """Field metadata: ISO 639-1 codes (each item of a list); ``auto`` where detection is an option."""
    return {"language_codes": auto}


_MANY = 1_000_000  # an upper bound for word counts that only has to rule out nonsense


@dataclass(frozen=True)
class WindowConfig:
    size: int = field(metadata=between(8, 100_000))
    overlap: float = field(metadata=between(0.0, 0.9))


@dataclass(frozen=True)
class IndexConfig:
    backend: str = field(metadata=one_of("bm25s", "rank-bm25"))
    k1: float = field(metadata=between(0.0, 10.0))
    b: float = field(metadata=unit())
    top_k: int = field(metadata=between(1, 1000))


@dataclass(frozen=True)
class AlignConfig:
    min_piece_words: int = field(metadata=between(1, 1000))
    max_pieces: int = field(metadata=between(1, 50))
    max_gap_words: int = field(metadata=between(0, _MANY))
    splice_gap_words: int = field(metadata=between(0, _MANY))
    match: int = field(metadata=between(1, 1000))
    mismatch: int = field(metadata=between(0, 1000))
    gap: int = field(metadata=between(0, 1000))
    weak_gap: int = field(metadata=between(0, 1000))
    editorial_max_words: int = field(metadata=between(0, 1000))
    piece_min_score: float = field(metadata=unit())
    piece_density: float = field(metadata=unit())
    claimed_coverage: float = field(metadata=unit())
    near_retry: float = field(metadata=unit())
    passage_share: float = field(metadata=unit())
    workers: int = field(metadata=between(1, 64))


@dataclass(frozen=True)
class VerdictConfig:
    edited_is_verified: bool
    min_coverage: float = field(metadata=unit())
    min_match_ratio: float = field(metadata=unit())
    edited_max_changes: float = field(metadata=unit())
    paraphrase_cosine: float = field(metadata=between(-1.0, 1.0))
    paraphrase_min_coverage: float = field(metadata=unit())
    cosine_min_word_changes: int = field(metadata=between(1, _MANY))
    max_elided_words: int = field(metadata=between(0, _MANY))
    word_min_zipf: float = field(metadata=between(0.0, 8.0))
    bracket_context_words: int = field(metadata=between(0, _MANY))
    function_word_zipf: float = field(metadata=between(0.0, 8.0))
    excerpt_min_words: int = field(metadata=between(1, _MANY))
    turning_reach_words: int = field(metadata=between(0, _MANY))
    false_start_words: int = field(metadata=between(1, _MANY))
    address_words: int = field(metadata=between(1, _MANY))


@dataclass(frozen=True)
class ConfidenceConfig:
    exact: float = field(metadata=unit())
    normalized: float = field(metadata=unit())
    elided: float = field(metadata=unit())
    misattributed: float = field(metadata=unit())
    altered: float = field(metadata=unit())
    spliced: float = field(metadata=unit())
    reordered: float = field(metadata=unit())
    elided_review: float = field(metadata=unit())
    excerpt_review: float = field(metadata=unit())
    uncertain_review: float = field(metadata=unit())
    slight_omission_review: float = field(metadata=unit())
    edited_review: float = field(metadata=unit())
    edited_base: float = field(metadata=unit())
    edited_span: float = field(metadata=unit())
    paraphrase_base: float = field(metadata=unit())
    paraphrase_span: float = field(metadata=unit())
    reworded_base: float = field(metadata=unit())
    reworded_span: float = field(metadata=unit())
    unlocated_max: float = field(metadata=unit())
    review_max: float = field(metadata=unit())
    band_high: float = field(metadata=unit())
    band_medium: float = field(metadata=unit())
    change_high: float = field(metadata=unit())
    change_medium: float = field(metadata=unit())


@dataclass(frozen=True)
class EmbedConfig:
    enabled: bool
    model: str
    batch_size: int = field(metadata=between(1, 4096))
    threads: int = field(metadata=between(1, 256))
    languages: tuple[str, ...] = field(metadata=language_codes(auto=False))


@dataclass(frozen=True)
class LanguageConfig:
    code: str = field(metadata=language_codes(auto=True))
    min_quote_words: int = field(metadata=between(1, 100_000))
    min_confidence: float = field(metadata=unit())
    source_share: float = field(metadata=unit())
    sample_chars: int = field(metadata=between(100, 100_000_000))


@dataclass(frozen=True)
class ColumnsConfig:
    quote: str
    quote_id: str
    document: str
    speaker: str
    finding: str


@dataclass(frozen=True)
class ClusterConfig:
    sharded: bool
    connect_seconds: int = field(metadata=between(1, 3600))
    chunks_per_worker: int = field(metadata=between(1, 1000))
    min_chunk: int = field(metadata=between(1, _MANY))
    gather_chars: int = field(metadata=between(1, 1 << 40))
    gather_rounds: int = field(metadata=between(1, 100))


@dataclass(frozen=True)
class OutputConfig:
    context_chars: int = field(metadata=between(0, 100_000))


@dataclass(frozen=True)
class ExtractConfig:
    min_words: int = field(metadata=between(1, 1000))


@dataclass(frozen=True)
class ManuscriptConfig:
    notes: str = field(metadata=one_of("comment", "footnote", "todo"))
    verified_notes: str = field(metadata=one_of("short", "none"))
    fixes: bool
    author: str


@dataclass(frozen=True)
class LimitsConfig:
    max_unzipped_bytes: int = field(metadata=between(1, 1 << 40))
    max_ratio: float = field(metadata=between(1.0, 1e9))
    max_members: int = field(metadata=between(1, 10_000_000))
    max_columns: int = field(metadata=between(1, 16_384))
    max_shared_strings_bytes: int = field(metadata=between(1, 1 << 40))
    max_document_chars: int = field(metadata=between(1, 1 << 40))
    max_pdf_ratio: float = field(metadata=between(1.0, 1e9))
    max_quotes: int = field(metadata=between(1, 1 << 40))
    max_quote_chars: int = field(metadata=between(1, 1 << 40))


@dataclass(frozen=True)
class StoreConfig:
    busy_seconds: float = field(metadata=between(0.0, 86_400.0))


@dataclass(frozen=True)
class Config:
    """Sections as attributes: ``config.align.gap``; ``as_dict()`` for manifests."""

    window: WindowConfig
    index: IndexConfig
    align: AlignConfig
    verdict: VerdictConfig
    confidence: ConfidenceConfig
    embed: EmbedConfig
    language: LanguageConfig
    columns: ColumnsConfig
    cluster: ClusterConfig
    output: OutputConfig
    extract: ExtractConfig
    manuscript: ManuscriptConfig
    limits: LimitsConfig
    store: StoreConfig

    def as_dict(self) -> dict[str, Any]:
        """Sections as plain dicts of YAML values (a tuple becomes a list), in configs/default.yaml's order."""
        return {name: {key: list(value) if isinstance(value, tuple) else value for key, value in vars(section).items()}
                for name, section in vars(self).items()}


@cache
def sections() -> dict[str, type]:
    """Each section's name and dataclass, in order."""
    return {name: hint for name, hint in typing.get_type_hints(Config).items()}


@cache
def keys(section: type) -> dict[str, tuple[Any, Mapping[str, Any]]]:
    """Each key of a section: its type and metadata (bounds, choices), in order."""
    hints = typing.get_type_hints(section)
    return {f.name: (hints[f.name], f.metadata) for f in dataclasses.fields(section)}


# What a value of each type is called in an error message.
_KINDS = {bool: "true or false", int: "a whole number", float: "a number", str: "a string", tuple: "a list"}


def default_path() -> Path:
    """configs/default.yaml of the source tree, or its copy installed as package data."""
    checkout = Path(__file__).resolve().parents[2] / "configs" / "default.yaml"
    if checkout.is_file():
        return checkout
    return Path(str(resources.files("quoteverify.configs").joinpath("default.yaml")))


def _read_yaml(path: Path) -> dict[str, Any]:
    try:
        data = yaml_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{path}: config file not found; check the path given to "
                          f"{option('--config', 'config=')}") from None
    except IsADirectoryError:
        raise ConfigError(f"{path}: is a folder; give {option('--config', 'config=')} a YAML file") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not UTF-8 text (byte {exc.start}); save it as UTF-8") from None
    except DecodeError as exc:
        raise ConfigError(f"{path}: not valid YAML ({exc}); fix the syntax") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping of sections (window:, index:, ...) at the top level")
    return data


def _merge(values: dict[str, dict[str, Any]], override: Mapping[str, Any], source: str) -> None:
    """Check ``override`` against the schema and write its values into ``values``."""
    schema = sections()
    for name, section in override.items():
        if name not in schema:
            raise ConfigError(f"{source}: unknown key {shown(name)}; known keys here: {', '.join(sorted(schema))}")
        if not isinstance(section, dict):
            raise ConfigError(f"{source}: '{name}' must be a section (a mapping), got {shown(section)}")
        known = keys(schema[name])
        for key, value in section.items():
            if key not in known:
                raise ConfigError(f"{source}: unknown key {shown(f'{name}.{key}')}; known keys here: "
                                  f"{', '.join(sorted(known))}")
            kind, metadata = known[key]
            values.setdefault(name, {})[key] = _check(f"{name}.{key}", kind, metadata, value, source)


def _check(name: str, kind: Any, metadata: Mapping[str, Any], value: Any, source: str) -> Any:
    base = typing.get_origin(kind) or kind
    if base is bool:
        ok = isinstance(value, bool)
    elif base is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif base is float:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        value = float(value) if ok else value
    elif base is tuple:
        ok = isinstance(value, (list, tuple))
        value = tuple(value) if ok else value
    else:
        ok = isinstance(value, base)
    if not ok:
        raise ConfigError(f"{source}: '{name}' must be {_KINDS.get(base, f'a {base.__name__}')}, got {shown(value)}")
    if "between" in metadata:
        lo, hi = metadata["between"]
        if not lo <= value <= hi:
            raise ConfigError(f"{source}: '{name}' is {shown(value)}; it must be between {lo} and {hi}")
    if "choices" in metadata and value not in metadata["choices"]:
        raise ConfigError(f"{source}: '{name}' is {shown(value)}; choose one of {', '.join(metadata['choices'])}")
    if "language_codes" in metadata:
        _check_languages(name, value, source, auto=metadata["language_codes"])
    return value


def _check_languages(name: str, value: Any, source: str, *, auto: bool) -> None:
    for code in value if isinstance(value, tuple) else [value]:
        if not (isinstance(code, str) and (code in LANGUAGE_CODES or (auto and code == AUTO))):
            kind = "auto or an ISO 639-1 code" if auto else "ISO 639-1 codes"
            raise ConfigError(f"{source}: '{name}' has {shown(code)}; use {kind} such as de, fr, en (lower case)")


def _defaults() -> dict[str, dict[str, Any]]:
    """configs/default.yaml, checked against the schema like any user's file, and complete."""
    path = default_path()
    values: dict[str, dict[str, Any]] = {}
    _merge(values, _read_yaml(path), str(path))
    for name, section in sections().items():
        missing = [key for key in keys(section) if key not in values.get(name, {})]
        if missing:
            raise ConfigError(f"{path}: '{name}.{missing[0]}' has no default; add it to the file")
    return values


def load_config(path: str | Path | None = None, overrides: Mapping[str, Any] | None = None) -> Config:
    """The default config, overridden by the YAML at ``path`` and then ``overrides``."""
    data = _defaults()
    if path is not None:
        _merge(data, _read_yaml(Path(path)), str(path))
    if overrides:
        _merge(data, overrides, "config")
    return Config(**{name: section(**data[name]) for name, section in sections().items()})


def recorded_config(values: Any, source: str = "config") -> dict[str, dict[str, Any]]:
    """A config as a manifest or the audit store recorded it, as plain sections: each setting this version
    knows checked for its type and bounds, each missing taken from the defaults (an older version's record),
    each this version does not know kept as it was recorded."""
    if not isinstance(values, dict):
        raise ConfigError(f"{source} must be a mapping of sections, not {shown(values)}")
    checked = _defaults()
    schema = sections()
    for name, section in values.items():
        if not isinstance(section, dict):
            raise ConfigError(f"{source}: '{name}' must be a section (a mapping), got {shown(section)}")
        known = keys(schema[name]) if name in schema else {}
        for key, value in section.items():
            if key in known:
                value = _check(f"{name}.{key}", *known[key], value, source)
            checked.setdefault(name, {})[key] = list(value) if isinstance(value, tuple) else value
    for name in schema:
        checked[name] = {k: list(v) if isinstance(v, tuple) else v for k, v in checked[name].items()}
    return checked


# A config as the public functions take it: a Config, a mapping of overrides such as {"embed": {"enabled": False}},
# a YAML file's path, or None for configs/default.yaml.
ConfigGiven = Union["Config", Mapping[str, object], str, Path, None]


def as_config(config: ConfigGiven) -> Config:
    """Accept a Config, a mapping of overrides, a YAML path or None (defaults)."""
    if isinstance(config, Config):
        return config
    if config is None:
        return load_config()
    if isinstance(config, Mapping):
        return load_config(overrides=config)
    return load_config(config)
