"""Screenshots of every tab of the dialog in one language, in the real Anki window on a 1366×768 screen (each tab
also at 800×500), at 100% and 150% — what a second reader of a translation looks at.

    .venv/bin/python scripts/language_shots.py LANGUAGE [LANGUAGE ...]   # e.g. he_IL vi_VN zh_TW

Writes build/screenshots/languages/<language>-1366x768-<scale>/ (the same as tests/ui/test_languages.py).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "scripts"), str(ROOT / "tests" / "ui")]
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def main(languages: list[str]) -> None:
    from make_sample import build_sample
    from support.built_once import built_once
    from test_languages import run_in

    sample = built_once(ROOT / "build" / "sample" / "collection.anki2", build_sample)
    for language in languages:
        for scale in ("1", "1.5"):
            with tempfile.TemporaryDirectory() as tmp:
                ran = run_in(language, scale, sample, Path(tmp))
                print(language, scale, ran["direction"], len(ran["checks"]), "screenshots")


if __name__ == "__main__":
    main(sys.argv[1:] or ["he_IL", "vi_VN"])
