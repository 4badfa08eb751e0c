"""The words of the plan: one short sentence per step (at most one number), the line of a preset that needs
nothing, the scope's first line. Filled by metrics/jobs/diagnose/plan.py; the evidence stays in the findings.

Marked only (lang.N_): translated where they are filled or shown (lang._, lang.text), in the language in use
then. {optimize}, {desired_retention} and {ignore_before} are Anki's own words (lang.TERMS): fill with text().
"""

from __future__ import annotations

from . import formatting as fmt
from .lang import N_, _, n_

HARD = N_("Press Again, not Hard, whenever you have forgotten a card.")
AGAIN = N_("Press Again only when you have forgotten; for a shaky recall press Hard.")
BOTH_BUTTONS = N_("Press Again exactly when you have forgotten: never Hard then, and never on cards you remembered.")
HEALTH = N_("Check how you press Again and Hard: Anki's own health check did not pass.")
SPLIT = N_('Give deck "{deck}" a preset of its own, then optimize that preset.')
IGNORE = N_('Set "{ignore_before}" to {date}.')
OPTIMIZE_DEFAULTS = N_("{optimize}: this preset still uses FSRS's default parameters.")
OPTIMIZE_AGAIN = N_("{optimize} again: parameters trained on your own reviews would predict better.")
OPTIMIZE_OVERRATES = N_("{optimize}: FSRS expects more recall than you have.")
OPTIMIZE_AFTER = N_("Then optimize this preset.")
OPTIMIZE_LATER = N_("{optimize} again once a month of reviews is answered the new way.")
RETENTION_UNTRUSTED = N_("{optimize}, then check {desired_retention} again: FSRS is off at your {desired}.")
RETENTION_AFTER = N_("After optimizing, check {desired_retention} again (now {desired}).")
CARDS_ONE = N_("Look at the card FSRS keeps getting wrong: rewrite, split or suspend it.")  # more: cards()

NOTHING = N_("Nothing to change.")
PLAN_TITLE = N_("What to do, in this order:")
FINDINGS_TITLE = N_("The checks behind it:")
PRESET_HEAD = N_('Preset "{preset}" ({reviews} reviews)')
PRESET_NOTHING = N_('Preset "{preset}" ({reviews} reviews): Nothing to change.')
PRESET_HEAD_RICH = N_('Preset <b>"{preset}"</b> ({reviews} reviews)')
PRESET_NOTHING_RICH = N_('Preset <b>"{preset}"</b> ({reviews} reviews): Nothing to change.')
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
SCOPE_TOO_FEW = N_("Too few reviews for a plan ({reviews} scored; at least {needed} are needed).")
NOTE_LATE = N_("Recall fell below target because reviews came late: do reviews when they are due.")
NOTE_SCHEDULED = N_(
    "Recall is below target as FSRS predicted for when you reviewed: it will follow as new intervals come due."
)

ACTION_TITLES = {
    "answer-buttons": N_("Answer buttons"),
    "split-preset": N_("Split the preset"),
    "ignore-before": N_("Ignore old reviews"),
    "optimize": N_("Optimize"),
    "desired-retention": N_("Desired retention"),
    "review-cards": N_("Cards to look at"),
}


def cards(count: int) -> str:
    """Return the review-cards step for `count` cards, in the language in use."""
    if count == 1:
        return _(CARDS_ONE)
    many = n_(
        "Look at the {count} card FSRS keeps getting wrong: rewrite, split or suspend it.",
        "Look at the {count} cards FSRS keeps getting wrong: rewrite, split or suspend them.",
        count,
    )
    return many.format(count=fmt.count(count))
