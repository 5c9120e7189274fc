"""The run manifest, `quoteverify rerun`, and byte-identical results run after run."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from datetime import datetime
from importlib import metadata
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import NO_EMBED

import quoteverify
from quoteverify.app.repeat import build_manifest, changed_inputs, rerun, write_manifest
from quoteverify.app.review import read_review
from quoteverify.cli import main
from quoteverify.judge.embed import DEFAULT_MODEL, model_path
from quoteverify.model.config import load_config
from quoteverify.model.errors import InputError
from quoteverify.model.rows import csv_bytes, jsonl_bytes
from quoteverify.model.types import DECISIONS, MATCH_TYPES, SEVERITIES, STATUSES
from quoteverify.plumbing.manifest import Embedding, InputChange, read_manifest
from quoteverify.sources.quotes import load_quotes

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "data" / "example"


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of data/example (transcripts/, quotes.csv) that a test may change."""
    shutil.copytree(EXAMPLE / "transcripts", tmp_path / "transcripts")
    shutil.copy(EXAMPLE / "quotes.csv", tmp_path / "quotes.csv")
    (tmp_path / "out").mkdir()
    return tmp_path


def verify_cli(project: Path, monkeypatch, *extra: str):
    """`quoteverify verify` with a manifest, run from the project folder as a user would."""
    monkeypatch.chdir(project)
    args = ["verify", "transcripts", "quotes.csv", "-o", "out/results.jsonl", "-o", "out/results.csv",
            "--manifest", "out/run.json", "--no-embed", *extra]
    monkeypatch.setattr(sys, "argv", ["/usr/bin/quoteverify", *args])
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    return result


def test_manifest_records_the_run(project, monkeypatch):
    verify_cli(project, monkeypatch)
    data = json.loads((project / "out" / "run.json").read_text(encoding="utf-8"))
    results = [json.loads(line) for line in (project / "out" / "results.jsonl").read_text("utf-8").splitlines()]
    run = quoteverify.run(project / "transcripts", project / "quotes.csv", NO_EMBED)

    assert data["manifest_version"] == 1
    assert data["tool"] == {"name": "quoteverify", "version": quoteverify.__version__}
    assert data["command"] == ("quoteverify verify transcripts quotes.csv -o out/results.jsonl "
                               "-o out/results.csv --manifest out/run.json --no-embed")
    assert datetime.fromisoformat(data["created"]).utcoffset().total_seconds() == 0
    assert data["config"] == load_config(overrides=NO_EMBED).as_dict()
    assert data["embedding"] == {"enabled": False, "model": "", "weights_file": "", "weights_sha256": "",
                                 "note": "embeddings were off: verdicts rest on lexical evidence only"}
    assert data["index"] == {"backend": "bm25s", "backend_version": metadata.version("bm25s"),
                             "k1": 1.5, "b": 0.75, "top_k": 6}
    assert data["window"] == {"size": 64, "overlap": 0.3, "count": run.windows}
    assert run.windows > 0

    files = sorted((project / "transcripts").glob("*.txt"))
    assert data["inputs"]["documents"] == [
        {"path": f"../transcripts/{f.name}", "sha256": sha256(f), "doc_id": f.stem, "encoding": "utf-8",
         "language": "en", "layout": "unpaged"} for f in files]
    assert data["inputs"]["quotes"] == {"path": "../quotes.csv", "sha256": sha256(project / "quotes.csv"),
                                        "sheet": ""}
    assert data["outputs"] == ["results.jsonl", "results.csv"]
    assert data["results_sha256"] == sha256(project / "out" / "results.jsonl")

    status = Counter(r["status"] for r in results)
    match_type = Counter(r["match_type"] for r in results)
    severity = Counter(r["severity"] for r in results if r["status"] == "review")
    assert data["summary"] == {"quotes": len(results), "status": {s: status[s] for s in STATUSES},
                               "match_type": {m: match_type[m] for m in MATCH_TYPES},
                               "cosine_quotes": 0, "cosine_mean": None,
                               "severity": {s: severity[s] for s in SEVERITIES}, "several_places": 0,
                               "decisions": {d: 0 for d in DECISIONS}}
    assert list(data["summary"]["status"]) == list(STATUSES)

    environment = data["environment"]
    assert environment["python"] == ".".join(map(str, sys.version_info[:3]))
    assert environment["packages"]["torch"] == metadata.version("torch")
    assert environment["packages"]["quoteverify"] == metadata.version("quoteverify")
    assert data["warnings"] == []
    assert data["languages"] == {"en": {"documents": len(files), "quotes": len(results), "lexicon": True}}
    assert data["layouts"] == {"lined": 0, "paged": 0, "unpaged": len(files)}


