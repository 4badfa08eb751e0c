"""The range Anki keeps each FSRS parameter in, and parameters typed by a user checked against it (no numpy)."""

from __future__ import annotations

import math

from ..errors import N_, EvaluationError

# fsrs-rs clip_parameters (one relearning step, short-term off): the range Anki keeps each FSRS-6 parameter in.
PARAM_RANGES: tuple[tuple[float, float], ...] = (
    (0.001, 100.0),
    (0.001, 100.0),
    (0.001, 100.0),
    (0.001, 100.0),
    (1.0, 10.0),
    (0.001, 4.0),
    (0.001, 4.0),
    (0.001, 0.75),
    (0.0, 4.5),
    (0.0, 0.8),
    (0.001, 3.5),
    (0.001, 5.0),
    (0.001, 0.25),
    (0.001, 0.9),
    (0.0, 4.0),
    (0.0, 1.0),
    (1.0, 6.0),
    (0.0, 2.0),
    (0.0, 2.0),
    (0.0, 0.8),
    (0.1, 0.8),
)
PARAM_COUNTS = (17, 19, 21)
_HUGE = 1e30  # clamping first brings any finite number this close to the ranges (float32 holds it)


def parse_params_text(text: str, clamp: bool = False) -> list[float]:
    """Return the 17, 19 or 21 numbers of a comma/space separated parameter list, as typed by a user.

    Each must be finite and inside the range Anki allows for it, unless `clamp` (then the replay
    clips it into that range, as Anki does); errors name the parameter (w0 is the first).
    """
    parts = [p for p in text.replace(",", " ").split() if p]
    if not parts:
        raise EvaluationError(template=N_("--params: no numbers given; use preset, default, or 17, 19 or 21 numbers."))
    try:
        values = [float(p) for p in parts]
    except ValueError:
        raise EvaluationError(template=N_("--params: {given} is not a list of numbers."), given=repr(text)) from None
    if len(values) not in PARAM_COUNTS:
        said = N_("--params: {count} parameters given; FSRS takes 17 (FSRS-4.5), 19 (FSRS-5) or 21 (FSRS-6).")
        raise EvaluationError(template=said, count=len(values))
    for i, v in enumerate(values):
        if not math.isfinite(v):
            said = N_("--params: {parameter} is {value}, not a finite number.")
            raise EvaluationError(template=said, parameter=f"w{i}", value=parts[i])
    if clamp:
        return [min(max(v, -_HUGE), _HUGE) for v in values]
    for i, v, (low, high), what in _checked_values(values):
        if not low <= v <= high:
            said = N_(
                "--params: {parameter} is outside the range Anki allows ({low} to {high}); "
                "correct it, or add --clamp-params to clip every parameter into its range as Anki does."
            )
            raise EvaluationError(template=said, parameter=what or f"w{i} = {v:g}", low=f"{low:g}", high=f"{high:g}")
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
