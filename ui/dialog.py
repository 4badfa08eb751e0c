"""The FSRS Calibration dialog: the shell around the tabs. The header (scope and options) is scope_bar.py,
the job's status job_status.py, the tabs views/, the background work operations.py (each job a QueryOp
whose `op` touches no widget or dialog state; results are applied here, on the main thread)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from aqt.qt import QApplication, QCheckBox, QDialog, QFileDialog, QLabel, QPushButton, QSize, Qt, QTabWidget, QWidget

from ..metrics.errors import EvaluationError
from ..metrics.explain import formatting as fmt
from ..metrics.explain import headline
from ..metrics.explain.lang import N_, _, current, text
from ..metrics.kinds import AnkiAction, FindingId
from ..metrics.report.plan_view import plan_view
from . import operations
from .export_flow import Exporting
from .freshness import Freshness
from .geometry import fit_to_screen
from .job_status import JobStatus
from .jobs import Jobs
from .layout import build
from .runner import Runner
from .scope_bar import ScopeBar
from .settings import checked
from .summary import describe, save_folder
from .text import set_plain, set_rich
from .turns import NEXT_TURN_MS
from .views import Views
from .views.results import ResultsView
from .views.whattodo import WhatToDoView

if TYPE_CHECKING:
    from anki.collection import Collection
    from aqt.qt import QCloseEvent, QShowEvent

    from ..metrics.jobs.compare import Comparison
    from ..metrics.jobs.diagnose.diagnosis import Diagnosis
    from ..metrics.jobs.evaluate import Evaluation
    from ..metrics.jobs.options import Options
    from ..metrics.read.dataset_layout import Tables

TITLE = N_("FSRS Calibration")
DETAILS = N_("<b>{scope}</b>: {details}")  # the Calibration tab's first line; the add-on's markup, values escaped
__all__ = ["NEXT_TURN_MS", "TITLE", "CalibrationDialog"]


class CalibrationDialog(QDialog):
    """Non-modal dialog: pick a scope and options, evaluate in the background, read the results in tabs."""

    # the widgets, made by layout.build
    bar: ScopeBar
    run_button: QPushButton
    job: JobStatus
    headline: QLabel
    stale_label: QLabel
    notice: QLabel  # what the learner should know about the add-on's settings and files (plain lines)
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
        runner: Runner,
        config: object,  # the add-on's settings as Anki's config editor left them (checked here)
        save_config: Callable[[dict[str, str | bool]], None] | None = None,
        anki_version: str = "",
        history: str | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(_(TITLE))
        rtl = current().right_to_left  # mirrored in Arabic, Hebrew … (as Anki is; also when only we are)
        self.setLayoutDirection(Qt.LayoutDirection.RightToLeft if rtl else Qt.LayoutDirection.LeftToRight)
        self.setWindowModality(Qt.WindowModality.NonModal)
        self.config, problems = checked(config)  # a bad setting: its default, and one line saying so
        self.runner, self.save_config, self.anki_version = runner, save_config, anki_version
        self.history = history  # the file of past diagnoses (the add-on's user files), or None
        self.kept_file: str | None = None  # the file of each preset's numbers, for Deck Options (menu.py)
        self.fresh = Freshness()  # what each result shown was made for, and what changed since
        self.closed = False  # closed by the learner (or with the profile): no job's outcome is shown any more
        self.evaluation: Evaluation | None = None
        self.comparison: Comparison | None = None
        self.diagnosis: Diagnosis | None = None
        self.export_tables: Tables | None = None
        self.message = self.export_summary = ""
        self._fitted = False
        self.jobs = Jobs(self)
        build(self, self)
        self.exporting = Exporting(self)
        self.bar.fill(cast("Collection", runner.collection()))  # opened on an open collection (menu.py)
        self.bar.load(self.config)
        self.tell(problems)

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

    @property
    def _reads(self) -> int:
        """How many times the revlog was read (tests check that a scope is read once)."""
        return self.jobs.reads

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt name)
        return QSize(920, 760)

    def showEvent(self, event: QShowEvent | None) -> None:  # noqa: N802 (Qt name)
        super().showEvent(event)
        if not self._fitted:
            self._fitted = True
            fit_to_screen(self)

    # -- scope and options ----------------------------------------------------------------
    def set_scope(self, kind: str, value: str = "") -> None:
        """Select a scope: collection, deck (name), preset (name) or search (text)."""
        self.bar.set_scope(kind, value)

    def set_cards(self, ids: list[int]) -> None:
        """Select the scope of these cards, by their ids (the Browser's selection)."""
        self.bar.set_cards(ids)

    def scope(self) -> tuple[str, str]:
        """Return the chosen (kind, value)."""
        s = self.bar.scope()
        return s.kind, s.value

    def options(self) -> Options:
        """Return the engine Options of the current choices (imports the engine: numpy)."""
        return operations.options(self.bar.choices(), self.anki_version)

    def _changed(self) -> None:
        """A scope or option changed: results shown so far may no longer match."""
        self.export_tables = None
        if "export" in self.views.built:
            self.views.get("export").clear("")
        self.refresh()

    def collection_changed(self, answered: bool = False, lists: bool = False) -> None:
        """Anki changed the collection (a review answered, cards, decks or presets changed): the results shown
        are out of date and say so; with `lists`, the deck and preset lists follow Anki's as they are now."""
        if answered:
            self.fresh.answered()
        else:
            self.fresh.changed()
        if lists and not self.closed and (col := self.runner.collection()) is not None:
            self.bar.fill(col)
        self.refresh()

    def refresh(self) -> None:
        """Mark each result shown that no longer matches the scope, options and collection (or undo that)."""
        scope, choices = self.bar.scope(), self.bar.choices()
        why = self.fresh.why_stale("evaluation", scope, choices)
        why_diagnosis = self.fresh.why_stale("diagnosis", scope, choices, uses_choices=False)
        why_comparison = self.fresh.why_stale("comparison", scope, choices)
        lines = [w for w in (why, why_diagnosis, why_comparison) if w]
        set_plain(self.stale_label, "\n".join(lines))
        self.stale_label.setVisible(bool(lines))
        self.views.set_stale(bool(why))
        if "compare" in self.views.built:
            self.views.get("compare").set_stale(bool(why_comparison))
        self.whattodo.set_stale(bool(why_diagnosis))

    def tell(self, lines: list[str] | tuple[str, ...]) -> None:
        """Show what the learner should know about the add-on's own settings and files (plain lines)."""
        shown = [line for line in self.notice.text().split("\n") if line]
        shown += [line for line in lines if line not in shown]
        set_plain(self.notice, "\n".join(shown))
        self.notice.setVisible(bool(shown))

    def _remember(self) -> None:
        s = self.bar.scope()
        self.config.update(self.bar.choices())
        if s.kind != "cards":  # a Browser selection is not one to open on next time
            self.config.update(scope=s.kind, scope_value=s.value)
        if self.save_config is not None and self.remember.isChecked():
            self.save_config({k: v for k, v in self.config.items() if not k.startswith("_")})

    # -- jobs -------------------------------------------------------------------------------
    def start(self) -> None:
        """On opening: evaluate, then diagnose (unless the config says not to); a running job is cancelled first."""
        if self.running:
            self.jobs.restart = True
            self.cancel()
            return
        self.run(then=self.run_diagnosis if self.config["auto_diagnose"] else None)

    def run(self, then: Callable[[], None] | None = None) -> None:
        """Evaluate the current scope and options in the background; on success `then`, if they are still chosen."""
        text = self.bar.scope_text()

        def show(_req: operations.Request, ev: Evaluation) -> None:
            self.jobs.ended()
            self.show_evaluation(ev, text, keep_tab=then is not None)
            self.refresh()
            if then is not None and not self.stale:  # still what is selected; its results painted first
                self.job.later(then, NEXT_TURN_MS)

        self.jobs.launch(_("Evaluating…"), "evaluation", operations.evaluate, show, self._remember)

    def run_compare(self) -> None:
        """Compare the models on the current scope in the background (trains FSRS five times)."""
        self.comparison = None

        def show(_req: operations.Request, cmp: Comparison) -> None:
            self.jobs.ended()
            self.show_comparison(cmp)

        self.jobs.launch(_("Comparing models…"), "comparison", operations.compare, show, lambda: None)

    def show_comparison(self, cmp: Comparison) -> None:
        """Show a comparison in its tab."""
        self.comparison = cmp
        self.views.get("compare").show_comparison(cmp)  # type: ignore[attr-defined]
        compared, total = fmt.count(cmp.reviews_compared), fmt.count(cmp.reviews_total)
        self.job.say(text("Compared on {compared} of {total} reviews.", compared=compared, total=total))

    def run_diagnosis(self) -> None:
        """Diagnose the current scope in the background (runs Anki's health check per preset: it trains)."""
        self.diagnosis = None

        def show(_req: operations.Request, result: Diagnosis) -> None:
            self.jobs.ended(_diagnosed(result.reviews))
            self.show_diagnosis(result)

        diagnose = lambda req, success, failure: operations.diagnose(req, self.history, success, failure)  # noqa: E731
        self.jobs.launch(_("Finding out what to do…"), "diagnosis", diagnose, show, lambda: None)

    def prepare_export(self, then: Callable[[Tables], None] | None = None) -> None:
        """Build the benchmark tables of the current scope in the background; then(tables) on success."""
        self.exporting.prepare(then)

    def save_export(self, path: str, then: Callable[[str], None] | None = None) -> None:
        """Write the prepared export to `path` in the background (whole or not at all)."""
        self.exporting.save(path, then)

    def export_flow(self) -> None:
        """Prepare the export of the current scope, say what it holds, ask where to save it."""
        self.exporting.flow()

    def cancel(self) -> None:
        """Ask the running job to stop (the results shown stay, marked if they no longer match)."""
        self.job.cancel()

    # -- results ----------------------------------------------------------------------------
    def _show_message(self, text: str) -> None:
        self.message = text
        self.evaluation = None
        set_plain(self.headline, text)
        self.views.clear(text)
        self.fresh.keep("evaluation", None)
        self.refresh()
        self._set_results_enabled(False)

    def _set_results_enabled(self, enabled: bool) -> None:
        self.save_button.setEnabled(enabled)
        self.copy_button.setEnabled(enabled)

    def show_evaluation(self, ev: Evaluation, scope: str | None = None, keep_tab: bool = False) -> None:
        """Show an engine Evaluation in every view, with a headline naming what produced it."""
        self.evaluation = ev
        self.message = ""
        described = describe(ev, scope or self.bar.scope_text())
        diagnosing = keep_tab  # a diagnosis follows this evaluation
        o = ev.overall
        said = headline.before_diagnosis(o.rmse_bins, o.reviews, diagnosing) if o.reviews else described["numbers"]
        set_rich(self.headline, headline.scope_frame(), scope=described["scope"], sentence=said)
        self.views.show_evaluation(ev)
        set_rich(self.results.details, _(DETAILS), scope=described["scope"], details=described["details"])
        self.whattodo.ask_first(not diagnosing)
        if self.diagnosis is None and self.tabs.currentWidget() is self.whattodo and not keep_tab:
            self.tabs.setCurrentWidget(self.results)  # nothing to show there yet: show the numbers
        self._set_results_enabled(True)

    def show_diagnosis(self, dg: Diagnosis) -> None:
        """Show an engine Diagnosis: the learner's headline (agreeing with the plan) and What to do."""
        self.diagnosis = dg
        self.whattodo.show_diagnosis(dg)
        self.tabs.setCurrentWidget(self.whattodo)
        ev = self.evaluation
        if ev is None:
            return
        o, view = ev.overall, plan_view(dg.plan)
        too_few = "" if dg.plan else dg.first_line  # no plan: too few reviews for any verdict
        notes = sum(len(b.notes) for b in view.blocks)
        said = headline.after_diagnosis(o.rmse_bins, o.reviews, view.steps, notes, too_few, _beats(dg), view.later)
        set_rich(self.headline, headline.scope_frame(), scope=self.bar.scope_text(), sentence=said)

    def act(self, action: AnkiAction) -> None:
        """Carry out a finding's action through Anki's own screens (Deck Options, the Browser) or here."""
        from .anki_screens import carry_out

        carry_out(action, lambda search: self.evaluate_scope("search", search))

    def evaluate_scope(self, kind: str, value: str) -> None:
        """Evaluate (and diagnose) another scope: a deck of the Decks tab, or a finding's "evaluate" search."""
        self.set_scope(kind, value)
        self.start()

    def copy_results(self) -> None:
        """Put the text report on the clipboard."""
        from ..metrics.report.text import format_report

        clipboard = QApplication.clipboard()
        if self.evaluation is not None and clipboard is not None:
            clipboard.setText(format_report(self.evaluation))

    def save_chart(self, path: str) -> None:
        """Write the calibration chart to a PNG or SVG file (never over the collection)."""
        col = self.runner.collection()
        self.results.chart.save(path, protected=[col.path] if col is not None else [])

    def _save_chart_dialog(self) -> None:
        kinds = ";;".join((_("PNG image (*.png)"), _("SVG image (*.svg)")))
        start = save_folder("fsrs-calibration.png")
        path, _kind = QFileDialog.getSaveFileName(self, _("Save chart"), start, kinds)
        if path:
            try:
                self.save_chart(path)
            except (OSError, EvaluationError) as err:
                self.job.say(text("Could not save: {error}", error=err))

    def closeEvent(self, event: QCloseEvent | None) -> None:  # noqa: N802 (Qt name)
        self.cancel()
        self.closed = True  # whatever the running job brings back is dropped
        super().closeEvent(event)

    def done(self, result: int) -> None:
        """Closed by Escape, Close or Anki (the profile closing): as closeEvent."""
        self.cancel()
        self.closed = True
        super().done(result)


def _diagnosed(reviews: int) -> str:
    """Return the status line after a diagnosis: the reviews it read (the headline says what to do)."""
    return text("The plan is ready (from {reviews} reviews).", reviews=fmt.count(reviews))


def _beats(dg: Diagnosis) -> float | None:
    """Return the percentage of the FSRS benchmark's learners whose RMSE (bins) the scope's beats (None: unknown)."""
    from ..metrics.jobs.diagnose.standing import StandingEvidence  # loaded with the diagnosis already

    found = (f.evidence for f in dg.findings if f.id is FindingId.BENCHMARK_STANDING)
    standing = next((e for e in found if isinstance(e, StandingEvidence)), None)
    return standing.standing.rmse_beats if standing is not None else None
