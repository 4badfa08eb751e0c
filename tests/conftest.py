"""Shared fixtures: real Anki collections built with the `anki` package."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).parent))

from builder import build_mixed  # noqa: E402

from fsrs_calibration.metrics.jobs.evaluate import Options  # noqa: E402
from fsrs_calibration.metrics.jobs.options import short_term_floor_rating  # noqa: E402


@pytest.fixture(scope="session", autouse=True)
def garbage_collected_like_anki() -> Iterator[None]:
    """Collect garbage as Anki does: never automatically, only on the main thread (aqt/main.py).

    Automatic collection runs in whichever thread happens to allocate: a closed dialog's reference
    cycle collected in a background worker destroys its widgets off the GUI thread, which crashed Qt's
    painter now and then (tests/test_dialog.py). Anki disables it for this reason; so do the tests.
    """
    gc.collect()
    gc.disable()
    yield
    gc.enable()


@pytest.fixture(autouse=True)
def collect_after_each_test() -> Iterator[None]:
    """Collect the test's garbage (closed dialogs and their cycles) on the main thread afterwards."""
    yield
    gc.collect()


def run_python(code: str, *args: str, timeout: float = 120) -> str:
    """Run `code` in a fresh interpreter of this environment; return its stdout (it must exit with 0)."""
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=timeout)
    assert out.returncode == 0, out.stderr
    return out.stdout


def anki_floor() -> int:
    """Return the same-day Hard rule of the installed Anki (tests compare against it)."""
    from anki.buildinfo import version

    return short_term_floor_rating(version)


def like_anki(params: object = "default", same_day: str = "keep") -> Options:
    """Return options that measure what Anki's evaluate_params_legacy measures."""
    return Options(params=params, weighting="recency", same_day=same_day, short_term_floor_rating=anki_floor())


@pytest.fixture(scope="session")
def mixed_collection(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """Return the info of the mixed test collection (closed; reopen it from info["path"])."""
    path = str(tmp_path_factory.mktemp("mixed") / "collection.anki2")
    info = build_mixed(path, seed=7)
    info["builder"].close()
    del info["builder"]
    info["path"] = path
    return info


@pytest.fixture
def open_col(mixed_collection: dict) -> Iterator:
    """Yield the mixed collection opened (read-only use), closed afterwards."""
    from anki.collection import Collection

    col = Collection(mixed_collection["path"])
    try:
        yield col
    finally:
        col.close(downgrade=False)
