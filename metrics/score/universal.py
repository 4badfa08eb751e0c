"""The Universal Metric (SuperMemo) and UM+ as in open-spaced-repetition/fsrs-vs-sm17."""

from __future__ import annotations

import numpy as np


def _binned_rmse(p: np.ndarray, y: np.ndarray, bins: np.ndarray) -> float:
    """Return sqrt(Σ_b n_b (mean p_b - mean y_b)² / N) over the groups of integer `bins`."""
    g = bins - bins.min()  # small non-negative integers
    n = np.bincount(g)
    used = n > 0
    diff = (np.bincount(g, weights=p)[used] - np.bincount(g, weights=y)[used]) / n[used]
    return float(np.sqrt(np.sum(n[used] * diff**2) / p.size))


def universal_metric(player: np.ndarray, referee: np.ndarray, y: np.ndarray) -> float:
    """Return UM(player | referee): the player's calibration inside bins of the referee's predictions (0.1 wide)."""
    return _binned_rmse(player, y, np.round(referee * 10).astype(np.int64))


def universal_metric_plus(player: np.ndarray, opponent: np.ndarray, y: np.ndarray) -> float:
    """Return UM+(player | opponent): the player's calibration inside bins of where the two disagree.

    Bins are round((player - opponent) * 20) / 20; both players are measured in the same bins.
    """
    return _binned_rmse(player, y, np.round((player - opponent) * 20).astype(np.int64))


def matrices(predictions: dict[str, np.ndarray], y: np.ndarray) -> dict[str, dict[str, dict[str, float | None]]]:
    """Return the UM and UM+ matrices: row = player, column = referee/opponent (None on the diagonal)."""
    names = list(predictions)
    um: dict[str, dict[str, float | None]] = {}
    ump: dict[str, dict[str, float | None]] = {}
    for a in names:
        um[a], ump[a] = {}, {}
        for b in names:
            same = a == b
            um[a][b] = None if same else universal_metric(predictions[a], predictions[b], y)
            ump[a][b] = None if same else universal_metric_plus(predictions[a], predictions[b], y)
    return {"um": um, "um_plus": ump}
