"""Finding "hard-misuse": is Hard pressed on forgotten cards? Recall after Hard, against FSRS's prediction
and against recall after Good."""

from __future__ import annotations

from ...explain import findings as words
from ...explain import formatting as fmt
from ...score.intervals import wilson
from .context import Context, PresetPart
from .finding import MIN_EFFECT, MIN_GROUP, Finding, Verdict, too_few_after
from .scored import Gap, difference

HARD, GOOD = 2, 3


def check(ctx: Context, part: PresetPart) -> list[Finding]:
    """Return the Hard finding of one preset."""
    s, mask = ctx.scored, part.mask
    after_hard, after_good = s.after(mask, HARD), s.after(mask, GOOD)
    recalled = mask & (s.rating >= HARD)
    hard_presses = int((recalled & (s.rating == HARD)).sum())
    share_low, share_high = wilson(hard_presses, int(recalled.sum()))
    diff, low, high = difference(after_hard, after_good)
    evidence = {
        "after_hard": after_hard.to_dict(),
        "after_good": after_good.to_dict(),
        "hard_minus_good": diff,
        "hard_minus_good_ci": [low, high],
        "hard_share": hard_presses / max(1, int(recalled.sum())),
        "hard_share_ci": [share_low, share_high],
        "successful_reviews": int(recalled.sum()),
    }
    if not ctx.enough or after_hard.reviews < MIN_GROUP or after_good.reviews < MIN_GROUP:
        return [too_few_after("hard-misuse", part.scope, after_hard.reviews, part.reviews, ctx.enough)]
    numbers = _numbers(after_hard, after_good)
    if high < 0 and diff <= -MIN_EFFECT:
        said = words.HARD_PROBLEM.fill(
            lower=fmt.points(-diff), low=fmt.points(-high), high=fmt.points(-low), numbers=numbers
        )
        return [Finding.of("hard-misuse", Verdict.PROBLEM, part.scope, said, evidence, affected=after_hard.reviews)]
    said = words.HARD_OK.fill(
        numbers=numbers, effect=fmt.points(MIN_EFFECT), low=fmt.points(low, True), high=fmt.points(high, True)
    )
    return [Finding.of("hard-misuse", Verdict.OK, part.scope, said, evidence)]


def _numbers(after_hard: Gap, after_good: Gap) -> str:
    return words.HARD_NUMBERS.format(
        hard_measured=fmt.percent(after_hard.measured),
        hard_predicted=fmt.percent(after_hard.predicted),
        hard_reviews=fmt.count(after_hard.reviews),
        good_measured=fmt.percent(after_good.measured),
        good_predicted=fmt.percent(after_good.predicted),
        good_reviews=fmt.count(after_good.reviews),
    )
