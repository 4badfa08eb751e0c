"""The sentence of "Where the error is": the largest miscalibration beyond chance, in words."""

from __future__ import annotations

from typing import Protocol

from . import formatting as fmt
from .lang import N_, Nn_, _, n_, text


class BinError(Protocol):
    """The numbers a bin of "Where the error is" is said with (score/where.py BinError)."""

    @property
    def feature(self) -> str: ...

    @property
    def lowest(self) -> int: ...

    @property
    def highest(self) -> int: ...

    @property
    def count(self) -> int: ...

    @property
    def predicted(self) -> float: ...

    @property
    def measured(self) -> float: ...

    @property
    def ci_low(self) -> float: ...

    @property
    def ci_high(self) -> float: ...

    @property
    def error(self) -> float: ...


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
OVERDUE_WHERE = (0, 1, 2, 3)  # the lateness bins with words of their own: early, on time, 1.5–3× and over 3× late


def bin_label(feature: str, lowest: int | str, highest: int | str) -> str:
    """Return a bin's range as shown in the chart and the table ("3–4", "on time", "5–6"); a month's, its name (written
    the language's way already: never through the number marks, which would make "02.2025" "02,2025")."""
    if feature == "month" or isinstance(lowest, str) or isinstance(highest, str):
        return str(lowest) if lowest == highest else f"{lowest}–{highest}"
    if feature == "overdue":
        return _(OVERDUE_LABELS[lowest]) if lowest in OVERDUE_LABELS else str(lowest)
    return _span(int(lowest), int(highest))


def _span(lowest: int, highest: int) -> str:
    return fmt.local(f"{lowest}" if lowest == highest else f"{lowest}–{highest}")


