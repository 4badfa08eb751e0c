"""The dialog's header: the scope (collection, deck, preset, search) and the options behind a toggle."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from aqt.qt import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QStackedWidget,
    Qt,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ..metrics.explain import dialog as words
from ..metrics.explain import formatting as fmt
from ..metrics.explain.lang import N_, _, text
from .operations import Scope
from .text import label, rich, set_markup, set_plain
from .turns import on
from .widgets import combo, set_fold

if TYPE_CHECKING:
    from anki.collection import Collection

SCOPES = [
    ("collection", N_("Whole collection")),
    ("deck", N_("Deck (with subdecks)")),
    ("preset", N_("Preset")),
    ("search", N_("Search")),
    ("cards", N_("Cards from the Browser")),
]
PARAMS = [("preset", N_("Each card's preset")), ("default", N_("FSRS-6 default parameters"))]
BINNINGS = [("benchmark", N_("Benchmark (Anki, FSRS benchmark)")), ("wiki", N_("The Metric page (wiki)"))]
WEIGHTINGS = [("uniform", N_("Every review the same")), ("recency", N_("Recent reviews more (Anki's Evaluate)"))]
SAME_DAY = [
    ("auto", N_("Automatic (by parameter version)")),
    ("keep", N_("Keep in history (FSRS-5/6)")),
    ("drop", N_("Drop from history (FSRS-4.5)")),
]
OPTION_LABELS = {
    "params": N_("Parameters:"),
    "binning": N_("RMSE bins:"),
    "weighting": N_("Weighting:"),
    "same_day": N_("Same-day repeats:"),
}
REMEMBERED = N_("<b>{changed}</b> (remembered from last time)")  # the add-on's markup; the value is escaped
DEFAULTS = {"params": "preset", "binning": "benchmark", "weighting": "uniform", "same_day": "auto"}
ID_ROLE = Qt.ItemDataRole.UserRole + 1  # a deck's or preset's id beside its name (the item's data)


def select(box: QComboBox, key: object) -> bool:
    """Select the item whose data is `key`; return whether there was one (else the selection stays)."""
    i = box.findData(key)
    if i >= 0:
        box.setCurrentIndex(i)
    return i >= 0


def translated(items: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Return (key, text) items with each text in the language in use."""
    return [(key, _(message)) for key, message in items]


def _selected_id(box: QComboBox) -> int | None:
    return box.itemData(box.currentIndex(), ID_ROLE) if box.currentIndex() >= 0 else None