def test_manifest_reads_back_as_written(project, monkeypatch):
    verify_cli(project, monkeypatch)
    manifest = read_manifest(project / "out" / "run.json")
    again = project / "out" / "again.json"
    again.write_text(json.dumps(manifest.to_dict()), encoding="utf-8")
    assert read_manifest(again) == manifest
    assert manifest.documents[0].path.startswith("../transcripts/")


def test_manifest_hashes_the_model_weights(corpus_dir):
    class NamedLikeTheModel:
        name = DEFAULT_MODEL

        def encode(self, texts):  # never called: every quote below is verbatim
            raise AssertionError("the real model must not be needed")

    run = quoteverify.run(corpus_dir, ["We lost 15 volunteers in the first month"], embedder=NamedLikeTheModel())
    manifest = build_manifest(run)
    weights = model_path(DEFAULT_MODEL) / "model.safetensors"
    assert manifest.embedding == Embedding(enabled=True, model=DEFAULT_MODEL, weights_file="model.safetensors",
                                           weights_sha256=sha256(weights))


def test_manifest_of_a_fake_embedder_has_no_weights(corpus_dir, fake_embedder):
    run = quoteverify.run(corpus_dir, ["We lost fifteen volunteers"], embedder=fake_embedder)
    assert build_manifest(run).embedding == Embedding(enabled=True, model="fake-bag-of-words")
    assert build_manifest(run).summary.cosine_quotes == 1


def test_manifest_does_not_import_torch():
    code = ("import sys; from quoteverify.plumbing.manifest import environment; "
            "from quoteverify.app.repeat import embedding_record; environment(); embedding_record('all-MiniLM-L6-v2'); assert 'torch' not in sys.modules, 'torch imported'")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_manifest_of_quotes_given_in_python_records_no_quote_table(tiny_corpus, tmp_path):
    run = quoteverify.run(tiny_corpus, ["It was harder than we expected."], NO_EMBED)
    manifest = write_manifest(tmp_path / "run.json", run)
    assert manifest.quotes is None and manifest.documents[0].path == ""
    with pytest.raises(ValueError, match="given quotes in Python"):
        build_manifest(run, quotes_path=tmp_path / "quotes.csv")
    with pytest.raises(InputError, match="cannot be rerun"):
        rerun(read_manifest(tmp_path / "run.json"), base=tmp_path)


@pytest.mark.parametrize("content, message", [
    ("not json", "{path}: not a JSON manifest (Expecting value at column 1); "
                 "give the file written by --manifest"),
    ("[1, 2]", "{path}: not a quoteverify manifest; give the file written by --manifest"),
    ('{"manifest_version": 1, "tool": {}}', "{path}: not a quoteverify manifest (version 1): 'inputs' is "
                                            "missing; give the file written by "
                                            "'quoteverify verify --manifest FILE'"),
    (None, "{path}: no such manifest; write one with 'quoteverify verify ... --manifest {path}'"),
])
def test_read_manifest_rejects_other_files(tmp_path, content, message):
    path = tmp_path / "run.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError) as error:
        read_manifest(path)
    assert str(error.value) == message.format(path=path)


# --- rerun ---------------------------------------------------------------------------------------


