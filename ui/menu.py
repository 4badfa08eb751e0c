"""Tools-menu entry that runs the evaluation in the background and shows the report."""

from __future__ import annotations

from typing import Any

from aqt import mw
from aqt.operations import QueryOp
from aqt.qt import QAction
from aqt.utils import showText, showWarning

MENU_TEXT = "FSRS Calibration…"
TITLE = "FSRS Calibration"


def _options() -> Any:
    """Return evaluation options from the add-on's config.json (defaults where unset)."""
    from anki.buildinfo import version

    from ..metrics.evaluate import Options
    from ..metrics.params import short_term_floor_rating

    config: dict[str, Any] = mw.addonManager.getConfig(__name__) or {}
    return Options(
        params=config.get("params", "preset"),
        weighting=config.get("weighting", "uniform"),
        binning=config.get("binning", "benchmark"),
        same_day=config.get("same_day", "auto"),
        short_term_floor_rating=short_term_floor_rating(version),
    )


def run_on_collection() -> None:
    """Evaluate the whole collection in the background, then show the text report."""
    from ..metrics.collection import read_collection
    from ..metrics.errors import EvaluationError
    from ..metrics.evaluate import evaluate
    from ..metrics.report import format_report

    try:
        options = _options()
        options.validate()
    except EvaluationError as err:
        showWarning(f"{err}\n\nCheck the add-on's config (Tools → Add-ons → Config).", title=TITLE)
        return

    def op(col: Any) -> Any:
        try:
            return evaluate(read_collection(col), options)
        except EvaluationError as err:
            return str(err)

    def done(result: Any) -> None:
        if isinstance(result, str):
            showWarning(result, title=TITLE)
            return
        showText(format_report(result), title=TITLE, plain_text_edit=True)

    QueryOp(parent=mw, op=op, success=done).with_progress("Evaluating FSRS…").run_in_background()


def register(problem: str | None) -> None:
    """Add "FSRS Calibration…" to the Tools menu; with a startup problem it explains the problem instead."""
    action = QAction(MENU_TEXT, mw)
    if problem:
        action.triggered.connect(lambda: showWarning(problem, title=TITLE))
    else:
        action.triggered.connect(run_on_collection)
    mw.form.menuTools.addAction(action)
