"""The plan in the What-to-do tab: a box per preset, a card per step — one sentence, the button that does it in
Anki, and the evidence one click away ("Why?": the findings behind the step, and for desired retention its
chart). Formats the engine's plan (metrics/jobs/diagnose/plan.py); computes nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from aqt.qt import QFrame, QHBoxLayout, QLabel, QPushButton, Qt, QToolButton, QVBoxLayout, QWidget

from ...metrics.explain import formatting as fmt
from ...metrics.explain import plan as words
from ...metrics.explain.findings import FINDING_TITLES
from ...metrics.explain.lang import _, current, n_, text
from ...metrics.kinds import AnkiAction, Browse, DeckOptions, FindingId
from ...metrics.report.plan_view import Block, Numbered, joined
from ..anki_screens import ACTION_LABELS
from ..text import label, rich, set_markup, set_plain, tooltip
from ..turns import on
from ..widgets import set_fold
from .retention_chart import RetentionChart

if TYPE_CHECKING:
    from ...metrics.jobs.diagnose.finding import Finding
    from ...metrics.jobs.diagnose.plan import Step

Act = Callable[[AnkiAction], None]


class Why(QWidget):
    """A "Why?" toggle that opens the evidence behind a step (made when first opened)."""

    def __init__(self, make: Callable[[], QWidget]) -> None:
        super().__init__()
        self.make = make
        self.body: QWidget | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.toggle = QToolButton()
        self.toggle.setText(_(words.WHY))
        self.toggle.setCheckable(True)
        self.toggle.setAutoRaise(True)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        set_fold(self.toggle, False)
        self.toggle.toggled.connect(self._fold_toggled)  # toggled(bool): whether it is open
        self.setVisible(False)  # nothing to show (and no space taken) until opened

    def _fold_toggled(self, shown: bool) -> None:
        self.setVisible(shown)
        if self.body is None:
            self.body = self.make()
            layout = self.layout()
            assert layout is not None
            layout.addWidget(self.body)
        self.body.setVisible(shown)
        set_fold(self.toggle, shown)


class StepCard(QFrame):
    """One step: its number and sentence, the button that does it in Anki (none when the step before opened the same
    screen: then it says so), and Why?."""

    def __init__(
        self, shown: Numbered, act: Act, findings_html: Callable[[list[Finding]], str], named: tuple[str, ...] = ()
    ) -> None:
        super().__init__()
        step = self.step = shown.step
        self.setFrameShape(QFrame.Shape.StyledPanel)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 3, 6, 3)
        sentence = label(selectable=True, squeeze=True)
        said = text(words.SAME_SCREEN, step=step.text) if shown.same_screen else step.text
        number = rich("{n}", n=fmt.count(shown.number))
        set_markup(sentence, _("<b>{n}.</b> {step}").format(n=number, step=for_presets(named, said)))
        self.anki_actions = [step.button] if step.button and not shown.same_screen else []
        row, self.buttons = action_buttons(self.anki_actions, act)
        row.insertWidget(0, sentence, 1)  # the sentence, then its button and Why? on the same line
        row.setAlignment(sentence, Qt.AlignmentFlag.AlignVCenter)
        self.why = Why(lambda: _evidence(step, findings_html))
        row.addWidget(self.why.toggle)
        layout.addLayout(row)
        if shown.aside is not None:  # a habit to check that goes with this step: said with it, not as a warning apart
            layout.addWidget(noted(shown.aside.text))
        layout.addWidget(self.why)

    def set_enabled(self, enabled: bool) -> None:
        """Enable the step's button (disabled while a job runs)."""
        for button in self.buttons:
            button.setEnabled(enabled)


def _evidence(step: Step, findings_html: Callable[[list[Finding]], str]) -> QWidget:
    """Return the evidence of a step: its findings (sentence, numbers, why) and, for desired retention, the chart."""
    box = QWidget()
    layout = QVBoxLayout(box)
    layout.setContentsMargins(12, 0, 0, 0)
    for f in step.findings:
        if f.id is FindingId.DESIRED_RETENTION:
            layout.addWidget(RetentionChart(f.evidence.to_dict()))  # as --json writes it
    words_shown = label(selectable=True)
    if step.findings:
        set_markup(words_shown, findings_html(list(step.findings)))
    else:
        titles = [_(FINDING_TITLES[i]) for i in step.because]
        set_plain(words_shown, text(words.WHY_AFTER, because=", ".join(titles)))
    layout.addWidget(words_shown)
    return box


def noted(said: str) -> QLabel:
    """Return a note's line: indented as the steps' sentences are, slanted (not in Arabic and Hebrew)."""
    return indented(label(text(words.NOTE, note=said), selectable=True), slanted=True)


def indented(line: QLabel, slanted: bool = False) -> QLabel:
    """Return a line indented as the steps' sentences are (on the reading side), `slanted` in italics (never in Arabic
    and Hebrew)."""
    rtl = current().right_to_left
    italic = "font-style: italic; " if slanted and not rtl else ""
    line.setStyleSheet(italic + ("margin-right: 12px" if rtl else "margin-left: 12px"))
    return line


