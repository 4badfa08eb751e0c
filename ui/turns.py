"""Work for a later turn of Qt's event loop, and signals connected without their arguments: one way each.

`later` runs a call after a delay only while its owner widget lives: closing and deleting a dialog drops
what it had planned (a plain QTimer.singleShot would still call into the deleted widgets: "wrapped C/C++
object … has been deleted").

`on` connects a signal to a function that takes no arguments. Qt hands a slot the signal's arguments
(`clicked(bool)`, `currentIndexChanged(int)`); a function with optional parameters connected directly
receives them in its first one (`run(then=None)` got `then=False`: "'bool' object is not callable").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from aqt.qt import QObject, QTimer, sip

if TYPE_CHECKING:
    from aqt.qt import pyqtBoundSignal

# A timer, not a zero-delay call: Qt runs zero-delay calls in the same pass as other posted events,
# so the event loop would get no turn between two steps (and the window none to repaint).
NEXT_TURN_MS = 1


def alive(widget: Any) -> bool:
    """Return whether `widget`'s Qt object still exists (False once Qt has deleted it)."""
    return widget is not None and not sip.isdeleted(widget)


def later(owner: QObject, ms: int, call: Callable[[], None]) -> None:
    """Call `call` after `ms` milliseconds, unless `owner` has been deleted meanwhile.

    (Qt's single-shot timer keeps the function until it fires; a QTimer child of `owner` would be simpler,
    but its connected closure can be collected while Qt still holds the timer, and then crashes Python.)
    """

    def fire() -> None:
        if alive(owner):
            call()

    QTimer.singleShot(ms, fire)


def on(signal: pyqtBoundSignal, call: Callable[[], object]) -> None:
    """Connect `signal` to `call`, dropping whatever arguments the signal carries."""
    signal.connect(lambda *_args: call())
