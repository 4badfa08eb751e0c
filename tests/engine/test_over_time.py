"""Scores per calendar month: months in the learner's time zone, reviews adding up, each month scored by
scikit-learn's log loss and a hand-computed RMSE (bins)."""

from __future__ import annotations

import datetime as dt
import math

import numpy as np
import pytest
from sklearn.metrics import log_loss as sk_log_loss

from fsrs_calibration.metrics.score.over_time import by_month, month_starts

TOKYO = dt.timezone(dt.timedelta(hours=9))


def ms(*args: int, tz: dt.tzinfo = dt.UTC) -> int:
    return int(dt.datetime(*args, tzinfo=tz).timestamp() * 1000)


def test_months_follow_the_learners_time_zone_across_a_year():
    labels, starts = month_starts(ms(2025, 11, 30, 16), ms(2026, 2, 3), TOKYO)  # 2025-12-01 01:00 in Tokyo
    assert labels == ["2025-12", "2026-01", "2026-02"]
    assert starts[0] == ms(2025, 12, 1, tz=TOKYO) and starts[2] == ms(2026, 2, 1, tz=TOKYO)


def test_each_month_is_scored_as_the_whole_would_be():
    rng = np.random.default_rng(4)
    when = np.sort(rng.integers(ms(2026, 1, 1), ms(2026, 4, 15), 3000))
    p = rng.uniform(0.5, 0.99, when.size)
    y = (rng.uniform(size=when.size) < p).astype(float)
    w = np.ones(when.size)
    keys = rng.integers(0, 5, when.size)
    months = by_month(when, p, y, w, keys, dt.UTC)
    assert [m.month for m in months] == ["2026-01", "2026-02", "2026-03", "2026-04"]
    assert sum(m.reviews for m in months) == when.size
    march = (when >= ms(2026, 3, 1)) & (when < ms(2026, 4, 1))
    m = months[2]
    assert m.reviews == march.sum() and m.measured == pytest.approx(y[march].mean())
    assert m.log_loss == pytest.approx(sk_log_loss(y[march], p[march], labels=[0, 1]), rel=1e-9)
    gaps = [
        (p[march & (keys == k)].mean() - y[march & (keys == k)].mean(), (march & (keys == k)).sum()) for k in range(5)
    ]
    rmse = math.sqrt(sum(n * g * g for g, n in gaps) / sum(n for _, n in gaps))
    assert m.rmse_bins == pytest.approx(rmse, rel=1e-12)


def test_a_month_without_reviews_is_left_out():
    when = np.array([ms(2026, 1, 5), ms(2026, 3, 5)])
    months = by_month(when, np.array([0.9, 0.8]), np.array([1.0, 0.0]), np.ones(2), np.zeros(2, dtype=int), dt.UTC)
    assert [m.month for m in months] == ["2026-01", "2026-03"]
