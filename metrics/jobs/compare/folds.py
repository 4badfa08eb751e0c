"""The comparison's time-series folds: which reviews each part tests, the trainings' requests (each a
prefix of the largest one's), the trainings themselves (in pool threads, admitted by the memory gate)
and each trained FSRS's predictions of its part.

Out-of-sample FSRS trains, for each of the folds, on the items before the fold's test part with a
trainer the caller supplies (Anki's own optimizer), and predicts the part with the replay.
"""

from __future__ import annotations

import math
import os
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial

import numpy as np

from ...errors import EvaluationError
from ...explain import formatting as fmt
from ...explain.lang import _, text
from ...kinds import Progress, Step
from ...models.fsrs import replay
from ...models.items import ItemEncoder, encode_in_parts, segment_starts
from ...models.params import to_fsrs6
from ...read.collection import CollectionData
from ...reviews.revlog import Reviews, build_reviews, time_order
from ..evaluate import NO_REVIEWS, card_ignore_before
from ..gate import settle, training_cost
from ..job import Job

N_SPLITS = 5
Trainer = Callable[[bytes], Sequence[float]]  # ComputeFsrsParamsFromItemsRequest bytes -> 21 parameters
Predicted = tuple[np.ndarray, np.ndarray]  # a part's predictions and their order (argsort)
_NICE_STEP_RATIO = 1.25  # Linux's scheduler gives a thread about 1.25x the CPU of one a nice level lower


def splits(n: int, n_splits: int = N_SPLITS) -> list[tuple[int, int]]:
    """Return fsrs-rs's time-series test parts [(start, end)]: segment n // 6, the last one to the end."""
    seg = n // (n_splits + 1)
    if seg == 0:
        return []
    return [((i + 1) * seg, n if i == n_splits - 1 else (i + 2) * seg) for i in range(n_splits)]


@dataclass
class Entries:
    """The comparison's entries: the kept ones in "keep" mode (what Anki trains on), the scored ones'
    indexes in time order (`sel`) and the folds' test parts of those (positions in `sel`)."""

    reviews: Reviews
    sel: np.ndarray
    parts: list[tuple[int, int]]

    @property
    def start(self) -> int:
        """Return the position in `sel` of the first tested review (every model is compared from there)."""
        return self.parts[0][0]


def time_ordered(data: CollectionData, folds: int = N_SPLITS, cut_ms: int | None = None) -> Entries:
    """Return the comparison's entries of `data` (EvaluationError when too few reviews for the folds). With
    `cut_ms`, one fold: the reviews before that time train, those from it on are tested."""
    ignore = card_ignore_before(data)
    no_drop = np.zeros(data.card_ids.size, dtype=bool)
    reviews = build_reviews(data.revlog, data.next_day_at, ignore, no_drop)
    sel = np.flatnonzero(reviews.scored)
    read_rows = reviews.row[sel] if reviews.row is not None else None
    sel = sel[time_order(data.revlog, read_rows, reviews.revlog_id[sel])]  # scored reviews in time order
    parts = splits(sel.size, folds)
    if cut_ms is not None:
        first = int(np.count_nonzero(reviews.revlog_id[sel] < cut_ms))
        parts = [(first, sel.size)] if 0 < first < sel.size else []
    if not parts:
        raise EvaluationError(
            text("{no_reviews} (Comparisons need at least 6 scored reviews.)", no_reviews=_(NO_REVIEWS))
        )
    return Entries(reviews, sel, parts)


@dataclass
class FoldPlan:
    """The folds' trainings before their requests are encoded: the encoder, the largest fold's items
    (entry indices) and each fold's request length (a prefix of the largest one's)."""

    encoder: ItemEncoder
    items: np.ndarray
    sizes: list[int]

    def encode(self, pool: Executor | None = None) -> bytes:
        """Return the optimizer's request for the largest fold's training set (two threads encode it:
        `pool`'s, or a pool of its own)."""
        if pool is not None:
            return encode_in_parts(self.encoder, self.items, pool)[0]
        with ThreadPoolExecutor(max_workers=2) as own:
            return encode_in_parts(self.encoder, self.items, own)[0]


