"""The ids and kinds that cross the engine's layers, its words and the dialog: what a finding is about (FindingId,
Scope), its verdict, a plan's actions, and what a learner does in Anki (DeckOptions, Browse, Evaluate).

Standard library only: the wording (explain/), the engine (jobs/) and the dialog (ui/) all import it. Each enum's
value is the name `diagnose --json` writes; everything said about a member is one entry of a table keyed by it
(explain/findings.py FINDING_TITLES, explain/plan.py ACTION_WORDS).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import ClassVar


class FindingId(StrEnum):
    """What a finding checks (fixed: scripts and other add-ons rely on these names)."""

    DATA = "data"
    ANKI_HEALTH_CHECK = "anki-health-check"
    PARAMETERS = "parameters"
    HARD_MISUSE = "hard-misuse"
    AGAIN_MISUSE = "again-misuse"
    RETENTION = "retention"
    DESIRED_RETENTION = "desired-retention"
    IGNORE_BEFORE = "ignore-before"
    DECKS = "decks"
    CARDS = "cards"
    BENCHMARK_STANDING = "benchmark-standing"
    SINCE_LAST = "since-last"


class Verdict(StrEnum):
    """A finding's verdict; its value is what JSON and the report show ("not-enough-data")."""

    PROBLEM = "problem"
    SUGGESTION = "suggestion"
    NOT_ENOUGH_DATA = "not-enough-data"
    OK = "ok"

    @property
    def rank(self) -> int:
        """Return the verdict's place in the list of findings: problems first, then suggestions, …, ok last."""
        return _RANKS[self]

    @property
    def acting(self) -> bool:
        """Return whether the verdict asks for action (a problem or a suggestion)."""
        return self in (Verdict.PROBLEM, Verdict.SUGGESTION)


_RANKS = {Verdict.PROBLEM: 0, Verdict.SUGGESTION: 1, Verdict.NOT_ENOUGH_DATA: 2, Verdict.OK: 3}


class Action(StrEnum):
    """One kind of step of a plan, in the order a plan does them (plan_table.py: one row each)."""

    ANSWER_BUTTONS = "answer-buttons"
    SPLIT_PRESET = "split-preset"
    IGNORE_BEFORE = "ignore-before"
    OPTIMIZE = "optimize"
    REVIEW_CARDS = "review-cards"


class Reason(StrEnum):
    """Why a step is planned: the sentence of the step is chosen by its reasons (explain/plan.py ACTION_WORDS)."""

    HARD = "hard"  # Hard pressed on forgotten cards
    AGAIN = "again"  # Again pressed on remembered cards
    FLOOR = "floor"  # a retention FSRS cannot reach (Again on remembered cards, absorbed by the optimizer)
    HEALTH = "health"  # Anki's own health check did not pass
    DECK = "deck"  # a deck would do better on parameters of its own
    OLD_REVIEWS = "old-reviews"  # old reviews mislead FSRS
    DEFAULTS = "defaults"  # the preset still runs on FSRS's defaults
    HELPS = "helps"  # parameters trained on the learner's own reviews would predict better
    OVERRATES = "overrates"  # FSRS expects more recall than the learner has
    AFTER_STEPS = "after-steps"  # an ignore date before it needs new parameters
    AFTER_SPLIT = "after-split"  # a deck split off before it: the decks that keep the preset need new parameters
    AFTER_HABITS = "after-habits"  # new answers before it must build up first
    CARDS = "cards"  # cards FSRS keeps getting wrong


class NoteKind(StrEnum):
    """What a note of a preset's plan says (no step: what no setting fixes, or what the learner checks)."""

    SINCE_LAST = "since-last"  # whether the preset's last change helped
    LATE = "late"  # recall below target because reviews came late
    OVERRATES = "overrates"  # FSRS expects more recall than the learner has; re-optimizing would not close it
    RETENTION_OFF = "retention-off"  # FSRS is off at the preset's desired retention
    CHECK_HABITS = "check-habits"  # a misuse of Hard or Again the data cannot rule out: how to check it


class When(Enum):
    """A part of a plan of several presets as the learner reads it (report/plan_view.py): its heading says when its
    lines apply."""

    NOW = "now"  # steps done in Anki's screens now
    HABITS = "habits"  # how to answer, from the next review on
    LATER = "later"
    NOTES = "notes"


