"""The dialog's tabs, one view each. The tabs shown first are built at once; the others in the next turns of
the event loop, one per turn, or at once when something needs them (built all at once, opening the dialog
froze Anki's window for about 200 ms: bench/bench_dialog.py). A view built late is brought up to the state
the others show."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from aqt.qt import QTabWidget, QVBoxLayout, QWidget

from ...metrics.explain.lang import _
from ..turns import NEXT_TURN_MS, later
from ..widgets import View

if TYPE_CHECKING:
    from ...metrics.jobs.evaluate import Evaluation

__all__ = ["NEXT_TURN_MS", "Tabs", "Views"]


class Tabs(QTabWidget):
    """The dialog's tabs: a tab's page may be a container that its view is built into later."""

    def setCurrentWidget(self, widget: QWidget | None) -> None:  # noqa: N802 (Qt name)
        """Show the tab of `widget`: a tab's page, or a view built into one."""
        parent = widget.parentWidget() if widget is not None else None
        if widget is not None and self.indexOf(widget) < 0 and parent is not None and self.indexOf(parent) >= 0:
            widget = parent
        super().setCurrentWidget(widget)


class Views:
    """The tabs' views by name, in tab order, built from `makers` (name -> (title, make)); `first` at once.
    A title is the English message (a view's `title`, marked with N_): translated here, where its tab is added."""

    def __init__(
        self,
        makers: dict[str, tuple[str, Callable[[], View]]],
        first: tuple[str, ...],
        on_demand: tuple[str, ...] = (),
    ) -> None:
        self.makers = makers
        self.on_demand = on_demand  # built only when needed (its tab shown): too heavy for one turn
        self.tabs = Tabs()
        self.tabs.setUsesScrollButtons(True)
        self.built: dict[str, View] = {name: makers[name][1]() for name in first}
        self._pages: dict[str, QWidget] = {}
        self.evaluation: Evaluation | None = None
        self.message = ""
        self.stale = False
        self.running = False
        for name, (title, _make) in makers.items():
            view = self.built.get(name)
            if view is None:
                page = self._pages[name] = QWidget()
                QVBoxLayout(page).setContentsMargins(0, 0, 0, 0)
            self.tabs.addTab(view or self._pages[name], _(title))
        self.tabs.currentChanged.connect(self._tab_shown)  # currentChanged(int): the tab shown
        later(self.tabs, NEXT_TURN_MS, self._build_next)

    def _tab_shown(self, index: int) -> None:
        for name, page in self._pages.items():
            if self.tabs.widget(index) is page and name not in self.built:
                self._build(name)

    def get(self, name: str) -> View:
        """Return the view `name`, built now if it was not yet."""
        view = self.built.get(name)
        return view if view is not None else self._build(name)

    def all(self) -> list[View]:
        """Return the views built so far, in tab order (the others are brought up to date when built)."""
        return [self.built[name] for name in self.makers if name in self.built]

    def _build(self, name: str) -> View:
        view = self.built[name] = self.makers[name][1]()
        layout = self._pages[name].layout()
        assert layout is not None
        layout.addWidget(view)
        view.set_running(self.running)
        if self.evaluation is not None:
            view.show_evaluation(self.evaluation)
        elif self.message and not view.own_results:
            view.clear(self.message)
        if view.greys_when_stale:
            view.set_stale(self.stale)
        return view

    def _build_next(self) -> None:
        waiting = [name for name in self.makers if name not in self.built and name not in self.on_demand]
        if waiting:
            self._build(waiting[0])
        if len(waiting) > 1:
            later(self.tabs, NEXT_TURN_MS, self._build_next)

    def show_evaluation(self, ev: Evaluation) -> None:
        """Show an engine Evaluation in every view."""
        self.evaluation, self.message = ev, ""
        for view in self.all():
            view.show_evaluation(ev)

    def clear(self, message: str) -> None:
        """Show no evaluation, with `message`, in the views that show the evaluation."""
        self.evaluation, self.message = None, message
        for view in self.all():
            if not view.own_results:
                view.clear(message)

    def set_stale(self, stale: bool) -> None:
        """Grey out the views' results (or undo that)."""
        self.stale = stale
        for view in self.all():
            if view.greys_when_stale:
                view.set_stale(stale)

    def set_running(self, running: bool) -> None:
        """Disable the views' own start buttons while a job runs."""
        self.running = running
        for view in self.all():
            view.set_running(running)
