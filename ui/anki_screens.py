"""A finding's actions, carried out through Anki's own screens: Deck Options and the Browser.

The add-on never writes the collection: these open the screen where the learner acts (Optimize, desired
retention, "Ignore cards reviewed before", suspending or editing cards), with the deck or cards already chosen.
An action is one of the engine's AnkiAction types (metrics/kinds.py): DeckOptions, Browse, Evaluate.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import aqt
from aqt.utils import tooltip

from ..metrics.explain.lang import N_, _
from ..metrics.kinds import AnkiAction, Browse, DeckOptions, Evaluate

ACTION_LABELS: dict[type[AnkiAction], str] = {  # the buttons of the actions (translated where shown)
    DeckOptions: N_("Open Deck Options"),
    Browse: N_("Show in Browser"),
    Evaluate: N_("Evaluate this deck"),
}


def open_deck_options(deck_id: int) -> None:
    """Open Anki's deck options for this deck (its preset's options: Optimize, desired retention …)."""
    from anki.decks import DeckId
    from aqt.deckoptions import display_options_for_deck_id

    if aqt.mw is None or aqt.mw.col is None or aqt.mw.col.decks.get(DeckId(deck_id), default=False) is None:
        tooltip(_("That deck no longer exists."))
        return
    display_options_for_deck_id(DeckId(deck_id))


def open_browser(search: str) -> Any:
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
