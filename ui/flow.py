"""A row of short items that wraps between items, never inside one (the Calibration tab's numbers: "1,300 cards"
and "(predicted 89.4%)" broke in two in German, Arabic, Chinese at 1366×768 and 800×500/150%). Lays out right to
left in a right-to-left dialog."""

from __future__ import annotations

from aqt.qt import QLayout, QLayoutItem, QPoint, QRect, QSize, Qt, QWidget


class FlowLayout(QLayout):
    """Items side by side at their preferred widths, wrapping to a new line where the next one does not fit."""

    def __init__(self, parent: QWidget | None = None, spacing: int = 18) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._gap = spacing
        self.setContentsMargins(0, 0, 0, 0)

    def addItem(self, item: QLayoutItem | None) -> None:  # noqa: N802 — Qt's name
        if item is not None:
            self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:  # noqa: N802
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:  # noqa: N802
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:  # noqa: N802
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:  # noqa: N802
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802
        return self._place(QRect(0, 0, width, 0), apply=False)

    def setGeometry(self, rect: QRect) -> None:  # noqa: N802
        super().setGeometry(rect)
        self._place(rect, apply=True)

    def sizeHint(self) -> QSize:  # noqa: N802
        return self.minimumSize()

    def minimumSize(self) -> QSize:  # noqa: N802
        size = QSize()
        for item in self._items:
            size = size.expandedTo(item.minimumSize())
        return size

    def _place(self, rect: QRect, apply: bool) -> int:
        """Place the items in `rect` (or only measure), returning the height they take."""
        x, y, line = 0, 0, 0
        owner = self.parentWidget()
        mirrored = owner is not None and owner.layoutDirection() == Qt.LayoutDirection.RightToLeft
        for item in self._items:
            hint = item.sizeHint()
            if x and x + hint.width() > rect.width():
                x, y, line = 0, y + line + self._gap // 3, 0
            if apply:
                left = rect.right() - x - hint.width() + 1 if mirrored else rect.x() + x
                item.setGeometry(QRect(QPoint(left, rect.y() + y), hint))
            x += hint.width() + self._gap
            line = max(line, hint.height())
        return y + line