def test_rerun_repeats_the_run_and_writes_the_same_outputs(project, monkeypatch, tmp_path_factory):
    verify_cli(project, monkeypatch)
    out = project / "out"
    before = {name: (out / name).read_bytes() for name in ("results.jsonl", "results.csv")}
    for name in before:
        (out / name).unlink()
    monkeypatch.chdir(tmp_path_factory.mktemp("elsewhere"))  # paths resolve from the manifest, not the cwd
    result = CliRunner().invoke(main, ["rerun", str(out / "run.json")])
    assert result.exit_code == 0, result.output
    assert ("Results are identical to the recorded run: the same status and result for every quote (7 verified, "
            "12 review, 2 unverified).") in result.output.splitlines()
    assert {name: (out / name).read_bytes() for name in before} == before


def test_rerun_with_output_writes_there_instead(project, monkeypatch):
    verify_cli(project, monkeypatch)
    result = CliRunner().invoke(main, ["rerun", "out/run.json", "-o", "out/again.jsonl",
                                       "--manifest", "out/again.json"])
    assert result.exit_code == 0, result.output
    assert (project / "out" / "again.jsonl").read_bytes() == (project / "out" / "results.jsonl").read_bytes()
    again = read_manifest(project / "out" / "again.json")
    original = read_manifest(project / "out" / "run.json")
    assert again.documents == original.documents and again.quotes == original.quotes
    assert again.outputs == ("again.jsonl",) and again.results_sha256 == original.results_sha256


def test_rerun_refuses_when_a_document_changed(project, monkeypatch):
    verify_cli(project, monkeypatch)
    changed = sorted((project / "transcripts").glob("*.txt"))[1]
    recorded = sha256(changed)
    with open(changed, "a", encoding="utf-8") as handle:
        handle.write("\nInterviewer: One more thing.\n")
    (project / "out" / "results.jsonl").unlink()

    manifest = read_manifest(project / "out" / "run.json")
    assert changed_inputs(manifest, base=project / "out") == [
        InputChange(f"../transcripts/{changed.name}", recorded, sha256(changed))]

    result = CliRunner().invoke(main, ["rerun", "out/run.json"])
    assert result.exit_code == 2
    assert result.stderr == (
        f"Changed: ../transcripts/{changed.name}: sha256 changed (recorded {recorded[:12]}…, "
        f"now {sha256(changed)[:12]}…)\n"
        "Error: 1 input changed since out/run.json was written, so this would not be the same run; nothing was "
        "run. Restore them, or pass --allow-changed to run on the files as they are\n")
    assert not (project / "out" / "results.jsonl").exists()


def test_rerun_allow_changed_runs_on_the_files_as_they_are(project, monkeypatch):
    verify_cli(project, monkeypatch)
    (project / "quotes.csv").write_text((project / "quotes.csv").read_text("utf-8") + 'QX,"A new quote.",\n',
                                        encoding="utf-8")
    gone = sorted((project / "transcripts").glob("*.txt"))[0]
    result = CliRunner().invoke(main, ["rerun", "out/run.json", "--allow-changed"])
    assert result.exit_code == 0, result.output
    assert "Changed: ../quotes.csv: sha256 changed" in result.output
    assert ("Results differ from the recorded run: 7 verified, 12 review, 3 unverified; it had 7 verified, 12 review, "
            "2 unverified.") in result.output.splitlines()
    assert json.loads((project / "out" / "results.jsonl").read_text("utf-8").splitlines()[-1])["quote_id"] == "QX"

    gone.unlink()
    result = CliRunner().invoke(main, ["rerun", "out/run.json"])
    assert result.exit_code == 2
    assert f"Changed: ../transcripts/{gone.name}: missing (recorded " in result.output


# --- determinism ---------------------------------------------------------------------------------


def test_results_are_byte_identical_run_after_run(project):
    files = sorted((project / "transcripts").glob("*.txt"))
    first = quoteverify.run(project / "transcripts", project / "quotes.csv", NO_EMBED)
    second = quoteverify.run(list(reversed(files)), project / "quotes.csv", NO_EMBED)
    assert [d.doc_id for d in second.documents] == sorted(d.doc_id for d in second.documents)
    assert jsonl_bytes(first.results) == jsonl_bytes(second.results)
    assert csv_bytes(first.results) == csv_bytes(second.results)


