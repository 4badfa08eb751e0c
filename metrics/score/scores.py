"""Log loss, AUC and the recency weights of Anki's Evaluate."""

from __future__ import annotations

import math

import numpy as np

from .terms import log_loss_terms


def recency_weights(n: int) -> np.ndarray:
    """Return fsrs-rs's recency weights 0.25 + 0.75 (i / (n-1))^3 for n reviews in time order."""
    i = np.arange(n, dtype=np.float64)
    return 0.25 + 0.75 * (i / max(n - 1.0, 1.0)) ** 3


def log_loss(p: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
    """Return the weighted binary cross-entropy -sum w (y ln p + (1-y) ln(1-p)) / sum w."""
    if p.size == 0:
        return math.nan
    return float(np.sum(w * log_loss_terms(p, y)) / np.sum(w))


def auc(p: np.ndarray, y: np.ndarray, w: np.ndarray | None = None, order: np.ndarray | None = None) -> float | None:
    """Return the (weighted) area under the ROC curve, ties counted half; None with one class only.

    `order`, when given, is an ordering that sorts p (saves the sort).
    """
    if w is None:
        w = np.ones(p.size)
    pos = y > 0.5
    w_pos, w_neg = float(np.sum(w[pos])), float(np.sum(w[~pos]))
    if w_pos <= 0 or w_neg <= 0:
        return None
    order = np.argsort(p) if order is None else order
    sorted_p = p[order]
    groups = np.empty(p.size, dtype=np.int64)  # tie group of each sorted prediction
    groups[0] = 0
    np.cumsum(sorted_p[1:] != sorted_p[:-1], out=groups[1:])
    w_sorted, pos_sorted = w[order], pos[order]
    pos_at = np.bincount(groups, weights=np.where(pos_sorted, w_sorted, 0.0))
    neg_at = np.bincount(groups, weights=np.where(pos_sorted, 0.0, w_sorted))
    neg_below = np.cumsum(neg_at) - neg_at
    return float(np.sum(pos_at * (neg_below + 0.5 * neg_at)) / (w_pos * w_neg))
