"""The layers hold: no import circle between modules (imports under TYPE_CHECKING and inside functions counted) or
between folders, and each folder of the engine imports only the folders below it.

Engine order, lowest first: kinds (ids and kinds, standard library), score (the maths of scoring), explain (the
words), errors, models (FSRS and the baselines), read (the only code touching a collection or an input file),
reviews (Anki's rules), jobs (evaluate, compare, diagnose), export (the benchmark's files), report (the results as
text). The dialog (ui) and the command line (cli) stand on top; neither imports the other.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("metrics", "ui", "cli")
ENGINE = ("kinds", "score", "explain", "errors", "models", "read", "reviews", "jobs", "export", "report")


def _modules() -> dict[str, Path]:
    out = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = path
    return out


def _imports(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Return each module's imported modules of the add-on (relative imports, anywhere in the file)."""
    edges: dict[str, set[str]] = {}
    for name, path in modules.items():
        here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level > 0:
                base = here[: len(here) - (node.level - 1)] + ([node.module] if node.module else [])
                target = ".".join(base)
                for alias in node.names:
                    sub = f"{target}.{alias.name}"
                    found.add(sub if sub in modules else target)
        edges[name] = {t for t in found if t in modules and t != name}
    return edges


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Return the strongly connected groups of more than one node (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def _folder(module: str) -> str:
    parts = module.split(".")
    return parts[1] if parts[0] == "metrics" and len(parts) > 1 else parts[0]


def test_no_module_imports_itself_round_about():
    assert _cycles(_imports(_modules())) == []


def test_no_folder_circle_and_the_engine_imports_downwards_only():
    edges = _imports(_modules())
    folders: dict[str, set[str]] = {}
    for module, targets in edges.items():
        for target in targets:
            if _folder(module) != _folder(target):
                folders.setdefault(_folder(module), set()).add(_folder(target))
    assert _cycles(folders) == []
    upward = [
        (a, b)
        for a, targets in folders.items()
        for b in targets
        if a in ENGINE and (b not in ENGINE or ENGINE.index(b) > ENGINE.index(a))
    ]
    assert upward == []
    assert "cli" not in folders.get("ui", set()) and "ui" not in folders.get("cli", set())


def test_the_words_and_the_kinds_need_no_numpy():
    """explain/ and kinds.py import nothing of the engine that carries numpy (the menu's words load at start-up)."""
    edges = _imports(_modules())
    heavy = {"score", "models", "read", "reviews", "jobs", "export", "report"}
    for module, targets in edges.items():
        if _folder(module) in ("explain", "kinds"):
            assert not {_folder(t) for t in targets} & heavy, (module, targets)


def test_the_test_sees_a_circle_when_there_is_one():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
