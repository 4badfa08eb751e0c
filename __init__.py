"""FSRS Calibration: how well does FSRS predict your memory? (Anki add-on entry point.)

Inside Anki's GUI this registers the add-on's menus; imported anywhere else (pytest,
the command line, the benchmark) it does nothing.
"""

from __future__ import annotations

import sys


def _running_in_anki() -> bool:
    """Return True only when Anki's main window is being set up (aqt.mw exists)."""
    aqt = sys.modules.get("aqt")
    return aqt is not None and getattr(aqt, "mw", None) is not None


if _running_in_anki():
    from .ui import setup as _setup

    _setup()
