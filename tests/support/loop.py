"""A closed loop: a simulated learner whose true memory is known, scheduled as Anki schedules, in a state that can
be written to a real collection, diagnosed, and continued in branches (tests/support/loop_branches.py).

Per card, kept in Python: the TRUE memory (a py-fsrs Card under the true parameters), the SCHEDULER's memory
(a py-fsrs Card under the preset's current parameters and desired retention, no learning or relearning steps),
the due day and the history (day, pressed rating, revlog kind, scheduled interval), from which a collection is
written and the scheduler's memory replayed whenever parameters change (Anki recomputes memory states from the
history; due dates stay). Each card has its own random streams per purpose (recall, habit, fuzz, timing),
seeded from (seed, card index), and every review draws the same count from each, so that two branches from the
same state use the same numbers as far as their schedules allow. Interval fuzz is drawn here (py-fsrs's own
fuzz uses the global generator), with py-fsrs's ranges.
"""

from __future__ import annotations

import datetime as dt
import math
import os
import random
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from functools import lru_cache

from anki.collection import Collection
from fsrs import Card, Rating, Scheduler
from fsrs.scheduler import FUZZ_RANGES, LOWER_BOUNDS_PARAMETERS, UPPER_BOUNDS_PARAMETERS

from fsrs_calibration.metrics.read.anki_backend import preset_check
from support.builder import DAY, DEFAULTS6, LEARN, MANUAL, REVIEW, Builder, Entry

START = datetime(2020, 1, 1, 12, tzinfo=UTC)
MAX_INTERVAL = 36500


@dataclass(frozen=True)
class Habits:
    """What the learner presses against what happened, and when reviews are done."""

    hard_share: float = 0.0  # any lapse pressed Hard
    hard_tied: float = 0.0  # a lapse pressed Hard, the more likely the nearer recall was (full at R >= 0.95)
    again_share: float = 0.0  # any recall pressed Again
    again_tied: float = 0.0  # a recall that truly deserves Hard (a shaky one) pressed Again
    late_share: float = 0.0  # reviews done 1.2-3x late
    early_share: float = 0.0  # reviews done at 0.4-0.9x the interval
    p_hard: float = 0.08  # honest Hard among recalls at R = 0.9 (more when recall was shakier)
    p_easy: float = 0.07

    def honest(self) -> Habits:
        """Return these habits with the answer buttons used honestly (timing unchanged)."""
        return replace(self, hard_share=0.0, hard_tied=0.0, again_share=0.0, again_tied=0.0)

    @property
    def misuse(self) -> bool:
        return any((self.hard_share, self.hard_tied, self.again_share, self.again_tied))


@dataclass(frozen=True)
class Memory:
    """How recall truly fades: FSRS-6 (`fsrs`), `exponential` (0.9 ** (t / S), S at least `shortest` days: below
    a day its thin tail would leave a forgotten card no chance at Anki's shortest interval, a spiral of lapses no
    learner lives) or `sticky` (a floor under FSRS's curve); S is the true py-fsrs card's stability times the
    card's factor."""

    kind: str = "fsrs"
    floor: float = 0.4
    shortest: float = 1.0

    def recall(self, true: Scheduler, stability: float, elapsed: int) -> float:
        """Return the true probability of recall after `elapsed` days."""
        if self.kind == "exponential":
            return 0.9 ** (elapsed / max(stability, self.shortest))
        r = (1 + true._FACTOR * elapsed / stability) ** true._DECAY
        return r if self.kind == "fsrs" else self.floor + (1 - self.floor) * r


@dataclass
class Preset:
    """A preset as Anki holds it: parameters (None: FSRS's defaults), desired retention, ignore-before day."""

    params: list[float] | None = None
    desired: float = 0.9
    ignore_before: int | None = None  # the simulation day of "Ignore cards reviewed before"

    @property
    def used(self) -> list[float]:
        return list(self.params) if self.params else list(DEFAULTS6)


@dataclass
class CardState:
    """One card: its true and scheduled memory, due day, history and random streams."""

    index: int
    deck: str
    factor: float  # true stability / FSRS's (1: a normal card)
    due: int  # the day of its next review (its first: the day it is introduced)
    streams: dict[str, random.Random]
    true: Card | None = None
    sched: Card | None = None
    last: int = -1
    history: list[tuple[int, int, int, int]] = field(default_factory=list)  # day, pressed, kind, scheduled
    run_start: int = 0  # where its current learning run starts in `history` (after a reset)
    resets: list[int] = field(default_factory=list)  # days it was reset (Forget)
    suspended: bool = False

    def fork(self) -> CardState:
        """Return an independent copy of the card (py-fsrs cards and history entries are not changed in place)."""
        copied = {}
        for k, r in self.streams.items():
            copied[k] = random.Random()
            copied[k].setstate(r.getstate())
        return replace(self, streams=copied, history=list(self.history), resets=list(self.resets))


