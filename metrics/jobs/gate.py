"""A memory gate: memory-hungry jobs (Anki's optimizer, our replays) run together only while their
estimated memory fits one budget, so that a 5M-review collection does not train five folds at once.

Estimates, measured on this project's 5M-review benchmark collection (bench/bench_memory.py):
Anki's optimizer holds about 5–6 times its request's bytes while it trains (635 MB for a 124 MB
request), and a replay with its scores about 100 bytes per revlog entry.
"""

from __future__ import annotations

import ctypes
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from ..errors import Cancelled

TRAINING_BYTES_PER_REQUEST_BYTE = 6  # the request itself and Anki's optimizer's own copies
REPLAY_BYTES_PER_ENTRY = 100  # replayed states, predictions, sort orders and scores per revlog entry
DEFAULT_BUDGET = 640 << 20  # estimated bytes running at once: one 5M-review fold at a time, small ones together


class MemoryGate:
    """Admits jobs while the sum of their estimated bytes fits the budget; a job alone always runs."""

    def __init__(self, budget: int | None = None) -> None:
        self.budget = budget if budget is not None else DEFAULT_BUDGET  # read now (tests lower it)
        self.give_back = TRIM_AFTER_JOBS  # read once: the command line sets it, Anki's window does not
        self._used = 0
        self._running = 0
        self._cond = threading.Condition()

    def acquire(self, cost: int, should_stop: Callable[[], bool] | None = None) -> None:
        """Wait until `cost` bytes fit beside the running jobs (or none runs), then count them as running.

        Raises Cancelled if `should_stop` says so while waiting.
        """
        with self._cond:
            while self._running and self._used + cost > self.budget:
                if should_stop is not None and should_stop():
                    raise Cancelled()
                self._cond.wait(0.1)
            self._used += cost
            self._running += 1

    def release(self, cost: int) -> None:
        """Count a job of `cost` bytes as finished (its freed memory given back, if asked) and let waiting ones run."""
        if self.give_back:
            give_back_memory()
        with self._cond:
            self._used -= cost
            self._running -= 1
            self._cond.notify_all()

    @contextmanager
    def hold(self, cost: int, should_stop: Callable[[], bool] | None = None) -> Iterator[None]:
        """Run the block as a job of `cost` bytes (acquire, then release at its end)."""
        self.acquire(cost, should_stop)
        try:
            yield
        finally:
            self.release(cost)


def one_at_a_time(costs: list[int], gate: MemoryGate | None = None) -> bool:
    """Return True when these jobs together need more than half the gate's budget (DEFAULT_BUDGET, read
    now, without a gate): the command line then runs them first, one at a time, with the collection's
    arrays put aside, rather than beside the rest of the work."""
    budget = gate.budget if gate is not None else DEFAULT_BUDGET
    return sum(costs) > budget / 2


def training_cost(request_bytes: int) -> int:
    """Return the estimated peak bytes of one training by Anki's optimizer on a request of this size."""
    return TRAINING_BYTES_PER_REQUEST_BYTE * request_bytes


def replay_cost(entries: int) -> int:
    """Return the estimated peak bytes of replaying and scoring this many revlog entries."""
    return REPLAY_BYTES_PER_ENTRY * entries


def _malloc_trim() -> Callable[[], None]:
    """Return a call that hands freed heap memory back to the system (glibc's malloc_trim), or a no-op."""
    if not sys.platform.startswith("linux"):
        return lambda: None
    try:
        trim = ctypes.CDLL(None).malloc_trim  # glibc only (not musl)
    except (OSError, AttributeError):
        return lambda: None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return lambda: None if trim(0) else None


# After a job ends, its freed memory stays with the thread's malloc arena unless trimmed: Anki's
# optimizer in five pool threads one after the other would otherwise grow the process by each one.
# Only the command line trims (cli.run sets TRIM_AFTER_JOBS): inside Anki's window, with Qt's own
# threads allocating, the add-on leaves the process's heap alone.
give_back_memory = _malloc_trim()
TRIM_AFTER_JOBS = False


def settle() -> None:
    """Hand the memory freed so far back to the system (the command line only: see TRIM_AFTER_JOBS): without
    it, the heap keeps what large temporaries freed, and the peak adds them up."""
    if TRIM_AFTER_JOBS:
        give_back_memory()
