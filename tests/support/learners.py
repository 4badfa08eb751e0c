"""A simulated learner's collection in one call (the diagnosis tests and the pinned outputs use it)."""

from __future__ import annotations

from support.builder import DEFAULTS6
from support.simulate import Learner, build_learner_collection


def build(path: str, seed: int, cards: int = 500, days: int = 300, preset=True, **kw) -> str:
    learner = Learner(true_params=list(DEFAULTS6), seed=seed, **kw)
    params = {"Main": (list(DEFAULTS6) if preset is True else preset) if preset else None}
    build_learner_collection(
        path, {"Main": (learner, cards)}, days=days, preset_params=params, seed=1000 + seed
    ).close()
    return path
