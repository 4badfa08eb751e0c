"""A stand-in for QueryOp.run_in_background in pytest-qt tests: a real thread on a real collection.

Anki's main window (which run_in_background needs) runs only in the end-to-end tests; here the dialog's
real QueryOps (ui/operations.py) are run by this runner, which does what run_in_background does: the op
on the collection off the main thread, then success or failure back on it.
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

    def start(self, query_op: Any) -> None:
        """Run a QueryOp as run_in_background does (its op, success and failure are Anki's fields)."""
        self.runs += 1
        op, success, failure = query_op._op, query_op._success, query_op._failure

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
