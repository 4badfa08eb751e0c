"""The dialog's header: the scope (collection, deck, preset, search) and the options behind a toggle."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aqt.qt import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSizePolicy,
    QStackedWidget,
    Qt,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from .operations import Scope
from .widgets import combo

SCOPES = [
    ("collection", "Whole collection"),
    ("deck", "Deck (with subdecks)"),
    ("preset", "Preset"),
    ("search", "Search"),
]
PARAMS = [("preset", "Each card's preset"), ("default", "FSRS-6 default parameters")]
BINNINGS = [("benchmark", "Benchmark (Anki, FSRS benchmark)"), ("wiki", "The Metric page (wiki)")]
WEIGHTINGS = [("uniform", "Every review the same"), ("recency", "Recent reviews more (Anki's Evaluate)")]
SAME_DAY = [
    ("auto", "Automatic (by parameter version)"),
    ("keep", "Keep in history (FSRS-5/6)"),
    ("drop", "Drop from history (FSRS-4.5)"),
]
DEFAULTS = {"params": "preset", "binning": "benchmark", "weighting": "uniform", "same_day": "auto"}


def select(box: QComboBox, key: Any) -> None:
    """Select the item whose data is `key` (nothing when there is none)."""
    i = box.findData(key)
    if i >= 0:
        box.setCurrentIndex(i)


class ScopeBar(QWidget):
    """Scope and options; `on_change` is called when either changes (not while loading the saved choices)."""

    def __init__(self, on_change: Callable[[], None]) -> None:
        super().__init__()
        self._on_change = on_change
        self.loading = True
        self.remembered = False
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        row = self._scope_row()  # scope and the options toggle on one row: the header stays compact
        row.addLayout(self._options_row(), 1)
        layout.addLayout(row)
        layout.addWidget(self._options_panel())
        for box in (self.scope_kind, self.deck_box, self.preset_box, *self.option_boxes.values()):
            box.currentIndexChanged.connect(self._changed)
        self.search_edit.textChanged.connect(self._changed)

    def _scope_row(self) -> QHBoxLayout:
        row = QHBoxLayout()
        row.addWidget(QLabel("Scope:"))
        self.scope_kind = combo(SCOPES)
        self.deck_box = combo([])
        self.preset_box = combo([])
        self.search_edit = QLineEdit()
        self.search_edit.setPlaceholderText("Anki search, e.g. deck:Spanish -is:suspended")
        self.scope_stack = QStackedWidget()
        for w in (QWidget(), self.deck_box, self.preset_box, self.search_edit):
            self.scope_stack.addWidget(w)
        self.scope_kind.currentIndexChanged.connect(self.scope_stack.setCurrentIndex)
        row.addWidget(self.scope_kind)
        row.addWidget(self.scope_stack, 1)
        return row

    def _options_row(self) -> QHBoxLayout:
        row = QHBoxLayout()
        self.options_toggle = QToolButton()
        self.options_toggle.setText("Options")
        self.options_toggle.setCheckable(True)
        self.options_toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.options_toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.options_toggle.toggled.connect(self._toggle_options)
        self.options_summary = QLabel("")
        self.options_summary.setWordWrap(True)
        self.options_summary.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        row.addWidget(self.options_toggle)
        row.addWidget(self.options_summary, 1)
        return row

    def _options_panel(self) -> QWidget:
        self.options_panel = QWidget()
        form = QFormLayout(self.options_panel)
        form.setContentsMargins(18, 0, 0, 0)
        self.option_boxes = {
            "params": combo(PARAMS),
            "binning": combo(BINNINGS),
            "weighting": combo(WEIGHTINGS),
            "same_day": combo(SAME_DAY),
        }
        labels = {"params": "Parameters:", "binning": "RMSE bins:", "weighting": "Weighting:"}
        for key, box in self.option_boxes.items():
            form.addRow(labels.get(key, "Same-day repeats:"), box)
        self.options_panel.setVisible(False)
        return self.options_panel

    def _toggle_options(self, shown: bool) -> None:
        self.options_panel.setVisible(shown)
        self.options_toggle.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)

    def fill(self, col: Any) -> None:
        """List the collection's decks (as a tree) and presets."""
        names = sorted((d.name for d in col.decks.all_names_and_ids()), key=lambda n: n.lower().split("::"))
        self.deck_box.clear()
        for name in names:
            parts = name.split("::")
            self.deck_box.addItem("    " * (len(parts) - 1) + parts[-1], name)
        self.preset_box.clear()
        for conf in sorted(col.decks.all_config(), key=lambda c: str(c["name"]).lower()):
            self.preset_box.addItem(str(conf["name"]), str(conf["name"]))

    def load(self, config: dict[str, Any]) -> None:
        """Select the saved choices (remembered from last time when the config holds any)."""
        self.loading = True
        for key, box in self.option_boxes.items():
            select(box, config.get(key, DEFAULTS[key]))
        self.set_scope(config.get("scope", "collection"), config.get("scope_value", ""))
        self.remembered = True  # the options shown are the saved ones until one is changed
        self.loading = False
        self._show_summary()

    def set_scope(self, kind: str, value: str = "") -> None:
        """Select a scope: collection, deck (name), preset (name) or search (text)."""
        select(self.scope_kind, kind if kind in dict(SCOPES) else "collection")
        if kind == "deck":
            select(self.deck_box, value)
        elif kind == "preset":
            select(self.preset_box, value)
        elif kind == "search":
            self.search_edit.setText(value)

    def scope(self) -> Scope:
        """Return the chosen scope."""
        kind = self.scope_kind.currentData()
        value = {
            "deck": self.deck_box.currentData() or "",
            "preset": self.preset_box.currentData() or "",
            "search": self.search_edit.text().strip(),
        }.get(kind, "")
        return Scope(kind, value)

    def scope_text(self) -> str:
        """Return the chosen scope in words."""
        s = self.scope()
        texts = {
            "collection": "Whole collection",
            "deck": f'Deck "{s.value}" with subdecks',
            "preset": f'Preset "{s.value}"',
            "search": f"Search {s.value}",
        }
        return texts.get(s.kind, s.kind)

    def missing(self) -> str:
        """Return what the scope still lacks, in words ("" when it is complete)."""
        s = self.scope()
        if s.kind in ("deck", "preset") and not s.value:
            return f"Choose a {s.kind} first."
        if s.kind == "search" and not s.value:
            return "Type an Anki search first."
        return ""

    def choices(self) -> dict[str, str]:
        """Return the chosen options as plain strings (no engine import on the main thread)."""
        return {key: box.currentData() for key, box in self.option_boxes.items()}

    def _changed(self, *_args: Any) -> None:
        if self.loading:
            return
        self.remembered = False
        self._show_summary()
        self._on_change()

    def _show_summary(self) -> None:
        """Show the options that differ from the defaults next to the Options button."""
        changed = [box.currentText() for key, box in self.option_boxes.items() if box.currentData() != DEFAULTS[key]]
        if not changed:
            self.options_summary.setText("all at their defaults")
            return
        remembered = " (remembered from last time)" if self.loading or self.remembered else ""
        self.options_summary.setText(f"<b>{'; '.join(changed)}</b>{remembered}")
