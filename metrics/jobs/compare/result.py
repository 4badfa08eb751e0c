"""What a comparison returns: each model's scores, the matrices between models, and (when asked) the
compared reviews with every model's predictions. Numbers only: explain/ words them."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

import numpy as np

from ...score.calibration import Calibration

Matrix = dict[str, dict[str, float | None]]  # row model -> column model -> value (None on the diagonal)


@dataclass(frozen=True)
class ModelScores:
    """One model's numbers on the compared reviews."""

    name: str
    reviews: int
    log_loss: float
    log_loss_ci: tuple[float, float]  # bootstrap 95% interval (reviews resampled)
    rmse_bins: float
    auc: float | None
    calibration: Calibration


@dataclass
class ComparedReviews:
    """The compared reviews in time order (for paired tests and pooled scores): answers, card indexes, the
    binning features, revlog ids, and each model's predictions of them (model name -> array)."""

    y: np.ndarray  # 1.0 when remembered (Hard, Good or Easy)
    card: np.ndarray  # card index (small integers)
    delta_t: np.ndarray
    n_reviews: np.ndarray
    n_lapses: np.ndarray
    revlog_id: np.ndarray
    predictions: dict[str, np.ndarray] = field(default_factory=dict)


@dataclass(frozen=True)
class Comparison:
    """Models side by side: scores, deck-by-deck superiority, UM and UM+ matrices (explain/advice.py's
    `comparison_advice` words them)."""

    models: dict[str, ModelScores]
    superiority: Matrix  # share of decks where row beats column on log loss
    um: Matrix
    um_plus: Matrix
    reviews_total: int
    reviews_compared: int
    fold_params: list[list[float]] = field(default_factory=list)
    compared: ComparedReviews | None = field(default=None, repr=False)  # with keep_predictions only

    def to_dict(self) -> dict[str, object]:
        """Return the numbers of `fsrs-calibration compare --json` (the command adds the advice's words)."""
        models = {}
        for name, m in self.models.items():
            d = asdict(m)
            d["calibration"] = [asdict(b) for b in m.calibration.bins]
            models[name] = d
        return {
            "models": models,
            "superiority": self.superiority,
            "um": self.um,
            "um_plus": self.um_plus,
            "um_plus_max": {a: _max(row) for a, row in self.um_plus.items()},
            "reviews_total": self.reviews_total,
            "reviews_compared": self.reviews_compared,
            "fold_params": self.fold_params,
        }


def _max(row: dict[str, float | None]) -> float | None:
    values = [v for v in row.values() if v is not None]
    return max(values) if values else None
