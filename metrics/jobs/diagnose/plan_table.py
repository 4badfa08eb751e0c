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

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum

from ...kinds import Action, FindingId, Reason, ScopeKind, Verdict
from .evidence import Evidence
from .finding import ACTING, Finding
from .parameters_defaults import ParametersEvidence
from .retention import Cause, RetentionEvidence


@dataclass(frozen=True)
class Trigger:
    """A finding of the preset (or of one of its decks, or of the whole scope) that asks for the row's action, with
    the reason it gives; `when` narrows it to findings whose evidence says so."""

    finding: FindingId
    reason: Reason
    verdicts: tuple[Verdict, ...] = ACTING
    scope: ScopeKind = ScopeKind.PRESET
    when: Callable[[Evidence], bool] | None = None

    def asks(self, f: Finding) -> bool:
        """Return whether a finding asks for the row's action through this trigger."""
        if f.id is not self.finding or f.verdict not in self.verdicts or f.scope.kind is not self.scope:
            return False
        return self.when is None or self.when(f.evidence)


def cause_is(cause: Cause) -> Callable[[Evidence], bool]:
    """Return the test of a retention finding's cause."""
    return lambda e: isinstance(e, RetentionEvidence) and e.cause == cause


def on_defaults(defaults: bool) -> Callable[[Evidence], bool]:
    """Return the test of a parameters finding: the preset still on FSRS's defaults (True), or trained (False)."""
    return lambda e: (
        isinstance(e, ParametersEvidence) and e.defaults
        if defaults
        else not isinstance(e, ParametersEvidence) or not e.defaults
    )


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
    FINDING_BROWSE = "the Browser on the finding's cards"
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
    later: Reason | None = None  # a step with this reason is for later: no button now (its sentence says when)
    leave_one: bool = False  # one step per finding, but never for every deck of the preset: one keeps it


F, R = FindingId, Reason
ROWS = (
    Row(
        Action.ANSWER_BUTTONS,
        (
            Trigger(F.HARD_MISUSE, R.HARD),
            Trigger(F.AGAIN_MISUSE, R.AGAIN),
            Trigger(F.RETENTION, R.FLOOR, when=cause_is(Cause.FLOOR)),
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
            Trigger(F.PARAMETERS, R.DEFAULTS, when=on_defaults(True)),
            Trigger(F.PARAMETERS, R.HELPS, when=on_defaults(False)),
            Trigger(F.RETENTION, R.OVERRATES, when=cause_is(Cause.FSRS_OVERRATES)),
        ),
        after={
            Action.SPLIT_PRESET: R.AFTER_SPLIT,
            Action.IGNORE_BEFORE: R.AFTER_STEPS,
            Action.ANSWER_BUTTONS: R.AFTER_HABITS,
        },
        alone=True,
        later=R.AFTER_HABITS,  # the new answers must build up first: optimizing at once was worse (the loop)
    ),
    Row(
        Action.REVIEW_CARDS,
        (Trigger(F.CARDS, R.CARDS, scope=ScopeKind.COLLECTION),),
        button=Button.CARDS,
        each=Each.CARDS,
    ),
)
