"""The sentences of the finding "since-last": what changed since the last diagnosis, and whether it helped."""

from __future__ import annotations

from .findings import Words
from .lang import N_

# The numbers of the finding, one clause its sentences hold as {numbers} (filled with text()); the gain and its
# interval are log-loss differences, signed.
SINCE_NUMBERS = N_(
    "on the {reviews} reviews of {cards} cards since then, log loss {after} with the new parameters against "
    "{before} with the old ones (difference {gain}, 95% interval {low} to {high}, bootstrap by card)"
)
_WHY = N_(
    "Both sets of parameters predict the same reviews, made after the last diagnosis, so neither was trained on "
    "them: a fair test of the change."
)
HELPED = Words("Since {date} you re-optimized this preset, and it helped: {numbers}.", "", _WHY)
HURT = Words(
    "Since {date} you re-optimized this preset, and the new parameters predict your later reviews worse: {numbers}.",
    "{deck_options} → (this preset) → FSRS: check '{ignore_before}' and optimize again.",
    "Both sets of parameters predict the same reviews, made after the last diagnosis, so neither was trained on "
    "them: a fair test of the change. The difference's interval lies below zero.",
)
LITTLE = Words(
    "Since {date} you re-optimized this preset; it made little difference: {numbers}.",
    "",
    "Both sets of parameters predict the same reviews, made after the last diagnosis, so neither was trained on "
    "them: a fair test of the change. The whole interval lies within ±{least} of zero, too little to matter.",
)
CANNOT_TELL = Words(
    "Since {date} you re-optimized this preset; the data cannot tell yet whether it helped: {numbers}.",
    "",
    "Both sets of parameters predict the same reviews, made after the last diagnosis, so neither was trained on "
    "them: a fair test of the change. The difference's interval includes zero: more reviews will tell.",
)
TOO_FEW = Words(
    "Since {date} you re-optimized this preset; {reviews} reviews since then are too few to tell whether it "
    "helped (at least {needed} are needed).",
)
UNCHANGED = Words(
    "No preset's parameters or {desired_retention} changed since the last diagnosis of {date} ({reviews} reviews "
    "then, {now} now).",
)

_RETENTION_WHY = N_(
    "Counted are the reviews whose interval was set after the last diagnosis (the card's previous review came "
    "after it), so most were scheduled for the new target; if you changed {desired_retention} later than that, "
    "some were scheduled for the old one. The interval is a 95% Wilson interval."
)
RETENTION_TOO_FEW = Words(
    "Since {date} you changed this preset's {desired_retention} from {before} to {now}; {reviews} reviews "
    "scheduled since then are too few to tell whether you now recall what you asked for (at least {needed} are "
    "needed).",
    "",
    _RETENTION_WHY,
)
RETENTION_REACHED = Words(
    "Since {date} you changed this preset's {desired_retention} from {before} to {now}, and you recall what you "
    "asked for: {measured} of {reviews} reviews scheduled since then (95% interval {interval}).",
    "",
    _RETENTION_WHY,
)
RETENTION_ABOVE = Words(
    "Since {date} you changed this preset's {desired_retention} from {before} to {now}; you recall more than you "
    "asked for: {measured} of {reviews} reviews scheduled since then (95% interval {interval}).",
    "",
    "Counted are the reviews whose interval was set after the last diagnosis (the card's previous review came "
    "after it), so most were scheduled for the new target; if you changed {desired_retention} later than that, "
    "some were scheduled for the old one. The interval is a 95% Wilson interval. Recall above the target costs "
    "reviews you chose not to do; nothing needs fixing.",
)
RETENTION_BELOW = Words(
    "Since {date} you changed this preset's {desired_retention} from {before} to {now}, but you recall less than "
    "you asked for: {measured} of {reviews} reviews scheduled since then (95% interval {interval}).",
    "The Retention check says why, and what to do about it.",
    "Counted are the reviews whose interval was set after the last diagnosis (the card's previous review came "
    "after it), so most were scheduled for the new target; if you changed {desired_retention} later than that, "
    "some were scheduled for the old one. The interval is a 95% Wilson interval. The whole interval lies below "
    "the new target.",
)
