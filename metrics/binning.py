"""Three-feature binning (interval, reviews, lapses) and RMSE (bins)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Binning:
    """One constant set: each feature x goes to round(a * b^floor(log(x)/log(b)), digits)."""

    name: str
    interval: tuple[float, float]
    reviews: tuple[float, float]
    lapses: tuple[float, float]
    half_even: bool  # numpy/Python rounding (the wiki pseudocode) or half away from zero (fsrs-rs)


BINNINGS: dict[str, Binning] = {
    # fsrs-rs r_matrix_index (Anki's Evaluate), srs-benchmark, fsrs-optimizer.
    "benchmark": Binning("benchmark", (2.48, 3.62), (1.99, 1.89), (1.65, 1.73), half_even=False),
    # The Metric page pseudocode (seeds 000-002).
    "wiki": Binning("wiki", (2.48, 2.57), (1.52, 1.58), (1.4, 1.48), half_even=True),
}


def _round(x: float, digits: int, half_even: bool) -> float:
    """Return x rounded to `digits` decimals: numpy's half-even, or Rust's f64::round on x*10^digits."""
    if half_even:
        return float(np.round(np.float64(x), digits))
    scale = 10.0**digits
    scaled = x * scale
    return float(math.copysign(math.floor(abs(scaled) + 0.5), scaled)) / scale


def bin_values(x: np.ndarray, a: float, b: float, digits: int, half_even: bool) -> np.ndarray:
    """Return the rounded bin value of each x > 0 (x <= 0 gives 0, the no-lapse bin)."""
    x = np.asarray(x, dtype=np.float64)
    out = np.zeros(x.size)
    pos = x > 0
    if not pos.any():
        return out
    k = np.floor(np.log(x[pos]) / np.log(b))
    levels, inverse = np.unique(k, return_inverse=True)
    rounded = np.array([_round(a * float(np.power(b, lv)), digits, half_even) for lv in levels])
    out[pos] = rounded[inverse]
    return out


def bin_keys(delta_t: np.ndarray, n_reviews: np.ndarray, n_lapses: np.ndarray, binning: Binning) -> np.ndarray:
    """Return one int64 group id per review: equal ids share an (interval, reviews, lapses) bin."""
    t = bin_values(delta_t, *binning.interval, 2, binning.half_even)
    n = bin_values(n_reviews, *binning.reviews, 0, binning.half_even)
    lapses = bin_values(n_lapses, *binning.lapses, 0, binning.half_even)
    if t.size == 0:
        return np.zeros(0, dtype=np.int64)
    _, keys = np.unique(np.stack([t, n, lapses], axis=1), axis=0, return_inverse=True)
    return keys.reshape(-1).astype(np.int64)


def rmse_bins(p: np.ndarray, y: np.ndarray, w: np.ndarray, keys: np.ndarray) -> float:
    """Return sqrt(sum_b W_b (mean p_b - mean y_b)^2 / sum_b W_b); plain means, W_b = summed weights."""
    if p.size == 0:
        return math.nan
    _, groups = np.unique(keys, return_inverse=True)
    count = np.bincount(groups)
    p_mean = np.bincount(groups, weights=p) / count
    y_mean = np.bincount(groups, weights=y) / count
    weight = np.bincount(groups, weights=w)
    return float(np.sqrt(np.sum(weight * (p_mean - y_mean) ** 2) / np.sum(weight)))
