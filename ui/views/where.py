"""The "Where the error is" tab: predicted and measured recall by interval, reviews and lapses, with counts."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aqt.qt import QColor, QSplitter, Qt, QTableWidgetItem, QVBoxLayout, QWidget

from ...metrics.explain import formatting as fmt
from ...metrics.explain.lang import N_, _, text
from ...metrics.explain.where import FEATURE_TITLES, bin_label
from ..chart import DAYS, ChartWidget
from ..text import label, set_plain, tooltip
from ..turns import on
from ..widgets import NumberItem, View, combo, page, table

if TYPE_CHECKING:
    from ...metrics.jobs.evaluate import Evaluation

FEATURES = list(FEATURE_TITLES.items())  # (key, title): the titles translated where the choice is made
HEADERS = [N_("Bin"), N_("Reviews"), N_("Predicted"), N_("Measured"), N_("95% interval"), N_("Off by")]
TIPS = [
    "",
    "",
    N_("FSRS's mean prediction"),
    N_("Your measured recall"),
    N_("95% (Wilson) interval of the measured recall"),
    N_("Predicted minus measured, in percentage points; marked when beyond chance"),
]
MIN_REVIEWS_TIP = N_(
    "Bins with fewer than {reviews} reviews are marked and never summarised; a bin is off "
    "'beyond chance' when FSRS's mean prediction lies outside the 95% interval of your measured recall."
)
TOO_FEW = N_("{reviews}  (too few)")  # a bin's reviews, too few to judge it


class WhereView(View):
    """Recall by bin of one feature (the bins of RMSE (bins)), a table with every bin's count, and a summary."""

    title = N_("Where the error is")

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.evaluation: Evaluation | None = None
        inner = QWidget()
        layout = QVBoxLayout(inner)
        layout.setContentsMargins(4, 4, 4, 4)
        self.summary = label("", selectable=True)
        layout.addWidget(self.summary)
        self.feature = combo([(key, _(title)) for key, title in FEATURES])
        on(self.feature.currentIndexChanged, self._redraw)
        layout.addWidget(self.feature)
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.chart = ChartWidget()
        self.table = table([_(h) for h in HEADERS], [_(t) for t in TIPS], stretch=None)
        self.splitter.addWidget(self.chart)
        self.splitter.addWidget(self.table)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        layout.addWidget(self.splitter, 1)
        page(self, inner, 480, 330)

    def show_evaluation(self, ev: Evaluation) -> None:
        from ...metrics.explain.where import summary
        from ...metrics.score.where import MIN_REVIEWS

        self.evaluation = ev
        set_plain(self.summary, summary(ev.where_worst, MIN_REVIEWS))
        self.summary.setToolTip(tooltip(text(MIN_REVIEWS_TIP, reviews=fmt.count(MIN_REVIEWS))))
        self._redraw()

    def _redraw(self) -> None:
        if self.evaluation is None:
            return
        feature = self.feature.currentData()
        rows = self.evaluation.by_feature.get(feature, [])
        self.chart.show_feature(rows, feature)
        errors = self.evaluation.where.get(feature, [])
        t = self.table
        t.setSortingEnabled(False)
        t.setRowCount(len(errors))
        muted = QColor(self.palette().color(self.foregroundRole()))
        muted.setAlphaF(0.5)
        for r, e in enumerate(errors):
            span = bin_label(feature, e.lowest, e.highest)
            reviews = fmt.count(e.count)
            cells = [
                QTableWidgetItem(text(DAYS, days=span) if feature == "interval" else span),
                NumberItem(e.count, reviews if e.enough else text(TOO_FEW, reviews=reviews)),
                NumberItem(e.predicted, fmt.percent(e.predicted)),
                NumberItem(e.measured, fmt.percent(e.measured)),
                QTableWidgetItem(fmt.interval(e.ci_low, e.ci_high, "percent")),
                NumberItem(e.error, fmt.points(e.error, signed=True) + ("  *" if e.beyond_chance else "")),
            ]
            for c, item in enumerate(cells):
                if not e.enough:
                    item.setForeground(muted)
                    item.setToolTip(tooltip(_("Too few reviews in this bin to judge it.")))
                t.setItem(r, c, item)

    def clear(self, text: str) -> None:
        self.evaluation = None
        set_plain(self.summary, "")
        self.chart.clear(_("No results."))
        self.table.setRowCount(0)
