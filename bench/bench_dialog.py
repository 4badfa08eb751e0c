"""Benchmark: from clicking Tools → "FSRS Calibration…" to results, in the real Anki main window.

Starts Anki (offscreen, pinned aqt, throwaway base folder) on the benchmark collection with the
add-on installed; a driver add-on clicks the menu entry and measures the time until the dialog
shows results, and the longest stretch the main thread's event loop went without running a 10 ms
timer (how long the window was frozen). Each run is a fresh Anki start, so the revlog is read cold.
Then (unless --no-diagnosis) it times the diagnosis that the dialog starts on its own once the results are
shown (auto_diagnose; or clicks "What to do"'s button when that is off), with the same two figures (Anki's
health checks and the out-of-sample trainings run in the background).

Then (unless --no-answers) the learner reviews meanwhile: in fresh Anki starts, alternately, while the dialog
diagnoses (tests/e2e/living_scripts.py, "answers") and while Anki's own health checks run as Deck Options
runs them ("anki-checks"), the driver answers cards in Anki's reviewer (Easy, as fast as the next question
shows) and times each answer until the next question, and the window's longest freeze.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "e2e"))
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "bench"))

from harness import install_working_tree, make_base, run_anki  # noqa: E402


def _median_of(seconds: list[float]) -> dict:
    return {"median": round(statistics.median(seconds), 3), "runs": [round(t, 3) for t in seconds]}


def _max_ms_of(seconds: list[float]) -> dict:
    return {"max": round(max(seconds) * 1000, 1), "runs": [round(b * 1000, 1) for b in seconds]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reviews", type=int, default=500_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-diagnosis", action="store_true", help="time the evaluation only")
    parser.add_argument("--no-answers", action="store_true", help="do not time answers during a diagnosis")
    parser.add_argument("--answers-only", action="store_true", help="time answers during a diagnosis only")
    args = parser.parse_args()
    collection = ROOT / "build" / "bench" / f"collection-{args.reviews}.anki2"
    if not collection.exists():
        from bench_evaluate import build

        build(str(collection), args.reviews)
    python = sys.executable  # the dev environment: aqt and numpy
    if args.answers_only:
        print(json.dumps({"answers": answering(collection, args.repeat, python), "cpu": os.cpu_count()}, indent=1))
        return
    runs = []
    for _ in range(args.repeat):
        with tempfile.TemporaryDirectory() as tmp:
            base = Path(tmp) / "base"
            make_base(base, str(collection), python)
            install_working_tree(base)
            env = {} if args.no_diagnosis else {"E2E_DIAGNOSE": "1"}
            out = run_anki(base, "bench", Path(tmp) / "bench.json", env, timeout=300, python=python)
            if "error" in out:
                raise SystemExit(out["error"])
            runs.append(out)
    clicks = [r["click_to_results_s"] for r in runs]
    blocks = [r["max_ui_block_s"] for r in runs]
    diagnosis = {}
    if not args.no_diagnosis:
        times = [r["click_to_diagnosis_s"] for r in runs]
        blocks_d = [r["diagnosis_max_ui_block_s"] for r in runs]
        diagnosis = {
            "click_to_diagnosis_s": _median_of(times),
            "diagnosis_max_ui_thread_block_ms": _max_ms_of(blocks_d),
            "diagnosis_blocks_over_30ms": [r["diagnosis_gaps_ms"] for r in runs],
            "evaluation_blocks_over_30ms": [r["gaps_ms"] for r in runs],
        }
    answers = {} if args.no_answers else {"answers": answering(collection, args.repeat, python)}
    print(
        json.dumps(
            {
                "collection": str(collection),
                "scored_reviews": runs[0]["reviews"],
                "click_to_results_s": _median_of(clicks),
                "max_ui_thread_block_ms": _max_ms_of(blocks),
                **diagnosis,
                **answers,
                "cpu": os.cpu_count(),
            },
            indent=1,
        )
    )


def answering(collection: Path, repeat: int, python: str) -> dict:
    """Review while the dialog diagnoses, and while Anki's own health checks run (alternating fresh starts):
    the longest wait of an answer for the next question, the median, how many, and the longest freeze."""
    runs: dict[str, list[dict]] = {"while_diagnosing": [], "while_ankis_health_checks": []}
    for _ in range(repeat):
        for key, script in (("while_diagnosing", "answers"), ("while_ankis_health_checks", "anki-checks")):
            with tempfile.TemporaryDirectory() as tmp:
                base = Path(tmp) / "base"
                _review_ready(make_base(base, str(collection), python))
                install_working_tree(base)
                env = {"E2E_DECK": "Deck 0::Sub 0"}
                out = run_anki(base, f"living-{script}", Path(tmp) / "out.json", env, timeout=300, python=python)
                if "error" in out or out.get("exceptions"):
                    raise SystemExit(out.get("error") or out["exceptions"])
                runs[key].append(out["answers"])
    return {
        key: {
            "longest_answer_ms": _max_ms_of([max(r["waits"], default=0.0) for r in found]),
            "median_answer_ms": round(statistics.median([w for r in found for w in r["waits"]] or [0.0]) * 1000, 1),
            "answers": [len(r["waits"]) for r in found],
            "longest_freeze_ms": _max_ms_of([r["longest_freeze_s"] for r in found]),
        }
        for key, found in runs.items()
    }


def _review_ready(path: Path) -> None:
    """Let the profile's copy show new cards all day (the driver answers many)."""
    from anki.collection import Collection

    col = Collection(str(path))
    try:
        for conf in col.decks.all_config():
            conf["new"]["perDay"] = 9999
            col.decks.update_config(conf)
    finally:
        col.close(downgrade=False)


if __name__ == "__main__":
    main()
