"""The "What to do" tab: the diagnosis's plan (per preset, the steps in order: plan_cards.py) and the findings
behind it, folded."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from aqt.qt import QHBoxLayout, QPushButton, Qt, QToolButton, QVBoxLayout, QWidget

from ...metrics.explain import counts
from ...metrics.explain import findings as words
from ...metrics.explain import formatting as fmt
from ...metrics.explain import plan as plan_words
from ...metrics.explain.lang import N_, _, text
from ...metrics.kinds import AnkiAction, FindingId, Scope, Verdict
from ...metrics.report.plan_view import Block, plan_view
from ..text import label, rich, set_markup, set_plain, tooltip
from ..turns import later, on
from ..widgets import View, scrolling, set_fold
from .plan_cards import FindingCard, PresetBox, StepCard

if TYPE_CHECKING:
    from ...metrics.jobs.diagnose import Diagnosis
    from ...metrics.jobs.diagnose.finding import Finding

CARDS_PER_TURN = 4  # cards added per turn of the event loop
NEXT_TURN_MS = 1

HELP = N_(
    "Checks your FSRS set-up: how you use the answer buttons, whether your retention meets its target, decks "
    "where FSRS is off, presets still on default parameters, and Anki's own health check (which trains, so "
    "this takes a few seconds). Every finding gives its numbers with a 95% interval and how many reviews they "
    "rest on; when the data cannot tell, it says so."
)
COLORS = {"problem": "#D55E00", "suggestion": "#E69F00", "ok": "#009E73", "not-enough-data": "#888888"}
LABELS = words.VERDICT_LABELS
TITLES = words.FINDING_TITLES


def _scope(scope: Scope) -> str:
    """Return a finding's scope in the language in use."""
    return words.shown_scope(scope)


def findings_html(findings: list[Finding], with_why: bool = True) -> str:
    """Return the findings as HTML: a coloured verdict, the sentence, what to do, why (unless not `with_why`);
    every text escaped (a deck's name is text)."""
    parts = []
    for f in findings:
        body = rich(
            "<p style='margin:2px 0 2px 0'><span style=\"color:{color}; font-weight:bold\">{verdict}</span> · "
            "<b>{title}</b> · {scope}<br>{summary}",
            color=COLORS.get(f.verdict, "#888888"),
            verdict=_(LABELS[f.verdict]),
            title=_(TITLES[f.id]),
            scope=_scope(f.scope),
            summary=f.summary,
        )
        if f.action:
            body += "<br>" + rich(_("<b>What to do:</b> {action}"), action=f.action)
        if f.why and with_why:
            why = rich(_("<b>Why we think so:</b> {why}"), why=f.why)
            body += "<br><span style='opacity:0.8'>" + why + "</span>"
        parts.append(body + "</p>")
    return "<hr>".join(parts)


class Fold(QWidget):
    """A compact line ("7 checks passed") that opens to show the findings behind it."""

    def __init__(self) -> None:
        super().__init__()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.toggle = QToolButton()
        self.toggle.setCheckable(True)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        set_fold(self.toggle, False)
        self.body = label("")
        self.body.setVisible(False)
        self.toggle.toggled.connect(self._fold_toggled)  # toggled(bool): whether it is open
        layout.addWidget(self.toggle)
        layout.addWidget(self.body)

    def fill(self, title: str, findings: list[Finding]) -> None:
        """Show `title` (hidden when there are no findings), the findings behind it when opened."""
        self.setVisible(bool(findings))
        self.toggle.setText(title)
        set_markup(self.body, findings_html(findings))

    def _fold_toggled(self, shown: bool) -> None:
        self.body.setVisible(shown)
        set_fold(self.toggle, shown)


class CardsFold(Fold):
    """A fold whose findings open as cards with their buttons (made when first opened)."""

    def __init__(self, act: Callable[[AnkiAction], None]) -> None:
        super().__init__()
        self.act = act
        self.findings: list[Finding] = []
        self.cards: list[FindingCard] = []
        self.enabled = True

    def fill(self, title: str, findings: list[Finding]) -> None:
        self.setVisible(bool(findings))
        self.toggle.setText(title)
        self.findings = findings
        for card in self.cards:
            card.setParent(None)
            card.deleteLater()
        self.cards = []

    def _fold_toggled(self, shown: bool) -> None:
        if shown and not self.cards:
            layout = self.layout()
            assert layout is not None
            for f in self.findings:
                card = FindingCard(f, self.act, findings_html([f], with_why=False))
                card.set_enabled(self.enabled)
                layout.addWidget(card)
                self.cards.append(card)
        for card in self.cards:
            card.setVisible(shown)
        set_fold(self.toggle, shown)

    def set_enabled(self, enabled: bool) -> None:
        self.enabled = enabled
        for card in self.cards:
            card.set_enabled(enabled)


