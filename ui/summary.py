"""What the dialog says above the tabs: what produced the numbers and the numbers in plain words; where save
dialogs open."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from aqt.qt import QStandardPaths

from ..metrics.explain import formatting as fmt
from ..metrics.explain.lang import N_, _, n_, text
from ..metrics.explain.names import BINS, VERSIONS, WEIGHTS

if TYPE_CHECKING:
    from ..metrics.jobs.evaluate import Evaluation, ParamSource


def save_folder(name: str) -> str:
    """Return `name` in the user's Documents folder (else home): where save dialogs open."""
    folder = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    if not folder or not os.path.isdir(folder):
        folder = os.path.expanduser("~")
    return os.path.join(folder, name)


SAME_DAY: dict[tuple[str, ...], str] = {
    ("keep",): N_("same-day repeats kept"),
    ("drop",): N_("same-day repeats dropped"),
}
SAME_DAY_MIXED = N_("same-day repeats kept for FSRS-5/6, dropped for FSRS-4.5")


def headline(ev: Evaluation) -> str:
    """Return the plain-words summary of an evaluation."""
    o = ev.overall
    auc = _("AUC n/a (only one kind of answer)") if o.auc is None else text("AUC {auc}", auc=fmt.auc(o.auc))
    return text(
        "Over {reviews} reviews, FSRS's predicted recall was off by {rmse} (percentage points) on average "
        "(RMSE bins). Log loss {log_loss}, {auc}. You recalled {retention} of these reviews; FSRS predicted "
        "{predicted}.",
        reviews=fmt.count(o.reviews),
        rmse=fmt.rmse(o.rmse_bins),
        log_loss=fmt.log_loss(o.log_loss),
        auc=auc,
        retention=fmt.percent(o.retention),
        predicted=fmt.percent(o.mean_predicted),
    )


def _parameters(p: ParamSource) -> str:
    """Return where a preset's parameters came from, in words ("Japanese (FSRS-6)", "FSRS-6 defaults")."""
    if p.source == "defaults":
        return text("{preset} (FSRS-6 defaults)", preset=fmt.name(p.preset)) if p.preset else _("FSRS-6 defaults")
    if p.source == "given":
        return text("given {version} parameters", version=VERSIONS.get(p.length, ""))
    version = VERSIONS.get(p.length) or n_("{count} parameter", "{count} parameters", p.length).format(
        count=fmt.count(p.length)
    )
    if f"({version})" in p.preset:  # "Medicine (FSRS-4.5)" says it already
        return fmt.name(p.preset)
    return text("{preset} ({version})", preset=fmt.name(p.preset), version=version)


def describe(ev: Evaluation, scope: str) -> dict[str, str]:
    """Return what produced the numbers, as plain texts for the headline's template: `scope`; `details`, the
    reviews scored, parameters, same-day rule, binning and weighting; `numbers`, the plain-words summary."""
    rules = tuple(sorted({p.same_day for p in ev.params}))
    o = ev.options
    details = text(
        "{reviews} reviews scored · parameters: {parameters} · {same_day} · {binning} · {weighting}",
        reviews=fmt.count(ev.overall.reviews),
        parameters=fmt.listed([_parameters(p) for p in ev.params]),
        same_day=_(SAME_DAY.get(rules, SAME_DAY_MIXED)),
        binning=_(BINS[o.binning]) if o.binning in BINS else text("{binning} bins", binning=o.binning),
        weighting=_(WEIGHTS["recency" if o.weighting == "recency" else "uniform"]),
    )
    return {"scope": scope, "details": details, "numbers": headline(ev)}
