"""Plain-text report of an evaluation (shared by the command line and the add-on).

Every line is a message of the catalog (lang.py), in the language in use, its numbers written by formatting.py;
the columns of a table are padded after the numbers are written. The indentation of the lines is not translated.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from ..explain import findings as finding_words
from ..explain import formatting as fmt
from ..explain import plan as plan_words
from ..explain import where as where_words
from ..explain.lang import N_, _, text
from ..explain.names import BINS, SOURCES, VERSIONS, WEIGHTS
from ..jobs.diagnose import Diagnosis
from ..jobs.evaluate import Evaluation
from ..kinds import Scope
from .advice import comparison_advice
from .plan_view import Block, Numbered, joined, plan_view

WHERE_ROWS = (  # a bin of "Where the error is": beyond chance, enough reviews, too few reviews to judge
    N_("{bin} {reviews}  {predicted}  {measured}  [{interval}]  {off_by} *"),
    N_("{bin} {reviews}  {predicted}  {measured}  [{interval}]  {off_by}"),
    N_("{bin} {reviews}  {predicted}  {measured}  [{interval}]  {off_by}  (too few)"),
)
COMPARISON_HEADERS = (N_("model"), N_("log loss"), N_("95% interval"), N_("RMSE (bins)"), N_("AUC"), N_("UM+ max"))
COMPARISON_WIDTHS = (-20, 9, 17, 12, 6, 8)  # negative: left-aligned


def _rate(x: float) -> str:
    """Return a probability or a recall rate with 3 decimals ("0.912"), as the calibration table writes it."""
    return fmt.local(f"{x:.3f}")


_LABELLED = re.compile(r"^(.*?(?::(?=\s)|：))\s*(\S.*)$")  # "Label:  value" (a full-width colon needs no space)


def width(said: str) -> int:
    """Return how many columns a text takes in a terminal (East Asian wide and full-width letters: two)."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 0 if unicodedata.combining(c) else 1 for c in said)


def columns(lines: list[str]) -> list[str]:
    """Return "label: value" lines with their values in one column, however wide the language's labels are."""
    parts = [_LABELLED.match(line) for line in lines]
    widest = max((width(m.group(1)) for m in parts if m), default=0)
    return [
        f"{m.group(1)}{' ' * (widest + 1 - width(m.group(1)))}{m.group(2)}" if m else line
        for m, line in zip(parts, lines, strict=True)
    ]


def format_report(ev: Evaluation) -> str:
    """Return the plain-text report of an evaluation, in the language in use."""
    o = ev.overall
    lines = [
        text("Reviews scored: {reviews} on {cards} cards", reviews=fmt.count(o.reviews), cards=fmt.count(o.cards)),
        text("Log loss:       {log_loss}", log_loss=fmt.log_loss(o.log_loss)),
        text(
            "RMSE (bins):    {rmse}  ({binning}, {weighting})",
            rmse=fmt.rmse(o.rmse_bins),
            binning=_(BINS[ev.options.binning]) if ev.options.binning in BINS else fmt.name(ev.options.binning),
            weighting=_(WEIGHTS["recency" if ev.options.weighting == "recency" else "uniform"]),
        ),
        text("AUC:            {auc}", auc=fmt.auc(o.auc)),
        text(
            "Retention:      measured {measured}, predicted {predicted}",
            measured=fmt.percent(o.retention),
            predicted=fmt.percent(o.mean_predicted),
        ),
    ]
    lines = columns(lines) + [
        "",
        _("Calibration (predicted R bin: reviews, mean predicted, measured, 95% interval):"),
    ]
    for b in ev.calibration.bins:
        row = text(
            "{lower}-{upper}: {reviews}  {predicted}  {measured}  [{low}, {high}]",
            lower=f"{_rate(b.lower):>5}",
            upper=f"{_rate(b.upper):>5}",
            reviews=f"{fmt.count(b.count):>8}",
            predicted=f"{_rate(b.mean_predicted):>6}",
            measured=f"{_rate(b.mean_actual):>6}",
            low=f"{_rate(b.ci_low):>5}",
            high=f"{_rate(b.ci_high):>5}",
        )
        lines.append("  " + row)
    lines += _deck_lines(ev) + _where_lines(ev) + _month_lines(ev)
    lines += ["", _("Parameters:")]
    for p in ev.params:
        values = {
            "preset": fmt.name(p.preset),
            "source": _(SOURCES[p.source]) if p.source in SOURCES else VERSIONS.get(p.length, _(SOURCES["given"])),
            "length": fmt.count(p.length),
            "cards": fmt.count(p.cards),
        }
        if p.same_day == "keep":
            lines.append("  " + text("{preset}: {source} ({length}), same-day repeats kept, {cards} cards", **values))
        else:
            lines.append(
                "  " + text("{preset}: {source} ({length}), same-day repeats dropped, {cards} cards", **values)
            )
    for note in ev.notes:
        lines.append(text(plan_words.NOTE, note=note))
    return "\n".join(lines)


