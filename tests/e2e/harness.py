"""Start the real Anki main window (offscreen) on a throwaway base folder, driven by driver_addon.py."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
PROFILE = "Test"


def make_base(
    base: Path, collection: str, python: str | None = None, ui_scale: float = 1.0, language: str = "en_US"
) -> Path:
    """Create a base folder with one profile holding a copy of `collection` and the driver add-on; `ui_scale`:
    Anki's own interface scale (Anki 25.07 sets QT_SCALE_FACTOR from it before Qt starts); `language`: Anki's
    interface language (as Preferences sets it)."""
    code = (
        "import sys\n"
        "from aqt.profiles import ProfileManager\n"
        "pm = ProfileManager(ProfileManager.get_created_base_folder(sys.argv[1]))\n"
        "pm.setupMeta()\n"
        f"pm.create({PROFILE!r})\n"
        "pm.meta['firstRun'] = False\n"
        f"pm.meta['defaultLang'] = {language!r}\n"
        f"pm.meta['uiScale'] = {float(ui_scale)!r}\n"
        f"pm.load({PROFILE!r})\n"
        "pm.profile['syncKey'] = None\n"
        "pm.profile['autoSync'] = False\n"
        "pm.save()\n"
    )
    subprocess.run([python or anki_python(), "-c", code, str(base)], check=True, timeout=120)
    folder = base / PROFILE
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(collection, folder / "collection.anki2")
    driver = base / "addons21" / "zz_e2e_driver"
    driver.mkdir(parents=True, exist_ok=True)
    shutil.copy(HERE / "driver_addon.py", driver / "__init__.py")
    for part in ("living.py", "living_scripts.py", "living_places.py"):  # the scripts of the living-Anki tests
        shutil.copy(HERE / part, driver / part)
    return folder / "collection.anki2"


def install_working_tree(base: Path) -> None:
    """Copy the add-on's own files (the package allow-list) into the base folder, as Anki would have them."""
    sys.path.insert(0, str(HERE.parents[1] / "scripts"))
    import package

    target = base / "addons21" / "fsrs_calibration"
    shutil.rmtree(target, ignore_errors=True)
    for rel in package.addon_files():
        (target / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(HERE.parents[1] / rel, target / rel)


def anki_python() -> str:
    """Return the Python of the environment with aqt but no numpy (set up by the Makefile)."""
    return os.environ.get("E2E_PYTHON") or str(Path(__file__).resolve().parents[2] / ".venv-anki" / "bin" / "python")


def run_anki(
    base: Path,
    mode: str,
    out: Path,
    extra_env: dict[str, str] | None = None,
    timeout: int = 240,
    python: str | None = None,
) -> dict:
    """Run Anki on `base` in `mode`; return what the driver reported."""
    env = dict(os.environ)
    env.update(
        QT_QPA_PLATFORM="offscreen",
        QTWEBENGINE_CHROMIUM_FLAGS="--no-sandbox --disable-gpu",
        QTWEBENGINE_DISABLE_SANDBOX="1",
        E2E_MODE=mode,
        E2E_OUT=str(out),
        ANKI_NOUPDATE="1",
        PYTHONDONTWRITEBYTECODE="1",
    )
    # Anki lets one instance run per user: another Anki started meanwhile (the other test worker, a second test run,
    # `make run`) would hand over to it and exit ("Already running; reusing existing instance"). A key per run:
    # Anki 26 reads ANKI_SINGLE_INSTANCE_KEY; Anki 25.07 makes its key from the user's name (getpass.getuser()).
    key = f"fsrs-calibration-e2e-{uuid.uuid4().hex}"
    env.update(ANKI_SINGLE_INSTANCE_KEY=key, LOGNAME=key, USER=key)
    env.pop("PYTHONPATH", None)
    env.update(extra_env or {})
    proc = subprocess.run(
        [python or anki_python(), "-c", "import aqt; aqt.run()", "-b", str(base), "-p", PROFILE],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if not out.exists():
        raise AssertionError(
            f"Anki wrote no result (exit {proc.returncode}):\n{proc.stdout[-3000:]}\n{proc.stderr[-5000:]}"
        )
    data = json.loads(out.read_text())
    data["returncode"] = proc.returncode
    data["stderr"] = proc.stderr[-5000:]
    return data


if __name__ == "__main__":
    print(run_anki(Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3])))
