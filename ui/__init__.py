"""Qt side of the add-on: menu wiring and result display (formats and draws, never computes metrics)."""

from __future__ import annotations


def setup() -> None:
    """Register the add-on's menu entries in Anki's main window."""
    from .menu import register

    register()