def for_presets(presets: tuple[str, ...], said: str) -> str:
    """Return `said` as markup, after the presets it is for (a line of a plan of several presets; none: as it is)."""
    if not presets:
        return rich("{said}", said=said)
    if len(presets) > 1:
        names = fmt.listed([text(words.QUOTED, name=fmt.name(p)) for p in presets])
        return rich(_(words.FOR_PRESETS_RICH), presets=names, said=said)
    return rich(_(words.FOR_PRESET_RICH), preset=fmt.name(presets[0]), said=said)


class PresetBox(QFrame):
    """A block of the plan: its preset (or the presets that share it) and reviews, then its steps and its notes; in
    a plan of several presets, a block of one of its parts (now, in a month, notes), the part's heading above its
    first block, each line naming its presets."""

    def __init__(self, block: Block, act: Act, findings_html: Callable[[list[Finding]], str]) -> None:
        super().__init__()
        self.setFrameShape(QFrame.Shape.NoFrame)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4 if block.when is None or block.opens else 0, 0, 0 if block.when else 4)
        if block.when is not None:
            self._part(layout, block, act, findings_html)
            return
        head = label()
        if block.shared:
            names = fmt.listed([text(words.QUOTED, name=fmt.name(p)) for p in block.presets])
            set_markup(head, rich(_(words.PRESETS_HEAD_RICH), presets=names, reviews=fmt.count(block.reviews)))
        else:
            values = {"preset": fmt.name(block.presets[0]), "reviews": fmt.count(block.reviews)}
            set_markup(head, rich(_(words.PRESET_HEAD_RICH), **values))
        layout.addWidget(head)
        self.steps = [StepCard(shown, act, findings_html) for shown in block.steps]
        for card in self.steps:
            layout.addWidget(card)
        for note in block.notes:  # under the block's steps, indented as they are: its own
            layout.addWidget(noted(note.text))

    def _part(self, layout: QVBoxLayout, block: Block, act: Act, findings_html: Callable[[list[Finding]], str]) -> None:
        """Lay out a block of a plan of several presets (see the class)."""
        assert block.when is not None
        if block.opens:
            head = label()
            set_markup(head, rich("<b>{part}</b>", part=_(words.WHEN_HEADS[block.when])))
            layout.addWidget(head)
        self.steps = [StepCard(shown, act, findings_html, block.presets) for shown in block.steps]
        for card in self.steps:
            layout.addWidget(card)
        if block.notes:  # a preset's notes in one line after its name (readers took a name twice for a slip)
            line = label(selectable=True)
            set_markup(line, for_presets(block.presets, joined(block.notes)))
            layout.addWidget(indented(line))


class FindingCard(QFrame):
    """One finding behind the plan: its words (why in the tooltip), and one button per action (Anki's own
    screens, or an evaluation of its cards here)."""

    def __init__(self, finding: Finding, act: Act, html: str) -> None:
        super().__init__()
        self.finding = finding
        self.anki_actions = list(finding.actions)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        words_shown = label(selectable=True)
        set_markup(words_shown, html)
        if finding.why:
            words_shown.setToolTip(tooltip(text("Why we think so: {why}", why=finding.why)))
        layout.addWidget(words_shown)
        row, self.buttons = action_buttons(self.anki_actions, act)
        row.addStretch(1)
        layout.addLayout(row)

    def set_enabled(self, enabled: bool) -> None:
        """Enable the action buttons (disabled while a job runs)."""
        for button in self.buttons:
            button.setEnabled(enabled)


def action_buttons(actions: list[AnkiAction], act: Act) -> tuple[QHBoxLayout, list[QPushButton]]:
    """Return a row with one button per action, each naming the preset, deck or cards it opens (Tab reaches each;
    Enter never presses one by accident)."""
    row = QHBoxLayout()
    buttons = []
    for action in actions:
        button = QPushButton(button_text(action))
        button.setAutoDefault(False)
        button.setToolTip(tooltip(action_tip(action)))
        on(button.clicked, _calling(act, action))
        row.addWidget(button)
        buttons.append(button)
    return row, buttons


def button_text(action: AnkiAction) -> str:
    """Return an action's button: what it opens, named ("Deck Options of "Japanese"", "Show 12 cards in the
    Browser")."""
    if isinstance(action, DeckOptions):
        if action.deck:
            return text(ACTION_LABELS[DeckOptions, "deck"], deck=fmt.name(action.deck))
        return text(ACTION_LABELS[DeckOptions, "preset"], preset=fmt.name(action.preset))
    if isinstance(action, Browse) and action.card_ids:
        count = len(action.card_ids)
        return n_("Show {count} card in the Browser", "Show {count} cards in the Browser", count).format(
            count=fmt.count(count)
        )
    kind = "deck" if action.name else "search"
    return text(ACTION_LABELS[type(action), kind], deck=fmt.name(action.name))


def action_tip(action: AnkiAction) -> str:
    """Return the tooltip of an action's button: what it opens in Anki."""
    if isinstance(action, DeckOptions):
        return text(words.TIP_DECK_OPTIONS, preset=fmt.name(action.preset))
    return text(words.TIP_SEARCH, search=fmt.name(action.search))


def _calling(act: Act, action: AnkiAction) -> Callable[[], None]:
    return lambda: act(action)
