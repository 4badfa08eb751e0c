"""Qt side of the add-on: menu wiring and result display (formats and draws, never computes metrics)."""

from __future__ import annotations

MIN_POINT_VERSION = 250700  # Anki 25.07: CPython 3.13, the numpy builds bundled with the add-on


def startup_problem() -> str | None:
    """Return why the add-on cannot run in this Anki (too old, no numpy for it), or None."""
    from anki.buildinfo import version
    from anki.utils import point_version

    if point_version() < MIN_POINT_VERSION:
        from ..metrics.explain.lang import text

        return text(
            "FSRS Calibration supports Anki 25.07 and later; this is Anki {version}. Please update Anki.",
            version=version,
        )
    from ..bundled import ensure_numpy

    return ensure_numpy()


def setup() -> None:
    """Register the add-on's menu entries in Anki's main window (numpy is imported only when used), in Anki's
    language (set by now): the entries and any start-up problem are translated once, here."""
    from .language import apply
    from .menu import register
    from .places import register as register_places

    apply()
    register(startup_problem())
    register_places()  # Deck Options, the Browser, Statistics
