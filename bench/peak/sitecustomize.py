"""Benchmarks only: at exit, write this process's own peak RSS (VmHWM, KiB) to $BENCH_PEAK_FILE.

bench_evaluate.run_measured puts this folder on PYTHONPATH. ru_maxrss from wait4 is not used:
Linux carries the parent's peak into a child at its exec, so it measured the benchmark script too.
"""

import atexit
import os


def _write_peak() -> None:
    target = os.environ.get("BENCH_PEAK_FILE")
    if not target:
        return
    with open("/proc/self/status") as f:
        kib = next(int(line.split()[1]) for line in f if line.startswith("VmHWM:"))
    with open(target, "w") as out:
        out.write(str(kib))


atexit.register(_write_peak)
