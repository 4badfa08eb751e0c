"""Qt side of the add-on: menu wiring and result display (formats and draws, never computes metrics)."""

from __future__ import annotations

MIN_POINT_VERSION = 250700  # Anki 25.07: CPython 3.13, the numpy builds bundled with the add-on


def startup_problem() -> str | None:
    """Return why the add-on cannot run in this Anki (too old, no numpy for it), or None."""
    from anki.buildinfo import version
    from anki.utils import point_version

    if point_version() < MIN_POINT_VERSION:
        return f"FSRS Calibration supports Anki 25.07 and later; this is Anki {version}. Please update Anki."
    from ..bundled import ensure_numpy

    return ensure_numpy()


def setup() -> None:
    """Register the add-on's menu entries in Anki's main window (numpy is imported only when used)."""
    from .menu import register

    register(startup_problem())
