"""The dialog in the real Anki window on common screens: it opens inside the screen and every control is reachable."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # make check leaves it out; make test runs it

ROOT = Path(__file__).resolve().parents[2]

# (name, screen width, height in device pixels with the taskbar left out, QT_SCALE_FACTOR)
SCREENS = [
    ("1366x768-100", 1366, 728, "1"),  # a common laptop: 728 px left under the taskbar
    ("1920x1080-150", 1920, 1040, "1.5"),  # 1280x693 logical
    ("1280x800-150", 1280, 760, "1.5"),  # 853x507 logical
    ("2560x1440-200", 2560, 1400, "2"),  # 1280x700 logical
]


@pytest.mark.parametrize("name, width, height, scale", SCREENS, ids=[s[0] for s in SCREENS])
def test_the_dialog_fits_the_screen(sample, tmp_path, name, width, height, scale):
    from e2e.harness import install_working_tree, make_base, run_anki

    base = tmp_path / "base"
    make_base(base, sample, sys.executable, float(scale))
    install_working_tree(base)
    config = tmp_path / "screen.json"
    config.write_text(
        json.dumps(
            {
                "screens": [
                    {
                        "name": name,
                        "x": 0,
                        "y": 0,
                        "width": width,
                        "height": height,
                        "logicalDpi": 96,
                        "logicalBaseDpi": 96,
                        "dpr": 1,
                    }
                ]
            }
        )
    )
    shots = ROOT / "build" / "screenshots" / "screens" / name
    shots.mkdir(parents=True, exist_ok=True)
    env = {"QT_QPA_PLATFORM": f"offscreen:configfile={config}", "QT_SCALE_FACTOR": scale, "E2E_SHOTS": str(shots)}
    ran = run_anki(base, "screens", tmp_path / "out.json", env, python=sys.executable)
    assert "error" not in ran, ran
    assert ran["compared"], "the comparison did not finish"
    assert ran["diagnosed"], "the diagnosis did not finish"
    avail = ran["screen"]["available"]
    logical = (round(width / float(scale)), round(height / float(scale)))
    assert abs(avail[2] - logical[0]) <= 1 and abs(avail[3] - logical[1]) <= 1, ran["screen"]
    x, y, w, h = ran["opened"]
    assert x >= avail[0] and y >= avail[1] and x + w <= avail[0] + avail[2] and y + h <= avail[1] + avail[3], ran
    assert ran["minimum"][0] <= 800 and ran["minimum"][1] <= 500, ran["minimum"]
    tabs = {c["tab"] for c in ran["checks"]}
    assert len(tabs) >= 7 and "What to do" in tabs
    for check in ran["checks"]:
        if check["size"] == "800x500":
            assert check["dialog"] == [800, 500], check
            if check["tab"] == "What to do":  # the header is compact: two findings show without scrolling
                assert check["findings_visible"] >= 2, check
        assert check["problems"] == [], check
    assert len(list(shots.glob("*.png"))) == len(ran["checks"])
