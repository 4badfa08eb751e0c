"""Where learners look for the evaluation, beside Tools and a deck's gear (menu.py): a section in Deck Options
(deck_options.py), the Browser's selected cards (its Cards menu and its context menu), and Statistics (a button
beside Anki's own: the deck, collection or search the statistics show).
Anki's own hooks only; no code of Anki's is patched."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aqt import gui_hooks, mw
from aqt.qt import QAction, QDialogButtonBox, QMenu

from ..metrics.explain import places as words
from ..metrics.explain.lang import _
from .menu import open_dialog, user_file
from .turns import alive, on

if TYPE_CHECKING:
    from aqt.browser import Browser
    from aqt.deckoptions import DeckOptionsDialog
    from aqt.stats import NewDeckStats

_deck_options: list[DeckOptionsDialog] = []  # the Deck Options windows given the section (the newest last)


def register() -> None:
    """Add the section, the Browser's action and the Statistics button through Anki's hooks."""
    gui_hooks.deck_options_did_load.append(_deck_options_loaded)
    gui_hooks.webview_did_receive_js_message.append(_js_message)
    gui_hooks.browser_menus_did_init.append(_browser_menus)
    gui_hooks.browser_will_show_context_menu.append(_browser_context_menu)
    gui_hooks.stats_dialog_will_show.append(_statistics)


def _deck_options_loaded(options: DeckOptionsDialog) -> None:
    """Add the section to Deck Options: the kept numbers of every preset, the page shows the current one's."""
    from ..metrics.read.kept_file import KeptUnreadable, read_kept
    from .deck_options import preset_lines, section_script

    path = user_file("presets")[0]
    try:
        kept = read_kept(path) if path else {}
    except KeptUnreadable:
        kept = {}
    deck_preset = mw.col.decks.config_dict_for_deck_id(options._deck["id"])
    lines = preset_lines(kept, mw.col.decks.all_config())
    options.web.eval(section_script(lines, str(deck_preset.get("name", ""))))
    _deck_options.append(options)


def _js_message(handled: tuple[bool, object], message: str, context: object) -> tuple[bool, object]:
    """Carry out the Deck Options section's buttons: the dialog on that preset, or the check of whether the
    preset's change helped (on the scope of its last diagnosis), usable while Deck Options is open."""
    import json

    from .deck_options import MESSAGE

    if not message.startswith(MESSAGE):
        return handled
    kind, _sep, rest = message[len(MESSAGE) :].partition(":")
    try:
        name = str(json.loads(rest))
    except ValueError:
        return (True, None)
    _deck_options[:] = [o for o in _deck_options if alive(o)]  # closed ones are deleted
    owner = next((o for o in reversed(_deck_options) if o.isVisible()), None)
    if kind == "check":
        scope = _kept_scope(name)
        open_dialog(scope[0], scope[1], parent=owner)
    else:
        open_dialog("preset", name, parent=owner)
    return (True, None)


def _kept_scope(preset: str) -> tuple[str, str]:
    """Return the scope of the preset's last diagnosis (where "did it help?" is checked), else the preset."""
    from ..metrics.read.kept_file import KeptUnreadable, read_kept

    path = user_file("presets")[0]
    try:
        scope = (read_kept(path) if path else {}).get(preset, {}).get("scope")
    except KeptUnreadable:
        scope = None
    return (scope[0], scope[1]) if scope else ("preset", preset)


def _browser_menus(browser: Browser) -> None:
    menu = getattr(browser.form, "menu_Cards", None)
    if menu is not None:
        _add_browser_action(browser, menu)


def _browser_context_menu(browser: Browser, menu: QMenu) -> None:
    _add_browser_action(browser, menu)


def _add_browser_action(browser: Browser, menu: QMenu) -> None:
    action = QAction(_(words.BROWSER_ACTION), menu)
    on(action.triggered, lambda: _evaluate_selected(browser))
    menu.addSeparator()
    menu.addAction(action)


def _evaluate_selected(browser: Browser) -> None:
    """Evaluate exactly the selected cards (a note-mode selection: the notes' cards), by their ids."""
    table = browser.table
    notes = getattr(table, "is_notes_mode", lambda: False)()
    ids = table.get_card_ids_from_selected_note_ids() if notes else browser.selected_cards()
    if ids:
        open_dialog("cards", cards=[int(c) for c in ids])


def _statistics(stats: NewDeckStats) -> None:
    """A button beside Statistics' own: the dialog on the deck its deck chooser shows (with subdecks)."""
    box = getattr(getattr(stats, "form", None), "buttonBox", None)
    if box is None:
        return
    button = box.addButton(_(words.STATS_BUTTON), QDialogButtonBox.ButtonRole.ActionRole)
    if button is None:
        return
    button.setAutoDefault(False)
    on(button.clicked, lambda: _statistics_scope(stats))


STATS_SEARCH_JS = "(function(){var e=document.getElementById('statisticsSearchText');return e?e.value:null;})()"
"""The search the statistics show: the page's search box, whose id Anki keeps as an external API."""


def _statistics_scope(stats: NewDeckStats) -> None:
    """Open the dialog on what the statistics show: read the page's search, then scope by it."""
    web = getattr(getattr(stats, "form", None), "web", None)
    if web is None:
        _open_statistics_scope(stats, None)
        return
    web.evalWithCallback(STATS_SEARCH_JS, lambda search: _open_statistics_scope(stats, search))


def _open_statistics_scope(stats: NewDeckStats, search: object) -> None:
    """The page's "deck:current" (its Deck choice) is the deck its deck chooser shows, with subdecks; an
    empty search (its Collection choice) the collection; any other search that search."""
    if isinstance(search, str) and search.strip() not in ("", "deck:current"):
        open_dialog("search", search.strip())
        return
    if isinstance(search, str) and not search.strip():
        open_dialog("collection")
        return
    chooser = getattr(stats, "deck_chooser", None)
    did = getattr(chooser, "selected_deck_id", None) if chooser is not None else None
    name = mw.col.decks.name_if_exists(did) if did else None
    open_dialog("deck", name) if name else open_dialog("collection")
