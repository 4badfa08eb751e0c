"""Comparisons: baselines on hand-checked cases, UM/UM+ on the seed's coin flip, out-of-sample FSRS vs Anki."""

from __future__ import annotations

import math
import sys

import numpy as np
import pytest

from fsrs_calibration.metrics.jobs.compare import splits
from fsrs_calibration.metrics.models.baselines import (
    average_by_fold,
    moving_average,
    revlog_interval_days,
    sm2_intervals,
)
from fsrs_calibration.metrics.models.items import encode_items
from fsrs_calibration.metrics.score.universal import universal_metric, universal_metric_plus


def test_sm2_hand_checked():
    # ratings Good, Good, Good, Again, Good: intervals 1, 6, 6*2.5=15, then 1 after the lapse, then 1
    r = np.array([3, 3, 3, 1, 3])
    first = np.array([True, False, False, False, False])
    ivl = sm2_intervals(r, first)
    # before each review: 0 (new), 1, 6, round(6*2.5+0.01)=15, 1 (after Again)
    assert ivl.tolist() == [0, 1, 6, 15, 1]
    # ease after each answer: Good (q=4) +0, Easy (q=5) +0.1, Hard (q=3) 0.1 - 2(0.08 + 0.04) = -0.14;
    # the interval uses the ease before the answer's own change.
    # Easy, Easy, Easy, Hard, Hard: ease 2.5 → 2.6 → 2.7 → 2.8 → 2.66; intervals 1, 6, 6×2.7=16.2→16, 16×2.8=44.8→45
    r = np.array([4, 4, 4, 2, 2])
    ivl = sm2_intervals(r, first)
    assert ivl.tolist() == [0, 1, 6, 16, 45]


def test_sm2_several_cards_at_once():
    r = np.array([3, 3, 3, 1, 3, 3])
    first = np.array([True, False, True, True, False, False])
    assert sm2_intervals(r, first).tolist() == [0, 1, 0, 0, 1, 1]


def test_moving_average_hand_checked():
    y = np.array([1.0, 0.0, 1.0])
    p = moving_average(y)
    x = 1.2
    want = []
    for yi in y:
        s = 1 / (1 + math.exp(-x))
        want.append(s)
        x += 0.3 * (yi - s)
    assert p.tolist() == pytest.approx(want)
    assert p[0] == pytest.approx(1 / (1 + math.exp(-1.2)))


def test_average_uses_only_earlier_reviews():
    y = np.array([1, 1, 0, 0, 1, 0, 1.0])
    out = average_by_fold(y, np.array([2, 4]), np.array([4, 7]))
    assert np.isnan(out[:2]).all()
    assert out[2:4].tolist() == [1.0, 1.0]
    assert out[4:].tolist() == [0.5, 0.5, 0.5]


def test_time_series_split_as_fsrs_rs():
    assert splits(12) == [(2, 4), (4, 6), (6, 8), (8, 10), (10, 12)]
    assert splits(14) == [(2, 4), (4, 6), (6, 8), (8, 10), (10, 14)]  # the last part takes the remainder
    assert splits(5) == []


def test_interval_units():
    assert revlog_interval_days(np.array([3, -600, -86400])).tolist() == [3, 600 / 86400, 1.0]


def test_universal_metric_coin_flip_from_the_seed():
    """fsrs-vs-sm17: a fair coin; A predicts random numbers, B predicts 0.5. UM judges A by B's bins and is
    fooled (A's errors average out in B's single bin); UM+ bins by the disagreement and is not."""
    rng = np.random.default_rng(0)
    n = 200_000
    y = (rng.random(n) < 0.5).astype(float)
    a = rng.random(n)
    b = np.full(n, 0.5)
    assert universal_metric(a, b, y) < 0.01  # falsely good
    assert universal_metric_plus(a, b, y) > 0.25  # A's miscalibration shows
    assert universal_metric_plus(b, a, y) < 0.01  # B is right everywhere
    # by hand: in each UM+ bin (d = a - 0.5, 0.05 wide) A's mean is about 0.5 + d and the outcome mean is
    # 0.5, so UM+(A|B) is about the RMS of A's error, sqrt(E[(a - 0.5)^2]) = sqrt(1/12) = 0.2887
    assert universal_metric_plus(a, b, y) == pytest.approx(math.sqrt(1 / 12), abs=0.01)


