"""A stand-in for Anki's QueryOp runner in pytest-qt tests: a real thread on a real collection.

Anki's main window (which QueryOp needs) runs only in the end-to-end tests; here the dialog gets
this runner, which does what QueryOp does: op(col) off the main thread, the result back on it.
"""

from __future__ import annotations

import threading
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from aqt.qt import QTimer


class ThreadRunner:
    """Run the dialog's operations in a worker thread; optionally hold them until `gate` is set."""

    def __init__(self, col: Any, gate: threading.Event | None = None) -> None:
        self.col = col
        self.gate = gate
        self.pool = ThreadPoolExecutor(max_workers=1)
        self.started = threading.Event()
        self.runs = 0

    def collection(self) -> Any:
        return self.col

    def run(self, parent: Any, op: Any, success: Any, failure: Any) -> None:
        self.runs += 1

        def work() -> Any:
            self.started.set()
            if self.gate is not None:
                self.gate.wait(30)
            return op(self.col)

        future: Future = self.pool.submit(work)

        def poll() -> None:
            if not future.done():
                QTimer.singleShot(5, poll)
                return
            error = future.exception()
            if error is not None:
                failure(error)
            else:
                success(future.result())

        QTimer.singleShot(5, poll)
