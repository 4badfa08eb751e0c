"""Finding "again-misuse": is Again pressed on remembered cards? Recall after Again, against FSRS's prediction
and against recall after Good."""

from __future__ import annotations

from ...explain import findings as words
from ...explain import formatting as fmt
from .context import Context, PresetPart
from .finding import MIN_EFFECT, MIN_GROUP, Finding, Verdict, too_few_after
from .scored import difference

AGAIN, GOOD = 1, 3


def check(ctx: Context, part: PresetPart) -> list[Finding]:
    """Return the Again finding of one preset (after its Hard finding: a Hard problem explains a gap here)."""
    after_again, after_good = ctx.scored.after(part.mask, AGAIN), ctx.scored.after(part.mask, GOOD)
    diff, low, high = difference(after_again, after_good)
    evidence = {
        "after_again": after_again.to_dict(),
        "after_good": after_good.to_dict(),
        "again_minus_good": diff,
        "again_minus_good_ci": [low, high],
    }
    if not ctx.enough or after_again.reviews < MIN_GROUP or after_good.reviews < MIN_GROUP:
        return [too_few_after("again-misuse", part.scope, after_again.reviews, part.reviews, ctx.enough)]
    numbers = words.AGAIN_NUMBERS.format(
        measured=fmt.percent(after_again.measured),
        predicted=fmt.percent(after_again.predicted),
        reviews=fmt.count(after_again.reviews),
    )
    hard_problem = any(
        f.id == "hard-misuse" and f.scope == part.scope and f.verdict is Verdict.PROBLEM for f in ctx.found
    )
    if low > 0 and diff >= MIN_EFFECT and not hard_problem:
        said = words.AGAIN_SUGGESTION.fill(
            more=fmt.points(diff), low=fmt.points(low), high=fmt.points(high), numbers=numbers
        )
        return [
            Finding.of("again-misuse", Verdict.SUGGESTION, part.scope, said, evidence, affected=after_again.reviews)
        ]
    ok = words.AGAIN_OK_HARD_EXPLAINS if hard_problem and low > 0 else words.AGAIN_OK
    said = ok.fill(numbers=numbers, low=fmt.points(low, True), high=fmt.points(high, True))
    return [Finding.of("again-misuse", Verdict.OK, part.scope, said, evidence)]
