"""The words of a benchmark standing (score/standing.py): where a learner's out-of-sample scores fall among
the FSRS benchmark's learners, RMSE (bins) first, log loss with its caveat, then AUC and the source. No numpy."""

from __future__ import annotations

from typing import Protocol

from . import formatting as fmt
from .lang import N_, _, text


class Standing(Protocol):
    """The numbers a standing is said with (score/standing.py Standing)."""

    @property
    def reviews(self) -> int: ...

    @property
    def band(self) -> tuple[int, int | None] | None: ...

    @property
    def users(self) -> int: ...

    @property
    def rmse_bins(self) -> float: ...

    @property
    def log_loss(self) -> float: ...

    @property
    def auc(self) -> float | None: ...

    @property
    def rmse_beats(self) -> float | None: ...

    @property
    def log_loss_beats(self) -> float | None: ...

    @property
    def auc_beats(self) -> float | None: ...

    @property
    def auc_users(self) -> int: ...

    @property
    def rmse_median(self) -> float | None: ...

    @property
    def log_loss_median(self) -> float | None: ...

    @property
    def auc_median(self) -> float | None: ...

    @property
    def model(self) -> str: ...

    @property
    def date(self) -> str: ...

    @property
    def repository(self) -> str: ...

    @property
    def noisy(self) -> bool: ...


MONTHS = (
    N_("January"),
    N_("February"),
    N_("March"),
    N_("April"),
    N_("May"),
    N_("June"),
    N_("July"),
    N_("August"),
    N_("September"),
    N_("October"),
    N_("November"),
    N_("December"),
)


def band_label(low: int, high: int | None) -> str:
    """Return a band of review counts in words ("5k–20k reviews", "fewer than 2k reviews", "100k+ reviews")."""

    def k(n: int) -> str:
        return text("{thousands}k", thousands=fmt.local(f"{n // 1000}")) if n and n % 1000 == 0 else fmt.count(n)

    if high is None:
        return text("{low}+ reviews", low=k(low))
    if low == 0:
        return text("fewer than {high} reviews", high=k(high))
    return text("{low}–{high} reviews", low=k(low), high=k(high))


def band_text(s: Standing) -> str:
    """Return the standing's band in words ("" without one)."""
    return band_label(*s.band) if s.band else ""


def source(s: Standing) -> str:
    """Return where the comparison comes from ("FSRS benchmark, FSRS-5 results of January 2025 (…)")."""
    return text(
        "FSRS benchmark, {model} results of {date} ({repository})",
        model=s.model,
        date=_month(s.date),
        repository=s.repository,
    )


def sentence(s: Standing) -> str:
    """Return the standing in plain words: RMSE (bins) first, log loss with its caveat, then AUC and the source."""
    if s.reviews <= 0:
        return text(
            "No reviews were scored out of sample, so there is nothing to compare with the benchmark. "
            "Source: {source}.",
            source=source(s),
        )
    if s.rmse_beats is None and s.log_loss_beats is None:
        return text(
            "Neither RMSE (bins) nor log loss could be computed for you, so there is nothing to compare with the "
            "benchmark. Source: {source}.",
            source=source(s),
        )
    group = {"learners": fmt.count(s.users), "band": band_text(s)}
    parts = [_by_rmse(s, group), _by_log_loss(s, group)]
    if s.auc is not None and s.auc_beats is not None:
        rank, percent = _rank(s.auc_beats)
        parts.append(
            text(
                _AUC[rank],
                percent=percent,
                learners=fmt.count(s.auc_users),
                auc=fmt.auc(s.auc),
                median=fmt.auc(s.auc_median),
            )
        )
    if s.noisy:
        parts.append(
            text(
                "With only {reviews} reviews your own numbers are noisy, so take this loosely.",
                reviews=fmt.count(s.reviews),
            )
        )
    parts.append(text("Source: {source}.", source=source(s)))
    return fmt.sentences(parts)


def _by_rmse(s: Standing, group: dict[str, str]) -> str:
    if s.rmse_beats is None:
        return text(
            "Your RMSE (bins) could not be computed, so it is not compared with the benchmark's {learners} learners "
            "with {band}.",
            **group,
        )
    rank, percent = _rank(s.rmse_beats)
    return text(_RMSE[rank], percent=percent, rmse=fmt.rmse(s.rmse_bins), median=fmt.rmse(s.rmse_median), **group)


def _by_log_loss(s: Standing, group: dict[str, str]) -> str:
    if s.log_loss_beats is None:
        return _("Your log loss could not be computed, so it is not compared.")
    rank, percent = _rank(s.log_loss_beats)
    said = text(
        (_LOG_LOSS_THEM if s.rmse_beats is not None else _LOG_LOSS)[rank],
        percent=percent,
        log_loss=fmt.log_loss(s.log_loss),
        median=fmt.log_loss(s.log_loss_median),
        **group,
    )
    return said


def _month(date: str) -> str:
    """'2025-01' -> 'January 2025' (the date as given when it is not YYYY-MM)."""
    year, _sep, month = date.partition("-")
    if year.isdigit() and month.isdigit() and 1 <= int(month) <= 12:
        return text("{month} {year}", month=_(MONTHS[int(month) - 1]), year=year)
    return date or _("unknown date")


def _rank(percent: float) -> tuple[str, str]:
    """Return which sentence a share beaten takes, with honest wording at the ends ("all", "none", "over 99",
    "under 1", else "percent"), and the share written ("64%")."""
    shown = round(percent)
    if percent >= 100:
        return "all", ""
    if percent <= 0:
        return "none", ""
    if shown >= 100:
        return "over99", fmt.percent(0.99, 0)
    if shown <= 0:
        return "under1", fmt.percent(0.01, 0)
    return "percent", fmt.percent(shown / 100, 0)