class ScopeBar(QWidget):
    """Scope and options; `on_change` is called when either changes (not while loading the saved choices)."""

    def __init__(self, on_change: Callable[[], None]) -> None:
        super().__init__()
        self._on_change = on_change
        self.loading = True
        self.remembered = False
        self.gone = ""  # what the selected deck or preset was, when it no longer exists (its message)
        self.cards: tuple[int, ...] = ()  # the Browser's selection, for the "cards" scope
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        row = self._scope_row()  # scope and the options toggle on one row: the header stays compact
        row.addLayout(self._options_row(), 1)
        layout.addLayout(row)
        layout.addWidget(self._options_panel())
        for box in (self.scope_kind, self.deck_box, self.preset_box, *self.option_boxes.values()):
            on(box.currentIndexChanged, self._changed)
        on(self.search_edit.textChanged, self._changed)

    def _scope_row(self) -> QHBoxLayout:
        row = QHBoxLayout()
        row.addWidget(label(_("Scope:"), wrap=False))
        self.scope_kind = combo(translated(SCOPES))
        self.deck_box = combo([])
        self.preset_box = combo([])
        self.search_edit = QLineEdit()
        self.search_edit.setPlaceholderText(_("Anki search, e.g. deck:Spanish -is:suspended"))
        self.scope_stack = QStackedWidget()
        self.cards_label = label("", wrap=False)
        for w in (QWidget(), self.deck_box, self.preset_box, self.search_edit, self.cards_label):
            self.scope_stack.addWidget(w)
        self.scope_kind.currentIndexChanged.connect(self.scope_stack.setCurrentIndex)
        row.addWidget(self.scope_kind)
        row.addWidget(self.scope_stack, 1)
        return row

    def _options_row(self) -> QHBoxLayout:
        row = QHBoxLayout()
        self.options_toggle = QToolButton()
        self.options_toggle.setText(_("Options"))
        self.options_toggle.setCheckable(True)
        self.options_toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        set_fold(self.options_toggle, False)
        self.options_toggle.toggled.connect(self._toggle_options)  # toggled(bool): the state it wants
        self.options_summary = label("", squeeze=True)
        row.addWidget(self.options_toggle)
        row.addWidget(self.options_summary, 1)
        return row

    def _options_panel(self) -> QWidget:
        self.options_panel = QWidget()
        form = QFormLayout(self.options_panel)
        form.setContentsMargins(18, 0, 0, 0)
        self.option_boxes = {
            "params": combo(translated(PARAMS)),
            "binning": combo(translated(BINNINGS)),
            "weighting": combo(translated(WEIGHTINGS)),
            "same_day": combo(translated(SAME_DAY)),
        }
        for key, box in self.option_boxes.items():
            form.addRow(_(OPTION_LABELS[key]), box)
        self.options_panel.setVisible(False)
        return self.options_panel

    def _toggle_options(self, shown: bool) -> None:
        self.options_panel.setVisible(shown)
        set_fold(self.options_toggle, shown)

    def fill(self, col: Collection) -> None:
        """List the collection's decks (as a tree) and presets as they are now. The deck or preset selected
        stays selected by its id (under its new name after a rename); one that no longer exists is said."""
        was_loading, self.loading = self.loading, True
        kind = self.scope_kind.currentData()
        kept = {
            "deck": (_selected_id(self.deck_box), self.deck_box.currentData()),
            "preset": (_selected_id(self.preset_box), self.preset_box.currentData()),
        }
        decks = sorted(col.decks.all_names_and_ids(), key=lambda d: d.name.lower().split("::"))
        self._refill(self.deck_box, [(d.name, int(d.id), _tree_text(d.name)) for d in decks])
        presets = sorted(col.decks.all_config(), key=lambda c: str(c["name"]).lower())
        self._refill(self.preset_box, [(str(c["name"]), int(c["id"]), str(c["name"])) for c in presets])
        for box, name in ((self.deck_box, "deck"), (self.preset_box, "preset")):
            ident, old = kept[name]
            i = box.findData(ident, ID_ROLE) if ident is not None else -1
            box.setCurrentIndex(i)
            if i < 0 and ident is not None and kind == name:
                self.gone = text(words.DECK_GONE if name == "deck" else words.PRESET_GONE, name=fmt.name(old))
        self.loading = was_loading

    @staticmethod
    def _refill(box: QComboBox, items: list[tuple[str, int, str]]) -> None:
        box.clear()
        for name, ident, shown in items:
            box.addItem(shown, name)
            box.setItemData(box.count() - 1, ident, ID_ROLE)

    def load(self, config: Mapping[str, str | bool]) -> None:
        """Select the saved choices (remembered from last time when the config holds any; checked: settings.py)."""
        self.loading = True
        for key, box in self.option_boxes.items():
            select(box, config.get(key, DEFAULTS[key]))
        self.set_scope(str(config.get("scope", "collection")), str(config.get("scope_value", "")))
        if self.gone and config.get("scope") in ("deck", "preset"):
            self.set_scope("collection")  # a remembered deck that is gone: no message at opening
        self.remembered = True  # the options shown are the saved ones until one is changed
        self.loading = False
        self._show_summary()

    def set_scope(self, kind: str, value: str = "") -> None:
        """Select a scope: collection, deck (name), preset (name) or search (text). A deck or preset that is
        not in the lists is not replaced by another: nothing is selected, and `missing` says why."""
        select(self.scope_kind, kind if kind in dict(SCOPES) else "collection")
        self.gone = ""
        if kind in ("deck", "preset"):
            box = self.deck_box if kind == "deck" else self.preset_box
            if not select(box, value):
                box.setCurrentIndex(-1)
                if value:
                    self.gone = text(words.DECK_GONE if kind == "deck" else words.PRESET_GONE, name=fmt.name(value))
        elif kind == "search":
            self.search_edit.setText(value)

    def scope(self) -> Scope:
        """Return the chosen scope."""
        kind = self.scope_kind.currentData()
        if kind == "cards":
            return Scope(kind, f"{len(self.cards)}", self.cards)
        value = {
            "deck": self.deck_box.currentData() or "",
            "preset": self.preset_box.currentData() or "",
            "search": self.search_edit.text().strip(),
        }.get(kind, "")
        return Scope(kind, value)

    def set_cards(self, ids: list[int]) -> None:
        """Select the scope of these cards (the Browser's selection)."""
        self.cards = tuple(sorted(set(ids)))
        set_plain(self.cards_label, _cards_text(len(self.cards)))
        if not select(self.scope_kind, "cards"):
            return
        self._changed()

    def scope_text(self) -> str:
        """Return the chosen scope in words."""
        s = self.scope()
        if s.kind == "collection":
            return _("Whole collection")
        if s.kind == "deck":
            return text('Deck "{deck}" with subdecks', deck=fmt.name(s.value))
        if s.kind == "preset":
            return text('Preset "{preset}"', preset=fmt.name(s.value))
        if s.kind == "search":
            return text("Search {search}", search=fmt.name(s.value))
        return _cards_text(len(s.cards)) if s.kind == "cards" else s.kind

    def missing(self) -> str:
        """Return what the scope still lacks, in words ("" when it is complete)."""
        s = self.scope()
        if s.kind in ("deck", "preset") and not s.value:
            return self.gone or _(words.CHOOSE_DECK if s.kind == "deck" else words.CHOOSE_PRESET)
        if s.kind == "search" and not s.value:
            return _(words.TYPE_SEARCH)
        if s.kind == "cards" and not s.cards:
            return _(words.CHOOSE_CARDS)
        return ""

    def choices(self) -> dict[str, str]:
        """Return the chosen options as plain strings (no engine import on the main thread)."""
        return {key: box.currentData() for key, box in self.option_boxes.items()}

    def _changed(self) -> None:
        if self.loading:
            return
        if self.scope().value or self.scope_kind.currentData() not in ("deck", "preset"):
            self.gone = ""  # the learner chose another scope
        self.remembered = False
        self._show_summary()
        self._on_change()

    def _show_summary(self) -> None:
        """Show the options that differ from the defaults next to the Options button."""
        changed = [box.currentText() for key, box in self.option_boxes.items() if box.currentData() != DEFAULTS[key]]
        if not changed:
            set_plain(self.options_summary, _("all at their defaults"))
            return
        template = _(REMEMBERED) if self.loading or self.remembered else "<b>{changed}</b>"
        set_markup(self.options_summary, rich(template, changed=fmt.listed(changed, strong=True)))


def _tree_text(name: str) -> str:
    """Return a deck's last name part, indented by its depth (the list shows the deck tree)."""
    parts = name.split("::")
    return "    " * (len(parts) - 1) + parts[-1]


def _cards_text(count: int) -> str:
    """Return the scope of the Browser's selected cards in words ("12 cards selected in the Browser")."""
    return text(words.SELECTED_CARDS_SCOPE, count=fmt.count(count))
