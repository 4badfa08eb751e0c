"""The "Report" tab: the plain-text report, the same as the command line's."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aqt.qt import QFont, QFontDatabase, QPlainTextEdit, Qt, QTextOption, QVBoxLayout, QWidget

from ...metrics.explain.lang import N_, base, current
from ..widgets import View

if TYPE_CHECKING:
    from ...metrics.jobs.evaluate import Evaluation

# Fixed-pitch fonts whose Chinese and Japanese characters are exactly two columns wide (the report pads its columns
# by East Asian width): the system's fixed font falls back to a proportional CJK font and the columns go astray
# (second readers of ja, zh_CN, zh_TW, ko). Linux (fonts-noto-cjk), Windows, macOS; the first one installed is used.
CJK_FIXED = {
    "ja": ("Noto Sans Mono CJK JP", "Source Han Mono", "MS Gothic", "Osaka-Mono"),
    "zh": ("Noto Sans Mono CJK SC", "Noto Sans Mono CJK TC", "Source Han Mono", "NSimSun", "MingLiU"),
    "ko": ("Noto Sans Mono CJK KR", "D2Coding", "GulimChe", "DotumChe", "Source Han Mono"),
}


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
        self.text.setFont(fixed_font(current().code))
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


def fixed_font(code: str) -> QFont:
    """Return the report's fixed-pitch font for a language: in Chinese, Japanese and Korean one whose characters are
    two columns wide when one is installed (CJK_FIXED), else the system's."""
    font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    installed = set(QFontDatabase.families())
    wanted = CJK_FIXED.get(base(code), ())
    if base(code) == "zh" and code.replace("-", "_").upper().endswith(("TW", "HK")):
        wanted = ("Noto Sans Mono CJK TC", *wanted)
    family = next((f for f in wanted if f in installed), None)
    if family is not None:
        font.setFamilies([family])
    return font
