"""Per-review log-loss terms, the one place predictions are clipped away from 0 and 1."""

from __future__ import annotations

import numpy as np

EPS = 1e-15  # only guards p == 0 or 1 exactly; FSRS predictions stay strictly inside


def clipped(p: np.ndarray) -> np.ndarray:
    """Return predictions clipped into [EPS, 1 - EPS]."""
    return np.clip(p, EPS, 1.0 - EPS)


def log_loss_terms(p: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Return each review's log loss -(y ln p + (1 - y) ln(1 - p)) of clipped predictions (y is 0 or 1)."""
    pc = clipped(p)
    return -np.where(y > 0.5, np.log(pc), np.log1p(-pc))
