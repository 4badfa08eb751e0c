"""The FSRS Calibration dialog: the shell around the tabs (scope, options, run and cancel, status, headline)."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import Any

from aqt.qt import (
    QApplication,
    QCheckBox,
    QComboBox,
    QDialog,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QSize,
    QSizePolicy,
    QStackedWidget,
    QStandardPaths,
    Qt,
    QTabWidget,
    QTimer,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ..metrics.errors import EvaluationError
from ..metrics.explain import formatting as fmt
from ..metrics.read.collection_file import damage_text, is_damage
from .tab_compare import CompareView
from .tab_decks import DecksView
from .tab_export import LEAVES as EXPORT_LEAVES
from .tab_export import NEVER as EXPORT_NEVER
from .tab_export import ExportView
from .tab_report import ReportView
from .tab_results import ResultsView
from .tab_whattodo import WhatToDoView
from .tab_where import WhereView
from .widgets import View, combo


def save_folder(name: str) -> str:
    """Return `name` in the user's Documents folder (else home): where save dialogs open."""
    folder = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    if not folder or not os.path.isdir(folder):
        folder = os.path.expanduser("~")
    return os.path.join(folder, name)


TITLE = "FSRS Calibration"
# A timer, not a zero-delay call: Qt runs zero-delay calls in the same pass as other posted events,
# so the event loop would get no turn between two steps (and the window none to repaint).
NEXT_TURN_MS = 1
# The tabs in order: (attribute, title).
_TABS = [("whattodo", WhatToDoView.title), ("results", ResultsView.title), ("where", WhereView.title),
         ("decks", DecksView.title), ("compare", CompareView.title), ("export", ExportView.title),
         ("report_view", ReportView.title)]  # fmt: skip
SCOPES = [
    ("collection", "Whole collection"),
    ("deck", "Deck (with subdecks)"),
    ("preset", "Preset"),
    ("search", "Search"),
]
PARAMS = [("preset", "Each card's preset"), ("default", "FSRS-6 default parameters")]
BINNINGS = [("benchmark", "Benchmark (Anki, FSRS benchmark)"), ("wiki", "The Metric page (wiki)")]
WEIGHTINGS = [("uniform", "Every review the same"), ("recency", "Recent reviews more (Anki's Evaluate)")]
SAME_DAY = [("auto", "Automatic (by parameter version)"), ("keep", "Keep in history (FSRS-5/6)"),
            ("drop", "Drop from history (FSRS-4.5)")]  # fmt: skip


def headline(ev: Any) -> str:
    """Return the plain-words summary of an evaluation."""
    o = ev.overall
    auc = "AUC n/a (only one kind of answer)" if o.auc is None else f"AUC {fmt.auc(o.auc)}"
    return (
        f"Over {fmt.count(o.reviews)} reviews, FSRS's predicted recall was off by {fmt.rmse(o.rmse_bins)} "
        f"(percentage points) on average (RMSE bins). Log loss {fmt.log_loss(o.log_loss)}, {auc}. You recalled "
        f"{fmt.percent(o.retention)} of these reviews; FSRS predicted {fmt.percent(o.mean_predicted)}."
    )


def _read_scope(col: Any, kind: str, value: str, with_durations: bool = False) -> Any:
    """Return the engine's CollectionData of a dialog scope, with Anki's intervals (runs in the background op)."""
    from ..metrics.read.collection import read_collection
    from ..metrics.read.scope import scope_search

    search, label = scope_search(col, kind, value)
    return read_collection(col, search, label, with_durations=with_durations, with_intervals=True)


def _lazy(view: str, doc: str, part: str = "") -> Any:
    """Return a dialog property: a lazily built view (built on first use), or one of its parts."""

    def get(self: CalibrationDialog) -> Any:
        built = self._build_view(view)
        return getattr(built, part) if part else built

    return property(get, doc=doc)


