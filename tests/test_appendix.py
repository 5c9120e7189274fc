"""The appendix: a methods paragraph and a table of quotes, with the run's real settings and counts."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

import quoteverify
from quoteverify.app.repeat import build_manifest
from quoteverify.cli import main
from quoteverify.export.appendix import latex_escape, markdown_escape, read_results, render_appendix, write_appendix
from quoteverify.model.errors import InputError, OutputError
from quoteverify.model.types import QuoteResult
from quoteverify.plumbing.manifest import read_manifest, summarize

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "data" / "example"


@pytest.fixture
def example_run(tmp_path, monkeypatch):
    """`quoteverify verify` on data/example with a manifest; returns the output folder."""
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["verify", str(EXAMPLE / "transcripts"), str(EXAMPLE / "quotes.csv"),
                                       "-o", "results.jsonl", "--manifest", "run.json", "--no-embed"])
    assert result.exit_code == 0, result.output
    return tmp_path


def appendix_cli(*args: str) -> str:
    result = CliRunner().invoke(main, ["appendix", *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_appendix_numbers_are_the_runs(example_run):
    text = appendix_cli("results.jsonl", "--manifest", "run.json")
    manifest = read_manifest("run.json")
    results = [json.loads(line) for line in Path("results.jsonl").read_text("utf-8").splitlines()]
    n = len(results)
    counts = {s: sum(r["status"] == s for r in results) for s in ("verified", "review", "unverified")}
    assert n > 0 and all(counts.values()), "data/example shows every status"

    assert text.startswith("<!-- quoteverify:output appendix: written by quoteverify, not a source document -->\n\n"
                           "## Quote verification\n\nQuotes were checked against their sources with "
                           f"quoteverify {quoteverify.__version__} (Python ")
    assert f"the text of the {len(manifest.documents)} source documents" in text
    assert (f"split into {manifest.windows} overlapping windows of 64 word tokens, each sharing 30% of its "
            f"words with the next") in text
    assert f"BM25 (bm25s {manifest.environment['packages']['bm25s']}, k1 = 1.5, b = 0.75)" in text
    assert "against the 6 best-scoring BM25 regions, in at most 4 pieces" in text
    assert "at least 50% of its words aligned" in text
    assert "for at most 150 source words" in text
    assert "in at most 20% of the words" in text
    assert "below Zipf frequency 0.5 in the wordfreq word list" in text
    assert "(at most 60 words)" in text
    assert "false starts broken off and begun again (of up to 6 words)" in text
    assert "a quote of 4 words or more that starts or ends inside a sentence" in text
    assert "Every quote in review was given a severity: high where a claim was altered or inverted" in text
    assert "fuzzy match ratio below 0.6" in text
    assert "Sentence embeddings were not used in this run" in text
    share = {s: f"{c} ({c / n:.1%}) {'was' if c == 1 else 'were'}" for s, c in counts.items()}
    rated = [f"{c} of {s} severity" for s in ("high", "medium", "low")
             if (c := sum(r["status"] == "review" and r["severity"] == s for r in results))]
    severities = f" ({', '.join(rated[:-1]) + ' and ' if len(rated) > 1 else ''}{rated[-1]})" if rated else ""
    assert (f"Of the {n} quotes, {share['verified']} verified, {share['review']} flagged for review{severities} "
            f"and {share['unverified']} unverified, that is, not located in the sources.") in text
    by_type = re.search(r"By match type: (.*?)\. ", text).group(1).replace(" and ", ", ").split(", ")
    assert sum(int(part.split()[0]) for part in by_type) == n
    assert "The run's manifest (run.json) records" in text and "`quoteverify rerun run.json` repeats" in text

    rows = [line for line in text.splitlines() if line.startswith("| ")][1:]
    assert len(rows) == n
    for row, result in zip(rows, results):
        cells = row.strip("| ").split(" | ")
        location = ", ".join(filter(None, [f"line {result['line']}" if result["line"] else "",
                                           result["timestamp"]])) or "—"
        assert cells == [markdown_escape(result["quote_id"]), markdown_escape(result["document"] or "not found"),
                         location, result["status"], result["match_type"]]


def test_appendix_has_no_placeholders(example_run):
    for name in ("appendix.md", "appendix.tex"):
        appendix_cli("results.jsonl", "--manifest", "run.json", "-o", name)
        text = Path(name).read_text("utf-8")
        assert not re.search(r"\bNone\b|\bnan\b|TODO|XXX|\?\?", text), name
        # A format field left unfilled, such as {windows}; LaTeX's own arguments follow a command.
        assert not re.search(r"(?<!\\begin)(?<!\\end)(?<!\\usepackage)(?<!\\subsection\*)\{[a-z_]+\}", text), name


def test_appendix_mentions_the_mean_cosine(corpus_dir, fake_embedder):
    quotes = ["We lost 15 volunteers in the first month", "The nurses never stopped, they turned up every weekend.",
              "Some of them stopped going to the evening classes altogether.", "Nobody ever said this at all."]
    run = quoteverify.run(corpus_dir, quotes, embedder=fake_embedder)
    cosines = [r.cosine for r in run.results if r.cosine is not None]
    assert 0 < len(cosines) < len(quotes)
    text = render_appendix(run.results, build_manifest(run))
    assert (f"The mean cosine similarity over the {len(cosines)} quotes that have one was "
            f"{sum(cosines) / len(cosines):.3f}.") in text
    assert "cosine similarity of fake-bag-of-words sentence embeddings;" in text
    assert "whose closest passage shares at least 30% of its words" in text
    assert f"when that cosine reached at least {run.config.verdict.paraphrase_cosine:g}." in text


def test_appendix_says_when_no_cosine_was_needed(corpus_dir, fake_embedder):
    run = quoteverify.run(corpus_dir, ["We lost 15 volunteers in the first month"], embedder=fake_embedder)
    assert "No verdict depended on meaning, so no cosine similarity was computed." in \
        render_appendix(run.results, build_manifest(run))


@pytest.mark.parametrize("text, expected", [
    (r"50% & $5 #1 a_b {x} ~y ^z \n", r"50\% \& \$5 \#1 a\_b \{x\} \textasciitilde{}y \textasciicircum{}z "
                                      r"\textbackslash{}n"),
    ("<a|b>", r"\textless{}a\textbar{}b\textgreater{}"),
    ("≥ 0.8 — and – so…", r"$\geq$ 0.8 --- and -- so\ldots{}"),
    ("two\nlines\tand\x07bell", "two lines andbell"),
])
def test_latex_escape(text, expected):
    assert latex_escape(text) == expected


def test_markdown_escape():
    assert markdown_escape("a|b *c* _d_ [e](f) <g> `h` #i ~j\\") == \
        r"a\|b \*c\* \_d\_ \[e\](f) \<g\> \`h\` \#i \~j\\"


def test_latex_appendix_escapes_what_users_wrote(corpus_dir):
    run = quoteverify.run(corpus_dir, [{"quote_id": "Q_1 & 50%", "quote": "We lost 15 volunteers"}],
                          {"embed": {"enabled": False}})
    text = render_appendix(run.results, build_manifest(run), style="latex", manifest_name="run_1.json")
    assert r"Q\_1 \& 50\% & interview-01 & line 2 & verified & exact \\" in text
    assert r"\texttt{quoteverify rerun run\_1.json}" in text
    assert text.startswith("% quoteverify:output appendix: written by quoteverify, not a source document. Needs "
                           "\\usepackage{booktabs,longtable} in the preamble.\n\n"
                           "\\subsection*{Quote verification}\n\n")
    body = text.split("\n", 1)[1]
    assert not re.search(r"(?<!\\)[%&#_$]", body.replace("$\\geq$", "").replace(" & ", " ")), \
        "an unescaped LaTeX special character"


def test_appendix_writes_latex_by_extension(example_run):
    appendix_cli("results.jsonl", "--manifest", "run.json", "-o", "appendix.tex")
    text = Path("appendix.tex").read_text("utf-8")
    assert "\\begin{longtable}" in text and "30\\% of its words" in text and "## " not in text


def test_appendix_refuses_results_of_another_run(example_run):
    Path("other.jsonl").write_bytes(Path("results.jsonl").read_bytes().replace(b'"verified"', b'"review"', 1))
    result = CliRunner().invoke(main, ["appendix", "other.jsonl", "--manifest", "run.json"])
    assert result.exit_code == 2
    assert result.stderr == ("Error: other.jsonl: these are not the results of the run the manifest describes "
                             "(their sha256 differs from its results_sha256); give the results and the manifest "
                             "of the same run\n")


def test_appendix_errors(example_run):
    manifest = read_manifest("run.json")
    with pytest.raises(InputError, match=r"^results.csv: the appendix is made from the JSONL results; "):
        read_results("results.csv", manifest=manifest)
    results = read_results("results.jsonl", manifest=manifest)
    assert summarize(results) == manifest.summary
    assert all(isinstance(r, QuoteResult) for r in results)
    with pytest.raises(OutputError, match=r"^appendix.txt: unknown appendix format '.txt'; use .md, .markdown, .tex$"):
        write_appendix("appendix.txt", results, manifest)


def test_appendix_of_an_empty_quote_table(tiny_corpus):
    run = quoteverify.run(tiny_corpus, [], {"embed": {"enabled": False}})
    text = render_appendix(run.results, build_manifest(run))
    assert "The quote table held no quotes." in text
    assert text.endswith("| Quote | Document | Location | Status | Match type |\n|---|---|---|---|---|\n")


def test_appendix_copies_are_identical(example_run, tmp_path_factory):
    """The appendix holds no timestamp: the same run gives the same text."""
    copy = tmp_path_factory.mktemp("copy")
    shutil.copy("results.jsonl", copy / "results.jsonl")
    shutil.copy("run.json", copy / "run.json")
    assert appendix_cli("results.jsonl", "--manifest", "run.json") == \
        appendix_cli(str(copy / "results.jsonl"), "--manifest", str(copy / "run.json"))


def test_the_methods_paragraph_counts_review_by_severity(tmp_path):
    results = [QuoteResult("q1", "a", 2, status="review", severity="high"),
               QuoteResult("q2", "b", 3, status="review", severity="low"),
               QuoteResult("q3", "c", 4, status="review", severity="high"),
               QuoteResult("q4", "d", 5, status="verified", match_type="exact", confidence=1.0)]
    run = quoteverify.Run(results, (), quoteverify.load_config(), None)
    manifest = build_manifest(run, base=tmp_path)
    assert manifest.summary.severity == {"high": 2, "medium": 0, "low": 1}
    text = render_appendix(results, manifest, manifest_name="run.json")
    assert ("Of the 4 quotes, 1 (25.0%) was verified, 3 (75.0%) were flagged for review (2 of high severity and "
            "1 of low severity) and 0 (0.0%) were unverified") in text
