"""Exploratory run of the closed loop (tests/support/loop.py): per learner and seed, phase 1's diagnosis (plan
steps, watched verdicts, contradictions) and per phase-2 branch the gap |R_sched - R_true|, true recall, desired
retention and reviews per day. At most two processes (`--jobs`); `--json FILE` keeps every number.

    .venv/bin/python scripts/loop_explore.py [--learners a,b] [--seeds 1,2,3] [--jobs 2] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))

from support.loop_branches import SCENARIOS, run_learner  # noqa: E402


def one(job: tuple[str, int]) -> dict:
    """Run one learner and seed in a temporary folder."""
    name, seed = job
    with tempfile.TemporaryDirectory() as workdir:
        return run_learner(SCENARIOS[name], seed, workdir)


def table(results: list[dict]) -> str:
    """Return the results as a Markdown table (one row per branch) and the diagnoses above each learner."""
    lines = []
    for r in results:
        d = r["diagnosis"]
        steps = "; ".join(f"{a}" + (f"({t})" if t and not t.endswith("preset") else "") for _p, a, t in d["steps"])
        lines.append(
            f"\n### {r['learner']} seed {r['seed']} ({r['phase1_reviews']} phase-1 reviews, {r['seconds']:.1f} s)"
        )
        lines.append(f"plan: {steps or '(no step)'}")
        lines.append("verdicts: " + ", ".join(f"{k}={v}" for k, v in d["verdicts"].items()))
        if d["contradictions"]:
            lines.append("CONTRADICTIONS: " + "; ".join(d["contradictions"]))
        lines.append("| branch | gap | gap d30+ | bias | true R | recalled | DR | rev/day | decks | done |")
        lines.append("|---|---|---|---|---|---|---|---|---|---|")
        for name, b in r["branches"].items():
            a, late = b["all"], b["late"]
            decks = " ".join(
                f"{k}:{v['gap']:.3f}/{v['r_true']:.3f}"
                for k, v in b.items()
                if k not in ("all", "late", "params", "done")
            )
            lines.append(
                f"| {name} | {a['gap']:.4f} | {late['gap']:.4f} | {a.get('bias', 0):+.4f} | {a['r_true']:.3f} | "
                f"{a['recalled']:.3f} | {','.join(str(x) for x in a['desired'])} | {a['per_day']:.1f} | "
                f"{decks if len(b) > 5 else ''} | {'; '.join(b['done'])} |"
            )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", default=",".join(SCENARIOS))
    parser.add_argument("--seeds", default="1,2,3")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--json", default="")
    args = parser.parse_args()
    jobs = [(n, int(s)) for n in args.learners.split(",") for s in args.seeds.split(",")]
    began = time.perf_counter()
    results = []
    with ProcessPoolExecutor(max_workers=min(2, max(1, args.jobs))) as pool:
        for job, future in [(j, pool.submit(one, j)) for j in jobs]:
            try:
                results.append(future.result())
            except Exception as e:  # noqa: BLE001 - one learner's failure is reported, the others go on
                print(f"\n### {job[0]} seed {job[1]}: FAILED {type(e).__name__}: {e}", flush=True)
                continue
            print(table(results[-1:]), flush=True)
    print(f"\nwall time {time.perf_counter() - began:.1f} s for {len(jobs)} loops")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1, default=str)


if __name__ == "__main__":
    main()
