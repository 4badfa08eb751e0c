"""The export of the dialog's scope: prepare the benchmark tables, say what they hold, ask where, write them
whole (through ui/operations.py, as every job)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from aqt.qt import QFileDialog, QTabWidget

from ..metrics.errors import EvaluationError
from ..metrics.explain import formatting as fmt
from ..metrics.explain.lang import _, text
from . import operations
from .jobs import Jobs
from .runner import Runner
from .summary import save_folder
from .text import set_plain
from .views import Views
from .views.export import LEAVES, NEVER

if TYPE_CHECKING:
    from ..metrics.jobs.evaluate import Evaluation
    from ..metrics.read.dataset_layout import Tables


class Host(Protocol):
    """What the export needs of its dialog (dialog.CalibrationDialog)."""

    jobs: Jobs
    runner: Runner
    views: Views
    tabs: QTabWidget
    evaluation: Evaluation | None
    export_tables: Tables | None
    export_summary: str

    @property
    def stale(self) -> bool: ...

    def _show_message(self, text: str) -> None: ...


class Exporting:
    """The export job of one dialog (its results shown in the Export tab)."""

    def __init__(self, dialog: Host) -> None:
        self.d = dialog

    def prepare(self, then: Callable[[Tables], None] | None = None) -> None:
        """Build the benchmark tables of the current scope in the background; then(tables) on success."""
        req = self.d.jobs.start(_("Preparing the export…"))
        if req is None:
            return
        self.d.export_tables = None
        scored = self.d.evaluation.overall.reviews if self.d.evaluation is not None and not self.d.stale else None

        def success(tables: Tables) -> None:
            self.d.export_tables = tables
            rows = tables.rows()
            self.d.export_summary = text(
                "The export holds {reviews} reviews of {cards} cards in {decks} decks.",
                reviews=fmt.count(rows["revlogs"]),
                cards=fmt.count(rows["cards"]),
                decks=fmt.count(rows["decks"]),
            )
            self.d.jobs.ended(self.d.export_summary)
            self.d.views.get("export").show_prepared(rows, scored)  # type: ignore[attr-defined]
            if rows["revlogs"] == 0:
                self.d._show_message(_("No reviews to export in this scope (cards need a learning step)."))
            elif then is not None:
                then(tables)

        self.d.runner.start(operations.prepare_export(req, success, self.d.jobs.failed))

    def save(self, path: str, then: Callable[[str], None] | None = None) -> None:
        """Write the prepared export to `path` in the background (whole or not at all)."""
        tables = self.d.export_tables
        if tables is None:
            return
        req = self.d.jobs.start(_("Writing the export…"), reads_scope=False)
        if req is None:
            return
        export = self.d.views.get("export")

        def success(written: str) -> None:
            self.d.jobs.ended(text("Saved {path}", path=written))
            export.show_saved(written)  # type: ignore[attr-defined]
            self.d.tabs.setCurrentWidget(export)
            if then is not None:
                then(written)

        def failure(error: Exception) -> None:
            if not isinstance(error, EvaluationError):
                self.d.jobs.failed(error)
                return
            self.d.jobs.ended(str(error))
            set_plain(export.next, str(error))  # type: ignore[attr-defined]

        self.d.runner.start(operations.save_export(req, tables, path, success, failure))

    def ask_where(self) -> None:
        start = save_folder("fsrs-benchmark.zip")
        path, _kind = QFileDialog.getSaveFileName(
            self.d.tabs.window(), _("Save export"), start, _("Zip archive (*.zip)")
        )
        if path:
            self.save(path)

    def flow(self) -> None:
        """Prepare the export of the current scope, say in two lines what it holds, ask where to save it."""
        export = self.d.views.get("export")
        self.d.tabs.setCurrentWidget(export)

        def confirm(_tables: Tables) -> None:
            from aqt.qt import QMessageBox

            holds = export.summary.text()  # type: ignore[attr-defined]
            asked = "\n\n".join((holds, _(LEAVES) + "\n" + _(NEVER), _("Save it?")))  # paragraphs: a message each
            answer = QMessageBox.question(self.d.tabs.window(), _("Export for the FSRS benchmark"), asked)
            if answer == QMessageBox.StandardButton.Yes:
                self.ask_where()

        self.prepare(confirm)