# One whole sentence per kind of bin and direction (FSRS overestimates / underestimates recall there); the
# counted kinds as singular and plural, by the number the bin reads as.
_PLURAL = {
    "interval": (
        Nn_(
            (
                "FSRS overestimates recall by {points} on reviews {span} day after the previous one "
                "(predicted {predicted}, measured {measured}, 95% interval {interval}; {reviews} "
                "reviews)."
            ),
            (
                "FSRS overestimates recall by {points} on reviews {span} days after the previous one "
                "(predicted {predicted}, measured {measured}, 95% interval {interval}; {reviews} "
                "reviews)."
            ),
        ),
        Nn_(
            (
                "FSRS underestimates recall by {points} on reviews {span} day after the previous one "
                "(predicted {predicted}, measured {measured}, 95% interval {interval}; {reviews} "
                "reviews)."
            ),
            (
                "FSRS underestimates recall by {points} on reviews {span} days after the previous one "
                "(predicted {predicted}, measured {measured}, 95% interval {interval}; {reviews} "
                "reviews)."
            ),
        ),
    ),
    "reviews": (
        Nn_(
            (
                "FSRS overestimates recall by {points} on cards reviewed {span} time before "
                "(predicted {predicted}, measured {measured}, 95% interval {interval}; {reviews} "
                "reviews)."
            ),
            (
                "FSRS overestimates recall by {points} on cards reviewed {span} times before "
                "(predicted {predicted}, measured {measured}, 95% interval {interval}; {reviews} "
                "reviews)."
            ),
        ),
        Nn_(
            (
                "FSRS underestimates recall by {points} on cards reviewed {span} time before "
                "(predicted {predicted}, measured {measured}, 95% interval {interval}; {reviews} "
                "reviews)."
            ),
            (
                "FSRS underestimates recall by {points} on cards reviewed {span} times before "
                "(predicted {predicted}, measured {measured}, 95% interval {interval}; {reviews} "
                "reviews)."
            ),
        ),
    ),
    "lapses": (
        Nn_(
            (
                "FSRS overestimates recall by {points} on cards with {span} lapse (predicted "
                "{predicted}, measured {measured}, 95% interval {interval}; {reviews} reviews)."
            ),
            (
                "FSRS overestimates recall by {points} on cards with {span} lapses (predicted "
                "{predicted}, measured {measured}, 95% interval {interval}; {reviews} reviews)."
            ),
        ),
        Nn_(
            (
                "FSRS underestimates recall by {points} on cards with {span} lapse (predicted "
                "{predicted}, measured {measured}, 95% interval {interval}; {reviews} reviews)."
            ),
            (
                "FSRS underestimates recall by {points} on cards with {span} lapses (predicted "
                "{predicted}, measured {measured}, 95% interval {interval}; {reviews} reviews)."
            ),
        ),
    ),
}
_SINGLE = {
    "difficulty": (
        N_(
            "FSRS overestimates recall by {points} on cards of FSRS difficulty {span} (predicted "
            "{predicted}, measured {measured}, 95% interval {interval}; {reviews} reviews)."
        ),
        N_(
            "FSRS underestimates recall by {points} on cards of FSRS difficulty {span} (predicted "
            "{predicted}, measured {measured}, 95% interval {interval}; {reviews} reviews)."
        ),
    ),
    "overdue-0": (
        N_(
            "FSRS overestimates recall by {points} on reviews done early (predicted {predicted}, "
            "measured {measured}, 95% interval {interval}; {reviews} reviews)."
        ),
        N_(
            "FSRS underestimates recall by {points} on reviews done early (predicted {predicted}, "
            "measured {measured}, 95% interval {interval}; {reviews} reviews)."
        ),
    ),
    "overdue-1": (
        N_(
            "FSRS overestimates recall by {points} on reviews done on time (predicted {predicted}, "
            "measured {measured}, 95% interval {interval}; {reviews} reviews)."
        ),
        N_(
            "FSRS underestimates recall by {points} on reviews done on time (predicted {predicted}, "
            "measured {measured}, 95% interval {interval}; {reviews} reviews)."
        ),
    ),
    "overdue-2": (
        N_(
            "FSRS overestimates recall by {points} on reviews done 1.5–3× late (predicted "
            "{predicted}, measured {measured}, 95% interval {interval}; {reviews} reviews)."
        ),
        N_(
            "FSRS underestimates recall by {points} on reviews done 1.5–3× late (predicted "
            "{predicted}, measured {measured}, 95% interval {interval}; {reviews} reviews)."
        ),
    ),
    "overdue-3": (
        N_(
            "FSRS overestimates recall by {points} on reviews done over 3× late (after a break) "
            "(predicted {predicted}, measured {measured}, 95% interval {interval}; {reviews} "
            "reviews)."
        ),
        N_(
            "FSRS underestimates recall by {points} on reviews done over 3× late (after a break) "
            "(predicted {predicted}, measured {measured}, 95% interval {interval}; {reviews} "
            "reviews)."
        ),
    ),
    "overdue": (
        N_(
            "FSRS overestimates recall by {points} on reviews {span} (predicted {predicted}, measured "
            "{measured}, 95% interval {interval}; {reviews} reviews)."
        ),
        N_(
            "FSRS underestimates recall by {points} on reviews {span} (predicted {predicted}, "
            "measured {measured}, 95% interval {interval}; {reviews} reviews)."
        ),
    ),
    "other": (
        N_(
            "FSRS overestimates recall by {points} where {feature} is {span} (predicted {predicted}, "
            "measured {measured}, 95% interval {interval}; {reviews} reviews)."
        ),
        N_(
            "FSRS underestimates recall by {points} where {feature} is {span} (predicted {predicted}, "
            "measured {measured}, 95% interval {interval}; {reviews} reviews)."
        ),
    ),
}


def _said(b: BinError, over: bool) -> str:
    """Return the sentence for a bin and a direction, translated (its fields still to fill)."""
    side = 0 if over else 1
    if b.feature in _PLURAL:
        n = b.lowest if b.lowest == b.highest else max(2, b.highest)  # a range reads as more than one
        one, many = _PLURAL[b.feature][side]
        return n_(one, many, n)
    if b.feature == "overdue" and b.lowest in OVERDUE_WHERE:
        return _(_SINGLE[f"overdue-{b.lowest}"][side])
    key = b.feature if b.feature in _SINGLE else "other"
    return _(_SINGLE[key][side])


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
        "span": _span(worst.lowest, worst.highest),
        "feature": worst.feature,
        "predicted": fmt.percent(worst.predicted),
        "measured": fmt.percent(worst.measured),
        "interval": fmt.interval(worst.ci_low, worst.ci_high, "percent"),
        "reviews": fmt.count(worst.count),
    }
    return _said(worst, worst.error > 0).format(**values)
