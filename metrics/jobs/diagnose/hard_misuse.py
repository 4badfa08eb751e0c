"""Finding "hard-misuse": is Hard pressed on forgotten cards? Recall after Hard, against FSRS's prediction
and against recall after Good; "ok" only with the power to see a misuse (misuse.py)."""

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
from .misuse import Contrast, read_other_way
from .scored import Gap, difference

AGAIN, HARD, GOOD = 1, 2, 3


@dataclass(frozen=True)
class HardEvidence(Evidence):
    """Recall after Hard and after Good against FSRS's predictions, their difference, the share of Hard among
    successful answers; when judged, the smallest gap the check would find and how much one misused answer moves
    the next prediction."""

    after_hard: Gap
    after_good: Gap
    hard_minus_good: float
    hard_minus_good_ci: tuple[float, float]
    hard_share: float
    hard_share_ci: tuple[float, float]
    successful_reviews: int
    detectable_gap: float | Absent = ABSENT
    per_misused_answer: float | Absent = ABSENT


def check(ctx: Context, part: PresetPart) -> list[Finding]:
    """Return the Hard finding of one preset."""
    s, mask = ctx.scored, part.mask
    after_hard, after_good = s.after(mask, HARD), s.after(mask, GOOD)
    recalled = mask & (s.rating >= HARD)
    hard_presses = int((recalled & (s.rating == HARD)).sum())
    share_low, share_high = wilson(hard_presses, int(recalled.sum()))
    c = Contrast(*difference(after_hard, after_good))
    evidence = HardEvidence(
        after_hard,
        after_good,
        c.diff,
        (c.low, c.high),
        hard_presses / max(1, int(recalled.sum())),
        (share_low, share_high),
        int(recalled.sum()),
    )
    if not ctx.enough or after_hard.reviews < MIN_GROUP or after_good.reviews < MIN_GROUP:
        return [too_few_after(FindingId.HARD_MISUSE, part.scope, after_hard.reviews, part.reviews, ctx.enough)]
    numbers = _numbers(after_hard, after_good)
    low, high = fmt.points(c.low, True), fmt.points(c.high, True)
    if c.high < 0 and c.diff <= -MIN_EFFECT:
        said = words.HARD_PROBLEM.fill(
            lower=fmt.points(-c.diff), low=fmt.points(-c.high), high=fmt.points(-c.low), numbers=numbers
        )
        return [
            Finding.of(FindingId.HARD_MISUSE, Verdict.PROBLEM, part.scope, said, evidence, affected=after_hard.reviews)
        ]
    effect = c.detectable(MIN_EFFECT)
    per_answer = -read_other_way(ctx, part, HARD, AGAIN)  # how much lower the next prediction after a lapse
    evidence = replace(evidence, detectable_gap=effect, per_misused_answer=per_answer)
    if c.low > -MIN_EFFECT and part.trained:  # ruled out, but trained parameters absorb a misuse: no proof
        said = words.HARD_ABSORBED.fill(numbers=numbers, diff=fmt.points(c.diff, True), low=low, high=high)
        return [Finding.of(FindingId.HARD_MISUSE, Verdict.NOT_ENOUGH_DATA, part.scope, said, evidence)]
    if c.low > -MIN_EFFECT:  # a drop of MIN_EFFECT after Hard is ruled out: the check had the power to see it
        kind, share = words.share(MIN_EFFECT, per_answer)
        ok = words.by_share(kind, words.HARD_OK, words.HARD_OK_UNKNOWN, words.HARD_OK_ALL)
        said = ok.fill(numbers=numbers, effect=fmt.points(MIN_EFFECT), share=share, low=low, high=high)
        return [Finding.of(FindingId.HARD_MISUSE, Verdict.OK, part.scope, said, evidence)]
    kind, share = words.share(effect, per_answer)
    unsure = words.by_share(kind, words.HARD_CANNOT_TELL, words.HARD_CANNOT_TELL_UNKNOWN, words.HARD_CANNOT_TELL_ALL)
    said = unsure.fill(
        numbers=numbers,
        reviews=fmt.count(after_hard.reviews),
        diff=fmt.points(c.diff, True),
        effect=fmt.points(effect),
        share=share,
        low=low,
        high=high,
    )
    return [Finding.of(FindingId.HARD_MISUSE, Verdict.NOT_ENOUGH_DATA, part.scope, said, evidence)]


def _numbers(after_hard: Gap, after_good: Gap) -> str:
    return text(
        words.HARD_NUMBERS,
        hard_measured=fmt.percent(after_hard.measured),
        hard_predicted=fmt.percent(after_hard.predicted),
        hard_reviews=fmt.count(after_hard.reviews),
        good_measured=fmt.percent(after_good.measured),
        good_predicted=fmt.percent(after_good.predicted),
        good_reviews=fmt.count(after_good.reviews),
    )
