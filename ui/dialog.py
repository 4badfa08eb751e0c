"""The FSRS Calibration dialog: the shell around the tabs. The header (scope and options) is scope_bar.py,
the job's status job_status.py, the tabs views/, the background work operations.py (each job a QueryOp
whose `op` touches no widget or dialog state; results are applied here, on the main thread)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aqt.qt import (
    QApplication,
    QCheckBox,
    QDialog,
    QFileDialog,
    QLabel,
    QPushButton,
    QSize,
    Qt,
    QTabWidget,
    QWidget,
)

from ..metrics.errors import EvaluationError
from ..metrics.explain import counts
from ..metrics.explain import formatting as fmt
from ..metrics.read.collection_file import damage_text, is_damage
from . import operations
from .export_flow import Exporting
from .geometry import fit_to_screen
from .job_status import Controls, JobStatus
from .layout import build
from .scope_bar import ScopeBar
from .summary import describe, headline, save_folder
from .views import NEXT_TURN_MS, Views
from .views.results import ResultsView
from .views.whattodo import WhatToDoView

TITLE = "FSRS Calibration"
__all__ = ["NEXT_TURN_MS", "TITLE", "CalibrationDialog"]


class CalibrationDialog(QDialog):
    """Non-modal dialog: pick a scope and options, evaluate in the background, read the results in tabs."""

    # the widgets, made by layout.build
    bar: ScopeBar
    run_button: QPushButton
    job: JobStatus
    headline: QLabel
    stale_label: QLabel
    views: Views
    tabs: QTabWidget
    save_button: QPushButton
    copy_button: QPushButton
    remember: QCheckBox
    whattodo: WhatToDoView  # the views built at once, and the status line, by name
    results: ResultsView
    status: QLabel

    def __init__(
        self,
        parent: QWidget | None,
        runner: Any,
        config: dict[str, Any],
        save_config: Callable[[dict[str, Any]], None] | None = None,
        anki_version: str = "",
        history: str | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(TITLE)
        self.setWindowModality(Qt.WindowModality.NonModal)
        self.runner, self.config, self.save_config, self.anki_version = runner, dict(config), save_config, anki_version
        self.history = history  # the file of past diagnoses (the add-on's user files), or None
        self.evaluation: Any = None
        self.comparison: Any = None
        self.diagnosis: Any = None
        self.export_tables: Any = None
        self.message = self.export_summary = ""
        self._cache: dict[tuple[str, int], Any] = {}  # one scope's data, kept for the next job
        self._reads = 0  # how many times the revlog was read (tests check the cache)
        self._fitted = False
        self._restart = False  # start() again once the running job has ended
        build(self)
        self.exporting = Exporting(self)
        self.bar.fill(runner.collection())
        self.bar.load(self.config)

    # -- the parts the tests and the end-to-end driver use by name --------------------------
    @property
    def running(self) -> bool:
        """Return True while a job runs in the background."""
        return self.job.running

    @property
    def busy(self) -> bool:
        """Return True while a job runs or one is about to start (the diagnosis after the evaluation)."""
        return self.job.running or self.job.pending > 0

    @property
    def stale(self) -> bool:
        return self.views.stale

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt name)
        return QSize(920, 760)

    def showEvent(self, event: Any) -> None:  # noqa: N802 (Qt name)
        super().showEvent(event)
        if not self._fitted:
            self._fitted = True
            fit_to_screen(self)

    # -- scope and options ----------------------------------------------------------------
    def set_scope(self, kind: str, value: str = "") -> None:
        """Select a scope: collection, deck (name), preset (name) or search (text)."""
        self.bar.set_scope(kind, value)

    def scope(self) -> tuple[str, str]:
        """Return the chosen (kind, value)."""
        s = self.bar.scope()
        return s.kind, s.value

    def options(self) -> Any:
        """Return the engine Options of the current choices (imports the engine: numpy)."""
        return operations.options(self.bar.choices(), self.anki_version)

    def _changed(self) -> None:
        """A scope or option changed: results shown so far no longer match."""
        self.export_tables = None
        if "export" in self.views.built:
            self.views.get("export").clear("")
        if self.evaluation is not None or self.comparison is not None or self.diagnosis is not None:
            self.set_stale(True)

    def set_stale(self, stale: bool) -> None:
        """Grey out the shown results and say they are out of date (or undo that)."""
        self.stale_label.setVisible(stale)
        self.views.set_stale(stale)

    def _remember(self) -> None:
        s = self.bar.scope()
        self.config.update(self.bar.choices(), scope=s.kind, scope_value=s.value)
        if self.save_config is not None and self.remember.isChecked():
            self.save_config({k: v for k, v in self.config.items() if not k.startswith("_")})

    # -- jobs -------------------------------------------------------------------------------
    def _start(self, text: str, reads_scope: bool = True) -> operations.Request | None:
        """Start a job: return its request, or None when one runs already or the scope is incomplete."""
        missing = self.bar.missing()
        if self.running or (reads_scope and missing):
            if missing and not self.running:
                self._show_message(missing)
            return None
        col = self.runner.collection()
        scope = self.bar.scope()
        controls: Controls = self.job.start(text)
        self.run_button.setEnabled(False)
        self.views.set_running(True)
        key = scope.key(col)
        return operations.Request(
            self, scope, controls, self.bar.choices(), self.anki_version, self._cache.get(key), key
        )

    def _ended(self, text: str = "") -> None:
        self.job.finish(text)
        self.run_button.setEnabled(True)
        self.views.set_running(False)
        if self._restart:
            self._restart = False
            self.job.later(self.start, NEXT_TURN_MS)

    def _keep(self, req: operations.Request, done: operations.Done) -> Any:
        """Keep the scope's data the op read (one scope only: the revlog arrays can be large)."""
        if req.cached is None:
            self._cache = {req.key: done.data}
            self._reads += 1
        return done.result

    def start(self) -> None:
        """What opening the dialog does: evaluate, then (unless the config says not to) diagnose. A job still
        running (the dialog opened again on another deck) is cancelled first, then this starts."""
        if self.running:
            self._restart = True
            self.cancel()
            return
        self.run(then=self.run_diagnosis if self.config.get("auto_diagnose", True) else None)

    def run(self, then: Callable[[], None] | None = None) -> None:
        """Start an evaluation of the current scope and options in the background; then `then` on success."""
        req = self._start("Evaluating…")
        if req is None:
            return
        self._remember()
        scope = self.bar.scope_text()

        def success(done: operations.Done) -> None:
            self._ended()
            self.show_evaluation(self._keep(req, done), scope, keep_tab=then is not None)
            if then is not None:  # in the next turn: the results are painted first
                self.job.later(then, NEXT_TURN_MS)

        self.runner.start(operations.evaluate(req, success, self._failed))

    def run_compare(self) -> None:
        """Compare the models on the current scope in the background (trains FSRS five times)."""
        req = self._start("Comparing models…")
        if req is None:
            return
        self.comparison = None

        def success(done: operations.Done) -> None:
            self._ended()
            self.show_comparison(self._keep(req, done))

        self.runner.start(operations.compare(req, success, self._failed))

    def show_comparison(self, cmp: Any) -> None:
        """Show a comparison in its tab."""
        self.comparison = cmp
        view = self.views.get("compare")
        view.show_comparison(cmp)  # type: ignore[attr-defined]
        view.set_stale(False)
        if self.evaluation is None or not self.stale:
            self.set_stale(False)
        self.job.say(f"Compared on {fmt.count(cmp.reviews_compared)} of {fmt.count(cmp.reviews_total)} reviews.")

    def run_diagnosis(self) -> None:
        """Diagnose the current scope in the background (runs Anki's health check per preset: it trains)."""
        req = self._start("Finding out what to do…")
        if req is None:
            return
        self.diagnosis = None

        def success(done: operations.Done) -> None:
            result = self._keep(req, done)
            acting = sum(f.verdict in ("problem", "suggestion") for f in result.findings)
            self._ended(f"{counts.things_to_do(acting)}, from {fmt.count(result.reviews)} reviews.")
            self.diagnosis = result
            self.whattodo.show_diagnosis(result)
            self.whattodo.set_stale(False)
            self.tabs.setCurrentWidget(self.whattodo)

        self.runner.start(operations.diagnose(req, self.history, success, self._failed))

    def prepare_export(self, then: Callable[[Any], None] | None = None) -> None:
        """Build the benchmark tables of the current scope in the background; then(tables) on success."""
        self.exporting.prepare(then)

    def save_export(self, path: str, then: Callable[[str], None] | None = None) -> None:
        """Write the prepared export to `path` in the background (whole or not at all)."""
        self.exporting.save(path, then)

    def export_flow(self) -> None:
        """Prepare the export of the current scope, say what it holds, ask where to save it."""
        self.exporting.flow()

    def cancel(self) -> None:
        """Ask the running job to stop; results shown from before are marked out of date."""
        if self.job.cancel() and (self.evaluation is not None or self.comparison is not None):
            self.set_stale(True)

    def _failed(self, error: Exception) -> None:
        from ..metrics.errors import Cancelled

        self._ended()
        if isinstance(error, Cancelled):
            self.job.say("Cancelled.")
            if self.evaluation is not None or self.comparison is not None:
                self.set_stale(True)
        elif isinstance(error, EvaluationError):
            self._show_message(str(error))
        elif is_damage(error):  # Anki's backend or SQLite cannot read part of the collection
            text = damage_text(str(error))
            self._show_message(text[:1].upper() + text[1:])
        else:
            self._show_message(f"The evaluation failed: {error}")
            raise error  # an unexpected error: let Anki's error handler report it

    # -- results ----------------------------------------------------------------------------
    def _show_message(self, text: str) -> None:
        self.message = text
        self.evaluation = None
        self.headline.setText(text)
        self.views.clear(text)
        self.set_stale(False)
        self._set_results_enabled(False)

    def _set_results_enabled(self, enabled: bool) -> None:
        self.save_button.setEnabled(enabled)
        self.copy_button.setEnabled(enabled)

    def show_evaluation(self, ev: Any, scope: str | None = None, keep_tab: bool = False) -> None:
        """Show an engine Evaluation in every view, with a headline naming what produced it."""
        self.evaluation = ev
        self.message = ""
        self.headline.setText(f"{describe(ev, scope or self.bar.scope_text())}<br>{headline(ev)}")
        self.views.show_evaluation(ev)
        self.set_stale(False)
        if self.comparison is not None:
            self.views.get("compare").set_stale(True)  # made with the earlier choices
        if self.diagnosis is not None:
            self.whattodo.set_stale(True)
        elif self.tabs.currentWidget() is self.whattodo and not keep_tab:
            self.tabs.setCurrentWidget(self.results)  # nothing to show there yet: show the numbers
        self._set_results_enabled(True)

    def act(self, action: dict[str, Any]) -> None:
        """Carry out a finding's action through Anki's own screens (Deck Options, the Browser) or here."""
        from .anki_screens import carry_out

        carry_out(action, lambda search: self.evaluate_scope("search", search))

    def evaluate_scope(self, kind: str, value: str) -> None:
        """Evaluate another scope: a deck of the Decks tab, the search of a finding's "evaluate" action."""
        self.set_scope(kind, value)
        self.run()

    def copy_results(self) -> None:
        """Put the text report on the clipboard."""
        from ..metrics.explain.report import format_report

        clipboard = QApplication.clipboard()
        if self.evaluation is not None and clipboard is not None:
            clipboard.setText(format_report(self.evaluation))

    def save_chart(self, path: str) -> None:
        """Write the calibration chart to a PNG or SVG file (never over the collection)."""
        col = self.runner.collection()
        self.results.chart.save(path, protected=[col.path] if col is not None else [])

    def _save_chart_dialog(self) -> None:
        kinds = "PNG image (*.png);;SVG image (*.svg)"
        path, _ = QFileDialog.getSaveFileName(self, "Save chart", save_folder("fsrs-calibration.png"), kinds)
        if path:
            try:
                self.save_chart(path)
            except (OSError, EvaluationError) as err:
                self.job.say(f"Could not save: {err}")

    def closeEvent(self, event: Any) -> None:  # noqa: N802 (Qt name)
        self.cancel()
        super().closeEvent(event)