def plan_of(entries: Entries) -> FoldPlan:
    """Return the folds' training plan of these entries (the encoder keeps what it needs of them)."""
    reviews = entries.reviews
    encoder = ItemEncoder(reviews.rating, reviews.delta_t, reviews.first)
    items = entries.sel[: entries.parts[-1][0]]
    ends = encoder.item_ends(items)
    return FoldPlan(encoder, items, [int(ends[a - 1]) for a, _ in entries.parts])


def fold_plan(data: CollectionData, folds: int = N_SPLITS) -> FoldPlan:
    """Return the folds' training plan: what `FoldPlan.encode` turns into the largest fold's request (the
    reviews before its test part, with their histories) and each fold's request length. Nothing of
    `data` is kept: the caller may let it go before encoding."""
    return plan_of(time_ordered(data, folds))


def predict_rows(
    reviews: Reviews, rows: np.ndarray | slice, w: np.ndarray, floor: int, should_stop: Callable[[], bool] | None
) -> np.ndarray:
    """Return FSRS's predicted recall for the entries `rows` (whole card histories) with the parameters `w`."""
    first = reviews.first[rows]
    one_set = np.zeros(int(np.count_nonzero(first)), dtype=np.int64)
    r = replay(reviews.rating[rows], reviews.delta_t[rows], first, w[None, :], floor, one_set, should_stop)
    return r.retrievability


