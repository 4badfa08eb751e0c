"""The words of the plan: one short sentence per step (at most one number), the line of a preset that needs
nothing, the scope's first line. Filled by metrics/jobs/diagnose/plan.py; the evidence stays in the findings.

Marked only (lang.N_): translated where they are filled or shown (lang._, lang.text), in the language in use
then. {optimize}, {desired_retention} and {ignore_before} are Anki's own words (lang.TERMS): fill with text().
"""

from __future__ import annotations

from dataclasses import dataclass

from ..kinds import Action, Reason, When
from . import formatting as fmt
from .lang import N_, _, n_

PLAN_TITLE = N_("What to do, in this order:")
FINDINGS_TITLE = N_("The checks behind it:")
PRESET_HEAD = N_('Preset "{preset}" ({reviews} reviews)')
PRESET_HEAD_RICH = N_('Preset <b>"{preset}"</b> ({reviews} reviews)')
PRESETS_HEAD = N_("Presets {presets} ({reviews} reviews)")  # a step or note they share, said once
PRESETS_HEAD_RICH = N_("Presets <b>{presets}</b> ({reviews} reviews)")
WHEN_HEADS = {
    When.NOW: N_("Now"),
    When.HABITS: N_("From your next review"),
    When.LATER: N_("In a month"),
    When.NOTES: N_("Notes"),
}  # a plan of several presets
FOR_PRESET = N_('Preset "{preset}": {said}')  # a line of a plan of several presets, naming its preset
FOR_PRESET_RICH = N_('Preset <b>"{preset}"</b>: {said}')
FOR_PRESETS = N_("Presets {presets}: {said}")  # a line several presets share, said once
FOR_PRESETS_RICH = N_("Presets <b>{presets}</b>: {said}")
QUOTED = N_('"{name}"')  # a preset's name in a list of them (Presets "A", "B")
NOTHING_FOR = N_("Nothing to change for {presets}.")  # the presets that need nothing, in one line
SAME_SCREEN = N_("{step} (in the same screen)")  # a step whose screen the step before opened
STEP = N_("{number}. {step} [{because}]")  # a numbered step, the findings behind it in brackets
WHY = N_("Why?")
NOTE = N_("Note: {note}")
WHY_AFTER = N_(
    "It follows from the steps before it ({because}): new answers, a new preset or fewer old reviews need "
    "parameters trained on them."
)
TIP_DECK_OPTIONS = N_('Anki\'s {deck_options} of preset "{preset}" ({optimize}, {desired_retention} …)')
TIP_SEARCH = N_("Anki search: {search}")
SCOPE_NOTHING = N_("Nothing to change: every check that the data can decide is fine.")
SCOPE_NOTES = N_("No setting to change; read the notes below.")
SCOPE_TOO_FEW = N_("Too few reviews for a plan ({reviews} scored; at least {needed} are needed).")
NOTE_LATE = N_("Recall fell below target because reviews came late: do reviews when they are due.")
NOTE_OVERRATES = N_(
    "FSRS expects more recall than you have, and re-optimizing would not change that: your intervals run a little long."
)
NOTE_RETENTION_OFF = N_(
    "Near your desired retention ({desired}), FSRS expected {predicted} recall and you recalled {measured}: the recall "
    "you get is not the one you set."
)
NOTE_RETENTION_AFTER = N_(
    "Near your desired retention ({desired}), FSRS expected {predicted} recall and you recalled {measured}: once you "
    "have optimized as the steps say, evaluate again to see what to do."
)
NOTE_CHECK_HARD = N_(
    "A habit only you can check (the reviews cannot show it): do you press Hard on cards you forgot? If so, press "
    "Again instead, and optimize again a month later."
)
NOTE_CHECK_AGAIN = N_(
    "A habit only you can check (the reviews cannot show it): do you press Again on cards you recalled? If so, press "
    "Hard or Good instead, and optimize again a month later."
)
NOTE_CHECK_BOTH = N_(
    "A habit only you can check (the reviews cannot show it): do you press Hard on cards you forgot, or Again on "
    "cards you recalled, even slowly? If so, press Again for every card you forgot and for no other, and optimize "
    "again a month later."
)
NOTE_CHECK_OPTIMIZE_NOW = N_(
    "{note} This does not change what to do now."
)  # a habit note beside a step to optimize now: the note does not hold the step up
PARAMETERS_AFTER_STEPS = N_(
    "Not on the reviews so far; but the steps above change what the parameters learn from: optimize after them, "
    "as the plan says."
)
NOTE_SCHEDULED = N_(
    "Recall is below target as FSRS predicted for when you reviewed: it will follow as new intervals come due."
)


