"""Finding "again-misuse": is Again pressed on remembered cards? Two signs: recall after Again against FSRS's
prediction and against recall after Good; and, when the preset's parameters have absorbed the habit, a
retention FSRS itself predicts below target with intervals it would need under a day (misuse.py)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from ...explain import formatting as fmt
from ...explain import misuse as words
from ...explain.lang import text
from ...kinds import FindingId
from ...score.intervals import wilson
from .context import Context, PresetPart
from .evidence import ABSENT, Absent, Evidence
from .finding import MIN_EFFECT, MIN_GROUP, Finding, Verdict, too_few_after
from .misuse import FLOOR_SHARE, Contrast, read_other_way, stability_under_a_day
from .retention import desired_retention
from .scored import Gap, difference

AGAIN, GOOD = 1, 3


@dataclass(frozen=True)
class AgainEvidence(Evidence):
    """Recall after Again and after Good against FSRS's predictions and their difference; the retention FSRS could
    reach (its stability under a day before how many reviews, the target, measured and predicted recall); when
    judged, the smallest gap the check would find and how much one misused answer moves the next prediction."""

    after_again: Gap
    after_good: Gap
    again_minus_good: float
    again_minus_good_ci: tuple[float, float]
    stability_under_a_day: float | Absent = ABSENT
    desired: float | Absent = ABSENT
    measured: float | Absent = ABSENT
    predicted: float | Absent = ABSENT
    detectable_gap: float | Absent = ABSENT
    per_misused_answer: float | Absent = ABSENT


def check(ctx: Context, part: PresetPart) -> list[Finding]:
    """Return the Again finding of one preset (after its Hard finding: a Hard problem explains a gap here)."""
    after_again, after_good = ctx.scored.after(part.mask, AGAIN), ctx.scored.after(part.mask, GOOD)
    c = Contrast(*difference(after_again, after_good))
    evidence = AgainEvidence(after_again, after_good, c.diff, (c.low, c.high))
    if not ctx.enough or after_again.reviews < MIN_GROUP or after_good.reviews < MIN_GROUP:
        return [too_few_after(FindingId.AGAIN_MISUSE, part.scope, after_again.reviews, part.reviews, ctx.enough)]
    evidence, floor = _floor(ctx, part, evidence)
    if floor is not None:
        return [floor]
    numbers = text(
        words.AGAIN_NUMBERS,
        measured=fmt.percent(after_again.measured),
        predicted=fmt.percent(after_again.predicted),
        reviews=fmt.count(after_again.reviews),
    )
    hard_problem = any(
        f.id is FindingId.HARD_MISUSE and f.scope == part.scope and f.verdict is Verdict.PROBLEM for f in ctx.found
    )
    if c.low > 0 and c.diff >= MIN_EFFECT and not hard_problem:
        said = words.AGAIN_SUGGESTION.fill(
            more=fmt.points(c.diff), low=fmt.points(c.low), high=fmt.points(c.high), numbers=numbers
        )
        return [
            Finding.of(
                FindingId.AGAIN_MISUSE, Verdict.SUGGESTION, part.scope, said, evidence, affected=after_again.reviews
            )
        ]
    if hard_problem and c.low > 0:
        said = words.AGAIN_OK_HARD_EXPLAINS.fill(numbers=numbers)
        return [Finding.of(FindingId.AGAIN_MISUSE, Verdict.OK, part.scope, said, evidence)]
    return [_ok_or_cannot_tell(ctx, part, c, numbers, after_again.reviews, evidence)]


def _ok_or_cannot_tell(
    ctx: Context, part: PresetPart, c: Contrast, numbers: str, reviews: int, evidence: AgainEvidence
) -> Finding:
    """Return "ok" when a rise of MIN_EFFECT after Again is ruled out, else that the data cannot tell."""
    effect = c.detectable(MIN_EFFECT)
    per_answer = read_other_way(ctx, part, AGAIN, GOOD)  # how much higher the next prediction after a recall
    evidence = replace(evidence, detectable_gap=effect, per_misused_answer=per_answer)
    low, high = fmt.points(c.low, True), fmt.points(c.high, True)
    if c.high < MIN_EFFECT and part.trained:  # ruled out, but trained parameters absorb a misuse: no proof
        said = words.AGAIN_ABSORBED.fill(numbers=numbers, diff=fmt.points(c.diff, True), low=low, high=high)
        return Finding.of(FindingId.AGAIN_MISUSE, Verdict.NOT_ENOUGH_DATA, part.scope, said, evidence)
    if c.high < MIN_EFFECT:
        kind, share = words.share(MIN_EFFECT, per_answer)
        ok = words.by_share(kind, words.AGAIN_OK, words.AGAIN_OK_UNKNOWN, words.AGAIN_OK_ALL)
        said = ok.fill(numbers=numbers, share=share, effect=fmt.points(MIN_EFFECT), low=low, high=high)
        return Finding.of(FindingId.AGAIN_MISUSE, Verdict.OK, part.scope, said, evidence)
    kind, share = words.share(effect, per_answer)
    unsure = words.by_share(kind, words.AGAIN_CANNOT_TELL, words.AGAIN_CANNOT_TELL_UNKNOWN, words.AGAIN_CANNOT_TELL_ALL)
    said = unsure.fill(
        numbers=numbers,
        reviews=fmt.count(reviews),
        share=share,
        effect=fmt.points(effect),
        diff=fmt.points(c.diff, True),
        low=low,
        high=high,
    )
    return Finding.of(FindingId.AGAIN_MISUSE, Verdict.NOT_ENOUGH_DATA, part.scope, said, evidence)


def _floor(ctx: Context, part: PresetPart, evidence: AgainEvidence) -> tuple[AgainEvidence, Finding | None]:
    """Return the evidence with the retention FSRS could reach, and the finding when it cannot reach the desired
    retention (None when it can): retention below target beyond chance, FSRS predicting it (within MIN_EFFECT),
    and its stability under a day before most reviews — the sign of Again on remembered cards that the optimizer
    has absorbed."""
    y, p = ctx.scored.y[part.mask], ctx.scored.p[part.mask]
    measured, predicted = float(y.mean()), float(p.mean())
    low, high = wilson(float(y.sum()), int(y.size))
    desired = desired_retention(part)
    short = stability_under_a_day(ctx, part)
    evidence = replace(evidence, stability_under_a_day=short, desired=desired, measured=measured, predicted=predicted)
    below = high < desired and desired - measured >= MIN_EFFECT
    if not (below and abs(measured - predicted) < MIN_EFFECT and short >= FLOOR_SHARE):
        return evidence, None
    said = words.AGAIN_FLOOR.fill(
        desired=fmt.percent(desired, 0),
        share=fmt.percent(short, 0),
        measured=fmt.percent(measured),
        reviews=fmt.count(int(y.size)),
        predicted=fmt.percent(predicted),
        low=fmt.percent(low),
        high=fmt.percent(high),
    )
    return evidence, Finding.of(
        FindingId.AGAIN_MISUSE, Verdict.SUGGESTION, part.scope, said, evidence, affected=part.reviews
    )