# Whole sentences for each rank (word order differs between languages): RMSE (bins), then log loss against the
# same group or, after RMSE, against "them", then AUC.
_RMSE = {
    "all": N_(
        "By RMSE (bins), FSRS predicts you better than all of the benchmark's {learners} learners with {band}: "
        "{rmse} against their median of {median}."
    ),
    "none": N_(
        "By RMSE (bins), FSRS predicts you worse than all of the benchmark's {learners} learners with {band}: "
        "{rmse} against their median of {median}."
    ),
    "over99": N_(
        "By RMSE (bins), FSRS predicts you better than more than {percent} of the benchmark's {learners} learners "
        "with {band}: {rmse} against their median of {median}."
    ),
    "under1": N_(
        "By RMSE (bins), FSRS predicts you better than fewer than {percent} of the benchmark's {learners} learners "
        "with {band}: {rmse} against their median of {median}."
    ),
    "percent": N_(
        "By RMSE (bins), FSRS predicts you better than {percent} of the benchmark's {learners} learners with "
        "{band}: {rmse} against their median of {median}."
    ),
}
_LOG_LOSS = {
    "all": N_(
        "By log loss, better than all of the benchmark's {learners} learners with {band} ({log_loss} "
        "against a median of {median}) — but log loss also depends on how much you remember (it is lower "
        "at 95% retention than at 80% for equally good predictions), and the benchmark's files do not "
        "hold its learners' retention, so treat this one as rough."
    ),
    "none": N_(
        "By log loss, worse than all of the benchmark's {learners} learners with {band} ({log_loss} "
        "against a median of {median}) — but log loss also depends on how much you remember (it is lower "
        "at 95% retention than at 80% for equally good predictions), and the benchmark's files do not "
        "hold its learners' retention, so treat this one as rough."
    ),
    "over99": N_(
        "By log loss, better than more than {percent} of the benchmark's {learners} learners with {band} "
        "({log_loss} against a median of {median}) — but log loss also depends on how much you remember "
        "(it is lower at 95% retention than at 80% for equally good predictions), and the benchmark's "
        "files do not hold its learners' retention, so treat this one as rough."
    ),
    "under1": N_(
        "By log loss, better than fewer than {percent} of the benchmark's {learners} learners with {band} "
        "({log_loss} against a median of {median}) — but log loss also depends on how much you remember "
        "(it is lower at 95% retention than at 80% for equally good predictions), and the benchmark's "
        "files do not hold its learners' retention, so treat this one as rough."
    ),
    "percent": N_(
        "By log loss, better than {percent} of the benchmark's {learners} learners with {band} "
        "({log_loss} against a median of {median}) — but log loss also depends on how much you remember "
        "(it is lower at 95% retention than at 80% for equally good predictions), and the benchmark's "
        "files do not hold its learners' retention, so treat this one as rough."
    ),
}
_LOG_LOSS_THEM = {
    "all": N_(
        "By log loss, better than all of them ({log_loss} against a median of {median}) — but log loss "
        "also depends on how much you remember (it is lower at 95% retention than at 80% for equally good "
        "predictions), and the benchmark's files do not hold its learners' retention, so treat this one "
        "as rough."
    ),
    "none": N_(
        "By log loss, worse than all of them ({log_loss} against a median of {median}) — but log loss "
        "also depends on how much you remember (it is lower at 95% retention than at 80% for equally good "
        "predictions), and the benchmark's files do not hold its learners' retention, so treat this one "
        "as rough."
    ),
    "over99": N_(
        "By log loss, better than more than {percent} of them ({log_loss} against a median of {median}) — "
        "but log loss also depends on how much you remember (it is lower at 95% retention than at 80% for "
        "equally good predictions), and the benchmark's files do not hold its learners' retention, so "
        "treat this one as rough."
    ),
    "under1": N_(
        "By log loss, better than fewer than {percent} of them ({log_loss} against a median of {median}) "
        "— but log loss also depends on how much you remember (it is lower at 95% retention than at 80% "
        "for equally good predictions), and the benchmark's files do not hold its learners' retention, so "
        "treat this one as rough."
    ),
    "percent": N_(
        "By log loss, better than {percent} of them ({log_loss} against a median of {median}) — but log "
        "loss also depends on how much you remember (it is lower at 95% retention than at 80% for equally "
        "good predictions), and the benchmark's files do not hold its learners' retention, so treat this "
        "one as rough."
    ),
}
_AUC = {
    "all": N_(
        "By AUC (telling the reviews you forget from those you remember), better than all of the "
        "{learners} of them whose AUC is defined ({auc} against a median of {median})."
    ),
    "none": N_(
        "By AUC (telling the reviews you forget from those you remember), worse than all of the "
        "{learners} of them whose AUC is defined ({auc} against a median of {median})."
    ),
    "over99": N_(
        "By AUC (telling the reviews you forget from those you remember), better than more than {percent} "
        "of the {learners} of them whose AUC is defined ({auc} against a median of {median})."
    ),
    "under1": N_(
        "By AUC (telling the reviews you forget from those you remember), better than fewer than "
        "{percent} of the {learners} of them whose AUC is defined ({auc} against a median of {median})."
    ),
    "percent": N_(
        "By AUC (telling the reviews you forget from those you remember), better than {percent} of the "
        "{learners} of them whose AUC is defined ({auc} against a median of {median})."
    ),
}
