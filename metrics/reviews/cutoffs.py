"""Candidate dates for Anki's "Ignore cards reviewed before": where the learner's answers changed most, and
quantiles of the history.

Where the answers changed: over every day boundary of the reviews (in time order), the shares of Again,
Hard, Good and Easy before it against after it, as a chi-square of the 2 x 4 table; the boundary with the
largest one, when that is beyond chance (CHANGED). A change in button habits (Again on recalled cards, Hard
on forgotten ones) or in retention (another desired retention) moves those shares. Dates are UTC days, as
Anki reads the setting's date.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

DAY_MS = 86_400_000
EDGE = 0.15  # a change point leaves at least this share of the reviews on either side
QUANTILES = (1 / 2,)  # of the reviews in time order
# The largest of the chi-squares (3 degrees of freedom) over the boundaries exceeds this about once in a
# hundred histories whose answers never changed: Andrews' (1993) sup-Wald bound, 15% trimmed; simulated
# here with 2,000 and 20,000 reviews of constant shares, its 99th percentile was 16.7 and 19.8.
CHANGED = 20.0
NEAR_DAYS = 14  # candidates closer than this to an earlier one are the same candidate


@dataclass(frozen=True)
class Cutoff:
    """A candidate date: its first millisecond (UTC midnight), and why it is a candidate."""

    ms: int
    why: str  # "answers-changed" | "quantile"
    chi_square: float | None = None  # the change point's statistic (answers-changed only)


def utc_day(ms: np.ndarray) -> np.ndarray:
    """Return the UTC day number of each millisecond timestamp."""
    return np.floor_divide(np.asarray(ms, dtype=np.int64), DAY_MS)


def answers_changed(day: np.ndarray, rating: np.ndarray, edge: float = EDGE) -> tuple[int, float] | None:
    """Return (day, chi-square): the first day after the boundary where the shares of the four answers
    before and after differ most, among boundaries leaving at least `edge` of the reviews on either side
    (None when there is no such boundary). `day` is ascending; `rating` 1..4 per review."""
    n = int(day.size)
    if n < 2:
        return None
    at = np.flatnonzero(day[1:] != day[:-1]) + 1  # boundary before review `at`
    at = at[(at >= edge * n) & (at <= (1 - edge) * n)]
    if at.size == 0:
        return None
    rating = np.asarray(rating)
    before = np.empty((at.size, 4))
    total = np.empty(4)
    for k in range(4):  # the reviews with answer k + 1 before each boundary (no n x 4 table: memory)
        where = np.flatnonzero(rating == k + 1)
        before[:, k] = np.searchsorted(where, at)
        total[k] = where.size
    after = total - before
    rows = np.stack((before.sum(axis=1), after.sum(axis=1)), axis=1)  # (k, 2)
    share = total / max(1.0, total.sum())
    chi = np.zeros(at.size)
    for side, observed in ((0, before), (1, after)):
        expected = rows[:, side : side + 1] * share
        with np.errstate(divide="ignore", invalid="ignore"):
            chi += np.where(expected > 0, (observed - expected) ** 2 / expected, 0.0).sum(axis=1)
    best = int(np.argmax(chi))
    return int(day[at[best]]), float(chi[best])


def candidates(review_ms: np.ndarray, rating: np.ndarray) -> list[Cutoff]:
    """Return the candidate dates of these reviews (in time order): where the answers changed most (if they
    changed beyond chance), then the quantiles of the history; one per NEAR_DAYS."""
    day = utc_day(review_ms)
    found: list[Cutoff] = []
    change = answers_changed(day, rating)
    if change is not None and change[1] >= CHANGED:
        found.append(Cutoff(change[0] * DAY_MS, "answers-changed", change[1]))
    n = int(day.size)
    for q in QUANTILES if n else ():
        found.append(Cutoff(int(day[min(n - 1, int(q * n))]) * DAY_MS, "quantile"))
    out: list[Cutoff] = []
    for c in found:
        if all(abs(c.ms - o.ms) >= NEAR_DAYS * DAY_MS for o in out):
            out.append(c)
    return out
