"""Metrics against the seeds (The Metric page), the reference tables and scikit-learn."""

from __future__ import annotations

import math

import numpy as np
import pytest
from sklearn.metrics import log_loss as sk_log_loss
from sklearn.metrics import roc_auc_score

from fsrs_calibration.metrics.jobs.options import BINNINGS
from fsrs_calibration.metrics.score.binning import bin_keys, bin_values, rmse_bins
from fsrs_calibration.metrics.score.calibration import bin_index, calibration_table
from fsrs_calibration.metrics.score.scores import auc, log_loss, recency_weights


def test_seed_old_method_example():
    """The Metric page: bin 1 predictions and outcomes, means 0.835 and 0.833."""
    p = np.array([0.81, 0.82, 0.83, 0.84, 0.85, 0.86])
    y = np.array([0, 1, 1, 1, 1, 1.0])
    keys = np.zeros(6, dtype=np.int64)
    assert p.mean() == pytest.approx(0.835)
    assert round(y.mean(), 3) == 0.833
    assert rmse_bins(p, y, np.ones(6), keys) == pytest.approx(abs(0.835 - 5 / 6))


def test_seed_constant_prediction_cheats_old_binning_but_not_three_feature_binning():
    """The Metric page: predicting the average retention everywhere scores 0 on predicted-R bins."""
    rng = np.random.default_rng(1)
    t = rng.integers(1, 400, 5000)
    y = (rng.random(5000) < 0.9 ** (t / 30)).astype(float)  # recall really depends on the interval
    p = np.full(5000, y.mean())
    one_bin = np.zeros(5000, dtype=np.int64)
    assert rmse_bins(p, y, np.ones(5000), one_bin) == pytest.approx(0.0, abs=1e-12)
    keys = bin_keys(t, np.full(5000, 3), np.zeros(5000), BINNINGS["benchmark"])
    assert rmse_bins(p, y, np.ones(5000), keys) > 0.05


def _pseudocode(x):
    """The rounding pseudocode of The Metric page (seed 000), transcribed literally."""
    from numpy import floor, log, power

    delta_t = round(2.48 * power(2.57, floor(log(x) / log(2.57))), 2)
    n_reviews = round(1.52 * power(1.58, floor(log(x) / log(1.58))), 0)
    n_lapses = round(1.4 * power(1.48, floor(log(x) / log(1.48))), 0) if x != 0 else 0
    return delta_t, n_reviews, n_lapses


def test_wiki_binning_reproduces_pseudocode():
    xs = np.arange(0, 5000)
    b = BINNINGS["wiki"]
    pos = xs[1:]
    got_t = bin_values(pos, *b.interval, 2, b.half_even)
    got_n = bin_values(pos, *b.reviews, 0, b.half_even)
    got_l = bin_values(xs, *b.lapses, 0, b.half_even)
    want = [_pseudocode(float(x)) for x in pos]
    assert got_t.tolist() == [w[0] for w in want]
    assert got_n.tolist() == [w[1] for w in want]
    assert got_l.tolist() == [0] + [w[2] for w in want]


def _ranges(values, labels):
    out = []
    for lab in np.unique(labels):
        v = values[labels == lab]
        out.append((int(v.min()), int(v.max())))
    return sorted(out)


def test_benchmark_binning_ranges_of_reference():
    b = BINNINGS["benchmark"]
    t = np.arange(1, 3000)
    assert _ranges(t, bin_values(t, *b.interval, 2, False))[:7] == [
        (1, 3),
        (4, 13),
        (14, 47),
        (48, 171),
        (172, 621),
        (622, 2250),
        (2251, 2999),
    ]
    n = np.arange(2, 163)
    assert _ranges(n, bin_values(n, *b.reviews, 0, False)) == [
        (2, 3),
        (4, 6),
        (7, 12),
        (13, 24),
        (25, 45),
        (46, 86),
        (87, 162),
    ]
    lapses = np.arange(0, 47)
    assert _ranges(lapses, bin_values(lapses, *b.lapses, 0, False)) == [
        (0, 0),
        (1, 1),
        (2, 2),
        (3, 5),
        (6, 8),
        (9, 15),
        (16, 26),
        (27, 46),
    ]


def test_fsrs_rs_key_values():
    """fsrs-rs r_matrix_index: interval key is round(2.48 * 3.62^k * 100)."""
    b = BINNINGS["benchmark"]
    assert bin_values(np.array([1, 5, 20]), *b.interval, 2, False).tolist() == [2.48, 8.98, 32.5]