def _deck_lines(ev: Evaluation) -> list[str]:
    """Return the report's "Per deck": each deck's reviews and scores (none for a scope of one deck)."""
    if len(ev.decks) <= 1:
        return []
    lines = ["", _("Per deck (cards whose home deck it is):")]
    width = min(48, max(len(d.name) for d in ev.decks))
    for d in ev.decks:
        s = d.scores
        row = text(
            "{deck}  {reviews}  log loss {log_loss}  RMSE {rmse}  AUC {auc}",
            deck=fmt.name(f"{d.name[:width]:<{width}}"),
            reviews=f"{fmt.count(s.reviews):>8}",
            log_loss=fmt.log_loss(s.log_loss),
            rmse=f"{fmt.rmse(s.rmse_bins):>8}",
            auc=fmt.auc(s.auc),
        )
        lines.append("  " + row)
    return lines


def _where_lines(ev: Evaluation) -> list[str]:
    """Return the report's "Where the error is": the summary sentence and each feature's bins."""
    from ..score.where import MIN_REVIEWS

    if not ev.where:
        return []
    lines = ["", _("Where the error is:"), "  " + where_words.summary(ev.where_worst, MIN_REVIEWS)]
    lines.append(_("(bin: reviews, predicted, measured recall, its 95% interval, off by; * beyond chance)"))
    for feature, errors in ev.where.items():
        title = where_words.FEATURE_TITLES.get(feature)
        lines.append("  " + text("{feature}:", feature=_(title) if title else feature))
        for e in errors:
            label = where_words.bin_label(feature, e.lowest, e.highest)
            if feature == "interval":
                label = text("{days} d", days=label)  # a range of days
            row = WHERE_ROWS[0] if e.beyond_chance else WHERE_ROWS[1] if e.enough else WHERE_ROWS[2]
            line = text(
                row,
                bin=f"{label:<12}",
                reviews=f"{fmt.count(e.count):>8}",
                predicted=f"{fmt.percent(e.predicted):>6}",
                measured=f"{fmt.percent(e.measured):>6}",
                interval=fmt.interval(e.ci_low, e.ci_high, "percent"),
                off_by=f"{fmt.points(e.error, True):>9}",
            )
            lines.append("    " + line)
    return lines


def _month_lines(ev: Evaluation) -> list[str]:
    """Return the report's "Over time": each calendar month's reviews and how well they were predicted."""
    if not ev.over_time:
        return []
    lines = ["", _("By month (reviews, predicted, measured recall, log loss, RMSE (bins)):")]
    for m in ev.over_time:
        row = text(
            "{month}  {reviews}  {predicted}  {measured}  {log_loss}  {rmse}",
            month=fmt.month(m.month),
            reviews=f"{fmt.count(m.reviews):>8}",
            predicted=f"{fmt.percent(m.predicted):>6}",
            measured=f"{fmt.percent(m.measured):>6}",
            log_loss=fmt.log_loss(m.log_loss),
            rmse=f"{fmt.rmse(m.rmse_bins):>9}",
        )
        lines.append("  " + row)
    return lines


def format_plan(diagnosis: Diagnosis) -> list[str]:
    """Return the plan as plain-text lines, as the dialog shows it (report/plan_view.py): the steps numbered once
    across presets (the findings behind each in brackets), a step or note several presets share said once naming
    them, then the presets that need nothing; the scope's first line when nothing needs doing. The steps, notes and
    first line are in the language the diagnosis was made in; the rest in the language in use."""
    lines = [_(plan_words.PLAN_TITLE)]
    if diagnosis.first_line:
        lines.append(f"  {diagnosis.first_line}")
    view = plan_view(diagnosis.plan)
    for block in view.blocks:
        lines += _plan_block(block)
    if view.nothing:
        names = fmt.listed([text(plan_words.QUOTED, name=fmt.name(p)) for p in view.nothing])
        lines.append("  " + text(plan_words.NOTHING_FOR, presets=names))
    return lines


