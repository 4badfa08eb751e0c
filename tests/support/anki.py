"""Helpers that run the installed Anki: a fresh interpreter, its same-day rule, options measuring what it measures."""

from __future__ import annotations

import subprocess
import sys

from fsrs_calibration.metrics.jobs.evaluate import Options
from fsrs_calibration.metrics.jobs.options import short_term_floor_rating


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
