"""The "Report" tab: the plain-text report, the same as the command line's."""

from __future__ import annotations

from typing import Any

from aqt.qt import QFontDatabase, QPlainTextEdit, QVBoxLayout, QWidget

from ...metrics.explain.lang import N_
from ..widgets import View


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
        layout.addWidget(self.text)

    def show_evaluation(self, ev: Any) -> None:
        from ...metrics.report.text import format_report

        self.text.setPlainText(format_report(ev))

    def clear(self, text: str) -> None:
        self.text.setPlainText(text)