@dataclass(frozen=True)
class ActionWords:
    """Everything said about one action: its name in a list of actions (Deck Options' line of the last diagnosis),
    and its step's sentence by the step's reasons — the entry whose reasons are the largest part of the step's
    (the first listed among equal ones)."""

    listed: str
    steps: tuple[tuple[frozenset[Reason], str], ...]

    def entry(self, reasons: frozenset[Reason]) -> tuple[frozenset[Reason], str]:
        """Return the entry of a step with these reasons: the reasons it speaks of, and its template (marked only:
        translate it with text())."""
        fitting = [(len(r), -i) for i, (r, _t) in enumerate(self.steps) if r <= reasons]
        return self.steps[-max(fitting)[1]] if fitting else self.steps[0]


def _of(*reasons: Reason) -> frozenset[Reason]:
    return frozenset(reasons)


R = Reason
LATER = N_("In a month, once your reviews are answered the new way: {optimize} in {deck_options} (not before).")
ACTION_WORDS = {
    Action.ANSWER_BUTTONS: ActionWords(
        N_("answer buttons"),
        (
            (_of(R.HARD), N_("From your next review, press Again, not Hard, whenever you have forgotten a card.")),
            (
                _of(R.AGAIN),
                N_("From your next review, press Again only when you have forgotten; for a shaky recall press Hard."),
            ),
            (
                _of(R.FLOOR),
                N_("From your next review, press Again only when you have forgotten; for a shaky recall press Hard."),
            ),
            (_of(R.HEALTH), N_("Check how you press Again and Hard: Anki's own health check did not pass.")),
            (
                _of(R.HARD, R.AGAIN),
                N_(
                    "From your next review, press Again exactly when you have forgotten: never Hard then, and never on "
                    "cards you remembered."
                ),
            ),
        ),
    ),
    Action.SPLIT_PRESET: ActionWords(
        N_("split the preset"),
        (
            (
                _of(R.DECK),
                N_(
                    'Give deck "{deck}" a preset of its own ({clone_preset} in its {deck_options}), '
                    "then optimize that preset: FSRS trained on this deck alone predicts it better."
                ),
            ),
        ),
    ),
    Action.IGNORE_BEFORE: ActionWords(
        N_("ignore old reviews"), ((_of(R.OLD_REVIEWS), N_('Set "{ignore_before}" to {date}.')),)
    ),
    Action.OPTIMIZE: ActionWords(
        N_("optimize"),
        (
            (_of(R.DEFAULTS), N_("{optimize}: this preset still uses FSRS's default parameters.")),
            (_of(R.HELPS), N_("{optimize} again: parameters trained on your own reviews would predict better.")),
            (_of(R.OVERRATES), N_("{optimize}: FSRS expects more recall than you have.")),
            (_of(R.AFTER_STEPS), N_('Then optimize preset "{preset}".')),
            (_of(R.AFTER_SPLIT), N_('Then optimize preset "{preset}" again, for the decks that keep it: {decks}.')),
            (_of(R.AFTER_HABITS), LATER),
            (_of(R.DEFAULTS, R.AFTER_HABITS), LATER),  # new answers first, whatever else asks for it
            (_of(R.HELPS, R.AFTER_HABITS), LATER),
            (_of(R.OVERRATES, R.AFTER_HABITS), LATER),
        ),
    ),
    Action.REVIEW_CARDS: ActionWords(
        N_("cards to look at"),
        ((_of(R.CARDS), N_("Look at the card FSRS keeps getting wrong: rewrite, split or suspend it.")),),
    ),
}


def cards(count: int) -> str:
    """Return the review-cards step for `count` cards, in the language in use."""
    if count == 1:
        return _(ACTION_WORDS[Action.REVIEW_CARDS].entry(frozenset({Reason.CARDS}))[1])
    many = n_(
        "Look at the {count} card FSRS keeps getting wrong: rewrite, split or suspend it.",
        "Look at the {count} cards FSRS keeps getting wrong: rewrite, split or suspend them.",
        count,
    )
    return many.format(count=fmt.count(count))
