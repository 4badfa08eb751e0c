"""What is said of presets set to an FSRS newer than the replay knows: named in one line, left out of every
number (never scored as an older FSRS)."""

from __future__ import annotations

from . import formatting as fmt
from .lang import N_, n_

NOTHING_ELSE = N_("No other cards are in {scope}.")
THE_COLLECTION = N_("the collection")


def left_out_line(preset: str, model: str, cards: int) -> str:
    """Return the one line that names a preset left out of every number."""
    said = n_(
        'Preset "{preset}" uses {model}, which this version cannot replay yet: its {cards} card in scope is left out '
        "of every number.",
        'Preset "{preset}" uses {model}, which this version cannot replay yet: its {cards} cards in scope are left '
        "out of every number.",
        cards,
    )
    return said.format(preset=fmt.name(preset), model=model, cards=fmt.count(cards))
