"""Menu wiring inside Anki: Tools → "FSRS Calibration…" and the deck gear's "Evaluate FSRS on this deck…"."""

from __future__ import annotations

from typing import Any

from aqt import gui_hooks, mw
from aqt.qt import QAction, QMenu
from aqt.utils import showWarning

from .turns import later, on

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

    later(mw, dialog.NEXT_TURN_MS, lambda: _open(kind, value, action))


def _open(kind: str, value: str, action: str) -> None:
    global _dialog
    if mw.col is None:  # the profile closed between the click and this turn
        return
    from anki.buildinfo import version

    from .dialog import NEXT_TURN_MS, CalibrationDialog
    from .runner import AnkiRunner

    dialog = _dialog
    if dialog is not None:
        dialog.bar.fill(mw.col)  # the decks and presets as they are now
        dialog.set_scope(kind, value)
        _show(dialog)
        if action == "export":
            dialog.export_flow()
        else:
            dialog.start()
        return
    config = mw.addonManager.getConfig(ADDON)  # checked by the dialog: Anki's editor takes any JSON
    save = lambda c: mw.addonManager.writeConfig(ADDON, c)  # noqa: E731
    history, problem = _history_file()
    dialog = _dialog = CalibrationDialog(mw, AnkiRunner(mw), config, save, version, history)
    dialog.tell([problem] if problem else [])
    on(dialog.finished, _forget)
    dialog.set_scope(kind, value)
    if action == "export":
        _show(dialog)
        dialog.export_flow()
    else:
        later(dialog, NEXT_TURN_MS, lambda: _show(dialog, start=True))


def _history_file() -> tuple[str | None, str]:
    """Return this profile's file of past diagnoses, in the add-on's user files (kept across updates), or
    None and the line that says why there is none."""
    import os

    from ..metrics.explain.dialog import HISTORY_NO_FOLDER

    try:
        folder = os.path.join(mw.addonManager.addonsFolder(ADDON), "user_files")
        os.makedirs(folder, exist_ok=True)
    except OSError as err:
        return None, HISTORY_NO_FOLDER.format(reason=err.strerror or str(err))
    name = "".join(c if c.isalnum() or c in "-_" else "_" for c in str(mw.pm.name or "profile"))
    return os.path.join(folder, f"diagnoses-{name}.json"), ""


def _show(dialog: Any, start: bool = False) -> None:
    if dialog is _dialog:  # not closed meanwhile
        dialog.show()
        dialog.raise_()
        dialog.activateWindow()
        if start:
            later(dialog, START_AFTER_MS, dialog.start)


def _forget() -> None:
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
    """The profile closes (a switch, or Anki quits): the job is cancelled, its outcome dropped, the dialog closed."""
    if _dialog is not None:
        _dialog.cancel()
        _dialog.close()
        _forget()


def _deck_menu(menu: QMenu, deck_id: Any) -> None:
    name = mw.col.decks.name(deck_id)  # the deck's name now (the dialog's lists follow renames)
    action = QAction(DECK_MENU_TEXT, menu)
    on(action.triggered, lambda: open_dialog("deck", name))
    menu.addAction(action)


def _operation_did_execute(changes: Any, handler: Any) -> None:
    """Anki changed the collection: the dialog's results go out of date, its lists follow decks and presets."""
    if _dialog is None:
        return
    lists = bool(getattr(changes, "deck", False) or getattr(changes, "deck_config", False))
    if lists or getattr(changes, "card", False):
        _dialog.collection_changed(lists=lists)


def _answered(*_args: Any) -> None:
    if _dialog is not None:
        _dialog.collection_changed(answered=True)


def _theme_changed() -> None:
    if _dialog is not None:
        _dialog.update()


def register(problem: str | None) -> None:
    """Add the menu entries; with a start-up problem they explain it instead of running."""
    global _problem
    _problem = problem
    action = QAction(MENU_TEXT, mw)
    on(action.triggered, lambda: open_dialog("collection"))
    mw.form.menuTools.addAction(action)
    export = QAction(EXPORT_TEXT, mw)
    on(export.triggered, lambda: open_dialog("collection", action="export"))
    mw.form.menuTools.addAction(export)
    gui_hooks.deck_browser_will_show_options_menu.append(_deck_menu)
    gui_hooks.profile_will_close.append(_close_dialog)
    gui_hooks.theme_did_change.append(_theme_changed)
    gui_hooks.operation_did_execute.append(_operation_did_execute)
    gui_hooks.reviewer_did_answer_card.append(_answered)
