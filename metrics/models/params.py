"""FSRS parameters: defaults, preset lookup, 17/19 -> 21 conversion and clipping as fsrs-rs."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..errors import N_, EvaluationError
from .ranges import PARAM_RANGES

# FSRS-6 default parameters (fsrs-rs DEFAULT_PARAMETERS).
DEFAULT_PARAMETERS: tuple[float, ...] = (
    0.212,
    1.2931,
    2.3065,
    8.2956,
    6.4133,
    0.8334,
    3.0194,
    0.001,
    1.8722,
    0.1666,
    0.796,
    1.4835,
    0.0614,
    0.2629,
    1.6483,
    0.6014,
    1.8729,
    0.5425,
    0.0912,
    0.0658,
    0.1542,
)

FSRS5_DECAY = 0.5
S_MIN, S_MAX = 0.001, 36500.0
D_MIN, D_MAX = 1.0, 10.0

_CLAMPS = PARAM_RANGES  # fsrs-rs clip_parameters with one relearning step and short-term off (FSRS::new)

# Preset (deck config) keys, newest first; the first non-empty one wins.
PRESET_KEYS = ("fsrsParams6", "fsrsParams5", "fsrsWeights")
NEWEST_REPLAYED = 6  # the newest FSRS version this replay knows (FSRS-4.5, 5 and 6 are its own parameter counts)
_PARAMS_KEY = re.compile(r"^fsrs_?[Pp]arams_?(\d+)$")
_VERSION_KEYS = ("fsrsVersion", "fsrs_version")


def to_fsrs6(values: Sequence[Any], where: str = "parameters") -> np.ndarray:
    """Return 21 clipped FSRS-6 parameters (float64 holding float32 values) from 0/17/19/21 values.

    Raises EvaluationError naming `where` for a wrong length or a non-finite value.
    """
    try:
        raw = [float(v) for v in values]
    except (TypeError, ValueError):
        raise EvaluationError(template=N_("{where}: the parameters are not a list of numbers."), where=where) from None
    if any(not math.isfinite(v) for v in raw):
        said = N_("{where}: the parameters contain a value that is not a finite number.")
        raise EvaluationError(template=said, where=where)
    n = len(raw)
    with np.errstate(over="ignore", invalid="ignore"):  # an overflow is reported below, not warned
        if n == 0:
            w = np.array(DEFAULT_PARAMETERS, dtype=np.float32)
        elif n == 17:
            w = np.array(raw, dtype=np.float32)
            # fsrs-rs check_and_fill_parameters, in float32 as there (mul_add is fused).
            w4 = np.float32(np.float64(w[5]) * 2.0 + np.float64(w[4]))
            w5 = np.float32(np.log(np.float32(np.float64(w[5]) * 3.0 + 1.0)) / np.float32(3.0))
            w[4], w[5] = w4, w5
            w[6] = w[6] + np.float32(0.5)
            w = np.concatenate([w, np.array([0.0, 0.0, 0.0, FSRS5_DECAY], dtype=np.float32)])
        elif n == 19:
            w = np.concatenate([np.array(raw, dtype=np.float32), np.array([0.0, FSRS5_DECAY], dtype=np.float32)])
        elif n == 21:
            w = np.array(raw, dtype=np.float32)
        else:
            said = N_("{where}: {count} parameters given; FSRS takes 17 (FSRS-4.5), 19 (FSRS-5) or 21 (FSRS-6).")
            raise EvaluationError(template=said, where=where, count=n)
    if not np.all(np.isfinite(w)):
        raise EvaluationError(template=N_("{where}: the parameters overflow after conversion to FSRS-6."), where=where)
    low = np.array([c[0] for c in _CLAMPS], dtype=np.float32)
    high = np.array([c[1] for c in _CLAMPS], dtype=np.float32)
    return np.clip(w, low, high).astype(np.float64)


def is_default(values: Sequence[Any]) -> bool:
    """Return whether these parameters are FSRS-6's defaults (none given, or the defaults written out)."""
    try:
        raw = [float(v) for v in values]
    except (TypeError, ValueError):
        return False
    return not raw or (len(raw) == len(DEFAULT_PARAMETERS) and np.allclose(raw, DEFAULT_PARAMETERS, rtol=0, atol=1e-4))


def newer_model(preset: Mapping[str, object]) -> str:
    """Return the name of the FSRS a preset is set to when this replay does not know it ("FSRS-7"), else "".

    Anki's development code writes FSRS-7's parameters as `fsrs_params_7` beside an `fsrs_version` (JSON
    `fsrsParams7`, `fsrsVersion`); an Anki that does not know them keeps them. A version field wins (unset or 0:
    none; 4 to 6: replayed; newer: that FSRS; anything else: a version this add-on does not know); without one,
    parameters
    under a newer key mean that model. Such a preset is never scored as an older one.
    """
    for key in _VERSION_KEYS:
        version = preset.get(key)
        if version is None or version in ("", 0, "0") or version is False:
            continue  # unset (0 is a protobuf field's default)
        digits = re.findall(r"\d+", str(version))
        number = int(digits[0]) if digits and not isinstance(version, bool) else -1
        if 4 <= number <= NEWEST_REPLAYED:
            return ""
        return (
            f"FSRS-{number}"
            if number > NEWEST_REPLAYED
            else f"an FSRS version this add-on does not know ({str(version)[:20]})"
        )
    for key, value in preset.items():
        match = _PARAMS_KEY.match(str(key))
        if match and int(match.group(1)) > NEWEST_REPLAYED and value:
            return f"FSRS-{int(match.group(1))}"
    return ""


def preset_raw_params(preset: Mapping[str, object]) -> tuple[str, list[Any]]:
    """Return (key, values) of the preset's first non-empty fsrsParams6/5/fsrsWeights, or ("", [])."""
    for key in PRESET_KEYS:
        value = preset.get(key)
        if value:
            if not isinstance(value, (list, tuple)):
                return key, [value]  # malformed; to_fsrs6 reports it
            return key, list(value)
    return "", []
