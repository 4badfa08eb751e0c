"""From findings to a plan: per preset that needs action, the steps in the order to do them.

The decision table (ORDER, STEP_OF): a finding that asks for action becomes one step of its preset, each step
one action of a fixed vocabulary, in this order:

1. answer-buttons — habits first: every later training learns from these answers (hard-misuse, again-misuse,
   a retention FSRS cannot reach, Anki's health check not passed);
2. split-preset — structure: a deck that would do better with parameters of its own (decks, out of sample);
3. ignore-before — which reviews to learn from (ignore-before);
4. optimize — parameters (parameters: defaults or re-optimizing helps; retention below what FSRS predicted);
   after steps 1–3 there is always one: a split, an ignore date or new habits need new parameters;
5. desired-retention — judged with the parameters that will be used: when an optimize step comes first it
   says to check again after optimizing (desired-retention, only when the preset's own is not calibrated);
6. review-cards — the cards FSRS keeps getting wrong, by their preset (cards).

Findings that need no action, and the collection-wide calibration of decks, make no step; a retention below
target for reviews done late is a note (no setting of Anki fixes it). Presets come most reviews affected first;
a preset needing nothing is one line; the whole scope needing nothing is said first.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...explain import findings as fwords
from ...explain import formatting as fmt
from ...explain import plan as words
from ...explain.lang import _, text
from .context import Context
from .finding import Finding, Verdict

ORDER = ("answer-buttons", "split-preset", "ignore-before", "optimize", "desired-retention", "review-cards")
ACTING = (Verdict.PROBLEM, Verdict.SUGGESTION)


@dataclass(frozen=True)
class Step:
    """One thing to do in Anki: its action (ORDER), what it acts on, the findings behind it, one sentence, and
    the button that does it (an action of actions.py: Deck Options, the Browser; None for a habit)."""

    action: str
    target: str
    because: tuple[str, ...]
    text: str
    button: dict[str, Any] | None = None
    findings: tuple[Finding, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action, "target": self.target, "because": list(self.because), "text": self.text}


@dataclass(frozen=True)
class PresetPlan:
    """A preset's steps, in order, and its notes (what no setting fixes, and whether its last change helped)."""

    preset: str
    reviews: int
    steps: list[Step] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    affected: int = 0  # the most reviews one of its steps concerns (orders the presets)

    def to_dict(self) -> dict[str, Any]:
        return {
            "preset": self.preset,
            "reviews": self.reviews,
            "steps": [s.to_dict() for s in self.steps],
            "notes": list(self.notes),
        }


def make_plan(ctx: Context, findings: list[Finding]) -> list[PresetPlan]:
    """Return the plan of each preset of the scope, those needing action first (most reviews affected first)."""
    if not ctx.enough:
        return []
    plans = []
    for pid in ctx.scored.presets_by_size():
        name = ctx.preset_name(pid)
        mine = [f for f in findings if f.scope == fwords.preset_scope(name) or _deck_of(ctx, f) == pid]
        reviews = int(np.count_nonzero(ctx.scored.preset == pid))
        plans.append(_preset_plan(ctx, pid, name, reviews, mine, findings))
    plans.sort(key=lambda p: (not p.steps, -p.affected))
    return plans


def _deck_of(ctx: Context, f: Finding) -> int | None:
    """Return the preset of the deck a deck-scoped finding is about (None for other findings)."""
    if not f.scope.startswith('deck "'):
        return None
    name = f.scope[len('deck "') : -1]
    did = next((d for d, n in ctx.data.deck_names.items() if n == name), None)
    return None if did is None else ctx.data.deck_preset.get(did)


def _preset_plan(
    ctx: Context, pid: int, name: str, reviews: int, mine: list[Finding], everything: list[Finding]
) -> PresetPlan:
    acting = {f.id: f for f in mine if f.verdict in ACTING}
    steps: list[Step] = []
    notes: list[str] = []
    button = _button(mine)
    steps += _buttons_step(name, mine, acting)
    steps += [_split_step(f) for f in mine if f.id == "decks" and f.verdict in ACTING and f.scope.startswith("deck")]
    if "ignore-before" in acting:
        f = acting["ignore-before"]
        said = text(words.IGNORE, date=fmt.date(f.evidence.get("cutoff") or ""))
        steps.append(Step("ignore-before", name, ("ignore-before",), said, button, (f,)))
    steps += _optimize_step(name, acting, steps, button)
    steps += _retention_step(name, acting, steps, button)
    steps += _cards_step(ctx, pid, name, everything)
    notes += [f.summary for f in mine if f.id == "since-last"]  # did the preset's change help? (Deck Options' check)
    retention = next((f for f in mine if f.id == "retention"), None)
    if retention is not None and retention.evidence.get("cause") == "late":
        notes.append(_(words.NOTE_LATE))
    affected = max((f.reviews_affected for s in steps for f in s.findings), default=0)
    return PresetPlan(name, reviews, steps, notes, affected)


