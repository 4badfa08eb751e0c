"""From findings to a plan: per preset that needs action, the steps in the order to do them, as the decision table
says (plan_table.py ROWS: one row per action, in order), and its notes: what no setting fixes (reviews done late, a
gap re-optimizing would not close), FSRS off at the desired retention, and a misuse of Hard or Again the data cannot
rule out (how to check it). Findings that need no action make no step. No step stands beside a passed check that
says the opposite: a retention gap re-optimizing would not close is a note (retention.py), and a parameters check
that passed says, beside an optimize step the steps before it ask for, why both hold (`agreeing`). Presets come
most reviews affected first; a preset needing nothing is one line; the whole scope needing nothing is said first.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from ...explain import formatting as fmt
from ...explain import plan as words
from ...explain.lang import _, text
from ...kinds import Action, AnkiAction, Browse, DeckOptions, FindingId, Note, Reason, ScopeKind, Verdict
from ...kinds import NoteKind as K
from .actions import deck_options, keeping
from .again_misuse import AgainEvidence
from .context import Context
from .desired_retention import RetentionCandidates
from .finding import Finding
from .hard_misuse import HardEvidence
from .ignore_before import IgnoreEvidence
from .plan_table import ROWS, Button, Each, Row, Trigger
from .retention import Cause, RetentionEvidence

KEPT_NAMED = 3  # decks named in the step that optimizes a preset after a split (the rest: …)


@dataclass(frozen=True)
class Step:
    """One thing to do in Anki: its action, what it acts on (a preset's or deck's name, or a `cid:` search), the
    findings behind it, one sentence, and the button that does it (None for a habit)."""

    action: Action
    target: str
    because: tuple[FindingId, ...]
    text: str
    button: AnkiAction | None = None
    findings: tuple[Finding, ...] = ()
    later: bool = False  # a step for later (its sentence says when; no button): shown after the steps for now

    def to_dict(self) -> dict[str, Any]:
        return {
            "action": str(self.action),
            "target": self.target,
            "because": [str(b) for b in self.because],
            "text": self.text,
        }


@dataclass(frozen=True)
class PresetPlan:
    """A preset's steps, in order, and its notes (what no setting fixes, and whether its last change helped)."""

    preset: str
    reviews: int
    steps: list[Step] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    affected: int = 0  # the most reviews one of its steps concerns (orders the presets)

    def to_dict(self) -> dict[str, Any]:
        return {
            "preset": self.preset,
            "reviews": self.reviews,
            "steps": [s.to_dict() for s in self.steps],
            "notes": [n.text for n in self.notes],
        }


@dataclass(frozen=True)
class Preset:
    """What one preset's plan is made from: its findings and those of its decks (`mine`), and the scope's."""

    id: int
    name: str
    mine: list[Finding]
    everything: list[Finding]

    def asking(self, trigger: Trigger) -> list[Finding]:
        """Return the findings that ask for a row's action through `trigger`."""
        pool = self.everything if trigger.scope is ScopeKind.COLLECTION else self.mine
        return [f for f in pool if trigger.asks(f)]


def make_plan(ctx: Context, findings: list[Finding]) -> list[PresetPlan]:
    """Return the plan of each preset of the scope, those needing action first (most reviews affected first)."""
    if not ctx.enough:
        return []
    plans = []
    for pid in ctx.scored.presets_by_size():
        name = ctx.preset_name(pid)
        mine = [f for f in findings if _of_preset(ctx, f, pid)]
        reviews = int(np.count_nonzero(ctx.scored.preset == pid))
        plans.append(_preset_plan(ctx, Preset(pid, name, mine, findings), reviews))
    plans.sort(key=lambda p: (not p.steps, -p.affected))
    return plans


def _of_preset(ctx: Context, f: Finding, pid: int) -> bool:
    """Return whether a finding is about this preset, or about one of its decks."""
    if f.scope.kind is ScopeKind.PRESET:
        return f.scope.id == pid
    return f.scope.kind is ScopeKind.DECK and ctx.data.deck_preset.get(f.scope.id) == pid


def _preset_plan(ctx: Context, preset: Preset, reviews: int) -> PresetPlan:
    steps: list[Step] = []
    for row in ROWS:
        steps += _steps(ctx, row, preset, steps)
    affected = max((f.reviews_affected for s in steps for f in s.findings), default=0)
    return PresetPlan(preset.name, reviews, steps, _notes(preset, steps), affected)


