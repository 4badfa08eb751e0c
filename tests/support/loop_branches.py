"""The closed loop's learners, phases and branches: a year of reviews (optimized as a learner would), Anki's
diagnosis of that state, then from the SAME state branches — "nothing" (go on as is) and "plan" (do the plan's
steps as a learner would in Anki) — each measured against the true memory (tests/support/loop.py).

Measured per branch over phase 2: the mean |R_sched - R_true| at each review (the scheduler's prediction against
the true recall probability), the mean true recall against the desired retention, reviews per day, per deck too.
"""

from __future__ import annotations

import os
import statistics
from dataclasses import dataclass, field
from typing import Any

from anki.collection import Collection

from fsrs_calibration.metrics.jobs.diagnose import diagnose
from fsrs_calibration.metrics.read.anki_backend import anki_trainer
from fsrs_calibration.metrics.read.collection import read_collection
from support.builder import DEFAULTS6
from support.loop import (
    Deck,
    Habits,
    Memory,
    Preset,
    World,
    advance,
    day_of,
    new_world,
    optimize,
    reset,
    write_collection,
)

LATER = 30  # "optimize again once a month of reviews is answered the new way"
EVERY = 90  # an optimizing learner presses Optimize about every three months
WATCHED = ("hard-misuse", "again-misuse", "retention", "parameters", "desired-retention", "decks", "cards")
WATCHED += ("ignore-before",)


@dataclass(frozen=True)
class Scenario:
    """A learner: decks, habits (old ones in the first half of phase 1), memory, the preset's start."""

    name: str
    decks: tuple[Deck, ...] = (Deck("Main", 800),)
    habits: Habits = Habits()
    old_habits: Habits | None = None
    memory: Memory = Memory()
    true_params: tuple[float, ...] = tuple(DEFAULTS6)
    desired: float = 0.9
    optimized: bool = True  # the preset optimized on the learner's own reviews (else `start` throughout)
    start: tuple[float, ...] | None = None  # the preset's parameters before any Optimize (None: FSRS's defaults)
    days: int = 330
    phase2: int = 150


@dataclass(frozen=True)
class Variant:
    """A branch of phase 2: follow the plan or not, when to optimize, what to do with the listed cards."""

    name: str
    follow: bool = True
    optimize: str = "plan"  # plan: as the plan says; now: at day 0; later: after LATER days
    cards: str = "rewrite"  # rewrite: the card starts anew as a normal one; suspend
    again: int = 0  # > 0: Optimize pressed once more on that day of phase 2 (every preset)


NOTHING = Variant("nothing", follow=False)
PLAN = Variant("plan")


@dataclass
class Diagnosed:
    """The diagnosis of a world, the collection it was made on and a short summary."""

    dg: Any
    written: Any
    summary: dict[str, Any] = field(default_factory=dict)


# -- phase 1 ----------------------------------------------------------------------------------------------------


