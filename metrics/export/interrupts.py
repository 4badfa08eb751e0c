"""Ctrl-C and SIGTERM for the command line: one KeyboardInterrupt, never between creating a file and owning it.

`install()` (the CLI's `run` only; never inside Anki or pytest) turns the first SIGINT/SIGTERM into
KeyboardInterrupt, so every `finally` cleans up; later signals wait until the clean-up is done. An
interruption that lands where Python ignores exceptions (a weakref callback, `__del__`), or inside an
import (a KeyboardInterrupt raised while a C extension initializes can crash the interpreter: seen as
SIGSEGV in orjson's import, 3 runs in 1,000), is delivered again a moment later. `deferred()` holds
interruptions back while a temporary file or folder is being created (so it is never left without its
cleanup registered), and `stop()` holds them back for good once an output is being put in place (it is
then written, and the command says so).
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from collections.abc import Iterator
from types import FrameType
from typing import TypedDict

SIGNALS = (signal.SIGINT, signal.SIGTERM)


class _State(TypedDict):
    installed: bool
    pending: int  # the signal's number (0: none)
    redeliver: bool
    held: bool
    owed: bool
    stopped: bool


# pending: the signal that stops the run; held: inside deferred() or after stop(); owed: an interruption
# that arrived while held, to raise when the hold ends (never after stop()).
_state: _State = {
    "installed": False,
    "pending": 0,
    "redeliver": False,
    "held": False,
    "owed": False,
    "stopped": False,
}


def install() -> None:
    """Handle SIGINT and SIGTERM as described above (call from the main thread)."""
    for sig in SIGNALS:
        signal.signal(sig, _interrupt)
    sys.unraisablehook = _unraisable
    _state["installed"] = True


def interrupted_by() -> int:
    """Return the number of the signal that interrupted the run (0 if none)."""
    return int(_state["pending"])


def _interrupt(signum: int, frame: FrameType | None) -> None:
    if _state["pending"] and not _state["redeliver"]:
        return  # already stopping: a second Ctrl-C must not cut the clean-up short
    _state["pending"], _state["redeliver"] = signum, False
    if _state["held"]:
        _state["owed"] = True  # raised when the hold ends
        return
    if _importing(frame):
        _deliver_again(signum)  # an exception inside a C extension's import can crash the interpreter
        return
    raise KeyboardInterrupt


def _importing(frame: FrameType | None) -> bool:
    """Return whether the interrupted code runs inside an import (Python's import machinery is on its stack)."""
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib"):
            return True
        frame = frame.f_back
    return False


def _deliver_again(signum: int) -> None:
    """Send the signal to the main thread again a moment later (from a timer thread)."""
    _state["redeliver"] = True
    main, kill = threading.main_thread().ident, getattr(signal, "pthread_kill", None)
    timer = threading.Timer(0.02, lambda: kill(main, signum) if kill and main else None)
    timer.daemon = True
    timer.start()


def _unraisable(info: sys.UnraisableHookArgs) -> None:
    """Deliver again, a moment later, an interruption Python had to ignore."""
    if isinstance(info.exc_value, KeyboardInterrupt) and _state["pending"]:
        _deliver_again(_state["pending"])
        return
    sys.__unraisablehook__(info)


@contextlib.contextmanager
def deferred() -> Iterator[None]:
    """Hold an interruption back inside the block; raise it (KeyboardInterrupt) where the block ends."""
    outer = _state["held"]
    _state["held"] = True
    try:
        yield
    finally:
        _state["held"] = outer or _state["stopped"]
    if not _state["held"] and _state["owed"]:
        _state["owed"] = False
        raise KeyboardInterrupt


def stop() -> None:
    """Hold interruptions back from now on: the output is being committed, the run will finish."""
    _state["stopped"] = _state["held"] = True
