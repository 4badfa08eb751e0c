"""The "Per deck" tab: each home deck's numbers, largest first, sortable by any column."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from aqt.qt import Qt, QTableWidgetItem, QVBoxLayout, QWidget

from ...metrics.explain import formatting as fmt
from ...metrics.explain.lang import N_, _
from ..text import label, tooltip
from ..widgets import NumberItem, View, page, set_row, table

if TYPE_CHECKING:
    from ...metrics.jobs.evaluate import Evaluation

HEADERS = [
    N_("Deck"),
    N_("Preset"),
    N_("Reviews"),
    N_("Predicted"),
    N_("Measured"),
    N_("Log loss"),
    N_("RMSE (bins)"),
    N_("AUC"),
]
TIPS = [
    N_("Cards whose home deck it is (subdecks have their own rows)"),
    N_("The deck's options preset"),
    N_("Reviews scored"),
    N_("FSRS's mean predicted recall"),
    N_("Your measured recall (Hard, Good or Easy)"),
    N_("Lower is better"),
    N_("In percentage points; lower is better"),
    N_("0.5 is a coin flip, 1.0 perfect ranking"),
]
REVIEWS_COLUMN = 2


class DecksView(View):
    """A sortable table of the per-deck numbers; double-clicking a deck evaluates it with its subdecks."""

    title = N_("Per deck")

    def __init__(self, open_deck: Callable[[str], None], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.open_deck = open_deck
        inner = QWidget()
        layout = QVBoxLayout(inner)
        layout.setContentsMargins(4, 4, 4, 4)
        hint = label(_("Cards count in their home deck. Double-click a deck to evaluate it with its subdecks."))
        layout.addWidget(hint)
        self.table = table([_(h) for h in HEADERS], [_(t) for t in TIPS])
        self.table.setToolTip(tooltip(_("Click a column header to sort by it.")))
        self.table.cellDoubleClicked.connect(self._open_row)  # cellDoubleClicked(row, column)
        layout.addWidget(self.table, 1)
        page(self, inner, 480, 240)

    def show_evaluation(self, ev: Evaluation) -> None:
        t = self.table
        t.setSortingEnabled(False)
        t.setRowCount(len(ev.decks))
        for row, d in enumerate(ev.decks):
            s = d.scores
            name = QTableWidgetItem(d.name)
            name.setData(Qt.ItemDataRole.UserRole, d.name)
            cells = [
                name,
                QTableWidgetItem(d.preset),
                NumberItem(s.reviews, fmt.count(s.reviews)),
                NumberItem(s.mean_predicted, fmt.percent(s.mean_predicted)),
                NumberItem(s.retention, fmt.percent(s.retention)),
                NumberItem(s.log_loss, fmt.log_loss(s.log_loss)),
                NumberItem(s.rmse_bins, fmt.rmse(s.rmse_bins)),
                NumberItem(s.auc, fmt.auc(s.auc)),
            ]
            set_row(t, row, cells)
        t.setSortingEnabled(True)
        t.sortItems(REVIEWS_COLUMN, Qt.SortOrder.DescendingOrder)  # the largest decks first

    def deck_order(self) -> list[str]:
        """Return the deck names in the order shown."""
        items = [self.table.item(r, 0) for r in range(self.table.rowCount())]
        return [item.data(Qt.ItemDataRole.UserRole) for item in items if item is not None]

    def _open_row(self, row: int, _column: int) -> None:
        item = self.table.item(row, 0)
        if item is not None:
            self.open_deck(item.data(Qt.ItemDataRole.UserRole))

    def clear(self, text: str) -> None:
        self.table.setRowCount(0)
