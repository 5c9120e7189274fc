"""notebooks/worked_example.ipynb runs top to bottom, offline, and writes what it promises."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import nbformat
from click.testing import CliRunner
from nbclient import NotebookClient

from quoteverify.cli import main

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "notebooks" / "worked_example.ipynb"


def test_worked_example_runs_top_to_bottom(tmp_path, monkeypatch):
    # The notebook uses paths relative to notebooks/, as Jupyter starts it; a copy of the
    # repository's layout keeps its outputs (../out/) out of the source tree.
    shutil.copytree(ROOT / "data" / "example", tmp_path / "data" / "example")
    (tmp_path / "notebooks").mkdir()
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    NotebookClient(notebook, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(tmp_path / "notebooks")}}).execute()

    out = tmp_path / "out"
    assert sorted(p.name for p in out.iterdir()) == ["appendix.md", "appendix.tex", "results.jsonl",
                                                     "results.xlsx", "run.json"]
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs]
    assert any("image/png" in o.get("data", {}) for o in outputs), "the plots were not drawn"

    results = (out / "results.jsonl").read_text("utf-8").splitlines()
    manifest = json.loads((out / "run.json").read_text("utf-8"))
    assert manifest["summary"]["quotes"] == len(results) > 0
    assert manifest["inputs"]["quotes"]["path"] == "../data/example/quotes.csv"

    # The appendix the notebook wrote is the one the CLI makes from the same run.
    cli = CliRunner().invoke(main, ["appendix", str(out / "results.jsonl"), "--manifest", str(out / "run.json")])
    assert cli.exit_code == 0, cli.output
    assert cli.stdout == (out / "appendix.md").read_text("utf-8")

    # And its manifest repeats the run.
    cli = CliRunner().invoke(main, ["rerun", str(out / "run.json"), "-o", str(out / "again.jsonl")])
    assert cli.exit_code == 0, cli.output
    assert "Results are identical to the recorded run: the same status and result for every quote" in cli.stderr
