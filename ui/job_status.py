"""The running job's status, written once for every job (evaluate, compare, diagnose, export): Cancel,
a busy bar, the progress line, and the controls the background op is handed (a cancel flag and a progress
sink: plain thread-safe objects, never a widget)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from aqt.qt import QHBoxLayout, QProgressBar, QPushButton, QTimer, QWidget

from ..metrics.explain.lang import _, text
from .text import label, set_plain
from .turns import later, on

POLL_MS = 200  # how often the progress line shows the op's latest step


@dataclass
class Controls:
    """What a background op may use: `should_stop` to poll, `report` to say its current step (any thread)."""

    cancelled: threading.Event = field(default_factory=threading.Event)
    _step: list[str] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def should_stop(self) -> bool:
        """Return whether Cancel was pressed."""
        return self.cancelled.is_set()

    def report(self, text: str) -> None:
        """Say the op's current step (called from the worker)."""
        with self._lock:
            self._step[:] = [text]

    def latest(self) -> str:
        """Return the latest step said ("" when none)."""
        with self._lock:
            return self._step[0] if self._step else ""


class JobStatus(QWidget):
    """Cancel, the busy bar and the status line of the one job that may run at a time."""

    def __init__(self, on_cancel: Callable[[], None]) -> None:
        super().__init__()
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.cancel_button = QPushButton(_("Cancel"))
        self.cancel_button.setEnabled(False)
        on(self.cancel_button.clicked, on_cancel)
        self.progress = QProgressBar()
        self.progress.setRange(0, 0)
        self.progress.setVisible(False)
        self.progress.setMaximumWidth(160)
        self.status = label("", squeeze=True)
        row.addWidget(self.cancel_button)
        row.addWidget(self.progress)
        row.addWidget(self.status, 1)
        self.controls = Controls()
        self.running = False
        self.serial = 0  # the number of the latest job started: an outcome for an earlier one is not its own
        self.pending = 0  # jobs to start in the next turn (the diagnosis after an evaluation)
        self._timer = QTimer(self)
        self._timer.timeout.connect(self._show_step)

    def start(self, text: str) -> Controls:
        """Show a job as started, and return fresh controls for its op."""
        self.controls = Controls()
        self.serial += 1
        self._set(True, text)
        self._timer.start(POLL_MS)
        return self.controls

    def finish(self, text: str = "") -> None:
        """Show the job as ended, with `text`."""
        self._timer.stop()
        self._set(False, text)

    def cancel(self) -> bool:
        """Ask the running job to stop; return whether one was running."""
        if not self.running:
            return False
        self.controls.cancelled.set()
        set_plain(self.status, _("Cancelling…"))
        return True

    def later(self, start: Callable[[], None], ms: int) -> None:
        """Call `start` (which starts the next job) after `ms`; `pending` counts it until then."""
        self.pending += 1

        def call() -> None:
            self.pending -= 1
            start()

        later(self, ms, call)

    def say(self, text: str) -> None:
        """Show `text` on the status line."""
        set_plain(self.status, text)

    def _set(self, running: bool, text: str) -> None:
        self.running = running
        self.progress.setVisible(running)
        self.cancel_button.setEnabled(running)
        set_plain(self.status, text)

    def _show_step(self) -> None:
        step = self.controls.latest()
        if self.running and step and not self.controls.should_stop():
            set_plain(self.status, text("{step}…", step=step))  # the step in words, going on
