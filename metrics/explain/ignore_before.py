"""The sentences of the finding "ignore-before": old reviews that now mislead FSRS, and the date to ignore them
before (Anki's "Ignore cards reviewed before")."""

from __future__ import annotations

from .findings import Words

NUMBERS = (
    "log loss {cut} with parameters trained on the cards you began on or after {cutoff} ({kept} reviews) against "
    "{all} with parameters trained on every card ({train} reviews), on the same {reviews} latest reviews of {cards} "
    "cards (difference {gain:+.4f}, {level} interval {low:+.4f} to {high:+.4f})"
)
WHY_CHANGED = (
    "{cutoff} is where your answers changed most (the shares of Again, Hard, Good and Easy before and after it)."
)
WHY_QUANTILE = "{cutoff} splits your reviews before {split} in half."
_WHY = (
    "Out of sample: Anki's optimizer trained both sets of parameters on your reviews before {split} and they are "
    "scored on the reviews from {split} on, which neither saw. Like Anki's setting, a date drops whole cards "
    "(those you began learning before it), not single reviews. {tested_dates}; each difference's interval is "
    "widened to hold for all of them together."
)
TESTED_ONE = "1 date was tested ({dates})"
TESTED_MANY = "{tested} dates were tested ({dates})"
MISLEAD = Words(
    "Your reviews of cards begun before {cutoff} now mislead FSRS: {numbers}.",
    "Deck Options → (this preset) → FSRS → Ignore cards reviewed before: {cutoff}. Then Optimize.",
    _WHY + " The interval lies above zero and the gain is at least {least}. {why_date}",
)
KEEP = Words(
    "Keep all your reviews: ignoring the cards begun before {dates} would not predict your latest reviews better "
    "(the best of them, {numbers}).",
    "",
    _WHY + " No date's interval lies above zero with a gain of at least {least}: the old reviews do not mislead "
    "FSRS measurably, and ignoring them would lose what they teach it.",
)
NO_DATE = Words(
    "Too few reviews to test ignoring old ones: no date leaves {needed} reviews of later cards to train on "
    "before {split} ({train} reviews before it).",
)
