"""Menu wiring inside Anki: Tools → "FSRS Calibration…" and the deck gear's "Evaluate FSRS on this deck…"."""

from __future__ import annotations

from typing import Any

from aqt import gui_hooks, mw
from aqt.qt import QAction, QMenu, QTimer
from aqt.utils import showWarning

MENU_TEXT = "FSRS Calibration…"
EXPORT_TEXT = "Export for the FSRS benchmark…"
DECK_MENU_TEXT = "Evaluate FSRS on this deck…"
TITLE = "FSRS Calibration"
ADDON = __name__.split(".")[0]  # the add-on's folder name (a number when installed from AnkiWeb)

_dialog: Any = None
START_AFTER_MS = 30  # from showing a new dialog to starting its evaluation (its first paint comes first)
_problem: str | None = None


def open_dialog(kind: str = "collection", value: str = "", action: str = "evaluate") -> None:
    """Open (or raise) the one dialog, scoped as asked, and start the evaluation (or the export).

    A new dialog comes in steps, one per turn of Anki's event loop, so that the window never freezes
    long: its code is imported, then it is built, shown and painted, then the evaluation starts (all at
    once, opening froze Anki's window for about 200 ms: bench/bench_dialog.py; the background thread's
    start competes with the first paint for Python's GIL).
    """
    if _problem:
        showWarning(_problem, title=TITLE)
        return
    if _dialog is not None:  # already built: rescope, raise and start at once
        _open(kind, value, action)
        return
    from . import dialog  # imported in this turn, built in the next

    QTimer.singleShot(dialog.NEXT_TURN_MS, lambda: _open(kind, value, action))


def _open(kind: str, value: str, action: str) -> None:
    global _dialog
    if mw.col is None:  # the profile closed between the click and this turn
        return
    from anki.buildinfo import version

    from .dialog import NEXT_TURN_MS, CalibrationDialog
    from .runner import AnkiRunner

    dialog = _dialog
    if dialog is not None:
        dialog.set_scope(kind, value)
        _show(dialog)
        if action == "export":
            dialog.export_flow()
        else:
            dialog.start()
        return
    config = mw.addonManager.getConfig(ADDON) or {}
    save = lambda c: mw.addonManager.writeConfig(ADDON, c)  # noqa: E731
    dialog = _dialog = CalibrationDialog(mw, AnkiRunner(mw), config, save, version, _history_file())
    dialog.finished.connect(_forget)
    dialog.set_scope(kind, value)
    if action == "export":
        _show(dialog)
        dialog.export_flow()
    else:
        QTimer.singleShot(NEXT_TURN_MS, lambda: _show(dialog, start=True))


def _history_file() -> str | None:
    """Return this profile's file of past diagnoses, in the add-on's user files (kept across updates)."""
    import os

    try:
        folder = os.path.join(mw.addonManager.addonsFolder(ADDON), "user_files")
        os.makedirs(folder, exist_ok=True)
    except OSError:
        return None
    name = "".join(c if c.isalnum() or c in "-_" else "_" for c in str(mw.pm.name or "profile"))
    return os.path.join(folder, f"diagnoses-{name}.json")


def _show(dialog: Any, start: bool = False) -> None:
    if dialog is _dialog:  # not closed meanwhile
        dialog.show()
        dialog.raise_()
        dialog.activateWindow()
        if start:
            QTimer.singleShot(START_AFTER_MS, dialog.start)


def _forget(*_args: Any) -> None:
    global _dialog
    if _dialog is not None:
        # Anki's own way for a closed dialog: deleted later, its reference cycles collected on the main
        # thread (Anki turns automatic collection off: collected in a worker thread, widgets would die there).
        collect = getattr(mw, "deferred_delete_and_garbage_collect", None)
        if collect is not None:
            collect(_dialog)
        else:
            _dialog.deleteLater()
    _dialog = None


def _close_dialog() -> None:
    if _dialog is not None:
        _dialog.cancel()
        _dialog.close()
        _forget()


def _deck_menu(menu: QMenu, deck_id: Any) -> None:
    name = mw.col.decks.name(deck_id)
    action = QAction(DECK_MENU_TEXT, menu)
    action.triggered.connect(lambda: open_dialog("deck", name))
    menu.addAction(action)


def _theme_changed() -> None:
    if _dialog is not None:
        _dialog.update()


def register(problem: str | None) -> None:
    """Add the menu entries; with a start-up problem they explain it instead of running."""
    global _problem
    _problem = problem
    action = QAction(MENU_TEXT, mw)
    action.triggered.connect(lambda: open_dialog("collection"))
    mw.form.menuTools.addAction(action)
    export = QAction(EXPORT_TEXT, mw)
    export.triggered.connect(lambda: open_dialog("collection", action="export"))
    mw.form.menuTools.addAction(export)
    gui_hooks.deck_browser_will_show_options_menu.append(_deck_menu)
    gui_hooks.profile_will_close.append(_close_dialog)
    gui_hooks.theme_did_change.append(_theme_changed)
