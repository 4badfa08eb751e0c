"""Finding "decks", out of sample: for decks with enough scored reviews that share their preset with other
decks, would parameters trained on the deck alone beat its preset's on its later reviews?"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ...explain import findings as words
from .context import Context
from .finding import MIN_REVIEWS, Finding, Verdict, too_few
from .out_of_sample import gain_numbers, out_of_sample, paired_gain


def check(ctx: Context) -> Iterator[Finding]:
    """Yield the own-preset finding of each deck that shares its preset (none without Anki's optimizer)."""
    if not ctx.trains:
        return
    s, data, card_preset = ctx.scored, ctx.data, ctx.card_preset
    decks, counts = np.unique(s.deck, return_counts=True)
    for did, count in zip(decks.tolist(), counts.tolist(), strict=True):
        cards = data.home_deck == did
        if count < MIN_REVIEWS or (card_preset == card_preset[cards][0]).sum() == cards.sum():
            continue  # too few reviews, or the deck is its preset's only deck (the parameters finding covers it)
        name = data.deck_names.get(int(did), str(did))
        ctx.job.note(words.TRAINING_DECK.format(name=name))
        yield _own_preset(ctx, cards, words.deck_scope(name))


def _own_preset(ctx: Context, cards: np.ndarray, scope: str) -> Finding:
    """Return whether the deck of `cards` would do better on parameters of its own, out of sample."""
    cmp = out_of_sample(ctx, cards, ctx.scored)  # first half -> second
    if cmp.reviews_compared < MIN_REVIEWS:
        return too_few("decks", scope, cmp.reviews_compared, MIN_REVIEWS)
    g = paired_gain(cmp)
    numbers = gain_numbers(words.OWN_PRESET_NUMBERS, g)
    if g["gain_ci"][0] > 0:
        said = words.OWN_PRESET_HELPS.fill(numbers=numbers)
        return Finding.of("decks", Verdict.SUGGESTION, scope, said, g, affected=int(cmp.reviews_compared))
    return Finding.of("decks", Verdict.OK, scope, words.OWN_PRESET_OK.fill(numbers=numbers), g)
