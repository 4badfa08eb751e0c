"""The comparison's scores: each model's log loss (with its bootstrap interval), RMSE (bins), AUC and
calibration on the compared reviews, the deck-by-deck superiority and the UM / UM+ matrices."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...score.binning import bin_keys, rmse_bins
from ...score.calibration import calibration_table
from ...score.intervals import bootstrap_ci
from ...score.scores import auc, log_loss
from ...score.terms import clipped, log_loss_terms
from ...score.universal import matrices
from ..options import BINNINGS
from .folds import Entries
from .result import Matrix, ModelScores


@dataclass(frozen=True)
class Tested:
    """What the scores need of the compared reviews (every review from the first tested one, in time
    order), kept once the entries are let go: the answers, the bin keys and each one's deck index."""

    y: np.ndarray  # answers of every time-ordered scored review (AVG learns from the earlier ones)
    start: int  # the first compared one
    keys: np.ndarray
    deck: np.ndarray

    @property
    def compared_y(self) -> np.ndarray:
        """Return the compared reviews' answers."""
        return self.y[self.start :]


def tested(data_home_deck: np.ndarray, entries: Entries, binning: str) -> Tested:
    """Return what the scores need of the entries' compared reviews (`data_home_deck`: each card's deck)."""
    reviews, start = entries.reviews, entries.start
    test = entries.sel[start:]
    y = (reviews.rating[entries.sel] > 1).astype(np.float64)
    keys = bin_keys(reviews.delta_t[test], reviews.n_reviews[test], reviews.n_lapses[test], BINNINGS[binning])
    deck = np.unique(data_home_deck[reviews.card[test]], return_inverse=True)[1].reshape(-1)
    return Tested(y, start, keys, deck)


def scores(
    preds: dict[str, np.ndarray], t: Tested, sorted_by: dict[str, np.ndarray]
) -> tuple[dict[str, ModelScores], Matrix]:
    """Return each model's scores on the compared reviews and the superiority matrix (`sorted_by`: a
    model's ordering of the compared reviews by prediction, where known already)."""
    yt = t.compared_y
    ones = np.ones(yt.size)
    results = {}
    deck_loss: dict[str, np.ndarray] = {}  # each model's summed log loss per deck (not its terms: memory)
    for name, p in preds.items():
        pt = clipped(p[t.start :])
        terms = log_loss_terms(pt, yt)
        deck_loss[name] = np.bincount(t.deck, weights=terms)
        results[name] = ModelScores(
            name=name,
            reviews=int(yt.size),
            log_loss=log_loss(pt, yt, ones),
            log_loss_ci=bootstrap_ci(terms),
            rmse_bins=rmse_bins(pt, yt, ones, t.keys),
            auc=auc(pt, yt, order=sorted_by.get(name)),
            calibration=calibration_table(pt, yt),
        )
    return results, superiority(deck_loss, np.bincount(t.deck))


def universal(preds: dict[str, np.ndarray], t: Tested) -> dict[str, Matrix]:
    """Return the UM and UM+ matrices ("um", "um_plus") of the models' predictions of the compared reviews."""
    return matrices({m: p[t.start :] for m, p in preds.items()}, t.compared_y)


def superiority(loss: dict[str, np.ndarray], count: np.ndarray) -> Matrix:
    """Return, for each pair, the share of decks where the row model's log loss is lower than the column's.

    `loss` is each model's summed log-loss terms per deck (0..n-1), `count` each deck's compared reviews.
    """
    per_deck = {name: total / np.maximum(count, 1) for name, total in loss.items()}
    out: Matrix = {}
    for a in loss:
        out[a] = {b: None if a == b else float(np.mean(per_deck[a] < per_deck[b])) for b in loss}
    return out
