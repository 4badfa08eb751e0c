"""The "Over time" tab: predicted against measured recall and log loss per calendar month — did acting help?"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from aqt.qt import QSplitter, Qt, QTableWidgetItem, QVBoxLayout, QWidget

from ...metrics.explain import formatting as fmt
from ...metrics.explain.lang import N_, _, text
from ..chart import ChartWidget
from ..text import label
from ..widgets import NumberItem, View, page, set_row, table

if TYPE_CHECKING:
    from ...metrics.jobs.evaluate import Evaluation

HEADERS = [N_("Month"), N_("Reviews"), N_("Predicted"), N_("Measured"), N_("Log loss"), N_("RMSE (bins)")]
TIPS = [
    N_("Calendar month of the reviews (your time zone)"),
    N_("Reviews scored that month"),
    N_("FSRS's mean predicted recall"),
    N_("Your measured recall (Hard, Good or Easy)"),
    N_("Lower is better; it also depends on how much you remember"),
    N_("In percentage points; lower is better"),
]
HINT = N_(  # text(): it names Anki's setting
    "Each month's reviews, predicted by the parameters you use now. A change you made (re-optimizing, another "
    "{desired_retention}) shows as measured and predicted recall coming together, or log loss going down, after it."
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

    title = N_("Over time")

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        inner = QWidget()
        layout = QVBoxLayout(inner)
        layout.setContentsMargins(4, 4, 4, 4)
        hint = label(text(HINT))
        layout.addWidget(hint)
        self.chart = ChartWidget()
        self.table = table([_(h) for h in HEADERS], [_(t) for t in TIPS])
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.chart)
        splitter.addWidget(self.table)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        layout.addWidget(splitter, 1)
        page(self, inner, 480, 330)

    def show_evaluation(self, ev: Evaluation) -> None:
        months = list(ev.over_time)
        bins = [_MonthBin(fmt.month(m.month), fmt.month(m.month), m.reviews, m.predicted, m.measured) for m in months]
        if bins:
            self.chart.show_feature(bins, "month")
        else:
            self.chart.clear(_("No dates to group by (a dataset holds days, not dates)."))
        t = self.table
        t.setSortingEnabled(False)
        t.setRowCount(len(months))
        for r, m in enumerate(months):
            cells: list[QTableWidgetItem] = [
                NumberItem(_month_order(m.month), fmt.month(m.month)),  # sorts by date, shown the language's way
                NumberItem(m.reviews, fmt.count(m.reviews)),
                NumberItem(m.predicted, fmt.percent(m.predicted)),
                NumberItem(m.measured, fmt.percent(m.measured)),
                NumberItem(m.log_loss, fmt.log_loss(m.log_loss)),
                NumberItem(m.rmse_bins, fmt.rmse(m.rmse_bins)),
            ]
            set_row(t, r, cells)
        t.setSortingEnabled(True)

    def clear(self, text: str) -> None:
        self.chart.clear(_("No results."))
        self.table.setRowCount(0)


def _month_order(month: str) -> float | None:
    """Return a month ("2025-02") as a number that sorts in time (None when it is not one)."""
    year, _sep, number = month.partition("-")
    return int(year) * 12 + int(number) if year.isdigit() and number.isdigit() else None