def test_rmse_bins_weighted_by_summed_weights_with_plain_means():
    p = np.array([0.9, 0.8, 0.5, 0.7])
    y = np.array([1, 0, 1, 1.0])
    w = np.array([1, 2, 3, 4.0])
    keys = np.array([0, 0, 1, 1])
    e0 = (0.85 - 0.5) ** 2 * 3
    e1 = (0.6 - 1.0) ** 2 * 7
    assert rmse_bins(p, y, w, keys) == pytest.approx(math.sqrt((e0 + e1) / 10))


def test_log_loss_matches_sklearn():
    rng = np.random.default_rng(0)
    p = rng.uniform(0.05, 0.99, 1000)
    y = (rng.random(1000) < p).astype(float)
    w = recency_weights(1000)
    assert log_loss(p, y, w) == pytest.approx(sk_log_loss(y, p, sample_weight=w), rel=1e-12)


def test_auc_matches_sklearn_with_ties_and_weights():
    rng = np.random.default_rng(2)
    p = np.round(rng.uniform(0, 1, 3000), 2)  # many ties
    y = (rng.random(3000) < p).astype(float)
    w = rng.uniform(0.25, 1, 3000)
    assert auc(p, y) == pytest.approx(roc_auc_score(y, p), rel=1e-12)
    assert auc(p, y, w) == pytest.approx(roc_auc_score(y, p, sample_weight=w), rel=1e-12)
    assert auc(p, np.ones(3000)) is None
    # given an ordering that sorts p (any order among ties, e.g. merged sorted runs): the same value
    runs = np.concatenate([np.arange(a, a + 1000)[np.argsort(p[a : a + 1000])] for a in (0, 1000, 2000)])
    merged = runs[np.argsort(p[runs], kind="stable")]
    assert auc(p, y, order=merged) == pytest.approx(roc_auc_score(y, p), rel=1e-12)
    assert auc(p, y, w, order=merged[::-1][np.argsort(p[merged[::-1]], kind="stable")]) == pytest.approx(
        roc_auc_score(y, p, sample_weight=w), rel=1e-12
    )


def test_recency_weights():
    w = recency_weights(5)
    assert w.tolist() == pytest.approx([0.25, 0.25 + 0.75 / 64, 0.25 + 0.75 / 8, 0.25 + 0.75 * 27 / 64, 1.0])
    assert recency_weights(1).tolist() == [0.25]


def test_calibration_bins_follow_fsrs_rs_get_bin():
    p = np.array([0.0, 0.2276, 0.2277, 0.5, 0.999, 1.0])
    assert bin_index(p).tolist() == [0, 0, 1, 3, 19, 19]


def test_calibration_table_numbers():
    rng = np.random.default_rng(3)
    p = rng.uniform(0.3, 1.0, 20000)
    y = (rng.random(20000) < p).astype(float)  # perfectly calibrated
    cal = calibration_table(p, y)
    assert sum(b.count for b in cal.bins) == 20000
    for b in cal.bins:
        sel = bin_index(p) == b.index
        assert b.count == sel.sum()
        assert b.mean_predicted == pytest.approx(p[sel].mean())
        assert b.mean_actual == pytest.approx(y[sel].mean())
        assert b.ci_low <= b.mean_actual <= b.ci_high
        assert b.lower <= b.mean_predicted <= b.upper
    assert cal.fit_slope == pytest.approx(1.0, abs=0.1)
    assert cal.fit_intercept == pytest.approx(0.0, abs=0.1)
    assert cal.r2 > 0.9
    assert cal.mae < 0.03
    assert cal.uncertainty == pytest.approx(y.mean() * (1 - y.mean()))
    assert cal.brier == pytest.approx(np.mean((p - y) ** 2))


def test_wilson_interval_solves_score_equation():
    """Wilson bounds are the roots of (p - phat)^2 = z^2 p (1 - p) / n."""
    from fsrs_calibration.metrics.score.intervals import Z95, wilson_interval

    k, n = np.array([81.0, 0.0, 10.0]), np.array([263, 12, 10])
    lo, hi = wilson_interval(k, n)
    for kk, nn, a, b in zip(k, n, lo, hi, strict=True):
        for root in (a, b):
            assert (root - kk / nn) ** 2 == pytest.approx(Z95**2 * root * (1 - root) / nn, abs=1e-12)
    assert lo[1] == pytest.approx(0.0, abs=1e-12) and hi[2] == pytest.approx(1.0)
