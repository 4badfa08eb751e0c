"""95% intervals, one place for each: the normal quantile, Wilson's interval of a proportion (arrays or one
value), the normal interval of a mean, and the percentile bootstrap of a mean."""

from __future__ import annotations

import math

import numpy as np

Z95 = 1.959963984540054  # the standard normal's 97.5% quantile


def wilson_interval(successes: np.ndarray, n: np.ndarray, z: float = Z95) -> tuple[np.ndarray, np.ndarray]:
    """Return the Wilson score interval for binomial proportions, element-wise (n > 0)."""
    n = n.astype(np.float64)
    phat = successes / n
    denom = 1.0 + z * z / n
    centre = (phat + z * z / (2 * n)) / denom
    half = z * np.sqrt(phat * (1 - phat) / n + z * z / (4 * n * n)) / denom
    return np.clip(centre - half, 0.0, 1.0), np.clip(centre + half, 0.0, 1.0)


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Return the Wilson score interval of one proportion (0, 1 for n = 0)."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def normal_half_width(sd: float, n: int) -> float:
    """Return the half-width of the normal 95% interval of a mean: 1.96 sd / √n."""
    return Z95 * sd / math.sqrt(n)


def bootstrap_ci(terms: np.ndarray, rounds: int = 100, seed: int = 0, limit: int = 50_000) -> tuple[float, float]:
    """Return a 95% interval of the mean of `terms`: a percentile bootstrap over resampled reviews.

    Above `limit` reviews the bootstrap costs more than it tells: the mean's normal interval
    (mean ± 1.96 sd / √n) is used, which the bootstrap converges to at that size.
    """
    if terms.size == 0:
        return (math.nan, math.nan)
    if terms.size > limit:
        half = normal_half_width(float(np.std(terms)), terms.size)
        mean = float(np.mean(terms))
        return (mean - half, mean + half)
    rng = np.random.default_rng(seed)
    means = np.empty(rounds)
    for r in range(rounds):  # one vectorized resample per round
        means[r] = terms[rng.integers(0, terms.size, terms.size)].mean()
    lo, hi = np.percentile(means, [2.5, 97.5])
    return (float(lo), float(hi))
