"""`make run`: real Anki (pinned aqt) on a throwaway base folder with the sample collection and this add-on.

With a display, Anki opens normally: use Tools → "FSRS Calibration…" or a deck's gear menu.
Without one (no DISPLAY / WAYLAND_DISPLAY, or --offscreen), Anki runs offscreen, a driver add-on
opens the dialog from the Tools menu and from the gear menu of the "Languages" deck, and the
screenshots land in build/screenshots/.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "e2e"))
sys.path.insert(0, str(ROOT / "scripts"))

from harness import PROFILE, install_working_tree, make_base, run_anki  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sample", default=str(ROOT / "build" / "sample" / "collection.anki2"))
    parser.add_argument("--offscreen", action="store_true", help="run offscreen and save screenshots")
    args = parser.parse_args()
    headless = args.offscreen or not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    base = ROOT / "build" / "run-base"
    shutil.rmtree(base, ignore_errors=True)
    make_base(base, args.sample, sys.executable)
    if not headless:  # the driver add-on is only for the offscreen tour
        shutil.rmtree(base / "addons21" / "zz_e2e_driver", ignore_errors=True)
    install_working_tree(base)
    if not headless:
        log = base / "anki.log"
        print(f"Starting Anki on {base} (profile {PROFILE}); the add-on is in Tools → FSRS Calibration…")
        print(f"Anki's own output goes to {log}.")
        with open(log, "w") as out:
            cmd = [sys.executable, "-c", "import aqt; aqt.run()", "-b", str(base), "-p", PROFILE]
            subprocess.run(cmd, stdout=out, stderr=subprocess.STDOUT, check=False)
        return
    print(f"No display: running Anki offscreen on {base} (its output is kept in {base / 'run.json'})…")
    shots = ROOT / "build" / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    out = run_anki(
        base, "tools", base / "run.json", {"E2E_SHOTS": str(shots), "E2E_DECK": "Languages"}, python=sys.executable
    )
    if "error" in out:
        raise SystemExit(f"Anki run failed: {out['error']}")
    print("No display: Anki ran offscreen. What the dialog showed:\n")
    for name in ("tools", "deck"):
        shown = out[name]
        print(f"[{' '.join(shown['scope']).strip()}] {shown.get('headline_text') or shown['message']}")
        if shown.get("findings"):
            print(f"\nWhat to do (the findings, ranked):\n{shown['findings']}\n")
    print(f"\nScreenshots: {', '.join(sorted(p.name for p in shots.glob('*.png')))} in {shots}")
    print("The collection was " + ("unchanged." if out["before"] == out["after"] else "CHANGED (a bug)."))
    (shots / "run.json").write_text(json.dumps({k: v for k, v in out.items() if k != "stderr"}, indent=1))


if __name__ == "__main__":
    main()
