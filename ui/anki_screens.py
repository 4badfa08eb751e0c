"""A finding's actions, carried out through Anki's own screens: Deck Options and the Browser.

The add-on never writes the collection: these open the screen where the learner acts (Optimize, desired
retention, "Ignore cards reviewed before", suspending or editing cards), with the deck or cards already chosen.
An action is one of the engine's AnkiAction types (metrics/kinds.py): DeckOptions, Browse, Evaluate.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import aqt
from aqt.utils import tooltip

from ..metrics.explain.lang import N_, _
from ..metrics.kinds import AnkiAction, Browse, DeckOptions, Evaluate

if TYPE_CHECKING:
    from aqt.browser import Browser

ACTION_LABELS: dict[tuple[type[AnkiAction], str], str] = {  # the buttons, naming what they open (translated there)
    (DeckOptions, "preset"): N_('Deck Options of "{preset}"'),
    (DeckOptions, "deck"): N_('Deck Options of deck "{deck}"'),
    (Browse, "deck"): N_('Show deck "{deck}" in the Browser'),
    (Browse, "search"): N_("Show in the Browser"),
    (Evaluate, "deck"): N_('Evaluate deck "{deck}"'),
    (Evaluate, "search"): N_("Evaluate these cards"),
}


def open_deck_options(deck_id: int) -> None:
    """Open Anki's deck options for this deck (its preset's options: Optimize, desired retention …)."""
    from anki.decks import DeckId
    from aqt.deckoptions import display_options_for_deck_id

    if aqt.mw is None or aqt.mw.col is None or aqt.mw.col.decks.get(DeckId(deck_id), default=False) is None:
        tooltip(_("That deck no longer exists."))
        return
    display_options_for_deck_id(DeckId(deck_id))


def open_browser(search: str) -> Browser:
    """Open Anki's Browser showing the cards that `search` finds; return the Browser."""
    return aqt.dialogs.open("Browser", aqt.mw, search=(search,))


def carry_out(action: AnkiAction, evaluate: Callable[[str], None]) -> None:
    """Carry out one action; `evaluate` evaluates a search in the add-on's dialog."""
    if isinstance(action, DeckOptions):
        open_deck_options(action.deck_id)
    elif isinstance(action, Browse):
        open_browser(action.search)
    else:
        evaluate(action.search)