def histories_up_to(seg_start: np.ndarray, entries: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return (rows, at): the entries of the cards of `entries`, from each card's first (`seg_start` per
    entry) up to its last one in `entries`, in order (a replay of `rows` predicts them), and where each
    of `entries` is in `rows`.
    """
    last = np.sort(entries)
    last = last[np.append(seg_start[last[1:]] != seg_start[last[:-1]], True)]  # each card's last asked entry
    begin = seg_start[last]
    count = last - begin + 1
    rows = np.repeat(begin - (np.cumsum(count) - count), count) + np.arange(int(count.sum()))
    return rows, np.searchsorted(rows, entries)


@contextmanager
def _lowered_priority(smaller: float) -> Iterator[None]:
    """Run the block at a CPU priority lowered by log(smaller) / log(_NICE_STEP_RATIO) nice levels (Linux;
    restored afterwards where the system lets a thread raise its priority again).

    With fewer cores than trainings, equal shares would finish the small trainings first and leave the
    largest one alone on one core at the end; shares in proportion to the training's work (the size of
    its request) make them finish together. Elsewhere (and with smaller <= 1) the block runs as is.
    Threads started meanwhile inherit the lowered priority, so callers inside a long-lived process
    (Anki) leave it off.
    """
    steps = round(math.log(smaller) / math.log(_NICE_STEP_RATIO)) if smaller > 1 else 0
    tid, before = threading.get_native_id(), None
    if steps and sys.platform.startswith("linux"):
        try:
            before = os.getpriority(os.PRIO_PROCESS, tid)
            os.setpriority(os.PRIO_PROCESS, tid, before + steps)
        except OSError:
            before = None
    try:
        yield
    finally:
        if before is not None:
            try:
                os.setpriority(os.PRIO_PROCESS, tid, before)  # back up: allowed only with CAP_SYS_NICE
            except OSError:
                pass


class FoldTrainings:
    """The out-of-sample folds of one comparison: each fold's FSRS trained in a pool thread once its
    memory fits the gate (or given, trained already), then predicting the fold's test part.

    The trainings run in threads (Anki's optimizer releases the GIL) while the caller computes the other
    models, as many at once as the memory gate admits: at 5M reviews one fold's training alone holds
    about 750 MB, so the large folds run one by one.
    """

    def __init__(self, folds: int, floor: int, job: Job) -> None:
        self.pool = ThreadPoolExecutor(max_workers=max(1, folds))
        self._floor = floor
        self._job = job
        self._entries: Entries | None = None
        self._seg_start = np.zeros(0, dtype=np.int64)
        self._runs: list[Callable[[], tuple[list[float], Predicted]]] = []  # per fold, in order
        self._futures: list[Future[tuple[list[float], Predicted]]] = []

    def given(self, trained: list[list[float]], entries: Entries) -> None:
        """Predict each part, when collected, with its fold's parameters trained already."""
        self._entries, self._seg_start = entries, segment_starts(entries.reviews.first)
        self._runs = [partial(self._given_part, k, params) for k, params in enumerate(trained)]

    def _given_part(self, k: int, params: list[float]) -> tuple[list[float], Predicted]:
        return params, self._predict_part(k, params)

    def train(
        self, trainer: Trainer, entries: Entries, requests: tuple[bytes, list[int]] | None, share_cpu: bool
    ) -> None:
        """Start each fold's training, the largest (the longest to train) first, on its prefix of the largest
        fold's request (`requests`, or encoded here in two threads); a smaller one's copy is made only when
        its training starts, and dropped when it ends. `share_cpu`: lower the smaller ones' priority."""
        self._job.report(Progress(Step.TRAINING))
        if requests is not None:  # encoded already (jobs/plan.py)
            self._entries, self._seg_start = entries, segment_starts(entries.reviews.first)
            largest, sizes = requests
        else:
            plan = plan_of(entries)
            self._entries, self._seg_start, sizes = entries, plan.encoder.seg_start, plan.sizes
            largest = plan.encode(self.pool)
            del plan

        def request_of(size: int) -> Callable[[], bytes]:
            return lambda: largest if size == len(largest) else largest[:size]

        futures = {}
        for k in reversed(range(len(sizes))):
            smaller = len(largest) / sizes[k] if share_cpu else 1.0  # the work grows with the size
            futures[k] = self.pool.submit(self._train, k, trainer, request_of(sizes[k]), smaller, sizes[k])
        self._futures = [futures[k] for k in range(len(sizes))]
        self._runs = [future.result for future in self._futures]

    def _train(
        self, k: int, trainer: Trainer, make_request: Callable[[], bytes], smaller: float, size: int
    ) -> tuple[list[float], Predicted]:
        """Return fold k's parameters (trainer(make_request())) and its part's predictions, once the
        training's memory fits the gate. The request is made only when the training may start, so
        trainings waiting for memory hold nothing of their own."""
        with self._job.hold(training_cost(size)), _lowered_priority(smaller):
            request = make_request()
            params = [float(x) for x in trainer(request)]
            del request
            return params, self._predict_part(k, params)

    def _predict_part(self, k: int, params: list[float]) -> Predicted:
        """Return fold k's trained FSRS's predictions of its test part, and their order (sorted here: the
        AUC only merges the parts' orders). In the training's thread."""
        assert self._entries is not None
        w = to_fsrs6(params, where=text("The optimizer's parameters for part {part}", part=fmt.local(str(k + 1))))
        a, b = self._entries.parts[k]
        rows, at = histories_up_to(self._seg_start, self._entries.sel[a:b])  # only the histories this part needs
        part = predict_rows(self._entries.reviews, rows, w, self._floor, self._job.should_stop)[at]
        return part, np.argsort(part)

    def collect(self, n: int, start: int) -> tuple[list[list[float]], np.ndarray, np.ndarray] | None:
        """Return each fold's parameters, the out-of-sample predictions of the `n` time-ordered reviews
        (NaN before `start`) and the compared reviews' order by them; None without folds."""
        if not self._runs or self._entries is None:
            return None
        parts = self._entries.parts
        out = np.full(n, np.nan)
        fold_params, runs = [], []
        for k, ((a, b), run) in enumerate(zip(parts, self._runs, strict=True)):
            self._job.report(Progress(Step.TRAINED_PART, k + 1, len(parts)))
            params, (out[a:b], part_order) = run()
            fold_params.append(params)
            runs.append(part_order + (a - start))  # positions among the compared reviews
            settle()
        merged = np.concatenate(runs)
        return fold_params, out, merged[np.argsort(out[start:][merged], kind="stable")]  # merges the runs

    def close(self) -> None:
        """Cancel the trainings not started, wait for the running ones, and let go of the entries."""
        for future in self._futures:
            future.cancel()
        self.pool.shutdown(wait=True)
        self._runs, self._futures, self._entries = [], [], None
        self._seg_start = np.zeros(0, dtype=np.int64)
