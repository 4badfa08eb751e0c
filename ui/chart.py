"""Charts drawn with QPainter: the calibration chart and recall by interval / reviews / lapses bin.

One painting routine serves the widget, PNG and SVG export. Colours come from the widget's palette
(Anki sets it for light and dark mode) plus two accents readable on both.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from aqt.qt import (
    QBuffer,
    QColor,
    QFont,
    QFontMetricsF,
    QImage,
    QIODevice,
    QMouseEvent,
    QPainter,
    QPainterPath,
    QPaintEvent,
    QPalette,
    QPen,
    QPointF,
    QRectF,
    QSize,
    QSizePolicy,
    Qt,
    QToolTip,
    QWidget,
)

from ..metrics.explain import formatting as fmt
from ..metrics.explain.lang import N_, _, text
from ..metrics.export.safefile import safe_output

if TYPE_CHECKING:
    from aqt.qt import QPaintDevice

    from ..metrics.score.calibration import Calibration, CalibrationBin

PREDICTED = QColor("#0072B2")  # blue: FSRS's prediction (Okabe-Ito)
MEASURED = QColor("#E69F00")  # orange: what you actually recalled
# Okabe & Ito's colour-blind-safe palette without black (which a dark theme would hide): one per model.
MODEL_COLORS = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#56B4E9", "#CC79A7", "#F0E442"]
DAYS = N_("{days} d")  # an interval bin's days ("3–4 d")
AXIS_TITLES = {  # the x axis of recall by bin of one feature
    "interval": N_("Interval (days since the previous review)"),
    "reviews": N_("Reviews of the card so far"),
    "lapses": N_("Lapses of the card so far"),
    "month": N_("Month"),
    "difficulty": N_("FSRS difficulty of the card at the review (1–10)"),
    "overdue": N_("Days since the previous review, against the interval Anki scheduled"),
}
EMPTY = N_("Run an evaluation to see the chart.")


class FeatureRow(Protocol):
    """A bin as `paint_feature` draws it: a FeatureBin of the engine, or a month (views/over_time.py)."""

    @property
    def count(self) -> int: ...

    @property
    def mean_predicted(self) -> float: ...

    @property
    def mean_actual(self) -> float: ...


@dataclass(frozen=True)
class Point:
    """One bin as drawn: x, y in data units, its interval, count and tooltip text."""

    x: float
    y: float
    low: float
    high: float
    count: int
    tip: str


_pct = fmt.percent


class _Plot:
    """Maps data coordinates into a rectangle and draws axes (x and y from 0 to 1 unless given).

    Fonts and margins scale with the rectangle: the font's pixel size follows the chart's size
    (within 9-14 px), and every margin is a multiple of the line height.
    """

    def __init__(
        self,
        painter: QPainter,
        rect: QRectF,
        x_range: tuple[float, float] = (0.0, 1.0),
        y_range: tuple[float, float] = (0.0, 1.0),
        right: float = 1.5,
        legend_right: float = 0.0,
        legend_below: float = 0.0,
        right_text: str = "",
    ):
        font = QFont(painter.font())
        font.setPixelSize(int(max(9.0, min(14.0, min(rect.width() / 46, rect.height() / 26)))))
        painter.setFont(font)
        self.em = float(QFontMetricsF(font).height())
        em = self.em
        left, top, bottom = 4.2 * em, 0.8 * em, 2.9 * em + legend_below
        margin = max(right * em, QFontMetricsF(font).horizontalAdvance(right_text) + 0.8 * em)  # a word right of it
        self.area = QRectF(
            rect.left() + left,
            rect.top() + top,
            max(10.0, rect.width() - left - margin - legend_right),
            max(10.0, rect.height() - top - bottom),
        )
        self.x0, self.x1 = x_range
        self.y0, self.y1 = y_range
        self.metrics = QFontMetricsF(font)

    def at(self, x: float, y: float) -> QPointF:
        a = self.area
        fx = (x - self.x0) / (self.x1 - self.x0) if self.x1 > self.x0 else 0.5
        fy = (y - self.y0) / (self.y1 - self.y0) if self.y1 > self.y0 else 0.5
        return QPointF(a.left() + fx * a.width(), a.bottom() - fy * a.height())

    def x_labels(self, painter: QPainter, labels: list[tuple[float, str]]) -> None:
        """Draw labels under the x axis, thinned so that no two overlap (the last one always kept)."""
        if not labels:
            return
        widest = max(self.metrics.horizontalAdvance(t) for _at, t in labels) + self.em * 0.8
        xs = [self.at(x, self.y0).x() for x, _label in labels]
        gap = min((abs(b - a) for a, b in zip(xs, xs[1:], strict=False)), default=widest)
        every = max(1, math.ceil(widest / max(gap, 1e-9)))
        keep = set(range(len(labels) - 1, -1, -every))
        for k, ((_at, label), x) in enumerate(zip(labels, xs, strict=True)):
            if k in keep:
                rect = QRectF(x - widest / 2, self.area.bottom() + 0.2 * self.em, widest, self.em)
                painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, label)

    def y_labels(self, painter: QPainter, values: list[float]) -> None:
        """Draw percentage labels left of the y axis."""
        for y in values:
            p = self.at(self.x0, y)
            rect = QRectF(self.area.left() - 4.0 * self.em, p.y() - self.em / 2, 3.7 * self.em, self.em)
            painter.drawText(
                rect,
                Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignAbsolute,
                fmt.percent(y, 0),
            )

    def x_title(self, painter: QPainter, title: str) -> None:
        rect = QRectF(self.area.left(), self.area.bottom() + 1.4 * self.em, self.area.width(), self.em * 1.2)
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, title)

    def y_title(self, painter: QPainter, rect: QRectF, title: str) -> None:
        painter.save()
        painter.translate(rect.left() + 0.7 * self.em, self.area.center().y())
        painter.rotate(-90)
        painter.drawText(
            QRectF(-self.area.height() / 2, -self.em / 2, self.area.height(), self.em),
            Qt.AlignmentFlag.AlignCenter,
            title,
        )
        painter.restore()


def _colors(palette: QPalette) -> tuple[QColor, QColor, QColor]:
    """Return (ink, grid, background) colours of the palette."""
    ink = palette.color(QPalette.ColorRole.WindowText)
    grid = QColor(ink)
    grid.setAlphaF(0.18)
    return ink, grid, palette.color(QPalette.ColorRole.Base)


def paint_calibration(
    painter: QPainter, rect: QRectF, calibration: Calibration, palette: QPalette, title: str = ""
) -> list[tuple[QPointF, Point]]:
    """Draw the calibration chart of an engine Calibration into rect; return the drawn bin points."""
    ink, grid, background = _colors(palette)
    painter.fillRect(rect, background)
    bins = list(calibration.bins)
    x0 = math.floor(min([b.lower for b in bins] + [0.5]) * 10) / 10 if bins else 0.0
    plot = _Plot(painter, rect, (x0, 1.0), (0.0, 1.0), right=4.0, right_text=_("reviews"))
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    _calibration_axes(painter, plot, rect, x0, (ink, grid))
    if bins:
        _review_counts(painter, plot, bins, x0, ink)
    painter.setPen(QPen(ink, 1, Qt.PenStyle.DashLine))  # the diagonal: perfect calibration
    painter.drawLine(plot.at(x0, x0), plot.at(1, 1))
    if calibration.fit_slope is not None and calibration.fit_intercept is not None:  # count-weighted fit line
        a, b = calibration.fit_intercept, calibration.fit_slope
        painter.setPen(QPen(MEASURED, 1.5, Qt.PenStyle.DotLine))
        painter.drawLine(plot.at(x0, _clip(a + b * x0)), plot.at(1, _clip(a + b)))
    drawn = _bin_points(painter, plot, bins)
    legend = [
        (None, "", title),
        (MEASURED, "dot", _("measured recall per bin, 95% interval")),
        (ink, "dash", _("perfect calibration")),
        (MEASURED, "dotline", _("count-weighted fit")),
    ]
    em = plot.em
    origin = QPointF(plot.area.left() + 0.6 * em, plot.area.top() + 0.5 * em)
    _legend(painter, origin, ink, em, legend, behind=background)
    return drawn


def _calibration_axes(painter: QPainter, plot: _Plot, rect: QRectF, x0: float, colors: tuple[QColor, QColor]) -> None:
    """Draw the grid, the frame, the tick labels and the axis titles."""
    ink, grid = colors
    painter.setPen(QPen(grid, 1))
    step = 0.1 if 1.0 - x0 <= 0.61 else 0.2
    ticks = [round(1.0 - i * step, 2) for i in range(int(round((1.0 - x0) / step)) + 1)][::-1]
    for t in ticks:
        painter.drawLine(plot.at(t, 0), plot.at(t, 1))
    for i in range(6):
        painter.drawLine(plot.at(x0, i / 5), plot.at(1, i / 5))
    painter.setPen(QPen(ink, 1))
    painter.drawRect(plot.area)
    plot.x_labels(painter, [(t, fmt.percent(t, 0)) for t in ticks])
    plot.y_labels(painter, [i / 5 for i in range(6)])
    plot.x_title(painter, _("Predicted recall (FSRS)"))
    plot.y_title(painter, rect, _("Measured recall"))


def _review_counts(painter: QPainter, plot: _Plot, bins: list[CalibrationBin], x0: float, ink: QColor) -> None:
    """Draw the histogram of review counts per bin, with its scale on the right."""
    area, em = plot.area, plot.em
    top = max(b.count for b in bins)
    hist = QColor(ink)
    hist.setAlphaF(0.12)
    for b in bins:
        left, right = plot.at(max(b.lower, x0), 0), plot.at(b.upper, 0)
        height = area.height() * 0.35 * b.count / top
        painter.fillRect(QRectF(left.x() + 1, area.bottom() - height, right.x() - left.x() - 2, height), hist)
    painter.setPen(QPen(ink, 1))
    room = max(3.6 * em, plot.metrics.horizontalAdvance(_("reviews")) + 0.4 * em)  # the unit whole, in any language
    side = QRectF(area.right() + 0.3 * em, area.bottom() - area.height() * 0.35 - em / 2, room, em)
    painter.drawText(side, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignAbsolute, fmt.count(top))
    below = QRectF(area.right() + 0.3 * em, area.bottom() - em, room, em)
    painter.drawText(
        below, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignAbsolute, _("reviews")
    )  # the unit of the count above it


def _bin_points(painter: QPainter, plot: _Plot, bins: list[CalibrationBin]) -> list[tuple[QPointF, Point]]:
    """Draw each bin's measured recall with its interval bar; return the points (for tooltips)."""
    drawn: list[tuple[QPointF, Point]] = []
    painter.setPen(QPen(MEASURED, 1.5))
    for b in bins:
        p = plot.at(b.mean_predicted, b.mean_actual)
        painter.drawLine(plot.at(b.mean_predicted, b.ci_low), plot.at(b.mean_predicted, b.ci_high))
        tip = text(
            "Predicted {bin}\n{reviews} reviews\nMean prediction {predicted}\nMeasured recall {measured}\n"
            "95% interval {interval}",
            bin=fmt.interval(b.lower, b.upper, "percent"),
            reviews=fmt.count(b.count),
            predicted=_pct(b.mean_predicted),
            measured=_pct(b.mean_actual),
            interval=fmt.interval(b.ci_low, b.ci_high, "percent"),
        )
        drawn.append((p, Point(b.mean_predicted, b.mean_actual, b.ci_low, b.ci_high, b.count, tip)))
    painter.setBrush(MEASURED)
    scale = plot.em / 16
    largest = max((q.count for _at, q in drawn), default=1)
    for p, pt in drawn:
        radius = (2.5 + 3.5 * math.sqrt(pt.count / max(1, largest))) * scale
        painter.drawEllipse(p, radius, radius)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    return drawn