def _notes(preset: Preset, steps: list[Step]) -> list[Note]:
    """Return a preset's notes: whether its last change helped, what no setting fixes, FSRS off at its desired
    retention, and a misuse of Hard or Again the data cannot rule out."""
    notes = [Note(K.SINCE_LAST, f.summary) for f in preset.mine if f.id is FindingId.SINCE_LAST]  # did it help?
    retention = _own(preset, FindingId.RETENTION)
    cause = (
        retention.evidence.cause
        if retention is not None and isinstance(retention.evidence, RetentionEvidence)
        else None
    )
    if cause is Cause.LATE:
        notes.append(Note(K.LATE, _(words.NOTE_LATE)))
    if cause is Cause.FSRS_OVERRATES and retention is not None and retention.verdict is Verdict.OK:
        notes.append(Note(K.OVERRATES, _(words.NOTE_OVERRATES)))
    off = _own(preset, FindingId.DESIRED_RETENTION)
    if off is not None and off.verdict is Verdict.SUGGESTION and isinstance(off.evidence, RetentionCandidates):
        after = any(s.action is Action.OPTIMIZE for s in steps)
        ev = off.evidence
        here = min(ev.candidates, key=lambda c: abs(c.retention - ev.desired))  # the finding's own (off there)
        values = {"predicted": fmt.percent(here.predicted, 1), "measured": fmt.percent(here.measured, 1)}
        said = text(
            words.NOTE_RETENTION_AFTER if after else words.NOTE_RETENTION_OFF,
            desired=fmt.percent(ev.desired, 0),
            **values,
        )
        notes.append(Note(K.RETENTION_OFF, said))
    return notes + _habit_notes(preset, steps)


def _own(preset: Preset, finding: FindingId) -> Finding | None:
    """Return the preset's own finding of this id (not one of its decks')."""
    return next((f for f in preset.mine if f.id is finding and f.scope.kind is ScopeKind.PRESET), None)


def _habit_notes(preset: Preset, steps: list[Step]) -> list[Note]:
    """Return the note of a misuse the data cannot rule out (none when the plan's first step is the buttons)."""
    if any(s.action is Action.ANSWER_BUTTONS for s in steps):
        return []
    misuse = (FindingId.HARD_MISUSE, FindingId.AGAIN_MISUSE)
    undecided = {  # judged, and undecided: not merely too few reviews after the answer
        f.id
        for f in preset.mine
        if f.id in misuse
        and f.verdict is Verdict.NOT_ENOUGH_DATA
        and isinstance(f.evidence, HardEvidence | AgainEvidence)
    }
    if not undecided:
        return []
    both = undecided >= {FindingId.HARD_MISUSE, FindingId.AGAIN_MISUSE}
    said = words.NOTE_CHECK_BOTH if both else words.NOTE_CHECK_HARD if FindingId.HARD_MISUSE in undecided else None
    note = _(said or words.NOTE_CHECK_AGAIN)
    if any(s.action is Action.OPTIMIZE and not s.later for s in steps):
        note = text(words.NOTE_CHECK_OPTIMIZE_NOW, note=note)
    return [Note(K.CHECK_HABITS, note)]


def _steps(ctx: Context, row: Row, preset: Preset, before: list[Step]) -> list[Step]:
    """Return the steps a row makes for a preset, after the steps `before` it."""
    asked = [(t.reason, f) for t in row.triggers for f in preset.asking(t)]
    after = {row.after[s.action]: s for s in before if s.action in row.after}
    if row.each is Each.FINDING:
        return [_step(ctx, row, preset, [(r, f)], after) for r, f in _left_one(ctx, row, preset, asked)]
    if row.each is Each.CARDS:
        return _cards_steps(ctx, row, preset, asked)
    if asked or (row.alone and after):
        return [_step(ctx, row, preset, asked, after)]
    return []


def _left_one(
    ctx: Context, row: Row, preset: Preset, asked: list[tuple[Reason, Finding]]
) -> list[tuple[Reason, Finding]]:
    """Return the findings a row makes a step of, each deck once — but when every deck of the preset with scored
    reviews asks (two decks that would each do better alone), the largest keeps the preset: no step for it."""
    if not row.leave_one or not asked:
        return asked
    decks = ctx.scored.deck[ctx.scored.preset == preset.id]
    ids, counts = np.unique(decks, return_counts=True)
    if {f.scope.id for _r, f in asked} != set(ids.tolist()):
        return asked
    largest = int(ids[np.argmax(counts)])
    return [(r, f) for r, f in asked if f.scope.id != largest]


