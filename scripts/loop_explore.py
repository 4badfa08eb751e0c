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


def one(job: tuple[str, int, int]) -> dict:
    """Run one learner and seed in a temporary folder."""
    name, seed, again = job
    with tempfile.TemporaryDirectory() as workdir:
        return run_learner(SCENARIOS[name], seed, workdir, again)


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
        if d.get("honest_now"):
            lines.append("LIMIT: " + d["honest_now"])
        lines.append("| branch | gap | gap d30+ | gap d90+ | bias | true R | recalled | DR | rev/day | decks | done |")
        lines.append("|---|---|---|---|---|---|---|---|---|---|---|")
        lines += [row(name, b) for name, b in r["branches"].items()]
    return "\n".join(lines)


def row(name: str, b: dict) -> str:
    """Return one branch's row: gaps (all of phase 2, from day 30, from day 90), bias, recall, workload, decks."""
    a = b["all"]
    decks = [k for k in b if k not in ("all", "late", "last", "params", "done", "listed")]
    per_deck = " ".join(f"{k}:{b[k]['gap']:.3f}/{b[k]['r_true']:.3f}" for k in decks) if len(decks) > 1 else ""
    gaps = f"{a['gap']:.4f} | {b['late']['gap']:.4f} | {b['last']['gap']:.4f}"
    if b.get("listed", {}).get("reviews"):
        per_deck += f" listed:{b['listed']['gap']:.3f}/{b['listed']['r_true']:.3f}"
    return (
        f"| {name} | {gaps} | {a.get('bias', 0):+.4f} | {a['r_true']:.3f} | {a['recalled']:.3f} | "
        f"{','.join(str(x) for x in a['desired'])} | {a['per_day']:.1f} | {per_deck} | {'; '.join(b['done'])} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", default=",".join(SCENARIOS))
    parser.add_argument("--seeds", default="1,2,3")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--json", default="")
    parser.add_argument("--again", type=int, default=0, help="also branches with Optimize pressed again that day")
    args = parser.parse_args()
    jobs = [(n, int(s), args.again) for n in args.learners.split(",") for s in args.seeds.split(",")]
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
