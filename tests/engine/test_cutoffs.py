"""The candidate dates of "ignore-before" and the paired interval it uses, against hand computations."""

from __future__ import annotations

import numpy as np
import pytest

from fsrs_calibration.metrics.reviews.cutoffs import CHANGED, DAY_MS, answers_changed, candidates
from fsrs_calibration.metrics.score.paired import paired_gain_by_card, paired_log_loss_gain


def _chi_square(table: list[list[int]]) -> float:
    """Pearson's chi-square of a contingency table, written out."""
    rows = [sum(r) for r in table]
    cols = [sum(c) for c in zip(*table, strict=True)]
    n = sum(rows)
    return sum(
        (table[i][j] - rows[i] * cols[j] / n) ** 2 / (rows[i] * cols[j] / n)
        for i in range(len(rows))
        for j in range(len(cols))
        if cols[j]
    )


def test_the_change_point_is_the_largest_chi_square():
    rng = np.random.default_rng(3)
    before = rng.choice([1, 2, 3, 4], size=600, p=[0.3, 0.2, 0.45, 0.05])
    after = rng.choice([1, 2, 3, 4], size=900, p=[0.1, 0.08, 0.75, 0.07])
    rating = np.concatenate((before, after))
    day = np.arange(rating.size) // 5  # five reviews a day: the change is on day 120
    found = answers_changed(day, rating)
    assert found is not None
    best_day, chi = found
    assert abs(best_day - 120) <= 6 and chi >= CHANGED
    at = int(np.searchsorted(day, best_day))
    table = [
        [int((rating[:at] == k).sum()) for k in (1, 2, 3, 4)],
        [int((rating[at:] == k).sum()) for k in (1, 2, 3, 4)],
    ]
    assert chi == pytest.approx(_chi_square(table), rel=1e-12)
    # every other boundary within the trimmed range has a smaller statistic (written out, boundary by boundary)
    for other in range(int(0.15 * rating.size), int(0.85 * rating.size), 35):
        if day[other] != day[other - 1]:
            t = [
                [int((rating[:other] == k).sum()) for k in (1, 2, 3, 4)],
                [int((rating[other:] == k).sum()) for k in (1, 2, 3, 4)],
            ]
            assert _chi_square(t) <= chi + 1e-9


def test_candidates_are_utc_days_and_no_change_gives_none():
    rng = np.random.default_rng(4)
    rating = rng.choice([1, 2, 3, 4], size=3000, p=[0.1, 0.08, 0.75, 0.07])
    ms = 1_700_000_000_000 + np.arange(3000, dtype=np.int64) * 3 * 3_600_000  # one review every three hours
    found = candidates(ms, rating)
    assert [c.why for c in found] == ["quantile"]  # the shares never changed: no change point
    assert found[0].ms % DAY_MS == 0 and found[0].ms == (int(ms[1500]) // DAY_MS) * DAY_MS
    changed = rating.copy()
    changed[:1500] = rng.choice([1, 2, 3, 4], size=1500, p=[0.35, 0.2, 0.4, 0.05])
    found = candidates(ms, changed)
    assert [c.why for c in found][0] == "answers-changed"
    assert abs(found[0].ms - (int(ms[1500]) // DAY_MS) * DAY_MS) <= 10 * DAY_MS  # eight reviews a day
    assert all(abs(a.ms - b.ms) >= 14 * DAY_MS for a in found for b in found if a is not b)
    assert candidates(ms[:0], rating[:0]) == []


def test_the_interval_by_card_agrees_with_the_bootstrap_by_card():
    rng = np.random.default_rng(5)
    cards = rng.integers(0, 800, size=12_000)
    p_true = rng.uniform(0.6, 0.97, size=800)[cards]
    y = (rng.random(cards.size) < p_true).astype(np.float64)
    before = np.clip(p_true + rng.normal(0, 0.08, size=cards.size), 0.01, 0.99)
    after = np.clip(p_true + rng.normal(0, 0.04, size=cards.size), 0.01, 0.99)
    boot = paired_log_loss_gain(before, after, y, cards, rounds=2000, seed=1)
    normal = paired_gain_by_card(before, after, y, cards, 1.959963984540054)
    assert normal.gain == pytest.approx(boot.gain, rel=1e-12)
    assert normal.high - normal.low == pytest.approx(boot.high - boot.low, rel=0.1)
    assert (normal.reviews, normal.cards) == (boot.reviews, boot.cards)
