"""A comparison's advice (`compare --json`'s guidance): its models' scores handed to explain/advice.py's rules."""

from __future__ import annotations

from ..explain.advice import Score, advise
from ..jobs.compare import Comparison


def comparison_advice(cmp: Comparison) -> list[str]:
    """Return the advice sentences of a comparison, the most important first (`compare --json`'s guidance);
    none for a comparison without scores."""
    if not cmp.models:
        return []
    scores = {}
    for name, m in cmp.models.items():
        remembered = round(sum(b.count * b.mean_actual for b in m.calibration.bins))
        scores[name] = Score(name, m.log_loss, m.log_loss_ci, m.auc, m.reviews, remembered)
    return advise(scores, cmp.reviews_compared)
