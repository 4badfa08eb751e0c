"""The add-on's root __init__ does nothing outside a running Anki; metrics/ never imports anki or aqt."""

from __future__ import annotations

import ast
import importlib
import json
import pathlib
import subprocess
import sys

from support.anki import run_python

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_import_outside_anki_registers_nothing():
    code = (
        "import aqt, sys\n"
        "import fsrs_calibration\n"
        "assert aqt.mw is None\n"
        "assert 'fsrs_calibration.ui.menu' not in sys.modules, 'menus registered outside Anki'\n"
        "print('ok')\n"
    )
    assert run_python(code).strip() == "ok"


def test_metrics_is_pure_numpy_and_stdlib():
    allowed = set(sys.stdlib_module_names) | {"numpy", "pyarrow"}  # pyarrow: optional parquet, imported lazily
    paths = list((ROOT / "metrics").rglob("*.py"))
    assert len(paths) > 30 and any(p.parent.name == "read" for p in paths)
    for path in paths:
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


def test_the_maths_never_imports_wording():
    """models/, reviews/ and score/ return numbers; every sentence lives in explain/ (docs/architecture.md)."""
    for folder in ("models", "reviews", "score"):
        for path in (ROOT / "metrics" / folder).glob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.ImportFrom) and node.level > 0:
                    assert "explain" not in (node.module or ""), f"metrics/{folder}/{path.name} imports explain"


def test_relative_imports_only():
    paths = list(ROOT.glob("*.py")) + [p for folder in ("metrics", "ui", "cli") for p in (ROOT / folder).rglob("*.py")]
    for path in paths:
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                assert not node.module.startswith(("fsrs_calibration", "metrics", "ui")), f"{path.name}: {node.module}"


def test_manifest_and_config():
    manifest = json.loads((ROOT / "manifest.json").read_text())
    for key in ("package", "name", "human_version"):
        assert manifest[key]
    assert "homepage" not in manifest  # no placeholder: the add-on has no public page yet
    assert manifest["min_point_version"] == 250700
    config = json.loads((ROOT / "config.json").read_text())
    text = (ROOT / "config.md").read_text()
    for key in config:
        assert f"`{key}`" in text
    from fsrs_calibration.metrics.jobs.evaluate import Options

    Options(**{k: v for k, v in config.items() if k not in ("scope", "scope_value", "auto_diagnose")}).validate()


def test_package_importable_under_its_name():
    mod = importlib.import_module("fsrs_calibration.metrics.jobs.evaluate")
    assert pathlib.Path(mod.__file__).resolve().parent == ROOT / "metrics" / "jobs"


def test_too_old_anki_gets_a_message(monkeypatch):
    import anki.utils

    from fsrs_calibration import ui

    monkeypatch.setattr(anki.utils, "point_version", lambda: 250200)
    problem = ui.startup_problem()
    assert problem is not None and "25.07 and later" in problem
    monkeypatch.setattr(anki.utils, "point_version", lambda: 260903)
    assert ui.startup_problem() is None  # numpy importable here


def test_bundled_numpy_never_shadows_another(tmp_path):
    """With a numpy importable (Anki's or another add-on's), the vendor folder is not added at all;
    without one, it goes to the end of sys.path."""
    other = tmp_path / "other_addon_libs" / "numpy"
    other.mkdir(parents=True)
    (other / "__init__.py").write_text("OWNER = 'other add-on'")
    vendor = tmp_path / "vendor" / "cp313-linux_x86_64" / "numpy"
    vendor.mkdir(parents=True)
    (vendor / "__init__.py").write_text("OWNER = 'ours'")
    code = (
        "import sys\n"
        "sys.path = [p for p in sys.path if 'site-packages' not in p]\n"
        "from importlib.machinery import PathFinder\n"
        "import bundled\n"
        "bundled.platform_tag = lambda: 'cp313-linux_x86_64'\n"
        "mode = sys.argv[1]\n"
        "if mode == 'other':\n"
        "    sys.path.insert(0, sys.argv[2])\n"
        "before = list(sys.path)\n"
        "assert bundled.ensure_numpy(sys.argv[3]) is None\n"
        "import numpy\n"
        "print(numpy.OWNER, sys.path[len(before):])\n"
    )
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    for mode, owner in (("other", "other add-on"), ("none", "ours")):
        out = subprocess.run(
            [sys.executable, "-c", code, mode, str(other.parent), str(tmp_path / "vendor")],
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
            cwd=str(ROOT),
        )
        assert out.returncode == 0, out.stderr
        assert out.stdout.startswith(owner)
        assert ("vendor" in out.stdout) == (mode == "none")
