"""The FSRS Calibration dialog: scope and options, background evaluation, headline, charts, per-deck table."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import Any

from aqt.qt import (
    QAbstractItemView,
    QApplication,
    QCheckBox,
    QColor,
    QComboBox,
    QDialog,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QStackedWidget,
    QStandardPaths,
    Qt,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QTimer,
    QVBoxLayout,
    QWidget,
)

from ..metrics.errors import EvaluationError
from .chart import ChartWidget


def save_folder(name: str) -> str:
    """Return `name` in the user's Documents folder (else home): where save dialogs open."""
    folder = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    if not folder or not os.path.isdir(folder):
        folder = os.path.expanduser("~")
    return os.path.join(folder, name)


TITLE = "FSRS Calibration"
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

HELP = {
    "reviews": "Reviews scored: every review of a card on a later day than its previous review. "
    "Same-day repeats are never scored.",
    "log_loss": "Log loss: how surprised FSRS was by your answers, on average. Lower is better. "
    "It punishes confident mistakes hard and cannot be gamed by clever averaging.",
    "rmse": "RMSE (bins): how far predicted recall is from measured recall, in percentage points, "
    "over groups of similar reviews (interval, number of reviews, number of lapses). Lower is better. "
    "On its own it can be gamed (a model that predicts averages can score well while ranking cards "
    "badly), so read it beside log loss and AUC.",
    "auc": "AUC: can FSRS tell the reviews you forget from those you remember? 0.5 is a coin flip, "
    "1.0 is perfect ranking; FSRS is typically around 0.7.",
    "retention": "Measured retention is the share of scored reviews answered Hard, Good or Easy; "
    "predicted is FSRS's average prediction for them. A good FSRS has the two close.",
}


EXPORT_HELP = (
    "Writes a zip in the format of the FSRS benchmark's dataset (anki-revlogs-10k): for each review its "
    "card number, day number (counted from your first review), answer button, kind of review, time taken "
    "and days/seconds since the card's previous review; for each card its note and deck number; for each "
    "deck its parent and preset number. Every number is renumbered from 0. No names, card text, tags, "
    "note types, dates, times of day, time zone, profile or file names."
)


COMPARE_HELP = (
    "Scores several models on the same reviews: the ones a time-series split tests (every review after the "
    "first sixth, in time order). 'fsrs-out-of-sample' is trained by Anki's own optimizer five times, each "
    "time only on the reviews before the part it predicts: that number is comparable with the FSRS benchmark's. "
    "This takes longer than an evaluation."
)
UM_HELP = (
    "UM+ (Universal Metric+, from fsrs-vs-sm17): how far the row model's predictions are from your answers in the "
    "groups of reviews where the row and column models disagree by about the same amount. Lower is better; each "
    "model is ranked by its worst opponent."
)


class _NumberItem(QTableWidgetItem):
    """A table cell that sorts by its number, not its text."""

    def __init__(self, value: float | None, text: str) -> None:
        super().__init__(text)
        self.value = float("-inf") if value is None else value
        self.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)

    def __lt__(self, other: QTableWidgetItem) -> bool:
        if isinstance(other, _NumberItem):
            return self.value < other.value
        return super().__lt__(other)


def _fmt(v: float | None, digits: int = 4) -> str:
    return "n/a" if v is None or v != v else f"{v:.{digits}f}"


def headline(ev: Any) -> str:
    """Return the plain-words summary of an evaluation."""
    o = ev.overall
    auc = "AUC n/a (only one kind of answer)" if o.auc is None else f"AUC {o.auc:.2f}"
    return (
        f"Over {o.reviews:,} reviews, FSRS's predicted recall was off by {o.rmse_bins * 100:.1f} percentage "
        f"points on average (RMSE bins). Log loss {o.log_loss:.3f}, {auc}. You recalled "
        f"{o.retention * 100:.1f}% of these reviews; FSRS predicted {o.mean_predicted * 100:.1f}%."
    )


def _read_scope(col: Any, kind: str, value: str, with_durations: bool = False) -> Any:
    """Return the engine's CollectionData of a dialog scope, with Anki's intervals (runs in the background op)."""
    from ..metrics.collection import deck_search, read_collection

    if kind == "deck":
        search, label = deck_search(col, value), f'deck "{value}"'
    elif kind == "preset":
        escaped = value.replace("\\", "\\\\").replace('"', '\\"')
        search, label = f'preset:"{escaped}"', f'preset "{value}"'
    elif kind == "search":
        search, label = value, None
    else:
        search, label = None, None
    return read_collection(col, search, label, with_durations=with_durations, with_intervals=True)


