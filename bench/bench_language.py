"""Benchmark: opening the dialog in another language against English (the issue's bound: under 50 ms more).

In one process (real Qt, offscreen), alternately for English and each language: take Anki's language as the
add-on does when the dialog opens (ui/language.apply: the catalog read, Qt's number marks, Anki's own words),
build the dialog on the sample collection and show it, until its first paint. Median of --runs each.

    .venv/bin/python bench/bench_language.py [--runs 15] [--languages ja_JP de_DE ar_SA]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "scripts"))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def open_once(app, col, code: str) -> float:
    """Return the seconds from taking the language to the dialog's first paint; close it."""
    from support.qt_helpers import ThreadRunner

    from fsrs_calibration.ui import language
    from fsrs_calibration.ui.dialog import CalibrationDialog

    start = time.perf_counter()
    language.apply(code)
    dialog = CalibrationDialog(None, ThreadRunner(col, None), {}, None, "26.09.3")
    dialog.show()
    dialog.repaint()
    app.processEvents()
    took = time.perf_counter() - start
    dialog.close()
    dialog.deleteLater()
    app.processEvents()
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--languages", nargs="*", default=["ja_JP", "de_DE", "ar_SA"])
    args = parser.parse_args()
    from anki.collection import Collection
    from aqt.qt import QApplication
    from make_sample import build_sample

    app = QApplication.instance() or QApplication([])
    folder = Path(tempfile.mkdtemp())
    path = folder / "collection.anki2"
    sample = ROOT / "build" / "sample" / "collection.anki2"
    if not sample.exists():
        build_sample(str(sample))
    shutil.copy(sample, path)
    col = Collection(str(path))
    try:
        times: dict[str, list[float]] = {code: [] for code in ["en_US", *args.languages]}
        open_once(app, col, "en_US")  # warm: imports, fonts
        for _ in range(args.runs):
            for code in times:
                times[code].append(open_once(app, col, code))
        english = statistics.median(times["en_US"])
        print(f"English: {english * 1000:.1f} ms (median of {args.runs})")
        for code in args.languages:
            median = statistics.median(times[code])
            print(f"{code}: {median * 1000:.1f} ms, {1000 * (median - english):+.1f} ms ({median / english:.2f}×)")
    finally:
        col.close(downgrade=False)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
