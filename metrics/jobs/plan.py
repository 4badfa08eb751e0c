"""The large-collection plan of a comparison, for the command line and the dialog alike.

A comparison's out-of-sample FSRS trains five folds with Anki's optimizer. For a small collection they
train in threads beside the other models (compare's usual path). When the folds' trainings together
need more than half the memory gate's budget (at 5M reviews a comparison otherwise peaks at 1.9 GiB;
500,000 reviews stay below), and the caller can put the collection's arrays aside (the command line
writes them to its run folder), the folds are trained first, one at a time, with nothing else of the
comparison in memory; the comparison then predicts with their parameters.

    plan_compare(Handed(data), CompareInput(...), Job(...), put_aside)   # the command line
    plan_compare(data, CompareInput(...), Job(...))                      # the dialog (nothing put aside)
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager
from typing import Generic, TypeVar

from ..kinds import Progress, Step
from ..models.items import REQUEST_BYTES_PER_ENTRY, history_entries
from ..read.collection import CollectionData
from . import gate as memory
from .compare import N_SPLITS, CompareInput, Comparison, Prepared, Trainer, compare, fold_plan
from .gate import MemoryGate, settle, training_cost
from .job import Job

_T = TypeVar("_T")
PutAside = Callable[[CollectionData], AbstractContextManager[Callable[[], CollectionData]]]
"""Writes the collection's arrays somewhere (the caller then keeps no reference to them) and yields a
call that reads them back; whatever it wrote is gone when its block ends (cli/copy.py put_aside)."""


class Handed(Generic[_T]):
    """A value handed over for good: the receiver takes it once and the giver keeps no reference, so
    that the receiver alone decides when it is freed (a large collection's arrays)."""

    def __init__(self, value: _T) -> None:
        self._value: _T | None = value

    def take(self) -> _T:
        """Return the value, keeping no reference to it (a second take is an error)."""
        value, self._value = self._value, None
        assert value is not None, "taken already"
        return value


def plan_compare(
    data: CollectionData | Handed[CollectionData],
    inp: CompareInput,
    job: Job | None = None,
    put_aside: PutAside | None = None,
) -> Comparison:
    """Return `compare(data, inp, job)`, staged for a large collection (see the module's docstring).

    The folds' requests are encoded before the comparison's own entries exist when their trainings might
    not fit beside the comparison's other work (`may_train_first`); and with `put_aside`, when they
    surely do not (`trains_first`), trained first, one at a time. The comparison is the same either way.
    """
    job = job or Job()
    if isinstance(data, Handed):
        data = data.take()
    if "fsrs-out-of-sample" not in inp.models or inp.trainer is None or not may_train_first(data, job.gate):
        return compare(data, inp, job)
    plan = fold_plan(data, inp.folds)
    sizes = plan.sizes
    if put_aside is not None and trains_first(sizes, job.gate):
        job.report(Progress(Step.TRAINING_FIRST))
        with put_aside(data) as load:
            del data
            largest = plan.encode()  # with the arrays put aside (184 MB at 5M reviews)
            del plan
            trained = train_folds(largest, sizes, inp.trainer, job)
            del largest
            # read back straight into compare, which lets go of them once replayed
            return compare(load(), inp, job, Prepared(trained=trained))
    requests = plan.encode()
    del plan
    return compare(data, inp, job, Prepared(requests=(requests, sizes)))


def may_train_first(data: CollectionData, gate: MemoryGate | None = None) -> bool:
    """Return False when the folds' trainings surely fit beside the comparison's other work (`trains_first`
    of an upper bound of the requests: every card's whole history); `fold_plan` tells exactly."""
    estimate = REQUEST_BYTES_PER_ENTRY * float(history_entries(data.revlog.card, data.card_ids.size).sum())
    return trains_first([int(estimate)] * N_SPLITS, gate)


def trains_first(sizes: list[int], gate: MemoryGate | None = None) -> bool:
    """Return True when the folds' trainings (requests of these sizes) together need more than half the
    memory gate's budget: then they train first, one at a time, with the collection's arrays put aside."""
    return memory.one_at_a_time([training_cost(size) for size in sizes], gate)


def train_folds(largest: bytes, sizes: list[int], trainer: Trainer, job: Job | None = None) -> list[list[float]]:
    """Return each fold's parameters, trained one at a time (the largest first) on its prefix of `largest`:
    while nothing else of the comparison is in memory (compare(..., Prepared(trained=)) predicts with them)."""
    out: dict[int, list[float]] = {}
    settle()  # what the caller freed before
    # In a thread of their own: a training leaves its thread's malloc heap so that the replays after it,
    # had it run in the caller's thread, peak about 200 MB higher at 5M reviews.
    with ThreadPoolExecutor(max_workers=1) as pool:
        for k in reversed(range(len(sizes))):
            if job is not None:
                job.check()
            request = largest if sizes[k] == len(largest) else largest[: sizes[k]]
            out[k] = [float(x) for x in pool.submit(trainer, request).result()]
            del request
            settle()
    return [out[k] for k in range(len(sizes))]
