"""Is FSRS calibrated where a desired retention would put its predictions? The learner's own reviews whose
prediction was near each candidate retention (late and early reviews put many there), measured minus
predicted recall with simultaneous intervals over the candidates.

Windows are disjoint: each candidate's reviews are those whose prediction is nearer to it than to another
candidate, and at most `HALF_WINDOW` away. The intervals are normal intervals of the mean of y − p (its
spread at least what FSRS's predictions imply), with the quantile widened for the number of candidates
(Bonferroni), so that "no candidate is off" holds with 95% confidence together, not candidate by candidate.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from enum import StrEnum

import numpy as np

from .intervals import Z95

CANDIDATES = (0.70, 0.75, 0.80, 0.85, 0.90, 0.95, 0.97)
HALF_WINDOW = 0.025
MIN_REVIEWS = 100  # reviews a candidate needs before it is judged
MIN_GAP = 0.03  # a gap smaller than 3 percentage points is not worth acting on (as for decks)


class Calibration(StrEnum):
    """A candidate's verdict (its value is what the JSON says)."""

    CALIBRATED = "calibrated"
    OFF = "off"
    NOT_ENOUGH_DATA = "not-enough-data"


@dataclass(frozen=True)
class Candidate:
    """The reviews predicted near one candidate retention and how they went."""

    retention: float
    reviews: int
    predicted: float
    measured: float
    low: float  # simultaneous interval of measured minus predicted
    high: float
    verdict: Calibration

    @property
    def gap(self) -> float:
        """Return measured minus predicted recall (NaN without reviews)."""
        return self.measured - self.predicted

    def to_dict(self) -> dict[str, object]:
        """Return the candidate as JSON-ready values (a number that is not one, NaN, as None)."""
        out: dict[str, object] = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "verdict"}
        out = {k: (None if isinstance(v, float) and v != v else v) for k, v in out.items()}
        return {**out, "verdict": str(self.verdict)}


def window_edges(candidates: tuple[float, ...] = CANDIDATES, half: float = HALF_WINDOW) -> np.ndarray:
    """Return the (low, high) prediction window of each candidate: disjoint, at most `half` from it."""
    c = np.asarray(candidates, dtype=np.float64)
    mid = (c[1:] + c[:-1]) / 2
    low = np.maximum(c - half, np.r_[-np.inf, mid])
    high = np.minimum(c + half, np.r_[mid, np.inf])
    return np.stack([low, high], axis=1)


def simultaneous_z(count: int) -> float:
    """Return the two-sided normal quantile for 95% over `count` intervals together (Bonferroni)."""
    if count <= 1:
        return Z95
    from statistics import NormalDist

    return NormalDist().inv_cdf(1 - 0.05 / (2 * count))


def near_retention(p: np.ndarray, y: np.ndarray, candidates: tuple[float, ...] = CANDIDATES) -> list[Candidate]:
    """Return each candidate's reviews, predicted and measured recall, interval and verdict."""
    edges = window_edges(candidates)
    z = simultaneous_z(len(candidates))
    out = []
    for retention, (low, high) in zip(candidates, edges, strict=True):
        near = (p >= low) & (p < high)
        out.append(_candidate(retention, p[near], y[near], z))
    return out


def _candidate(retention: float, p: np.ndarray, y: np.ndarray, z: float) -> Candidate:
    n = int(p.size)
    if n == 0:
        return Candidate(retention, 0, math.nan, math.nan, math.nan, math.nan, Calibration.NOT_ENOUGH_DATA)
    d = y - p
    mean = float(d.mean())
    # The spread of y - p: the larger of the one measured and the one FSRS's own predictions imply (p(1 - p)
    # per review, what "calibrated" means). The measured one alone is too small where recall is measured far
    # from 50%: an honest learner's 308 reviews near 0.80, measured 0.867, were called off (sd 0.34 against
    # the 0.39 that FSRS's predictions imply).
    spread = max(float(d.var(ddof=1)), float(np.mean(p * (1 - p)))) if n > 1 else math.inf
    half = z * math.sqrt(spread / n)
    low, high = mean - half, mean + half
    if n < MIN_REVIEWS:
        verdict = Calibration.NOT_ENOUGH_DATA
    elif (low > 0 or high < 0) and abs(mean) >= MIN_GAP:
        verdict = Calibration.OFF
    else:
        verdict = Calibration.CALIBRATED
    return Candidate(retention, n, float(p.mean()), float(y.mean()), low, high, verdict)


def trusted_range(candidates: list[Candidate], around: float = 0.9) -> tuple[float, float] | None:
    """Return the widest run of calibrated candidates that holds the one nearest `around` (None if that
    one is not calibrated)."""
    if not candidates:
        return None
    start = min(range(len(candidates)), key=lambda i: abs(candidates[i].retention - around))
    if candidates[start].verdict is not Calibration.CALIBRATED:
        return None
    lo = hi = start
    while lo > 0 and candidates[lo - 1].verdict is Calibration.CALIBRATED:
        lo -= 1
    while hi < len(candidates) - 1 and candidates[hi + 1].verdict is Calibration.CALIBRATED:
        hi += 1
    return candidates[lo].retention, candidates[hi].retention
