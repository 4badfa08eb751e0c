"""The memory gate: trainings run together only while their estimated memory fits the budget."""

from __future__ import annotations

import threading
import time

import pytest

from fsrs_calibration.metrics.errors import Cancelled
from fsrs_calibration.metrics.jobs.gate import MemoryGate, training_cost


def test_jobs_run_together_only_while_they_fit():
    gate = MemoryGate(budget=100)
    running, peak, lock = [], [0], threading.Lock()

    def job(cost: int) -> None:
        with gate.hold(cost):
            with lock:
                running.append(cost)
                peak[0] = max(peak[0], sum(running))
            time.sleep(0.05)
            with lock:
                running.remove(cost)

    threads = [threading.Thread(target=job, args=(c,)) for c in (60, 50, 40, 30, 150)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert peak[0] == 150  # the one larger than the budget ran, alone
    gate2 = MemoryGate(budget=100)
    with gate2.hold(70):  # 20 fits beside 70; 40 does not and waits until it is cancelled
        with gate2.hold(20):
            pass
        with pytest.raises(Cancelled):
            gate2.acquire(40, should_stop=lambda: True)
    gate2.acquire(40)  # alone now: admitted at once
    gate2.release(40)


def test_a_small_budget_trains_one_fold_at_a_time_with_the_same_numbers(request):
    """Under a budget too small for two trainings, the five folds never overlap, and the comparison is
    the one of the default budget (the same requests: Anki's optimizer gives the same parameters)."""
    from anki.collection import Collection
    from support.builder import build_mixed

    from fsrs_calibration.metrics.jobs.compare import compare
    from fsrs_calibration.metrics.read.anki_backend import anki_trainer
    from fsrs_calibration.metrics.read.collection import read_collection

    path = str(request.getfixturevalue("tmp_path") / "collection.anki2")
    build_mixed(path, seed=5, cards_per_deck=120)["builder"].close()
    col = Collection(path)
    try:
        train = anki_trainer(col)
        data = read_collection(col, "deck:Six")
        results = {}
        for budget in (1, 1 << 40):
            results[budget] = _counted_comparison(compare, data, train, budget)
        (alone, sizes_alone, slow), (together, sizes_together, fast) = results[1], results[1 << 40]
        assert alone == 1 and together > 1 and sizes_alone == sizes_together and len(sizes_alone) == 5
        assert slow.fold_params == fast.fold_params
        assert slow.models["fsrs-out-of-sample"].log_loss == fast.models["fsrs-out-of-sample"].log_loss
        assert training_cost(sizes_alone[-1]) > sizes_alone[-1]
    finally:
        col.close(downgrade=False)


class _Counting:
    """A trainer that counts how many of its calls run at once (and the request sizes)."""

    def __init__(self, train):
        self.train, self.live, self.most, self.sizes, self.lock = train, 0, 0, [], threading.Lock()

    def __call__(self, req: bytes) -> list[float]:
        with self.lock:
            self.live += 1
            self.most = max(self.most, self.live)
            self.sizes.append(len(req))
        try:
            time.sleep(0.05)  # long enough for another training to start, were it admitted
            return list(self.train(req))
        finally:
            with self.lock:
                self.live -= 1


def _counted_comparison(compare, data, train, budget):
    """Return (most trainings at once, sorted request sizes, comparison) under a gate of `budget` bytes."""
    trainer = _Counting(train)
    from fsrs_calibration.metrics.jobs.compare import CompareInput
    from fsrs_calibration.metrics.jobs.job import Job

    inp = CompareInput(trainer=trainer, models=["fsrs-default", "fsrs-out-of-sample"])
    cmp = compare(data, inp, Job(gate=MemoryGate(budget)))
    return trainer.most, sorted(trainer.sizes), cmp
