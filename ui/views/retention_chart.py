"""The desired-retention chart of a plan's step: for each candidate desired retention, measured minus predicted
recall with its interval (a dot and a bar), the range FSRS can be trusted at shaded, the preset's own marked.
Draws the finding's evidence (metrics/jobs/diagnose/desired_retention.py); computes nothing."""

from __future__ import annotations

from typing import Any

from aqt.qt import QColor, QPainter, QPaintEvent, QPen, QPointF, QRectF, QSize, Qt, QWidget

from ...metrics.explain import desired as words
from ...metrics.explain import formatting as fmt
from ...metrics.explain.lang import _, text
from ..text import tooltip

COLORS = {"off": "#D55E00", "calibrated": "#009E73"}
MARGIN = (56, 24, 10, 34)  # left, top (the legend above the plot), right, bottom (pixels at 100%)


def _whole_points(gap: float) -> str:
    """Return a signed difference of recall rates in whole percentage points ("+10 pp"), as fmt writes points.
    (fmt.points has one decimal; with a `digits` argument this becomes fmt.points(gap, True, digits=0).)"""
    return fmt.ltr(text(fmt.POINTS, number=fmt.local(f"{gap * 100:+.0f}")))


class RetentionChart(QWidget):
    """Measured minus predicted recall near each candidate desired retention, with 95% intervals."""

    def __init__(self, evidence: dict[str, Any], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setLayoutDirection(Qt.LayoutDirection.LeftToRight)  # axes left to right, as Anki's own graphs
        every = [float(c["retention"]) for c in evidence.get("candidates", [])]
        self.slots = every or [0.9]  # the x axis: the candidates, evenly spaced (0.95 and 0.97 apart)
        self.candidates = [c for c in evidence.get("candidates", []) if c.get("low") is not None]
        self.desired = float(evidence.get("desired", 0.9))
        self.trusted = evidence.get("trusted_range")
        points = [abs(v) for c in self.candidates for v in (c["low"], c["high"])]
        self.span = max(0.1, max(points, default=0.1))  # the y axis: ± this, at least ±10 pp
        self.setMinimumSize(260, 164)
        self.setToolTip(tooltip(text(words.CHART_TIP)))

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt name)
        return QSize(420, 184)

    def _x(self, r: float, plot: QRectF) -> float:
        """Return the x of a retention: candidates evenly spaced, anything between them in proportion."""
        slots = self.slots
        step = plot.width() / len(slots)
        if r <= slots[0] or len(slots) == 1:
            at = 0.0 if len(slots) == 1 else (r - slots[0]) / (slots[1] - slots[0])
        elif r >= slots[-1]:
            at = len(slots) - 1 + (r - slots[-1]) / (slots[-1] - slots[-2])
        else:
            i = max(k for k in range(len(slots)) if slots[k] <= r)
            at = i + (r - slots[i]) / (slots[i + 1] - slots[i]) if i + 1 < len(slots) else float(i)
        return plot.left() + step * (at + 0.5)

    def _y(self, gap: float, plot: QRectF) -> float:
        return plot.center().y() - gap / self.span * plot.height() / 2

    def paintEvent(self, _event: QPaintEvent | None) -> None:  # noqa: N802 (Qt name)
        left, top, right, bottom = MARGIN
        plot = QRectF(left, top, max(1, self.width() - left - right), max(1, self.height() - top - bottom))
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        ink = self.palette().color(self.foregroundRole())
        if self.trusted:
            shade = QColor(COLORS["calibrated"])
            shade.setAlphaF(0.15)
            half = plot.width() / len(self.slots) / 2
            x0, x1 = self._x(self.trusted[0], plot) - half, self._x(self.trusted[1], plot) + half
            p.fillRect(QRectF(x0, plot.top(), x1 - x0, plot.height()), shade)
        self._axes(p, plot, ink)
        for c in self.candidates:
            self._candidate(p, plot, c, ink)
        self._legend(p, plot, ink)
        mine = QPen(ink, 1.5, Qt.PenStyle.DashLine)
        p.setPen(mine)
        x = self._x(self.desired, plot)
        p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()))
        yours = text(words.CHART_YOURS, value=fmt.percent(self.desired, 0))
        p.drawText(QRectF(x + 3, plot.top(), max(120, p.fontMetrics().horizontalAdvance(yours) + 4), 16), yours)
        p.end()

    def _legend(self, p: QPainter, plot: QRectF, ink: QColor) -> None:
        """Say what the colours mean, above the plot on the left."""
        x, top = plot.left(), plot.top() - 20
        for key, message in (("calibrated", words.CHART_CALIBRATED), ("off", words.CHART_OFF)):
            shown = _(message)
            p.setPen(QPen(QColor(COLORS[key]), 2))
            p.setBrush(QColor(COLORS[key]))
            p.drawEllipse(QPointF(x + 4, top + 8), 3.5, 3.5)
            p.setPen(QPen(ink, 1))
            width = p.fontMetrics().horizontalAdvance(shown)
            p.drawText(QRectF(x + 11, top, width + 4, 16), shown)
            x += width + 28
        p.setBrush(Qt.BrushStyle.NoBrush)

    def _axes(self, p: QPainter, plot: QRectF, ink: QColor) -> None:
        faint = QColor(ink)
        faint.setAlphaF(0.4)
        p.setPen(QPen(faint, 1))
        zero = self._y(0, plot)
        p.drawLine(QPointF(plot.left(), zero), QPointF(plot.right(), zero))
        p.setPen(QPen(ink, 1))
        for gap in (-self.span, 0.0, self.span):
            label = "0" if gap == 0 else _whole_points(gap)
            p.drawText(
                QRectF(0, self._y(gap, plot) - 8, plot.left() - 4, 16),
                int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignAbsolute),
                label,
            )
        for c in self.candidates:
            x = self._x(c["retention"], plot)
            tick = fmt.percent(c["retention"], 0)
            p.drawText(QRectF(x - 20, plot.bottom() + 4, 40, 16), int(Qt.AlignmentFlag.AlignHCenter), tick)
        p.drawText(
            QRectF(plot.left(), plot.bottom() + 18, plot.width(), 16),
            int(Qt.AlignmentFlag.AlignHCenter),
            text(words.CHART_AXIS),
        )

    def _candidate(self, p: QPainter, plot: QRectF, c: dict[str, Any], ink: QColor) -> None:
        color = QColor(COLORS.get(c.get("verdict", ""), ink.name()))
        x = self._x(c["retention"], plot)
        p.setPen(QPen(color, 2))
        p.drawLine(QPointF(x, self._y(c["low"], plot)), QPointF(x, self._y(c["high"], plot)))
        gap = c["measured"] - c["predicted"]
        p.setBrush(color)
        p.drawEllipse(QPointF(x, self._y(gap, plot)), 3.5, 3.5)
        p.setBrush(Qt.BrushStyle.NoBrush)
