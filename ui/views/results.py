"""The "Calibration" tab: the four numbers, AUC's verdict, the calibration chart and its table."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aqt.qt import QLabel, QSplitter, Qt, QTableWidgetItem, QVBoxLayout, QWidget

from ...metrics.explain import formatting as fmt
from ...metrics.explain.lang import N_, _, text
from ..chart import ChartWidget
from ..flow import FlowLayout
from ..text import label, set_plain, set_rich, tooltip
from ..widgets import NumberItem, View, page, table

if TYPE_CHECKING:
    from ...metrics.jobs.evaluate import Evaluation

HELP = {
    "reviews": N_(
        "Reviews scored: every review of a card on a later day than its previous review. "
        "Same-day repeats are never scored."
    ),
    "log_loss": N_(
        "Log loss: how surprised FSRS was by your answers, on average. Lower is better. "
        "It punishes confident mistakes hard and cannot be gamed by clever averaging."
    ),
    "rmse": N_(
        "RMSE (bins), in percentage points: how far predicted recall is from measured recall over groups "
        "of similar reviews (interval, number of reviews, number of lapses). Lower is better. On its own it can "
        "be gamed (a model that predicts averages can score well while ranking cards badly), so read it beside "
        "log loss and AUC."
    ),
    "auc": N_(
        "AUC: can FSRS tell the reviews you forget from those you remember? 0.5 is a coin flip, "
        "1.0 is perfect ranking; FSRS is typically around 0.7."
    ),
    "retention": N_(
        "Measured retention is the share of scored reviews answered Hard, Good or Easy; "
        "predicted is FSRS's average prediction for them. A good FSRS has the two close."
    ),
}
BIN_HEADERS = [N_("Predicted R"), N_("Reviews"), N_("Mean predicted"), N_("Measured"), N_("95% interval")]


class ResultsView(View):
    """The headline numbers and the calibration chart with its table of bins."""

    title = N_("Calibration")

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        inner = QWidget()
        layout = QVBoxLayout(inner)
        layout.setContentsMargins(4, 4, 4, 4)
        self.details = label("", selectable=True, squeeze=True)  # what produced the numbers (the dialog fills it)
        layout.addWidget(self.details)
        row = FlowLayout()  # the numbers side by side, wrapping between them, never inside one
        self.labels: dict[str, QLabel] = {}
        for key in ("reviews", "log_loss", "rmse", "auc", "retention"):
            number = label("", wrap=False)
            number.setToolTip(tooltip(_(HELP[key])))
            self.labels[key] = number
            row.addWidget(number)
        layout.addLayout(row)
        self.verdict = label("", selectable=True)
        layout.addWidget(self.verdict)
        self.notes = label("")  # notes name presets: plain text
        layout.addWidget(self.notes)
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.chart = ChartWidget()
        self.bins = table([_(h) for h in BIN_HEADERS], stretch=None)
        self.splitter.addWidget(self.chart)
        self.splitter.addWidget(self.bins)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setChildrenCollapsible(True)
        layout.addWidget(self.splitter, 1)
        page(self, inner, 480, 330)

    def show_evaluation(self, ev: Evaluation) -> None:
        from ...metrics.explain.advice import auc_verdict

        o = ev.overall
        n, cards = fmt.count(o.reviews), fmt.count(o.cards)
        set_rich(self.labels["reviews"], _("<b>{reviews}</b> reviews, {cards} cards"), reviews=n, cards=cards)
        set_rich(self.labels["log_loss"], _("Log loss <b>{value}</b>"), value=fmt.log_loss(o.log_loss))
        set_rich(self.labels["rmse"], _("RMSE (bins) <b>{value}</b>"), value=fmt.rmse(o.rmse_bins))
        set_rich(self.labels["auc"], _("AUC <b>{value}</b>"), value=fmt.auc(o.auc))
        set_rich(
            self.labels["retention"],
            _("Retention <b>{measured}</b> (predicted {predicted})"),
            measured=fmt.percent(o.retention),
            predicted=fmt.percent(o.mean_predicted),
        )
        set_plain(self.verdict, auc_verdict(o.auc, o.reviews, round(o.retention * o.reviews)))
        set_plain(self.notes, "\n".join(ev.notes))
        self.chart.show_calibration(ev.calibration, text("{reviews} reviews", reviews=n))
        t = self.bins
        t.setRowCount(len(ev.calibration.bins))
        for r, b in enumerate(ev.calibration.bins):
            t.setItem(r, 0, QTableWidgetItem(fmt.ltr(f"{fmt.percent(b.lower, 0)}–{fmt.percent(b.upper, 0)}")))
            t.setItem(r, 1, NumberItem(b.count, fmt.count(b.count)))
            t.setItem(r, 2, NumberItem(b.mean_predicted, fmt.percent(b.mean_predicted)))
            t.setItem(r, 3, NumberItem(b.mean_actual, fmt.percent(b.mean_actual)))
            t.setItem(r, 4, QTableWidgetItem(fmt.interval(b.ci_low, b.ci_high, "percent")))

    def clear(self, text: str) -> None:
        set_plain(self.details, "")
        for number in self.labels.values():
            set_plain(number, "")
        set_plain(self.verdict, "")
        set_plain(self.notes, "")
        self.chart.clear(_("No results.") if text else None)
        self.bins.setRowCount(0)