@pytest.mark.slow
@pytest.mark.parametrize("card_share", [0.15, 0.003])  # short histories; long ones (headers of 2-3 bytes)
def test_items_are_the_protobuf_anki_parses(monkeypatch, card_share):
    from anki.scheduler_pb2 import ComputeFsrsParamsFromItemsRequest, FsrsItem, FsrsReview

    from fsrs_calibration.metrics.models import items as items_module

    monkeypatch.setattr(items_module, "_BLOCK", 97)  # many blocks, cut anywhere
    rng = np.random.default_rng(3)
    n = 3000
    first = rng.random(n) < card_share
    first[0] = True
    rating = rng.integers(1, 5, n)
    dt = np.where(first, 0, rng.integers(0, 400, n))
    dt[rng.random(n) < 0.01] = 2**31  # multi-byte varints
    items = np.flatnonzero(~first & (dt > 0))
    data, end = encode_items(rating, dt, first, items)
    seg = np.maximum.accumulate(np.where(first, np.arange(n), 0))
    want = ComputeFsrsParamsFromItemsRequest(
        items=[
            FsrsItem(reviews=[FsrsReview(rating=int(rating[k]), delta_t=int(dt[k])) for k in range(seg[j], j + 1)])
            for j in items
        ]
    ).SerializeToString()
    assert data == want
    prefix = ComputeFsrsParamsFromItemsRequest.FromString(data[: end[9]])
    assert len(prefix.items) == 10
    # encoded part by part (as the comparison does), the parts join into the same request
    encoder = items_module.ItemEncoder(rating, dt, first)
    cuts = [0, 1, 7, items.size // 2, items.size]
    assert b"".join(encoder.encode(items[a:b])[0] for a, b in zip(cuts[:-1], cuts[1:], strict=True)) == want
    assert encoder.encode(items[:0])[0] == b""
    assert np.array_equal(encoder.item_ends(items), end)
    for chunk in (1, 5, 64):  # encoded a few items at a time (as at 5M reviews): the same bytes
        monkeypatch.setattr(items_module, "_CHUNK", chunk)
        small = items_module.ItemEncoder(rating, dt, first)
        got, got_end = small.encode(items)
        assert got == want and np.array_equal(got_end, end)
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(3) as pool:  # encoded in parts at once: the same bytes and item ends
        for parts in (1, 2, 3, 7):
            joined, joined_end = items_module.encode_in_parts(encoder, items, pool, parts)
            assert joined == want and np.array_equal(joined_end, end)


def test_a_part_replayed_alone_predicts_as_the_whole_replay():
    """The out-of-sample folds replay only the histories a test part needs: the same numbers as a full replay."""
    from fsrs_calibration.metrics.jobs.compare import histories_up_to
    from fsrs_calibration.metrics.models.fsrs import replay
    from fsrs_calibration.metrics.models.params import to_fsrs6

    rng = np.random.default_rng(5)
    n = 5000
    first = rng.random(n) < 0.1
    first[0] = True
    rating = rng.integers(1, 5, n)
    dt = np.where(first, 0, rng.integers(0, 60, n))
    w = to_fsrs6([])[None, :]
    every = replay(rating, dt, first, w, 2, np.zeros(int(first.sum()), dtype=np.int64)).retrievability
    seg_start = np.maximum.accumulate(np.where(first, np.arange(n), 0))
    part = rng.permutation(np.flatnonzero(~first))[:700]  # any entries, in any order
    rows, at = histories_up_to(seg_start, part)
    assert np.all(np.diff(rows) > 0) and np.array_equal(rows[at], part)
    assert set(rows) == {k for e in part for k in range(seg_start[e], e + 1)}
    alone = replay(rating[rows], dt[rows], first[rows], w, 2, np.zeros(int(first[rows].sum()), dtype=np.int64))
    assert np.array_equal(alone.retrievability[at], every[part])


@pytest.fixture(scope="module")
def larger_col(tmp_path_factory):
    """The mixed collection's kinds of history, four times the cards (about 10,000 scored reviews)."""
    from anki.collection import Collection
    from support.builder import build_mixed

    path = str(tmp_path_factory.mktemp("larger") / "collection.anki2")
    build_mixed(path, seed=11, cards_per_deck=240)["builder"].close()
    col = Collection(path)
    yield col
    col.close(downgrade=False)


@pytest.mark.parametrize("search", ["deck:Six", "deck:Five", "-deck:filtered -preset:Ignore"])
def test_out_of_sample_fsrs_agrees_with_ankis_evaluate_params(larger_col, search):
    """Within 0.002 of Anki's own time-series evaluation. Both train with Anki's optimizer, whose results
    move a little from run to run (parallel training); the training options differ slightly too (Anki's
    evaluate_params trains 8 epochs with card ids; compute_fsrs_params_from_items uses the defaults)."""
    from fsrs_calibration.metrics.jobs.compare import CompareInput, compare
    from fsrs_calibration.metrics.read.anki_backend import anki_trainer
    from fsrs_calibration.metrics.read.collection import read_collection

    col = larger_col
    a = col._backend.evaluate_params(search=search, ignore_revlogs_before_ms=0, num_of_relearning_steps=1)
    cmp = compare(read_collection(col, search, with_intervals=True), CompareInput(trainer=anki_trainer(col)))
    ours = cmp.models["fsrs-out-of-sample"]
    assert ours.log_loss == pytest.approx(a.log_loss, abs=0.002)
    assert ours.rmse_bins == pytest.approx(a.rmse_bins, abs=0.002)
    assert len(cmp.fold_params) == 5 and all(len(p) == 21 for p in cmp.fold_params)
    assert set(cmp.models) == {
        "fsrs-preset",
        "fsrs-default",
        "fsrs-out-of-sample",
        "sm2",
        "anki-interval",
        "avg",
        "moving-avg",
    }
    for m in cmp.models.values():
        assert m.reviews == cmp.reviews_compared
        assert m.log_loss_ci[0] <= m.log_loss <= m.log_loss_ci[1]
    assert cmp.um["avg"]["avg"] is None and cmp.um_plus["sm2"]["avg"] is not None


def test_folds_trained_first_give_the_same_comparison(larger_col):
    """The command line's low-memory path (train every fold first, alone, then compare with those
    parameters), and the requests encoded before the comparison, give the comparison the usual path
    gives: the same requests, the same numbers."""
    import json

    from fsrs_calibration.metrics.jobs.compare import CompareInput, Prepared, compare, fold_plan
    from fsrs_calibration.metrics.jobs.plan import train_folds
    from fsrs_calibration.metrics.read.anki_backend import anki_trainer
    from fsrs_calibration.metrics.read.collection import read_collection

    train = anki_trainer(larger_col)
    seen: dict[bytes, list[float]] = {}

    def recording(request):
        seen[bytes(request)] = params = train(request)
        return params

    data = read_collection(larger_col, "deck:Six", with_intervals=True)
    usual = compare(data, CompareInput(trainer=recording))
    plan = fold_plan(data)
    largest, sizes = plan.encode(), plan.sizes
    assert sorted(sizes) == sorted(len(r) for r in seen) and max(sizes) == len(largest)
    trained = train_folds(largest, sizes, lambda request: seen[bytes(request)])  # the same requests, or KeyError
    first = compare(data, CompareInput(), None, Prepared(trained=trained))
    assert first.fold_params == usual.fold_params
    assert json.dumps(first.to_dict(), sort_keys=True) == json.dumps(usual.to_dict(), sort_keys=True)
    with pytest.raises(Exception, match="folds' parameters"):
        compare(data, CompareInput(), None, Prepared(trained=trained[:2]))
    with pytest.raises(Exception, match="needs Anki's optimizer"):
        compare(data, CompareInput())
    replayed = CompareInput(trainer=lambda request: seen[bytes(request)])
    given = compare(data, replayed, None, Prepared(requests=(largest, sizes)))  # encoded once
    assert json.dumps(given.to_dict(), sort_keys=True) == json.dumps(usual.to_dict(), sort_keys=True)


def test_the_large_collection_plan_trains_first_and_lets_the_arrays_go(larger_col, monkeypatch):
    """With a memory gate too small for the folds' trainings and a place to put the arrays aside, the plan
    trains every fold first (the same requests, one at a time) and the comparison lets go of the arrays
    read back once it has replayed them: the same comparison as the usual path, the steps reported in order."""
    import contextlib
    import json
    import pickle
    import weakref

    from fsrs_calibration.metrics.explain.progress import progress_text
    from fsrs_calibration.metrics.jobs.compare import CompareInput, compare, pipeline
    from fsrs_calibration.metrics.jobs.gate import MemoryGate
    from fsrs_calibration.metrics.jobs.job import Job
    from fsrs_calibration.metrics.jobs.plan import Handed, plan_compare
    from fsrs_calibration.metrics.kinds import Step
    from fsrs_calibration.metrics.read.anki_backend import anki_trainer
    from fsrs_calibration.metrics.read.collection import read_collection

    train = anki_trainer(larger_col)
    seen: dict[bytes, list[float]] = {}

    def recording(request):
        seen[bytes(request)] = params = train(request)
        return params

    usual = compare(read_collection(larger_col, "deck:Six", with_intervals=True), CompareInput(trainer=recording))
    loaded: list[weakref.ref] = []
    alive_at_settle: list[bool] = []
    monkeypatch.setattr(pipeline, "settle", lambda: alive_at_settle.append(bool(loaded) and loaded[0]() is not None))

    @contextlib.contextmanager
    def put_aside(data):
        stored = pickle.dumps(data)
        del data

        def load():
            data = pickle.loads(stored)
            loaded.append(weakref.ref(data))
            return data

        yield load

    steps = []
    inp = CompareInput(trainer=lambda request: seen[bytes(request)])  # the same requests, or KeyError
    job = Job(progress=steps.append, gate=MemoryGate(1))
    planned = plan_compare(Handed(read_collection(larger_col, "deck:Six", with_intervals=True)), inp, job, put_aside)
    assert json.dumps(planned.to_dict(), sort_keys=True) == json.dumps(usual.to_dict(), sort_keys=True)
    assert alive_at_settle == [True, False]  # after the presets' replay; after the arrays are let go
    assert [p.step for p in steps[:2]] == [Step.TRAINING_FIRST, Step.PRESETS]
    assert [progress_text(p) for p in steps if p.step == Step.TRAINED_PART][-1] == (
        "FSRS trained on the reviews before part 5 of 5"
    )


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="thread priorities are set on Linux only")
@pytest.mark.parametrize("share", [False, True])
def test_cpu_shares_only_when_asked(larger_col, share):
    """The CLI lowers the priority of the smaller trainings (they end with the largest); by default,
    as in Anki's window, no thread's priority is touched."""
    import os
    import threading

    from fsrs_calibration.metrics.jobs.compare import CompareInput, compare
    from fsrs_calibration.metrics.read.anki_backend import anki_trainer
    from fsrs_calibration.metrics.read.collection import read_collection

    train = anki_trainer(larger_col)
    base = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    seen = []

    def trainer(request):
        seen.append((len(request), os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) - base))
        return train(request)

    inp = CompareInput(trainer=trainer, models=["fsrs-out-of-sample"], share_cpu_by_size=share)
    compare(read_collection(larger_col, "deck:Six"), inp)
    steps = [s for _, s in sorted(seen)]  # by request size
    assert len(steps) == 5
    if share:
        assert steps[-1] == 0 and steps[0] > 0 and steps == sorted(steps, reverse=True)
    else:
        assert steps == [0] * 5


def test_superiority_is_the_share_of_decks_won_on_log_loss():
    """Three decks: A's mean log loss is lower than B's in two of them (by hand), B's in one."""
    from fsrs_calibration.metrics.jobs.compare.scores import superiority as _superiority

    deck = np.array([0, 0, 1, 1, 1, 2])
    a = np.array([0.1, 0.3, 0.5, 0.5, 0.2, 0.9])  # deck means: 0.2, 0.4, 0.9
    b = np.array([0.4, 0.4, 0.1, 0.2, 0.3, 1.0])  # deck means: 0.4, 0.2, 1.0
    got = _superiority({"A": np.bincount(deck, weights=a), "B": np.bincount(deck, weights=b)}, np.bincount(deck))
    assert got["A"]["B"] == pytest.approx(2 / 3) and got["B"]["A"] == pytest.approx(1 / 3)
    assert got["A"]["A"] is None
