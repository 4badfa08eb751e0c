"""Two rules of the dialog's code, checked in its source (the end-to-end tests in tests/ui/test_living.py show
what breaking them did in a living Anki):

- a signal is never connected to a function with optional parameters: Qt hands a slot the signal's arguments,
  so `clicked(bool)` filled `run(then=None)` with False ("'bool' object is not callable" on Evaluate). Connect
  such a function with `turns.on`, which drops the arguments;
- names are text, never HTML: labels are made by ui/text.py only (plain unless made rich with escaped values),
  and every tooltip goes through its `tooltip()`, which escapes.
"""

from __future__ import annotations

import ast
from pathlib import Path

UI = Path(__file__).resolve().parents[2] / "ui"


def _trees() -> dict[Path, ast.Module]:
    return {p: ast.parse(p.read_text()) for p in sorted(UI.rglob("*.py"))}


def _optional(args: ast.arguments) -> bool:
    return bool(args.defaults or any(d is not None for d in args.kw_defaults))


def _defined() -> dict[str, bool]:
    """Return every function and method defined in ui/, by name: whether any of that name takes optional
    parameters."""
    out: dict[str, bool] = {}
    for tree in _trees().values():
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef):
                out[node.name] = out.get(node.name, False) or _optional(node.args)
    return out


def _parameters(tree: ast.Module, call: ast.Call) -> set[str]:
    """Return the parameter names of the functions enclosing `call`."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and any(c is call for c in ast.walk(node)):
            names |= {a.arg for a in node.args.args + node.args.kwonlyargs}
    return names


def test_no_signal_is_connected_to_a_function_with_optional_parameters():
    defined, bad = _defined(), []
    for path, tree in _trees().items():
        for call in ast.walk(tree):
            if not (
                isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "connect"
            ):
                continue
            slot = call.args[0]
            where = f"{path.name}:{call.lineno}"
            if isinstance(slot, ast.Lambda):
                if _optional(slot.args):
                    bad.append(f"{where}: a lambda with optional parameters")
            elif isinstance(slot, ast.Name | ast.Attribute):
                name = slot.id if isinstance(slot, ast.Name) else slot.attr
                if isinstance(slot, ast.Name) and name in _parameters(tree, call) and name not in defined:
                    bad.append(f"{where}: {name} is handed in: connect it with turns.on")
                elif defined.get(name):
                    bad.append(f"{where}: {name} takes optional parameters: connect it with turns.on")
    assert bad == []


def test_labels_and_tooltips_go_through_ui_text():
    bad = []
    for path, tree in _trees().items():
        if path.name == "text.py":
            continue
        for call in ast.walk(tree):
            if not isinstance(call, ast.Call):
                continue
            func = call.func
            if isinstance(func, ast.Name) and func.id == "QLabel":
                bad.append(f"{path.name}:{call.lineno}: QLabel made outside ui/text.py")
            if isinstance(func, ast.Attribute) and func.attr == "setToolTip":
                arg = call.args[0]
                if not (isinstance(arg, ast.Call) and isinstance(arg.func, ast.Name) and arg.func.id == "tooltip"):
                    bad.append(f"{path.name}:{call.lineno}: a tooltip not made by tooltip()")
    assert bad == []
