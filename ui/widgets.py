"""Small pieces every view uses: number cells that sort by value, combo boxes, tables, the tab base."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aqt.qt import (
    QAbstractItemView,
    QApplication,
    QComboBox,
    QFrame,
    QGraphicsOpacityEffect,
    QHeaderView,
    QIcon,
    QPainter,
    QPixmap,
    QRect,
    QScrollArea,
    QSize,
    QStyle,
    QStyleOption,
    Qt,
    QTableWidget,
    QTableWidgetItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from .text import tooltip

if TYPE_CHECKING:
    from ..metrics.jobs.evaluate import Evaluation


class NumberItem(QTableWidgetItem):
    """A table cell that sorts by its number, not its text (missing values last in ascending order)."""

    def __init__(self, value: float | None, text: str) -> None:
        super().__init__(text)
        self.value = float("-inf") if value is None or value != value else value
        self.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)

    def __lt__(self, other: QTableWidgetItem) -> bool:
        if isinstance(other, NumberItem):
            return self.value < other.value
        return super().__lt__(other)


def combo(items: list[tuple[str, str]]) -> QComboBox:
    """Return a combo box of (key, text) items; currentData() is the key."""
    box = QComboBox()
    for key, text in items:
        box.addItem(text, key)
    box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    longest = max((len(text) for _key, text in items), default=0)  # a fixed list's words: whole, in any language
    box.setMinimumContentsLength(max(12, min(18, longest)))
    return box


def table(headers: list[str], tips: list[str] | None = None, stretch: int | None = 0) -> QTableWidget:
    """Return a read-only, row-selecting table with these column headers (and header tooltips)."""
    t = QTableWidget(0, len(headers))
    t.setHorizontalHeaderLabels(headers)
    for i, tip in enumerate(tips or []):
        item = t.horizontalHeaderItem(i)
        if item is not None and tip:
            item.setToolTip(tooltip(tip))
    t.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    t.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    t.setAlternatingRowColors(True)
    header = t.horizontalHeader()
    if header is not None:
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        if stretch is not None:
            header.setSectionResizeMode(stretch, QHeaderView.ResizeMode.Stretch)
    vertical = t.verticalHeader()
    if vertical is not None:
        vertical.setVisible(False)
        vertical.setDefaultSectionSize(int(t.fontMetrics().height() * 1.5))
    return t


def set_row(t: QTableWidget, row: int, cells: list[QTableWidgetItem]) -> None:
    """Put `cells` into row `row` of the table, left to right."""
    for column, item in enumerate(cells):
        t.setItem(row, column, item)


def fit_rows(t: QTableWidget) -> None:
    """Make the table tall enough to show all its rows without scrolling (it stays at least 3 rows tall)."""
    header = t.horizontalHeader()
    rows = max(3, t.rowCount())
    head = header.sizeHint().height() if header is not None else 24
    vertical = t.verticalHeader()
    row = vertical.defaultSectionSize() if vertical is not None else 24
    t.setMinimumHeight(min(head + rows * row + 2 * t.frameWidth() + 2, 360))


class View(QWidget):
    """One tab of the dialog: draws engine results, never computes them. Greyed while its results are stale."""

    title = ""
    own_results = False  # shows the results of a job of its own (comparison, diagnosis, export): kept on a message
    greys_when_stale = True

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._fade = QGraphicsOpacityEffect(self)
        self._fade.setOpacity(1.0)
        self.setGraphicsEffect(self._fade)

    def show_evaluation(self, ev: Evaluation) -> None:
        """Show an engine Evaluation (views that do not use it ignore it)."""

    def clear(self, text: str) -> None:
        """Show no results, with a short text where it fits."""

    def set_running(self, running: bool) -> None:
        """Disable the view's own start buttons while a job runs (views without any ignore it)."""

    def set_stale(self, stale: bool) -> None:
        """Grey the view out while its results no longer match the scope and options."""
        self._fade.setOpacity(0.45 if stale else 1.0)


def scrolling(content: QWidget, min_width: int = 520, min_height: int = 300) -> QScrollArea:
    """Return `content` inside a scroll area: when the dialog is small, everything stays reachable."""
    content.setMinimumSize(min_width, min_height)
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setWidget(content)
    return area


def page(view: View, inner: QWidget, min_width: int = 520, min_height: int = 300) -> None:
    """Lay `inner` into `view` through a scroll area."""
    layout = QVBoxLayout(view)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.addWidget(scrolling(inner, min_width, min_height))


def fold_arrow(shown: bool) -> Qt.ArrowType:
    """Return the arrow of a fold: down when open; closed, it points the way the text runs (left in Arabic and
    Hebrew)."""
    from ..metrics.explain.lang import current

    if shown:
        return Qt.ArrowType.DownArrow
    return Qt.ArrowType.LeftArrow if current().right_to_left else Qt.ArrowType.RightArrow


def set_fold(button: QToolButton, shown: bool) -> None:
    """Show a fold's arrow on its button, before the text in the text's direction. Qt draws a tool button's own
    arrow at the left whatever the direction (QCommonStyle leaves the arrow out of visualRect), so in Arabic and
    Hebrew the arrow is an icon, which Qt places at the start, on the right."""
    from ..metrics.explain.lang import current

    if not current().right_to_left:
        button.setArrowType(fold_arrow(shown))
        return
    button.setArrowType(Qt.ArrowType.NoArrow)
    button.setIcon(_arrow_icon(button, fold_arrow(shown)))


def _arrow_icon(button: QToolButton, arrow: Qt.ArrowType) -> QIcon:
    """Return the style's small arrow drawn as an icon of the button's icon size."""
    style = button.style() or QApplication.style()
    assert style is not None  # a QApplication runs: it always has a style
    side = style.pixelMetric(QStyle.PixelMetric.PM_ToolBarIconSize) // 2 or 8
    ratio = button.devicePixelRatioF()
    pixmap = QPixmap(int(side * ratio), int(side * ratio))
    pixmap.setDevicePixelRatio(ratio)
    pixmap.fill(Qt.GlobalColor.transparent)
    option = QStyleOption()
    option.initFrom(button)
    option.rect = QRect(0, 0, side, side)
    primitive = {
        Qt.ArrowType.DownArrow: QStyle.PrimitiveElement.PE_IndicatorArrowDown,
        Qt.ArrowType.LeftArrow: QStyle.PrimitiveElement.PE_IndicatorArrowLeft,
    }.get(arrow, QStyle.PrimitiveElement.PE_IndicatorArrowRight)
    painter = QPainter(pixmap)
    style.drawPrimitive(primitive, option, painter, button)
    painter.end()
    button.setIconSize(QSize(side, side))
    return QIcon(pixmap)
