"""Finding "decks", out of sample: for decks with enough scored reviews that share their preset with other
decks, would parameters trained on the deck alone beat the preset's? Like with like: both are trained the same
way (Anki's optimizer) on the reviews before the same moment — the preset's on all its decks' (its out-of-sample
training, parameters_oos.py), the deck's on its own — and both predict the deck's reviews from then on.
(The preset's current parameters would not do: optimized on these very reviews, they favour "keep".)"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ...errors import EvaluationError
from ...explain import findings as words
from ...explain import formatting as fmt
from ...explain.lang import text
from ...kinds import FindingId, Scope
from ..compare import Comparison
from .context import Context
from .finding import MIN_REVIEWS, Finding, Verdict, too_few
from .out_of_sample import gain_numbers, out_of_sample, paired_gain

SHARED = "fsrs-preset-trained"  # the preset's parameters trained before the same moment, on the deck's reviews


def check(ctx: Context) -> Iterator[Finding]:
    """Yield the own-preset finding of each deck that shares its preset (none without Anki's optimizer)."""
    if not ctx.trains:
        return
    s, data, card_preset = ctx.scored, ctx.data, ctx.card_preset
    decks, counts = np.unique(s.deck, return_counts=True)
    for did, count in zip(decks.tolist(), counts.tolist(), strict=True):
        cards = data.home_deck == did
        if count < MIN_REVIEWS or not cards.any():
            continue
        preset = int(card_preset[cards][0])
        if (card_preset == preset).sum() == cards.sum():
            continue  # the deck is its preset's only deck: it has a preset of its own already
        name = data.deck_names.get(int(did), str(did))
        shared = ctx.by_preset.get(preset)
        if shared is None or shared.compared is None or "fsrs-out-of-sample" not in shared.compared.predictions:
            continue  # its preset was not trained (too few reviews)
        ctx.job.note(text(words.TRAINING_DECK, name=fmt.name(name)))
        yield _own_preset(ctx, cards, Scope.deck(name, int(did)), shared)


def _own_preset(ctx: Context, cards: np.ndarray, scope: Scope, shared: Comparison) -> Finding:
    """Return whether the deck of `cards` would do better on parameters of its own than on its preset's, both
    trained before the preset's split and scored on the deck's reviews after it."""
    assert shared.compared is not None
    cut = int(shared.compared.revlog_id.min())
    try:
        cmp = out_of_sample(ctx, cards, None, cut_ms=cut)
    except EvaluationError:  # no reviews of this deck on one side of the split
        return too_few(FindingId.DECKS, scope, 0, MIN_REVIEWS)
    if cmp.compared is None or cmp.reviews_compared < MIN_REVIEWS:
        return too_few(FindingId.DECKS, scope, cmp.reviews_compared, MIN_REVIEWS)
    cmp.compared.predictions[SHARED] = _lookup(shared, cmp.compared.revlog_id)
    g = paired_gain(cmp, current=SHARED)
    numbers = gain_numbers(words.OWN_PRESET_NUMBERS, g)
    if g.helps:
        said = words.OWN_PRESET_HELPS.fill(numbers=numbers)
        return Finding.of(FindingId.DECKS, Verdict.SUGGESTION, scope, said, g, affected=int(cmp.reviews_compared))
    return Finding.of(FindingId.DECKS, Verdict.OK, scope, words.OWN_PRESET_OK.fill(numbers=numbers), g)


def _lookup(shared: Comparison, revlog_id: np.ndarray) -> np.ndarray:
    """Return the preset-trained parameters' predictions of these reviews (each among the preset's tested)."""
    assert shared.compared is not None
    ids = shared.compared.revlog_id
    order = np.argsort(ids, kind="stable")
    at = order[np.minimum(np.searchsorted(ids, revlog_id, sorter=order), order.size - 1)]
    if not np.array_equal(ids[at], revlog_id):
        raise AssertionError("a deck's tested review is not among its preset's")
    return shared.compared.predictions["fsrs-out-of-sample"][at]
