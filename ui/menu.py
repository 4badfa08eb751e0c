"""Tools-menu entry that runs the evaluation in the background and shows the report."""

from __future__ import annotations

from typing import Any

from aqt import mw
from aqt.operations import QueryOp
from aqt.qt import QAction
from aqt.utils import showText, showWarning

from ..metrics.collection import read_collection
from ..metrics.errors import EvaluationError
from ..metrics.evaluate import Evaluation, Options, evaluate
from ..metrics.params import short_term_floor_rating
from ..metrics.report import format_report

MENU_TEXT = "FSRS Calibration…"


def _options() -> Options:
    """Return evaluation options from the add-on's config.json (defaults where unset)."""
    from anki.buildinfo import version

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
    options = _options()

    def op(col: Any) -> Evaluation | str:
        try:
            return evaluate(read_collection(col), options)
        except EvaluationError as err:
            return str(err)

    def done(result: Evaluation | str) -> None:
        if isinstance(result, str):
            showWarning(result, title="FSRS Calibration")
            return
        showText(format_report(result), title="FSRS Calibration", plain_text_edit=True)

    QueryOp(parent=mw, op=op, success=done).with_progress("Evaluating FSRS…").run_in_background()


def register() -> None:
    """Add "FSRS Calibration…" to the Tools menu."""
    action = QAction(MENU_TEXT, mw)
    action.triggered.connect(run_on_collection)
    mw.form.menuTools.addAction(action)
