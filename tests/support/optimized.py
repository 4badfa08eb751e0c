"""Simulated learners in the usual case: their preset holds parameters Anki's optimizer trained on their own
reviews, and Anki has been scheduling with optimized parameters.

Two passes: the learner reviews with Anki scheduling by FSRS's true parameters; Anki's optimizer (the very
call of Deck Options' Optimize) trains on those reviews; the learner reviews again (same cards, same seed) with
Anki scheduling by the parameters so optimized — a misuse shapes them, as it does in life; and Anki's
optimizer trains once more on these reviews, which the preset then holds.
"""

from __future__ import annotations

import os

from anki.collection import Collection

from support.builder import DEFAULTS6
from support.simulate import Learner, build_learner_collection

PRESET = "Main preset"


def optimize(col: Collection, preset: str = PRESET) -> list[float]:
    """Optimize `preset` as Deck Options' Optimize does (its search, its parameters as the start); return and
    keep the parameters."""
    conf = next(c for c in col.decks.all_config() if c["name"] == preset)
    current = conf.get("fsrsParams6") or []
    relearning = len((conf.get("lapse") or {}).get("delays") or [])
    response = col._backend.compute_fsrs_params(
        search=f'preset:"{preset}" -is:suspended',
        current_params=current,
        ignore_revlogs_before_ms=0,
        num_of_relearning_steps=relearning,
        health_check=False,
    )
    conf["fsrsParams6"] = list(response.params)
    col.decks.update_config(conf)
    return list(response.params)


def build_optimized(path: str, seed: int, cards: int = 500, days: int = 300, **habits) -> list[float]:
    """Write the collection of a learner (FSRS-6's default memory, `habits` as Learner fields) whose preset holds
    parameters optimized on their own reviews, scheduled with optimized parameters; return those parameters."""
    first = Learner(true_params=list(DEFAULTS6), seed=seed, **habits)
    build_learner_collection(path, {"Main": (first, cards)}, days=days, seed=1000 + seed).close()
    col = Collection(path)
    try:
        scheduled_with = optimize(col)
    finally:
        col.close(downgrade=False)
    os.remove(path)
    learner = Learner(true_params=list(DEFAULTS6), scheduler_params=scheduled_with, seed=seed, **habits)
    presets = {"Main": scheduled_with}
    build_learner_collection(
        path, {"Main": (learner, cards)}, days=days, preset_params=presets, seed=1000 + seed
    ).close()
    col = Collection(path)
    try:
        return optimize(col)
    finally:
        col.close(downgrade=False)
