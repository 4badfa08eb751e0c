"""The sentence of "Where the error is": the largest miscalibration beyond chance, in words."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import formatting as fmt

if TYPE_CHECKING:
    from ..score.where import BinError


# the features of "Where the error is", with their titles (the tab's choices, the report's headings)
FEATURE_TITLES = {
    "interval": "By interval",
    "reviews": "By number of reviews",
    "lapses": "By number of lapses",
    "difficulty": "By FSRS difficulty",
    "overdue": "By lateness (after breaks)",
}
# the lateness bins of "overdue" (score/binning.py overdue_codes)
OVERDUE_LABELS = {0: "early", 1: "on time", 2: "1.5–3× late", 3: "over 3× late"}


def bin_label(feature: str, lowest: int, highest: int) -> str:
    """Return a bin's range as shown in the chart and the table ("3–4", "on time", "5–6")."""
    if feature == "overdue":
        return OVERDUE_LABELS.get(lowest, str(lowest))
    return f"{lowest}" if lowest == highest else f"{lowest}–{highest}"


def where_text(b: BinError) -> str:
    """Return the bin in words, e.g. "on cards with 3–4 lapses" or "on reviews 12 days after the previous"."""
    span = f"{b.lowest}" if b.lowest == b.highest else f"{b.lowest}–{b.highest}"
    plural = not (b.lowest == b.highest == 1)
    if b.feature == "interval":
        return f"on reviews {span} day{'s' if plural else ''} after the previous one"
    if b.feature == "reviews":
        return f"on cards reviewed {span} time{'s' if plural else ''} before"
    if b.feature == "lapses":
        return f"on cards with {span} lapse{'s' if plural else ''}"
    if b.feature == "difficulty":
        return f"on cards of FSRS difficulty {span}"
    if b.feature == "overdue":
        late = {0: "done early", 1: "done on time", 2: "done 1.5–3× late", 3: "done over 3× late (after a break)"}
        return f"on reviews {late.get(b.lowest, span)}"
    return f"where {b.feature} is {span}"


def summary(worst: BinError | None, min_reviews: int) -> str:
    """Return one sentence on the largest well-supported miscalibration (score/where.py largest_error), or
    that there is none."""
    if worst is None:
        return (
            f"No group of at least {min_reviews:,} reviews is off beyond chance: where FSRS errs, "
            "the data cannot tell it from noise."
        )
    way = "overestimates" if worst.error > 0 else "underestimates"
    return (
        f"FSRS {way} recall by {fmt.points(abs(worst.error))} {where_text(worst)} "
        f"(predicted {fmt.percent(worst.predicted)}, measured {fmt.percent(worst.measured)}, "
        f"95% interval {fmt.interval(worst.ci_low, worst.ci_high, 'percent')}; {fmt.count(worst.count)} reviews)."
    )
