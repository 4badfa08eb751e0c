"""Where the error is: each feature bin's miscalibration with its interval, and the largest well-supported one.

A bin is "well supported" when it holds at least MIN_REVIEWS reviews and the 95% (Wilson) interval of
the measured recall excludes the mean prediction: FSRS is off there beyond chance.
"""

from __future__ import annotations

from dataclasses import dataclass

from .binning import FeatureBin
from .intervals import wilson

MIN_REVIEWS = 100  # a bin with fewer reviews is marked "too few" and never summarised


@dataclass(frozen=True)
class BinError:
    """One feature bin: predicted and measured recall, the measured recall's 95% interval, and a verdict."""

    feature: str
    lowest: int
    highest: int
    count: int
    predicted: float
    measured: float
    ci_low: float
    ci_high: float
    enough: bool  # at least MIN_REVIEWS reviews
    beyond_chance: bool  # enough, and the prediction lies outside the measured recall's interval

    @property
    def error(self) -> float:
        """Return predicted minus measured recall (positive: FSRS overestimates recall)."""
        return self.predicted - self.measured


def bin_errors(rows: list[FeatureBin], min_reviews: int = MIN_REVIEWS) -> list[BinError]:
    """Return each bin's errors with the measured recall's 95% interval."""
    out = []
    for r in rows:
        low, high = wilson(r.mean_actual * r.count, r.count)
        enough = r.count >= min_reviews
        beyond = enough and not low <= r.mean_predicted <= high
        out.append(
            BinError(
                r.feature, r.lowest, r.highest, r.count, r.mean_predicted, r.mean_actual, low, high, enough, beyond
            )
        )
    return out


def largest_error(by_feature: dict[str, list[FeatureBin]], min_reviews: int = MIN_REVIEWS) -> BinError | None:
    """Return the bin, over every feature, with the largest miscalibration beyond chance (None if none)."""
    candidates = [b for rows in by_feature.values() for b in bin_errors(rows, min_reviews) if b.beyond_chance]
    return max(candidates, key=lambda b: (abs(b.error), b.count), default=None)