def _legend(
    painter: QPainter,
    origin: QPointF,
    ink: QColor,
    em: float,
    items: list[tuple[QColor | None, str, str]],
    width: float = 0.0,
    behind: QColor | None = None,
) -> None:
    """Draw legend rows (a marker in its colour, then the label); labels elided to `width` if given; on a panel of
    `behind` (the chart's background, nearly opaque) when the legend stands inside the plot, over its points."""
    y = origin.y()
    metrics = QFontMetricsF(painter.font())
    if behind is not None:
        wide = max((metrics.horizontalAdvance(label) + (1.4 * em if c is not None else 0) for c, _s, label in items))
        panel = QColor(behind)
        panel.setAlphaF(0.85)
        tall = em * len(items) + 0.4 * em
        painter.fillRect(QRectF(origin.x() - 0.3 * em, y - 0.2 * em, wide + 0.6 * em, tall), panel)
    for color, style, label in items:
        x = origin.x()
        if color is not None:
            if style == "dot":
                painter.setPen(QPen(color, 1))
                painter.setBrush(color)
                painter.drawEllipse(QPointF(x + 0.5 * em, y + em / 2), 0.25 * em, 0.25 * em)
                painter.setBrush(Qt.BrushStyle.NoBrush)
            else:
                pen_style = {"dash": Qt.PenStyle.DashLine, "line": Qt.PenStyle.SolidLine}.get(
                    style, Qt.PenStyle.DotLine
                )
                painter.setPen(QPen(color, 2 if style == "line" else 1.5, pen_style))
                painter.drawLine(QPointF(x, y + em / 2), QPointF(x + em, y + em / 2))
            x += 1.4 * em
        painter.setPen(QPen(ink, 1))
        room = width - (x - origin.x()) if width else 40 * em
        shown = metrics.elidedText(label, Qt.TextElideMode.ElideRight, room)
        painter.drawText(
            QRectF(x, y, room, em),
            Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignAbsolute,
            shown,
        )
        y += em


