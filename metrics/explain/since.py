"""The sentences of the finding "since-last": what changed since the last diagnosis, and whether it helped."""

from __future__ import annotations

from .findings import Words

SINCE_NUMBERS = (
    "on the {reviews} reviews of {cards} cards since then, log loss {after} with the new parameters against "
    "{before} with the old ones (difference {gain:+.4f}, 95% interval {low:+.4f} to {high:+.4f}, bootstrap by card)"
)
_WHY = (
    "Both sets of parameters predict the same reviews, made after the last diagnosis, so neither was trained on "
    "them: a fair test of the change."
)
HELPED = Words("Since {date} you re-optimized this preset, and it helped: {numbers}.", "", _WHY)
HURT = Words(
    "Since {date} you re-optimized this preset, and the new parameters predict your later reviews worse: {numbers}.",
    "Deck Options → (this preset) → FSRS: check 'Ignore cards reviewed before' and optimize again.",
    _WHY + " The difference's interval lies below zero.",
)
LITTLE = Words(
    "Since {date} you re-optimized this preset; it made little difference: {numbers}.",
    "",
    _WHY + " The whole interval lies within ±{least} of zero, too little to matter.",
)
CANNOT_TELL = Words(
    "Since {date} you re-optimized this preset; the data cannot tell yet whether it helped: {numbers}.",
    "",
    _WHY + " The difference's interval includes zero: more reviews will tell.",
)
TOO_FEW = Words(
    "Since {date} you re-optimized this preset; {reviews} reviews since then are too few to tell whether it "
    "helped (at least {needed} are needed).",
)
UNCHANGED = Words(
    "No preset's parameters changed since the last diagnosis of {date} ({reviews} reviews then, {now} now).",
)