class WhatToDoView(View):
    """The diagnosis as a plan: the scope's first line, then per preset its steps in order (each with the
    button that does it and its evidence under Why?), then the checks behind it, folded: those that ask for
    action, those that passed, those without enough data."""

    title = N_("What to do")
    own_results = True
    greys_when_stale = False  # greyed by the dialog, by what its own results were made for

    def __init__(
        self, run_diagnosis: Callable[[], None], act: Callable[[AnkiAction], None], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.diagnosis: Diagnosis | None = None
        self.act = act
        self._waiting: list[Block] = []  # blocks of the plan still to be added
        self._running = False
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        row = QHBoxLayout()
        self.button = QPushButton(_("Find out what to do"))  # shown only when opening does not diagnose
        self.button.setToolTip(tooltip(_(HELP)))
        self.button.setAutoDefault(False)
        self.button.setVisible(False)
        on(self.button.clicked, run_diagnosis)
        self.notes = label("")  # presets left out (a newer FSRS): named in a line each
        self.notes.setVisible(False)
        row.addWidget(self.button)
        row.addStretch(1)
        layout.addLayout(row)
        layout.addWidget(self.notes)
        inner = QWidget()
        self.list = QVBoxLayout(inner)
        self.list.setContentsMargins(0, 0, 0, 0)
        self.first = label("")
        self.first.setVisible(False)
        self.list.addWidget(self.first)
        self.boxes: list[PresetBox] = []
        self.cards: list[StepCard] = []  # every step's card, in order
        self.nothing = label("")  # the presets that need nothing, in one line
        self.nothing.setVisible(False)
        self.list.addWidget(self.nothing)
        self.acting, self.passed, self.undecided = CardsFold(act), Fold(), Fold()
        for fold in (self.acting, self.passed, self.undecided):
            fold.setVisible(False)
            self.list.addWidget(fold)
        self.list.addStretch(1)
        layout.addWidget(scrolling(inner, 360, 120), 1)

    def ask_first(self, ask: bool) -> None:
        """Show the button that starts the diagnosis (when opening the dialog does not: auto_diagnose off)."""
        self.button.setVisible(ask)

    def show_diagnosis(self, diagnosis: Diagnosis) -> None:
        """Show an engine Diagnosis: its plan as the learner reads it (report/plan_view.py), then its findings folded
        in the engine's order (ranked)."""
        self.diagnosis = diagnosis
        self._remove_cards()
        view = plan_view(diagnosis.plan)
        set_plain(self.first, diagnosis.first_line if not diagnosis.plan else "")
        self.first.setVisible(not diagnosis.plan and bool(diagnosis.first_line))
        self._waiting = list(view.blocks)
        self._add_cards()
        names = fmt.listed([text(plan_words.QUOTED, name=fmt.name(p)) for p in view.nothing])
        set_plain(self.nothing, text(plan_words.NOTHING_FOR, presets=names) if view.nothing else "")
        self.nothing.setVisible(bool(view.nothing))
        findings = diagnosis.findings
        acting = [f for f in findings if f.verdict.acting or f.id is FindingId.SINCE_LAST]
        passed = [f for f in findings if f.verdict is Verdict.OK and f not in acting]
        undecided = [f for f in findings if f.verdict is Verdict.NOT_ENOUGH_DATA and f not in acting]
        self.acting.fill(counts.checks_behind(len(acting)), acting)
        self.passed.fill(counts.checks_passed(len(passed)), passed)
        self.undecided.fill(counts.not_enough_data(len(undecided)), undecided)
        set_plain(self.notes, "\n".join(diagnosis.notes))
        self.notes.setVisible(bool(diagnosis.notes))

    @property
    def building(self) -> bool:
        """Return whether preset boxes are still being added (a few per turn of the event loop)."""
        return bool(self._waiting)

    def _add_cards(self) -> None:
        """Add the next few blocks, and the others in the next turns: 28 cards at once froze Anki's window for 143 ms
        (bench_dialog, 500k reviews)."""
        batch, self._waiting = self._waiting[:CARDS_PER_TURN], self._waiting[CARDS_PER_TURN:]
        for block in batch:
            box = PresetBox(block, self.act, findings_html)
            for card in box.steps:
                card.set_enabled(not self._running)
            self.list.insertWidget(1 + len(self.boxes), box)
            box.show()  # now: a child added to a shown widget is shown only in a later turn (half-built screenshots)
            self.boxes.append(box)
            self.cards += box.steps
        if self._waiting:
            later(self, NEXT_TURN_MS, self._add_cards)

    def plain_text(self) -> str:
        """Return the plan and every finding (the folded ones too) as plain text."""
        if self.diagnosis is None:
            return ""
        from ...metrics.report.text import format_plan

        plan = "\n".join(format_plan(self.diagnosis))
        return plan + "\n\n" + "\n\n".join(_plain(f) for f in self.diagnosis.findings)

    def _remove_cards(self) -> None:
        self._waiting = []
        for box in self.boxes:
            box.setParent(None)
            box.deleteLater()
        self.boxes, self.cards = [], []

    def set_running(self, running: bool) -> None:
        self._running = running
        self.button.setEnabled(not running)
        for card in self.cards:
            card.set_enabled(not running)
        self.acting.set_enabled(not running)

    def clear(self, text: str) -> None:
        self.diagnosis = None
        self._remove_cards()
        for fold in (self.acting, self.passed, self.undecided):
            fold.setVisible(False)
        self.first.setVisible(False)
        self.nothing.setVisible(False)
        self.notes.setVisible(False)


def _plain(f: Finding) -> str:
    head = text(
        "[{verdict}] {title} — {scope}: {summary}",
        verdict=_(LABELS[f.verdict]),
        title=_(TITLES[f.id]),
        scope=_scope(f.scope),
        summary=f.summary,
    )
    lines = [head]
    if f.action:
        lines.append(text("What to do: {action}", action=f.action))
    if f.why:
        lines.append(text("Why we think so: {why}", why=f.why))
    return "\n".join(lines)