def paint_feature(
    painter: QPainter, rect: QRectF, rows: Sequence[FeatureRow], feature: str, palette: QPalette
) -> list[tuple[QPointF, Point]]:
    """Draw predicted and measured recall per bin of one feature (interval, reviews or lapses)."""
    ink, grid, background = _colors(palette)
    painter.fillRect(rect, background)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    n = len(rows)
    values = [r.mean_actual for r in rows] + [r.mean_predicted for r in rows]
    y0 = math.floor(min(values + [0.7]) * 10) / 10
    plot = _Plot(painter, rect, (-0.5, max(0.5, n - 0.5)), (y0, 1.0))
    area, em = plot.area, plot.em
    painter.setPen(QPen(grid, 1))
    steps = max(1, round((1.0 - y0) / 0.1))
    ys = [y0 + i * (1.0 - y0) / steps for i in range(steps + 1)]
    for y in ys:
        painter.drawLine(plot.at(-0.5, y), plot.at(n - 0.5, y))
    painter.setPen(QPen(ink, 1))
    painter.drawRect(area)
    plot.y_labels(painter, ys)
    plot.x_labels(painter, [(i, _tick(feature, label_of(r, feature))) for i, r in enumerate(rows)])
    axis = _(AXIS_TITLES[feature]) if feature in AXIS_TITLES else feature
    plot.x_title(painter, axis)
    plot.y_title(painter, rect, _("Recall"))
    drawn: list[tuple[QPointF, Point]] = []
    radius = 0.25 * em
    for color, attr in ((PREDICTED, "mean_predicted"), (MEASURED, "mean_actual")):
        path = QPainterPath()
        for i, r in enumerate(rows):
            p = plot.at(i, getattr(r, attr))
            path.moveTo(p) if i == 0 else path.lineTo(p)
        painter.setPen(QPen(color, 2))
        painter.drawPath(path)
        painter.setBrush(color)
        for i, r in enumerate(rows):
            p = plot.at(i, getattr(r, attr))
            painter.drawEllipse(p, radius, radius)
            if attr == "mean_actual":
                tip = text(
                    "{axis}: {bin}\n{reviews} reviews\nPredicted {predicted}\nMeasured {measured}",
                    axis=axis,
                    bin=label_of(r, feature),
                    reviews=fmt.count(r.count),
                    predicted=_pct(r.mean_predicted),
                    measured=_pct(r.mean_actual),
                )
                drawn.append((p, Point(i, r.mean_actual, r.mean_actual, r.mean_actual, r.count, tip)))
        painter.setBrush(Qt.BrushStyle.NoBrush)
    _legend(
        painter,
        QPointF(area.left() + 0.6 * em, area.top() + 0.5 * em),
        ink,
        em,
        [(PREDICTED, "dot", _("predicted by FSRS")), (MEASURED, "dot", _("measured (your answers)"))],
        behind=background,
    )
    return drawn


