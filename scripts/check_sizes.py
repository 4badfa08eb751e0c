"""Small parts, checked where ruff cannot: no function over 60 lines, no class over 300, at most 10 `# fmt: skip`.

Run by `make lint` over the project's own Python files (ruff enforces complexity, arguments, branches and
statements; this adds the lengths the guide asks for). Prints one line per offence; exits 1 if any.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator
from pathlib import Path

MAX_FUNCTION_LINES = 60
MAX_CLASS_LINES = 300
MAX_FMT_SKIPS = 10
SKIPPED_FOLDERS = {"build", "node_modules", "__pycache__"}
FMT_SKIP = re.compile(r"#\s*fmt:\s*skip\s*$")


def python_files(root: Path) -> Iterator[Path]:
    """Yield the project's Python files under `root` (no virtual environments, no build output)."""
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).parts
        if any(p.startswith(".") or p in SKIPPED_FOLDERS for p in parts[:-1]):
            continue
        yield path


def too_long(path: Path, tree: ast.AST) -> Iterator[str]:
    """Yield a line for every function or class of `tree` longer than allowed."""
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            kind, limit = "function", MAX_FUNCTION_LINES
        elif isinstance(node, ast.ClassDef):
            kind, limit = "class", MAX_CLASS_LINES
        else:
            continue
        lines = (node.end_lineno or node.lineno) - node.lineno + 1
        if lines > limit:
            yield f"{path}:{node.lineno}: {kind} {node.name} has {lines} lines (at most {limit})"


def main(root: Path) -> int:
    offences: list[str] = []
    skips: list[str] = []
    for path in python_files(root):
        text = path.read_text(encoding="utf-8")
        offences.extend(too_long(path.relative_to(root), ast.parse(text, str(path))))
        skips.extend(
            f"{path.relative_to(root)}:{n}" for n, line in enumerate(text.splitlines(), 1) if FMT_SKIP.search(line)
        )
    if len(skips) > MAX_FMT_SKIPS:
        offences.append(f"{len(skips)} '# fmt: skip' (at most {MAX_FMT_SKIPS}): " + ", ".join(skips))
    for line in offences:
        print(line)
    return 1 if offences else 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()))
