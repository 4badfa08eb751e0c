"""The add-on's root __init__ does nothing outside a running Anki; metrics/ never imports anki or aqt."""

from __future__ import annotations

import ast
import importlib
import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_import_outside_anki_registers_nothing():
    code = (
        "import aqt, sys\n"
        "import fsrs_calibration\n"
        "assert aqt.mw is None\n"
        "assert 'fsrs_calibration.ui.menu' not in sys.modules, 'menus registered outside Anki'\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_metrics_is_pure_numpy_and_stdlib():
    allowed = set(sys.stdlib_module_names) | {"numpy"}
    for path in (ROOT / "metrics").glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name.split(".")[0] for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [(node.module or "").split(".")[0]]
            else:
                continue
            for name in names:
                assert name in allowed, f"{path.name} imports {name}"


def test_relative_imports_only():
    for path in list(ROOT.glob("*.py")) + list((ROOT / "metrics").glob("*.py")) + list((ROOT / "ui").glob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                assert not node.module.startswith(("fsrs_calibration", "metrics", "ui")), f"{path.name}: {node.module}"


def test_manifest_and_config():
    manifest = json.loads((ROOT / "manifest.json").read_text())
    for key in ("package", "name", "human_version", "homepage"):
        assert manifest[key]
    assert manifest["min_point_version"] == 250700
    config = json.loads((ROOT / "config.json").read_text())
    text = (ROOT / "config.md").read_text()
    for key in config:
        assert f"`{key}`" in text
    from fsrs_calibration.metrics.evaluate import Options

    Options(**config).validate()


def test_package_importable_under_its_name():
    mod = importlib.import_module("fsrs_calibration.metrics.evaluate")
    assert pathlib.Path(mod.__file__).resolve().parent == ROOT / "metrics"
