"""Benchmark: the peak memory (RSS) of every command, beside Anki's own Rust calls, in the same run.

Builds (once, cached under build/bench/) a collection with --reviews revlog rows (as bench_evaluate),
then runs each command once as a fresh process and reads its own peak RSS (VmHWM, at exit):
  evaluate          `fsrs-calibration evaluate COLLECTION --json`
  export            `fsrs-calibration export COLLECTION OUT.zip --force`
  evaluate-dataset  `fsrs-calibration evaluate-dataset OUT.zip --json` (the export just written)
  to-parquet        `fsrs-calibration to-parquet OUT.zip FOLDER --force`
  compare           `fsrs-calibration compare COLLECTION --json` (every model, five trainings)
  diagnose          `fsrs-calibration diagnose COLLECTION --json`
  anki_evaluate     Anki's evaluate_params_legacy over the whole collection (default parameters)
  anki_out_of_sample  Anki's evaluate_params (trains FSRS on five time-series splits) over it
  anki_health_check   Anki's compute_fsrs_params(health_check=True) for every preset, as Optimize runs it
                      (the call `diagnose` makes inside its own process: its floor)
Promise: every command below 1 GiB at 5,000,000 revlog rows.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))

from bench_diagnose import ANKI as HEALTH_CHECK  # noqa: E402
from bench_evaluate import bench_collection, run_measured  # noqa: E402

ANKI = r"""
import sys
from anki.collection import Collection
col = Collection(sys.argv[2])
if sys.argv[1] == "legacy":
    r = col._backend.evaluate_params_legacy(params=[], search="", ignore_revlogs_before_ms=0)
else:
    r = col._backend.evaluate_params(search="", ignore_revlogs_before_ms=0, num_of_relearning_steps=1)
print(r.log_loss, r.rmse_bins)
col.close(downgrade=False)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reviews", type=int, default=500_000)
    parser.add_argument("--only", help="comma-separated command names to run (default: all)")
    args = parser.parse_args()
    path = bench_collection(args.reviews)
    exe = os.path.join(os.path.dirname(sys.executable), "fsrs-calibration")
    out_zip = os.path.join(ROOT, "build", "bench", "memory-export.zip")
    out_folder = os.path.join(ROOT, "build", "bench", "memory-parquet")
    commands = {
        "evaluate": [exe, "evaluate", path, "--json"],
        "export": [exe, "export", path, out_zip, "--force"],
        "evaluate-dataset": [exe, "evaluate-dataset", out_zip, "--json"],
        "to-parquet": [exe, "to-parquet", out_zip, out_folder, "--force"],
        "compare": [exe, "compare", path, "--json"],
        "diagnose": [exe, "diagnose", path, "--json"],
        "anki_evaluate": [sys.executable, "-c", ANKI, "legacy", path],
        "anki_out_of_sample": [sys.executable, "-c", ANKI, "split", path],
        "anki_health_check": [sys.executable, "-c", HEALTH_CHECK, path],
    }
    wanted = args.only.split(",") if args.only else list(commands)
    report: dict[str, dict[str, float]] = {}
    for name in wanted:
        if name == "to-parquet" and os.path.exists(out_folder):
            shutil.rmtree(out_folder)
        wall, peak, _ = run_measured(commands[name])
        report[name] = {"peak_rss_mib": round(peak, 1), "seconds": round(wall, 2)}
        print(f"{name:20} {peak:8.1f} MiB {wall:7.2f} s", file=sys.stderr)
    print(json.dumps({"collection": path, "revlog_rows": args.reviews, "commands": report}, indent=1))


if __name__ == "__main__":
    main()
