"""The "Compare models" tab: the models side by side (table first), their calibration curves, UM/UM+ and advice."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

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
from ...metrics.explain.lang import N_, _, text
from ...metrics.explain.names import MODEL_DESCRIPTIONS, MODEL_NAMES, MODEL_SHORT
from ..chart import MODEL_COLORS, ChartWidget
from ..text import label, tooltip
from ..turns import on
from ..widgets import NumberItem, View, combo, fit_rows, page, set_row, table

if TYPE_CHECKING:
    from ...metrics.jobs.compare import Comparison

COMPARE_HELP = N_(
    "Scores several models on the same reviews: the ones a time-series split tests (every review after the "
    "first sixth, in time order). 'FSRS, trained on earlier reviews' is trained by Anki's own optimizer five "
    "times, each time only on the reviews before the part it predicts: that number is comparable with the FSRS "
    "benchmark's. This takes longer than an evaluation."
)
UM_HELP = N_(
    "UM+ (Universal Metric+, from fsrs-vs-sm17): how far the row model's predictions are from your answers in "
    "the groups of reviews where the row and column models disagree by about the same amount. Lower is better; "
    "each model is ranked by its worst opponent."
)
HEADERS = [N_("Model"), N_("Log loss"), N_("95% interval"), N_("RMSE (bins)"), N_("AUC"), N_("UM+ (worst)")]
TIPS = [
    N_("Hover a model for what it is"),
    N_("Lower is better"),
    N_("95% interval of the log loss"),
    N_("In percentage points; lower is better"),
    N_("0.5 is a coin flip, 1.0 perfect ranking"),
    UM_HELP,
]
PRESS = N_("Press Compare models.")
UM_CHOICES = [("um_plus", N_("UM+")), ("um", N_("UM"))]


def _model(names: dict[str, str], model: str) -> str:
    """Return a model's name (or short name, or description) in the language in use; an unknown model its id."""
    return _(names[model]) if model in names else model


def _swatch(color: str) -> QPixmap:
    pixmap = QPixmap(12, 12)
    pixmap.fill(QColor(color))
    return pixmap


class CompareView(View):
    """Runs the comparison on demand and shows its table, curves, UM/UM+ matrix and plain-words advice."""

    title = N_("Compare models")
    own_results = True
    greys_when_stale = False  # greyed by the dialog, by what its own results were made for

    def __init__(self, run_compare: Callable[[], None], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.comparison: Comparison | None = None
        inner = QWidget()
        layout = QVBoxLayout(inner)
        layout.setContentsMargins(4, 4, 4, 4)
        row = QHBoxLayout()
        self.button = QPushButton(_("Compare models"))
        on(self.button.clicked, run_compare)
        self.button.setToolTip(tooltip(_(COMPARE_HELP)))
        row.addWidget(self.button)
        hint = label(
            _(
                "FSRS (your presets, the defaults, trained on earlier reviews), SM-2, Anki's intervals and "
                "two simple baselines, on the same reviews."
            )
        )
        row.addWidget(hint, 1)
        layout.addLayout(row)
        self.advice = QTextBrowser()
        self.advice.setOpenLinks(False)
        self.advice.setMinimumHeight(48)
        advice_box = self.advice
        self.table = table([_(h) for h in HEADERS], [_(t) for t in TIPS])
        self.table.setSortingEnabled(True)
        self.chart = ChartWidget()
        self.chart.empty_text = _(PRESS)
        self.um_choice = combo([(key, _(name)) for key, name in UM_CHOICES])
        self.um_choice.setToolTip(
            tooltip(
                _(
                    "UM+: bins where the two models disagree. UM: bins of the column "
                    "model's predictions. Lower is better for the row model."
                )
            )
        )
        on(self.um_choice.currentIndexChanged, self._fill_um)
        self.um_table = table([], stretch=None)
        self.um_table.setToolTip(tooltip(_(UM_HELP)))
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

    def show_comparison(self, cmp: Comparison) -> None:
        """Show an engine Comparison."""
        from ...metrics.report.advice import comparison_advice

        self.comparison = cmp
        colors = {name: MODEL_COLORS[k % len(MODEL_COLORS)] for k, name in enumerate(cmp.models)}
        t = self.table
        t.setSortingEnabled(False)
        t.setRowCount(len(cmp.models))
        for row, (name, m) in enumerate(cmp.models.items()):
            worst = max((v for v in cmp.um_plus[name].values() if v is not None), default=None)
            label = QTableWidgetItem(_model(MODEL_NAMES, name))
            label.setData(Qt.ItemDataRole.UserRole, name)
            label.setIcon(QIcon(_swatch(colors[name])))
            label.setToolTip(tooltip(_model(MODEL_DESCRIPTIONS, name)))
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
        self.chart.show_overlay([(_model(MODEL_NAMES, n), m.calibration) for n, m in cmp.models.items()])
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
        short = [_model(MODEL_SHORT, n) for n in names]
        full = [_model(MODEL_NAMES, n) for n in names]
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
                judged = text("{model}, judged where it disagrees with {referee}", model=full[i], referee=full[j])
                item.setToolTip(tooltip(judged))
                um.setItem(i, j, item)

    def set_running(self, running: bool) -> None:
        self.button.setEnabled(not running)

    def clear(self, text: str) -> None:
        self.comparison = None
        self.table.setRowCount(0)
        self.um_table.setRowCount(0)
        self.chart.clear(_(PRESS))
        self.advice.setPlainText("")
