"""Finding "parameters", out of sample: would re-optimizing this preset help? Its current parameters against
FSRS trained on its earlier reviews, on its later ones. Its comparison is kept for the benchmark standing."""

from __future__ import annotations

from ...explain import findings as words
from ...explain import formatting as fmt
from ...explain.lang import text
from ...kinds import FindingId
from .context import Context, PresetPart
from .finding import MIN_REVIEWS, Finding, Verdict, too_few
from .out_of_sample import gain_numbers, out_of_sample, paired_gain


def trains(ctx: Context, part: PresetPart) -> bool:
    """Return whether this preset is trained out of sample (Anki's optimizer given, enough reviews)."""
    return ctx.trains and part.reviews >= MIN_REVIEWS


def check(ctx: Context, part: PresetPart) -> list[Finding]:
    """Return the out-of-sample parameters finding of one preset with parameters of its own (none without)."""
    if not trains(ctx, part):
        return []
    ctx.job.note(text(words.TRAINING_PRESET, name=fmt.name(part.name)))
    cmp = out_of_sample(ctx, ctx.card_preset == part.id, ctx.scored if part.has_params else None)
    ctx.pooled.append(cmp)
    ctx.by_preset[part.id] = cmp  # its decks are tested against these trained parameters (own_presets.py)
    if not part.has_params:
        return []
    if cmp.reviews_compared < MIN_REVIEWS:
        return [too_few(FindingId.PARAMETERS, part.scope, cmp.reviews_compared, MIN_REVIEWS)]
    g = paired_gain(cmp)
    numbers = gain_numbers(words.PARAMETERS_OOS_NUMBERS, g)
    if g.helps:
        said = words.PARAMETERS_OOS_HELPS.fill(numbers=numbers)
        return [Finding.of(FindingId.PARAMETERS, Verdict.SUGGESTION, part.scope, said, g, affected=part.reviews)]
    return [Finding.of(FindingId.PARAMETERS, Verdict.OK, part.scope, words.PARAMETERS_OOS_OK.fill(numbers=numbers), g)]
