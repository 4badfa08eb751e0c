"""The add-on's own files: its manifest's version, and numpy - an importable one, else the copy bundled for
this platform."""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import platform
import sys

VENDOR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vendor")
SUPPORTED = "Windows x64, macOS (Apple silicon and Intel) and Linux (x86-64 and ARM64) with Anki's Python 3.13"


def addon_version() -> str:
    """Return the add-on's human_version from its manifest.json ("" if unreadable)."""
    try:
        with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "manifest.json")) as f:
            return str(json.load(f).get("human_version", ""))
    except (OSError, ValueError):
        return ""


def platform_tag(
    implementation: str | None = None,
    version: tuple[int, int] | None = None,
    system: str | None = None,
    machine: str | None = None,
) -> str | None:
    """Return the vendor folder name for this interpreter and platform (e.g. "cp313-linux_x86_64"), or None."""
    implementation = implementation or sys.implementation.name
    major, minor = version or sys.version_info[:2]
    system = system or sys.platform
    machine = (machine or platform.machine()).lower()
    if implementation != "cpython":
        return None
    arch = {"amd64": "x86_64", "x86_64": "x86_64", "x64": "x86_64", "arm64": "arm64", "aarch64": "arm64"}.get(machine)
    if arch is None:
        return None
    if system == "win32":
        os_arch = "win_amd64" if arch == "x86_64" else None
    elif system == "darwin":
        os_arch = f"macosx_{arch}"
    elif system.startswith("linux"):
        os_arch = "linux_x86_64" if arch == "x86_64" else "linux_aarch64"
    else:
        os_arch = None
    return f"cp{major}{minor}-{os_arch}" if os_arch else None


def ensure_numpy(vendor: str = VENDOR) -> str | None:
    """Make numpy importable without importing it; return None, or a message saying why it is not.

    An importable numpy (Anki's environment, another add-on's) is used as it is; otherwise the
    folder bundled for this platform is appended to sys.path, so it never shadows another copy.
    """
    if importlib.util.find_spec("numpy") is not None:
        return None
    tag = platform_tag()
    folder = os.path.join(vendor, tag) if tag else None
    if folder is None or not os.path.isdir(os.path.join(folder, "numpy")):
        here = f"{platform.system()} {platform.machine()}, Python {platform.python_version()}"
        return (
            f"FSRS Calibration needs numpy, which this add-on bundles for {SUPPORTED}. "
            f"This Anki runs on {here}, which it has no numpy for."
        )
    if folder not in sys.path:
        sys.path.append(folder)
        importlib.invalidate_caches()
    return None
