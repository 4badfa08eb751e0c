"""Part of a scope: the same CollectionData restricted to some of its cards (a preset's, a deck's)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..read.collection import CollectionData


def restrict(data: CollectionData, cards: np.ndarray, scope: str = "") -> CollectionData:
    """Return `data` holding only the cards where the boolean array `cards` (one per card of data) is True."""
    cards = np.asarray(cards, dtype=bool)
    rl = data.revlog
    keep = cards[rl.card]
    index = (np.cumsum(cards) - 1).astype(rl.card.dtype)

    def part(a: np.ndarray | None) -> np.ndarray | None:
        return None if a is None else a[keep]

    revlog = replace(
        rl,
        id=rl.id[keep],
        card=index[rl.card[keep]],
        ease=rl.ease[keep],
        type=rl.type[keep],
        factor=rl.factor[keep],
        duration=part(rl.duration),
        ivl=part(rl.ivl),
        time_rank=part(rl.time_rank),
    )
    return replace(
        data,
        revlog=revlog,
        card_ids=data.card_ids[cards],
        home_deck=data.home_deck[cards],
        card_note=data.card_note[cards],
        scope=scope or data.scope,
    )
