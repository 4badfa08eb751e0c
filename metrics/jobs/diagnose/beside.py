"""Checks that run in a thread beside the others: each submitted check's findings, collected in the order
the checks were started. One thread, so that what they hold (a preset's entries) is one preset's at a time;
a check submitted `later` runs when the findings are collected, in the collecting thread, after the others."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor

from .finding import Finding


class Beside:
    """The thread of the checks started beside the others, and their findings to come."""

    def __init__(self) -> None:
        self._pool: ThreadPoolExecutor | None = None
        self._runs: list[Future[list[Finding]] | Callable[[], list[Finding]]] = []

    def submit(self, check: Callable[[], list[Finding]], later: bool = False) -> None:
        """Start `check` once the checks started before it have ended (`later`: when collected)."""
        if later:
            self._runs.append(check)
            return
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="fsrs-calibration-beside")
        self._runs.append(self._pool.submit(check))

    def results(self) -> list[Finding]:
        """Wait for the checks; return their findings (a check's exception is raised here)."""
        out: list[Finding] = []
        for run in self._runs:
            out += run.result() if isinstance(run, Future) else run()
        return out

    def close(self) -> None:
        """Cancel the checks not started yet and wait for the running one."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
