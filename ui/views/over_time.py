"""The "Over time" tab: predicted against measured recall and log loss per calendar month — did acting help?"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from aqt.qt import QSplitter, Qt, QTableWidgetItem, QVBoxLayout, QWidget

from ...metrics.explain import formatting as fmt
from ..chart import ChartWidget
from ..text import label
from ..widgets import NumberItem, View, page, set_row, table

HEADERS = ["Month", "Reviews", "Predicted", "Measured", "Log loss", "RMSE (bins)"]
TIPS = [
    "Calendar month of the reviews (your time zone)",
    "Reviews scored that month",
    "FSRS's mean predicted recall",
    "Your measured recall (Hard, Good or Easy)",
    "Lower is better; it also depends on how much you remember",
    "In percentage points; lower is better",
]
HINT = (
    "Each month's reviews, predicted by the parameters you use now. A change you made (re-optimizing, another "
    "desired retention) shows as measured and predicted recall coming together, or log loss going down, after it."
)


@dataclass(frozen=True)
class _MonthBin:
    """A month as the chart's bins are drawn (its label as both ends of the bin)."""

    lowest: str
    highest: str
    count: int
    mean_predicted: float
    mean_actual: float


class OverTimeView(View):
    """A chart of predicted and measured recall by month, and the months' numbers."""

    title = "Over time"

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        inner = QWidget()
        layout = QVBoxLayout(inner)
        layout.setContentsMargins(4, 4, 4, 4)
        hint = label(HINT)
        layout.addWidget(hint)
        self.chart = ChartWidget()
        self.table = table(HEADERS, TIPS)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.chart)
        splitter.addWidget(self.table)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        layout.addWidget(splitter, 1)
        page(self, inner, 480, 330)

    def show_evaluation(self, ev: Any) -> None:
        months = list(ev.over_time)
        bins = [_MonthBin(m.month, m.month, m.reviews, m.predicted, m.measured) for m in months]
        if bins:
            self.chart.show_feature(bins, "month")
        else:
            self.chart.clear("No dates to group by (a dataset holds days, not dates).")
        t = self.table
        t.setSortingEnabled(False)
        t.setRowCount(len(months))
        for r, m in enumerate(months):
            cells = [
                QTableWidgetItem(m.month),
                NumberItem(m.reviews, fmt.count(m.reviews)),
                NumberItem(m.predicted, fmt.percent(m.predicted)),
                NumberItem(m.measured, fmt.percent(m.measured)),
                NumberItem(m.log_loss, fmt.log_loss(m.log_loss)),
                NumberItem(m.rmse_bins, fmt.rmse(m.rmse_bins)),
            ]
            set_row(t, r, cells)
        t.setSortingEnabled(True)

    def clear(self, text: str) -> None:
        self.chart.clear("No results.")
        self.table.setRowCount(0)