@dataclass
class Measured:
    """One phase-2 review: what the scheduler predicted and what was true."""

    day: int
    deck: str
    r_sched: float
    r_true: float
    recalled: bool
    card: int = -1  # the card's index in the world


@dataclass
class World:
    """A learner and their collection's state on `day`."""

    seed: int
    true_params: list[float]
    memory: Memory
    habits: Habits
    presets: dict[str, Preset]
    deck_preset: dict[str, str]
    cards: list[CardState]
    old_habits: Habits | None = None  # the habits before `habits_until`
    habits_until: int = -1
    day: int = 0
    measure_from: int | None = None
    measured: list[Measured] = field(default_factory=list)
    listed: list[int] = field(default_factory=list)  # cards a diagnosis listed (their own gap is measured)

    def habits_on(self, day: int) -> Habits:
        return self.old_habits if self.old_habits is not None and day < self.habits_until else self.habits

    def preset_of(self, card: CardState) -> Preset:
        return self.presets[self.deck_preset[card.deck]]

    def decks_of(self, preset: str) -> list[str]:
        return [d for d, p in self.deck_preset.items() if p == preset]

    def fork(self) -> World:
        """Return an independent copy (its cards' random streams where they are), faster than deepcopy."""
        presets = {
            k: Preset(list(p.params) if p.params else None, p.desired, p.ignore_before) for k, p in self.presets.items()
        }
        return replace(
            self,
            presets=presets,
            deck_preset=dict(self.deck_preset),
            cards=[c.fork() for c in self.cards],
            measured=list(self.measured),
        )


@lru_cache(maxsize=256)
def scheduler(params: tuple[float, ...], desired: float) -> Scheduler:
    """Return a py-fsrs Scheduler without steps or fuzz (fuzz is drawn from the card's stream); parameters Anki
    stored in 32-bit floats are clamped into py-fsrs's bounds (0.800000011920929 is Anki's 0.8)."""
    inside = [
        min(max(v, lo), hi) for v, lo, hi in zip(params, LOWER_BOUNDS_PARAMETERS, UPPER_BOUNDS_PARAMETERS, strict=True)
    ]
    return Scheduler(inside, desired, (), (), maximum_interval=MAX_INTERVAL, enable_fuzzing=False)


def streams(seed: int, index: int) -> dict[str, random.Random]:
    """Return the card's random streams, one per purpose, seeded from (seed, card index)."""
    return {k: random.Random(f"{seed}/{index}/{k}") for k in ("recall", "habit", "fuzz", "timing")}


def fuzzed(interval: int, u: float) -> int:
    """Return the interval with py-fsrs's fuzz, drawn with `u` (uniform in [0, 1))."""
    if interval < 2.5:
        return interval
    delta = 1.0
    for r in FUZZ_RANGES:
        delta += r["factor"] * max(min(float(interval), r["end"]) - r["start"], 0.0)
    high = min(round(interval + delta), MAX_INTERVAL)
    low = min(max(2, round(interval - delta)), high)
    return min(round(u * (high - low + 1) + low), MAX_INTERVAL)


def when_done(interval: int, habits: Habits, u: float, v: float) -> int:
    """Return the days until the learner really reviews a card scheduled `interval` days ahead."""
    if u < habits.late_share:
        return round(interval * (1.2 + 1.8 * v))
    if u < habits.late_share + habits.early_share:
        return round(interval * (0.4 + 0.5 * v))
    return interval


def truth_of(recalled: bool, r_true: float, habits: Habits, u: float) -> Rating:
    """Return the honest answer: Again when forgotten; Hard (more likely the shakier the recall), Good or Easy."""
    if not recalled:
        return Rating.Again
    p_hard = habits.p_hard * min(4.0, max(0.25, (1 - r_true) / 0.1))
    return Rating.Hard if u < p_hard else Rating.Easy if u > 1 - habits.p_easy else Rating.Good