def _plan_block(block: Block) -> list[str]:
    """Return a block of the plan as plain-text lines: under its preset's heading, or (a plan of several presets)
    after its part's heading, each line naming its presets."""
    if block.when is not None:
        lines = [f"  {_(plan_words.WHEN_HEADS[block.when])}:"] if block.opens else []
        for shown in block.steps:
            lines += [f"    {_step_line(shown, block.presets)}"] + _aside(shown)
        said = joined(block.notes)
        return lines + ([f"    {_for(block.presets, said)}"] if said else [])
    if block.shared:
        names = fmt.listed([text(plan_words.QUOTED, name=fmt.name(p)) for p in block.presets])
        lines = ["  " + text(plan_words.PRESETS_HEAD, presets=names, reviews=fmt.count(block.reviews))]
    else:
        values = {"preset": fmt.name(block.presets[0]), "reviews": fmt.count(block.reviews)}
        lines = ["  " + text(plan_words.PRESET_HEAD, **values)]
    for shown in block.steps:
        lines += [f"    {_step_line(shown)}"] + _aside(shown)
    return lines + [f"    {note.text}" for note in block.notes]


def _aside(shown: Numbered) -> list[str]:
    """Return the note said with a step (a habit to check beside Optimize), under it."""
    return [f"       {shown.aside.text}"] if shown.aside is not None else []


def _step_line(shown: Numbered, presets: tuple[str, ...] = ()) -> str:
    """Return a numbered step (after the presets it is for, when given), the findings behind it in brackets."""
    step = shown.step
    said = text(plan_words.SAME_SCREEN, step=step.text) if shown.same_screen else step.text
    said = _for(presets, said) if presets else said
    return text(plan_words.STEP, number=fmt.count(shown.number), step=said, because=", ".join(step.because))


def _for(presets: tuple[str, ...], said: str) -> str:
    """Return a line of a plan of several presets, after the presets it is for."""
    if len(presets) > 1:
        names = fmt.listed([text(plan_words.QUOTED, name=fmt.name(p)) for p in presets])
        return text(plan_words.FOR_PRESETS, presets=names, said=said)
    return text(plan_words.FOR_PRESET, preset=fmt.name(presets[0]), said=said)


def format_diagnosis(diagnosis: Diagnosis) -> str:
    """Return the plain-text plan, then the findings: verdict, scope, summary, what to do and why (after the
    presets left out, one line each). Verdicts and findings are named by their ids, as --json names them."""
    lines = list(diagnosis.notes) + format_plan(diagnosis) + ["", _(plan_words.FINDINGS_TITLE)]
    for f in diagnosis.findings:
        values = {"verdict": f.verdict, "finding": f.id, "scope": _scope(f.scope), "summary": f.summary}
        lines.append(text("[{verdict}] {finding} — {scope}: {summary}", **values))
        if f.action:
            lines.append("    " + text("What to do: {action}", action=f.action))
        if f.why:
            lines.append("    " + text("Why: {why}", why=f.why))
    return "\n".join(lines)


def _scope(scope: Scope) -> str:
    """Return a finding's scope in the language in use."""
    return finding_words.shown_scope(scope)


def format_comparison(cmp: Any, given_params: bool = False) -> str:
    """Return the plain-text table of a comparison (`given_params`: fsrs-preset used the --params given), in the
    language in use. Models are named by their ids, as --models names them."""
    lines = [
        text(
            "Compared on {compared} of {total} scored reviews (the parts a time-series split tests: every review "
            "after the first sixth).",
            compared=fmt.count(cmp.reviews_compared),
            total=fmt.count(cmp.reviews_total),
        ),
        "",
        _columns([_(h) for h in COMPARISON_HEADERS]),
    ]
    for name, m in cmp.models.items():
        ump = [v for v in cmp.um_plus[name].values() if v is not None]
        cells = [
            name,
            fmt.log_loss(m.log_loss),
            fmt.interval(*m.log_loss_ci),
            fmt.rmse(m.rmse_bins),
            fmt.auc(m.auc),
            fmt.log_loss(max(ump) if ump else None),
        ]
        lines.append(_columns(cells))
    if given_params:
        lines += ["", _("fsrs-preset: FSRS with the parameters given with --params (not the presets').")]
    lines += [""] + comparison_advice(cmp)
    return "\n".join(lines)


def _columns(cells: list[str]) -> str:
    """Return a row of the comparison's table: each cell padded to its column (COMPARISON_WIDTHS)."""
    return " ".join(f"{c:<{-w}}" if w < 0 else f"{c:>{w}}" for c, w in zip(cells, COMPARISON_WIDTHS, strict=True))
