"""The dialog's jobs: one at a time, each started from the scope and options selected, its outcome shown only
while the dialog lives and wants it (operations.Request.alive), its result stamped with what it was made for
(freshness.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, TypeVar

from aqt.qt import QPushButton

from ..metrics.explain.lang import _, text
from . import operations
from .failures import failure_text
from .freshness import Freshness
from .job_status import JobStatus
from .runner import Runner
from .scope_bar import ScopeBar
from .turns import NEXT_TURN_MS, alive
from .views import Views

if TYPE_CHECKING:
    from ..metrics.read.collection import CollectionData

R = TypeVar("R")  # a job's result


class Host(Protocol):
    """What the jobs need of their dialog (dialog.CalibrationDialog)."""

    bar: ScopeBar
    job: JobStatus
    run_button: QPushButton
    views: Views
    runner: Runner
    fresh: Freshness
    closed: bool
    anki_version: str
    kept_file: str | None

    @property
    def running(self) -> bool: ...

    def _show_message(self, text: str) -> None: ...

    def tell(self, lines: list[str] | tuple[str, ...]) -> None: ...

    def start(self) -> None: ...

    def refresh(self) -> None: ...


class Jobs:
    """Starts and ends the jobs of one dialog (evaluate, compare, diagnose, export)."""

    def __init__(self, dialog: Host) -> None:
        self.d = dialog
        self.cache: dict[tuple[str, int] | None, CollectionData] = {}  # one scope's data, kept for the next job
        self.reads = 0  # how many times the revlog was read (tests check the cache)
        self.restart = False  # start() again once the running job has ended

    def start(self, text: str, reads_scope: bool = True) -> operations.Request | None:
        """Start a job: return its request, or None when one runs already or the scope is incomplete."""
        d = self.d
        missing = d.bar.missing()
        if d.closed or d.running or (reads_scope and missing):
            if missing and not d.running and not d.closed:
                d._show_message(missing)
            return None
        col = d.runner.collection()
        if col is None:
            return None  # the profile is closing
        scope = d.bar.scope()
        controls = d.job.start(text)
        d.run_button.setEnabled(False)
        d.views.set_running(True)
        key = scope.key(col)
        serial = d.job.serial
        window = d.run_button.window()  # the dialog
        assert window is not None
        return operations.Request(
            window,
            scope,
            controls,
            d.bar.choices(),
            d.anki_version,
            self.cache.get(key),
            key,
            alive=lambda: not d.closed and alive(d) and d.job.serial == serial,
            kept=d.kept_file,
        )

    def ended(self, text: str = "") -> None:
        d = self.d
        d.job.finish(text)
        d.run_button.setEnabled(True)
        d.views.set_running(False)
        if self.restart:
            self.restart = False
            d.job.later(d.start, NEXT_TURN_MS)

    def keep(self, req: operations.Request, done: operations.Done[R]) -> R:
        """Keep the scope's data the op read (one scope only: the revlog arrays can be large); show its notes."""
        if req.cached is None:
            self.cache = {req.key: done.data}
            self.reads += 1
        self.d.tell(done.notes)
        return done.result

    def launch(
        self,
        text: str,
        kind: str,
        make: operations.Starter[R],
        show: Callable[[operations.Request, R], None],
        begin: Callable[[], None],
    ) -> None:
        """Start a job of `kind` (made by `make(req, success, failure)`; `begin()` once it starts); `show(req,
        result)` shows its result, which carries the scope and options it was made for."""
        d = self.d
        req = self.start(text)
        if req is None:
            return
        begin()
        stamp = d.fresh.stamp(req.scope, d.bar.scope_text(), req.choices)

        def success(done: operations.Done[R]) -> None:
            result = self.keep(req, done)
            d.fresh.keep(kind, stamp)
            show(req, result)
            d.refresh()

        d.runner.start(make(req, success, self.failed))

    def failed(self, error: Exception) -> None:
        from ..metrics.errors import Cancelled

        self.ended()
        if isinstance(error, Cancelled):
            self.d.job.say(_("Cancelled."))
            return
        shown = failure_text(error)
        self.d._show_message(shown or text("The evaluation failed: {error}", error=error))
        if not shown:
            raise error  # an unexpected error: let Anki's error handler report it
