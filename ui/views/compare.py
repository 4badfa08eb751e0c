"""The "Compare models" tab: the models side by side (table first), their calibration curves, UM/UM+ and advice."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aqt.qt import (
    QColor,
    QHBoxLayout,
    QIcon,
    QPixmap,
    QPushButton,
    QSplitter,
    Qt,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from ...metrics.explain import formatting as fmt
from ...metrics.explain.names import MODEL_DESCRIPTIONS, MODEL_NAMES, MODEL_SHORT
from ..chart import MODEL_COLORS, ChartWidget
from ..text import label, tooltip
from ..turns import on
from ..widgets import NumberItem, View, combo, fit_rows, page, set_row, table

COMPARE_HELP = (
    "Scores several models on the same reviews: the ones a time-series split tests (every review after the "
    "first sixth, in time order). 'FSRS, trained on earlier reviews' is trained by Anki's own optimizer five "
    "times, each time only on the reviews before the part it predicts: that number is comparable with the FSRS "
    "benchmark's. This takes longer than an evaluation."
)
UM_HELP = (
    "UM+ (Universal Metric+, from fsrs-vs-sm17): how far the row model's predictions are from your answers in "
    "the groups of reviews where the row and column models disagree by about the same amount. Lower is better; "
    "each model is ranked by its worst opponent."
)
HEADERS = ["Model", "Log loss", "95% interval", "RMSE (bins)", "AUC", "UM+ (worst)"]
TIPS = [
    "Hover a model for what it is",
    "Lower is better",
    "95% interval of the log loss",
    "In percentage points; lower is better",
    "0.5 is a coin flip, 1.0 perfect ranking",
    UM_HELP,
]


def _swatch(color: str) -> QPixmap:
    pixmap = QPixmap(12, 12)
    pixmap.fill(QColor(color))
    return pixmap


class CompareView(View):
    """Runs the comparison on demand and shows its table, curves, UM/UM+ matrix and plain-words advice."""

    title = "Compare models"
    own_results = True
    greys_when_stale = False  # greyed by the dialog, by what its own results were made for

    def __init__(self, run_compare: Callable[[], None], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.comparison: Any = None
        inner = QWidget()
        layout = QVBoxLayout(inner)
        layout.setContentsMargins(4, 4, 4, 4)
        row = QHBoxLayout()
        self.button = QPushButton("Compare models")
        on(self.button.clicked, run_compare)
        self.button.setToolTip(tooltip(COMPARE_HELP))
        row.addWidget(self.button)
        hint = label(
            "FSRS (your presets, the defaults, trained on earlier reviews), SM-2, Anki's intervals and "
            "two simple baselines, on the same reviews."
        )
        row.addWidget(hint, 1)
        layout.addLayout(row)
        self.advice = QTextBrowser()
        self.advice.setOpenLinks(False)
        self.advice.setMinimumHeight(48)
        advice_box = self.advice
        self.table = table(HEADERS, TIPS)
        self.table.setSortingEnabled(True)
        self.chart = ChartWidget()
        self.chart.empty_text = "Press Compare models."
        self.um_choice = combo([("um_plus", "UM+"), ("um", "UM")])
        self.um_choice.setToolTip(
            tooltip(
                "UM+: bins where the two models disagree. UM: bins of the column "
                "model's predictions. Lower is better for the row model."
            )
        )
        on(self.um_choice.currentIndexChanged, self._fill_um)
        self.um_table = table([], stretch=None)
        self.um_table.setToolTip(tooltip(UM_HELP))
        um = QWidget()
        um_layout = QVBoxLayout(um)
        um_layout.setContentsMargins(0, 0, 0, 0)
        um_layout.addWidget(self.um_choice)
        um_layout.addWidget(self.um_table, 1)
        lower = QSplitter(Qt.Orientation.Horizontal)
        lower.addWidget(self.chart)
        lower.addWidget(um)
        lower.setStretchFactor(0, 3)
        lower.setStretchFactor(1, 2)
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.addWidget(self.table)
        self.splitter.addWidget(advice_box)
        self.splitter.addWidget(lower)
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setStretchFactor(2, 3)
        self.splitter.setChildrenCollapsible(False)
        layout.addWidget(self.splitter, 1)
        page(self, inner, 560, 400)

    def show_comparison(self, cmp: Any) -> None:
        """Show an engine Comparison."""
        from ...metrics.explain.advice import comparison_advice

        self.comparison = cmp
        colors = {name: MODEL_COLORS[k % len(MODEL_COLORS)] for k, name in enumerate(cmp.models)}
        t = self.table
        t.setSortingEnabled(False)
        t.setRowCount(len(cmp.models))
        for row, (name, m) in enumerate(cmp.models.items()):
            worst = max((v for v in cmp.um_plus[name].values() if v is not None), default=None)
            label = QTableWidgetItem(MODEL_NAMES.get(name, name))
            label.setData(Qt.ItemDataRole.UserRole, name)
            label.setIcon(QIcon(_swatch(colors[name])))
            label.setToolTip(tooltip(MODEL_DESCRIPTIONS.get(name, name)))
            cells = [
                label,
                NumberItem(m.log_loss, fmt.log_loss(m.log_loss)),
                QTableWidgetItem(fmt.interval(*m.log_loss_ci)),
                NumberItem(m.rmse_bins, fmt.rmse(m.rmse_bins)),
                NumberItem(m.auc, fmt.auc(m.auc)),
                NumberItem(worst, fmt.log_loss(worst)),
            ]
            set_row(t, row, cells)
        t.setSortingEnabled(True)
        t.sortItems(1)  # best log loss first
        fit_rows(t)
        self.chart.show_overlay([(MODEL_NAMES.get(n, n), m.calibration) for n, m in cmp.models.items()])
        self._fill_um()
        self.advice.setPlainText("\n\n".join(comparison_advice(cmp)))

    def model_order(self) -> list[str]:
        """Return the model ids in the order the table shows them."""
        items = [self.table.item(r, 0) for r in range(self.table.rowCount())]
        return [item.data(Qt.ItemDataRole.UserRole) for item in items if item is not None]

    def _fill_um(self) -> None:
        """Fill the heat table with the chosen matrix (row: the model judged; column: its referee)."""
        cmp = self.comparison
        if cmp is None:
            return
        matrix = getattr(cmp, self.um_choice.currentData())
        names = list(cmp.models)
        short = [MODEL_SHORT.get(n, n) for n in names]
        full = [MODEL_NAMES.get(n, n) for n in names]
        um = self.um_table
        um.setRowCount(len(names))
        um.setColumnCount(len(names))
        um.setHorizontalHeaderLabels(short)
        um.setVerticalHeaderLabels(short)
        vertical = um.verticalHeader()
        if vertical is not None:
            vertical.setVisible(True)
        for j, name in enumerate(full):
            for item in (um.horizontalHeaderItem(j), um.verticalHeaderItem(j)):
                if item is not None:
                    item.setToolTip(tooltip(name))
        values = [v for a in names for v in matrix[a].values() if v is not None]
        top = max(values) if values else 1.0
        for i, a in enumerate(names):
            for j, b in enumerate(names):
                v = matrix[a][b]
                item = QTableWidgetItem("–" if v is None else fmt.auc(v))  # UM values: 3 decimals, like AUC
                if v is not None:
                    heat = QColor("#E69F00")
                    heat.setAlphaF(0.15 + 0.75 * (v / top if top else 0))
                    item.setBackground(heat)
                item.setToolTip(tooltip(f"{full[i]}, judged where it disagrees with {full[j]}"))
                um.setItem(i, j, item)

    def set_running(self, running: bool) -> None:
        self.button.setEnabled(not running)

    def clear(self, text: str) -> None:
        self.comparison = None
        self.table.setRowCount(0)
        self.um_table.setRowCount(0)
        self.chart.clear("Press Compare models.")
        self.advice.setPlainText("")