def phase1(s: Scenario, seed: int, workdir: str) -> World:
    """Return the learner's world after phase 1: reviews for `s.days` days; an optimizing learner presses Optimize
    every EVERY days and once more at the end (Anki scheduling with each result from then on)."""
    presets = {d.preset: Preset(list(s.start) if s.start else None, s.desired) for d in s.decks}
    kw: dict[str, Any] = {"true_params": list(s.true_params)}
    if s.old_habits is not None:
        kw.update(old_habits=s.old_habits, habits_until=s.days // 2)
    world = new_world(seed, list(s.decks), s.days, s.habits, s.memory, presets, **kw)
    stops = list(range(EVERY, s.days, EVERY)) + [s.days] if s.optimized else [s.days]
    for day in stops:
        advance(world, day)
        if s.optimized:
            optimize(world, list(presets), os.path.join(workdir, f"p1-{day}.anki2"))
    return world


def diagnosed(world: World, path: str) -> Diagnosed:
    """Return Anki's diagnosis of the world today (a collection written to `path`, Anki's own trainer)."""
    written = write_collection(world, path, world.day)
    col = Collection(written.path)
    try:
        data = read_collection(col, None, with_intervals=True)
        dg = diagnose(data, None, trainer=anki_trainer(col))
    finally:
        col.close(downgrade=False)
    return Diagnosed(dg, written, summarize(dg))


def summarize(dg: Any) -> dict[str, Any]:
    """Return the plan's steps, the watched findings' verdicts (with their key evidence) and contradictions."""
    steps = [(p.preset, s.action, _short(s.target)) for p in dg.plan for s in p.steps]
    verdicts: dict[str, str] = {}
    for f in dg.findings:
        if f.id not in WATCHED:
            continue
        key = f.id if f.scope.kind != "deck" else f"{f.id}[{f.scope.name}]"
        said = f.verdict.value
        if f.id == "retention":
            said += f"/{f.evidence.to_dict().get('cause')}"
        if f.id == "desired-retention":
            said += f" trusted={f.evidence.to_dict().get('trusted_range')}"
            if f.verdict.value == "suggestion":
                said += " [" + " ".join(_candidate(c) for c in f.evidence.to_dict().get("candidates", [])) + "]"
        if f.id == "ignore-before" and f.evidence.to_dict().get("cutoff"):
            said += f" cutoff={f.evidence.to_dict()['cutoff']}"
        if f.id == "cards" and f.evidence.to_dict().get("cards_listed"):
            said += f" listed={f.evidence.to_dict()['cards_listed']}"
        verdicts[key] = said
    return {"steps": steps, "verdicts": verdicts, "contradictions": contradictions(dg)}


def _candidate(c: dict[str, Any]) -> str:
    """Return one desired-retention candidate in a few characters: 0.80:off(+4.1)."""
    mark = {"calibrated": "ok", "off": "off", "not-enough-data": "n/a"}[c["verdict"]]
    if c["verdict"] == "not-enough-data" or c.get("measured") is None:
        return f"{c['retention']:.2f}:{mark}"
    return f"{c['retention']:.2f}:{mark}({100 * (c['measured'] - c['predicted']):+.1f})"


def _short(target: str) -> str:
    return f"{target.count(',') + 1} cards" if target.startswith("cid:") else target


def contradictions(dg: Any) -> list[str]:
    """Return the steps standing beside a passed check of the same preset that says the opposite: optimize beside a
    parameters check saying re-optimizing would not help (unless that check says why both hold), answer buttons
    beside a misuse check that passed, a split beside the deck's own check that passed."""
    out = []
    for p in dg.plan:
        ok = {(f.id, f.scope.name): f for f in dg.findings if f.verdict.value == "ok"}
        params = ok.get(("parameters", p.preset))
        for s in p.steps:
            if s.action == "optimize" and params is not None and not params.action:
                out.append(f"optimize ({'+'.join(s.because)}) beside parameters ok")
            if s.action == "answer-buttons":
                out += [f"answer-buttons beside {b} ok" for b in s.because if (b, p.preset) in ok]
            if s.action == "split-preset" and ("decks", s.target) in ok:
                out.append(f"split-preset of {s.target} beside its decks check ok")
    return out


# -- phase 2 ----------------------------------------------------------------------------------------------------


def run_branch(world0: World, d: Diagnosed, v: Variant, s: Scenario, workdir: str) -> dict[str, Any]:
    """Continue a copy of the world for s.phase2 days as the variant says; return its measures and what was done."""
    w = world0.fork()
    w.listed = listed_cards(w, d)
    start = w.day
    w.measure_from = start
    done: list[str] = []
    events = plan_events(w, d, v, os.path.join(workdir, v.name), done) if v.follow else []
    if v.optimize == "only":  # a reference: Optimize pressed today, nothing else
        events = [(start, lambda: optimize(w, list(w.presets), os.path.join(workdir, "only.anki2")))]
    if v.again:
        events.append((start + v.again, lambda: _again(w, workdir, v, done, start)))
    for day, event in events:
        advance(w, day)
        event()
    advance(w, start + s.phase2)
    out = measure(w, start, start + s.phase2)
    out["done"] = done
    return out


def _again(w: World, workdir: str, v: Variant, done: list[str], start: int) -> None:
    """Press Optimize once more on every preset (the learner's routine)."""
    optimize(w, list(w.presets), os.path.join(workdir, f"{v.name}-again.anki2"))
    done.append(f"optimized again on day {w.day - start}")


@dataclass
class Doing:
    """What following the plan has done so far, and what waits: presets to optimize, desired retentions to set."""

    start: int
    optimize: list[str] = field(default_factory=list)
    later: bool = False
    done: list[str] = field(default_factory=list)


def plan_events(w: World, d: Diagnosed, v: Variant, workdir: str, done: list[str]) -> list[tuple[int, Any]]:
    """Do the plan's immediate steps on the world; return the dated events (optimize, desired retention)."""
    os.makedirs(workdir, exist_ok=True)
    doing = Doing(w.day, done=done)
    for p in d.dg.plan:
        for i in range(len(p.steps)):
            do_step(w, d, v, doing, p, i)
        if any(n.kind == "check-habits" for n in p.notes):  # the learner checks the habit the note names
            w.habits, w.old_habits = w.habits.honest(), None
            doing.done.append("checked the habit the note names: honest buttons")
    touched = list(dict.fromkeys(doing.optimize))
    if not touched:
        return []

    def act() -> None:
        optimize(w, touched, os.path.join(workdir, f"opt-{w.day}.anki2"))
        done.append(f"optimized {', '.join(touched)} on day {w.day - doing.start}")

    return [(doing.start + LATER if doing.later else doing.start, act)]


def do_step(w: World, d: Diagnosed, v: Variant, doing: Doing, p: Any, i: int) -> None:
    """Do step i of preset plan p as a learner would in Anki (optimizing and retention wait for `act`)."""
    step = p.steps[i]
    if step.action == "answer-buttons":
        w.habits, w.old_habits = w.habits.honest(), None
        doing.done.append("honest buttons")
    elif step.action == "split-preset":
        doing.optimize += _split(w, p.preset, step.target, doing.done)
    elif step.action == "ignore-before":
        cutoff = step.findings[0].evidence.to_dict()["cutoff"]
        w.presets[p.preset].ignore_before = day_of(d.written.cutoff, d.written.today, cutoff)
        doing.optimize.append(p.preset)
        doing.done.append(f"ignore before {cutoff} (day {w.presets[p.preset].ignore_before})")
    elif step.action == "optimize":
        doing.optimize.append(p.preset)
        doing.later = v.optimize == "later" or (v.optimize == "plan" and _later(p.steps, i))
    elif step.action == "review-cards":
        _cards_step(w, d, step.target, v, doing.done)


def _later(steps: list[Any], i: int) -> bool:
    """Whether the plan's optimize step (at i) waits for new habits: a step for later has no button now."""
    return steps[i].action == "optimize" and steps[i].button is None


def _split(w: World, preset: str, deck: str, done: list[str]) -> list[str]:
    """Give `deck` a preset of its own (a clone of its preset); return both presets' names. A deck already alone in
    its preset (the plan may name every deck of a two-deck preset) stays."""
    if w.decks_of(preset) == [deck]:
        done.append(f"{deck} already alone in {preset}")
        return [preset]
    new = f"{deck} preset" if f"{deck} preset" not in w.presets else f"{deck} own preset"
    old = w.presets[preset]
    w.presets[new] = Preset(list(old.params) if old.params else None, old.desired, old.ignore_before)
    w.deck_preset[deck] = new
    done.append(f"split {deck} into {new}")
    return [preset, new]


def listed_cards(w: World, d: Diagnosed) -> list[int]:
    """Return the indices of the cards the diagnosis lists as ones FSRS keeps getting wrong (both branches)."""
    index = d.written.index_of()
    return [index[c] for f in d.dg.by_id("cards") for a in f.actions for c in getattr(a, "card_ids", ()) if c in index]


def _cards_step(w: World, d: Diagnosed, target: str, v: Variant, done: list[str]) -> None:
    """Rewrite (a normal card, new again) or suspend the listed cards."""
    index = d.written.index_of()
    cards = [w.cards[index[int(c)]] for c in target.removeprefix("cid:").split(",") if c]
    planted = sum(1 for c in cards if c.factor != 1.0)
    for card in cards:
        if v.cards == "suspend":
            card.suspended = True
        else:
            reset(card, w.day)
    done.append(f"{v.cards} {len(cards)} cards ({planted} planted)")


def measure(w: World, start: int, end: int) -> dict[str, Any]:
    """Return phase 2's measures, overall and per deck: reviews, gap, true recall, desired retention, per day."""
    out: dict[str, Any] = {"all": _stats([m for m in w.measured], end - start)}
    out["all"]["desired"] = sorted({p.desired for p in w.presets.values()})
    out["late"] = _stats([m for m in w.measured if m.day >= start + LATER], end - start - LATER)
    out["last"] = _stats([m for m in w.measured if m.day >= start + 3 * LATER], end - start - 3 * LATER)
    listed = set(w.listed)
    out["listed"] = _stats([m for m in w.measured if m.card in listed], end - start)
    for deck, preset in w.deck_preset.items():
        out[deck] = _stats([m for m in w.measured if m.deck == deck], end - start)
        out[deck]["desired"] = w.presets[preset].desired
    out["params"] = {name: p.params for name, p in w.presets.items()}
    return out


def _stats(ms: list[Any], days: int) -> dict[str, Any]:
    if not ms:
        return {"reviews": 0, "gap": float("nan"), "r_true": float("nan"), "recalled": float("nan"), "per_day": 0.0}
    return {
        "reviews": len(ms),
        "gap": statistics.fmean(abs(m.r_sched - m.r_true) for m in ms),
        "bias": statistics.fmean(m.r_sched - m.r_true for m in ms),
        "r_true": statistics.fmean(m.r_true for m in ms),
        "recalled": statistics.fmean(m.recalled for m in ms),
        "per_day": len(ms) / days,
    }


# -- the learners -----------------------------------------------------------------------------------------------

# A learner FSRS's defaults do not describe: slower first memories, slower growth, a steeper curve.
SPREAD = Habits(late_share=0.4, early_share=0.2)  # reviews at many recall levels: each desired retention tested
OTHER = tuple(v * 0.4 if i < 4 else 1.6 if i == 8 else 0.3 if i == 20 else v for i, v in enumerate(DEFAULTS6))

SCENARIOS: dict[str, Scenario] = {
    s.name: s
    for s in (
        Scenario("defaults-true", optimized=False),  # 1a: on FSRS's defaults, which are the learner's memory
        Scenario("defaults-other", optimized=False, true_params=OTHER),  # 1b: on defaults, another memory
        Scenario("honest"),  # 2
        Scenario("hard-uniform", habits=Habits(hard_share=0.6)),  # 3
        Scenario("hard-tied", habits=Habits(hard_tied=0.8)),  # 4
        Scenario("again-uniform", decks=(Deck("Main", 400),), habits=Habits(again_share=0.15)),  # 5
        Scenario("again-tied", habits=Habits(again_tied=0.8)),  # 6
        Scenario("subdeck", decks=(Deck("Main", 600), Deck("Other", 400, factor=0.3))),  # 7
        Scenario("old-habits", decks=(Deck("Main", 1000),), old_habits=Habits(hard_share=0.6, again_share=0.2)),  # 8
        Scenario("late", habits=Habits(late_share=0.3)),  # 9
        Scenario(
            "retention-off", decks=(Deck("Main", 2000),), memory=Memory("sticky", 0.6), desired=0.8, habits=SPREAD
        ),
        Scenario(  # 10b: the same kind of memory on FSRS's defaults
            "retention-off-defaults",
            decks=(Deck("Main", 1500),),
            memory=Memory("sticky", 0.5),
            desired=0.8,
            habits=Habits(late_share=0.3, early_share=0.2),
            optimized=False,
        ),
        Scenario("exponential", memory=Memory("exponential")),  # 11
        Scenario("sticky", memory=Memory("sticky", 0.4)),  # 12
        Scenario(  # 13a: planted cards, the preset holding the true parameters (as test_cards_finding.py)
            "planted",
            decks=(Deck("Main", 1500, planted_share=0.05, planted_factor=0.2),),
            optimized=False,
            start=tuple(DEFAULTS6),
        ),
        Scenario("planted-optimized", decks=(Deck("Main", 1500, planted_share=0.05, planted_factor=0.2),)),  # 13b
    )
}


def variants(d: Diagnosed) -> list[Variant]:
    """Return the branches worth running for this plan: nothing, the plan, and its alternatives (optimizing at once
    or later when habits change first; suspending instead of rewriting the listed cards)."""
    actions = [s.action for p in d.dg.plan for s in p.steps]
    out = [NOTHING, PLAN]
    if any(s.action == "optimize" and "parameters" in s.because for p in d.dg.plan for s in p.steps):
        # Optimize asked for by the parameters finding: Optimize alone, for reference
        out.append(Variant("optimize-only", follow=False, optimize="only"))
    if "answer-buttons" in actions:
        waits = any(_later(p.steps, i) for p in d.dg.plan for i, s in enumerate(p.steps) if s.action == "optimize")
        out.append(
            Variant("plan-optimize-at-once", optimize="now") if waits else Variant("plan-later", optimize="later")
        )
    if "review-cards" in actions:
        out.append(Variant("plan-suspend", cards="suspend"))
    return out


def run_learner(s: Scenario, seed: int, workdir: str, again: int = 0) -> dict[str, Any]:
    """Run one learner's whole loop; return the diagnosis summary and every branch's measures (`again`: the plan
    and nothing once more with Optimize pressed again on that day of phase 2)."""
    import time

    began = time.perf_counter()
    world = phase1(s, seed, workdir)
    d = diagnosed(world, os.path.join(workdir, "diagnosis.anki2"))
    if not world.habits.misuse and any(st[1] == "answer-buttons" for st in d.summary["steps"]):
        d.summary["honest_now"] = "answer-buttons for a learner whose answers are honest now"
    chosen = variants(d)
    if again:
        chosen += [Variant(f"nothing+opt{again}", follow=False, again=again), Variant(f"plan+opt{again}", again=again)]
    branches = {v.name: run_branch(world, d, v, s, workdir) for v in chosen}
    return {
        "learner": s.name,
        "seed": seed,
        "phase1_reviews": sum(len(c.history) for c in world.cards),
        "diagnosis": d.summary,
        "branches": branches,
        "seconds": time.perf_counter() - began,
    }
