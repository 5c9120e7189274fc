"""The README (a user's first hour, at most 450 lines) and docs/ (the rest) document every command and option
of the CLI; the README's demo command runs, its guide is the workbook's and the page's, its links lead
somewhere, and the notebook uses the API it shows."""
from __future__ import annotations

import re
import shlex
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from quoteverify.cli import main
from quoteverify.model.types import DIFFERENCE_KINDS

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"

pytestmark = pytest.mark.skipif(not README.is_file(), reason="README.md is not written yet (the lead is writing it)")


DOCS = ROOT / "docs"
README_LINES = 450


def _readme() -> str:
    return README.read_text(encoding="utf-8")


def _documentation() -> str:
    """The README and every page of docs/: where an option may be documented."""
    return "\n".join([_readme(), *(p.read_text(encoding="utf-8") for p in sorted(DOCS.glob("*.md")))])


def _options() -> list[tuple[str, str]]:
    """(command, option) for every long option of every command."""
    found = []
    for name, command in sorted(main.commands.items()):
        for param in command.params:
            if isinstance(param, click.Option):
                found += [(name, opt) for opt in param.opts + param.secondary_opts if opt.startswith("--")]
    return found


@pytest.mark.parametrize("command", sorted(main.commands))
def test_every_command_is_documented(command: str) -> None:
    assert f"quoteverify {command}" in _readme(), f"README.md never shows 'quoteverify {command}'"


@pytest.mark.parametrize(("command", "option"), _options(), ids=[f"{c} {o}" for c, o in _options()])
def test_every_option_is_documented(command: str, option: str) -> None:
    assert re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", _documentation()), (
        f"neither README.md nor docs/*.md mentions {option} of 'quoteverify {command}'")


def _demo_command() -> list[str]:
    """The first 'quoteverify verify ...' command of the README's set-up instructions."""
    for line in _readme().splitlines():
        if "quoteverify verify" in line and "data/example" in line:
            return shlex.split(line[line.index("quoteverify verify"):])[1:]
    pytest.skip("README.md shows no demo command on data/example")


def test_readme_demo_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The demo, as written, without the model (--no-embed) and with its outputs in a temporary folder."""
    args = _demo_command()
    outputs = [args[k + 1] for k, a in enumerate(args) if a in ("-o", "--output")]
    assert outputs, "the demo writes no output"
    moved = [str(tmp_path / Path(o).name) for o in outputs]
    for old, new in zip(outputs, moved):
        args[args.index(old)] = new
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(main, args + ["--no-embed"])
    assert result.exit_code == 0, result.output
    assert all(Path(p).is_file() and Path(p).stat().st_size > 0 for p in moved)
    assert re.search(r"^\d+ quotes: \d+ verified, \d+ review( \([^)]*\))?, \d+ unverified", result.stderr,
                     re.MULTILINE)
    # It names what it wrote and what to open next.
    assert f"Wrote {moved[0]} (" in result.stderr and re.search(r"^Next: open .*results\.html", result.stderr,
                                                                 re.MULTILINE)


def test_ci_runs_the_readme_commands_verbatim() -> None:
    """CI installs exactly as the README says: its two set-up commands are .ci/run's commands."""
    root = Path(__file__).resolve().parent.parent
    readme = (root / "README.md").read_text(encoding="utf-8")
    setup = readme.split("## Set up and run", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"```bash\n(.+?)\n```", setup)
    assert len(commands) == 2
    ci = [line for line in (root / ".ci" / "run").read_text(encoding="utf-8").splitlines()
          # apt-get: system packages CI installs for optional tests (Chromium); the README names them.
          # ruff: the lint and type check after the tests (README, "Set up and run").
          # export PIP_RETRIES: CI's machine cannot reach PyTorch's index, only its local copy of the same wheel.
          if line and not line.startswith(("#", "set ", "cd ", "apt-get ", "ruff ", "export PIP_RETRIES="))]
    assert ci == commands


def _synopsis() -> dict[str, set[str]]:
    """Each command's options as the README's command-line synopsis shows them (a command's lines joined)."""
    block = re.search(r"## The command line\n+```\n(.*?)```", _readme(), re.S)
    assert block, "README.md has no '## The command line' synopsis block"
    shown: dict[str, set[str]] = {}
    command = ""
    for line in block.group(1).splitlines():
        if line.startswith("quoteverify "):
            command = line.split()[1]
        shown.setdefault(command, set()).update(re.findall(r"(?<![\w-])(--?[a-z][\w-]*)", line))
    return shown


def _help_options(command: click.Command) -> set[str]:
    """The options ``quoteverify COMMAND --help`` lists, each under its every name, --help aside."""
    return {opt for param in command.params if isinstance(param, click.Option)
            for opt in param.opts + param.secondary_opts}


