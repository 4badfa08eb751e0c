"""What is said of presets set to an FSRS newer than the replay knows: named in one line, left out of every
number (never scored as an older FSRS)."""

from __future__ import annotations

LEFT_OUT_ONE = (
    'Preset "{preset}" uses {model}, which this version cannot replay yet: its 1 card in scope is left out of '
    "every number."
)
LEFT_OUT_MANY = (
    'Preset "{preset}" uses {model}, which this version cannot replay yet: its {cards} cards in scope are left '
    "out of every number."
)
NOTHING_ELSE = "No other cards are in {scope}."
THE_COLLECTION = "the collection"


def left_out_line(preset: str, model: str, cards: int) -> str:
    """Return the one line that names a preset left out of every number."""
    if cards == 1:
        return LEFT_OUT_ONE.format(preset=preset, model=model)
    return LEFT_OUT_MANY.format(preset=preset, model=model, cards=f"{cards:,}")
