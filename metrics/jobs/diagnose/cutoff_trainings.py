"""The trainings of the finding "ignore-before": a preset's scored reviews split in time (the latest sixth
tested), Anki's optimizer trained on the reviews before the split (once on every card, once per candidate
date on the cards whose learning began on or after it: what Anki keeps with "Ignore cards reviewed
before"), and each trained FSRS's predictions of the same tested reviews."""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace

import numpy as np

from ...explain.lang import text
from ...models.items import REQUEST_BYTES_PER_ENTRY, ItemEncoder, history_entries, segment_starts
from ...models.params import to_fsrs6
from ...read.collection import CollectionData
from ...reviews.revlog import Reviews
from ..compare import Trainer, histories_up_to
from ..compare.folds import predict_rows, time_ordered
from ..gate import replay_cost, training_cost
from .context import Job

WORKERS = 2  # trainings at once, when their memory fits the gate's budget
TEST_SHARE = 1 / 6  # the latest sixth of the scored reviews is tested (the size of fsrs-rs's time-series folds)


@dataclass
class Window:
    """A preset's kept entries (as Anki trains on them), its scored ones before the split (`train`) and
    from it on (`test`), in time order, and each training entry's card's learning start (ms)."""

    reviews: Reviews
    train: np.ndarray
    test: np.ndarray
    train_start_ms: np.ndarray

    @property
    def split_ms(self) -> int:
        """Return the time of the first tested review."""
        return int(self.reviews.revlog_id[self.test[0]]) if self.test.size else 0

    def kept(self, cutoff_ms: int) -> np.ndarray:
        """Return the training entries Anki would keep with this ignore-before date (their card's learning
        began on or after it)."""
        return self.train[self.train_start_ms >= cutoff_ms]

    def cards(self, entries: np.ndarray) -> int:
        """Return how many cards these entries are of."""
        return int(np.unique(self.reviews.card[entries]).size)


def window(data: CollectionData, least: int, test_share: float = TEST_SHARE) -> Window:
    """Return the window of a preset's collection part: its scored reviews in time order, the latest
    `test_share` of them tested (at least `least`, as far as there are)."""
    entries = time_ordered(data, 1)
    sel, full = entries.sel, entries.reviews
    del entries
    none = np.zeros(0, dtype=np.int32)  # the binning features and rows are not needed here (memory)
    reviews = replace(full, scored=none, n_reviews=none, n_lapses=none, row=None)
    del full
    split = max(0, sel.size - max(least, int(round(sel.size * test_share))))
    train, test = sel[:split], sel[split:]
    start = reviews.revlog_id[segment_starts(reviews.first)[train]]
    return Window(reviews, train, test, start)


def memory(data: CollectionData, cards: np.ndarray, budget: int) -> tuple[int, int]:
    """Return (trainings at once, estimated bytes) of the check on these cards (a mask over data's cards):
    its window and predictions, and one or two trainings on all its training reviews (two when all that
    holds no more than a quarter of `budget`: beside the other checks; one for a large preset, checked alone
    at the end: at 5M reviews two would add some 185 MB to the peak). The check holds them in the memory gate
    as one job: a job alone always runs, so that nested holds cannot wait for each other."""
    rl = data.revlog
    entries = int(np.count_nonzero(cards[rl.card]))
    histories = float(history_entries(rl.card, cards.size)[cards].sum())
    held = replay_cost(entries)
    one = training_cost(int(REQUEST_BYTES_PER_ENTRY * histories * (1 - TEST_SHARE)))
    workers = WORKERS if held + WORKERS * one <= budget // 4 else 1
    return workers, held + workers * one


class Trainings:
    """Trains on a window's training entries and predicts its tested ones with the trained parameters, one or
    two trainings at a time (Anki's optimizer trains on one core and releases the GIL). The memory is the
    caller's to hold (`memory`)."""

    def __init__(self, win: Window, trainer: Trainer, job: Job, floor: int) -> None:
        r = win.reviews
        self._win, self._trainer, self._job, self._floor = win, trainer, job, floor
        self._encoder = ItemEncoder(r.rating, r.delta_t, r.first)
        self._rows, self._at = histories_up_to(self._encoder.seg_start, win.test)
        self.y = (r.rating[win.test] > 1).astype(np.float64)
        self.card = r.card[win.test]

    def predict_each(self, sets: Sequence[tuple[np.ndarray, str]], workers: int) -> list[np.ndarray]:
        """Return the tested reviews' predictions by FSRS trained on each set of items (with its label),
        `workers` trainings at a time."""
        with ThreadPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(self.predict, items, label) for items, label in sets]
            try:
                return [f.result() for f in futures]
            finally:
                for f in futures:
                    f.cancel()

    def predict(self, items: np.ndarray, label: str) -> np.ndarray:
        """Return the tested reviews' predictions by FSRS trained on `items` (training entries, in time order)."""
        self._job.check()
        request = self._encoder.encode(items)[0]
        params = [float(x) for x in self._trainer(request)]
        del request
        w = to_fsrs6(params, where=text("The optimizer's parameters trained on {cards}", cards=label))
        return predict_rows(self._win.reviews, self._rows, w, self._floor, self._job.should_stop)[self._at]
