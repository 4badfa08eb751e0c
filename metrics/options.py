"""What to evaluate with: the options, their names and how the command line's values are read.

No numpy here: the command line and the dialog read options before the engine is imported.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from .errors import EvaluationError

WEIGHTINGS = ("uniform", "recency")
SAME_DAY = ("auto", "keep", "drop")
MODELS = ("fsrs-preset", "fsrs-default", "fsrs-out-of-sample", "sm2", "anki-interval", "avg", "moving-avg")
# What people read for each model: a name and one line on what it is.
MODEL_NAMES = {
    "fsrs-preset": "FSRS, your presets",
    "fsrs-default": "FSRS, default parameters",
    "fsrs-out-of-sample": "FSRS, trained on earlier reviews",
    "sm2": "SM-2 (Anki's old scheduler)",
    "anki-interval": "Anki's scheduled intervals",
    "avg": "Average recall",
    "moving-avg": "Moving average",
}
MODEL_SHORT = {"fsrs-preset": "FSRS", "fsrs-default": "FSRS-def", "fsrs-out-of-sample": "FSRS-oos", "sm2": "SM-2",
               "anki-interval": "Anki ivl", "avg": "AVG", "moving-avg": "MOV-AVG"}  # fmt: skip
MODEL_DESCRIPTIONS = {
    "fsrs-preset": "FSRS with each card's preset parameters (probably optimized on these same reviews: flatters).",
    "fsrs-default": "FSRS with its default parameters (FSRS-6), the same for everybody.",
    "fsrs-out-of-sample": "FSRS trained by Anki's optimizer only on the reviews before each predicted part "
    "(comparable with the FSRS benchmark).",
    "sm2": "SM-2's intervals turned into a recall forecast: 90% at the scheduled interval.",
    "anki-interval": "The interval Anki actually scheduled, as a forecast: 90% at that interval.",
    "avg": "Your average recall on the earlier reviews, the same for every card.",
    "moving-avg": "Your recent recall (an exponential moving average), the same for every card.",
}
BASELINES = ("avg", "moving-avg", "sm2", "anki-interval")  # models with no memory model of the card


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
            raise EvaluationError(f"Unknown weighting {self.weighting!r}; use one of {', '.join(WEIGHTINGS)}.")
        if self.binning not in BINNINGS:
            raise EvaluationError(f"Unknown binning {self.binning!r}; use one of {', '.join(BINNINGS)}.")
        if self.same_day not in SAME_DAY:
            raise EvaluationError(f"Unknown same-day mode {self.same_day!r}; use one of {', '.join(SAME_DAY)}.")
        if isinstance(self.params, str) and self.params not in ("preset", "default"):
            raise EvaluationError(f"Unknown parameter choice {self.params!r}; use preset, default or a list.")


DEFAULT_OPTIONS = Options()


# fsrs-rs clip_parameters (one relearning step, short-term off): the range Anki keeps each FSRS-6 parameter in.
PARAM_RANGES: tuple[tuple[float, float], ...] = (
    (0.001, 100.0), (0.001, 100.0), (0.001, 100.0), (0.001, 100.0),
    (1.0, 10.0), (0.001, 4.0), (0.001, 4.0), (0.001, 0.75), (0.0, 4.5), (0.0, 0.8),
    (0.001, 3.5), (0.001, 5.0), (0.001, 0.25), (0.001, 0.9), (0.0, 4.0), (0.0, 1.0),
    (1.0, 6.0), (0.0, 2.0), (0.0, 2.0), (0.0, 0.8), (0.1, 0.8),
)  # fmt: skip
PARAM_COUNTS = (17, 19, 21)
_HUGE = 1e30  # clamping first brings any finite number this close to the ranges (float32 holds it)


def parse_params_text(text: str, clamp: bool = False) -> list[float]:
    """Return the 17, 19 or 21 numbers of a comma/space separated parameter list, as typed by a user.

    Each must be finite and inside the range Anki allows for it, unless `clamp` (then the replay
    clips it into that range, as Anki does); errors name the parameter (w0 is the first).
    """
    parts = [p for p in text.replace(",", " ").split() if p]
    if not parts:
        raise EvaluationError("--params: no numbers given; use preset, default, or 17, 19 or 21 numbers.")
    try:
        values = [float(p) for p in parts]
    except ValueError:
        raise EvaluationError(f"--params: {text!r} is not a list of numbers.") from None
    if len(values) not in PARAM_COUNTS:
        raise EvaluationError(
            f"--params: {len(values)} parameters given; FSRS takes 17 (FSRS-4.5), 19 (FSRS-5) or 21 (FSRS-6)."
        )
    for i, v in enumerate(values):
        if not math.isfinite(v):
            raise EvaluationError(f"--params: w{i} is {parts[i]}, not a finite number.")
    if clamp:
        return [min(max(v, -_HUGE), _HUGE) for v in values]
    for i, v, (low, high), what in _checked_values(values):
        if not low <= v <= high:
            raise EvaluationError(
                f"--params: {what or f'w{i} = {v:g}'} is outside the range Anki allows ({low:g} to {high:g}); "
                "correct it, or add --clamp-params to clip every parameter into its range as Anki does."
            )
    return values


def _checked_values(values: list[float]) -> list[tuple[int, float, tuple[float, float], str]]:
    """Return (position, value, allowed range, description) of each value to check.

    FSRS-4.5's w4, w5 and w6 are converted to FSRS-6's before Anki clips them; their ranges apply
    to the converted values.
    """
    if len(values) != 17:
        return [(i, v, PARAM_RANGES[i], "") for i, v in enumerate(values)]
    out = [(i, v, PARAM_RANGES[i], "") for i, v in enumerate(values) if i not in (4, 5, 6)]
    w4, w5, w6 = values[4], values[5], values[6]
    w5_new = math.log(3.0 * w5 + 1.0) / 3.0 if 3.0 * w5 + 1.0 > 0 else -math.inf
    out += [
        (4, w4 + 2.0 * w5, PARAM_RANGES[4], f"w4 + 2·w5 = {w4 + 2.0 * w5:g} (FSRS-4.5's w4 in FSRS-6 terms)"),
        (5, w5_new, PARAM_RANGES[5], f"ln(3·w5 + 1)/3 = {w5_new:g} (FSRS-4.5's w5 = {w5:g} in FSRS-6 terms)"),
        (6, w6 + 0.5, PARAM_RANGES[6], f"w6 + 0.5 = {w6 + 0.5:g} (FSRS-4.5's w6 in FSRS-6 terms)"),
    ]
    return sorted(out)


def parse_anki_version(text: str | None) -> str | None:
    """Return the Anki version as given (e.g. "25.07", "26.09.3", "26.05b2"), or raise EvaluationError."""
    if text is None:
        return None
    if not re.fullmatch(r"\s*\d{1,4}\.\d{1,3}(\.\d{1,3})?([a-z]{1,5}\d{0,3})?\s*", text):
        raise EvaluationError(f"--anki-version: {text!r} is not an Anki version (e.g. 25.07, 26.09.3 or 2.1.66).")
    return text.strip()


def parse_models(text: str | None) -> list[str]:
    """Return the models named in a comma-separated list (all of them for None); raise for unknown or repeated ones."""
    if text is None:
        return list(MODELS)
    names = [m.strip() for m in text.split(",")]
    if not any(names):
        raise EvaluationError(f"--models: name at least one of {', '.join(MODELS)}.")
    seen: list[str] = []
    for name in names:
        if not name:
            raise EvaluationError(f"--models: {text!r} has an empty name; separate the models with single commas.")
        if name not in MODELS:
            raise EvaluationError(f"--models: unknown model {name!r}; choose from {', '.join(MODELS)}.")
        if name in seen:
            raise EvaluationError(f"--models: {name} is named twice.")
        seen.append(name)
    return seen


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
