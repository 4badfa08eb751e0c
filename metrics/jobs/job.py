"""One running job: what stops it, what it reports, and the memory gate its heavy parts share.

As fsrs-rs's `evaluate` callback both reports progress and cancels, a `Job` is the one thing a caller
hands to a long computation: `report` says which step starts (a typed `Progress` of kinds.py, worded by
`explain/progress.py`) and raises `Cancelled` when the caller asked to stop; `check` only does the
latter; `hold` runs a block once its estimated memory fits the gate. No numpy, no wording here.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from ..errors import Cancelled
from ..kinds import Progress, ProgressCallback
from .gate import MemoryGate


class Job:
    """Cancel + progress + memory gate of one job (compare, diagnose, an evaluation).

    `should_stop` is the caller's own test (the dialog's Cancel button), None when nothing cancels it;
    `progress` receives each step; `gate` is shared with the caller's other heavy work (a new one if None).
    """

    def __init__(
        self,
        should_stop: Callable[[], bool] | None = None,
        progress: ProgressCallback | None = None,
        gate: MemoryGate | None = None,
    ) -> None:
        self.should_stop = should_stop
        self.progress = progress
        self.gate = gate if gate is not None else MemoryGate()
        self._ended = threading.Event()

    def stopped(self) -> bool:
        """Return True once the caller asked to stop or the job has ended (work still waiting gives up)."""
        return self._ended.is_set() or (self.should_stop is not None and self.should_stop())

    def check(self) -> None:
        """Raise Cancelled if the caller asked to stop."""
        if self.should_stop is not None and self.should_stop():
            raise Cancelled()

    def report(self, progress: Progress) -> None:
        """Tell the caller which step starts, then stop if it asked to (Cancelled)."""
        if self.progress is not None:
            self.progress(progress)
        self.check()

    def end(self) -> None:
        """Mark the job as ended: parts of it still waiting for memory give up (`stopped` is True)."""
        self._ended.set()

    def part(self) -> Job:
        """Return a job for a part of this one: the same caller's cancel, progress and gate, its own end."""
        return Job(self.should_stop, self.progress, self.gate)

    @contextmanager
    def hold(self, cost: int) -> Iterator[None]:
        """Run the block once `cost` bytes fit in the memory gate (Cancelled if stopped while waiting)."""
        with self.gate.hold(cost, self.stopped):
            yield

    def hold_until_released(self, cost: int) -> Held:
        """Return `cost` bytes held in the memory gate until `release` (for work that ends before its block)."""
        self.gate.acquire(cost, self.stopped)
        return Held(self.gate, cost)


class Held:
    """Bytes held in a memory gate, released once (a second `release` does nothing)."""

    def __init__(self, gate: MemoryGate, cost: int) -> None:
        self._gate = gate
        self._cost = cost
        self._held = True

    def release(self) -> None:
        """Give the bytes back to the gate, if not already given."""
        if self._held:
            self._held = False
            self._gate.release(self._cost)
