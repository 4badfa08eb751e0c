"""Write metrics/benchmark_table.py: per-band quantiles of the FSRS benchmark's per-user results.

    python scripts/benchmark_table.py SOURCE.jsonl [--model NAME] [--date YYYY-MM] [--commit SHA]
        [--repository OWNER/NAME] [--read-from OWNER/NAME] [--path result/NAME.jsonl]
        [--bands 2000,5000,20000,100000] [--step 1]
        > metrics/benchmark_table.py

SOURCE.jsonl is a `result/<model>.jsonl` of open-spaced-repetition/srs-benchmark: one JSON object per user,
{"metrics": {"LogLoss": …, "RMSE(bins)": …, "AUC": … or null, …}, "user": …, "size": …, …}, where `size` is
the number of reviews the benchmark scored out of sample for that user. Users are grouped into bands of `size`
and, per band, the quantiles (every `step` percent, 0..100, numpy's "hazen" method: the mid-rank empirical
distribution, linearly interpolated) of log loss, RMSE (bins) and AUC are written as constants of a small Python
module, so the add-on ships no data file. The output depends only on the input and the flags (deterministic).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import textwrap
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

DEFAULT_BANDS = (2000, 5000, 20000, 100000)
DEFAULT_REPOSITORY = "open-spaced-repetition/srs-benchmark"
DIGITS = 6  # the benchmark writes its metrics with 6 decimals
WIDTH = 120


class SourceError(ValueError):
    """The source file is not a benchmark result file as expected."""


def read_users(lines: Iterable[str]) -> tuple[list[dict[str, Any]], int]:
    """Return (users with size, log loss, RMSE (bins) and AUC or None, number of users left out)."""
    users, skipped = [], 0
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            metrics = row.get("metrics", row)
            size = int(row["size"])
            ll, rmse = float(metrics["LogLoss"]), float(metrics["RMSE(bins)"])
            auc = metrics.get("AUC")
        except (ValueError, KeyError, TypeError, AttributeError) as e:
            raise SourceError(f"line {number}: not a benchmark result ({e!r})") from None
        if not (math.isfinite(ll) and math.isfinite(rmse)) or size < 0:
            skipped += 1
            continue
        auc = float(auc) if auc is not None and math.isfinite(float(auc)) else None
        users.append({"size": size, "log_loss": ll, "rmse_bins": rmse, "auc": auc})
    if not users:
        raise SourceError("no users with a finite log loss and RMSE (bins)")
    return users, skipped


def quantiles(values: Sequence[float], step: int) -> tuple[float, ...]:
    """Return the quantiles of `values` at 0, step, …, 100 percent (hazen), rounded to DIGITS decimals."""
    if not values:
        return ()
    probs = np.arange(0, 100 + step, step) / 100.0
    q = np.quantile(np.asarray(values, dtype=np.float64), probs, method="hazen")
    return tuple(round(float(v), DIGITS) + 0.0 for v in q)


def build(users: list[dict[str, Any]], edges: Sequence[int], step: int) -> dict[str, Any]:
    """Return the table: bands, users and AUC users per band, and the quantiles of each metric per band."""
    bounds = list(zip([0, *edges], [*edges, None], strict=True))
    table: dict[str, Any] = {"BANDS": [], "USERS": [], "AUC_USERS": [], "LOG_LOSS": [], "RMSE_BINS": [], "AUC": []}
    for low, high in bounds:
        band = [u for u in users if u["size"] >= low and (high is None or u["size"] < high)]
        if not band:
            raise SourceError(f"no users with {low} to {high} reviews: choose other --bands")
        aucs = [u["auc"] for u in band if u["auc"] is not None]
        table["BANDS"].append((low, high))
        table["USERS"].append(len(band))
        table["AUC_USERS"].append(len(aucs))
        table["LOG_LOSS"].append(quantiles([u["log_loss"] for u in band], step))
        table["RMSE_BINS"].append(quantiles([u["rmse_bins"] for u in band], step))
        table["AUC"].append(quantiles(aucs, step))
    return table


def _label(low: int, high: int | None) -> str:
    def k(n: int) -> str:
        return f"{n // 1000}k" if n % 1000 == 0 and n else f"{n:,}"

    if low == 0 and high is not None:
        return f"fewer than {k(high)} reviews"
    return f"{k(low)}+ reviews" if high is None else f"{k(low)}–{k(high)} reviews"


def _floats(name: str, rows: list[tuple[float, ...]], labels: list[str]) -> list[str]:
    """Lines of `NAME: tuple[tuple[float, ...], ...] = (...)`, one band per block, each line within WIDTH."""
    out = [f"{name}: tuple[tuple[float, ...], ...] = ("]
    for row, label in zip(rows, labels, strict=True):
        out.append(f"    # {label}")
        out.append("    (")
        line = "       "
        for v in row:
            item = f" {v!r},"
            if len(line) + len(item) > WIDTH:
                out.append(line)
                line = "       "
            line += item
        out.append(line)
        out.append("    ),")
    out.append(")")
    return out


def _str(text: str) -> str:
    """A Python string literal in double quotes (as ruff format writes it)."""
    return json.dumps(text, ensure_ascii=False)


def _wrap(text: str, indent: str = "") -> list[str]:
    return textwrap.wrap(
        text,
        WIDTH - 4,
        initial_indent=indent,
        subsequent_indent=indent + "    ",
        break_long_words=False,
        break_on_hyphens=False,
    )


def render(table: dict[str, Any], meta: dict[str, Any], command: str) -> str:
    """Return the text of the generated module."""
    bands = table["BANDS"]
    labels = [_label(low, high) for low, high in bands]
    counts = ", ".join(f"{label}: {n:,}" for label, n in zip(labels, table["USERS"], strict=True))
    read_from = f" (read from its copy in {meta['read_from']})" if meta["read_from"] else ""
    source = (
        f"Source: {meta['path']} of {meta['repository']}{read_from}, commit {meta['commit'] or 'unknown'}, results "
        f"of {meta['date'] or 'unknown date'}: {meta['source_users']:,} users, {meta['skipped_users']} left out "
        "(no finite log loss or RMSE (bins))."
    )
    lines = [
        f'"""FSRS benchmark standings: quantiles of {meta["model"]}\'s per-user out-of-sample results, by reviews.',
        "",
        "Generated by scripts/benchmark_table.py; do not edit by hand. Command:",
        *_wrap(command, "    "),
        *_wrap(source),
        *_wrap(f"Bands of the benchmark's `size` (reviews it scored out of sample per user): {counts}."),
        *_wrap(
            f"Per band, the quantiles at 0, {meta['step']}, …, 100% (numpy's hazen method) of log loss, RMSE (bins) "
            "and AUC (of the users whose AUC is defined); lower is better for the first two, higher for AUC."
        ),
        '"""',
        "",
        f"MODEL = {_str(meta['model'])}",
        f"DATE = {_str(meta['date'])}",
        f"REPOSITORY = {_str(meta['repository'])}",
        f"READ_FROM = {_str(meta['read_from'])}",
        f"COMMIT = {_str(meta['commit'])}",
        f"PATH = {_str(meta['path'])}",
        f"SOURCE_USERS = {meta['source_users']}",
        f"SKIPPED_USERS = {meta['skipped_users']}",
        f"STEP = {meta['step']}  # percent between two quantiles",
        "",
        "# fmt: off",
        "# (low, high) reviews: low <= size < high; high None: no upper bound",
        "BANDS: tuple[tuple[int, int | None], ...] = (",
        *[f"    ({low}, {high})," for low, high in bands],
        ")",
        f"USERS: tuple[int, ...] = ({', '.join(str(n) for n in table['USERS'])},)",
        f"AUC_USERS: tuple[int, ...] = ({', '.join(str(n) for n in table['AUC_USERS'])},)",
        *_floats("LOG_LOSS", table["LOG_LOSS"], labels),
        *_floats("RMSE_BINS", table["RMSE_BINS"], labels),
        *_floats("AUC", table["AUC"], labels),
        "# fmt: on",
    ]
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Origin:
    """Where the results come from: the model, its date and commit, the repository and file read."""

    model: str
    date: str = ""
    commit: str = ""
    repository: str = DEFAULT_REPOSITORY
    read_from: str = ""
    path: str = ""