def paint_overlay(
    painter: QPainter, rect: QRectF, curves: list[tuple[str, Calibration]], palette: QPalette
) -> list[tuple[QPointF, Point]]:
    """Draw several models' calibration curves (label, engine Calibration) on one chart, the legend outside it."""
    ink, grid, background = _colors(palette)
    painter.fillRect(rect, background)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    lows = [b.lower for _name, cal in curves for b in cal.bins]
    x0 = math.floor(min(lows + [0.5]) * 10) / 10
    probe = _Plot(painter, rect)  # the font and line height for this size
    em, metrics = probe.em, probe.metrics
    widest = max([metrics.horizontalAdvance(name) for name, _curve in curves] + [0.0]) + 1.6 * em
    beside = rect.width() - widest > 18 * em  # legend right of the plot when there is room, else below it
    legend_w = min(widest, rect.width() * 0.45) if beside else rect.width() - 5 * em
    plot = _Plot(
        painter,
        rect,
        (x0, 1.0),
        (0.0, 1.0),
        legend_right=legend_w + 0.5 * em if beside else 0.0,
        legend_below=0.0 if beside else em * (len(curves) + 0.5),
    )
    area = plot.area
    painter.setPen(QPen(grid, 1))
    for i in range(6):
        painter.drawLine(plot.at(x0, i / 5), plot.at(1, i / 5))
    painter.setPen(QPen(ink, 1))
    painter.drawRect(area)
    plot.y_labels(painter, [i / 5 for i in range(6)])
    steps = int(round((1.0 - x0) / 0.1))
    plot.x_labels(painter, [(1.0 - i * 0.1, fmt.percent(1.0 - i * 0.1, 0)) for i in range(steps, -1, -1)])
    plot.x_title(painter, _("Predicted recall"))
    plot.y_title(painter, rect, _("Measured recall"))
    painter.setPen(QPen(ink, 1, Qt.PenStyle.DashLine))
    painter.drawLine(plot.at(x0, x0), plot.at(1, 1))
    drawn: list[tuple[QPointF, Point]] = []
    legend: list[tuple[QColor | None, str, str]] = []
    for k, (name, cal) in enumerate(curves):
        color = QColor(MODEL_COLORS[k % len(MODEL_COLORS)])
        path = QPainterPath()
        for i, b in enumerate(cal.bins):
            p = plot.at(b.mean_predicted, b.mean_actual)
            path.moveTo(p) if i == 0 else path.lineTo(p)
            tip = text(
                "{model}\n{reviews} reviews\npredicted {predicted}\nmeasured {measured}",
                model=name,
                reviews=fmt.count(b.count),
                predicted=_pct(b.mean_predicted),
                measured=_pct(b.mean_actual),
            )
            drawn.append((p, Point(b.mean_predicted, b.mean_actual, b.ci_low, b.ci_high, b.count, tip)))
        painter.setPen(QPen(color, 2))
        painter.drawPath(path)
        legend.append((color, "line", name))
    origin = QPointF(area.right() + 0.8 * em, area.top()) if beside else QPointF(area.left(), area.bottom() + 3.0 * em)
    _legend(painter, origin, ink, em, legend, width=legend_w)
    return drawn


