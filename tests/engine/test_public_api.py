"""The engine's public API (metrics/__init__.py): one list, every name real, nothing loaded before use."""

from __future__ import annotations

import subprocess
import sys

import fsrs_calibration.metrics as metrics


def test_every_public_name_is_what_its_module_defines():
    assert metrics.__all__ == sorted(metrics.__all__) and len(metrics.__all__) >= 25
    for name in metrics.__all__:
        value = getattr(metrics, name)
        assert getattr(value, "__name__", name) == name or not callable(value), name
        assert name in dir(metrics)


def test_an_unknown_name_is_an_attribute_error():
    try:
        metrics.no_such_name  # noqa: B018
    except AttributeError as e:
        assert "no_such_name" in str(e)
    else:
        raise AssertionError("an unknown name was found")


def test_importing_the_engine_loads_no_numpy():
    code = "import sys, fsrs_calibration.metrics as m; print('numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out[0] == "False", "importing fsrs_calibration.metrics loaded numpy"
