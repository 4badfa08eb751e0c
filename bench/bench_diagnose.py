"""Benchmark: `fsrs-calibration diagnose` against Anki's own health-check call, in the same run.

  ours  `fsrs-calibration diagnose COLLECTION --json` (temporary copy, read, replay, findings, and Anki's
        health check for every preset: the same call as `anki` below, made inside our run)
  anki  a Python process that opens the collection and, for every preset, calls Anki's
        compute_fsrs_params(..., health_check=True), as Optimize does
Target: ours <= anki + 2 s of wall time (issue 21, with its findings; +1.5 s before them).
Reports medians of alternating fresh processes.
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
out = {}
for conf in col.decks.all_config():
    params = conf.get("fsrsParams6") or conf.get("fsrsParams5") or conf.get("fsrsWeights") or []
    name = conf["name"].replace('"', '\\"')
    r = col._backend.compute_fsrs_params(search=f'preset:"{name}" -is:suspended', current_params=list(params),
                                         ignore_revlogs_before_ms=0,
                                         num_of_relearning_steps=len(conf["lapse"]["delays"]), health_check=True)
    out[conf["name"]] = r.health_check_passed if r.HasField("health_check_passed") else None
print(json.dumps(out))
col.close(downgrade=False)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reviews", type=int, default=500_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    path = bench_collection(args.reviews)
    exe = os.path.join(os.path.dirname(sys.executable), "fsrs-calibration")
    cmds = {"ours": [exe, "diagnose", path, "--json"], "anki": [sys.executable, "-c", ANKI, path]}
    times, rss, text = alternate(cmds, args.repeat)
    out = {k: json.loads(v) for k, v in text.items()}
    med = {k: statistics.median(v) for k, v in times.items()}
    ours = out["ours"]
    assert isinstance(ours, dict)
    print(
        json.dumps(
            {
                "collection": path,
                "median_seconds": {k: round(v, 2) for k, v in med.items()},
                "ours_minus_anki_seconds": round(med["ours"] - med["anki"], 2),
                "target_met": med["ours"] <= med["anki"] + 2.0,
                "peak_rss_mib": {k: round(v, 1) for k, v in rss.items()},
                "health_check_ours": ours["anki_health_check"],
                "health_check_anki": out["anki"],
                "findings": [(f["id"], f["scope"], f["verdict"]) for f in ours["findings"]],
                "runs": {k: [round(x, 2) for x in v] for k, v in times.items()},
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
