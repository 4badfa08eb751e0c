"""Where a dialog opens: inside the available geometry of its screen (a 1366×768 laptop, 150% scaling)."""

from __future__ import annotations

from aqt.qt import QApplication, QWidget


def fit_to_screen(dialog: QWidget) -> None:
    """Resize and move `dialog` to lie inside the available geometry of its screen."""
    screen = dialog.screen() or QApplication.primaryScreen()
    if screen is None:
        return
    avail = screen.availableGeometry()
    extra = dialog.frameGeometry().size() - dialog.geometry().size()
    width = min(dialog.sizeHint().width(), avail.width() - extra.width() - 16)
    height = min(dialog.sizeHint().height(), avail.height() - extra.height() - 16)
    dialog.resize(max(width, dialog.minimumSizeHint().width()), max(height, dialog.minimumSizeHint().height()))
    frame = dialog.frameGeometry()
    x = min(max(frame.x(), avail.left()), avail.right() - frame.width() + 1)
    y = min(max(frame.y(), avail.top()), avail.bottom() - frame.height() + 1)
    if frame.width() > avail.width() or frame.height() > avail.height() or (x, y) != (frame.x(), frame.y()):
        dialog.move(max(x, avail.left()), max(y, avail.top()))
