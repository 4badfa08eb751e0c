"""Scores per calendar month of the review: did FSRS predict better after the learner acted?

Months are the learner's local calendar months (the review's time in `tz`, the computer's time zone by
default). Each month is scored with the same rules as the whole scope: log loss and RMSE (bins) with
the reviews' weights and bins; reviews of all months add up to the reviews scored.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from .binning import rmse_bins
from .scores import log_loss


@dataclass(frozen=True)
class MonthScores:
    """One calendar month's reviews and how well they were predicted."""

    month: str  # YYYY-MM
    reviews: int
    predicted: float
    measured: float
    log_loss: float
    rmse_bins: float

    def to_dict(self) -> dict[str, Any]:
        """Return the month as JSON-ready values."""
        return asdict(self)


def month_starts(first_ms: int, last_ms: int, tz: dt.tzinfo | None = None) -> tuple[list[str], np.ndarray]:
    """Return the labels of the months from the one holding `first_ms` to the one holding `last_ms`, and the
    epoch milliseconds at which each begins (local midnight of its first day in `tz`)."""
    zone = tz or dt.datetime.now().astimezone().tzinfo
    first = dt.datetime.fromtimestamp(first_ms / 1000, zone)
    last = dt.datetime.fromtimestamp(last_ms / 1000, zone)
    year, month = first.year, first.month
    labels, starts = [], []
    while (year, month) <= (last.year, last.month):
        labels.append(f"{year:04d}-{month:02d}")
        starts.append(int(dt.datetime(year, month, 1, tzinfo=zone).timestamp() * 1000))
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return labels, np.asarray(starts, dtype=np.int64)


def by_month(
    when_ms: np.ndarray, p: np.ndarray, y: np.ndarray, w: np.ndarray, keys: np.ndarray, tz: dt.tzinfo | None = None
) -> list[MonthScores]:
    """Return the scores of each month that has reviews, in time order (`when_ms`: each review's time)."""
    if when_ms.size == 0:
        return []
    labels, starts = month_starts(int(when_ms.min()), int(when_ms.max()), tz)
    month = np.searchsorted(starts, when_ms, side="right") - 1
    order = np.argsort(month, kind="stable")
    bounds = np.searchsorted(month[order], np.arange(len(labels) + 1))
    out = []
    for m, label in enumerate(labels):
        at = order[bounds[m] : bounds[m + 1]]
        if at.size:
            pm, ym, wm = p[at], y[at], w[at]
            scores = (log_loss(pm, ym, wm), rmse_bins(pm, ym, wm, keys[at]))
            out.append(MonthScores(label, int(at.size), float(pm.mean()), float(ym.mean()), *scores))
    return out
