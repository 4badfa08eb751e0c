"""Desired-retention candidates: disjoint windows, simultaneous intervals, verdicts, the trusted range."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from fsrs_calibration.metrics.score.near_retention import (
    CANDIDATES,
    Calibration,
    near_retention,
    simultaneous_z,
    trusted_range,
    window_edges,
)


def test_windows_are_disjoint_and_hold_their_candidate():
    edges = window_edges()
    assert edges[1:, 0] == pytest.approx(edges[:-1, 1])  # each window starts where the previous ends
    assert all(lo < c < hi and hi - lo <= 0.05 + 1e-12 for c, (lo, hi) in zip(CANDIDATES, edges, strict=True))
    assert edges[-2:].ravel() == pytest.approx([0.925, 0.96, 0.96, 0.995])


def test_the_intervals_are_simultaneous_over_the_candidates():
    assert simultaneous_z(1) == pytest.approx(stats.norm.ppf(0.975))
    assert simultaneous_z(7) == pytest.approx(stats.norm.ppf(1 - 0.05 / 14))


def test_a_candidate_by_hand():
    """300 reviews predicted 0.70, 180 recalled: 0.60 measured, gap -0.10, interval from the spread of y - p."""
    p = np.full(300, 0.70)
    y = np.r_[np.ones(180), np.zeros(120)]
    near = {c.retention: c for c in near_retention(p, y)}
    c = near[0.70]
    half = simultaneous_z(len(CANDIDATES)) * np.std(y - p, ddof=1) / math.sqrt(300)
    assert (c.reviews, c.predicted, c.measured) == (300, pytest.approx(0.70), pytest.approx(0.60))
    assert (c.low, c.high) == (pytest.approx(-0.10 - half), pytest.approx(-0.10 + half))
    assert c.verdict is Calibration.OFF and near[0.9].verdict is Calibration.NOT_ENOUGH_DATA


def test_the_trusted_range_is_the_calibrated_run_around_the_current_retention():
    rng = np.random.default_rng(0)
    p = rng.uniform(0.68, 0.98, 40_000)
    y = (rng.uniform(size=p.size) < np.where(p < 0.725, p - 0.1, p)).astype(float)  # off only near 0.70
    near = near_retention(p, y)
    assert [c.verdict for c in near][:2] == [Calibration.OFF, Calibration.CALIBRATED]
    assert trusted_range(near, 0.9) == (0.75, 0.97)
    assert trusted_range(near, 0.7) is None
