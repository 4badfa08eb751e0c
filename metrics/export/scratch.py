"""The command line's scratch folder: one per run, locked while the run lives, removed afterwards.

A run's temporary copy of the collection (it holds the learner's notes) lives in a folder
`fsrs-calibration-run-*` in the system's temp folder, with a `.lock` file the run holds locked
(an advisory lock the kernel drops when the process dies, however it dies). The folder is removed
when the run ends, is interrupted (SIGINT/SIGTERM) or fails; a run that was killed (SIGKILL, power
loss) leaves it behind, and the next run of any command removes every such folder whose lock nobody
holds (`sweep`), as well as folders killed while being made (`.fsrs-calibration-new-*`, after a grace of
MAKING_GRACE seconds: a living run holds its lock within milliseconds). A removal, once begun, finishes
even if Ctrl-C or SIGTERM arrives meanwhile (the interruption is raised after it).
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import shutil
import stat
import tempfile
import time
from collections.abc import Iterator

from .interrupts import deferred

try:
    import fcntl
except ImportError:  # Windows: stale folders are recognised by age instead
    fcntl = None  # type: ignore[assignment]

PREFIX = "fsrs-calibration-run-"
MAKING = ".fsrs-calibration-new-"  # a folder being made, before its lock is held
LEGACY = re.compile(r"fsrs-calibration-[a-z0-9_]{8}$")  # earlier versions' mkdtemp folders (no lock)
LOCK = ".lock"
MAKING_GRACE = 10.0  # seconds a folder being made may lack its lock


@contextlib.contextmanager
def run_folder() -> Iterator[str]:
    """Yield a new private folder for this run's scratch files; it is removed when the block ends."""
    root = tempfile.gettempdir()
    current, lock = "", -1
    try:
        with deferred():  # the folder and its cleanup come into being together
            current = tempfile.mkdtemp(prefix=MAKING, dir=root)  # mode 0700, a name the sweep never looks at
        lock = os.open(os.path.join(current, LOCK), os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
        if fcntl is not None:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        folder = os.path.join(root, PREFIX + secrets.token_hex(8))
        with deferred():
            os.rename(current, folder)  # visible to the sweep only once locked
            current = folder
        yield folder
    finally:
        with deferred():  # an interruption waits until the folder is gone
            if lock >= 0:
                os.close(lock)
            if current:
                shutil.rmtree(current, ignore_errors=True)


def sweep(root: str | None = None) -> list[str]:
    """Remove the scratch folders of runs that died without cleaning up; return their paths (every command
    calls it first)."""
    root = root or tempfile.gettempdir()
    try:
        names = os.listdir(root)
    except OSError:
        return []
    stale = [os.path.join(root, name) for name in names if _is_ours_and_stale(root, name)]
    with deferred():  # begun, the sweep finishes before an interruption is raised
        for folder in stale:
            shutil.rmtree(folder, ignore_errors=True)
    return stale


def _is_ours_and_stale(root: str, name: str) -> bool:
    """Return whether `name` in `root` is a scratch folder of ours that no living run owns."""
    if not (name.startswith((PREFIX, MAKING)) or LEGACY.match(name)):
        return False
    folder = os.path.join(root, name)
    try:
        info = os.lstat(folder)
    except OSError:
        return False
    if not stat.S_ISDIR(info.st_mode) or (hasattr(os, "getuid") and info.st_uid != os.getuid()):
        return False  # not a folder of ours (a symlink, another user's)
    return _is_stale(folder, name, info.st_mtime)


def _is_stale(folder: str, name: str, mtime: float) -> bool:
    """Return whether no living run owns the folder."""
    age = time.time() - mtime
    if LEGACY.match(name):
        return age > 86400.0  # an earlier version's folder: its run cannot have lasted a day
    making = name.startswith(MAKING)
    try:
        fd = os.open(os.path.join(folder, LOCK), os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return making and age > MAKING_GRACE  # killed before its lock existed
    try:
        if fcntl is None:
            return age > 86400.0
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return False  # a living run holds it
        return not making or age > MAKING_GRACE
    finally:
        os.close(fd)
