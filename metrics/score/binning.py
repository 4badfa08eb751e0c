"""Three-feature binning (interval, reviews, lapses) and RMSE (bins)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .binnings import Binning


def _round(x: float, digits: int, half_even: bool) -> float:
    """Return x rounded to `digits` decimals: numpy's half-even, or Rust's f64::round on x*10^digits."""
    if half_even:
        return float(np.round(np.float64(x), digits))
    scale = 10.0**digits
    scaled = x * scale
    return float(math.copysign(math.floor(abs(scaled) + 0.5), scaled)) / scale


def _levels(x: np.ndarray, b: float) -> np.ndarray:
    """Return floor(log(x) / log(b)) as int64 for x > 0 (the exponent of each bin)."""
    return np.floor(np.log(x) / np.log(b)).astype(np.int64)


def _codes(x: np.ndarray, a: float, b: float, digits: int, half_even: bool) -> tuple[np.ndarray, list[float]]:
    """Return a small int code per x and the rounded bin value of each code (x <= 0: value 0)."""
    x = np.asarray(x, dtype=np.float64)
    pos = x > 0
    k = np.full(x.size, -1, dtype=np.int64)
    if pos.any():
        k[pos] = _levels(x[pos], b)
    low = int(k[pos].min()) if pos.any() else 0
    shifted = np.where(pos, k - low + 1, 0)  # 0 = "no value" (x <= 0)
    used = np.flatnonzero(np.bincount(shifted))
    values = {0: 0.0}
    for u in used.tolist():
        if u:
            values[u] = _round(a * float(np.power(b, u - 1 + low)), digits, half_even)
    # Equal rounded values share a code (the wiki constants can round two levels alike).
    distinct = sorted(set(values.values()))
    table = np.zeros(int(used.max()) + 1 if used.size else 1, dtype=np.int64)
    for u, v in values.items():
        if u < table.size:
            table[u] = distinct.index(v)
    return table[shifted], distinct


def bin_values(x: np.ndarray, a: float, b: float, digits: int, half_even: bool) -> np.ndarray:
    """Return the rounded bin value of each x > 0 (x <= 0 gives 0, the no-lapse bin)."""
    codes, values = _codes(x, a, b, digits, half_even)
    return np.asarray(values, dtype=np.float64)[codes] if codes.size else np.zeros(0)


def bin_keys(delta_t: np.ndarray, n_reviews: np.ndarray, n_lapses: np.ndarray, binning: Binning) -> np.ndarray:
    """Return one small int64 id per review: equal ids share an (interval, reviews, lapses) bin."""
    t, t_values = _codes(delta_t, *binning.interval, 2, binning.half_even)
    n, n_values = _codes(n_reviews, *binning.reviews, 0, binning.half_even)
    lapses, l_values = _codes(n_lapses, *binning.lapses, 0, binning.half_even)
    return (t * len(n_values) + n) * len(l_values) + lapses


def rmse_bins(p: np.ndarray, y: np.ndarray, w: np.ndarray, keys: np.ndarray) -> float:
    """Return sqrt(sum_b W_b (mean p_b - mean y_b)^2 / sum_b W_b); plain means, W_b = summed weights."""
    if p.size == 0:
        return math.nan
    count = np.bincount(keys)
    used = count > 0
    count = count[used]
    p_mean = np.bincount(keys, weights=p)[used] / count
    y_mean = np.bincount(keys, weights=y)[used] / count
    weight = np.bincount(keys, weights=w)[used]
    return float(np.sqrt(np.sum(weight * (p_mean - y_mean) ** 2) / np.sum(weight)))


@dataclass(frozen=True)
class FeatureBin:
    """Measured against predicted recall for the reviews whose feature falls in one bin."""

    feature: str  # interval, reviews or lapses
    bin_value: float  # the rounded bin value of the constant set
    lowest: int  # smallest feature value seen in the bin
    highest: int  # largest feature value seen in the bin
    count: int
    mean_predicted: float
    mean_actual: float


def breakdown(
    delta_t: np.ndarray, n_reviews: np.ndarray, n_lapses: np.ndarray, p: np.ndarray, y: np.ndarray, binning: Binning
) -> dict[str, list[FeatureBin]]:
    """Return, per feature of the binning, each bin's count, mean prediction and measured recall."""
    out: dict[str, list[FeatureBin]] = {}
    features = (
        ("interval", delta_t, binning.interval, 2),
        ("reviews", n_reviews, binning.reviews, 0),
        ("lapses", n_lapses, binning.lapses, 0),
    )
    for name, values, (a, b), digits in features:
        codes, levels = _codes(values, a, b, digits, binning.half_even)
        rows = []
        if codes.size:
            count = np.bincount(codes, minlength=len(levels))
            p_sum = np.bincount(codes, weights=p, minlength=len(levels))
            y_sum = np.bincount(codes, weights=y, minlength=len(levels))
            # bins are ranges of the feature: its distinct values, sorted, give each bin's ends
            distinct = np.unique(np.asarray(values, dtype=np.int64))
            code_of = _codes(distinct, a, b, digits, binning.half_even)[0]
            lowest = np.zeros(len(levels), dtype=np.int64)
            highest = np.zeros(len(levels), dtype=np.int64)
            lowest[code_of[::-1]] = distinct[::-1]  # the first value of each code wins (assigned last)
            highest[code_of] = distinct
            for k in np.flatnonzero(count).tolist():
                mean_p, mean_y = float(p_sum[k] / count[k]), float(y_sum[k] / count[k])
                rows.append(
                    FeatureBin(name, float(levels[k]), int(lowest[k]), int(highest[k]), int(count[k]), mean_p, mean_y)
                )
        out[name] = rows
    return out


# "overdue": elapsed days over the interval Anki had scheduled — early, on time, late, after a break
OVERDUE_EDGES = (0.9, 1.5, 3.0)


def difficulty_codes(difficulty: np.ndarray) -> np.ndarray:
    """Return each review's difficulty bin: 1 for D in [1, 2), …, 9 for [9, 10] (FSRS keeps D in 1–10)."""
    return np.clip(np.floor(np.nan_to_num(difficulty, nan=1.0)), 1, 9).astype(np.int64)


def overdue_codes(elapsed_days: np.ndarray, scheduled_days: np.ndarray) -> np.ndarray:
    """Return each review's lateness bin: 0 early (< 0.9× the scheduled interval), 1 on time (0.9–1.5×),
    2 late (1.5–3×), 3 more than 3× late (after a break)."""
    ratio = elapsed_days / np.maximum(scheduled_days, 1)
    return np.searchsorted(np.asarray(OVERDUE_EDGES), ratio, side="right").astype(np.int64)


def categories(feature: str, codes: np.ndarray, p: np.ndarray, y: np.ndarray, width: int = 0) -> list[FeatureBin]:
    """Return a bin per code present (in code order): count, mean prediction, measured recall; a bin spans
    `code` to `code + width`."""
    if codes.size == 0:
        return []
    count = np.bincount(codes)
    p_sum, y_sum = np.bincount(codes, weights=p), np.bincount(codes, weights=y)
    mean_p, mean_y = p_sum / np.maximum(count, 1), y_sum / np.maximum(count, 1)
    return [
        FeatureBin(feature, float(k), k, k + width, int(count[k]), float(mean_p[k]), float(mean_y[k]))
        for k in np.flatnonzero(count).tolist()
    ]
