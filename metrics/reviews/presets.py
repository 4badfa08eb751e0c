"""Which preset (deck options) each deck and card uses: the one rule, as Anki applies it."""

from __future__ import annotations

import numpy as np

from ..read.collection import DEFAULT_PRESET_ID, CollectionData


def deck_presets(data: CollectionData, decks: np.ndarray) -> np.ndarray:
    """Return the preset id of each deck id in `decks` (int64).

    A deck with no preset recorded (a deleted deck) or whose preset no longer exists uses Anki's
    default preset, as Anki does; -1 ("no preset": FSRS's defaults) only when even that is missing.
    """
    fallback = DEFAULT_PRESET_ID if DEFAULT_PRESET_ID in data.presets else -1
    unique, inverse = np.unique(decks, return_inverse=True)
    recorded = [data.deck_preset.get(int(d), fallback) for d in unique.tolist()]
    ids = np.array([i if i in data.presets else fallback for i in recorded], dtype=np.int64)
    return ids[inverse.reshape(-1)] if unique.size else np.zeros(0, dtype=np.int64)


def card_presets(data: CollectionData) -> np.ndarray:
    """Return each card's preset id, through its home deck (a card in a filtered deck counts in its home deck)."""
    return deck_presets(data, data.home_deck)