@dataclass(frozen=True)
class Note:
    """A line of a preset's plan that is no step (--json writes its text)."""

    kind: NoteKind
    text: str

    def __str__(self) -> str:
        return self.text


class ScopeKind(StrEnum):
    """What a finding is about: the whole scope, one preset, or one deck."""

    COLLECTION = "collection"
    PRESET = "preset"
    DECK = "deck"


@dataclass(frozen=True)
class Scope:
    """What a finding is about: its kind, and the preset's or deck's name and id (0 for the collection). Its `key`
    is how --json names it ('preset "Japanese"', 'deck "Japanese::Kanji"', "collection"): written, never read back."""

    kind: ScopeKind
    name: str = ""
    id: int = 0

    @classmethod
    def collection(cls) -> Scope:
        return cls(ScopeKind.COLLECTION)

    @classmethod
    def preset(cls, name: str, preset_id: int = 0) -> Scope:
        return cls(ScopeKind.PRESET, name, preset_id)

    @classmethod
    def deck(cls, name: str, deck_id: int = 0) -> Scope:
        return cls(ScopeKind.DECK, name, deck_id)

    @property
    def key(self) -> str:
        """Return the scope as --json writes it (English, the name in quotes)."""
        return str(self.kind) if self.kind is ScopeKind.COLLECTION else f'{self.kind} "{self.name}"'


@dataclass(frozen=True)
class DeckOptions:
    """Anki's Deck Options of a deck using a preset (Optimize, desired retention, "Ignore cards reviewed before")."""

    preset: str
    deck_id: int
    deck: str = ""  # the deck's name when the action is about that deck (a split), not its preset (not written)
    kind: ClassVar[str] = "deck-options"

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "preset": self.preset, "deck_id": self.deck_id}


@dataclass(frozen=True)
class Browse:
    """Anki's Browser on exactly these cards: a deck's (`did:ID`, its cards in filtered decks included) or a list
    (`cid:…`, from `cards`)."""

    search: str
    card_ids: tuple[int, ...] = ()  # the cards of a `cid:` search (not written: the search holds them)
    name: str = ""  # the deck's name of a `did:` search (not written)
    kind: ClassVar[str] = "browse"

    @classmethod
    def cards(cls, card_ids: tuple[int, ...]) -> Browse:
        return cls("cid:" + ",".join(str(c) for c in card_ids), card_ids)

    @classmethod
    def deck(cls, deck_id: int, name: str = "") -> Browse:
        return cls(f"did:{deck_id}", name=name)

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "search": self.search}


@dataclass(frozen=True)
class Evaluate:
    """An evaluation of these cards in the add-on's dialog."""

    search: str
    name: str = ""  # the deck's name of a `did:` search (not written)
    kind: ClassVar[str] = "evaluate"

    @classmethod
    def deck(cls, deck_id: int, name: str = "") -> Evaluate:
        return cls(f"did:{deck_id}", name)

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "search": self.search}


AnkiAction = DeckOptions | Browse | Evaluate

# The models a comparison can score, by id, in the order of its table; the baselines have no memory model of a card.
MODELS = ("fsrs-preset", "fsrs-default", "fsrs-out-of-sample", "sm2", "anki-interval", "avg", "moving-avg")
BASELINES = ("avg", "moving-avg", "sm2", "anki-interval")


class Step(Enum):
    """A step of a job that is worth telling the user about (explain/progress.py words each one)."""

    PRESETS = "presets"  # FSRS with the presets' parameters
    GIVEN_PARAMS = "given-params"  # FSRS with the parameters given (--params)
    DEFAULTS = "defaults"  # FSRS with the default parameters
    SM2 = "sm2"
    MOVING_AVG = "moving-avg"
    TRAINING = "training"  # the out-of-sample folds' trainings start
    TRAINING_FIRST = "training-first"  # a large collection: every fold trained first, one at a time
    TRAINED_PART = "trained-part"  # one fold's trained FSRS predicts its test part (part of parts)


@dataclass(frozen=True)
class Progress:
    """What a job is doing now: a step, and for a step repeated per part, which part of how many (from 1)."""

    step: Step
    part: int = 0
    parts: int = 0


ProgressCallback = Callable[[Progress], None]