def generate(
    lines: Iterable[str],
    origin: Origin,
    *,
    bands: Sequence[int] = DEFAULT_BANDS,
    step: int = 1,
    command: str = "",
) -> str:
    """Return the generated module's text for the result lines of one model."""
    if list(bands) != sorted(set(bands)) or (bands and bands[0] <= 0):
        raise SourceError("--bands must be increasing positive numbers of reviews")
    if step <= 0 or 100 % step:
        raise SourceError("--step must divide 100")
    users, skipped = read_users(lines)
    table = build(users, bands, step)
    meta = {
        **asdict(origin),
        "path": origin.path or f"result/{origin.model}.jsonl",
        "source_users": len(users) + skipped,
        "skipped_users": skipped,
        "step": step,
    }
    return render(table, meta, command or "python scripts/benchmark_table.py …")


def main(argv: list[str] | None = None) -> int:
    """Command line: write the module to standard output."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("source", help="a result/<model>.jsonl of srs-benchmark")
    ap.add_argument("--model", help="model name (default: the file's name without .jsonl)")
    ap.add_argument("--date", default="", help="date of the results, YYYY-MM")
    ap.add_argument("--commit", default="", help="commit of the results file")
    ap.add_argument("--repository", default=DEFAULT_REPOSITORY)
    ap.add_argument("--read-from", default="", help="repository the file was read from, if another (a fork)")
    ap.add_argument("--path", default="", help="path of the file in the repository (default result/MODEL.jsonl)")
    ap.add_argument("--bands", default=",".join(map(str, DEFAULT_BANDS)), help="band edges in reviews")
    ap.add_argument("--step", type=int, default=1, help="percent between quantiles (divides 100)")
    args = ap.parse_args(argv)
    if args.date and not (len(args.date) == 7 and args.date[4] == "-" and args.date.replace("-", "").isdigit()):
        ap.error("--date must be YYYY-MM")
    model = args.model or os.path.basename(args.source).removesuffix(".jsonl")
    try:
        bands = [int(b) for b in args.bands.split(",") if b.strip()]
    except ValueError:
        ap.error("--bands must be comma-separated numbers of reviews")
    flags = [f"--model {model}"] + [f"--{k} {v}" for k, v in (("date", args.date), ("commit", args.commit)) if v]
    if args.repository != DEFAULT_REPOSITORY:
        flags.append(f"--repository {args.repository}")
    if args.read_from:
        flags.append(f"--read-from {args.read_from}")
    if args.path:
        flags.append(f"--path {args.path}")
    if tuple(bands) != DEFAULT_BANDS:
        flags.append(f"--bands {args.bands}")
    if args.step != 1:
        flags.append(f"--step {args.step}")
    command = " ".join(["python scripts/benchmark_table.py", os.path.basename(args.source), *flags])
    try:
        with open(args.source, encoding="utf-8") as f:
            origin = Origin(model, args.date, args.commit, args.repository, args.read_from, args.path)
            text = generate(f, origin, bands=bands, step=args.step, command=command)
    except (OSError, SourceError) as e:
        print(f"benchmark_table: {e}", file=sys.stderr)
        return 2
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
