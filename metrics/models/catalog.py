"""The models a comparison can score, by id, in the order of its table (no numpy: read before the engine)."""

from __future__ import annotations

MODELS = ("fsrs-preset", "fsrs-default", "fsrs-out-of-sample", "sm2", "anki-interval", "avg", "moving-avg")
BASELINES = ("avg", "moving-avg", "sm2", "anki-interval")  # models with no memory model of the card
