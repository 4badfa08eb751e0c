"""The sentences of the finding "ignore-before": old reviews that now mislead FSRS, and the date to ignore them
before (Anki's "Ignore cards reviewed before")."""

from __future__ import annotations

from . import formatting as fmt
from .findings import Words
from .lang import N_, n_

# The numbers of the finding, one clause its sentences hold as {numbers} (filled with text()); the gain and its
# interval are log-loss differences, signed.
NUMBERS = N_(
    "log loss {cut} with parameters trained on the cards you began on or after {cutoff} ({kept} reviews) against "
    "{all} with parameters trained on every card ({train} reviews), on the same {reviews} latest reviews of {cards} "
    "cards (difference {gain}, {level} interval {low} to {high})"
)
# Why this date: the last sentence of MISLEAD's reason ({why_date}).
WHY_CHANGED = N_(
    "{cutoff} is where your answers changed most (the shares of Again, Hard, Good and Easy before and after it)."
)
WHY_QUANTILE = N_("{cutoff} splits your reviews before {split} in half.")
MISLEAD = Words(
    "Your reviews of cards begun before {cutoff} now mislead FSRS: {numbers}.",
    "{deck_options} → (this preset) → FSRS → {ignore_before}: {cutoff}. Then {optimize}.",
    "Out of sample: Anki's optimizer trained both sets of parameters on your reviews before {split} and they are "
    "scored on the reviews from {split} on, which neither saw. Like Anki's setting, a date drops whole cards "
    "(those you began learning before it), not single reviews. {tested_dates}; each difference's interval is "
    "widened to hold for all of them together. The interval lies above zero and the gain is at least {least}. "
    "{why_date}",
)
KEEP = Words(
    "Keep all your reviews: ignoring the cards begun before {dates} would not predict your latest reviews better "
    "(the best of them, {numbers}).",
    "",
    "Out of sample: Anki's optimizer trained both sets of parameters on your reviews before {split} and they are "
    "scored on the reviews from {split} on, which neither saw. Like Anki's setting, a date drops whole cards "
    "(those you began learning before it), not single reviews. {tested_dates}; each difference's interval is "
    "widened to hold for all of them together. No date's interval lies above zero with a gain of at least {least}: "
    "the old reviews do not mislead FSRS measurably, and ignoring them would lose what they teach it.",
)
NO_DATE = Words(
    "Too few reviews to test ignoring old ones: no date leaves {needed} reviews of later cards to train on "
    "before {split} ({train} reviews before it).",
)


def tested_dates(tested: int, dates: str) -> str:
    """Return the dates tested, in the reason's words ({tested_dates}: "3 dates were tested (…)")."""
    said = n_("{count} date was tested ({dates})", "{count} dates were tested ({dates})", tested)
    return said.format(count=fmt.count(tested), dates=dates)
