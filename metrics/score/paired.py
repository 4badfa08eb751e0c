"""Two sets of predictions of the same reviews: the mean log-loss gain of one over the other, with a 95%
interval from a bootstrap by card (each card's reviews resampled together: Poisson weights per card)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .terms import log_loss_terms


@dataclass(frozen=True)
class PairedGain:
    """`gain` > 0: the second predictions (`after`) have the lower log loss."""

    gain: float
    low: float
    high: float
    reviews: int
    cards: int
    before_log_loss: float
    after_log_loss: float


def paired_log_loss_gain(
    before: np.ndarray, after: np.ndarray, y: np.ndarray, card: np.ndarray, rounds: int = 200, seed: int = 0
) -> PairedGain:
    """Return the mean log-loss gain of `after` over `before` on the same reviews (`card`: small card
    indexes, one per review), its interval resampling whole cards."""
    terms_before, terms_after = log_loss_terms(before, y), log_loss_terms(after, y)
    d = terms_before - terms_after
    counts = np.bincount(card).astype(np.float64)
    present = counts > 0
    sums, counts = np.bincount(card, weights=d)[present], counts[present]
    rng = np.random.default_rng(seed)
    estimates = []
    step = max(1, 4_000_000 // max(1, sums.size))  # rounds per block: bounded memory
    for start in range(0, rounds, step):
        w = rng.poisson(1.0, size=(min(step, rounds - start), sums.size)).astype(np.float64)
        estimates.append((w @ sums) / np.maximum(w @ counts, 1.0))
    low, high = np.percentile(np.concatenate(estimates), [2.5, 97.5])
    return PairedGain(
        float(d.mean()),
        float(low),
        float(high),
        int(d.size),
        int(sums.size),
        float(terms_before.mean()),
        float(terms_after.mean()),
    )
