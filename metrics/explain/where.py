"""The sentence of "Where the error is": the largest miscalibration beyond chance, in words."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import formatting as fmt
from .lang import N_, _, n_, text

if TYPE_CHECKING:
    from ..score.where import BinError


# the features of "Where the error is", with their titles (the tab's choices, the report's headings; translated
# where shown)
FEATURE_TITLES = {
    "interval": N_("By interval"),
    "reviews": N_("By number of reviews"),
    "lapses": N_("By number of lapses"),
    "difficulty": N_("By FSRS difficulty"),
    "overdue": N_("By lateness (after breaks)"),
}
# the lateness bins of "overdue" (score/binning.py overdue_codes)
OVERDUE_LABELS = {0: N_("early"), 1: N_("on time"), 2: N_("1.5–3× late"), 3: N_("over 3× late")}
# the same bins where the sentence names them
OVERDUE_WHERE = {
    0: N_("on reviews done early"),
    1: N_("on reviews done on time"),
    2: N_("on reviews done 1.5–3× late"),
    3: N_("on reviews done over 3× late (after a break)"),
}


def bin_label(feature: str, lowest: int, highest: int) -> str:
    """Return a bin's range as shown in the chart and the table ("3–4", "on time", "5–6")."""
    if feature == "overdue":
        return _(OVERDUE_LABELS[lowest]) if lowest in OVERDUE_LABELS else str(lowest)
    return _span(lowest, highest)


def _span(lowest: int, highest: int) -> str:
    return fmt.local(f"{lowest}" if lowest == highest else f"{lowest}–{highest}")


def where_text(b: BinError) -> str:
    """Return the bin in words, e.g. "on cards with 3–4 lapses" or "on reviews 12 days after the previous"."""
    span = _span(b.lowest, b.highest)
    n = b.lowest if b.lowest == b.highest else max(2, b.highest)  # a range reads as more than one
    if b.feature == "interval":
        said = n_("on reviews {span} day after the previous one", "on reviews {span} days after the previous one", n)
        return said.format(span=span)
    if b.feature == "reviews":
        return n_("on cards reviewed {span} time before", "on cards reviewed {span} times before", n).format(span=span)
    if b.feature == "lapses":
        return n_("on cards with {span} lapse", "on cards with {span} lapses", n).format(span=span)
    if b.feature == "difficulty":
        return text("on cards of FSRS difficulty {span}", span=span)
    if b.feature == "overdue":
        if b.lowest in OVERDUE_WHERE:
            return _(OVERDUE_WHERE[b.lowest])
        return text("on reviews {span}", span=span)
    return text("where {feature} is {span}", feature=b.feature, span=span)


def summary(worst: BinError | None, min_reviews: int) -> str:
    """Return one sentence on the largest well-supported miscalibration (score/where.py largest_error), or
    that there is none."""
    if worst is None:
        return text(
            "No group of at least {reviews} reviews is off beyond chance: where FSRS errs, the data cannot tell it "
            "from noise.",
            reviews=fmt.count(min_reviews),
        )
    values = {
        "points": fmt.points(abs(worst.error)),
        "where": where_text(worst),
        "predicted": fmt.percent(worst.predicted),
        "measured": fmt.percent(worst.measured),
        "interval": fmt.interval(worst.ci_low, worst.ci_high, "percent"),
        "reviews": fmt.count(worst.count),
    }
    if worst.error > 0:
        return text(
            "FSRS overestimates recall by {points} {where} (predicted {predicted}, measured {measured}, 95% interval "
            "{interval}; {reviews} reviews).",
            **values,
        )
    return text(
        "FSRS underestimates recall by {points} {where} (predicted {predicted}, measured {measured}, 95% interval "
        "{interval}; {reviews} reviews).",
        **values,
    )
