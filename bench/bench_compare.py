"""Benchmark: out-of-sample FSRS (5-fold time-series split) — ours against Anki's evaluate_params, one run.

  ours  `fsrs-calibration compare COLLECTION --models fsrs-out-of-sample --json` (temporary copy, read,
        items encoded, five folds trained by Anki's own optimizer in parallel threads, replayed, scored)
  anki  a Python process that opens the collection and calls evaluate_params (Anki trains the five
        folds itself, in parallel, and scores them)
Reports median wall times, the ratio, and both results (they should agree within training noise).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))

from bench_evaluate import alternate, bench_collection  # noqa: E402

ANKI = r"""
import sys, json
from anki.collection import Collection
col = Collection(sys.argv[1])
r = col._backend.evaluate_params(search="", ignore_revlogs_before_ms=0, num_of_relearning_steps=1)
print(json.dumps({"log_loss": r.log_loss, "rmse_bins": r.rmse_bins}))
col.close(downgrade=False)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reviews", type=int, default=500_000)
    parser.add_argument("--repeat", type=int, default=9)
    args = parser.parse_args()
    path = bench_collection(args.reviews)
    exe = os.path.join(os.path.dirname(sys.executable), "fsrs-calibration")
    cmds = {
        "ours": [exe, "compare", path, "--models", "fsrs-out-of-sample", "--json"],
        "anki": [sys.executable, "-c", ANKI, path],
    }
    times, _rss, text = alternate(cmds, args.repeat)
    out = {k: json.loads(v) for k, v in text.items()}
    med = {k: statistics.median(v) for k, v in times.items()}
    ours = out["ours"]["models"]["fsrs-out-of-sample"]
    print(
        json.dumps(
            {
                "collection": path,
                "median_seconds": {k: round(v, 2) for k, v in med.items()},
                "ratio_ours_to_anki": round(med["ours"] / med["anki"], 3),
                "ours": {"log_loss": ours["log_loss"], "rmse_bins": ours["rmse_bins"], "reviews": ours["reviews"]},
                "anki": out["anki"],
                "runs": {k: [round(x, 2) for x in v] for k, v in times.items()},
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
