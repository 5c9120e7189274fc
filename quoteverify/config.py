"""Configuration: configs/default.yaml, overridden key by key by a user's YAML."""
from __future__ import annotations

import copy
from importlib import resources
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Mapping

import yaml

from .errors import ConfigError

# Bounds a value must respect, beyond having the default's type.
_RANGES: dict[str, tuple[float, float]] = {
    "window.size": (8, 100_000),
    "window.overlap": (0.0, 0.9),
    "index.k1": (0.0, 10.0),
    "index.b": (0.0, 1.0),
    "index.top_k": (1, 1000),
    "align.min_piece_words": (1, 1000),
    "align.max_pieces": (1, 50),
    "align.max_gap_words": (0, 1_000_000),
    "align.splice_gap_words": (0, 1_000_000),
    "align.match": (1, 1000),
    "align.mismatch": (0, 1000),
    "align.gap": (0, 1000),
    "align.weak_gap": (0, 1000),
    "align.workers": (1, 64),
    "verdict.min_coverage": (0.0, 1.0),
    "verdict.min_match_ratio": (0.0, 1.0),
    "verdict.edited_max_changes": (0.0, 1.0),
    "verdict.paraphrase_cosine": (-1.0, 1.0),
    "verdict.paraphrase_min_coverage": (0.0, 1.0),
    "verdict.max_elided_words": (0, 1_000_000),
    "verdict.word_min_zipf": (0.0, 8.0),
    "verdict.bracket_context_words": (0, 1_000_000),
    "verdict.function_word_zipf": (0.0, 8.0),
    "verdict.cosine_min_word_changes": (1, 1_000_000),
    **{f"confidence.{k}": (0.0, 1.0) for k in (
        "exact", "normalized", "elided", "misattributed", "altered", "spliced", "reordered", "elided_review",
        "edited_review", "edited_base", "edited_span", "paraphrase_base", "paraphrase_span", "reworded_base",
        "reworded_span", "unlocated_max", "review_max", "band_high", "band_medium")},
    "embed.batch_size": (1, 4096),
    "embed.threads": (1, 256),
    "output.context_chars": (0, 100_000),
    "cluster.connect_seconds": (1, 3600),
    "cluster.chunks_per_worker": (1, 1000),
    "cluster.min_chunk": (1, 1_000_000),
    "extract.min_words": (1, 1000),  # quoteverify extract: shortest untagged quoted phrase kept
    "language.min_quote_words": (1, 100_000),
    "language.min_confidence": (0.0, 1.0),
    "language.sample_chars": (100, 100_000_000),
    "limits.max_unzipped_bytes": (1, 1 << 40),
    "limits.max_ratio": (1.0, 1e9),
    "limits.max_members": (1, 10_000_000),
    "limits.max_columns": (1, 16_384),
    "limits.max_shared_strings_bytes": (1, 1 << 40),
    "store.busy_seconds": (0.0, 86_400.0),
}
_CHOICES: dict[str, tuple[str, ...]] = {"index.backend": ("bm25s", "rank-bm25")}
# Values (or list items) that must be language codes; "auto" only where detection is an option.
_LANGUAGE_CODES = {"language.code": True, "embed.languages": False}
# What a value of each default's type is called in an error message.
_KINDS = {"bool": "true or false", "int": "a whole number", "float": "a number", "str": "a string"}


def default_path() -> Path:
    """configs/default.yaml of the source tree, or its copy installed as package data."""
    checkout = Path(__file__).resolve().parent.parent / "configs" / "default.yaml"
    if checkout.is_file():
        return checkout
    return Path(str(resources.files("quoteverify.configs").joinpath("default.yaml")))


def _read_yaml(path: Path) -> dict[str, Any]:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{path}: config file not found; check the path given to --config") from None
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        reason = str(exc).splitlines()[0]
        raise ConfigError(f"{path}: not valid YAML ({reason}); fix the syntax") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping of sections (window:, index:, ...) at the top level")
    return data


def _merge(base: dict[str, Any], override: Mapping[str, Any], source: str, prefix: str = "") -> None:
    for key, value in override.items():
        name = f"{prefix}{key}"
        if key not in base:
            known = ", ".join(sorted(base))
            raise ConfigError(f"{source}: unknown key '{name}'; known keys here: {known}")
        default = base[key]
        if isinstance(default, dict):
            if not isinstance(value, dict):
                raise ConfigError(f"{source}: '{name}' must be a section (a mapping), got {value!r}")
            _merge(default, value, source, f"{name}.")
            continue
        base[key] = _check(name, default, value, source)


def _check(name: str, default: Any, value: Any, source: str) -> Any:
    if isinstance(default, bool):
        ok = isinstance(value, bool)
    elif isinstance(default, int):
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif isinstance(default, float):
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        value = float(value) if ok else value
    else:
        ok = isinstance(value, type(default))
    if not ok:
        kind = _KINDS.get(type(default).__name__, f"a {type(default).__name__}")
        raise ConfigError(f"{source}: '{name}' must be {kind}, got {value!r}")
    if name in _RANGES:
        lo, hi = _RANGES[name]
        if not lo <= value <= hi:
            raise ConfigError(f"{source}: '{name}' is {value!r}; it must be between {lo} and {hi}")
    if name in _CHOICES and value not in _CHOICES[name]:
        raise ConfigError(f"{source}: '{name}' is {value!r}; choose one of {', '.join(_CHOICES[name])}")
    if name in _LANGUAGE_CODES:
        _check_languages(name, value, source, auto=_LANGUAGE_CODES[name])
    return value


def _check_languages(name: str, value: Any, source: str, *, auto: bool) -> None:
    from .language import AUTO, known_codes

    for code in value if isinstance(value, list) else [value]:
        if not (isinstance(code, str) and (code in known_codes() or (auto and code == AUTO))):
            kind = "auto or an ISO 639-1 code" if auto else "ISO 639-1 codes"
            raise ConfigError(f"{source}: '{name}' has {code!r}; use {kind} such as de, fr, en (lower case)")


class Config(SimpleNamespace):
    """Sections as attributes: ``config.align.gap``; ``as_dict()`` for manifests."""

    def as_dict(self) -> dict[str, Any]:
        return {name: dict(vars(section)) for name, section in vars(self).items()}


def load_config(path: str | Path | None = None, overrides: Mapping[str, Any] | None = None) -> Config:
    """The default config, overridden by the YAML at ``path`` and then ``overrides``."""
    data = copy.deepcopy(_read_yaml(default_path()))
    if path is not None:
        _merge(data, _read_yaml(Path(path)), str(path))
    if overrides:
        _merge(data, overrides, "config")
    return Config(**{name: SimpleNamespace(**section) for name, section in data.items()})


def as_config(config: Config | Mapping[str, Any] | str | Path | None) -> Config:
    """Accept a Config, a mapping of overrides, a YAML path or None (defaults)."""
    if isinstance(config, Config):
        return config
    if config is None:
        return load_config()
    if isinstance(config, Mapping):
        return load_config(overrides=config)
    return load_config(config)
