"""What the button checks share (hard_misuse.py, again_misuse.py): a verdict that needs the power to see,
how large a misuse the data could have shown, and whether FSRS could reach the desired retention at all.

The checks compare measured minus predicted recall after one answer with the same after Good. When the
preset's parameters were optimized on these very reviews (the usual case), the optimizer has absorbed part of
a misuse, so a gap within chance does not mean the answers are honest: "ok" needs an interval that excludes
a gap of MIN_EFFECT in the misuse's direction; otherwise the check says it cannot tell, and how large a
misuse it would have found. That size comes from FSRS itself: a replay in which each such answer is read the
other way (Hard as Again, Again as Good) says how much one misused answer changes the next review's
prediction; a share of misused answers changes recall after them by about that share times it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from ...reviews.subset import restrict
from ..evaluate import predict
from .context import Context, PresetPart

POWER_Z = 1.43  # a gap of 1.43 half-widths of the 95% interval is found about 80% of the time (1.96 + 0.84)
REVIEW = 1  # revlog kind of a review (the misuses are of reviews, not of learning steps)
SHORT_DAYS = 1.0  # Anki's shortest interval between reviews
FLOOR_SHARE = 0.5  # FSRS's stability under a day before most of a preset's reviews: it cannot reach the target
OTHER_WAY_CARDS = 2000  # cards replayed the other way at most (every k-th): the mean's precision is ample


@dataclass(frozen=True)
class Contrast:
    """Measured minus predicted recall after an answer, minus the same after Good, with its 95% interval."""

    diff: float
    low: float
    high: float

    @property
    def half(self) -> float:
        return (self.high - self.low) / 2

    def detectable(self, effect: float) -> float:
        """Return the smallest gap the check finds about 80% of the time (at least `effect`)."""
        return max(effect, POWER_Z * self.half) if math.isfinite(self.half) else math.inf


def read_other_way(ctx: Context, part: PresetPart, answer: int, instead: int) -> float:
    """Return how much FSRS's prediction of the review after an `answer` changes when that answer is read as
    `instead` (mean over the preset's reviews after `answer`; positive: the prediction rises): a replay of
    the preset's cards that pressed `answer` in a review, with every such press read the other way."""
    s, data = ctx.scored, ctx.data
    rl = data.revlog
    pressed = (rl.ease == answer) & (rl.type == REVIEW)
    cards = np.zeros(data.card_ids.size, dtype=bool)
    cards[rl.card[pressed]] = True
    cards &= ctx.card_preset == part.id
    chosen = np.flatnonzero(cards)
    if chosen.size > OTHER_WAY_CARDS:  # a large preset: every k-th of its cards (deterministic)
        cards[:] = False
        cards[chosen[:: -(-chosen.size // OTHER_WAY_CARDS)]] = True
    after = part.mask & (s.prev == answer) & cards[s.card]
    if not cards.any() or not after.any():
        return math.nan
    sub = restrict(data, cards)
    ease = sub.revlog.ease.copy()
    ease[(ease == answer) & (sub.revlog.type == REVIEW)] = instead
    other = predict(replace(sub, revlog=replace(sub.revlog, ease=ease)), ctx.options, ctx.job.should_stop)
    order = np.argsort(other.revlog_id)
    at = np.searchsorted(other.revlog_id, s.revlog_id[after], sorter=order)
    at = order[np.minimum(at, order.size - 1)]
    found = other.revlog_id[at] == s.revlog_id[after]
    if not found.any():
        return math.nan
    return float(np.mean(other.p[at[found]] - s.p[after][found]))


def stability_under_a_day(ctx: Context, part: PresetPart) -> float:
    """Return the share of the preset's scored reviews before which FSRS's stability was under a day: reviews
    that FSRS would have scheduled sooner than Anki can for the desired retention (from each prediction and
    its elapsed days, with the preset's forgetting curve)."""
    s = ctx.scored
    t = s.delta_t[part.mask].astype(np.float64)
    p = np.clip(s.p[part.mask], 1e-9, 1 - 1e-9)
    decay = _decay(ctx, part)
    factor = 0.9 ** (-1 / decay) - 1
    stability = factor * t / (p ** (-1 / decay) - 1)
    return float(np.mean(stability < SHORT_DAYS)) if stability.size else math.nan


def _decay(ctx: Context, part: PresetPart) -> float:
    """Return the preset's forgetting-curve decay (FSRS-6's w20; FSRS-4.5 and 5: 0.5)."""
    from ...models.params import to_fsrs6

    params = part.info.params if part.info is not None else []
    try:
        return float(to_fsrs6(params)[20])
    except Exception:  # a preset whose parameters the evaluation already reported
        return 0.5