def _options(choices: dict[str, str], anki_version: str) -> Any:
    """Return engine Options for the dialog's choices."""
    from ..metrics.options import Options, short_term_floor_rating

    return Options(**choices, short_term_floor_rating=short_term_floor_rating(anki_version))


class CalibrationDialog(QDialog):
    """Non-modal dialog: pick a scope and options, evaluate in the background, read the results."""

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
        self._cancel = threading.Event()
        self._running = False
        self._cache: dict[tuple[str, int], Any] = {}
        self._reads = 0  # how many times the revlog was read (tests check the cache)
        self._build()
        self._fill_pickers()
        self._load_config()
        self.resize(860, 720)

    # -- layout ---------------------------------------------------------------------------
    def _combo(self, items: list[tuple[str, str]]) -> QComboBox:
        box = QComboBox()
        for key, text in items:
            box.addItem(text, key)
        return box

    def _build(self) -> None:
        layout = QVBoxLayout(self)
        form = QFormLayout()
        scope_row = QHBoxLayout()
        self.scope_kind = self._combo(SCOPES)
        self.deck_box = QComboBox()
        self.preset_box = QComboBox()
        self.search_edit = QLineEdit()
        self.search_edit.setPlaceholderText("Anki search, e.g. deck:Spanish -is:suspended")
        self.scope_stack = QStackedWidget()
        for w in (QWidget(), self.deck_box, self.preset_box, self.search_edit):
            self.scope_stack.addWidget(w)
        self.scope_kind.currentIndexChanged.connect(self.scope_stack.setCurrentIndex)
        scope_row.addWidget(self.scope_kind)
        scope_row.addWidget(self.scope_stack, 1)
        form.addRow("Scope:", scope_row)
        self.params_box = self._combo(PARAMS)
        self.binning_box = self._combo(BINNINGS)
        self.weighting_box = self._combo(WEIGHTINGS)
        self.same_day_box = self._combo(SAME_DAY)
        form.addRow("Parameters:", self.params_box)
        form.addRow("RMSE bins:", self.binning_box)
        form.addRow("Weighting:", self.weighting_box)
        form.addRow("Same-day repeats:", self.same_day_box)
        layout.addLayout(form)

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
        self.status = QLabel("")
        run_row.addWidget(self.run_button)
        run_row.addWidget(self.cancel_button)
        run_row.addWidget(self.progress, 1)
        run_row.addWidget(self.status, 2)
        layout.addLayout(run_row)

        self.headline = QLabel("Choose a scope and press Evaluate.")
        self.headline.setWordWrap(True)
        self.headline.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.headline.setToolTip("\n\n".join(HELP.values()))
        layout.addWidget(self.headline)
        self.metrics_row = QHBoxLayout()
        self.metric_labels: dict[str, QLabel] = {}
        for key in ("reviews", "log_loss", "rmse", "auc", "retention"):
            label = QLabel("")
            label.setToolTip(HELP[key])
            self.metric_labels[key] = label
            self.metrics_row.addWidget(label)
        layout.addLayout(self.metrics_row)
        self.notes = QLabel("")
        self.notes.setWordWrap(True)
        layout.addWidget(self.notes)

        self.tabs = QTabWidget()
        self.chart = ChartWidget()
        self.tabs.addTab(self.chart, "Calibration")
        feature_page = QWidget()
        fl = QVBoxLayout(feature_page)
        self.feature_box = self._combo([("interval", "By interval"), ("reviews", "By number of reviews"),
                                        ("lapses", "By number of lapses")])  # fmt: skip
        self.feature_box.currentIndexChanged.connect(self._show_feature)
        self.feature_chart = ChartWidget()
        fl.addWidget(self.feature_box)
        fl.addWidget(self.feature_chart, 1)
        self.tabs.addTab(feature_page, "Where the error is")
        self.deck_table = QTableWidget(0, 6)
        self.deck_table.setHorizontalHeaderLabels(["Deck", "Reviews", "Log loss", "RMSE (bins)", "AUC", "Retention"])
        self.deck_table.setSortingEnabled(True)
        self.deck_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.deck_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        header = self.deck_table.horizontalHeader()
        if header is not None:
            header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.deck_table.cellDoubleClicked.connect(self._open_deck_row)
        self.deck_table.setToolTip("Cards whose home deck it is. Double-click a deck to evaluate it with its subdecks.")
        self.tabs.addTab(self.deck_table, "Per deck")
        self.report = QPlainTextEdit()
        self.report.setReadOnly(True)
        self.tabs.addTab(self.report, "Report")
        self.tabs.addTab(self._build_compare(), "Compare models")
        layout.addWidget(self.tabs, 1)

        buttons = QHBoxLayout()
        self.save_button = QPushButton("Save chart…")
        self.save_button.clicked.connect(self._save_chart_dialog)
        self.copy_button = QPushButton("Copy results")
        self.copy_button.clicked.connect(self.copy_results)
        self.export_button = QPushButton("Export for the FSRS benchmark…")
        self.export_button.setToolTip(EXPORT_HELP)
        self.export_button.clicked.connect(self.export_flow)
        self.remember = QCheckBox("Remember these choices")
        self.remember.setChecked(True)
        close = QPushButton("Close")
        close.clicked.connect(self.close)
        buttons.addWidget(self.save_button)
        buttons.addWidget(self.copy_button)
        buttons.addWidget(self.export_button)
        buttons.addStretch(1)
        buttons.addWidget(self.remember)
        buttons.addWidget(close)
        layout.addLayout(buttons)
        self._set_results_enabled(False)

    def _build_compare(self) -> QWidget:
        page = QWidget()
        layout = QVBoxLayout(page)
        row = QHBoxLayout()
        self.compare_button = QPushButton("Compare models")
        self.compare_button.clicked.connect(self.run_compare)
        self.compare_button.setToolTip(COMPARE_HELP)
        row.addWidget(self.compare_button)
        hint = QLabel("FSRS (your presets, the defaults, and trained only on earlier reviews), SM-2, Anki's "
                      "intervals and two simple baselines, on the same reviews.")  # fmt: skip
        hint.setWordWrap(True)
        row.addWidget(hint, 1)
        layout.addLayout(row)
        self.compare_table = QTableWidget(0, 6)
        self.compare_table.setHorizontalHeaderLabels(
            ["Model", "Log loss", "95% interval", "RMSE (bins)", "AUC", "UM+ (worst)"]
        )
        self.compare_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.compare_table.setSortingEnabled(True)
        layout.addWidget(self.compare_table, 3)
        self.compare_chart = ChartWidget()
        self.compare_chart.empty_text = "Press Compare models."
        self.um_table = QTableWidget(0, 0)
        self.um_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.um_table.setToolTip(UM_HELP)
        self.um_choice = self._combo([("um_plus", "UM+ (bins where the two disagree)"),
                                      ("um", "UM (bins of the column model's predictions)")])  # fmt: skip
        self.um_choice.currentIndexChanged.connect(self._fill_um_table)
        um_box = QVBoxLayout()
        um_box.addWidget(self.um_choice)
        um_box.addWidget(self.um_table, 1)
        lower = QHBoxLayout()
        lower.addWidget(self.compare_chart, 3)
        lower.addLayout(um_box, 2)
        layout.addLayout(lower, 3)
        self.compare_guidance = QLabel("")
        self.compare_guidance.setWordWrap(True)
        layout.addWidget(self.compare_guidance)
        return page

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

    def _remember(self) -> None:
        kind, value = self.scope()
        self.config.update(self.choices(), scope=kind, scope_value=value)
        if self.save_config is not None and self.remember.isChecked():
            self.save_config(dict(self.config))

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

    def run(self) -> None:
        """Start an evaluation of the current scope and options in the background."""
        if self._running:
            return
        kind, value = self.scope()
        if kind in ("deck", "preset") and not value:
            self._show_message(f"Choose a {kind} first.")
            return
        if kind == "search" and not value:
            self._show_message("Type an Anki search first.")
            return
        self._remember()
        choices, anki_version = self.choices(), self.anki_version
        self._cancel.clear()
        self._set_running(True)

        def op(col: Any) -> Any:
            # numpy and the engine are first imported here, off the main thread (about 0.1 s)
            from ..metrics.evaluate import evaluate

            options = _options(choices, anki_version)
            data = self._scope_data(col, kind, value)
            if self._cancel.is_set():
                from ..metrics.errors import Cancelled

                raise Cancelled()
            return evaluate(data, options, should_stop=self._cancel.is_set)

        self.runner.run(self, op, self._done, self._failed)

    # -- comparison -------------------------------------------------------------------------
    def run_compare(self) -> None:
        """Compare the models on the current scope in the background (trains FSRS five times)."""
        if self._running:
            return
        kind, value = self.scope()
        choices, anki_version = self.choices(), self.anki_version
        self._cancel.clear()
        self._set_running(True)
        self.status.setText("Comparing models…")
        self.comparison = None
        status: dict[str, str] = {}

        def op(col: Any) -> Any:
            from ..metrics.compare import compare
            from ..optimizer import anki_trainer

            data = self._scope_data(col, kind, value)
            return compare(data, _options(choices, anki_version), anki_trainer(col),
                           should_stop=self._cancel.is_set, progress=lambda t: status.update(text=t))  # fmt: skip

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
        """Show a comparison: the table, the overlaid calibration curves, the UM+ matrix and the guidance."""
        self.comparison = cmp
        table = self.compare_table
        table.setSortingEnabled(False)
        table.setRowCount(len(cmp.models))
        for row, (name, m) in enumerate(cmp.models.items()):
            worst = max((v for v in cmp.um_plus[name].values() if v is not None), default=None)
            table.setItem(row, 0, QTableWidgetItem(name))
            table.setItem(row, 1, _NumberItem(m.log_loss, _fmt(m.log_loss)))
            table.setItem(row, 2, QTableWidgetItem(f"{m.log_loss_ci[0]:.4f}–{m.log_loss_ci[1]:.4f}"))
            table.setItem(row, 3, _NumberItem(m.rmse_bins, _fmt(m.rmse_bins)))
            table.setItem(row, 4, _NumberItem(m.auc, _fmt(m.auc, 3)))
            table.setItem(row, 5, _NumberItem(worst, _fmt(worst)))
        table.setSortingEnabled(True)
        table.sortItems(1)  # best log loss first
        self.compare_chart.show_overlay([(name, m.calibration) for name, m in cmp.models.items()])
        self._fill_um_table()
        self.compare_guidance.setText("\n".join(cmp.guidance))
        self.status.setText(f"Compared on {cmp.reviews_compared:,} of {cmp.reviews_total:,} reviews.")

    def _fill_um_table(self) -> None:
        """Fill the heat table with the chosen matrix (row: the model judged; column: its referee)."""
        cmp = self.comparison
        if cmp is None:
            return
        matrix = getattr(cmp, self.um_choice.currentData())
        names = list(cmp.models)
        um = self.um_table
        um.setRowCount(len(names))
        um.setColumnCount(len(names))
        um.setHorizontalHeaderLabels(names)
        um.setVerticalHeaderLabels(names)
        values = [v for a in names for v in matrix[a].values() if v is not None]
        top = max(values) if values else 1.0
        for i, a in enumerate(names):
            for j, b in enumerate(names):
                v = matrix[a][b]
                item = QTableWidgetItem("–" if v is None else f"{v:.3f}")
                if v is not None:
                    heat = QColor("#f59e0b")
                    heat.setAlphaF(0.15 + 0.75 * (v / top if top else 0))
                    item.setBackground(heat)
                um.setItem(i, j, item)

    # -- export -----------------------------------------------------------------------------
    def prepare_export(self, then: Callable[[Any], None] | None = None) -> None:
        """Build the benchmark tables of the current scope in the background; then(tables) on success."""
        if self._running:
            return
        kind, value = self.scope()
        self._set_running(True)
        self.status.setText("Preparing the export…")
        self.export_tables = None

        def op(col: Any) -> Any:
            from ..metrics.dataset import build_tables

            return build_tables(
                _read_scope(col, kind, value, with_durations=True), whole_collection=kind == "collection"
            )

        def done(tables: Any) -> None:
            self._set_running(False)
            self.export_tables = tables
            rows = tables.rows()
            self.export_summary = (
                f"The export holds {rows['revlogs']:,} reviews of {rows['cards']:,} cards in {rows['decks']:,} decks."
            )
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
            from ..metrics.dataset import write_zip

            meta = {"addon_version": addon_version(), "anki_version": anki_version}
            # the save dialog asked before replacing a file; the collection itself is never replaced
            write_zip(tables, path, meta, protected=[col.path], force=True)
            return path

        def done(written: str) -> None:
            self._set_running(False)
            self.status.setText(f"Saved {written}")
            if then is not None:
                then(written)

        self.runner.run(self, op, done, self._failed)

    def export_flow(self) -> None:
        """Prepare the export of the current scope, show what it holds, ask where to save it."""

        def confirm(_tables: Any) -> None:
            from aqt.qt import QMessageBox

            answer = QMessageBox.question(
                self, "Export for the FSRS benchmark", f"{self.export_summary}\n\n{EXPORT_HELP}\n\nSave it?"
            )
            if answer != QMessageBox.StandardButton.Yes:
                return
            path, _ = QFileDialog.getSaveFileName(
                self, "Save export", save_folder("fsrs-benchmark.zip"), "Zip archive (*.zip)"
            )
            if path:
                self.save_export(path)

        self.prepare_export(confirm)

    def cancel(self) -> None:
        """Ask the running evaluation to stop."""
        if self._running:
            self._cancel.set()
            self.status.setText("Cancelling…")

    def _set_running(self, running: bool) -> None:
        self._running = running
        self.progress.setVisible(running)
        self.run_button.setEnabled(not running)
        if hasattr(self, "compare_button"):
            self.compare_button.setEnabled(not running)
        self.cancel_button.setEnabled(running)
        self.status.setText("Evaluating…" if running else "")

    def _done(self, evaluation: Any) -> None:
        self._set_running(False)
        self.show_evaluation(evaluation)

    def _failed(self, error: Exception) -> None:
        from ..metrics.errors import Cancelled, EvaluationError

        self._set_running(False)
        if isinstance(error, Cancelled):
            self.status.setText("Cancelled.")
            return
        if isinstance(error, EvaluationError):
            self._show_message(str(error))
            return
        self._show_message(f"The evaluation failed: {error}")
        raise error  # an unexpected error: let Anki's error handler report it

    # -- results ----------------------------------------------------------------------------
    def _show_message(self, text: str) -> None:
        self.message = text
        self.evaluation = None
        self.headline.setText(text)
        for label in self.metric_labels.values():
            label.setText("")
        self.notes.setText("")
        self.chart.clear("No results.")
        self.feature_chart.clear("No results.")
        self.deck_table.setRowCount(0)
        self.report.setPlainText(text)
        self._set_results_enabled(False)

    def _set_results_enabled(self, enabled: bool) -> None:
        self.save_button.setEnabled(enabled)
        self.copy_button.setEnabled(enabled)

    def show_evaluation(self, ev: Any) -> None:
        """Show an engine Evaluation: headline, numbers, charts, per-deck table and report."""
        from ..metrics.report import format_report

        self.evaluation = ev
        self.message = ""
        o = ev.overall
        self.headline.setText(headline(ev))
        self.metric_labels["reviews"].setText(f"<b>{o.reviews:,}</b> reviews, {o.cards:,} cards")
        self.metric_labels["log_loss"].setText(f"Log loss <b>{_fmt(o.log_loss)}</b>")
        self.metric_labels["rmse"].setText(f"RMSE (bins) <b>{_fmt(o.rmse_bins)}</b>")
        self.metric_labels["auc"].setText(f"AUC <b>{_fmt(o.auc, 3)}</b>")
        self.metric_labels["retention"].setText(
            f"Retention <b>{o.retention * 100:.1f}%</b> (predicted {o.mean_predicted * 100:.1f}%)"
        )
        self.notes.setText("\n".join(ev.notes))
        self.chart.show_calibration(ev.calibration, f"{o.reviews:,} reviews")
        self._show_feature()
        self._fill_deck_table(ev)
        self.report.setPlainText(format_report(ev))
        self._set_results_enabled(True)

    def _show_feature(self) -> None:
        if self.evaluation is None:
            return
        feature = self.feature_box.currentData()
        self.feature_chart.show_feature(self.evaluation.by_feature.get(feature, []), feature)

    def _fill_deck_table(self, ev: Any) -> None:
        table = self.deck_table
        table.setSortingEnabled(False)
        table.setRowCount(len(ev.decks))
        for row, d in enumerate(ev.decks):
            s = d.scores
            name = QTableWidgetItem(d.name)
            name.setData(Qt.ItemDataRole.UserRole, d.name)
            table.setItem(row, 0, name)
            table.setItem(row, 1, _NumberItem(s.reviews, f"{s.reviews:,}"))
            table.setItem(row, 2, _NumberItem(s.log_loss, _fmt(s.log_loss)))
            table.setItem(row, 3, _NumberItem(s.rmse_bins, _fmt(s.rmse_bins)))
            table.setItem(row, 4, _NumberItem(s.auc, _fmt(s.auc, 3)))
            table.setItem(row, 5, _NumberItem(s.retention, f"{s.retention * 100:.1f}%"))
        table.setSortingEnabled(True)

    def _open_deck_row(self, row: int, _column: int = 0) -> None:
        item = self.deck_table.item(row, 0)
        if item is None:
            return
        self.set_scope("deck", item.data(Qt.ItemDataRole.UserRole))
        self.run()

    def copy_results(self) -> None:
        """Put the text report on the clipboard."""
        from ..metrics.report import format_report

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