def _step(
    ctx: Context, row: Row, preset: Preset, asked: list[tuple[Reason, Finding]], after: dict[Reason, Step]
) -> Step:
    """Return one step: its sentence chosen by its reasons, the findings behind it (or the earlier steps it
    follows from, when no finding asked), its target and its button."""
    reasons = frozenset(r for r, _f in asked) | frozenset(after)
    chosen, template = words.ACTION_WORDS[row.action].entry(reasons)
    behind = tuple({id(f): f for _r, f in asked}.values())  # each finding once (a finding is no dict key)
    if behind:
        because = tuple(dict.fromkeys(f.id for f in behind))
    else:  # it follows from the steps before it: theirs
        because = tuple(dict.fromkeys(b for r, s in after.items() if r in chosen for b in s.because))
    deck = behind[0].scope.name if row.each is Each.FINDING else preset.name
    leaving = frozenset(s.button.deck_id for s in after.values() if isinstance(s.button, DeckOptions) and s.button.deck)
    values = _values(behind) | ({"decks": _kept(ctx, preset.name, leaving)} if Reason.AFTER_SPLIT in chosen else {})
    said = text(template, deck=fmt.name(deck), preset=fmt.name(preset.name), **values)
    later = row.later is not None and row.later in chosen
    button = None if later else _button(ctx, row, preset, behind, leaving)
    return Step(row.action, deck, because, said, button, behind, later)


def _kept(ctx: Context, preset: str, leaving: frozenset[int]) -> str:
    """Return the decks that keep a preset after a split, named (the three with the most reviews, then "…")."""
    decks = keeping(ctx, preset, leaving)
    names = [text(words.QUOTED, name=fmt.name(ctx.data.deck_names.get(d, str(d)))) for d in decks[:KEPT_NAMED]]
    return fmt.listed(names + ["…"] if len(decks) > KEPT_NAMED else names)


def _values(behind: tuple[Finding, ...]) -> dict[str, str]:
    """Return the numbers a step's sentence may name, from the findings behind it."""
    values: dict[str, str] = {}
    for f in behind:
        if isinstance(f.evidence, IgnoreEvidence):
            values["date"] = fmt.date(f.evidence.cutoff or "")
    return values


def _button(
    ctx: Context, row: Row, preset: Preset, behind: tuple[Finding, ...], leaving: frozenset[int] = frozenset()
) -> AnkiAction | None:
    if row.button is Button.PRESET_OPTIONS:
        return deck_options(ctx, preset.name, leaving)  # never a deck an earlier step splits off
    if row.button is Button.FINDING_BROWSE:
        return next((a for f in behind for a in f.actions if isinstance(a, Browse)), None)
    if row.button is Button.FINDING_OPTIONS:
        return next((a for f in behind for a in f.actions if isinstance(a, DeckOptions)), None)
    return None


def _cards_steps(ctx: Context, row: Row, preset: Preset, asked: list[tuple[Reason, Finding]]) -> list[Step]:
    """Return the step of the listed cards FSRS keeps getting wrong that are this preset's (none when none are)."""
    listed = [(f, a) for _r, f in asked for a in f.actions if isinstance(a, Browse) and a.card_ids]
    if not listed:
        return []
    f, browse = listed[0]
    ids = np.asarray(browse.card_ids, dtype=np.int64)
    at = np.minimum(np.searchsorted(ctx.data.card_ids, ids), max(0, ctx.data.card_ids.size - 1))
    own = ids[(ctx.data.card_ids[at] == ids) & (ctx.card_preset[at] == preset.id)]
    if not own.size:
        return []
    mine = Browse.cards(tuple(int(c) for c in own))
    return [Step(row.action, mine.search, (f.id,), words.cards(int(own.size)), mine, (f,))]


def agreeing(findings: list[Finding], plans: list[PresetPlan]) -> list[Finding]:
    """Return the findings, a passed parameters check of a preset whose plan optimizes after other steps saying why
    both hold (re-optimizing on the reviews so far would not help; the steps change what the parameters learn from)."""
    after = {
        p.preset
        for p in plans
        for s in p.steps
        if s.action is Action.OPTIMIZE and not s.findings  # asked for by the steps before it
    }
    return [
        replace(f, action=_(words.PARAMETERS_AFTER_STEPS))
        if f.id is FindingId.PARAMETERS
        and f.verdict is Verdict.OK
        and f.scope.name in after
        and f.scope.kind is ScopeKind.PRESET
        else f
        for f in findings
    ]


def first_line(plans: list[PresetPlan], reviews: int, needed: int) -> str:
    """Return the plan's first line when it has no step: too few reviews, notes to read, or nothing to change."""
    if reviews < needed:
        return text(words.SCOPE_TOO_FEW, reviews=fmt.count(reviews), needed=fmt.count(needed))
    if any(p.steps for p in plans):
        return ""
    return _(words.SCOPE_NOTES) if any(p.notes for p in plans) else _(words.SCOPE_NOTHING)
