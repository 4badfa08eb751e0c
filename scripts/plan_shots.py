"""Screenshots of What to do for simulated learners (the dialog as it opens: evaluated, then diagnosed), for a cold
read of the plan: a reader who sees only the pictures says what they would do first, how sure they are, how long it
took. The dialog at the size it opens with on a 1366×768 laptop screen, in the language given (English by default).

    .venv/bin/python scripts/plan_shots.py [LANGUAGE]   # writes build/screenshots/plans/<learner>-<language>.png
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "scripts"), str(ROOT / "tests" / "engine")]
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def learners(folder: Path) -> dict[str, str]:
    """Return learner -> the path of its collection (built here)."""
    from support.learners import build
    from support.optimized import build_optimized
    from test_plan import shared_preset

    out = {}
    for name, habits in (("hard", {"hard_share": 0.6}), ("again", {"again_share": 0.15}), ("honest", {})):
        out[name] = str(folder / f"{name}.anki2")
        build_optimized(out[name], 1, **habits)
    out["defaults"] = build(str(folder / "defaults.anki2"), 0, cards=300, preset=False)
    out["subdeck"] = shared_preset(str(folder / "subdeck.anki2"), 1, 0.3)
    return out


def shoot(path: str, target: Path, language: str) -> None:
    """Open the dialog on the collection, wait for its plan, save the What to do tab."""
    from anki.collection import Collection
    from aqt.qt import QApplication, Qt
    from support.qt_helpers import ThreadRunner

    from fsrs_calibration.ui import language as ui_language
    from fsrs_calibration.ui.dialog import CalibrationDialog

    ui_language.apply(language)  # as in Anki: the language's number marks (Qt's locale) and Anki's own terms
    app = QApplication.instance()
    assert app is not None
    rtl = ui_language.lang.current().right_to_left  # as Anki sets it: buttons and their text laid out right to left
    app.setLayoutDirection(Qt.LayoutDirection.RightToLeft if rtl else Qt.LayoutDirection.LeftToRight)
    col = Collection(path)
    try:
        dialog = CalibrationDialog(None, ThreadRunner(col), {"auto_diagnose": True}, None, "26.09.3")
        dialog.resize(920, 700)  # as it opens on a 1366×768 screen (728 px under the taskbar)
        dialog.show()
        dialog.start()
        while dialog.diagnosis is None or dialog.running or dialog.whattodo.building:
            app.processEvents()
        for _ in range(5):
            app.processEvents()
        dialog.grab().save(str(target))
        dialog.close()
    finally:
        col.close(downgrade=False)


def main(language: str) -> None:
    from aqt.qt import QApplication

    _app = QApplication([])
    out = ROOT / "build" / "screenshots" / "plans"
    out.mkdir(parents=True, exist_ok=True)
    sample = ROOT / "build" / "sample" / "collection.anki2"
    with tempfile.TemporaryDirectory() as tmp:
        for name, path in {"sample": str(sample), **learners(Path(tmp))}.items():
            shoot(path, out / f"{name}-{language}.png", language)
            print(out / f"{name}-{language}.png")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "en")