class _Tabs(QTabWidget):
    """The dialog's tabs: a tab's page may be a container that its view is built into later."""

    def setCurrentWidget(self, widget: QWidget | None) -> None:  # noqa: N802 (Qt name)
        """Show the tab of `widget`: a tab's page, or a view built into one."""
        parent = widget.parentWidget() if widget is not None else None
        if widget is not None and self.indexOf(widget) < 0 and parent is not None and self.indexOf(parent) >= 0:
            widget = parent
        super().setCurrentWidget(widget)


def _options(choices: dict[str, str], anki_version: str) -> Any:
    """Return engine Options for the dialog's choices."""
    from ..metrics.jobs.options import Options, short_term_floor_rating

    return Options(**choices, short_term_floor_rating=short_term_floor_rating(anki_version))


def describe(ev: Any, scope: str) -> str:
    """Return what produced the numbers: scope, reviews scored, parameters, same-day rule, binning, weighting."""
    versions = {21: "FSRS-6", 19: "FSRS-5", 17: "FSRS-4.5"}
    params = []
    for p in ev.params:
        if p.source == "defaults":
            params.append(f"{p.preset} (FSRS-6 defaults)" if p.preset else "FSRS-6 defaults")
        elif p.source == "given":
            params.append(f"given {versions.get(p.length, '')} parameters")
        else:
            params.append(f"{p.preset} ({versions.get(p.length, f'{p.length} parameters')})")
    rules = sorted({p.same_day for p in ev.params})
    same_day = {("keep",): "same-day repeats kept", ("drop",): "same-day repeats dropped"}.get(
        tuple(rules), "same-day repeats kept for FSRS-5/6, dropped for FSRS-4.5"
    )
    o = ev.options
    return (
        f"<b>{scope}</b>: {fmt.count(ev.overall.reviews)} reviews scored · parameters: {', '.join(params)} · "
        f"{same_day} · {o.binning} bins · {'recency' if o.weighting == 'recency' else 'equal'} weights"
    )


