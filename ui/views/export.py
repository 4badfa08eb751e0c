"""The "Export" tab: what an export for the FSRS benchmark holds, preparing and saving it, and what to do next."""

from __future__ import annotations

from collections.abc import Callable

from aqt.qt import QHBoxLayout, QPushButton, QVBoxLayout, QWidget

from ...metrics.explain import formatting as fmt
from ...metrics.explain.lang import N_, _, text
from ..text import label, set_plain, tooltip
from ..turns import on
from ..widgets import View, page

LEAVES = N_(
    "Leaves your computer: for each review its answer button, kind, time taken and day number; card, note, "
    "deck and preset numbers (all renumbered from 0)."
)
NEVER = N_(
    "Never leaves: card text, names of decks, presets, note types or tags, dates, times of day, your time "
    "zone, profile or file names."
)
WHY_COUNTS = N_(
    "The export holds every rated review from each card's last learning start, same-day repeats and learning "
    "steps included, as the FSRS benchmark's dataset does; the evaluation scores only reviews on a later day "
    "than the card's previous review (and leaves out cards reset or rescheduled after learning, and reviews "
    "before a preset's 'ignore reviews before' date)."
)
FOLDER = N_("FOLDER")  # the folder the learner picks, in a command line


def what_next(path: str) -> str:
    """Return the steps after saving an export to `path` (the commands as they are typed: never translated)."""
    folder = _(FOLDER)
    return text(
        "Saved {path}.\n\nWhat next:\n"
        "• Contribute it: the FSRS benchmark (github.com/open-spaced-repetition/srs-benchmark) collects such "
        "files; share it there only if you want to.\n"
        "• Score it yourself: {evaluate}\n"
        "• Run srs-benchmark on it: {to_parquet}, then pass {folder} to srs-benchmark's --data option.",
        path=fmt.name(path),
        evaluate=f'fsrs-calibration evaluate-dataset "{path}"',
        to_parquet=f'fsrs-calibration to-parquet "{path}" {folder}',
        folder=folder,
    )


class ExportView(View):
    """Explains the export, prepares it in the background, saves it, then says what to do with it."""

    title = N_("Export")
    own_results = True
    greys_when_stale = False

    def __init__(self, prepare: Callable[[], None], save: Callable[[], None], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        inner = QWidget()
        layout = QVBoxLayout(inner)
        layout.setContentsMargins(6, 6, 6, 6)
        for words in (LEAVES, NEVER):
            layout.addWidget(label(_(words)))
        row = QHBoxLayout()
        self.prepare_button = QPushButton(_("Prepare export"))
        on(self.prepare_button.clicked, prepare)
        self.save_button = QPushButton(_("Save as…"))
        on(self.save_button.clicked, save)
        self.save_button.setEnabled(False)
        row.addWidget(self.prepare_button)
        row.addWidget(self.save_button)
        row.addStretch(1)
        layout.addLayout(row)
        self.summary = label(_("The export covers the scope chosen above."))
        self.summary.setToolTip(tooltip(_(WHY_COUNTS)))
        layout.addWidget(self.summary)
        self.next = label("", selectable=True)
        layout.addWidget(self.next)
        layout.addStretch(1)
        page(self, inner, 420, 220)

    def show_prepared(self, rows: dict[str, int], scored: int | None) -> None:
        """Show what the prepared export holds, and how it relates to the reviews scored."""
        summary = text(
            "The export holds {reviews} reviews of {cards} cards in {decks} decks.",
            reviews=fmt.count(rows["revlogs"]),
            cards=fmt.count(rows["cards"]),
            decks=fmt.count(rows["decks"]),
        )
        if scored is not None:
            summary += " " + text(
                "The evaluation scored {scored} of them: the export keeps same-day repeats and learning steps (as "
                "the FSRS benchmark's dataset does), which are never scored.",
                scored=fmt.count(scored),
            )
        set_plain(self.summary, summary)
        self.save_button.setEnabled(rows["revlogs"] > 0)
        set_plain(self.next, "")

    def show_saved(self, path: str) -> None:
        set_plain(self.next, what_next(path))

    def set_running(self, running: bool) -> None:
        self.prepare_button.setEnabled(not running)

    def clear(self, text: str) -> None:
        self.save_button.setEnabled(False)
