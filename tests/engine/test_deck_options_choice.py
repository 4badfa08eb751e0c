"""Which deck a preset's Deck Options button opens (metrics/jobs/diagnose/actions.py `deck_options`): the deck of the
preset with the most scored reviews — but never a deck an earlier step of the plan splits off, whose Deck Options
would by then show its new preset (the readers' question: "which deck will Deck Options of "Usual preset" open?")."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from fsrs_calibration.metrics.jobs.diagnose.actions import deck_options
from fsrs_calibration.metrics.kinds import DeckOptions

BIG, SMALL, ELSEWHERE = 11, 12, 13  # two decks on preset 1 (BIG has more scored reviews), one on preset 2


def _ctx():
    """The parts of a diagnosis's context `deck_options` reads: the presets' names, each deck's preset, and the
    scored reviews' decks and presets."""
    presets = {1: SimpleNamespace(name="Usual preset"), 2: SimpleNamespace(name="Other preset")}
    deck = np.array([BIG] * 5 + [SMALL] * 3 + [ELSEWHERE] * 9, dtype=np.int64)
    preset = np.array([1] * 8 + [2] * 9, dtype=np.int64)
    data = SimpleNamespace(presets=presets, deck_preset={BIG: 1, SMALL: 1, ELSEWHERE: 2})
    return SimpleNamespace(data=data, scored=SimpleNamespace(deck=deck, preset=preset))


def test_the_deck_of_the_preset_with_the_most_reviews():
    assert deck_options(_ctx(), "Usual preset") == DeckOptions("Usual preset", BIG)


def test_never_a_deck_split_off_by_an_earlier_step():
    assert deck_options(_ctx(), "Usual preset", frozenset({BIG})) == DeckOptions("Usual preset", SMALL)


def test_when_every_deck_leaves_the_largest_is_still_named():
    assert deck_options(_ctx(), "Usual preset", frozenset({BIG, SMALL})) == DeckOptions("Usual preset", BIG)
