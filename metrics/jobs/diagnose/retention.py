"""Finding "retention": measured retention against the preset's desired retention, with its interval — and,
when it is below target, why: FSRS overrating the memory (Optimize helps), reviews done late (it does not),
FSRS unable to schedule soon enough (the Again check), or intervals set for another target."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

import numpy as np

from ...explain import findings as words
from ...explain import formatting as fmt
from ...explain.lang import text
from ...kinds import FindingId
from ...score.intervals import wilson
from .context import Context, PresetPart
from .evidence import ABSENT, Absent, Evidence
from .finding import MIN_EFFECT, MIN_GROUP, MIN_REVIEWS, Finding, Verdict, too_few
from .misuse import FLOOR_SHARE, stability_under_a_day
from .out_of_sample import GainEvidence
from .scored import Gap, gap

DEFAULT_RETENTION = 0.9  # Anki's default desired retention
LATE = 1.5  # a review at 1.5× its scheduled interval or later is late (the "overdue" bins of Where the error is)
LATE_SHARE = 0.2  # reviews late before recall below target is put down to lateness


class Cause(StrEnum):
    """Why retention is where it is (--json's evidence "cause")."""

    ON_TARGET = "on-target"
    ABOVE = "above"
    FSRS_OVERRATES = "fsrs-overrates"  # FSRS predicted more than was recalled (optimize, unless it would not help)
    LATE = "late"  # the reviews came late: new parameters would not change it
    FLOOR = "floor"  # FSRS cannot schedule sooner (the Again check)
    SCHEDULED = "scheduled"  # the intervals were set for another target


@dataclass(frozen=True)
class RetentionEvidence(Evidence):
    """Measured retention with its Wilson interval against the desired one, FSRS's prediction and the gap, the
    share of reviews done late; below target, FSRS's stability under a day before how many; and the cause."""

    reviews: int
    measured: float
    measured_ci: tuple[float, float]
    desired: float
    predicted: float
    gap: float
    gap_ci: tuple[float, float]
    late_share: float | None
    stability_under_a_day: float | Absent = ABSENT
    cause: Cause | Absent = ABSENT


def desired_retention(part: PresetPart) -> float:
    """Return the preset's desired retention (Anki's default when it has none)."""
    info = part.info
    return float(info.desired_retention) if info is not None and info.desired_retention else DEFAULT_RETENTION


def check(ctx: Context, part: PresetPart) -> list[Finding]:
    """Return the retention finding of one preset."""
    n, y = part.reviews, ctx.scored.y[part.mask]
    if not ctx.enough or n < MIN_GROUP:
        return [too_few(FindingId.RETENTION, part.scope, n, MIN_GROUP if ctx.enough else MIN_REVIEWS)]
    measured = float(y.mean())
    low, high = wilson(float(y.sum()), n)
    desired = desired_retention(part)
    g = gap(ctx.scored.p[part.mask], y.astype(np.float64))
    late = _late_share(ctx, part)
    evidence = RetentionEvidence(n, measured, (low, high), desired, g.predicted, g.gap, (g.low, g.high), late)
    numbers = text(
        words.RETENTION_NUMBERS,
        measured=fmt.percent(measured),
        reviews=fmt.count(n),
        interval=fmt.interval(low, high, "percent"),
        desired=fmt.percent(desired, 0),
    )
    values = {"numbers": numbers, "predicted": fmt.percent(g.predicted), **_gap_words(g)}
    if low <= desired <= high or abs(measured - desired) < MIN_EFFECT / 1.5:
        evidence = replace(evidence, cause=Cause.ON_TARGET)
        return [Finding.of(FindingId.RETENTION, Verdict.OK, part.scope, words.RETENTION_OK.fill(**values), evidence)]
    if measured > desired:  # nothing to fix: fewer reviews are possible, at the learner's choice
        evidence = replace(evidence, cause=Cause.ABOVE)
        return [Finding.of(FindingId.RETENTION, Verdict.OK, part.scope, words.RETENTION_ABOVE.fill(**values), evidence)]
    return [_below(ctx, part, g, late, values, evidence)]


def _below(
    ctx: Context, part: PresetPart, g: Gap, late: float | None, values: dict[str, str], evidence: RetentionEvidence
) -> Finding:
    """Return the finding of a retention below target, by its cause (evidence "cause": fsrs-overrates, late,
    floor or scheduled)."""
    n = part.reviews
    if g.high < 0 and -g.gap >= MIN_EFFECT:  # FSRS predicted more than was recalled
        evidence = replace(evidence, cause=Cause.FSRS_OVERRATES)
        if _optimizing_would_not_help(ctx, part):  # said as a fact: no setting closes the gap (the plan's note)
            said = words.RETENTION_BELOW_FSRS_OFF_KEPT.fill(**values)
            return Finding.of(FindingId.RETENTION, Verdict.OK, part.scope, said, evidence)
        said = words.RETENTION_BELOW_FSRS_OFF.fill(**values)
        return Finding.of(FindingId.RETENTION, Verdict.SUGGESTION, part.scope, said, evidence, affected=n)
    if late is not None and late >= LATE_SHARE:
        evidence = replace(evidence, cause=Cause.LATE)
        said = words.RETENTION_BELOW_LATE.fill(late=fmt.percent(late, 0), **values)
        return Finding.of(FindingId.RETENTION, Verdict.SUGGESTION, part.scope, said, evidence, affected=n)
    short = stability_under_a_day(ctx, part)
    evidence = replace(evidence, stability_under_a_day=short)
    if short >= FLOOR_SHARE:
        evidence = replace(evidence, cause=Cause.FLOOR)
        said = words.RETENTION_BELOW_FLOOR.fill(**values)
        return Finding.of(FindingId.RETENTION, Verdict.SUGGESTION, part.scope, said, evidence, affected=n)
    evidence = replace(evidence, cause=Cause.SCHEDULED)
    said = words.RETENTION_BELOW_AS_PREDICTED.fill(**values)
    return Finding.of(FindingId.RETENTION, Verdict.OK, part.scope, said, evidence)


def _optimizing_would_not_help(ctx: Context, part: PresetPart) -> bool:
    """Return whether the preset's out-of-sample parameters check (found before) says re-optimizing would not help:
    parameters trained on its earlier reviews did not predict its later ones better."""
    return any(
        f.id is FindingId.PARAMETERS
        and f.scope == part.scope
        and f.verdict is Verdict.OK
        and isinstance(f.evidence, GainEvidence)
        for f in ctx.found
    )


def _late_share(ctx: Context, part: PresetPart) -> float | None:
    """Return the share of the preset's reviews done at LATE times their scheduled interval or later (None
    when the intervals were not read)."""
    scheduled = ctx.scored.scheduled
    if scheduled is None:
        return None
    t = ctx.scored.delta_t[part.mask]
    return float(np.mean(t >= LATE * np.maximum(scheduled[part.mask], 1)))


def _gap_words(g: Gap) -> dict[str, str]:
    return {"gap": fmt.points(g.gap, True), "low": fmt.points(g.low, True), "high": fmt.points(g.high, True)}
