"""The "Report" tab: the plain-text report, the same as the command line's."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aqt.qt import QFontDatabase, QPlainTextEdit, Qt, QTextOption, QVBoxLayout, QWidget

from ...metrics.explain.lang import N_, current
from ..widgets import View

if TYPE_CHECKING:
    from ...metrics.jobs.evaluate import Evaluation


class ReportView(View):
    """The text report of the evaluation (what Copy results puts on the clipboard)."""

    title = N_("Report")

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        # the report's tables (calibration, decks, bins, months) line up in columns: a fixed-pitch font
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        document = self.text.document()
        if current().right_to_left and document is not None:  # every line right to left, whatever its first word
            option = QTextOption(document.defaultTextOption())
            option.setTextDirection(Qt.LayoutDirection.RightToLeft)
            option.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignAbsolute)
            document.setDefaultTextOption(option)
        layout.addWidget(self.text)

    def show_evaluation(self, ev: Evaluation) -> None:
        from ...metrics.report.text import format_report

        self.text.setPlainText(format_report(ev))

    def clear(self, text: str) -> None:
        self.text.setPlainText(text)
