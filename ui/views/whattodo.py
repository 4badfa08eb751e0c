"""The "What to do" tab: the diagnosis's findings, most important first, each with what to do and why."""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

from aqt.qt import QHBoxLayout, QLabel, QPushButton, QTextBrowser, QVBoxLayout, QWidget

from ...metrics.explain import findings as words
from ..widgets import View, tooltip

HELP = (
    "Checks your FSRS set-up: how you use the answer buttons, whether your retention meets its target, decks "
    "where FSRS is off, presets still on default parameters, and Anki's own health check (which trains, so "
    "this takes a few seconds). Every finding gives its numbers with a 95% interval and how many reviews they "
    "rest on; when the data cannot tell, it says so."
)
COLORS = {"problem": "#D55E00", "suggestion": "#E69F00", "ok": "#009E73", "not-enough-data": "#888888"}
LABELS = words.VERDICT_LABELS
TITLES = words.FINDING_TITLES


def findings_html(findings: list[Any]) -> str:
    """Return the findings as HTML: a coloured verdict, the sentence, what to do, why."""
    parts = []
    for f in findings:
        color = COLORS.get(f.verdict, "#888888")
        head = (
            f'<span style="color:{color}; font-weight:bold">{LABELS.get(f.verdict, f.verdict)}</span> · '
            f"<b>{html.escape(TITLES.get(f.id, f.id))}</b> · {html.escape(f.scope)}"
        )
        body = f"<p style='margin:2px 0 2px 0'>{head}<br>{html.escape(f.summary)}"
        if f.action:
            body += f"<br><b>What to do:</b> {html.escape(f.action)}"
        if f.why:
            body += f"<br><span style='opacity:0.8'><b>Why we think so:</b> {html.escape(f.why)}</span>"
        parts.append(body + "</p>")
    return "<hr>".join(parts)


class WhatToDoView(View):
    """Runs the diagnosis on demand and lists its findings."""

    title = "What to do"
    own_results = True

    def __init__(self, run_diagnosis: Callable[[], None], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.diagnosis: Any = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        row = QHBoxLayout()
        self.button = QPushButton("Find out what to do")
        self.button.setToolTip(tooltip(HELP))
        self.button.clicked.connect(run_diagnosis)
        row.addWidget(self.button)
        hint = QLabel("Checks button use, retention, decks and parameters; runs Anki's own health check too.")
        hint.setWordWrap(True)
        row.addWidget(hint, 1)
        layout.addLayout(row)
        self.text = QTextBrowser()
        self.text.setOpenLinks(False)
        self.text.setPlaceholderText("Press 'Find out what to do'.")
        layout.addWidget(self.text, 1)

    def show_diagnosis(self, diagnosis: Any) -> None:
        """Show an engine Diagnosis."""
        self.diagnosis = diagnosis
        self.text.setHtml(findings_html(diagnosis.findings))

    def set_running(self, running: bool) -> None:
        self.button.setEnabled(not running)

    def clear(self, text: str) -> None:
        self.diagnosis = None
        self.text.setPlainText("")