def pressed_of(truth: Rating, r_true: float, habits: Habits, u: float, v: float) -> Rating:
    """Return what the learner presses for `truth` under their habits (u, v: the review's habit draws)."""
    if truth == Rating.Again:
        near = min(1.0, max(0.0, (r_true - 0.5) / 0.45))
        return Rating.Hard if u < habits.hard_share + habits.hard_tied * near else Rating.Again
    if u < habits.again_share or (truth == Rating.Hard and v < habits.again_tied):
        return Rating.Again
    return truth


def review(world: World, card: CardState, day: int) -> None:
    """Review `card` on `day`: draw recall from the true memory, press by habit, schedule as Anki would."""
    preset = world.preset_of(card)
    sched = scheduler(tuple(preset.used), preset.desired)
    true = scheduler(tuple(world.true_params), 0.9)
    when = START + timedelta(days=day)
    u_recall, u_truth = card.streams["recall"].random(), card.streams["recall"].random()
    h1, h2 = card.streams["habit"].random(), card.streams["habit"].random()
    u_fuzz = card.streams["fuzz"].random()
    t1, t2 = card.streams["timing"].random(), card.streams["timing"].random()
    habits = world.habits_on(day)
    if card.true is None or card.sched is None:  # the first look: most cards are answered Good
        kind, r_true = LEARN, 0.8
        truth = truth_of(u_recall < r_true, 0.9, habits, u_truth)
        pressed = truth
        card.true, card.sched = Card(card_id=card.index + 1), Card(card_id=card.index + 1)
    else:
        kind = REVIEW
        r_true = world.memory.recall(true, card.true.stability * card.factor, day - card.last)
        recalled = u_recall < r_true
        truth = truth_of(recalled, r_true, habits, u_truth)
        pressed = pressed_of(truth, r_true, habits, h1, h2)
        if world.measure_from is not None and day >= world.measure_from:
            r_sched = sched.get_card_retrievability(card.sched, when)
            world.measured.append(Measured(day, card.deck, r_sched, r_true, recalled, card.index))
    card.true, _ = true.review_card(card.true, truth, when)
    card.sched, _ = sched.review_card(card.sched, pressed, when)
    scheduled = fuzzed((card.sched.due - when).days, u_fuzz)
    card.history.append((day, int(pressed), kind, scheduled))
    card.last = day
    card.due = day + max(1, when_done(scheduled, habits, t1, t2))


def advance(world: World, until: int) -> None:
    """Review every card due before day `until` (cards are independent between changes of parameters)."""
    for card in world.cards:
        while not card.suspended and card.due < until:
            review(world, card, card.due)
    world.day = until


def replay(world: World, decks: list[str] | None = None) -> None:
    """Recompute the scheduler's memory of the cards (of `decks`) from their pressed history with their preset's
    current parameters, as Anki does when parameters change; due dates stay."""
    for card in world.cards:
        if card.sched is None or (decks is not None and card.deck not in decks):
            continue
        preset = world.preset_of(card)
        sched = scheduler(tuple(preset.used), preset.desired)
        memory = Card(card_id=card.index + 1)
        for day, pressed, _kind, _ivl in card.history[card.run_start :]:
            memory, _ = sched.review_card(memory, Rating(pressed), START + timedelta(days=day))
        card.sched = memory


def reset(card: CardState, day: int, factor: float = 1.0) -> None:
    """Forget the card (rewritten: its true memory a normal one, `factor`) and see it again as new on `day`."""
    card.factor, card.true, card.sched = factor, None, None
    card.due, card.run_start = day, len(card.history)
    card.resets.append(day)


@dataclass(frozen=True)
class Deck:
    """A deck of the learner: its cards, the share planted (true stability a fraction of FSRS's) and the factor
    of every card (other material: all cards at a fraction)."""

    name: str
    cards: int
    preset: str = "Main preset"
    factor: float = 1.0
    planted_share: float = 0.0
    planted_factor: float = 0.2


def new_world(
    seed: int, decks: list[Deck], days: int, habits: Habits, memory: Memory, presets: dict[str, Preset], **kw
) -> World:
    """Return the learner's world on day 0: cards introduced evenly over the first two thirds of `days`."""
    cards: list[CardState] = []
    for deck in decks:
        pick = random.Random(f"{seed}/planted/{deck.name}")
        for k in range(deck.cards):
            factor = deck.planted_factor if pick.random() < deck.planted_share else deck.factor
            first = int(k * (days * 2 / 3) / deck.cards)
            index = len(cards)
            cards.append(CardState(index, deck.name, factor, first, streams(seed, index)))
    deck_preset = {d.name: d.preset for d in decks}
    return World(seed, list(kw.pop("true_params", DEFAULTS6)), memory, habits, presets, deck_preset, cards, **kw)


