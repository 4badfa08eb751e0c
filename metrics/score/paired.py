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
    terms_before, terms_after, d, sums, counts = _by_card(before, after, y, card)
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


def paired_gain_by_card(before: np.ndarray, after: np.ndarray, y: np.ndarray, card: np.ndarray, z: float) -> PairedGain:
    """Return the mean log-loss gain of `after` over `before` with a normal interval of `z` standard errors,
    the error of a ratio of card sums (reviews of one card move together, as in the bootstrap by card
    above, which it approximates; no draws: cheap at any `z`, as the wide intervals of several tests
    taken together need)."""
    terms_before, terms_after, d, sums, counts = _by_card(before, after, y, card)
    m = sums.size
    gain = float(d.mean())
    spread = float(np.sum((sums - gain * counts) ** 2)) * m / max(1, m - 1)
    half = z * float(np.sqrt(spread)) / max(1.0, float(counts.sum()))
    return PairedGain(
        gain, gain - half, gain + half, int(d.size), m, float(terms_before.mean()), float(terms_after.mean())
    )


def _by_card(
    before: np.ndarray, after: np.ndarray, y: np.ndarray, card: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Return each review's log loss under `before` and under `after`, their difference (the gain), and per
    card present the sum of the gains and the count of reviews."""
    terms_before, terms_after = log_loss_terms(before, y), log_loss_terms(after, y)
    d = terms_before - terms_after
    counts = np.bincount(card).astype(np.float64)
    present = counts > 0
    sums = np.bincount(card, weights=d)[present]
    return terms_before, terms_after, d, sums, counts[present]
