"""An Anki add-on that drives Anki for the end-to-end tests (installed as addons21/zz_e2e_driver).

E2E_MODE=install: install the .ankiaddon at E2E_ADDON with Anki's own add-on manager, then quit.
E2E_MODE=tools:   trigger Tools → "FSRS Calibration…", wait for the report, save its text and a
                  screenshot, then quit. Everything observed goes to the JSON file E2E_OUT.
"""

from __future__ import annotations

import json
import os
import time
import traceback

from aqt import gui_hooks, mw
from aqt.qt import QApplication, QDialog, QPlainTextEdit, QTimer

MODE = os.environ.get("E2E_MODE", "")
OUT = os.environ.get("E2E_OUT", "")
SHOTS = os.environ.get("E2E_SHOTS", "")
MENU_TEXT = "FSRS Calibration…"
result: dict = {"mode": MODE, "log": []}
started = time.monotonic()


def log(msg: str) -> None:
    result["log"].append(f"{time.monotonic() - started:6.2f} {msg}")


def finish() -> None:
    with open(OUT, "w") as f:
        json.dump(result, f, indent=1)
    QTimer.singleShot(100, mw.unloadProfileAndExit)


def guarded(fn):
    def wrapper(*args):
        try:
            fn(*args)
        except Exception:
            result["error"] = traceback.format_exc()
            finish()

    return wrapper


@guarded
def install() -> None:
    res = mw.addonManager.install(os.environ["E2E_ADDON"])
    result["install"] = repr(res)
    result["installed"] = sorted(os.listdir(mw.addonManager.addonsFolder()))
    finish()


def find_report() -> QDialog | None:
    for w in QApplication.topLevelWidgets():
        if isinstance(w, QDialog) and w.isVisible() and w.windowTitle().startswith("FSRS Calibration"):
            return w
    return None


@guarded
def poll(deadline: float) -> None:
    dialog = find_report()
    if dialog is not None:
        edit = dialog.findChild(QPlainTextEdit)
        result["dialog_title"] = dialog.windowTitle()
        result["report"] = edit.toPlainText() if edit is not None else None
        if SHOTS:
            dialog.grab().save(os.path.join(SHOTS, "report.png"))
            mw.grab().save(os.path.join(SHOTS, "main_window.png"))
        dialog.close()
        log("report read")
        finish()
    elif time.monotonic() > deadline:
        result["error"] = "timed out waiting for the report"
        finish()
    else:
        QTimer.singleShot(200, lambda: poll(deadline))


@guarded
def tools() -> None:
    actions = {a.text(): a for a in mw.form.menuTools.actions()}
    result["tools_menu"] = sorted(actions)
    if MENU_TEXT not in actions:
        result["error"] = "menu entry missing"
        finish()
        return
    import sys

    result["numpy_before"] = "numpy" in sys.modules
    actions[MENU_TEXT].trigger()
    log("triggered")
    poll(time.monotonic() + 120)
    result["numpy_file"] = getattr(sys.modules.get("numpy"), "__file__", None)


def on_profile_open() -> None:
    import sys

    log("profile open")
    result["addons"] = {m.dir_name: m.enabled for m in mw.addonManager.all_addon_meta()}
    result["loaded_modules"] = sorted(k for k in sys.modules if k.split(".")[0] in result["addons"])
    result["dialogs"] = [w.windowTitle() for w in QApplication.topLevelWidgets() if w.isVisible()]
    if MODE == "debug":
        import importlib

        try:
            importlib.import_module("fsrs_calibration")
        except Exception:
            result["import_error"] = traceback.format_exc()
        finish()
    if MODE == "install":
        QTimer.singleShot(300, install)
    elif MODE == "tools":
        QTimer.singleShot(300, tools)


gui_hooks.profile_did_open.append(on_profile_open)
QTimer.singleShot(180_000, lambda: (result.setdefault("error", "global timeout"), finish()))