@pytest.mark.parametrize("name", sorted(main.commands))
def test_readme_synopsis_matches_help(name: str) -> None:
    """Each option in the README's synopsis of a command is one of its --help options, and every --help option
    is shown there (under one of its names)."""
    command = main.commands[name]
    help_text = CliRunner().invoke(main, [name, "--help"], terminal_width=200).output
    in_help = _help_options(command)
    assert all(opt in help_text for opt in in_help)
    shown = _synopsis().get(name, set())
    assert shown <= in_help, f"README shows {sorted(shown - in_help)} for 'quoteverify {name}'; --help has no such"
    missing = [param.opts for param in command.params if isinstance(param, click.Option)
               and not set(param.opts + param.secondary_opts) & shown]
    assert missing == [], f"README's synopsis of 'quoteverify {name}' lacks {missing}"


def test_the_readme_is_short() -> None:
    lines = len(_readme().splitlines())
    assert lines <= README_LINES, f"README.md has {lines} lines; move reference material to docs/"


def test_the_demo_writes_the_review_page() -> None:
    args = _demo_command()
    assert [a for k, a in enumerate(args) if k and args[k - 1] in ("-o", "--output")][0].endswith(".html")


def test_the_readme_guide_is_the_workbooks_and_the_pages() -> None:
    """Statuses, severities, colours and decisions are explained in the README in the words of the workbook's
    Guide sheet and the page's guide (quoteverify.export.guide)."""
    from quoteverify.export import guide

    assert guide.markdown() in _readme()


@pytest.mark.parametrize("page", [README, *sorted(DOCS.glob("*.md"))], ids=lambda p: p.name)
def test_links_lead_somewhere(page: Path) -> None:
    """Every relative link of the README and docs/ names a file that exists, and a heading that exists there."""
    text = page.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if target.startswith(("http://", "https://")):
            continue
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        assert file.exists(), f"{page.name}: link to {target}: no such file"
        if anchor and file.suffix == ".md":
            headings = {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-")
                        for h in re.findall(r"^#+ (.*)$", file.read_text(encoding="utf-8"), re.MULTILINE)}
            assert anchor in headings, f"{page.name}: link to {target}: no such heading"


def test_the_notebook_uses_the_readmes_api() -> None:
    """notebooks/worked_example.ipynb imports only what the README's "From Python" shows."""
    import json

    cells = json.loads((ROOT / "notebooks" / "worked_example.ipynb").read_text(encoding="utf-8"))["cells"]
    code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    section = _readme().split("## From Python", 1)[1].split("\n## ", 1)[0]
    used = set(re.findall(r"^from (quoteverify[\w.]*) import (.+)$", code, re.MULTILINE))
    used |= {("quoteverify", name) for name in re.findall(r"\bquoteverify\.(\w+)\(", code)}
    for module, names in used:
        for name in (n.strip() for n in names.split(",")):
            assert re.search(rf"\b{re.escape(name)}\b", section), f"the notebook uses {module}.{name}; the README does not"
    assert "jupyter notebook notebooks/worked_example.ipynb" in section


def _section(title: str) -> str:
    return _readme().split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


@pytest.fixture
def example_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder laid out as the repository is, for the README's commands, run there as a user would."""
    import shutil

    shutil.copytree(ROOT / "data" / "example", tmp_path / "data" / "example")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("title", ["Decisions: read back and carried to the next run", "A reproducible appendix"])
def test_readme_workflows_run(example_copy: Path, title: str) -> None:
    """The commands of a README section, after the demo, as written (verify without the model, for speed)."""
    commands = [_demo_command()]
    for block in re.findall(r"```bash\n(.*?)```", _section(title), re.S):
        for line in block.splitlines():
            if line.startswith("mkdir -p "):
                (example_copy / line.split()[-1]).mkdir(parents=True, exist_ok=True)
            elif line.startswith("quoteverify "):
                commands.append(shlex.split(line)[1:])
    assert len(commands) > 2
    for args in commands:
        result = CliRunner().invoke(main, args + (["--no-embed"] if args[0] == "verify" else []))
        assert result.exit_code == 0, (args, result.output)


def test_readme_python_runs(example_copy: Path) -> None:
    """The code of "From Python", as written."""
    code = "\n".join(re.findall(r"```python\n(.*?)```", _section("From Python"), re.S))
    exec(compile(code, "README.md", "exec"), {})
    assert sorted(p.name for p in (example_copy / "out").iterdir()) == ["appendix.md", "results.xlsx", "run.json"]


def test_the_contract_lists_every_kind_of_difference_the_diff_names():
    line = next(x for x in (DOCS / "contract.md").read_text(encoding="utf-8").splitlines()
                if x.startswith("| `differences` |"))
    listed = re.findall(r"`([a-z_]+)`", line.split("kinds:", 1)[1])
    assert listed == list(DIFFERENCE_KINDS)
