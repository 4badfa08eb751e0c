"""The plan's decision table: one row per action, in the order a plan does them. A row says which findings ask for
its action and why (its reasons choose the step's sentence: explain/plan.py ACTION_WORDS), what earlier steps ask for
it too, what a step acts on and which of Anki's screens its button opens. plan.py reads it; a new action is a row
here and an entry there.

1. answer-buttons — habits first: every later training learns from these answers;
2. split-preset — structure: a deck that would do better with parameters of its own (one step per deck);
3. ignore-before — which reviews to learn from;
4. optimize — the parameters; after a split or an ignore date, and after new habits (once their answers have built
   up), there is always one;
5. review-cards — what remains is the cards themselves (the listed cards of this preset).

The desired retention has no step: on simulated learners no change of it made their next months better (the
closed loop, tests/loop); FSRS off at the preset's own is a note (plan.py), as is a retention below target that
re-optimizing would not close, and a misuse of Hard or Again the data cannot rule out (how to check it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from ...kinds import Action, FindingId, Reason, ScopeKind, Verdict
from .finding import ACTING


@dataclass(frozen=True)
class Trigger:
    """A finding of the preset (or of one of its decks, or of the whole scope) that asks for the row's action, with
    the reason it gives; `cause` and `defaults` narrow it to findings whose evidence says so."""

    finding: FindingId
    reason: Reason
    verdicts: tuple[Verdict, ...] = ACTING
    scope: ScopeKind = ScopeKind.PRESET
    cause: str | None = None  # the retention finding's evidence "cause"
    defaults: bool | None = None  # the parameters finding: the preset still on FSRS's defaults (True) or not


class Each(Enum):
    """How many steps a row makes for a preset."""

    PRESET = "one step for the preset, whatever asked for it"
    FINDING = "one step per finding that asks (a deck to split)"
    CARDS = "one step for the preset's own listed cards"


class Button(Enum):
    """Which of Anki's screens a step's button opens."""

    NONE = "no button: a habit"
    PRESET_OPTIONS = "Deck Options of a deck of the preset"
    FINDING_OPTIONS = "Deck Options of the finding's deck"
    CARDS = "the Browser on the step's cards"


@dataclass(frozen=True)
class Row:
    """One action of the plan: what asks for it, and what its step acts on. `after`: earlier steps of these actions
    give it a reason too; `alone`: those reasons make a step without any finding asking."""

    action: Action
    triggers: tuple[Trigger, ...]
    button: Button = Button.PRESET_OPTIONS
    each: Each = Each.PRESET
    after: dict[Action, Reason] = field(default_factory=dict)
    alone: bool = False
    leave_one: bool = False  # one step per finding, but never for every deck of the preset: one keeps it


F, R = FindingId, Reason
ROWS = (
    Row(
        Action.ANSWER_BUTTONS,
        (
            Trigger(F.HARD_MISUSE, R.HARD),
            Trigger(F.AGAIN_MISUSE, R.AGAIN),
            Trigger(F.RETENTION, R.FLOOR, cause="floor"),
            Trigger(F.ANKI_HEALTH_CHECK, R.HEALTH, verdicts=(Verdict.PROBLEM,)),
        ),
        button=Button.NONE,
    ),
    Row(
        Action.SPLIT_PRESET,
        (Trigger(F.DECKS, R.DECK, scope=ScopeKind.DECK),),
        button=Button.FINDING_OPTIONS,
        each=Each.FINDING,
        leave_one=True,
    ),
    Row(Action.IGNORE_BEFORE, (Trigger(F.IGNORE_BEFORE, R.OLD_REVIEWS),)),
    Row(
        Action.OPTIMIZE,
        (
            Trigger(F.PARAMETERS, R.DEFAULTS, defaults=True),
            Trigger(F.PARAMETERS, R.HELPS, defaults=False),
            Trigger(F.RETENTION, R.OVERRATES, cause="fsrs-overrates"),
        ),
        after={
            Action.SPLIT_PRESET: R.AFTER_STEPS,
            Action.IGNORE_BEFORE: R.AFTER_STEPS,
            Action.ANSWER_BUTTONS: R.AFTER_HABITS,
        },
        alone=True,
    ),
    Row(
        Action.REVIEW_CARDS,
        (Trigger(F.CARDS, R.CARDS, scope=ScopeKind.COLLECTION),),
        button=Button.CARDS,
        each=Each.CARDS,
    ),
)