def _button(mine: list[Finding]) -> dict[str, Any] | None:
    """Return the preset's Deck Options action (from any of its findings that carries one)."""
    for f in mine:
        for a in f.actions:
            if a.get("kind") == "deck-options" and f.scope.startswith("preset"):
                return a
    return None


def _buttons_step(name: str, mine: list[Finding], acting: dict[str, Finding]) -> list[Step]:
    hard, again = acting.get("hard-misuse"), acting.get("again-misuse")
    health = next((f for f in mine if f.id == "anki-health-check" and f.verdict is Verdict.PROBLEM), None)
    retention = acting.get("retention")
    floor = retention if retention is not None and retention.evidence.get("cause") == "floor" else None
    behind = tuple(f for f in (hard, again, floor, health) if f is not None)
    if not behind:
        return []
    said = words.BOTH_BUTTONS if hard and again else words.HARD if hard else words.AGAIN if again else words.HEALTH
    return [Step("answer-buttons", name, tuple(f.id for f in behind), _(said), None, behind)]


def _split_step(f: Finding) -> Step:
    deck = f.scope[len('deck "') : -1]
    button = next((a for a in f.actions if a.get("kind") == "deck-options"), None)
    return Step("split-preset", deck, ("decks",), text(words.SPLIT, deck=fmt.name(deck)), button, (f,))


def _optimize_step(
    name: str, acting: dict[str, Finding], before: list[Step], button: dict[str, Any] | None
) -> list[Step]:
    """Return the optimize step: asked for by a finding, or needed after the steps before it."""
    parameters = acting.get("parameters")
    retention = acting.get("retention")
    overrates = retention if retention is not None and retention.evidence.get("cause") == "fsrs-overrates" else None
    behind = tuple(f for f in (parameters, overrates) if f is not None)
    earlier = [s for s in before if s.action != "answer-buttons"]
    if behind:
        defaults = parameters is not None and parameters.evidence.get("parameters") == 0
        said = words.OPTIMIZE_DEFAULTS if defaults else words.OPTIMIZE_AGAIN if parameters else words.OPTIMIZE_OVERRATES
        return [Step("optimize", name, tuple(f.id for f in behind), text(said), button, behind)]
    if earlier:
        because = tuple(dict.fromkeys(b for s in earlier for b in s.because))
        return [Step("optimize", name, because, _(words.OPTIMIZE_AFTER), button, ())]
    if before:  # new habits: their answers must build up before they can be learnt from
        return [Step("optimize", name, before[0].because, text(words.OPTIMIZE_LATER), button, ())]
    return []


def _retention_step(
    name: str, acting: dict[str, Finding], before: list[Step], button: dict[str, Any] | None
) -> list[Step]:
    f = acting.get("desired-retention")
    if f is None:
        return []
    desired = fmt.percent(float(f.evidence.get("desired", 0.9)), 0)
    after = any(s.action == "optimize" for s in before)
    said = text(words.RETENTION_AFTER if after else words.RETENTION_UNTRUSTED, desired=desired)
    return [Step("desired-retention", name, ("desired-retention",), said, button, (f,))]


def _cards_step(ctx: Context, pid: int, name: str, everything: list[Finding]) -> list[Step]:
    """Return the review-cards step of this preset: the listed cards FSRS keeps getting wrong that are its."""
    f = next((x for x in everything if x.id == "cards" and x.verdict in ACTING), None)
    if f is None or not f.actions:
        return []
    search = str(f.actions[0].get("search", ""))
    ids = np.array([int(c) for c in search.removeprefix("cid:").split(",") if c], dtype=np.int64)
    at = np.searchsorted(ctx.data.card_ids, ids)
    at = np.minimum(at, max(0, ctx.data.card_ids.size - 1))
    own = ids[(ctx.data.card_ids[at] == ids) & (ctx.card_preset[at] == pid)]
    if not own.size:
        return []
    browse = {"kind": "browse", "search": "cid:" + ",".join(str(int(c)) for c in own)}
    return [Step("review-cards", browse["search"], ("cards",), words.cards(int(own.size)), browse, (f,))]


def first_line(plans: list[PresetPlan], reviews: int, needed: int) -> str:
    """Return the plan's first line when it has no step: nothing to change, or too few reviews."""
    if reviews < needed:
        return text(words.SCOPE_TOO_FEW, reviews=fmt.count(reviews), needed=fmt.count(needed))
    return "" if any(p.steps for p in plans) else _(words.SCOPE_NOTHING)
