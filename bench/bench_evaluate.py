"""Benchmark: our whole `fsrs-calibration evaluate` against Anki's Rust evaluate_params_legacy, one run.

Builds (once, cached under build/bench/) a collection with at least --reviews revlog rows, then
alternates runs of two fresh processes on it:
  ours  `fsrs-calibration evaluate COLLECTION --json` (temporary copy, read, replay, log loss,
        RMSE (bins), AUC, calibration and per-deck numbers, JSON out)
  export `fsrs-calibration export COLLECTION OUT.zip` (the benchmark-format export of the same reviews:
        CSV, and parquet too since pyarrow is installed here)
  export_no_pyarrow  the same with pyarrow made unimportable: CSV only, as the export runs inside Anki
  anki  a Python process that opens the collection and calls evaluate_params_legacy — once over the
        whole collection with the default parameters (the least work Anki can do for these reviews),
        and, separately, once per preset with that preset's parameters (what Anki's Evaluate did).
Reports median wall times, the ratios, and each process's peak memory (max RSS).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))

ANKI_SCRIPT = r"""
import sys, time
from anki.collection import Collection
mode, path = sys.argv[1], sys.argv[2]
col = Collection(path)
if mode == "whole":
    r = col._backend.evaluate_params_legacy(params=[], search="", ignore_revlogs_before_ms=0)
    print(r.log_loss, r.rmse_bins)
else:
    for conf in col.decks.all_config():
        params = conf["fsrsParams6"] or conf["fsrsParams5"] or conf["fsrsWeights"]
        try:
            search = f'preset:"{conf["name"]}"'
            r = col._backend.evaluate_params_legacy(params=params, search=search, ignore_revlogs_before_ms=0)
            print(conf["name"], r.log_loss, r.rmse_bins)
        except Exception as e:
            print(conf["name"], "error", e)
col.close(downgrade=False)
"""


def build(path: str, reviews: int, seed: int = 11) -> None:
    """Write a collection with at least `reviews` revlog rows in several decks and presets."""
    from support.builder import build_large

    build_large(path, reviews, seed)


def run_measured(args: list[str], env: dict[str, str] | None = None) -> tuple[float, float, str]:
    """Run a command; return (wall seconds, peak RSS MiB, stdout), the peak from the child's own VmHWM."""
    import tempfile

    env = dict(os.environ if env is None else env)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (os.path.join(ROOT, "bench", "peak"), env.get("PYTHONPATH")) if p)
    with tempfile.TemporaryDirectory() as folder:
        env["BENCH_PEAK_FILE"] = peak_file = os.path.join(folder, "peak")
        start = time.perf_counter()
        proc = subprocess.run(args, capture_output=True, env=env)
        wall = time.perf_counter() - start
        if proc.returncode:
            raise SystemExit(f"{' '.join(args[:3])} failed: {proc.stderr.decode()[-2000:]}")
        with open(peak_file) as f:
            peak_mib = int(f.read()) / 1024
    return wall, peak_mib, proc.stdout.decode()


def bench_collection(reviews: int) -> str:
    """Return the path of the cached benchmark collection with `reviews` revlog rows, built if missing."""
    path = os.path.join(ROOT, "build", "bench", f"collection-{reviews}.anki2")
    if not os.path.exists(path):
        print(f"building {path} …", file=sys.stderr)
        build(path, reviews)
    return path


def alternate(
    cmds: dict[str, list[str]], repeat: int
) -> tuple[dict[str, list[float]], dict[str, float], dict[str, str]]:
    """Run the commands in turn, `repeat` rounds; return (wall times, peak RSS MiB, last stdout) per name."""
    times: dict[str, list[float]] = {k: [] for k in cmds}
    rss: dict[str, float] = {k: 0.0 for k in cmds}
    out: dict[str, str] = {}
    for _ in range(repeat):
        for name, cmd in cmds.items():
            wall, peak, out[name] = run_measured(cmd)
            times[name].append(wall)
            rss[name] = max(rss[name], peak)
    return times, rss, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reviews", type=int, default=500_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--collection", help="use this collection instead of building one")
    args = parser.parse_args()
    path = args.collection or bench_collection(args.reviews)
    exe = os.path.join(os.path.dirname(sys.executable), "fsrs-calibration")
    ours_cmd = [exe, "evaluate", path, "--json"]
    export_path = os.path.join(ROOT, "build", "bench", "export.zip")
    export_cmd = [exe, "export", path, export_path, "--force"]  # each round replaces the last
    whole_cmd = [sys.executable, "-c", ANKI_SCRIPT, "whole", path]
    preset_cmd = [sys.executable, "-c", ANKI_SCRIPT, "presets", path]
    blocker = os.path.join(ROOT, "build", "bench", "no-pyarrow")  # a `pyarrow` that fails to import
    os.makedirs(os.path.join(blocker, "pyarrow"), exist_ok=True)
    with open(os.path.join(blocker, "pyarrow", "__init__.py"), "w") as f:
        f.write('raise ImportError("blocked by the benchmark")\n')
    csv_only_env = dict(os.environ, PYTHONPATH=blocker)
    names = ("ours", "anki_whole", "anki_presets", "export", "export_no_pyarrow")
    times: dict[str, list[float]] = {k: [] for k in names}
    rss: dict[str, float] = {k: 0.0 for k in times}
    result = None
    for _ in range(args.repeat):
        commands = (
            ("ours", ours_cmd),
            ("anki_whole", whole_cmd),
            ("anki_presets", preset_cmd),
            ("export", export_cmd),
            ("export_no_pyarrow", export_cmd),
        )
        for name, cmd in commands:
            wall, peak, out = run_measured(cmd, csv_only_env if name == "export_no_pyarrow" else None)
            times[name].append(wall)
            rss[name] = max(rss[name], peak)
            if name == "ours":
                result = json.loads(out)
    med = {k: statistics.median(v) for k, v in times.items()}
    assert result is not None
    report = {
        "collection": path,
        "revlog_rows": args.reviews,
        "scored_reviews": result["reviews"],
        "cards": result["cards"],
        "decks": len(result["decks"]),
        "median_seconds": {k: round(v, 3) for k, v in med.items()},
        "ratio_ours_to_anki_whole": round(med["ours"] / med["anki_whole"], 3),
        "ratio_ours_to_anki_presets": round(med["ours"] / med["anki_presets"], 3),
        "ratio_export_to_evaluate": round(med["export"] / med["ours"], 3),
        "ratio_export_no_pyarrow_to_evaluate": round(med["export_no_pyarrow"] / med["ours"], 3),
        "peak_rss_mib": {k: round(v, 1) for k, v in rss.items()},
        "runs": {k: [round(x, 3) for x in v] for k, v in times.items()},
    }
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
