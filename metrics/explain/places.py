"""The words of the add-on's entries in Anki's Browser and Statistics (ui/places.py)."""

from __future__ import annotations

BROWSER_ACTION = "Evaluate FSRS on the selected cards…"
STATS_BUTTON = "FSRS Calibration…"
