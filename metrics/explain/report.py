"""Plain-text report of an evaluation (shared by the command line and the add-on)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..jobs.evaluate import Evaluation
from . import formatting as fmt
from . import plan as plan_words
from . import where as where_words
from .advice import comparison_advice

if TYPE_CHECKING:
    from ..jobs.diagnose import Diagnosis


def format_report(ev: Evaluation) -> str:
    """Return the plain-text report of an evaluation."""
    o = ev.overall
    lines = [
        f"Reviews scored: {fmt.count(o.reviews)} on {fmt.count(o.cards)} cards",
        f"Log loss:       {fmt.log_loss(o.log_loss)}",
        f"RMSE (bins):    {fmt.rmse(o.rmse_bins)}  ({ev.options.binning} binning, {ev.options.weighting} weights)",
        f"AUC:            {fmt.auc(o.auc)}",
        f"Retention:      measured {fmt.percent(o.retention)}, predicted {fmt.percent(o.mean_predicted)}",
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
                f"  {d.name[:width]:<{width}}  {s.reviews:8,d}  log loss {fmt.log_loss(s.log_loss)}"
                f"  RMSE {fmt.rmse(s.rmse_bins):>8}  AUC {fmt.auc(s.auc)}"
            )
    lines += _where_lines(ev) + _month_lines(ev)
    lines += ["", "Parameters:"]
    for p in ev.params:
        kept = "kept" if p.same_day == "keep" else "dropped"
        lines.append(f"  {p.preset}: {p.source} ({p.length}), same-day repeats {kept}, {p.cards:,} cards")
    for note in ev.notes:
        lines.append(f"Note: {note}")
    return "\n".join(lines)


def _where_lines(ev: Evaluation) -> list[str]:
    """Return the report's "Where the error is": the summary sentence and each feature's bins."""
    from ..score.where import MIN_REVIEWS

    if not ev.where:
        return []
    lines = ["", f"Where the error is: {where_words.summary(ev.where_worst, MIN_REVIEWS)}"]
    lines.append("(bin: reviews, predicted, measured recall, its 95% interval, off by; * beyond chance)")
    for feature, errors in ev.where.items():
        lines.append(f"  {where_words.FEATURE_TITLES.get(feature, feature)}:")
        for e in errors:
            label = where_words.bin_label(feature, e.lowest, e.highest) + (" d" if feature == "interval" else "")
            lines.append(
                f"    {label:<12} {e.count:8,d}  {fmt.percent(e.predicted):>6}  {fmt.percent(e.measured):>6}"
                f"  [{fmt.interval(e.ci_low, e.ci_high, 'percent')}]  {fmt.points(e.error, True):>9}"
                + (" *" if e.beyond_chance else "" if e.enough else "  (too few)")
            )
    return lines


def _month_lines(ev: Evaluation) -> list[str]:
    """Return the report's "Over time": each calendar month's reviews and how well they were predicted."""
    if not ev.over_time:
        return []
    lines = ["", "By month (reviews, predicted, measured recall, log loss, RMSE (bins)):"]
    for m in ev.over_time:
        lines.append(
            f"  {m.month}  {m.reviews:8,d}  {fmt.percent(m.predicted):>6}  {fmt.percent(m.measured):>6}"
            f"  {fmt.log_loss(m.log_loss)}  {fmt.rmse(m.rmse_bins):>9}"
        )
    return lines


def format_plan(diagnosis: Diagnosis) -> list[str]:
    """Return the plan as plain-text lines: per preset its numbered steps (the findings behind each in
    brackets) and notes, or that it needs nothing; the scope's first line when nothing needs doing."""
    lines = [plan_words.PLAN_TITLE]
    if diagnosis.first_line:
        lines.append(f"  {diagnosis.first_line}")
    for p in diagnosis.plan:
        head = plan_words.PRESET_HEAD.format(preset=p.preset, reviews=fmt.count(p.reviews))
        if not p.steps and not p.notes:
            lines.append(f"  {head}: {plan_words.NOTHING}")
            continue
        lines.append(f"  {head}")
        for n, step in enumerate(p.steps, 1):
            lines.append(f"    {n}. {step.text} [{', '.join(step.because)}]")
        lines += [f"    {note}" for note in p.notes]
    return lines


def format_diagnosis(diagnosis: Diagnosis) -> str:
    """Return the plain-text plan, then the findings: verdict, scope, summary, what to do and why (after the
    presets left out, one line each)."""
    lines = list(diagnosis.notes) + format_plan(diagnosis) + ["", plan_words.FINDINGS_TITLE]
    for f in diagnosis.findings:
        lines.append(f"[{f.verdict}] {f.id} — {f.scope}: {f.summary}")
        if f.action:
            lines.append(f"    What to do: {f.action}")
        if f.why:
            lines.append(f"    Why: {f.why}")
    return "\n".join(lines)


def format_comparison(cmp: Any, given_params: bool = False) -> str:
    """Return the plain-text table of a comparison (`given_params`: fsrs-preset used the --params given)."""
    lines = [
        f"Compared on {fmt.count(cmp.reviews_compared)} of {fmt.count(cmp.reviews_total)} scored reviews "
        "(the parts a time-series split tests: every review after the first sixth).",
        "",
        f"{'model':<20} {'log loss':>9} {'95% interval':>17} {'RMSE (bins)':>12} {'AUC':>6} {'UM+ max':>8}",
    ]
    for name, m in cmp.models.items():
        ump = [v for v in cmp.um_plus[name].values() if v is not None]
        lines.append(
            f"{name:<20} {fmt.log_loss(m.log_loss):>9} {fmt.interval(*m.log_loss_ci):>17} {fmt.rmse(m.rmse_bins):>12}"
            f" {fmt.auc(m.auc):>6} {fmt.log_loss(max(ump) if ump else None):>8}"
        )
    if given_params:
        lines += ["", "fsrs-preset: FSRS with the parameters given with --params (not the presets')."]
    lines += [""] + comparison_advice(cmp)
    return "\n".join(lines)
