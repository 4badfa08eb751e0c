"""What a command prints: one line for a mistake (control characters escaped), JSON, and output errors."""

from __future__ import annotations

import contextlib
import json
import math
import os
import sys
from typing import TextIO, overload

from ..metrics.explain import lang
from .arguments import PROG


class OutputError(Exception):
    """Standard output cannot be written (a full disk, a device error)."""


_OWN: list[TextIO] = []  # the program's standard output, when the program keeps it for itself (keep_stdout)


def keep_stdout() -> None:
    """Keep standard output for what the program prints (emit) and send anything else printed there to standard
    error: Anki 25.07 prints "blocked main thread for …ms" and a stack to standard output whenever one of its
    calls takes over 0.2 s on the main thread, which would corrupt --json on a slow machine."""
    if not _OWN:
        _OWN.append(sys.stdout)
        sys.stdout = _Libraries(sys.stderr)


class _Libraries:
    """Standard error, for what libraries print to standard output — without Anki 25.07's report of a slow call
    on the main thread: a command line makes every call there, so the report (two prints: the line, then the
    stack) is noise to its user, and on a busy machine it came with nearly every command."""

    SLOW_CALL = "blocked main thread for "

    def __init__(self, err: TextIO) -> None:
        self.err = err
        self.skipping = 0  # writes of a slow-call report still to come (print writes its text, then its end)

    def write(self, s: str) -> int:
        if self.skipping:
            self.skipping -= 1
        elif s.startswith(self.SLOW_CALL):
            self.skipping = 3  # this line's end, the stack, the stack's end
        else:
            return int(self.err.write(s))
        return len(s)

    def __getattr__(self, name: str) -> object:  # flush, fileno, encoding …: standard error's
        return getattr(self.err, name)


def _stdout() -> TextIO:
    return _OWN[0] if _OWN else sys.stdout


def emit(text: str) -> None:
    """Print `text` and flush it now, so that a write error surfaces here and not at exit."""
    out = _stdout()
    try:
        out.write(text + "\n")
        out.flush()
    except BrokenPipeError:
        raise
    except OSError as err:
        raise OutputError(lang.text("cannot write the output: {reason}.", reason=err.strerror or err)) from None


def silence_stdout() -> None:
    """Point standard output at the null device, so the interpreter's final flush cannot fail again."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, _stdout().fileno())


def fail(message: str, output: bool = False) -> int:
    """Print `message` as the one error line (control characters shown escaped); return status 2."""
    print(lang.text("{program}: error: {message}", program=PROG, message=one_line(message)), file=sys.stderr)
    if output:
        silence_stdout()
    return 2


def one_line(text: str) -> str:
    """Return `text` with line breaks, escape codes and other control characters shown escaped (a path or
    a deck name may hold them: the error stays one line and cannot drive the terminal)."""
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


def to_json(obj: object) -> str:
    return json.dumps(clean(obj), default=_json_default, indent=1)


def _json_default(value: object) -> object:
    """Return JSON-ready values for numpy scalars."""
    if hasattr(value, "item"):
        return value.item()
    raise TypeError(type(value).__name__)


@overload
def clean(obj: dict[str, object]) -> dict[str, object]: ...
@overload
def clean(obj: object) -> object: ...
def clean(obj: object) -> object:
    """Return obj with NaN replaced by None, so the output is strict JSON."""
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    if isinstance(obj, dict):
        return {k: clean(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [clean(v) for v in obj]
    return obj
