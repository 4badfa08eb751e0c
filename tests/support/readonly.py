"""A folder made read-only for a command, even for root (who writes through a folder's mode)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest


def read_only(folder: Path, argv: list[str]) -> list[str]:
    """Return argv run with `folder` read-only: its mode for a normal user; for root (who writes anyway)
    a read-only bind mount of it in a private mount namespace."""
    os.chmod(folder, 0o555)
    if os.geteuid() != 0:
        return argv
    if shutil.which("unshare") is None:
        pytest.skip("root without unshare: no way to make a folder read-only")
    script = 'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && exec "$@"'
    return ["unshare", "-m", "sh", "-c", script, str(folder), *argv]
