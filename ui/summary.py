"""What the dialog says above the tabs: what produced the numbers and the numbers in plain words; where save
dialogs open."""

from __future__ import annotations

import os
from typing import Any

from aqt.qt import QStandardPaths

from ..metrics.explain import formatting as fmt


def save_folder(name: str) -> str:
    """Return `name` in the user's Documents folder (else home): where save dialogs open."""
    folder = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    if not folder or not os.path.isdir(folder):
        folder = os.path.expanduser("~")
    return os.path.join(folder, name)


def headline(ev: Any) -> str:
    """Return the plain-words summary of an evaluation."""
    o = ev.overall
    auc = "AUC n/a (only one kind of answer)" if o.auc is None else f"AUC {fmt.auc(o.auc)}"
    return (
        f"Over {fmt.count(o.reviews)} reviews, FSRS's predicted recall was off by {fmt.rmse(o.rmse_bins)} "
        f"(percentage points) on average (RMSE bins). Log loss {fmt.log_loss(o.log_loss)}, {auc}. You recalled "
        f"{fmt.percent(o.retention)} of these reviews; FSRS predicted {fmt.percent(o.mean_predicted)}."
    )


def describe(ev: Any, scope: str) -> dict[str, str]:
    """Return what produced the numbers, as plain texts for the headline's template: `scope`; `rest`, the
    reviews scored, parameters, same-day rule, binning and weighting; `numbers`, the plain-words summary."""
    versions = {21: "FSRS-6", 19: "FSRS-5", 17: "FSRS-4.5"}
    params = []
    for p in ev.params:
        if p.source == "defaults":
            params.append(f"{p.preset} (FSRS-6 defaults)" if p.preset else "FSRS-6 defaults")
        elif p.source == "given":
            params.append(f"given {versions.get(p.length, '')} parameters")
        else:
            version = versions.get(p.length, f"{p.length} parameters")
            named = f"({version})" in p.preset  # "Medicine (FSRS-4.5)" says it already
            params.append(p.preset if named else f"{p.preset} ({version})")
    rules = sorted({p.same_day for p in ev.params})
    same_day = {("keep",): "same-day repeats kept", ("drop",): "same-day repeats dropped"}.get(
        tuple(rules), "same-day repeats kept for FSRS-5/6, dropped for FSRS-4.5"
    )
    o = ev.options
    rest = (
        f": {fmt.count(ev.overall.reviews)} reviews scored · parameters: {', '.join(params)} · "
        f"{same_day} · {o.binning} bins · {'recency' if o.weighting == 'recency' else 'equal'} weights"
    )
    return {"scope": scope, "rest": rest, "numbers": headline(ev)}
