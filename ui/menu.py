"""Menu wiring inside Anki: Tools → "FSRS Calibration…" and the deck gear's "Evaluate FSRS on this deck…"."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aqt import gui_hooks, mw
from aqt.qt import QAction, QMenu
from aqt.utils import showWarning

from ..metrics.explain.lang import N_, _, text
from .language import apply
from .turns import alive, later, on

if TYPE_CHECKING:
    from anki.collection import OpChanges
    from aqt.qt import QDialog

    from .dialog import CalibrationDialog

MENU_TEXT = N_("FSRS Calibration…")
EXPORT_TEXT = N_("Export for the FSRS benchmark…")
DECK_MENU_TEXT = N_("Evaluate FSRS on this deck…")
TITLE = N_("FSRS Calibration")
ADDON = __name__.split(".")[0]  # the add-on's folder name (a number when installed from AnkiWeb)

_dialog: CalibrationDialog | None = None
START_AFTER_MS = 30  # from showing a new dialog to starting its evaluation (its first paint comes first)
_problem: str | None = None


def open_dialog(
    kind: str = "collection",
    value: str = "",
    action: str = "evaluate",
    parent: QDialog | None = None,
    cards: list[int] | None = None,
) -> None:
    """Open (or raise) the one dialog, scoped as asked (`cards`: card ids, the Browser's selection), and start
    the evaluation (or the export). With `parent`, a window that blocks Anki's others (Deck Options), the
    dialog is that window's child while it is open: usable beside it.

    A new dialog comes in steps, one per turn of Anki's event loop, so that the window never freezes
    long: its code is imported, then it is built, shown and painted, then the evaluation starts (all at
    once, opening froze Anki's window for about 200 ms: bench/bench_dialog.py; the background thread's
    start competes with the first paint for Python's GIL).
    """
    if _problem:
        showWarning(_problem, title=_(TITLE))
        return
    if _dialog is not None:  # already built: rescope, raise and start at once
        _show_dialog(kind, value, action, parent, cards)
        return
    from . import dialog  # imported in this turn, built in the next

    later(mw, dialog.NEXT_TURN_MS, lambda: _show_dialog(kind, value, action, parent, cards))


def _show_dialog(
    kind: str, value: str, action: str, parent: QDialog | None = None, cards: list[int] | None = None
) -> None:
    global _dialog
    if mw.col is None:  # the profile closed between the click and this turn
        return
    apply()  # Anki's language, again: the learner may have changed it in Preferences since
    from anki.buildinfo import version

    from .dialog import NEXT_TURN_MS, CalibrationDialog
    from .runner import AnkiRunner

    dialog = _dialog
    if dialog is not None:
        dialog.bar.fill(mw.col)  # the decks and presets as they are now
        _scope(dialog, kind, value, cards)
        _show(dialog, parent=parent)
        if action == "export":
            dialog.export_flow()
        else:
            dialog.start()
        return
    config = mw.addonManager.getConfig(ADDON)  # checked by the dialog: Anki's editor takes any JSON
    save = lambda c: mw.addonManager.writeConfig(ADDON, c)  # noqa: E731
    history, problem = user_file("diagnoses")
    dialog = _dialog = CalibrationDialog(mw, AnkiRunner(mw), config, save, version, history)
    dialog.kept_file = user_file("presets")[0]
    dialog.tell([problem] if problem else [])
    on(dialog.finished, _forget)
    _scope(dialog, kind, value, cards)
    if action == "export":
        _show(dialog, parent=parent)
        dialog.export_flow()
    else:
        later(dialog, NEXT_TURN_MS, lambda: _show(dialog, start=True, parent=parent))


def _scope(dialog: CalibrationDialog, kind: str, value: str, cards: list[int] | None) -> None:
    if kind == "cards":
        dialog.set_cards(list(cards or []))
    else:
        dialog.set_scope(kind, value)


def user_file(kind: str) -> tuple[str | None, str]:
    """Return this profile's file of `kind` (diagnoses: past diagnoses; presets: each preset's numbers for
    Deck Options), in the add-on's user files (kept across updates), or None and the line that says why."""
    import os

    from ..metrics.explain.dialog import HISTORY_NO_FOLDER

    try:
        folder = os.path.join(mw.addonManager.addonsFolder(ADDON), "user_files")
        os.makedirs(folder, exist_ok=True)
    except OSError as err:
        return None, text(HISTORY_NO_FOLDER, reason=err.strerror or str(err))
    name = "".join(c if c.isalnum() or c in "-_" else "_" for c in str(mw.pm.name or "profile"))
    return os.path.join(folder, f"{kind}-{name}.json"), ""


def _show(dialog: CalibrationDialog, start: bool = False, parent: QDialog | None = None) -> None:
    if dialog is _dialog:  # not closed meanwhile
        _owned_by(dialog, parent)
        dialog.show()
        dialog.raise_()
        dialog.activateWindow()
        if start:
            later(dialog, START_AFTER_MS, dialog.start)


def _owned_by(dialog: CalibrationDialog, owner: QDialog | None) -> None:
    """Make the dialog the child of `owner` (a window that blocks Anki's others: Deck Options) while `owner`
    is open, so that it can be used beside it; Anki's main window's otherwise."""
    target = owner if owner is not None and alive(owner) and owner.isVisible() else mw
    if dialog.parentWidget() is target:
        return
    shown, geometry = dialog.isVisible(), dialog.geometry()
    dialog.setParent(target, dialog.windowFlags())
    dialog.setGeometry(geometry)
    if shown:
        dialog.show()
    if target is not mw and owner is not None:  # the owner, open
        on(owner.finished, lambda: _owned_by(dialog, None) if alive(dialog) else None)


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


def _deck_menu(menu: QMenu, deck_id: int) -> None:
    from anki.decks import DeckId

    name = mw.col.decks.name(DeckId(deck_id))  # the deck's name now (the dialog's lists follow renames)
    action = QAction(_(DECK_MENU_TEXT), menu)
    on(action.triggered, lambda: open_dialog("deck", name))
    menu.addAction(action)


def _operation_did_execute(changes: OpChanges, handler: object | None) -> None:
    """Anki changed the collection: the dialog's results go out of date, its lists follow decks and presets."""
    if _dialog is None:
        return
    lists = bool(getattr(changes, "deck", False) or getattr(changes, "deck_config", False))
    if lists or getattr(changes, "card", False):
        _dialog.collection_changed(lists=lists)


def _answered(*_args: object) -> None:
    if _dialog is not None:
        _dialog.collection_changed(answered=True)


def _theme_changed() -> None:
    if _dialog is not None:
        _dialog.update()


def register(problem: str | None) -> None:
    """Add the menu entries; with a start-up problem they explain it instead of running."""
    global _problem
    _problem = problem
    action = QAction(_(MENU_TEXT), mw)  # Anki's language is set by now (translated once: a menu entry)
    action.setObjectName("fsrs_calibration_tools")  # found by name in any language (the end-to-end tests)
    on(action.triggered, lambda: open_dialog("collection"))
    mw.form.menuTools.addAction(action)
    export = QAction(_(EXPORT_TEXT), mw)
    on(export.triggered, lambda: open_dialog("collection", action="export"))
    mw.form.menuTools.addAction(export)
    gui_hooks.deck_browser_will_show_options_menu.append(_deck_menu)
    gui_hooks.profile_will_close.append(_close_dialog)
    gui_hooks.theme_did_change.append(_theme_changed)
    gui_hooks.operation_did_execute.append(_operation_did_execute)
    gui_hooks.reviewer_did_answer_card.append(_answered)
