"""Plain-text report of an evaluation (shared by the command line and the add-on)."""

from __future__ import annotations

import math

from .evaluate import Evaluation


def _fmt(x: float | None, digits: int = 4) -> str:
    """Return a number for the text report ("n/a" when undefined)."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    return f"{x:.{digits}f}"


def format_report(ev: Evaluation) -> str:
    """Return the plain-text report of an evaluation."""
    o = ev.overall
    lines = [
        f"Reviews scored: {o.reviews:,} on {o.cards:,} cards",
        f"Log loss:       {_fmt(o.log_loss)}",
        f"RMSE (bins):    {_fmt(o.rmse_bins)}  ({ev.options.binning} binning, {ev.options.weighting} weights)",
        f"AUC:            {_fmt(o.auc)}",
        f"Retention:      measured {_fmt(o.retention * 100, 1)}%, predicted {_fmt(o.mean_predicted * 100, 1)}%",
        "",
        "Calibration (predicted R bin: reviews, mean predicted, measured, 95% interval):",
    ]
    for b in ev.calibration.bins:
        lines.append(
            f"  {b.lower:5.3f}-{b.upper:5.3f}: {b.count:8,d}  {b.mean_predicted:6.3f}  {b.mean_actual:6.3f}"
            f"  [{b.ci_low:5.3f}, {b.ci_high:5.3f}]"
        )
    if len(ev.decks) > 1:
        lines += ["", "Per deck (cards whose home deck it is):"]
        width = min(48, max(len(d.name) for d in ev.decks))
        for d in ev.decks:
            s = d.scores
            lines.append(
                f"  {d.name[:width]:<{width}}  {s.reviews:8,d}  log loss {_fmt(s.log_loss)}"
                f"  RMSE {_fmt(s.rmse_bins)}  AUC {_fmt(s.auc)}"
            )
    lines += ["", "Parameters:"]
    for p in ev.params:
        kept = "kept" if p.same_day == "keep" else "dropped"
        lines.append(f"  {p.preset}: {p.source} ({p.length}), same-day repeats {kept}, {p.cards:,} cards")
    for note in ev.notes:
        lines.append(f"Note: {note}")
    return "\n".join(lines)
