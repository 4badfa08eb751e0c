"""How the dialog reaches the collection: through Anki's QueryOp (read-only, in the background)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol


class Runner(Protocol):
    """Runs an operation on the collection off the main thread and reports back on it."""

    def collection(self) -> Any:
        """Return the collection for quick main-thread reads (deck and preset names)."""

    def run(self, parent: Any, op: Callable[[Any], Any], success: Callable[[Any], None],
            failure: Callable[[Exception], None]) -> None:  # fmt: skip
        """Run op(col) in the background; call success(result) or failure(exception) on the main thread."""


class AnkiRunner:
    """The runner inside Anki: QueryOp, without Anki's modal progress window (the dialog shows its own)."""

    def __init__(self, mw: Any) -> None:
        self.mw = mw

    def collection(self) -> Any:
        """Return Anki's open collection."""
        return self.mw.col

    def run(self, parent: Any, op: Callable[[Any], Any], success: Callable[[Any], None],
            failure: Callable[[Exception], None]) -> None:  # fmt: skip
        """Run op through QueryOp (read-only: no undo entry, no change to the collection)."""
        from aqt.operations import QueryOp

        QueryOp(parent=parent, op=op, success=success).failure(failure).run_in_background()