def test_cli_outputs_are_byte_identical_across_processes_and_file_order(project):
    """Two processes with different hash seeds, the second given the files in reverse order."""
    files = sorted(str(p.relative_to(project)) for p in (project / "transcripts").glob("*.txt"))
    outputs = {}
    for seed, documents in (("1", ["transcripts"]), ("2", files[::-1])):
        stem = f"out/seed{seed}"
        subprocess.run([sys.executable, "-m", "quoteverify", "verify", *documents, "quotes.csv",
                        "-o", f"{stem}.jsonl", "-o", f"{stem}.csv", "--no-embed"],
                       cwd=project, env={**os.environ, "PYTHONHASHSEED": seed}, check=True, capture_output=True)
        outputs[seed] = [(project / f"{stem}{suffix}").read_bytes() for suffix in (".jsonl", ".csv")]
    assert outputs["1"] == outputs["2"]
    assert outputs["1"][0].count(b"\n") == len(load_quotes(project / "quotes.csv").quotes)


def test_rerun_carries_the_decisions_of_a_workbook_reviewed_since_and_keeps_the_old_file(project, monkeypatch):
    """rerun repeats the recorded run, carries the decisions a recorded output holds (a workbook reviewed since),
    compares the results with the decisions apart, and keeps the old file: no decision is written away (before,
    it wrote a workbook without them and said the results differed)."""
    from openpyxl import load_workbook

    verify_cli(project, monkeypatch, "-o", "out/results.xlsx")
    book = load_workbook(project / "out" / "results.xlsx")
    sheet = book["Quotes"]
    named = {cell.value: cell.column for cell in sheet[1]}
    sheet.cell(row=2, column=named["decision"]).value = "reject"
    decided = sheet.cell(row=2, column=named["quote_id"]).value
    book.save(project / "out" / "results.xlsx")
    reviewed = (project / "out" / "results.xlsx").read_bytes()
    result = CliRunner().invoke(main, ["rerun", "out/run.json"])
    assert result.exit_code == 0, result.output
    (backup,) = (project / "out").glob("results.before-*.xlsx")
    assert backup.read_bytes() == reviewed
    lines = result.stderr.splitlines()
    assert lines[0] == ("out/results.xlsx holds the decisions or notes of 1 quote: carried into this rerun; when it is "
                        f"replaced, the old file is kept as out/{backup.name}")
    assert lines[1] == ("out/results.xlsx: carried the decisions and notes of 1 quote; 0 reviewed quotes changed "
                        "(their text or where they were found) and need a new look")
    assert lines[-2:] == [
        "Results are identical to the recorded run: the same status and result for every quote (7 verified, "
        "12 review, 2 unverified).",
        "Decisions, apart from the results: 0 in the recorded run, 1 now, carried from out/results.xlsx."]
    rows = {r.quote_id: r for r in read_review(project / "out" / "results.xlsx").quotes}
    assert rows[decided].decision == "reject"
    jsonl = [json.loads(line) for line in (project / "out" / "results.jsonl").read_text("utf-8").splitlines()]
    assert [r["quote_id"] for r in jsonl if r["decision"]] == [decided]

    # The rerun's run held that decision too: a second rerun finds the results and the decisions as they were.
    again = CliRunner().invoke(main, ["rerun", "out/run.json", "--manifest", "out/run2.json"])
    assert again.exit_code == 0, again.output
    third = CliRunner().invoke(main, ["rerun", "out/run2.json"])
    assert third.stderr.splitlines()[-2:] == [
        "Results are identical to the recorded run: the same status and result for every quote (7 verified, "
        "12 review, 2 unverified).",
        "Decisions, apart from the results: 1 in the recorded run, 1 now, carried from out/results.xlsx."]


