"""Language detection (quoteverify.sources.language) and where the language of a quote is recorded."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import quoteverify
from quoteverify.app.repeat import build_manifest
from quoteverify.cli import main
from quoteverify.export.appendix import render_appendix
from quoteverify.model.config import load_config
from quoteverify.model.types import Document, Quote
from quoteverify.sources.language import (
    cosine_applies,
    detect,
    detect_quote_languages,
    document_language,
    document_languages,
    known_codes,
    quote_language,
    with_languages,
)

NO_EMBED = {"embed": {"enabled": False}}

# Turns copied from the multilingual benchmark's transcripts, and two languages no lexicon has.
DOCS = {
    "de_sitzung": "Präsidentin Doris Bures:\nDas kann nicht funktionieren! Es funktioniert nirgendwo. Wenn Sie die "
                  "Menschen nicht mitnehmen, dann wird die Begeisterung eine enden wollende sein. Das ist vollkommen "
                  "klar. Schauen Sie sich Beispiele an, wo entsprechende Projekte funktioniert haben!\n",
    "fr_seance": "Mme Marie-George Buffet:\nMais cela ne fait pas une politique ! Ce n'est pas l'aumône que vous "
                 "proposez pour une année qui réglera la question de façon pérenne. Le plafond effectivement "
                 "disponible pour 2013 ne sera plus de 18 000 euros, mais, au mieux, de 8 000 ou 10 000 euros.\n",
    "hu_interju": "Kérdező:\nHogyan emlékszik vissza az első évére a kórházban?\nNővér:\nNagyon nehéz volt, mert "
                  "kevés volt az ápoló, és a vezetőség egyáltalán nem támogatott minket. Éjszakánként gyakran "
                  "egyedül voltam az osztályon, harminc beteggel.\n",
    "ja_interview": "質問者:\n病院での最初の一年はどうでしたか。\n看護師:\nとても大変でした。看護師が少なく、"
                    "管理職はまったく支援してくれませんでした。夜勤ではよく一人で病棟を担当していました。\n",
}


@pytest.mark.parametrize("text, code", [
    (DOCS["de_sitzung"], "de"), (DOCS["fr_seance"], "fr"), (DOCS["hu_interju"], "hu"), (DOCS["ja_interview"], "ja"),
    ("Es un acuerdo que, como los grandes acuerdos, no acaba cuando se firma.", "es"),
    ("Ikzelf vind het debat een beetje prematuur, maar ik ben in dezen ook niet echt de woordvoerder.", "nl"),
    ("O Presidente nunca pediu que fizesse campanha sobre nenhum tipo de nenhum tema, jamais.", "pt"),
    ("Non ho mai detto che il governo ci abbia aiutato in questi anni difficili.", "it"),
    ("It was not easy, and management did not support us at all.", "en"),
    ("12 000 – 45 000 (…)", None), ("", None),
])
def test_detect_names_the_language(text: str, code: str | None) -> None:
    assert detect(text) == code


def test_a_short_or_unclear_quote_takes_its_documents_language() -> None:
    assert quote_language("Das ist so.", min_words=8, min_confidence=0.9) == ""
    long = "Wenn Sie die Menschen nicht mitnehmen, dann wird die Begeisterung eine enden wollende sein."
    assert quote_language(long, min_words=8, min_confidence=0.9) == "de"
    assert quote_language(long, min_words=30, min_confidence=0.9) == ""
    # pt047 of the benchmark: Portuguese that the detector takes for Italian, but not surely.
    unsure = "A República recende o que ocorreu em 1964 e nós não podemos esquecer."
    assert detect(unsure, min_confidence=1.0) is None


def test_with_languages_given_forced_or_detected() -> None:
    docs = [Document("a", "", DOCS["de_sitzung"], "x"), Document("b", "", DOCS["fr_seance"], "y", language="it")]
    quotes = [Quote(1, "q1", "Das kann nicht funktionieren!"),
              Quote(2, "q2", "Nagyon nehéz volt, mert kevés volt az ápoló, és a vezetőség nem támogatott minket."),
              Quote(3, "q3", "Das kann nicht funktionieren!", language=" FR "),
              Quote(4, "q4", "Das kann nicht funktionieren!", language="German")]
    auto = load_config().language
    docs_out, quotes_out, own = with_languages(docs, quotes, auto)
    assert [d.language for d in docs_out] == ["de", "it"]  # a language given with the document is kept
    assert own == ["", "", "fr", ""]
    detect_quote_languages(docs_out, quotes_out, own, range(len(quotes)), auto)
    assert own == ["", "hu", "fr", ""]  # too short to tell, Hungarian, given, not a code (then its document's)
    assert quotes_out[:3] == quotes[:3]  # the quotes as given, for the audit store to check them again
    assert quotes_out[3].notes == ("language 'German' is not an ISO 639-1 code such as de or fr; detected instead",)
    forced = load_config(overrides={"language": {"code": "nl"}}).language
    docs_out, quotes_out, own = with_languages(docs, quotes, forced)
    assert [d.language for d in docs_out] == ["nl", "it"]
    assert own == ["nl", "nl", "fr", "nl"]
    detect_quote_languages(docs_out, quotes_out, own, range(len(quotes)), forced)
    assert own == ["nl", "nl", "fr", "nl"]
    assert quotes_out[3].notes == ("language 'German' is not an ISO 639-1 code such as de or fr; checked as nl",)


def test_documents_detected_together_as_one_by_one() -> None:
    texts = [*DOCS.values(), "", "12 - 34 - 56", "Das kann nicht \udcff funktionieren, wenn Sie nicht mitnehmen."]
    assert document_languages(texts, sample_chars=1000) == [document_language(t, sample_chars=1000) for t in texts]
    assert document_languages(texts, sample_chars=1000)[:4] == ["de", "fr", "hu", "ja"]


def test_a_cache_remembers_the_languages_detected(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sqlite3

    from quoteverify.plumbing.cache import Cache
    from quoteverify.sources import language

    texts = list(DOCS.values())
    asked: list[int] = []
    detect_many = language._detect_many
    monkeypatch.setattr(language, "_detect_many", lambda batch: (asked.append(len(batch)), detect_many(batch))[1])
    first = document_languages(texts, sample_chars=1000, cache=Cache(tmp_path))
    again = document_languages(texts, sample_chars=1000, cache=Cache(tmp_path))
    assert first == again == ["de", "fr", "hu", "ja"]
    assert asked == [4, 0]  # the second run detected nothing
    # A row that does not match its checksum is never believed: detected again, and rewritten.
    with sqlite3.connect(tmp_path / "embeddings.sqlite") as db:
        db.execute("UPDATE languages SET code = 'en' WHERE code = 'hu'")
    cache = Cache(tmp_path)
    assert document_languages(texts, sample_chars=1000, cache=cache) == first
    assert asked == [4, 0, 1]
    assert document_languages(texts, sample_chars=1000, cache=Cache(tmp_path)) == first
    assert asked == [4, 0, 1, 0]
    # Another sample of a text is another question (the Japanese text is shorter than 100 characters: the same).
    assert document_languages(texts, sample_chars=100, cache=Cache(tmp_path)) == first
    assert asked == [4, 0, 1, 0, sum(len(t) > 100 for t in texts)] == [4, 0, 1, 0, 3]


def test_cosine_applies_only_to_the_models_languages() -> None:
    config = load_config()
    assert cosine_applies("en", config)
    assert not cosine_applies("de", config)
    assert not cosine_applies("", config) and not cosine_applies(None, config)
    multilingual = load_config(overrides={"embed": {"languages": ["en", "de", "fr"]}})
    assert cosine_applies("de", multilingual) and not cosine_applies("hu", multilingual)


def test_known_codes() -> None:
    assert {"en", "de", "fr", "es", "it", "pt", "nl", "hu", "ja"} <= known_codes()
    assert "xx" not in known_codes()


def test_known_codes_are_the_detectors() -> None:
    # The codes are data on the model floor, so the config checks a language without loading lingua.
    from lingua import Language

    assert known_codes() == {lang.iso_code_639_1.name.lower() for lang in Language.all()}


@pytest.fixture()
def docs_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    for name, text in DOCS.items():
        (folder / f"{name}.txt").write_text(text, encoding="utf-8")
    return folder


QUOTES = [
    {"quote_id": "de", "quote": "Das kann nicht funktionieren!"},
    {"quote_id": "fr", "quote": "Ce n'est pas l'aumône que vous proposez pour une année qui réglera la question"},
    {"quote_id": "hu", "quote": "Nagyon nehéz volt, mert kevés volt az ápoló"},
    {"quote_id": "ja", "quote": "とても大変でした。"},
    {"quote_id": "given", "quote": "Das kann nicht funktionieren!", "language": "DE"},
    {"quote_id": "lost", "quote": "Ein Satz, den es nirgends gibt.", "document": "fr_seance"},
    {"quote_id": "empty", "quote": "", "document": "fr_seance"},
]


def test_every_result_records_its_language(docs_dir: Path) -> None:
    run = quoteverify.run(docs_dir, QUOTES, NO_EMBED)
    assert {d.doc_id: d.language for d in run.documents} == {
        "de_sitzung": "de", "fr_seance": "fr", "hu_interju": "hu", "ja_interview": "ja"}
    assert [(r.quote_id, r.language) for r in run.results] == [
        ("de", "de"), ("fr", "fr"), ("hu", "hu"), ("ja", "ja"), ("given", "de"),
        ("lost", "de"),  # not located, and too short to tell: the language of the closest passage
        ("empty", "fr")]  # not searched: the claimed document's language


def test_manifest_and_appendix_name_the_languages(docs_dir: Path) -> None:
    run = quoteverify.run(docs_dir, QUOTES, NO_EMBED)
    manifest = build_manifest(run)
    data = manifest.to_dict()
    assert [d["language"] for d in data["inputs"]["documents"]] == ["de", "fr", "hu", "ja"]
    assert data["languages"] == {
        "de": {"documents": 1, "quotes": 3, "lexicon": True}, "fr": {"documents": 1, "quotes": 2, "lexicon": True},
        "hu": {"documents": 1, "quotes": 1, "lexicon": False}, "ja": {"documents": 1, "quotes": 1, "lexicon": False}}
    text = render_appendix(run.results, manifest)
    assert ("Languages: 1 document and 3 quotes in de; 1 document and 2 quotes in fr; 1 document and 1 quote in hu; "
            "1 document and 1 quote in ja. ") in text
    assert "came from quoteverify's lexicons for de, fr. " in text
    assert ("Quotes in hu, ja had no lexicon and were checked conservatively: no elision, editorial bracket or "
            "slip counted as benign for them.") in text


def _verify(*args: object) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["verify", *map(str, args), "--no-embed", "--no-cache"])
    return result.exit_code, result.output


def test_cli_language_option_and_column(tmp_path: Path, docs_dir: Path) -> None:
    quotes = tmp_path / "quotes.csv"
    quotes.write_text("quote_id,quote,lang\nq1,Das kann nicht funktionieren!,\nq2,Das ist vollkommen klar.,es\n",
                      encoding="utf-8")
    out = tmp_path / "results.jsonl"
    code, output = _verify(docs_dir, quotes, "-o", out)
    assert code == 0, output
    assert [json.loads(line)["language"] for line in out.read_text("utf-8").splitlines()] == ["de", "es"]
    code, output = _verify(docs_dir, quotes, "-o", out, "--language", "NL")
    assert code == 0, output
    assert [json.loads(line)["language"] for line in out.read_text("utf-8").splitlines()] == ["nl", "es"]
    csv_out = tmp_path / "results.csv"
    assert _verify(docs_dir, quotes, "-o", csv_out)[0] == 0
    header = csv_out.read_text("utf-8").splitlines()[0].split(",")
    assert header[header.index("timestamp") + 1] == "language"


@pytest.mark.parametrize("value", ["German", "xx", "de-AT"])
def test_cli_rejects_a_language_that_is_no_code(tmp_path: Path, docs_dir: Path, value: str) -> None:
    quotes = tmp_path / "quotes.csv"
    quotes.write_text("quote\nDas kann nicht funktionieren!\n", encoding="utf-8")
    code, output = _verify(docs_dir, quotes, "--language", value)
    assert code == 2
    assert output == (f"Error: --language {value!r} is not a language code; give auto or an ISO 639-1 code such "
                      "as de, fr, en\n")


def test_detection_is_lazy_and_light() -> None:
    # lingua is imported on the first detection, and low-accuracy mode loads little.
    code = ("import sys, resource, quoteverify, quoteverify.cli\n"
            "assert 'lingua' not in sys.modules\n"
            "from quoteverify.sources.language import detect\n"
            "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
            "assert detect('Das kann nicht funktionieren, wenn Sie die Menschen nicht mitnehmen.') == 'de'\n"
            "grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024\n"
            "assert grown < 300, f'{grown:.0f} MB'\n")
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent.parent))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr


INTERVIEWS = {
    "de_int": "Interviewer: Wie war es?\nP1: Die Leitung hat uns überhaupt nicht unterstützt. Ehrlich gesagt war es "
              "nicht einfach, und wir hatten kaum Personal.\n",
    "fr_int": "Intervieweur : Comment était-ce ?\nP2 : Je ne pense pas que la direction nous ait aidés. Nous n’avions "
              "jamais assez de personnel, surtout la nuit.\n",
    "hu_int": "Kérdező: Milyen volt?\nP3: Nagyon nehéz volt, mert kevés volt az ápoló, és a vezetőség egyáltalán nem "
              "támogatott minket.\n",
    "it_int": "Intervistatore: Com'era?\nP4: La direzione non ci ha mai aiutato. Eravamo sempre in pochi, soprattutto "
              "di notte.\n",
}


@pytest.mark.parametrize("quote, language, status, reasons", [
    # The issue's examples: each was verified before the languages had lexicons.
    ("Die Leitung hat uns … unterstützt.", "de", "review",
     ["ellipsis leaves out 'überhaupt nicht', which holds 'nicht', 'überhaupt'"]),
    ("ehrlich gesagt war es … einfach", "de", "review", ["ellipsis leaves out 'nicht', which holds 'nicht'"]),
    ("Je … pense … que la direction nous ait aidés.", "fr", "review",
     ["ellipsis leaves out 'ne', which holds 'ne'", "ellipsis leaves out 'pas', which holds 'pas'"]),
    ("Nous n'avions … assez de personnel", "fr", "review", ["ellipsis leaves out 'jamais', which holds 'jamais'"]),
    ("La direzione … ci ha mai aiutato.", "it", "review", ["ellipsis leaves out 'non', which holds 'non'"]),
    ("Eravamo sempre in pochi, … di notte.", "it", "review",
     ["ellipsis leaves out 'soprattutto', which holds 'soprattutto'"]),
    ("Nous n’avions jamais assez de personnel, surtout la nuit.", "fr", "verified", []),
    # No lexicon for Hungarian: an ellipsis is never benign, a verbatim quote still verifies.
    ("Nagyon nehéz volt, mert kevés volt az ápoló, és a vezetőség … támogatott minket.", "hu", "review",
     ["ellipsis inside a sentence: the language (hu) has no lexicon to check what it leaves out: "
      "'egyáltalán nem'"]),
    ("Nagyon nehéz volt, mert kevés volt az ápoló, és a vezetőség egyáltalán nem támogatott minket.", "hu",
     "verified", []),
])
def test_the_quotes_language_picks_the_lexicon(quote: str, language: str, status: str, reasons: list) -> None:
    (result,) = quoteverify.verify(INTERVIEWS, [quote], NO_EMBED)
    assert (result.language, result.status, result.reasons) == (language, status, reasons)


_WORD = st.text(alphabet="abcdefghijklmnoprstuvzáéíóöőúüű", min_size=4, max_size=9)


@settings(max_examples=40, deadline=None)
@given(words=st.lists(_WORD, min_size=10, max_size=16, unique=True), data=st.data())
def test_without_a_lexicon_no_elision_bracket_or_slip_is_verified(words: list[str], data: st.DataObject) -> None:
    document = {"hu_int": "P3: " + " ".join(words) + ".\n"}
    n = len(words)
    kind = data.draw(st.sampled_from(["elision", "bracket", "slip"]))
    i = data.draw(st.integers(1, n - 3))
    if kind == "elision":
        j = data.draw(st.integers(i + 1, n - 2))
        quote = words[:i] + ["…"] + words[j:]
    elif kind == "bracket":
        other = data.draw(_WORD.filter(lambda w: w not in words))
        quote = words[:i] + [f"[{other}]"] + words[i + 1:]
    else:
        k = data.draw(st.integers(1, len(words[i]) - 1))
        letter = data.draw(st.sampled_from("xyq"))
        quote = words[:i] + [words[i][:k] + letter + words[i][k + 1:]] + words[i + 1:]
    (result,) = quoteverify.verify(document, [" ".join(quote) + "."], {**NO_EMBED, "language": {"code": "hu"}})
    assert result.language == "hu"
    assert result.status != "verified", (kind, result.reasons)


def test_no_cosine_for_a_language_the_model_was_not_trained_for(fake_embedder) -> None:
    quotes = ["Die Leitung hat uns wirklich nicht geholfen, ehrlich gesagt."]
    (result,) = quoteverify.verify(INTERVIEWS, quotes, embedder=fake_embedder)
    assert result.language == "de" and result.cosine is None
    assert result.reasons[-1] == "meaning not compared: the embedding model is not trained for 'de' (embed.languages)"
    (result,) = quoteverify.verify(INTERVIEWS, quotes, {"embed": {"languages": ["en", "de"]}}, embedder=fake_embedder)
    assert result.cosine is not None
    assert not any(r.startswith("meaning not compared") for r in result.reasons)
