"""The RMSE (bins) constant sets by name (no numpy: the command line and the dialog read them before the engine)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Binning:
    """One constant set: each feature x goes to round(a * b^floor(log(x)/log(b)), digits)."""

    name: str
    interval: tuple[float, float]
    reviews: tuple[float, float]
    lapses: tuple[float, float]
    half_even: bool  # numpy/Python rounding (the wiki pseudocode) or half away from zero (fsrs-rs)


BINNINGS: dict[str, Binning] = {
    # fsrs-rs r_matrix_index (Anki's Evaluate), srs-benchmark, fsrs-optimizer.
    "benchmark": Binning("benchmark", (2.48, 3.62), (1.99, 1.89), (1.65, 1.73), half_even=False),
    # The Metric page pseudocode (seeds 000-002).
    "wiki": Binning("wiki", (2.48, 2.57), (1.52, 1.58), (1.4, 1.48), half_even=True),
}

__all__ = ["BINNINGS", "Binning"]
