"""Menu wiring inside Anki: Tools → "FSRS Calibration…" and the deck gear's "Evaluate FSRS on this deck…"."""

from __future__ import annotations

from typing import Any

from aqt import gui_hooks, mw
from aqt.qt import QAction, QMenu
from aqt.utils import showWarning

MENU_TEXT = "FSRS Calibration…"
EXPORT_TEXT = "Export for the FSRS benchmark…"
DECK_MENU_TEXT = "Evaluate FSRS on this deck…"
TITLE = "FSRS Calibration"
ADDON = __name__.split(".")[0]  # the add-on's folder name (a number when installed from AnkiWeb)

_dialog: Any = None
_problem: str | None = None


def open_dialog(kind: str = "collection", value: str = "", action: str = "evaluate") -> Any:
    """Open (or raise) the one dialog, scoped as asked, and start the evaluation (or the export)."""
    global _dialog
    if _problem:
        showWarning(_problem, title=TITLE)
        return None
    from anki.buildinfo import version

    from .dialog import CalibrationDialog
    from .runner import AnkiRunner

    if _dialog is None:
        config = mw.addonManager.getConfig(ADDON) or {}
        _dialog = CalibrationDialog(
            mw, AnkiRunner(mw), config, lambda c: mw.addonManager.writeConfig(ADDON, c), anki_version=version
        )
        _dialog.finished.connect(_forget)
    _dialog.show()
    _dialog.raise_()
    _dialog.activateWindow()
    _dialog.set_scope(kind, value)
    if action == "export":
        _dialog.export_flow()
    else:
        _dialog.run()
    return _dialog


def _forget(*_args: Any) -> None:
    global _dialog
    if _dialog is not None:
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
