"""The add-on's settings as Anki's config editor may leave them: every value checked against config.md's
types and values; a bad one is its default, and one line says so (tests/ui/test_living.py: in the dialog)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fsrs_calibration.ui.settings import SETTINGS, checked, defaults

ROOT = Path(__file__).resolve().parents[2]


def test_the_defaults_are_config_json_and_every_setting_is_documented():
    assert defaults() == json.loads((ROOT / "config.json").read_text())
    doc = (ROOT / "config.md").read_text()
    for key in SETTINGS:
        assert f"`{key}`" in doc


@pytest.mark.parametrize(
    "config, key, fixed, said",
    [
        ({"scope": "search", "scope_value": 42}, "scope", "collection", 'Setting "scope_value" is 42'),
        ({"auto_diagnose": "no"}, "auto_diagnose", True, 'Setting "auto_diagnose" is "no", which is not true or false'),
        ({"auto_diagnose": 0}, "auto_diagnose", True, "not true or false"),
        ({"binning": 5}, "binning", "benchmark", 'Setting "binning" is 5, which is not one of "benchmark", "wiki"'),
        ({"params": "Preset"}, "params", "preset", 'is "Preset"'),
        ({"scope": ["deck"]}, "scope", "collection", 'Setting "scope" is ["deck"]'),
        ({"scope_value": "x" * 5000}, "scope", "collection", "…"),
        ({"auto_diagnos": False}, "auto_diagnose", True, 'Setting "auto_diagnos" is not one of this add-on'),
    ],
)
def test_a_bad_value_is_its_default_with_one_line(config, key, fixed, said):
    out, problems = checked(config)
    assert out[key] == fixed
    assert len(problems) == 1 and said in problems[0], problems
    assert set(out) == set(SETTINGS)


def test_good_values_pass_untouched():
    good = {"params": "default", "weighting": "recency", "binning": "wiki", "same_day": "drop"}
    good |= {"scope": "deck", "scope_value": "Spanish <b>", "auto_diagnose": False}
    assert checked(good) == (good, [])
    assert checked(None) == (defaults(), [])
    assert checked([1, 2])[1] == ["The add-on's settings are not a JSON object; using the defaults."]