def _tick(feature: str, span: str) -> str:
    """Return a bin's label under the x axis: an interval's with its unit ("3–4 d")."""
    return text(DAYS, days=span) if feature == "interval" else span


def label_of(row: Any, feature: str = "") -> str:
    """Return a feature bin's range as text (a FeatureBin's ends are whole numbers, a month's its name)."""
    from ..metrics.explain.where import bin_label

    return bin_label(getattr(row, "feature", feature), row.lowest, row.highest)


def _clip(v: float) -> float:
    return min(1.0, max(0.0, v))


Painting = Callable[[QPainter, QRectF, QPalette], list[tuple[QPointF, Point]]]  # draws a chart, returns its points


class ChartWidget(QWidget):
    """A widget showing one chart, with tooltips on its points, exportable to PNG and SVG."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setLayoutDirection(Qt.LayoutDirection.LeftToRight)  # axes left to right, as Anki's own graphs
        self.setMouseTracking(True)
        self.setMinimumSize(QSize(220, 140))
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self._painter_fn: Painting | None = None
        self._points: list[tuple[QPointF, Point]] = []
        self.empty_text = _(EMPTY)

    def show_calibration(self, calibration: Calibration, title: str = "") -> None:
        """Show the calibration chart of an engine Calibration."""
        self._painter_fn = lambda p, r, pal: paint_calibration(p, r, calibration, pal, title)
        self.update()

    def show_overlay(self, curves: list[tuple[str, Calibration]]) -> None:
        """Show several models' calibration curves on one chart."""
        self._painter_fn = lambda p, r, pal: paint_overlay(p, r, curves, pal)
        self.update()

    def show_feature(self, rows: Sequence[FeatureRow], feature: str) -> None:
        """Show recall by bin of one feature."""
        self._painter_fn = lambda p, r, pal: paint_feature(p, r, rows, feature, pal)
        self.update()

    def clear(self, text: str | None = None) -> None:
        """Show no chart (with a short text)."""
        self._painter_fn = None
        if text is not None:
            self.empty_text = text
        self._points = []
        self.update()

    @property
    def points(self) -> list[Point]:
        """Return the points drawn last (for tests and tooltips)."""
        return [p for _at, p in self._points]

    def paintEvent(self, event: QPaintEvent | None) -> None:  # noqa: N802 (Qt name)
        painter = QPainter(self)
        try:
            rect = QRectF(self.rect())
            if self._painter_fn is None:
                painter.fillRect(rect, self.palette().color(QPalette.ColorRole.Base))
                painter.setPen(self.palette().color(QPalette.ColorRole.WindowText))
                painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, self.empty_text)
                return
            self._points = self._painter_fn(painter, rect, self.palette())
        finally:
            painter.end()

    def mouseMoveEvent(self, event: QMouseEvent | None) -> None:  # noqa: N802 (Qt name)
        if event is None:
            return
        pos = event.position()
        best = None
        for p, pt in self._points:
            d = math.hypot(p.x() - pos.x(), p.y() - pos.y())
            if d < 12 and (best is None or d < best[0]):
                best = (d, pt)
        if best is not None:
            QToolTip.showText(event.globalPosition().toPoint(), best[1].tip, self)
        else:
            QToolTip.hideText()

    def to_image(self, size: QSize | None = None, scale: float = 2.0) -> QImage:
        """Return the chart as an image (at `scale` device pixels per point, for high DPI)."""
        size = size or self.size()
        image = QImage(int(size.width() * scale), int(size.height() * scale), QImage.Format.Format_ARGB32)
        image.setDevicePixelRatio(scale)
        image.fill(self.palette().color(QPalette.ColorRole.Base))
        self._render(image, size.width(), size.height())
        return image

    def _render(self, device: QPaintDevice, width: float, height: float) -> None:
        """Paint the current chart onto a paint device (image or SVG generator) of the given size."""
        painter = QPainter(device)
        try:
            if self._painter_fn is not None:
                self._painter_fn(painter, QRectF(0, 0, width, height), self.palette())
        finally:
            painter.end()

    def to_bytes(self, svg: bool = False) -> bytes:
        """Return the chart as a PNG (at 2x) or, with `svg`, an SVG file's bytes."""
        buffer = QBuffer()
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        if svg:
            from PyQt6.QtSvg import QSvgGenerator  # aqt.qt does not re-export QtSvg

            gen = QSvgGenerator()
            gen.setOutputDevice(buffer)
            gen.setSize(self.size())
            gen.setViewBox(QRectF(0, 0, self.width(), self.height()))
            gen.setTitle("FSRS Calibration")
            self._render(gen, self.width(), self.height())
        elif not self.to_image().save(buffer, "PNG"):
            raise OSError("could not encode the chart as PNG")
        return bytes(buffer.data().data())

    def save(self, path: str, protected: Sequence[str] = ()) -> None:
        """Write the chart to a .png or .svg file, whole or not at all, never over the `protected` collection.

        Raises EvaluationError (one sentence) when the file is refused or cannot be written.
        """
        data = self.to_bytes(svg=path.lower().endswith(".svg"))
        with safe_output(path, protected, force=True) as out:  # the save dialog asked before replacing
            out.write(data)
