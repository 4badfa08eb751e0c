"""Out of sample, shared by the findings that train: FSRS trained on the first half of a part's reviews (in
time order) predicting the second half, beside the presets' parameters' predictions of the same reviews, and
the paired log-loss gain of the trained parameters with its bootstrap interval."""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from ...explain import findings as words
from ...explain import formatting as fmt
from ...explain.lang import text
from ...read.collection import CollectionData
from ...reviews.subset import restrict
from ...score.paired import paired_log_loss_gain
from ..compare import CompareInput, Comparison, compare
from ..options import Options
from .context import Context
from .evidence import Evidence
from .scored import ScoredReviews

# Out of sample, each preset's (and deck's) FSRS is trained on the first half of its reviews in time order
# and scored on the second half: one training of half the reviews, where five time-series folds train five
# times (1/6 ... 5/6 of them: five times the work). Five folds train on half the reviews on average too.
SPLITS = 1


def out_of_sample(
    ctx: Context, cards: np.ndarray, current: ScoredReviews | None, cut_ms: int | None = None
) -> Comparison:
    """Return FSRS trained on the first half of the reviews of `cards` (a mask over the collection's cards)
    predicting the second half ("fsrs-out-of-sample"), beside the presets' parameters' predictions of the
    same reviews ("fsrs-preset", looked up in `current`, the diagnosis's own replay of every scored review,
    when given). With `cut_ms`, trained on the reviews before that time, predicting those from it on."""
    part: CollectionData = restrict(ctx.data, cards)
    preset_options = Options(**{**asdict(ctx.options), "params": "preset"})
    inp = CompareInput(
        preset_options,
        ctx.trainer,
        ("fsrs-out-of-sample",),
        SPLITS,
        keep_predictions=True,
        scores=False,
        cut_ms=cut_ms,
    )
    cmp = compare(part, inp, ctx.job.part())
    if current is not None and cmp.compared is not None:
        cmp.compared.predictions["fsrs-preset"] = current.predictions_of(cmp.compared.revlog_id)
    return cmp


@dataclass(frozen=True)
class GainEvidence(Evidence):
    """Trained parameters against current ones on the same later reviews: the paired log-loss gain with its 95%
    interval (bootstrap by card), the reviews and cards, and both log losses."""

    gain: float
    gain_ci: tuple[float, float]
    reviews: int
    cards: int
    current_log_loss: float
    trained_log_loss: float

    @property
    def helps(self) -> bool:
        """Return whether the trained parameters predict better beyond chance (the interval above zero)."""
        return self.gain_ci[0] > 0


def paired_gain(
    cmp: Comparison, current: str = "fsrs-preset", trained: str = "fsrs-out-of-sample", rounds: int = 200, seed: int = 0
) -> GainEvidence:
    """Return the mean log-loss gain of `trained` over `current` on the same reviews, with a 95% interval
    from a bootstrap by card (each card's reviews resampled together: Poisson weights per card)."""
    compared = cmp.compared
    assert compared is not None  # compared with keep_predictions
    p = compared.predictions
    g = paired_log_loss_gain(p[current], p[trained], compared.y, compared.card, rounds, seed)
    return GainEvidence(g.gain, (g.low, g.high), g.reviews, g.cards, g.before_log_loss, g.after_log_loss)


def gain_numbers(template: str, g: GainEvidence) -> str:
    """Return a paired gain's numbers in words, written with `template` (log losses, reviews, cards, gain)."""
    low, high = g.gain_ci
    return text(
        template,
        trained=fmt.log_loss(g.trained_log_loss),
        current=fmt.log_loss(g.current_log_loss),
        reviews=fmt.count(g.reviews),
        cards=fmt.count(g.cards),
        gain=text(words.GAIN, gain=signed(g.gain), low=signed(low), high=signed(high)),
    )


def signed(x: float) -> str:
    """Return a log-loss difference, signed, with 4 decimals ("+0.0031")."""
    return fmt.local(f"{x:+.4f}")
