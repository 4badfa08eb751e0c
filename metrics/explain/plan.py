"""The words of the plan: one short sentence per step (at most one number), the line of a preset that needs
nothing, the scope's first line. Filled by metrics/jobs/diagnose/plan.py; the evidence stays in the findings."""

from __future__ import annotations

HARD = "Press Again, not Hard, whenever you have forgotten a card."
AGAIN = "Press Again only when you have forgotten; for a shaky recall press Hard."
BOTH_BUTTONS = "Press Again exactly when you have forgotten: never Hard then, and never on cards you remembered."
HEALTH = "Check how you press Again and Hard: Anki's own health check did not pass."
SPLIT = 'Give deck "{deck}" a preset of its own, then optimize that preset.'
IGNORE = 'Set "Ignore cards reviewed before" to {date}.'
OPTIMIZE_DEFAULTS = "Optimize: this preset still uses FSRS's default parameters."
OPTIMIZE_AGAIN = "Optimize again: parameters trained on your own reviews would predict better."
OPTIMIZE_OVERRATES = "Optimize: FSRS expects more recall than you have."
OPTIMIZE_AFTER = "Then optimize this preset."
OPTIMIZE_LATER = "Optimize again once a month of reviews is answered the new way."
RETENTION_UNTRUSTED = "Optimize, then check desired retention again: FSRS is off at your {desired}."
RETENTION_AFTER = "After optimizing, check desired retention again (now {desired})."
CARDS_ONE = "Look at the card FSRS keeps getting wrong: rewrite, split or suspend it."
CARDS_MANY = "Look at the {count} cards FSRS keeps getting wrong: rewrite, split or suspend them."

NOTHING = "Nothing to change."
PLAN_TITLE = "What to do, in this order:"
FINDINGS_TITLE = "The checks behind it:"
PRESET_HEAD = 'Preset "{preset}" ({reviews} reviews)'
PRESET_HEAD_RICH = 'Preset <b>"{preset}"</b> ({reviews} reviews)'
PRESET_NOTHING_RICH = 'Preset <b>"{preset}"</b> ({reviews} reviews): {nothing}'
WHY = "Why?"
NOTE = "Note: {note}"
WHY_AFTER = (
    "It follows from the steps before it ({because}): new answers, a new preset or fewer old reviews need "
    "parameters trained on them."
)
TIP_DECK_OPTIONS = 'Anki\'s Deck Options of preset "{preset}" (Optimize, desired retention …)'
TIP_SEARCH = "Anki search: {search}"
SCOPE_NOTHING = "Nothing to change: every check that the data can decide is fine."
SCOPE_TOO_FEW = "Too few reviews for a plan ({reviews} scored; at least {needed} are needed)."
NOTE_LATE = "Recall fell below target because reviews came late: do reviews when they are due."
NOTE_SCHEDULED = (
    "Recall is below target as FSRS predicted for when you reviewed: it will follow as new intervals come due."
)

ACTION_TITLES = {
    "answer-buttons": "Answer buttons",
    "split-preset": "Split the preset",
    "ignore-before": "Ignore old reviews",
    "optimize": "Optimize",
    "desired-retention": "Desired retention",
    "review-cards": "Cards to look at",
}


def cards(count: int) -> str:
    """Return the review-cards step for `count` cards."""
    return CARDS_ONE if count == 1 else CARDS_MANY.format(count=f"{count:,}")
