"""The words of the add-on's entries in Anki's Browser and Statistics (ui/places.py)."""

from __future__ import annotations

from .lang import N_

BROWSER_ACTION = N_("Evaluate FSRS on the selected cards…")
STATS_BUTTON = N_("FSRS Calibration…")
