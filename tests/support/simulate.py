"""Simulated learners: real Anki collections whose reviews are drawn from a known FSRS memory model.

The true memory follows FSRS with `true_params` (py-fsrs, an implementation independent of ours): at
each review the card is recalled with the true retrievability, and the true memory state is updated
with what really happened. What the learner *presses* can differ: a share of forgotten cards answered
Hard instead of Again (`hard_share`), or a share of recalled cards answered Again (`again_share`).
Anki schedules with what was pressed, using `scheduler_params` (the preset's), as it would.
A share of cards can be planted (`planted_share`): their true stability is a fraction (`planted_factor`)
of what FSRS says, at every review — cards FSRS keeps getting wrong, whatever their history.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from fsrs import Card, Rating, Scheduler

from support.builder import DAY, LEARN, REVIEW, Builder, Entry

START = datetime(2020, 1, 1, 12, tzinfo=UTC)


@dataclass
class Learner:
    """How a simulated learner remembers and answers."""

    true_params: list[float]
    scheduler_params: list[float] | None = None  # what Anki schedules with; the true ones if None
    hard_share: float = 0.0  # forgotten cards answered Hard
    again_share: float = 0.0  # recalled cards answered Again
    p_hard: float = 0.08  # honest answers when recalled: Hard / Good / Easy
    p_easy: float = 0.07
    desired_retention: float = 0.9
    seed: int = 0
    late_share: float = 0.0  # reviews done 1.2-3x the scheduled interval late (after breaks)
    early_share: float = 0.0  # reviews done at 0.4-0.9x the scheduled interval
    planted_share: float = 0.0  # cards whose true stability is planted_factor times what FSRS says
    planted_factor: float = 0.25
    habits_until: int = -1  # before this day the learner answers with the old habits below
    old_hard_share: float = 0.0
    old_again_share: float = 0.0
    old_desired_retention: float | None = None  # what Anki scheduled for before habits_until (None: the same)
    stats: dict = field(default_factory=dict)
    planted: list[int] = field(default_factory=list)  # the planted cards' ids, once built


def simulate_card(
    learner: Learner, rng: random.Random, first_day: int, last_day: int, planted: bool = False
) -> list[tuple[int, int, int, int]]:
    """Return one card's reviews as (day, pressed rating, revlog type, the interval Anki scheduled in days)
    from first_day up to last_day."""
    true = Scheduler(learner.true_params, learner.desired_retention, (), (), enable_fuzzing=False)
    anki = Scheduler(
        learner.scheduler_params or learner.true_params, learner.desired_retention, (), (), enable_fuzzing=True
    )
    old = anki  # what Anki scheduled with before habits_until (another desired retention: another scheduler)
    if learner.old_desired_retention is not None and learner.habits_until > 0:
        params = learner.scheduler_params or learner.true_params
        old = Scheduler(params, learner.old_desired_retention, (), (), enable_fuzzing=True)
    true_card, anki_card = Card(card_id=1), Card(card_id=1)  # an id given: Card() sleeps 1 ms to make one up
    day = first_day
    out: list[tuple[int, int, int, int]] = []
    kind = LEARN
    while day <= last_day:
        when = START + timedelta(days=day)
        if kind == LEARN:
            recalled = rng.random() < 0.8  # the first look: most cards are answered Good
        else:
            recalled = rng.random() < true.get_card_retrievability(_weaker(true_card, learner, planted), when)
        if recalled:
            u = rng.random()
            truth = Rating.Hard if u < learner.p_hard else Rating.Easy if u > 1 - learner.p_easy else Rating.Good
            again_share = learner.old_again_share if day < learner.habits_until else learner.again_share
            pressed = Rating.Again if kind != LEARN and rng.random() < again_share else truth
        else:
            truth = Rating.Again
            hard_share = learner.old_hard_share if day < learner.habits_until else learner.hard_share
            pressed = Rating.Hard if kind != LEARN and rng.random() < hard_share else Rating.Again
        learner.stats[(int(truth), int(pressed))] = learner.stats.get((int(truth), int(pressed)), 0) + 1
        true_card, _ = true.review_card(true_card, truth, when)
        anki_card, _ = (old if day < learner.habits_until else anki).review_card(anki_card, pressed, when)
        scheduled = max(1, (anki_card.due - when).days)
        out.append((day, int(pressed), kind, scheduled))
        kind = REVIEW
        day += max(1, _when_done(scheduled, learner, rng))
    return out


def _when_done(interval: int, learner: Learner, rng: random.Random) -> int:
    """Return the days until the learner really reviews a card scheduled `interval` days ahead."""
    if learner.late_share <= 0 and learner.early_share <= 0:
        return interval  # no draw: the honest learners' collections stay as they were
    u = rng.random()
    if u < learner.late_share:
        return round(interval * rng.uniform(1.2, 3.0))
    if u < learner.late_share + learner.early_share:
        return round(interval * rng.uniform(0.4, 0.9))
    return interval


def _weaker(card: Card, learner: Learner, planted: bool) -> Card:
    """Return the card as the planted card's memory really is: its stability a fraction of FSRS's."""
    if not planted:
        return card
    weaker = copy.copy(card)
    weaker.stability = card.stability * learner.planted_factor
    return weaker


def build_learner_collection(
    path: str,
    decks: dict[str, tuple[Learner, int]],
    days: int = 240,
    preset_params: dict[str, list[float] | None] | None = None,
    seed: int = 0,
    introduced: float | None = None,
) -> Builder:
    """Build a collection with one deck (and preset) per entry: name -> (learner, number of cards).

    Cards are introduced evenly over the first two thirds of `days` (or the share `introduced` of them) and
    reviewed until today. Each
    deck's preset holds preset_params[name] (the learner's true parameters when not given; None: no
    parameters, FSRS's defaults). Returns the open Builder (close it).
    """
    b = Builder(path, seed)
    rng = random.Random(seed)
    random.seed(seed)  # py-fsrs draws its interval fuzz from the global generator: same seed, same collection
    rows: list[tuple[int, Entry]] = []
    for name, (learner, n_cards) in decks.items():
        params = (preset_params or {}).get(name, learner.true_params)
        preset = b.preset(f"{name} preset", "fsrsParams6" if params else None, params)
        did = b.deck(name, preset)
        for k, cid in enumerate(b.cards(did, n_cards, marker=name)):
            first = int(k * (days * 2 / 3) / n_cards) if introduced is None else int(k * days * introduced / n_cards)
            planted = learner.planted_share > 0 and rng.random() < learner.planted_share  # no draw otherwise
            if planted:
                learner.planted.append(cid)
            for day, pressed, kind, scheduled in simulate_card(learner, rng, first, days - 1, planted):
                factor = 0 if kind == LEARN else 2500
                rows.append((cid, Entry(b.at(days - day), pressed, kind, ivl=scheduled, factor=factor)))
    b.write_many(rows)
    b.col.set_config("fsrs", True)
    return b


__all__ = ["DAY", "Learner", "build_learner_collection", "simulate_card"]
