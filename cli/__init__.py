"""The `fsrs-calibration` command line: `run` is the program (its first code), `commands` the subcommands,
`scratch` each run's private temporary folder.

From `run`'s first line on Ctrl-C is one line; then the command line loads. Importing it (numpy, Anki,
the engine) takes about 70 ms, and Python's own KeyboardInterrupt there would print a traceback. Nothing
is written before the command line takes the signals over (metrics/export/interrupts.py), so an
interruption until then only says so and ends the process. (Only the
interpreter's own start, before this module runs, is left: about 10-20 ms in which Ctrl-C ends the
process with Python's default behaviour.) The module imports nothing slow: it runs first.
"""

import os
import signal
import sys

PROG = "fsrs-calibration"


def _interrupted(_signum: int, _frame: object) -> None:
    try:
        sys.stderr.write(f"{PROG}: cancelled; nothing was written.\n")
        sys.stderr.flush()
    finally:
        os._exit(130)


def run() -> int:
    """Run the `fsrs-calibration` program; return its exit status."""
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, _interrupted)
    from ..metrics.explain.lang import for_command_line

    for_command_line(sys.argv[1:])  # the environment's language; --json stays English
    from .output import keep_stdout

    keep_stdout()  # what libraries print (Anki 25.07's slow-call warnings) goes to standard error
    from .commands import run as run_command_line

    return run_command_line()
