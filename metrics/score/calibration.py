"""Calibration table: 20 log-spaced predicted-R bins, fit line, R², MAE and Brier decomposition."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from .intervals import wilson_interval

N_BINS = 20


@dataclass(frozen=True)
class CalibrationBin:
    """One predicted-R bin: its range, count, mean prediction, measured recall and 95% interval."""

    index: int
    lower: float
    upper: float
    count: int
    mean_predicted: float
    mean_actual: float
    ci_low: float
    ci_high: float


@dataclass(frozen=True)
class Calibration:
    """The calibration table of one set of predictions (empty bins are left out of `bins`)."""

    bins: list[CalibrationBin] = field(default_factory=list)
    fit_intercept: float | None = None
    fit_slope: float | None = None
    r2: float | None = None
    mae: float | None = None
    brier: float | None = None
    reliability: float | None = None
    resolution: float | None = None
    uncertainty: float | None = None

    def to_dict(self) -> dict[str, Any]:
        """Return the table as plain JSON-ready values."""
        return asdict(self)


def bin_index(p: np.ndarray) -> np.ndarray:
    """Return the bin of each prediction: clamp(floor(21^p) - 1, 0, 19) (fsrs-rs get_bin)."""
    k = np.floor(np.exp(np.asarray(p, dtype=np.float64) * math.log(N_BINS + 1))) - 1
    return np.clip(k, 0, N_BINS - 1).astype(np.int64)


def bin_edges() -> np.ndarray:
    """Return the 21 edges of the bins in predicted R: ln(k + 1) / ln(21)."""
    return np.log(np.arange(N_BINS + 1) + 1.0) / math.log(N_BINS + 1)


def calibration_table(p: np.ndarray, y: np.ndarray) -> Calibration:
    """Return the calibration table of predictions p against outcomes y (counts, not weights)."""
    if p.size == 0:
        return Calibration()
    k = bin_index(p)
    count = np.bincount(k, minlength=N_BINS)
    p_sum = np.bincount(k, weights=p, minlength=N_BINS)
    y_sum = np.bincount(k, weights=y, minlength=N_BINS)
    used = np.flatnonzero(count)
    n_b = count[used].astype(np.float64)
    p_b = p_sum[used] / n_b
    y_b = y_sum[used] / n_b
    lo, hi = wilson_interval(y_sum[used], count[used])
    edges = bin_edges()
    bins = [
        CalibrationBin(int(i), float(edges[i]), float(edges[i + 1]), int(c), float(pm), float(ym), float(a), float(b))
        for i, c, pm, ym, a, b in zip(used, count[used], p_b, y_b, lo, hi, strict=True)
    ]
    total = float(p.size)
    y_mean = float(np.sum(y) / total)
    # Count-weighted least squares of measured on predicted recall (fsrs-optimizer plot_brier).
    intercept = slope = None
    pw = np.sum(n_b * p_b) / total
    sxx = np.sum(n_b * (p_b - pw) ** 2)
    if used.size >= 2 and sxx > 0:
        yw = np.sum(n_b * y_b) / total
        slope = float(np.sum(n_b * (p_b - pw) * (y_b - yw)) / sxx)
        intercept = float(yw - slope * pw)
    # R² and MAE of the diagonal y = x over the bin means, weighted by count.
    ss_tot = np.sum(n_b * (y_b - y_mean) ** 2)
    ss_res = np.sum(n_b * (y_b - p_b) ** 2)
    r2 = float(1.0 - ss_res / ss_tot) if ss_tot > 0 else None
    mae = float(np.sum(n_b * np.abs(y_b - p_b)) / total)
    return Calibration(
        bins=bins,
        fit_intercept=intercept,
        fit_slope=slope,
        r2=r2,
        mae=mae,
        brier=float(np.mean((p - y) ** 2)),
        reliability=float(ss_res / total),
        resolution=float(ss_tot / total),
        uncertainty=y_mean * (1.0 - y_mean),
    )
