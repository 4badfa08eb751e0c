"""What to evaluate with: parameters, weighting, binning constants, the same-day rule of an Anki version.

No numpy here: the command line and the dialog read options before the engine is imported.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import EvaluationError
from ..explain import formatting as fmt
from ..explain.lang import text
from ..score.binnings import BINNINGS

WEIGHTINGS = ("uniform", "recency")
SAME_DAY = ("auto", "keep", "drop")


@dataclass(frozen=True)
class Options:
    """What to evaluate with: parameters ("preset", "default" or numbers), weighting, binning, same-day mode."""

    params: str | Sequence[float] = "preset"
    weighting: str = "uniform"
    binning: str = "benchmark"
    same_day: str = "auto"  # auto: drop for 17-parameter (FSRS-4.5) sets, keep otherwise
    short_term_floor_rating: int = 2  # 2 for Anki >= 26.08 (fsrs-rs 6), 3 before

    def validate(self) -> None:
        """Raise EvaluationError for an unknown option value."""
        if self.weighting not in WEIGHTINGS:
            raise EvaluationError(
                text(
                    "Unknown weighting {weighting}; use one of {choices}.",
                    weighting=_given(self.weighting),
                    choices=", ".join(WEIGHTINGS),
                )
            )
        if self.binning not in BINNINGS:
            raise EvaluationError(
                text(
                    "Unknown binning {binning}; use one of {choices}.",
                    binning=_given(self.binning),
                    choices=", ".join(BINNINGS),
                )
            )
        if self.same_day not in SAME_DAY:
            raise EvaluationError(
                text(
                    "Unknown same-day mode {mode}; use one of {choices}.",
                    mode=_given(self.same_day),
                    choices=", ".join(SAME_DAY),
                )
            )
        if isinstance(self.params, str) and self.params not in ("preset", "default"):
            raise EvaluationError(
                text("Unknown parameter choice {choice}; use preset, default or a list.", choice=_given(self.params))
            )


def _given(value: object) -> str:
    """Return a value the learner gave, quoted as Python writes it and kept in its own direction."""
    return fmt.name(repr(value))


DEFAULT_OPTIONS = Options()


def short_term_floor_rating(anki_version: str | None) -> int:
    """Return the lowest same-day rating whose stability increase is floored at 1 for this Anki.

    fsrs-rs >= 6.0 (Anki 26.08 and later) floors Hard, Good and Easy (G >= 2); older
    versions and the published benchmark floor only Good and Easy (G >= 3). An unknown
    version gets the current rule.
    """
    match = re.match(r"\s*(\d+)\.(\d+)", anki_version or "")  # "26.05b2", "25.09rc1", "2.1.66"
    if match is None:
        return 2
    return 2 if (int(match[1]), int(match[2])) >= (26, 8) else 3
