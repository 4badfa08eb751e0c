"""The "Calibration" tab: the four numbers, AUC's verdict, the calibration chart and its table."""

from __future__ import annotations

from typing import Any

from aqt.qt import QHBoxLayout, QLabel, QSplitter, Qt, QTableWidgetItem, QVBoxLayout, QWidget

from ...metrics.explain import formatting as fmt
from ..chart import ChartWidget
from ..widgets import NumberItem, View, page, table, tooltip

HELP = {
    "reviews": "Reviews scored: every review of a card on a later day than its previous review. "
    "Same-day repeats are never scored.",
    "log_loss": "Log loss: how surprised FSRS was by your answers, on average. Lower is better. "
    "It punishes confident mistakes hard and cannot be gamed by clever averaging.",
    "rmse": "RMSE (bins), in percentage points: how far predicted recall is from measured recall over groups "
    "of similar reviews (interval, number of reviews, number of lapses). Lower is better. On its own it can "
    "be gamed (a model that predicts averages can score well while ranking cards badly), so read it beside "
    "log loss and AUC.",
    "auc": "AUC: can FSRS tell the reviews you forget from those you remember? 0.5 is a coin flip, "
    "1.0 is perfect ranking; FSRS is typically around 0.7.",
    "retention": "Measured retention is the share of scored reviews answered Hard, Good or Easy; "
    "predicted is FSRS's average prediction for them. A good FSRS has the two close.",
}
BIN_HEADERS = ["Predicted R", "Reviews", "Mean predicted", "Measured", "95% interval"]


class ResultsView(View):
    """The headline numbers and the calibration chart with its table of bins."""

    title = "Calibration"

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        inner = QWidget()
        layout = QVBoxLayout(inner)
        layout.setContentsMargins(4, 4, 4, 4)
        row = QHBoxLayout()
        self.labels: dict[str, QLabel] = {}
        for key in ("reviews", "log_loss", "rmse", "auc", "retention"):
            label = QLabel("")
            label.setToolTip(tooltip(HELP[key]))
            label.setWordWrap(True)
            self.labels[key] = label
            row.addWidget(label, 1)
        layout.addLayout(row)
        self.verdict = QLabel("")
        self.verdict.setWordWrap(True)
        self.verdict.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.verdict)
        self.notes = QLabel("")
        self.notes.setWordWrap(True)
        layout.addWidget(self.notes)
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.chart = ChartWidget()
        self.bins = table(BIN_HEADERS, stretch=None)
        self.splitter.addWidget(self.chart)
        self.splitter.addWidget(self.bins)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setChildrenCollapsible(True)
        layout.addWidget(self.splitter, 1)
        page(self, inner, 480, 330)

    def show_evaluation(self, ev: Any) -> None:
        from ...metrics.explain.advice import auc_verdict

        o = ev.overall
        self.labels["reviews"].setText(f"<b>{fmt.count(o.reviews)}</b> reviews, {fmt.count(o.cards)} cards")
        self.labels["log_loss"].setText(f"Log loss <b>{fmt.log_loss(o.log_loss)}</b>")
        self.labels["rmse"].setText(f"RMSE (bins) <b>{fmt.rmse(o.rmse_bins)}</b>")
        self.labels["auc"].setText(f"AUC <b>{fmt.auc(o.auc)}</b>")
        self.labels["retention"].setText(
            f"Retention <b>{fmt.percent(o.retention)}</b> (predicted {fmt.percent(o.mean_predicted)})"
        )
        self.verdict.setText(auc_verdict(o.auc, o.reviews, round(o.retention * o.reviews)))
        self.notes.setText("\n".join(ev.notes))
        self.chart.show_calibration(ev.calibration, f"{fmt.count(o.reviews)} reviews")
        t = self.bins
        t.setRowCount(len(ev.calibration.bins))
        for r, b in enumerate(ev.calibration.bins):
            t.setItem(r, 0, QTableWidgetItem(f"{fmt.percent(b.lower, 0)}–{fmt.percent(b.upper, 0)}"))
            t.setItem(r, 1, NumberItem(b.count, fmt.count(b.count)))
            t.setItem(r, 2, NumberItem(b.mean_predicted, fmt.percent(b.mean_predicted)))
            t.setItem(r, 3, NumberItem(b.mean_actual, fmt.percent(b.mean_actual)))
            t.setItem(r, 4, QTableWidgetItem(fmt.interval(b.ci_low, b.ci_high, "percent")))

    def clear(self, text: str) -> None:
        for label in self.labels.values():
            label.setText("")
        self.verdict.setText("")
        self.notes.setText("")
        self.chart.clear("No results." if text else None)
        self.bins.setRowCount(0)
