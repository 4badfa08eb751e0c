"""Simple models on the same reviews: SM-2, Anki's own scheduled interval, AVG and MOVING-AVG (srs-benchmark)."""

from __future__ import annotations

import math

import numpy as np

S_MAX = 36500.0


def sm2_intervals(rating: np.ndarray, first: np.ndarray) -> np.ndarray:
    """Return, before every entry, the SM-2 interval implied by the card's earlier ratings (srs-benchmark sm2).

    Per card: ease 2.5; Hard/Good/Easy: 1 → 6 → interval × ease; Again: back to 1; ease moves by
    0.1 - (5-q)(0.08 + (5-q)0.02) with q = rating + 1 and stays ≥ 1.3; the interval is rounded (half to
    even, as Python's round) after adding 0.01 and kept within 1..36500. Entries are grouped by card.
    """
    n = rating.size
    out = np.zeros(n)
    if n == 0:
        return out
    starts = np.flatnonzero(first)
    lengths = np.diff(np.append(starts, n))
    ivl = np.zeros(starts.size)
    ef = np.full(starts.size, 2.5)
    reps = np.zeros(starts.size, dtype=np.int64)
    for p in range(int(lengths.max())):  # all cards advance together, one review per step
        active = np.flatnonzero(lengths > p)
        rows = starts[active] + p
        out[rows] = ivl[active]
        q = rating[rows].astype(np.float64) + 1
        ok = q > 2
        r, i, e = reps[active], ivl[active], ef[active]
        new_i = np.where(ok, np.where(r == 0, 1.0, np.where(r == 1, 6.0, i * e)), 1.0)
        new_r = np.where(ok, r + 1, 0)
        new_e = np.maximum(1.3, e + (0.1 - (5 - q) * (0.08 + (5 - q) * 0.02)))
        ivl[active] = np.clip(np.round(new_i + 0.01), 1.0, S_MAX)
        reps[active] = new_r
        ef[active] = new_e
    return out


def interval_recall(t: np.ndarray, interval_days: np.ndarray) -> np.ndarray:
    """Return 0.9^(t / interval): recall at t days if the interval was set for 90% recall."""
    return np.power(0.9, np.asarray(t, dtype=np.float64) / np.maximum(interval_days, 1e-9))


def revlog_interval_days(ivl: np.ndarray) -> np.ndarray:
    """Return the interval of revlog.ivl in days (positive: days; negative: seconds)."""
    ivl = np.asarray(ivl, dtype=np.float64)
    return np.where(ivl >= 0, ivl, -ivl / 86400.0)


def moving_average(y: np.ndarray, start: float = 1.2, rate: float = 0.3) -> np.ndarray:
    """Return MOVING-AVG's prediction before each review: x += rate (y - σ(x)) from x = start, in time order.

    The recursion is sequential by nature (each step needs the previous prediction); it runs once per
    comparison, in plain floats.
    """
    out = np.empty(y.size)
    x = start
    for i, yi in enumerate(y.tolist()):
        p = 1.0 / (1.0 + math.exp(-x))
        out[i] = p
        x += rate * (yi - p)
    return out


def average_by_fold(y: np.ndarray, test_start: np.ndarray, test_end: np.ndarray) -> np.ndarray:
    """Return AVG's predictions: on each test part, the mean outcome of everything before it (NaN elsewhere)."""
    out = np.full(y.size, np.nan)
    csum = np.concatenate(([0.0], np.cumsum(y)))
    for a, b in zip(test_start.tolist(), test_end.tolist(), strict=True):
        out[a:b] = csum[a] / a if a else np.nan
    return out
