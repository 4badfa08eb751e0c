"""How the dialog runs its background work: Anki's QueryOp (read-only, in the background)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, TypeVar

if TYPE_CHECKING:
    from anki.collection import Collection
    from aqt.main import AnkiQt
    from aqt.operations import QueryOp

T = TypeVar("T")


class Runner(Protocol):
    """Starts the dialog's operations (ui/operations.py) and gives quick main-thread reads of the collection."""

    def collection(self) -> Collection | None:
        """Return the collection for quick main-thread reads (deck and preset names); None once it closed."""

    def start(self, op: QueryOp[T]) -> None:
        """Run a QueryOp in the background: its success or failure is called on the main thread."""


class AnkiRunner:
    """The runner inside Anki: QueryOp, without Anki's modal progress window (the dialog shows its own)."""

    def __init__(self, mw: AnkiQt) -> None:
        self.mw = mw

    def collection(self) -> Collection | None:
        """Return Anki's open collection."""
        return self.mw.col

    def start(self, op: QueryOp[T]) -> None:
        """Run the QueryOp (read-only: no undo entry, no change to the collection)."""
        op.run_in_background()
