"""The .ankiaddon: contents, numpy per platform, size; and a real Anki without numpy running it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import package
import pytest
from support.anki import run_python

pytestmark = pytest.mark.slow  # make check leaves it out; make test runs it

ROOT = Path(__file__).resolve().parents[2]

LOCK = json.loads((ROOT / "scripts" / "numpy-wheels.json").read_text())
SIZE_TARGET_MB = 60


@pytest.fixture(scope="session")
def addon_file(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    return package.build(out, ROOT / "build" / "wheels")


def test_zip_contents(addon_file, record_testsuite_property):
    with zipfile.ZipFile(addon_file) as z:
        names = z.namelist()
        manifest = json.loads(z.read("manifest.json"))
    assert addon_file.name == f"fsrs_calibration-{manifest['human_version']}.ankiaddon"
    assert manifest["package"] == "fsrs_calibration" and manifest["name"] == "FSRS Calibration"
    assert manifest["min_point_version"] == 250700 and "homepage" not in manifest and manifest["human_version"]
    for required in ("__init__.py", "bundled.py", "config.json", "config.md", "README.md", "LICENSE"):
        assert required in names
    assert "metrics/jobs/evaluate.py" in names and "metrics/read/anki_backend.py" in names and "ui/menu.py" in names
    own = [n for n in names if not n.startswith("vendor/")]
    for name in own:
        assert not name.startswith(("tests/", "bench/", "scripts/", ".", "build/", "dist/")), name
        assert "__pycache__" not in name and not name.endswith((".pyc", "meta.json")), name
    for name in names:
        parts = name.split("/")
        assert "tests" not in parts and "f2py" not in parts and not name.endswith(".pyi"), name
        assert not name.startswith("/") and ".." not in parts
    # one numpy per platform folder, with that platform's compiled modules
    folders = {n.split("/")[1] for n in names if n.startswith("vendor/")}
    assert folders == set(LOCK["wheels"])
    for tag, spec in LOCK["wheels"].items():
        core = [n for n in names if n.startswith(f"vendor/{tag}/numpy/_core/_multiarray_umath")]
        assert len(core) == 1 and core[0].endswith(spec["extension_suffix"]), core
        assert f"vendor/{tag}/numpy/__init__.py" in names
        others = {
            s["extension_suffix"]
            for t, s in LOCK["wheels"].items()
            if s["extension_suffix"] != spec["extension_suffix"]
        }
        assert not any(n.startswith(f"vendor/{tag}/") and n.endswith(tuple(others)) for n in names)
        assert any(n.startswith(f"vendor/{tag}/numpy-{LOCK['version']}.dist-info/") and "LICENSE" in n for n in names)
    size_mb = addon_file.stat().st_size / 1e6
    record_testsuite_property("ankiaddon_mb", round(size_mb, 1))
    print(f"\n{addon_file.name}: {size_mb:.1f} MB")
    assert size_mb < SIZE_TARGET_MB


def test_rebuilt_package_is_identical(addon_file, tmp_path):
    again = package.build(tmp_path, ROOT / "build" / "wheels")
    assert again.read_bytes() == addon_file.read_bytes()


def test_no_partial_file_when_a_wheel_is_wrong(tmp_path, monkeypatch):
    """A wheel whose bytes differ from the lock file stops the build, and no .ankiaddon is left."""
    bad = json.loads(json.dumps(LOCK))
    last = sorted(bad["wheels"])[-1]  # fails after the others were already written into the zip
    bad["wheels"][last]["sha256"] = "0" * 64
    lock = tmp_path / "lock.json"
    lock.write_text(json.dumps(bad))
    monkeypatch.setattr(package, "LOCK", lock)
    monkeypatch.setattr(package.subprocess, "run", _no_download)  # the cached file is the only one there is
    cache = tmp_path / "cache"
    cache.mkdir()
    for spec in LOCK["wheels"].values():
        shutil.copy(ROOT / "build" / "wheels" / spec["file"], cache / spec["file"])
    out = tmp_path / "out"
    with pytest.raises(SystemExit, match="sha256"):
        package.build(out, cache)
    assert list(out.iterdir()) == []
    assert not (cache / LOCK["wheels"][last]["file"]).exists()  # the wrong bytes are not kept


def _no_download(*args, **kwargs):
    if args and "download" in args[0]:
        return None
    raise AssertionError("unexpected command")


def test_platform_tags():
    from fsrs_calibration.bundled import platform_tag

    assert platform_tag("cpython", (3, 13), "win32", "AMD64") == "cp313-win_amd64"
    assert platform_tag("cpython", (3, 13), "darwin", "arm64") == "cp313-macosx_arm64"
    assert platform_tag("cpython", (3, 13), "darwin", "x86_64") == "cp313-macosx_x86_64"
    assert platform_tag("cpython", (3, 13), "linux", "x86_64") == "cp313-linux_x86_64"
    assert platform_tag("cpython", (3, 13), "linux", "aarch64") == "cp313-linux_aarch64"
    assert platform_tag("cpython", (3, 13), "win32", "ARM64") is None
    assert platform_tag("pypy", (3, 13), "linux", "x86_64") is None
    assert set(LOCK["wheels"]) >= {
        platform_tag("cpython", (3, 13), s, m)
        for s, m in [
            ("win32", "AMD64"),
            ("darwin", "arm64"),
            ("darwin", "x86_64"),
            ("linux", "x86_64"),
            ("linux", "aarch64"),
        ]
    }


def test_missing_platform_gives_a_message_not_an_error(tmp_path):
    code = (
        "import sys, importlib.util\n"
        "from fsrs_calibration import bundled\n"
        "importlib.util.find_spec = lambda name, *a: None if name == 'numpy' else None\n"
        "print(bundled.ensure_numpy(sys.argv[1]))\n"
    )
    out = run_python(code, str(tmp_path))
    assert "needs numpy" in out and "Python 3.13" in out


def test_installed_in_anki_without_numpy_gives_the_cli_numbers(addon_file, tmp_path):
    """Anki's own add-on manager installs the file; the Tools menu runs it with the bundled numpy."""
    from e2e.harness import anki_python, make_base, run_anki

    python = anki_python()
    assert os.path.exists(python), "the Anki environment without numpy is missing: run `make test`"
    assert subprocess.run([python, "-c", "import numpy"], capture_output=True).returncode != 0
    sample = ROOT / "build" / "sample" / "collection.anki2"
    if not sample.exists():
        subprocess.run([sys.executable, str(ROOT / "scripts" / "make_sample.py"), str(sample)], check=True)
    base = tmp_path / "base"
    make_base(base, str(sample), python)
    installed = run_anki(base, "install", tmp_path / "install.json", {"E2E_ADDON": str(addon_file)}, python=python)
    assert "InstallOk" in installed["install"], installed
    shots = ROOT / "build" / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    env = {"E2E_SHOTS": str(shots), "E2E_DECK": "Languages"}
    ran = run_anki(base, "tools", tmp_path / "tools.json", env, python=python)
    assert "error" not in ran, ran
    assert ran["numpy_before"] is False
    assert "Export for the FSRS benchmark…" in ran["tools_menu"]
    assert "/vendor/cp313-" in ran["numpy_file"]
    assert ran["before"] == ran["after"]  # nothing in the collection changed, no undo entry
    # opened on the ranked findings (evaluated, then diagnosed: no second click), one click into Anki
    assert ran["tools"]["tab"] == "What to do" and ran["diagnosed"], ran["tools"]["tab"]
    assert set(ran["action_kinds"]) == {"deck-options", "browse", "evaluate"}, ran["action_kinds"]
    options = ran["deck_options"]
    assert options["opened"] == [options["deck_id"]] and options["preset_of_deck"] == options["preset"], options
    assert ran["browse"]["shown"] == ran["browse"]["found"] and ran["browse"]["shown"], ran["browse"]
    evaluated = ran["evaluated"]
    assert evaluated["scope"] == ["search", evaluated["search"]] and evaluated["reviews"] > 0, evaluated
    deck = ran["deck"]
    assert deck["scope"] == ["deck", "Languages"] and deck["reviews"] > 0
    assert set(deck["decks"]) == {"Languages::Spanish", "Languages::Japanese::Kanji"}
    assert len(ran["compare"]["models"]) == 7, ran["compare"]  # Anki's optimizer ran inside Anki
    assert (shots / "compare.png").exists()
    cli = subprocess.run(
        [os.path.join(os.path.dirname(sys.executable), "fsrs-calibration"), "evaluate", str(sample)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert cli.returncode == 0, cli.stderr
    assert ran["tools"]["report"].strip() == cli.stdout.strip()