class CalibrationDialog(QDialog):
    """Non-modal dialog: pick a scope and options, evaluate in the background, read the results in tabs.

    The dialog is the shell (scope, options, run and cancel, status, headline); each tab is a view
    module of its own that draws the engine's result.
    """

    def __init__(self, parent: QWidget | None, runner: Any, config: dict[str, Any],
                 save_config: Callable[[dict[str, Any]], None] | None = None,
                 anki_version: str = "") -> None:  # fmt: skip
        super().__init__(parent)
        self.setWindowTitle(TITLE)
        self.setWindowModality(Qt.WindowModality.NonModal)
        self.runner = runner
        self.config = dict(config)
        self.save_config = save_config
        self.anki_version = anki_version
        self.evaluation: Any = None
        self.message = ""
        self.export_tables: Any = None
        self.export_summary = ""
        self.comparison: Any = None
        self.diagnosis: Any = None
        self.stale = False
        self._cancel = threading.Event()
        self._running = False
        self._cache: dict[tuple[str, int], Any] = {}
        self._reads = 0  # how many times the revlog was read (tests check the cache)
        self._loading = True
        self._build()
        self._fill_pickers()
        self._load_config()
        self._loading = False
        self._fitted = False
        QTimer.singleShot(NEXT_TURN_MS, self._build_next_view)

    # -- layout ---------------------------------------------------------------------------
    def _build(self) -> None:
        layout = QVBoxLayout(self)
        layout.setSpacing(4)
        scope_row = QHBoxLayout()
        scope_row.addWidget(QLabel("Scope:"))
        self.scope_kind = combo(SCOPES)
        self.deck_box = combo([])
        self.preset_box = combo([])
        self.search_edit = QLineEdit()
        self.search_edit.setPlaceholderText("Anki search, e.g. deck:Spanish -is:suspended")
        self.scope_stack = QStackedWidget()
        for w in (QWidget(), self.deck_box, self.preset_box, self.search_edit):
            self.scope_stack.addWidget(w)
        self.scope_kind.currentIndexChanged.connect(self.scope_stack.setCurrentIndex)
        scope_row.addWidget(self.scope_kind)
        scope_row.addWidget(self.scope_stack, 1)
        layout.addLayout(scope_row)

        options_row = QHBoxLayout()
        self.options_toggle = QToolButton()
        self.options_toggle.setText("Options")
        self.options_toggle.setCheckable(True)
        self.options_toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.options_toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.options_toggle.toggled.connect(self._toggle_options)
        self.options_summary = QLabel("")
        self.options_summary.setWordWrap(True)
        self.options_summary.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        options_row.addWidget(self.options_toggle)
        options_row.addWidget(self.options_summary, 1)
        layout.addLayout(options_row)
        self.options_panel = QWidget()
        form = QFormLayout(self.options_panel)
        form.setContentsMargins(18, 0, 0, 0)
        self.params_box = combo(PARAMS)
        self.binning_box = combo(BINNINGS)
        self.weighting_box = combo(WEIGHTINGS)
        self.same_day_box = combo(SAME_DAY)
        form.addRow("Parameters:", self.params_box)
        form.addRow("RMSE bins:", self.binning_box)
        form.addRow("Weighting:", self.weighting_box)
        form.addRow("Same-day repeats:", self.same_day_box)
        self.options_panel.setVisible(False)
        layout.addWidget(self.options_panel)
        for box in (self.scope_kind, self.deck_box, self.preset_box, self.params_box, self.binning_box,
                    self.weighting_box, self.same_day_box):  # fmt: skip
            box.currentIndexChanged.connect(self._changed)
        self.search_edit.textChanged.connect(self._changed)

        run_row = QHBoxLayout()
        self.run_button = QPushButton("Evaluate")
        self.run_button.setDefault(True)
        self.run_button.clicked.connect(self.run)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        self.progress = QProgressBar()
        self.progress.setRange(0, 0)
        self.progress.setVisible(False)
        self.progress.setMaximumWidth(160)
        self.status = QLabel("")
        self.status.setWordWrap(True)
        self.status.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        run_row.addWidget(self.run_button)
        run_row.addWidget(self.cancel_button)
        run_row.addWidget(self.progress)
        run_row.addWidget(self.status, 1)
        layout.addLayout(run_row)

        self.headline = QLabel("Choose a scope and press Evaluate.")
        self.headline.setWordWrap(True)
        self.headline.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.headline.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.headline)
        self.stale_label = QLabel("Out of date — run again: the results below are for other choices.")
        self.stale_label.setStyleSheet("color: #D55E00; font-weight: bold")
        self.stale_label.setWordWrap(True)
        self.stale_label.setVisible(False)
        layout.addWidget(self.stale_label)

        # The tabs shown first are built now; the others in the next turns of the event loop, one per
        # turn (or at once when something needs them): built all at once, opening the dialog froze
        # Anki's window for about 200 ms (bench/bench_dialog.py).
        self.whattodo = WhatToDoView(self.run_diagnosis)
        self.results = ResultsView()
        self.tabs = _Tabs()
        self.tabs.setUsesScrollButtons(True)
        self._built: dict[str, View] = {"whattodo": self.whattodo, "results": self.results}
        self._pages: dict[str, QWidget] = {}
        for name, title in _TABS:
            view = self._built.get(name)
            if view is None:
                page = QWidget()
                QVBoxLayout(page).setContentsMargins(0, 0, 0, 0)
                self._pages[name] = page
            self.tabs.addTab(view or self._pages[name], title)
        layout.addWidget(self.tabs, 1)
        # names the tests and the end-to-end driver use (the lazily built ones are properties below)
        self.chart, self.notes = self.results.chart, self.results.notes

        buttons = QHBoxLayout()
        self.save_button = QPushButton("Save chart…")
        self.save_button.clicked.connect(self._save_chart_dialog)
        self.copy_button = QPushButton("Copy results")
        self.copy_button.clicked.connect(self.copy_results)
        self.remember = QCheckBox("Remember choices")
        self.remember.setToolTip("Use these scope and options again next time.")
        self.remember.setChecked(True)
        close = QPushButton("Close")
        close.clicked.connect(self.close)
        buttons.addWidget(self.save_button)
        buttons.addWidget(self.copy_button)
        buttons.addStretch(1)
        buttons.addWidget(self.remember)
        buttons.addWidget(close)
        layout.addLayout(buttons)
        self._set_results_enabled(False)

    def _make_view(self, name: str) -> View:
        if name == "where":
            return WhereView()
        if name == "decks":
            return DecksView(self._open_deck)
        if name == "compare":
            return CompareView(self.run_compare)
        if name == "export":
            return ExportView(self.prepare_export, self._save_export_dialog)
        return ReportView()

    def _build_view(self, name: str) -> View:
        """Build a lazily built tab's view into its page and bring it up to the dialog's state."""
        view = self._built.get(name)
        if view is not None:
            return view
        view = self._make_view(name)
        self._built[name] = view
        page = self._pages[name]
        layout = page.layout()
        assert layout is not None
        layout.addWidget(view)
        if isinstance(view, (CompareView, ExportView)):
            view.set_running(self._running)
        if self.evaluation is not None:
            view.show_evaluation(self.evaluation)
        elif self.message and not isinstance(view, (CompareView, ExportView)):
            view.clear(self.message)
        if not isinstance(view, ExportView):
            view.set_stale(self.stale)
        return view

    def _build_next_view(self) -> None:
        """Build one more lazily built view (called from the event loop until all are built)."""
        waiting = [name for name, _ in _TABS if name not in self._built]
        if waiting:
            self._build_view(waiting[0])
        if len(waiting) > 1:
            QTimer.singleShot(NEXT_TURN_MS, self._build_next_view)

    @property
    def views(self) -> list[View]:
        """Return the tabs' views built so far, in tab order (the others are brought up to date when built)."""
        return [self._built[name] for name, _ in _TABS if name in self._built]

    # The lazily built views (built now if not yet), and the parts of them the tests and the end-to-end
    # driver use by name.
    where = _lazy("where", 'The "Where the error is" view.')
    decks = _lazy("decks", "The per-deck view.")
    compare = _lazy("compare", "The model comparison view.")
    export = _lazy("export", "The export view.")
    report_view = _lazy("report_view", "The text report view.")
    deck_table = _lazy("decks", "The per-deck table.", "table")
    report = _lazy("report_view", "The text report's text box.", "text")
    compare_table = _lazy("compare", "The comparison's table.", "table")
    compare_chart = _lazy("compare", "The comparison's chart.", "chart")
    um_table = _lazy("compare", "The UM / UM+ table.", "um_table")
    um_choice = _lazy("compare", "The UM / UM+ choice.", "um_choice")
    compare_guidance = _lazy("compare", "The comparison's plain-words advice.", "advice")

    def _toggle_options(self, shown: bool) -> None:
        self.options_panel.setVisible(shown)
        self.options_toggle.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)

    def _update_options_summary(self) -> None:
        """Show the options that differ from the defaults next to the Options button."""
        defaults = ((self.params_box, "preset"), (self.binning_box, "benchmark"), (self.weighting_box, "uniform"),
                    (self.same_day_box, "auto"))  # fmt: skip
        changed = [box.currentText() for box, key in defaults if box.currentData() != key]
        if not changed:
            self.options_summary.setText("all at their defaults")
        else:
            remembered = " (remembered from last time)" if self._loading or self.config.get("_from_config") else ""
            self.options_summary.setText(f"<b>{'; '.join(changed)}</b>{remembered}")

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt name)
        return QSize(920, 760)

    def showEvent(self, event: Any) -> None:  # noqa: N802 (Qt name)
        super().showEvent(event)
        if not self._fitted:
            self._fitted = True
            self.fit_to_screen()

    def fit_to_screen(self) -> None:
        """Resize and move the dialog to lie inside the available geometry of its screen."""
        screen = self.screen() or QApplication.primaryScreen()
        if screen is None:
            return
        avail = screen.availableGeometry()
        frame_extra = self.frameGeometry().size() - self.geometry().size()
        width = min(self.sizeHint().width(), avail.width() - frame_extra.width() - 16)
        height = min(self.sizeHint().height(), avail.height() - frame_extra.height() - 16)
        self.resize(max(width, self.minimumSizeHint().width()), max(height, self.minimumSizeHint().height()))
        frame = self.frameGeometry()
        x = min(max(frame.x(), avail.left()), avail.right() - frame.width() + 1)
        y = min(max(frame.y(), avail.top()), avail.bottom() - frame.height() + 1)
        if frame.width() > avail.width() or frame.height() > avail.height() or (x, y) != (frame.x(), frame.y()):
            self.move(max(x, avail.left()), max(y, avail.top()))

    def _fill_pickers(self) -> None:
        col = self.runner.collection()
        names = sorted((d.name for d in col.decks.all_names_and_ids()), key=lambda n: n.lower().split("::"))
        self.deck_box.clear()
        for name in names:
            parts = name.split("::")
            self.deck_box.addItem("    " * (len(parts) - 1) + parts[-1], name)
        self.preset_box.clear()
        for conf in sorted(col.decks.all_config(), key=lambda c: str(c["name"]).lower()):
            self.preset_box.addItem(str(conf["name"]), str(conf["name"]))

    @staticmethod
    def _select(box: QComboBox, key: Any) -> None:
        i = box.findData(key)
        if i >= 0:
            box.setCurrentIndex(i)

    def _load_config(self) -> None:
        c = self.config
        self._select(self.params_box, c.get("params", "preset"))
        self._select(self.binning_box, c.get("binning", "benchmark"))
        self._select(self.weighting_box, c.get("weighting", "uniform"))
        self._select(self.same_day_box, c.get("same_day", "auto"))
        self.set_scope(c.get("scope", "collection"), c.get("scope_value", ""))
        self._update_options_summary()

    # -- scope and options ----------------------------------------------------------------
    def set_scope(self, kind: str, value: str = "") -> None:
        """Select a scope: collection, deck (name), preset (name) or search (text)."""
        self._select(self.scope_kind, kind if kind in dict(SCOPES) else "collection")
        if kind == "deck":
            self._select(self.deck_box, value)
        elif kind == "preset":
            self._select(self.preset_box, value)
        elif kind == "search":
            self.search_edit.setText(value)

    def scope(self) -> tuple[str, str]:
        """Return the chosen (kind, value)."""
        kind = self.scope_kind.currentData()
        value = {
            "deck": self.deck_box.currentData() or "",
            "preset": self.preset_box.currentData() or "",
            "search": self.search_edit.text().strip(),
        }.get(kind, "")
        return kind, value

    def scope_text(self) -> str:
        """Return the chosen scope in words."""
        kind, value = self.scope()
        return {"collection": "Whole collection", "deck": f'Deck "{value}" with subdecks',
                "preset": f'Preset "{value}"', "search": f"Search {value}"}.get(kind, kind)  # fmt: skip

    def choices(self) -> dict[str, str]:
        """Return the chosen options as plain strings (no engine import on the main thread)."""
        return {
            "params": self.params_box.currentData(),
            "weighting": self.weighting_box.currentData(),
            "binning": self.binning_box.currentData(),
            "same_day": self.same_day_box.currentData(),
        }

    def options(self) -> Any:
        """Return the engine Options of the current choices (imports the engine: numpy)."""
        return _options(self.choices(), self.anki_version)

    def _changed(self, *_args: Any) -> None:
        """A scope or option changed: results shown so far no longer match."""
        if self._loading:
            return
        self.config.pop("_from_config", None)
        self._update_options_summary()
        self.export_tables = None
        if "export" in self._built:
            self.export.clear("")
        if self.evaluation is not None or self.comparison is not None or self.diagnosis is not None:
            self.set_stale(True)

    def set_stale(self, stale: bool) -> None:
        """Grey out the shown results and say they are out of date (or undo that)."""
        self.stale = stale
        self.stale_label.setVisible(stale)
        for view in self.views:
            if not isinstance(view, ExportView):
                view.set_stale(stale)

    def _remember(self) -> None:
        kind, value = self.scope()
        self.config.update(self.choices(), scope=kind, scope_value=value)
        if self.save_config is not None and self.remember.isChecked():
            self.save_config({k: v for k, v in self.config.items() if not k.startswith("_")})

    # -- running ----------------------------------------------------------------------------
    @property
    def running(self) -> bool:
        """Return True while an evaluation runs in the background."""
        return self._running

    def _scope_data(self, col: Any, kind: str, value: str) -> Any:
        """Return the scope's CollectionData, read again only when the scope or the collection changed.

        Runs in the background op; only one scope is kept, as the revlog arrays can be large.
        """
        key = (f"{kind}:{value}", int(col.mod))
        data = self._cache.get(key)
        if data is None:
            data = _read_scope(col, kind, value)
            self._cache.clear()
            self._cache[key] = data
            self._reads += 1
        return data

    def _scope_ready(self) -> bool:
        kind, value = self.scope()
        if kind in ("deck", "preset") and not value:
            self._show_message(f"Choose a {kind} first.")
            return False
        if kind == "search" and not value:
            self._show_message("Type an Anki search first.")
            return False
        return True

    def run(self) -> None:
        """Start an evaluation of the current scope and options in the background."""
        if self._running or not self._scope_ready():
            return
        kind, value = self.scope()
        self._remember()
        choices, anki_version, scope = self.choices(), self.anki_version, self.scope_text()
        self._cancel.clear()
        self._set_running(True)

        def op(col: Any) -> Any:
            # numpy and the engine are first imported here, off the main thread (about 0.1 s)
            from ..metrics.jobs.evaluate import evaluate

            options = _options(choices, anki_version)
            data = self._scope_data(col, kind, value)
            if self._cancel.is_set():
                from ..metrics.errors import Cancelled

                raise Cancelled()
            return evaluate(data, options, should_stop=self._cancel.is_set)

        def done(ev: Any) -> None:
            self._set_running(False)
            self.show_evaluation(ev, scope)

        self.runner.run(self, op, done, self._failed)

    # -- comparison -------------------------------------------------------------------------
    def run_compare(self) -> None:
        """Compare the models on the current scope in the background (trains FSRS five times)."""
        if self._running or not self._scope_ready():
            return
        kind, value = self.scope()
        choices, anki_version = self.choices(), self.anki_version
        self._cancel.clear()
        self._set_running(True)
        self.status.setText("Comparing models…")
        self.comparison = None
        status: dict[str, str] = {}

        def op(col: Any) -> Any:
            from ..metrics.explain.progress import in_words
            from ..metrics.jobs.compare import CompareInput
            from ..metrics.jobs.job import Job
            from ..metrics.jobs.plan import plan_compare
            from ..metrics.read.anki_backend import anki_trainer

            data = self._scope_data(col, kind, value)
            inp = CompareInput(_options(choices, anki_version), anki_trainer(col))
            return plan_compare(data, inp, Job(self._cancel.is_set, in_words(lambda t: status.update(text=t))))

        def tick() -> None:
            if self._running and "text" in status:
                self.status.setText(status["text"] + "…")

        self._compare_timer = QTimer(self)
        self._compare_timer.timeout.connect(tick)
        self._compare_timer.start(200)

        def done(result: Any) -> None:
            self._compare_timer.stop()
            self._set_running(False)
            self.show_comparison(result)

        def failed(error: Exception) -> None:
            self._compare_timer.stop()
            self._failed(error)

        self.runner.run(self, op, done, failed)

    def show_comparison(self, cmp: Any) -> None:
        """Show a comparison in its tab."""
        self.comparison = cmp
        self.compare.show_comparison(cmp)
        self.compare.set_stale(False)
        if self.evaluation is None or not self.stale:
            self.set_stale(False)
        self.status.setText(f"Compared on {fmt.count(cmp.reviews_compared)} of {fmt.count(cmp.reviews_total)} reviews.")

    # -- diagnosis ----------------------------------------------------------------------------
    def run_diagnosis(self) -> None:
        """Diagnose the current scope in the background (runs Anki's health check per preset: it trains)."""
        if self._running or not self._scope_ready():
            return
        kind, value = self.scope()
        anki_version = self.anki_version
        self._cancel.clear()
        self._set_running(True)
        self.status.setText("Finding out what to do…")
        self.diagnosis = None
        status: dict[str, str] = {}

        def op(col: Any) -> Any:
            from ..metrics.jobs.diagnose import diagnose
            from ..metrics.read.anki_backend import anki_health_check, anki_trainer

            data = self._scope_data(col, kind, value)
            options = _options({}, anki_version)
            return diagnose(data, anki_health_check(col), options, should_stop=self._cancel.is_set,
                            progress=lambda t: status.update(text=t), trainer=anki_trainer(col))  # fmt: skip

        def tick() -> None:
            if self._running and "text" in status:
                self.status.setText(status["text"] + "…")

        self._diagnose_timer = QTimer(self)
        self._diagnose_timer.timeout.connect(tick)
        self._diagnose_timer.start(200)

        def done(result: Any) -> None:
            self._diagnose_timer.stop()
            self._set_running(False)
            self.diagnosis = result
            self.whattodo.show_diagnosis(result)
            self.whattodo.set_stale(False)
            self.tabs.setCurrentWidget(self.whattodo)
            problems = sum(1 for f in result.findings if f.verdict in ("problem", "suggestion"))
            self.status.setText(f"{problems} thing(s) to look at, from {fmt.count(result.reviews)} reviews.")

        def failed(error: Exception) -> None:
            self._diagnose_timer.stop()
            self._failed(error)

        self.runner.run(self, op, done, failed)

    # -- export -----------------------------------------------------------------------------
    def prepare_export(self, then: Callable[[Any], None] | None = None) -> None:
        """Build the benchmark tables of the current scope in the background; then(tables) on success."""
        if self._running or not self._scope_ready():
            return
        kind, value = self.scope()
        self._set_running(True)
        self.status.setText("Preparing the export…")
        self.export_tables = None
        scored = self.evaluation.overall.reviews if self.evaluation is not None and not self.stale else None

        def op(col: Any) -> Any:
            from ..metrics.export.dataset import build_tables

            return build_tables(
                _read_scope(col, kind, value, with_durations=True), whole_collection=kind == "collection"
            )

        def done(tables: Any) -> None:
            self._set_running(False)
            self.export_tables = tables
            rows = tables.rows()
            self.export_summary = (
                f"The export holds {fmt.count(rows['revlogs'])} reviews of {fmt.count(rows['cards'])} cards "
                f"in {fmt.count(rows['decks'])} decks."
            )
            self.export.show_prepared(rows, scored)
            self.status.setText(self.export_summary)
            if rows["revlogs"] == 0:
                self._show_message("No reviews to export in this scope (cards need a learning step).")
                return
            if then is not None:
                then(tables)

        self.runner.run(self, op, done, self._failed)

    def save_export(self, path: str, then: Callable[[str], None] | None = None) -> None:
        """Write the prepared export to `path` in the background (whole or not at all)."""
        tables = self.export_tables
        if tables is None or self._running:
            return
        anki_version = self.anki_version
        self._set_running(True)
        self.status.setText("Writing the export…")

        def op(col: Any) -> Any:
            from ..bundled import addon_version
            from ..metrics.export.dataset import write_zip

            meta = {"addon_version": addon_version(), "anki_version": anki_version}
            # the save dialog asked before replacing a file; the collection itself is never replaced
            write_zip(tables, path, meta, protected=[col.path], force=True)
            return path

        def done(written: str) -> None:
            self._set_running(False)
            self.status.setText(f"Saved {written}")
            self.export.show_saved(written)
            self.tabs.setCurrentWidget(self.export)
            if then is not None:
                then(written)

        def failed(error: Exception) -> None:
            self._set_running(False)
            if isinstance(error, EvaluationError):
                self.status.setText(str(error))
                self.export.next.setText(str(error))
                return
            self._failed(error)

        self.runner.run(self, op, done, failed)

    def _save_export_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Save export", save_folder("fsrs-benchmark.zip"),
                                              "Zip archive (*.zip)")  # fmt: skip
        if path:
            self.save_export(path)

    def export_flow(self) -> None:
        """Prepare the export of the current scope, say in two lines what it holds, ask where to save it."""
        self.tabs.setCurrentWidget(self.export)

        def confirm(_tables: Any) -> None:
            from aqt.qt import QMessageBox

            answer = QMessageBox.question(
                self, "Export for the FSRS benchmark",
                f"{self.export.summary.text()}\n\n{EXPORT_LEAVES}\n{EXPORT_NEVER}\n\nSave it?",
            )  # fmt: skip
            if answer == QMessageBox.StandardButton.Yes:
                self._save_export_dialog()

        self.prepare_export(confirm)

    def cancel(self) -> None:
        """Ask the running evaluation to stop; results shown from before are marked out of date."""
        if self._running:
            self._cancel.set()
            self.status.setText("Cancelling…")
            if self.evaluation is not None or self.comparison is not None:
                self.set_stale(True)

    def _set_running(self, running: bool) -> None:
        self._running = running
        self.progress.setVisible(running)
        self.run_button.setEnabled(not running)
        for view in self.views:
            if isinstance(view, (CompareView, ExportView, WhatToDoView)):
                view.set_running(running)
        self.cancel_button.setEnabled(running)
        self.status.setText("Evaluating…" if running else "")

    def _failed(self, error: Exception) -> None:
        from ..metrics.errors import Cancelled

        self._set_running(False)
        if isinstance(error, Cancelled):
            self.status.setText("Cancelled.")
            if self.evaluation is not None or self.comparison is not None:
                self.set_stale(True)
            return
        if isinstance(error, EvaluationError):
            self._show_message(str(error))
            return
        if is_damage(error):  # Anki's backend or SQLite cannot read part of the collection
            text = damage_text(str(error))
            self._show_message(text[:1].upper() + text[1:])
            return
        self._show_message(f"The evaluation failed: {error}")
        raise error  # an unexpected error: let Anki's error handler report it

    # -- results ----------------------------------------------------------------------------
    def _show_message(self, text: str) -> None:
        self.message = text
        self.evaluation = None
        self.headline.setText(text)
        for view in self.views:
            if not isinstance(view, (CompareView, ExportView, WhatToDoView)):
                view.clear(text)
        self.set_stale(False)
        self._set_results_enabled(False)

    def _set_results_enabled(self, enabled: bool) -> None:
        self.save_button.setEnabled(enabled)
        self.copy_button.setEnabled(enabled)

    def show_evaluation(self, ev: Any, scope: str | None = None) -> None:
        """Show an engine Evaluation in every view, with a headline naming what produced it."""
        self.evaluation = ev
        self.message = ""
        self.headline.setText(f"{describe(ev, scope or self.scope_text())}<br>{headline(ev)}")
        for view in self.views:
            view.show_evaluation(ev)
        self.set_stale(False)
        if self.comparison is not None:
            self.compare.set_stale(True)  # made with the earlier choices
        if self.diagnosis is not None:
            self.whattodo.set_stale(True)
        elif self.tabs.currentWidget() is self.whattodo:
            self.tabs.setCurrentWidget(self.results)  # nothing to show there yet: show the numbers
        self._set_results_enabled(True)

    def _open_deck(self, name: str) -> None:
        self.set_scope("deck", name)
        self.run()

    def _open_deck_row(self, row: int, _column: int = 0) -> None:
        self.decks._open_row(row, _column)

    def copy_results(self) -> None:
        """Put the text report on the clipboard."""
        from ..metrics.explain.report import format_report

        clipboard = QApplication.clipboard()
        if self.evaluation is not None and clipboard is not None:
            clipboard.setText(format_report(self.evaluation))

    def save_chart(self, path: str) -> None:
        """Write the calibration chart to a PNG or SVG file (never over the collection)."""
        col = self.runner.collection()
        self.chart.save(path, protected=[col.path] if col is not None else [])

    def _save_chart_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Save chart", save_folder("fsrs-calibration.png"),
                                              "PNG image (*.png);;SVG image (*.svg)")  # fmt: skip
        if path:
            try:
                self.save_chart(path)
            except (OSError, EvaluationError) as err:
                self.status.setText(f"Could not save: {err}")

    def closeEvent(self, event: Any) -> None:  # noqa: N802 (Qt name)
        self.cancel()
        super().closeEvent(event)
