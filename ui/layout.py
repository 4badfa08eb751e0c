"""The dialog's layout, built once as Anki's forms do (setupUi): the header (scope and options), the run row
with the job's status, the headline, the tabs (one view each) and the buttons."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from aqt.qt import QCheckBox, QHBoxLayout, QLabel, QPushButton, QTabWidget, QVBoxLayout, QWidget

from ..metrics.explain.lang import _
from ..metrics.kinds import AnkiAction
from .export_flow import Exporting
from .job_status import JobStatus
from .scope_bar import ScopeBar
from .text import label, tooltip
from .turns import on
from .views import Views
from .views.compare import CompareView
from .views.decks import DecksView
from .views.export import ExportView
from .views.over_time import OverTimeView
from .views.report import ReportView
from .views.results import ResultsView
from .views.whattodo import WhatToDoView
from .views.where import WhereView
from .widgets import View

if TYPE_CHECKING:
    from ..metrics.read.dataset_layout import Tables


class Host(Protocol):
    """What the layout builds and calls on (dialog.CalibrationDialog: its widgets, its actions)."""

    bar: ScopeBar
    run_button: QPushButton
    job: JobStatus
    headline: QLabel
    stale_label: QLabel
    notice: QLabel
    views: Views
    tabs: QTabWidget
    save_button: QPushButton
    copy_button: QPushButton
    remember: QCheckBox
    whattodo: WhatToDoView
    results: ResultsView
    status: QLabel
    exporting: Exporting

    def _changed(self) -> None: ...
    def start(self) -> None: ...
    def cancel(self) -> None: ...
    def run_diagnosis(self) -> None: ...
    def act(self, action: AnkiAction) -> None: ...
    def evaluate_scope(self, kind: str, value: str) -> None: ...
    def run_compare(self) -> None: ...
    def prepare_export(self, then: Callable[[Tables], None] | None = None) -> None: ...
    def _set_results_enabled(self, enabled: bool) -> None: ...
    def _save_chart_dialog(self) -> None: ...
    def copy_results(self) -> None: ...
    def close(self) -> bool: ...


def build(d: Host, window: QWidget) -> None:
    """Lay out the dialog `d` in its `window` (the dialog itself): header, run row with the job's status, headline,
    tabs, buttons (as Anki's setupUi)."""
    layout = QVBoxLayout(window)
    layout.setSpacing(4)
    d.bar = ScopeBar(d._changed)
    layout.addWidget(d.bar)
    run_row = QHBoxLayout()
    d.run_button = QPushButton(_("Evaluate"))
    d.run_button.setDefault(True)
    on(d.run_button.clicked, d.start)  # evaluate, then find out what to do: one job for the learner
    d.job = JobStatus(d.cancel)
    run_row.addWidget(d.run_button)
    run_row.addWidget(d.job, 1)
    layout.addLayout(run_row)
    d.headline = label(_("Choose a scope and press Evaluate."), selectable=True, squeeze=True)
    d.stale_label = label("", squeeze=True)
    d.stale_label.setStyleSheet("color: #D55E00; font-weight: bold")
    d.stale_label.setVisible(False)
    d.notice = label("", selectable=True, squeeze=True)
    d.notice.setStyleSheet("color: #D55E00")
    d.notice.setVisible(False)
    layout.addWidget(d.headline)
    layout.addWidget(d.stale_label)
    layout.addWidget(d.notice)
    # the comparison's view is built when its tab is first shown: built while the first evaluation read the
    # collection, it froze Anki's window for 136 ms (bench_dialog, 500k reviews)
    d.views = Views(_makers(d), first=("whattodo", "results"), on_demand=("compare",))
    d.tabs = d.views.tabs
    d.whattodo, d.results = d.views.built["whattodo"], d.views.built["results"]  # type: ignore[assignment]
    d.status = d.job.status
    layout.addWidget(d.tabs, 1)
    layout.addLayout(_buttons(d))
    d._set_results_enabled(False)


def _makers(d: Host) -> dict[str, tuple[str, Callable[[], View]]]:
    return {  # the tabs' titles: English messages, translated where the tabs are added (views.Views)
        "whattodo": (WhatToDoView.title, lambda: WhatToDoView(d.run_diagnosis, d.act)),
        "results": (ResultsView.title, ResultsView),
        "where": (WhereView.title, WhereView),
        "over_time": (OverTimeView.title, OverTimeView),
        "decks": (DecksView.title, lambda: DecksView(lambda name: d.evaluate_scope("deck", name))),
        "compare": (CompareView.title, lambda: CompareView(d.run_compare)),
        "export": (ExportView.title, lambda: ExportView(d.prepare_export, d.exporting.ask_where)),
        "report": (ReportView.title, ReportView),
    }


def _buttons(d: Host) -> QHBoxLayout:
    row = QHBoxLayout()
    d.save_button = QPushButton(_("Save chart…"))
    on(d.save_button.clicked, d._save_chart_dialog)
    d.copy_button = QPushButton(_("Copy results"))
    on(d.copy_button.clicked, d.copy_results)
    d.remember = QCheckBox(_("Remember choices"))
    d.remember.setToolTip(tooltip(_("Use these scope and options again next time.")))
    d.remember.setChecked(True)
    close = QPushButton(_("Close"))
    on(close.clicked, d.close)
    for widget in (d.save_button, d.copy_button):
        row.addWidget(widget)
    row.addStretch(1)
    row.addWidget(d.remember)
    row.addWidget(close)
    return row
