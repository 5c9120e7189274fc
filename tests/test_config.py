"""Configuration: defaults, key-by-key overrides, and errors that say what to fix."""
from __future__ import annotations

import dataclasses
import re
import typing
from pathlib import Path

import pytest
import yaml

from quoteverify.model.config import Config, as_config, default_path, keys, load_config, sections
from quoteverify.model.errors import ConfigError


def test_defaults_load() -> None:
    config = load_config()
    assert isinstance(config, Config)
    assert config.window.size == 64
    assert config.align.max_gap_words == 400
    assert config.verdict.edited_is_verified is True
    assert config.embed.model == "all-MiniLM-L6-v2"
    assert set(config.as_dict()) == {"window", "index", "align", "verdict", "confidence", "embed", "output", "extract",
                                     "manuscript",
                                     "language", "columns", "limits", "store", "cluster"}


def test_defaults_are_the_yaml_file() -> None:
    with open(default_path(), encoding="utf-8") as handle:
        assert load_config().as_dict() == yaml.safe_load(handle)


def test_override_key_by_key(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text("align:\n  max_gap_words: 50\nverdict:\n  edited_is_verified: false\n", encoding="utf-8")
    config = load_config(path)
    assert config.align.max_gap_words == 50
    assert config.verdict.edited_is_verified is False
    defaults = load_config().as_dict()
    mine = config.as_dict()
    mine["align"]["max_gap_words"] = defaults["align"]["max_gap_words"]
    mine["verdict"]["edited_is_verified"] = defaults["verdict"]["edited_is_verified"]
    assert mine == defaults  # nothing else moved


def test_file_then_overrides(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text("window:\n  size: 32\n  overlap: 0.5\n", encoding="utf-8")
    config = load_config(path, {"window": {"size": 128}})
    assert (config.window.size, config.window.overlap) == (128, 0.5)


def test_an_int_is_a_fine_float() -> None:
    config = load_config(overrides={"verdict": {"min_coverage": 1}})
    assert config.verdict.min_coverage == 1.0 and isinstance(config.verdict.min_coverage, float)


def test_empty_file_means_defaults(tmp_path: Path) -> None:
    path = tmp_path / "empty.yaml"
    path.write_text("# nothing to change\n", encoding="utf-8")
    assert load_config(path).as_dict() == load_config().as_dict()


def test_as_config_accepts_every_form(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text("index:\n  top_k: 3\n", encoding="utf-8")
    assert as_config(None).index.top_k == 6
    assert as_config({"index": {"top_k": 2}}).index.top_k == 2
    assert as_config(path).index.top_k == 3
    assert as_config(str(path)).index.top_k == 3
    config = load_config()
    assert as_config(config) is config


@pytest.mark.parametrize(("overrides", "message"), [
    ({"window": {"sise": 32}}, "config: unknown key 'window.sise'; known keys here: overlap, size"),
    ({"windows": {"size": 32}},
     "config: unknown key 'windows'; known keys here: align, cluster, columns, confidence, embed, extract, index, "
     "language, limits, manuscript, output, store, verdict, window"),
    ({"window": 32}, "config: 'window' must be a section (a mapping), got 32"),
    ({"window": {"size": "big"}}, "config: 'window.size' must be a whole number, got 'big'"),
    ({"window": {"size": True}}, "config: 'window.size' must be a whole number, got True"),
    ({"index": {"top_k": 2.5}}, "config: 'index.top_k' must be a whole number, got 2.5"),
    ({"window": {"overlap": "30%"}}, "config: 'window.overlap' must be a number, got '30%'"),
    ({"verdict": {"edited_is_verified": "yes"}}, "config: 'verdict.edited_is_verified' must be true or false, got 'yes'"),
    ({"embed": {"model": 5}}, "config: 'embed.model' must be a string, got 5"),
    ({"window": {"size": 4}}, "config: 'window.size' is 4; it must be between 8 and 100000"),
    ({"window": {"overlap": 1.5}}, "config: 'window.overlap' is 1.5; it must be between 0.0 and 0.9"),
    ({"verdict": {"paraphrase_cosine": -2}}, "config: 'verdict.paraphrase_cosine' is -2.0; it must be between -1.0 and 1.0"),
    ({"align": {"max_pieces": 0}}, "config: 'align.max_pieces' is 0; it must be between 1 and 50"),
    ({"index": {"backend": "lucene"}}, "config: 'index.backend' is 'lucene'; choose one of bm25s, rank-bm25"),
    ({"language": {"code": "German"}},
     "config: 'language.code' has 'German'; use auto or an ISO 639-1 code such as de, fr, en (lower case)"),
    ({"language": {"code": "xx"}},
     "config: 'language.code' has 'xx'; use auto or an ISO 639-1 code such as de, fr, en (lower case)"),
    ({"embed": {"languages": ["en", "auto"]}},
     "config: 'embed.languages' has 'auto'; use ISO 639-1 codes such as de, fr, en (lower case)"),
    ({"embed": {"languages": "en"}}, "config: 'embed.languages' must be a list, got 'en'"),
    ({"language": {"min_confidence": 2}}, "config: 'language.min_confidence' is 2.0; it must be between 0.0 and 1.0"),
])
def test_bad_overrides(overrides: dict, message: str) -> None:
    with pytest.raises(ConfigError) as error:
        load_config(overrides=overrides)
    assert str(error.value) == message


def _numeric_keys() -> list[tuple[str, str]]:
    with open(default_path(), encoding="utf-8") as handle:
        data = yaml.safe_load(handle)
    return [(section, key) for section, values in data.items() for key, value in values.items()
            if isinstance(value, (int, float)) and not isinstance(value, bool)]


@pytest.mark.parametrize(("section", "key"), _numeric_keys())
def test_every_threshold_is_bounded(section: str, key: str) -> None:
    with pytest.raises(ConfigError, match="it must be between"):
        load_config(overrides={section: {key: -10**9}})


def test_errors_in_a_file_name_the_file(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text("align:\n  max_gap_word: 50\n", encoding="utf-8")
    with pytest.raises(ConfigError) as error:
        load_config(path)
    assert str(error.value) == (f"{path}: unknown key 'align.max_gap_word'; known keys here: claimed_coverage, "
                                "editorial_max_words, gap, match, max_gap_words, max_pieces, min_piece_words, mismatch, "
                                "near_retry, passage_share, piece_density, piece_min_score, splice_gap_words, weak_gap, "
                                "workers")


@pytest.mark.parametrize(("content", "message"), [
    ("- window\n- index\n", "{path}: expected a mapping of sections (window:, index:, ...) at the top level"),
    ("window: [unclosed\n", "{path}: not valid YAML (line 2, column 1: expected ',' or ']', but got '<stream "
                            "end>'); fix the syntax"),
])
def test_bad_files(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ConfigError) as error:
        load_config(path)
    assert str(error.value) == message.format(path=path)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as error:
        load_config(tmp_path / "nope.yaml")
    # From Python: the path given as config=; the command line names --config (tests/test_cli.py).
    assert str(error.value) == f"{tmp_path / 'nope.yaml'}: config file not found; check the path given to config="


def test_columns_block_names_strings_only() -> None:
    assert vars(load_config().columns) == {"quote": "", "quote_id": "", "document": "", "speaker": "", "finding": ""}
    assert load_config(overrides={"columns": {"quote": "Passage"}}).columns.quote == "Passage"
    with pytest.raises(ConfigError) as error:
        load_config(overrides={"columns": {"speeker": "P"}})
    assert str(error.value) == "config: unknown key 'columns.speeker'; known keys here: document, finding, quote, quote_id, speaker"


# The dataclasses in config.py are the one schema; the YAML, its comments and the README are checked against them.

def _yaml_type(kind: object) -> type:
    """The type a YAML value of a field of type ``kind`` has (a tuple field is written as a list)."""
    base = typing.get_origin(kind) or kind
    return list if base is tuple else base  # type: ignore[return-value]


def test_yaml_keys_and_types_are_the_schema() -> None:
    with open(default_path(), encoding="utf-8") as handle:
        data = yaml.safe_load(handle)
    assert list(data) == list(sections())
    for name, section in sections().items():
        assert list(data[name]) == list(keys(section)), name
        for key, (kind, _) in keys(section).items():
            assert type(data[name][key]) is _yaml_type(kind), f"{name}.{key}"


def test_every_yaml_key_has_a_comment() -> None:
    uncommented = [line.strip() for line in default_path().read_text(encoding="utf-8").splitlines()
                   if re.match(r"  \w+:", line) and "#" not in line]
    assert uncommented == []


def test_schema_metadata_fits_its_type() -> None:
    for name, section in sections().items():
        for key, (kind, metadata) in keys(section).items():
            if "between" in metadata:
                assert kind in (int, float), f"{name}.{key}"
                lo, hi = metadata["between"]
                assert lo < hi and all(type(bound) is kind for bound in (lo, hi)), f"{name}.{key}"
            if "choices" in metadata:
                assert kind is str and load_config().as_dict()[name][key] in metadata["choices"]


def test_readme_names_only_real_keys() -> None:
    """The README and docs/*.md name only config keys that exist."""
    root = Path(__file__).resolve().parent.parent
    readme = "\n".join(p.read_text(encoding="utf-8") for p in [root / "README.md", *sorted(root.glob("docs/*.md"))])
    named = set(re.findall(r"`(\w+)\.(\w+)`", readme)) | set(re.findall(r"\((\w+)\.(\w+) in --config\)", readme))
    schema = {(name, key) for name, section in sections().items() for key in keys(section)}
    config_like = {(name, key) for name, key in named if name in sections()}
    assert config_like and config_like <= schema, sorted(config_like - schema)


def test_a_default_file_missing_a_key_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    broken = tmp_path / "default.yaml"
    broken.write_text(default_path().read_text(encoding="utf-8").replace("  top_k: 6", "  #top_k: 6"),
                      encoding="utf-8")
    monkeypatch.setattr("quoteverify.model.config.default_path", lambda: broken)
    with pytest.raises(ConfigError) as error:
        load_config()
    assert str(error.value) == f"{broken}: 'index.top_k' has no default; add it to the file"


def test_sections_are_frozen() -> None:
    config = load_config()
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.window.size = 3  # type: ignore[misc]
    assert config.embed.languages == ("en",) and config.as_dict()["embed"]["languages"] == ["en"]


def test_band_edges_are_the_configs() -> None:
    from quoteverify.app.store import RECHECK_BELOW
    from quoteverify.model.types import BAND_HIGH, BAND_MEDIUM

    confidence = load_config().confidence
    assert (confidence.band_high, confidence.band_medium) == (BAND_HIGH, BAND_MEDIUM)
    assert RECHECK_BELOW == BAND_MEDIUM