# -- a real collection ------------------------------------------------------------------------------------------


def date_of(cutoff: int, today: int, day: int) -> str:
    """Return the date (YYYY-MM-DD, UTC as Anki's setting) of simulation `day` in a collection built on `today`."""
    return dt.datetime.fromtimestamp(cutoff - (today - day) * DAY - DAY // 2, UTC).strftime("%Y-%m-%d")


def day_of(cutoff: int, today: int, date: str) -> int:
    """Return the simulation day of `date` (YYYY-MM-DD) in a collection built on `today`."""
    at_today = dt.datetime.fromtimestamp(cutoff - DAY // 2, UTC).date()
    return today - (at_today - dt.date.fromisoformat(date)).days


@dataclass
class Written:
    """A collection written from a world: its path, the card ids (by card index) and the cutoff."""

    path: str
    cids: list[int]
    cutoff: int
    today: int

    def index_of(self) -> dict[int, int]:
        return {cid: i for i, cid in enumerate(self.cids)}


def write_collection(world: World, path: str, today: int) -> Written:
    """Write the world's reviews before `today` into a new collection at `path` (today = the collection's today):
    one preset per world preset (parameters, desired retention, ignore-before date), one deck per world deck."""
    if os.path.exists(path):
        os.remove(path)
    b = Builder(path, world.seed)
    ids = {}
    for name, p in world.presets.items():
        ignore = "" if p.ignore_before is None else date_of(b.cutoff, today, p.ignore_before)
        ids[name] = b.preset(name, "fsrsParams6" if p.params else None, p.params, ignore_before=ignore)
        conf = b.col.decks.get_config(ids[name])
        conf["desiredRetention"] = p.desired
        b.col.decks.update_config(conf)
    cids = [0] * len(world.cards)
    for deck, preset in world.deck_preset.items():
        mine = [c for c in world.cards if c.deck == deck]
        for card, cid in zip(mine, b.cards(b.deck(deck, ids[preset]), len(mine), marker=deck), strict=True):
            cids[card.index] = cid
    b.write_many(_rows(b, world, cids, today))
    suspended = [cids[c.index] for c in world.cards if c.suspended]
    if suspended:
        b.col.sched.suspend_cards(suspended)
    b.col.set_config("fsrs", True)
    cutoff = b.cutoff
    b.close()
    return Written(path, cids, cutoff, today)


def _rows(b: Builder, world: World, cids: list[int], today: int) -> list[tuple[int, Entry]]:
    """Return the revlog rows of every card's history before `today` (a reset: a Forget row first that day)."""
    rows: list[tuple[int, Entry]] = []
    for card in world.cards:
        cid = cids[card.index]
        for day in card.resets:
            if day < today:
                rows.append((cid, Entry(b.at(today - day, within=DAY - 500), 0, MANUAL, factor=0, ivl=0)))
        for day, pressed, kind, scheduled in card.history:
            if day < today:
                factor = 0 if kind == LEARN else 2500
                rows.append((cid, Entry(b.at(today - day), pressed, kind, ivl=scheduled, factor=factor)))
    return rows


def anki_optimize(col: Collection, preset: str) -> list[float]:
    """Return the parameters Deck Options' Optimize gives `preset` (its search, ignore-before date, relearning
    steps, its parameters as the start), and keep them in the preset."""
    conf = next(c for c in col.decks.all_config() if c["name"] == preset)
    inputs = preset_check(conf)
    response = col._backend.compute_fsrs_params(
        search=inputs.search,
        current_params=list(conf.get("fsrsParams6") or []),
        ignore_revlogs_before_ms=inputs.ignore_before_ms,
        num_of_relearning_steps=inputs.relearning_steps,
        health_check=False,
    )
    conf["fsrsParams6"] = list(response.params)
    col.decks.update_config(conf)
    return list(response.params)


def optimize(world: World, presets: list[str], path: str) -> dict[str, list[float]]:
    """Optimize `presets` on the reviews before the world's day (a collection written to `path`), give them the
    result and replay their cards' memory; return the new parameters."""
    written = write_collection(world, path, world.day)
    col = Collection(written.path)
    try:
        found = {name: anki_optimize(col, name) for name in presets}
    finally:
        col.close(downgrade=False)
    for name, params in found.items():
        if len(params) == 21 and not math.isnan(sum(params)):
            world.presets[name].params = params
    replay(world, [d for name in presets for d in world.decks_of(name)])
    return found
