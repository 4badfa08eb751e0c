"""Finding "benchmark-standing": where the scope's out-of-sample numbers (each preset's FSRS trained on its
earlier reviews, pooled) fall among the FSRS benchmark's learners."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ...explain import findings as words
from ...explain import standing as standing_words
from ...explain.lang import text
from ...kinds import FindingId, Scope
from ...score.binning import bin_keys, rmse_bins
from ...score.intervals import bootstrap_ci
from ...score.scores import auc, log_loss
from ...score.standing import Standing, standing
from ...score.terms import clipped, log_loss_terms
from ..options import BINNINGS
from .context import Context
from .evidence import Evidence
from .finding import MIN_REVIEWS, Finding, Verdict, too_few

FEATURES = ("delta_t", "n_reviews", "n_lapses")


@dataclass(frozen=True)
class StandingEvidence(Evidence):
    """The pooled out-of-sample numbers (reviews, log loss with its interval, RMSE (bins), AUC), the band of the
    benchmark's learners they are placed in, the standing itself (percentiles, medians, source) and its sentence."""

    reviews: int
    reviews_scored: int
    log_loss: float
    log_loss_ci: tuple[float, ...]
    rmse_bins: float
    auc: float | None
    band: str
    standing: Standing
    sentence: str
    source: str

    def to_dict(self) -> dict[str, Any]:
        """Return the numbers as --json writes them: the standing's fields among them, its band in words."""
        ours: dict[str, Any] = {
            "reviews": self.reviews,
            "reviews_scored": self.reviews_scored,
            "log_loss": self.log_loss,
            "log_loss_ci": list(self.log_loss_ci),
            "rmse_bins": self.rmse_bins,
            "auc": self.auc,
        }
        return {**ours, **self.standing.to_dict(), "band": self.band, "sentence": self.sentence, "source": self.source}


def check(ctx: Context) -> list[Finding]:
    """Return the standing of the pooled out-of-sample predictions (too few reviews: said; no optimizer: none)."""
    if not ctx.enough:
        return [too_few(FindingId.BENCHMARK_STANDING, Scope.collection(), ctx.reviews, MIN_REVIEWS)]
    if not ctx.trains:
        return []
    parts = [
        c.compared for c in ctx.pooled if c.compared is not None and "fsrs-out-of-sample" in c.compared.predictions
    ]
    ctx.pooled.clear()
    ctx.by_preset.clear()  # read by nothing after: their predictions go when these parts do (5M reviews: ~100 MB)
    if not parts or sum(p.y.size for p in parts) < MIN_REVIEWS:
        reviews = sum(p.y.size for p in parts)
        return [too_few(FindingId.BENCHMARK_STANDING, Scope.collection(), reviews, MIN_REVIEWS)]
    y = np.concatenate([p.y for p in parts])
    pred = clipped(np.concatenate([p.predictions["fsrs-out-of-sample"] for p in parts]))
    delta_t, n_reviews, n_lapses = (np.concatenate([getattr(p, f) for p in parts]) for f in FEATURES)
    keys = bin_keys(delta_t, n_reviews, n_lapses, BINNINGS[ctx.options.binning])
    ones = np.ones(y.size)
    terms = log_loss_terms(pred, y)
    ll, rmse, area = log_loss(pred, y, ones), rmse_bins(pred, y, ones, keys), auc(pred, y)
    st = standing(int(y.size), ll, rmse, area)
    said = standing_words.sentence(st)
    evidence = StandingEvidence(
        int(y.size),
        ctx.reviews,
        ll,
        tuple(bootstrap_ci(terms)),
        rmse,
        area,
        standing_words.band_text(st),
        st,
        said,
        standing_words.source(st),
    )
    why = text(words.STANDING_WHY, source=standing_words.source(st))
    return [Finding(FindingId.BENCHMARK_STANDING, Verdict.OK, Scope.collection(), said, evidence, "", why)]
