"""The words of a benchmark standing (score/standing.py): where a learner's out-of-sample scores fall among
the FSRS benchmark's learners, RMSE (bins) first, log loss with its caveat, then AUC and the source. No numpy."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import formatting as fmt

if TYPE_CHECKING:
    from ..score.standing import Standing

MONTHS = tuple("January February March April May June July August September October November December".split())


def band_label(low: int, high: int | None) -> str:
    """Return a band of review counts in words ("5k–20k reviews", "fewer than 2k reviews", "100k+ reviews")."""

    def k(n: int) -> str:
        return f"{n // 1000}k" if n and n % 1000 == 0 else f"{n:,}"

    if high is None:
        return f"{k(low)}+ reviews"
    return f"fewer than {k(high)} reviews" if low == 0 else f"{k(low)}–{k(high)} reviews"


def band_text(s: Standing) -> str:
    """Return the standing's band in words ("" without one)."""
    return band_label(*s.band) if s.band else ""


def source(s: Standing) -> str:
    """Return where the comparison comes from ("FSRS benchmark, FSRS-5 results of January 2025 (…)")."""
    return f"FSRS benchmark, {s.model} results of {_month(s.date)} ({s.repository})"


def sentence(s: Standing) -> str:
    """Return the standing in plain words: RMSE (bins) first, log loss with its caveat, then AUC and the source."""
    cited = f"Source: {source(s)}."
    if s.reviews <= 0:
        return f"No reviews were scored out of sample, so there is nothing to compare with the benchmark. {cited}"
    if s.rmse_beats is None and s.log_loss_beats is None:
        return (
            "Neither RMSE (bins) nor log loss could be computed for you, so there is nothing to compare with the "
            f"benchmark. {cited}"
        )
    group = f"the benchmark's {fmt.count(s.users)} learners with {band_text(s)}"
    parts = [_by_rmse(s, group), _by_log_loss(s, "them" if s.rmse_beats is not None else group)]
    if s.auc is not None and s.auc_beats is not None:
        parts.append(
            f"By AUC (telling the reviews you forget from those you remember), {_beats(s.auc_beats)} the "
            f"{fmt.count(s.auc_users)} of them whose AUC is defined ({fmt.auc(s.auc)} against a median of "
            f"{fmt.auc(s.auc_median)})."
        )
    if s.noisy:
        parts.append(f"With only {fmt.count(s.reviews)} reviews your own numbers are noisy, so take this loosely.")
    parts.append(cited)
    return " ".join(parts)


def _by_rmse(s: Standing, group: str) -> str:
    if s.rmse_beats is None:
        return f"Your RMSE (bins) could not be computed, so it is not compared with {group}."
    return (
        f"By RMSE (bins), FSRS predicts you {_beats(s.rmse_beats)} {group}: "
        f"{fmt.rmse(s.rmse_bins)} against their median of {fmt.rmse(s.rmse_median)}."
    )


def _by_log_loss(s: Standing, group: str) -> str:
    if s.log_loss_beats is None:
        return "Your log loss could not be computed, so it is not compared."
    return (
        f"By log loss, {_beats(s.log_loss_beats)} {group} ({fmt.log_loss(s.log_loss)} against a median "
        f"of {fmt.log_loss(s.log_loss_median)}) — but log loss also depends on how much you remember (it "
        "is lower at 95% retention than at 80% for equally good predictions), and the benchmark's files do not "
        "hold its learners' retention, so treat this one as rough."
    )


def _month(date: str) -> str:
    """'2025-01' -> 'January 2025' (the date as given when it is not YYYY-MM)."""
    year, _, month = date.partition("-")
    if year.isdigit() and month.isdigit() and 1 <= int(month) <= 12:
        return f"{MONTHS[int(month) - 1]} {year}"
    return date or "unknown date"


def _beats(percent: float) -> str:
    """'better than 64% of', with honest wording at the ends ('better than all of', 'more than 99% of', …)."""
    if percent >= 100:
        return "better than all of"
    if percent <= 0:
        return "worse than all of"
    shown = round(percent)
    if shown >= 100:
        return "better than more than 99% of"
    if shown <= 0:
        return "better than fewer than 1% of"
    return f"better than {shown}% of"
