"""Finding "retention": measured retention against the preset's desired retention, with its interval."""

from __future__ import annotations

from ...explain import findings as words
from ...explain import formatting as fmt
from ...score.intervals import wilson
from .context import Context, PresetPart
from .finding import MIN_EFFECT, MIN_GROUP, MIN_REVIEWS, Finding, Verdict, too_few

DEFAULT_RETENTION = 0.9  # Anki's default desired retention


def check(ctx: Context, part: PresetPart) -> list[Finding]:
    """Return the retention finding of one preset."""
    n, y = part.reviews, ctx.scored.y[part.mask]
    if not ctx.enough or n < MIN_GROUP:
        return [too_few("retention", part.scope, n, MIN_GROUP if ctx.enough else MIN_REVIEWS)]
    measured = float(y.mean())
    low, high = wilson(float(y.sum()), n)
    info = part.info
    desired = float(info.desired_retention) if info is not None and info.desired_retention else DEFAULT_RETENTION
    predicted = float(ctx.scored.p[part.mask].mean())
    evidence = {
        "reviews": n,
        "measured": measured,
        "measured_ci": [low, high],
        "desired": desired,
        "predicted": predicted,
    }
    numbers = words.RETENTION_NUMBERS.format(
        measured=fmt.percent(measured),
        reviews=fmt.count(n),
        interval=fmt.interval(low, high, "percent"),
        desired=fmt.percent(desired, 0),
    )
    if low <= desired <= high or abs(measured - desired) < MIN_EFFECT / 1.5:
        said = words.RETENTION_OK.fill(numbers=numbers)
        return [Finding.of("retention", Verdict.OK, part.scope, said, evidence)]
    off = words.RETENTION_BELOW if measured < desired else words.RETENTION_ABOVE
    said = off.fill(numbers=numbers, predicted=fmt.percent(predicted))
    return [Finding.of("retention", Verdict.SUGGESTION, part.scope, said, evidence, affected=n)]
