"""Revlog -> scored reviews: the cases of Anki's own tests (rslib fsrs/params.rs) on plain arrays."""

from __future__ import annotations

import numpy as np
import pytest

from fsrs_calibration.metrics.reviews.revlog import FILTERED, LEARNING, MANUAL, REVIEW, Revlog, build_reviews

NEXT_DAY_AT = 86_400 * 1000  # as in Anki's tests


def revlog(entries, card=None):
    """entries: (type, days_ago[, ease[, factor]]) in time order, one card unless `card` given."""
    n = len(entries)
    ids, eases, types, factors = [], [], [], []
    for i, e in enumerate(entries):
        rtype, days_ago = e[0], e[1]
        ease = e[2] if len(e) > 2 else (0 if rtype in (MANUAL, 5) else 3)
        factor = e[3] if len(e) > 3 else 0
        ids.append((NEXT_DAY_AT - days_ago * 86_400) * 1000 + i)
        eases.append(ease)
        types.append(rtype)
        factors.append(factor)
    cards = np.zeros(n, dtype=np.int64) if card is None else np.asarray(card)
    a = lambda v: np.asarray(v, dtype=np.int64)  # noqa: E731
    return Revlog(id=a(ids), card=cards, ease=a(eases), type=a(types), factor=a(factors))


def items(entries, ignore_ms=0, drop=False):
    """Return the scored items as lists of delta_t of the history up to each scored review."""
    rl = revlog(entries)
    r = build_reviews(rl, NEXT_DAY_AT, np.array([ignore_ms]), np.array([drop]))
    out = []
    for i in np.flatnonzero(r.scored):
        out.append(r.delta_t[: i + 1].tolist())
    return out


def test_delta_t_is_correct():
    assert items([(LEARNING, 1), (REVIEW, 0)]) == [[0, 1]]
    assert items([(LEARNING, 15), (LEARNING, 13), (REVIEW, 10), (REVIEW, 5)]) == [[0, 2], [0, 2, 3], [0, 2, 3, 5]]
    assert items([(LEARNING, 15), (LEARNING, 13)]) == [[0, 2]]


def test_cram_is_filtered():
    assert items([(LEARNING, 10), (REVIEW, 9), (FILTERED, 7), (REVIEW, 4)]) == [[0, 1], [0, 1, 5]]
    # a filtered review with rescheduling (factor != 0) is a real review
    assert items([(LEARNING, 10), (REVIEW, 9), (FILTERED, 7, 3, 2500), (REVIEW, 4)]) == [
        [0, 1],
        [0, 1, 2],
        [0, 1, 2, 3],
    ]


def test_set_due_date_is_not_a_review_and_reset_cuts_history():
    assert items([(LEARNING, 10), (REVIEW, 9), (MANUAL, 7, 0, 2500), (REVIEW, 4)]) == [[0, 1], [0, 1, 5]]
    # Reset: history before the new learning run is discarded
    assert items([(LEARNING, 20), (REVIEW, 18), (MANUAL, 10), (LEARNING, 9), (REVIEW, 5)]) == [[0, 4]]
    # Reset after the last learning run, never studied again: card dropped
    assert items([(LEARNING, 20), (REVIEW, 18), (MANUAL, 10)]) == []
    # Reset then reviews without learning: dropped when evaluating
    assert items([(LEARNING, 20), (MANUAL, 10), (REVIEW, 5)]) == []


def test_last_learning_run_wins_and_no_learning_drops():
    # learning, review, learning again (old Anki wrote no Reset row): history restarts
    assert items([(LEARNING, 20), (REVIEW, 15), (LEARNING, 10), (LEARNING, 9), (REVIEW, 2)]) == [[0, 1], [0, 1, 7]]
    assert items([(REVIEW, 20), (REVIEW, 15)]) == []


def test_ignore_before_drops_whole_card():
    ms_day10 = (NEXT_DAY_AT - 10 * 86_400) * 1000
    assert items([(LEARNING, 12), (REVIEW, 5)], ignore_ms=ms_day10) == []
    assert items([(LEARNING, 9), (REVIEW, 5)], ignore_ms=ms_day10) == [[0, 4]]


def test_same_day_repeats_never_scored_and_drop_mode():
    e = [(LEARNING, 10), (LEARNING, 10), (REVIEW, 8), (REVIEW, 8), (REVIEW, 3)]
    assert items(e) == [[0, 0, 2], [0, 0, 2, 0, 5]]
    assert items(e, drop=True) == [[0, 2], [0, 2, 5]]


def test_binning_features():
    # ratings: L3, R1 (lapse), relearn same day, R3, R1 (lapse), R3
    e = [(LEARNING, 30, 3), (REVIEW, 28, 1), (2, 28, 3), (REVIEW, 20, 3), (REVIEW, 10, 1), (REVIEW, 2, 3)]
    r = build_reviews(revlog(e), NEXT_DAY_AT, np.array([0]), np.array([False]))
    s = r.scored
    assert r.n_reviews[s].tolist() == [2, 3, 4, 5]
    assert r.n_lapses[s].tolist() == [0, 1, 1, 2]  # the current review never counts itself
    # an Again on the first day is no lapse
    e = [(LEARNING, 30, 1), (LEARNING, 30, 3), (REVIEW, 28, 3)]
    r = build_reviews(revlog(e), NEXT_DAY_AT, np.array([0]), np.array([False]))
    assert r.n_lapses[r.scored].tolist() == [0]


def test_several_cards_at_once():
    e1 = [(LEARNING, 10), (REVIEW, 5)]
    e2 = [(REVIEW, 9), (REVIEW, 4)]  # no learning: dropped
    e3 = [(LEARNING, 8), (REVIEW, 6), (REVIEW, 1)]
    rl = revlog(e1 + e2 + e3, card=[0, 0, 1, 1, 2, 2, 2])
    r = build_reviews(rl, NEXT_DAY_AT, np.zeros(3, dtype=np.int64), np.zeros(3, bool))
    assert r.card.tolist() == [0, 0, 2, 2, 2]
    assert r.delta_t.tolist() == [0, 5, 0, 2, 5]
    assert r.scored.tolist() == [False, True, False, True, True]


def test_days_on_rollover_grid():
    # days_elapsed = (next_day_at - secs) // 86400: a review exactly at a rollover counts with the
    # day before it (Anki's grid; the odd-revlog tests check boundary times against Anki itself)
    day = 86_400
    ids = np.array([(NEXT_DAY_AT - 2 * day) * 1000, (NEXT_DAY_AT - day) * 1000 - 1, (NEXT_DAY_AT - day) * 1000])
    rl = Revlog(
        id=ids,
        card=np.zeros(3, np.int64),
        ease=np.array([3, 3, 3]),
        type=np.array([0, 1, 1]),
        factor=np.zeros(3, np.int64),
    )
    r = build_reviews(rl, NEXT_DAY_AT, np.array([0]), np.array([False]))
    assert r.delta_t.tolist() == [0, 1, 0]


@pytest.mark.parametrize("high", [1, 2**16 - 1, 2**16, 2**20, 2**32 + 5])
def test_stable_order_is_a_stable_sort(high):
    from fsrs_calibration.metrics.read.revlog_table import stable_order

    rng = np.random.default_rng(high % 1000)
    keys = rng.integers(0, high, 5000)
    assert np.array_equal(stable_order(keys), np.argsort(keys, kind="stable"))
    assert stable_order(np.zeros(0, dtype=np.int64)).size == 0
    assert np.array_equal(stable_order(keys - high // 2), np.argsort(keys - high // 2, kind="stable"))
