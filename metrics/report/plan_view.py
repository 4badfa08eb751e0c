"""The plan as a learner reads it (the dialog's What to do and the command line's plain text): blocks in the order to
do them (steps for later after every step for now), steps numbered once across presets; a habit step or a note
several presets share said once, naming them; a step whose screen the step before opened already says so instead
of a second button; the presets that need nothing in one line. A plan of one preset (or of presets that share
everything) stands under that preset's heading; a plan of several is a to-do list in three parts — now, in a month,
notes — each line naming its presets, so that no preset's name heads several places (readers lost their way
between five headings for three presets). --json keeps the engine's plan per preset (jobs/diagnose/plan.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from ..kinds import Action, Note, NoteKind, When

if TYPE_CHECKING:  # no runtime import: the dialog's module loads this before the engine is needed
    from ..jobs.diagnose.plan import PresetPlan, Step


@dataclass(frozen=True)
class Numbered:
    """A step as shown: its number across the whole plan, and whether its screen is the one the step before opened
    (then it has no button of its own)."""

    number: int
    step: Step
    same_screen: bool = False
    aside: Note | None = None  # a note that qualifies this very step, shown with it (a habit to check beside Optimize)


@dataclass(frozen=True)
class Block:
    """Steps and notes for one preset, or for several that share them (`presets`, in plan order)."""

    presets: tuple[str, ...]
    reviews: int
    steps: list[Numbered] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    when: When | None = None  # in a plan of several presets, its part (each line then names the presets)
    opens: bool = False  # the first block of its part: the part's heading stands above it

    @property
    def shared(self) -> bool:
        return len(self.presets) > 1


@dataclass(frozen=True)
class PlanView:
    """The blocks in order, the presets with nothing to change, and the count of steps shown."""

    blocks: list[Block]
    nothing: list[str]

    @property
    def steps(self) -> int:
        return sum(len(b.steps) for b in self.blocks)

    @property
    def later(self) -> bool:
        """Return whether a step is for later (in a month)."""
        return any(x.step.later for b in self.blocks for x in b.steps)

    @property
    def first(self) -> Block | None:
        return next((b for b in self.blocks if b.steps), None)


def plan_view(plans: list[PresetPlan]) -> PlanView:
    """Return the plan as a learner reads it (see the module)."""
    shared_steps = _shared([(p.preset, s.text) for p in plans for s in p.steps if s.button is None])
    shared_notes = _shared([(p.preset, n.text) for p in plans for n in p.notes])
    blocks: list[Block] = []
    groups: dict[tuple[str, ...], tuple[list[Step], list[Note]]] = {}
    for p in plans:
        for s in p.steps:
            if s.text in shared_steps:
                groups.setdefault(shared_steps[s.text], ([], []))[0].append(s)
        for n in p.notes:
            if n.text in shared_notes:
                groups.setdefault(shared_notes[n.text], ([], []))[1].append(n)
    reviews = {p.preset: p.reviews for p in plans}
    for presets, (steps, notes) in groups.items():
        once_steps = list({s.text: s for s in steps}.values())
        once_notes = list({n.text: n for n in notes}.values())
        total = sum(reviews[name] for name in presets)
        blocks.append(Block(presets, total, _numbered(once_steps), once_notes))
    # shared habits first (every later step learns from the answers); notes shared without a step, last
    first, last = [b for b in blocks if b.steps], [b for b in blocks if not b.steps]
    own: list[Block] = []
    nothing = []
    for p in plans:
        steps = [s for s in p.steps if s.text not in shared_steps]
        notes = [n for n in p.notes if n.text not in shared_notes]
        if steps or notes:
            own.append(Block((p.preset,), p.reviews, _numbered(steps), notes))
        elif not any(p.preset in b.presets for b in blocks):
            nothing.append(p.preset)
    return PlanView(_renumbered(_parts(_asides(_later_last(first + own) + last))), nothing)


def _asides(blocks: list[Block]) -> list[Block]:
    """Return the blocks with a habit to check (a misuse the data cannot rule out) shown with the preset's step to
    optimize now, not among the notes: readers took it, apart, for a warning against that step ("optimize again a
    month later" beside "Optimize now")."""
    out = []
    for b in blocks:
        at = next((i for i, x in enumerate(b.steps) if x.step.action is Action.OPTIMIZE and not x.step.later), None)
        checks = [n for n in b.notes if n.kind is NoteKind.CHECK_HABITS]
        if at is None or not checks:
            out.append(b)
            continue
        steps = list(b.steps)
        steps[at] = replace(steps[at], aside=checks[0])
        out.append(replace(b, steps=steps, notes=[n for n in b.notes if n is not checks[0]]))
    return out


def _parts(blocks: list[Block]) -> list[Block]:
    """Return the blocks of a plan of several presets cut into its parts (now in Anki's screens, from the next review,
    in a month, notes), each block marked with its part; a plan under one heading (one preset, or presets that share
    everything) as it is. Readers hesitated over a habit numbered 1 above the one button they could press now."""
    if len({b.presets for b in blocks}) <= 1:
        return blocks

    def steps(when: When) -> list[Block]:
        return [Block(b.presets, b.reviews, [x for x in b.steps if _when(x) is when], when=when) for b in blocks]

    notes = [Block(b.presets, b.reviews, notes=b.notes, when=When.NOTES) for b in blocks]
    out: list[Block] = []
    for part in (steps(When.NOW), steps(When.HABITS), steps(When.LATER), notes):
        kept = [b for b in part if b.steps or b.notes]
        out += [replace(b, opens=i == 0) for i, b in enumerate(kept)]
    return out


def _when(shown: Numbered) -> When:
    """Return the part of a plan of several presets a step belongs to."""
    if shown.step.later:
        return When.LATER
    return When.HABITS if shown.step.action is Action.ANSWER_BUTTONS else When.NOW


def _later_last(blocks: list[Block]) -> list[Block]:
    """Return the blocks with their steps for later (in a month …) taken out into blocks of the same presets after
    every step for now, so that the steps read in the order of time; a preset's notes without a step of its own
    come after all steps."""
    now = [Block(b.presets, b.reviews, [x for x in b.steps if not x.step.later], b.notes) for b in blocks]
    later = [Block(b.presets, b.reviews, [x for x in b.steps if x.step.later]) for b in blocks]
    ordered = [b for b in now if b.steps] + [b for b in later if b.steps] + [b for b in now if b.notes and not b.steps]
    merged: list[Block] = []
    for b in ordered:  # one heading for a preset whose steps now and later stand together
        if merged and merged[-1].presets == b.presets:
            last = merged.pop()
            b = Block(b.presets, b.reviews, last.steps + b.steps, last.notes + b.notes)
        merged.append(b)
    return merged


def _shared(items: list[tuple[str, str]]) -> dict[str, tuple[str, ...]]:
    """Return each text several presets share, with those presets (in plan order)."""
    by_text: dict[str, list[str]] = {}
    for preset, said in items:
        if preset not in by_text.setdefault(said, []):
            by_text[said].append(preset)
    return {said: tuple(presets) for said, presets in by_text.items() if len(presets) > 1}


def _numbered(steps: list[Step]) -> list[Numbered]:
    """Return the steps, each marked when its screen is the one the step before it opened (numbered later)."""
    same = [i > 0 and s.button is not None and s.button == steps[i - 1].button for i, s in enumerate(steps)]
    return [Numbered(0, s, again) for s, again in zip(steps, same, strict=True)]


def _renumbered(blocks: list[Block]) -> list[Block]:
    """Return the blocks with their steps numbered 1, 2, 3 … in the order shown."""
    n = 0
    out = []
    for b in blocks:
        steps = []
        for x in b.steps:
            n += 1
            steps.append(replace(x, number=n))
        out.append(replace(b, steps=steps))
    return out


def joined(notes: list[Note]) -> str:
    """Return a preset's notes as one line: sentences after a space, but none after a full-width full stop (Chinese,
    Japanese: "…ください。目標…")."""
    out = ""
    for n in notes:
        out += ("" if not out or out.endswith(("。", "．", "！", "？")) else " ") + n.text
    return out
