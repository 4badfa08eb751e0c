"""The `fsrs-calibration` command: evaluate FSRS on a collection file (always on a temporary copy)."""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib
import json
import math
import os
import pathlib
import shutil
import sqlite3
import sys
import tempfile
import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from .bundled import addon_version
from .metrics.errors import EvaluationError
from .metrics.options import BINNINGS, MODELS, WEIGHTINGS, Options, parse_params_text, short_term_floor_rating
from .optimizer import anki_trainer

if TYPE_CHECKING:
    from .metrics.collection import CollectionData
    from .metrics.evaluate import Evaluation

# The engine (numpy and the metrics) is imported while the collection opens (see opened_copy).
ENGINE = ("metrics.collection", "metrics.evaluate", "metrics.report", "metrics.compare", "metrics.dataset")

PROG = "fsrs-calibration"


class UsageError(Exception):
    """A mistake in the command line or its files; printed as one line, exit status 2."""


def copy_collection(path: str, target_dir: str) -> str:
    """Return the path of a consistent copy of the collection at `path` inside `target_dir`."""
    if not os.path.exists(path):
        raise UsageError(f"{path}: no such file.")
    if os.path.isdir(path):
        raise UsageError(f"{path}: is a folder, not a collection file (collection.anki2).")
    target = os.path.join(target_dir, "collection.anki2")
    try:
        uri = pathlib.Path(path).resolve().as_uri() + "?mode=ro"  # escapes '#', '%', '?' in the path
        source = sqlite3.connect(uri, uri=True, timeout=2.0)
        try:
            tables = {r[0] for r in source.execute("select name from sqlite_master where type = 'table'")}
            if not {"col", "revlog", "cards", "notes"} <= tables:
                raise UsageError(f"{path}: an SQLite file, but not an Anki collection.")
            dest = sqlite3.connect(target)
            try:
                dest.execute("pragma synchronous = off")  # a scratch copy: no need to sync it to disk
                source.backup(dest)
            finally:
                dest.close()
        finally:
            source.close()
    except sqlite3.DatabaseError as err:
        text = str(err)
        if "locked" in text or "busy" in text:
            raise UsageError(f"{path}: the collection is locked (is Anki open?); close Anki and try again.") from None
        if "not a database" in text or "malformed" in text or "encrypted" in text:
            raise UsageError(f"{path}: not an Anki collection (not an SQLite database).") from None
        raise UsageError(f"{path}: cannot read it: {text}.") from None
    except PermissionError:
        raise UsageError(f"{path}: permission denied.") from None
    return target


def open_collection(path: str) -> Any:
    """Return an anki Collection opened on `path` (a temporary copy)."""
    from anki.collection import Collection

    try:
        return Collection(path)
    except Exception as err:  # the backend's DBError, schema too new, ...
        raise UsageError(f"cannot open the collection: {err}") from None


def anki_version() -> str:
    """Return the version of the installed anki package, e.g. "26.09.3"."""
    try:
        from anki.buildinfo import version

        return str(version)
    except Exception:
        return ""


def parse_params_option(value: str) -> str | list[float]:
    """Return "preset", "default" or the list of numbers given to --params."""
    if value in ("preset", "default"):
        return value
    return parse_params_text(value)


def options_from(args: argparse.Namespace, anki: str | None) -> Options:
    """Return the evaluation options of the command line (the same-day rule of the given Anki)."""
    options = Options(
        params=parse_params_option(args.params),
        weighting=args.weighting,
        binning=args.binning,
        same_day=args.same_day,
        short_term_floor_rating=short_term_floor_rating(anki),
    )
    options.validate()
    return options


@contextlib.contextmanager
def opened_copy(
    args: argparse.Namespace, before_read: Any = None, **read: bool
) -> Iterator[tuple[Any, CollectionData]]:
    """Yield (collection, data of --search/--deck) on a temporary copy, removed afterwards.

    `before_read` runs just before the revlog is read (a query that releases the GIL for a while).
    """
    workdir = tempfile.mkdtemp(prefix="fsrs-calibration-")
    try:
        with ThreadPoolExecutor(max_workers=1) as pool:
            copying = pool.submit(copy_collection, args.collection, workdir)  # SQLite copies without the GIL
            import anki.collection  # noqa: F401  (while anki imports)

            copy = copying.result()
            engine = pool.submit(import_engine)  # numpy and the engine import while Anki opens the copy
            col = open_collection(copy)
        try:
            engine.result()
            from .metrics.collection import deck_search, read_collection

            if args.deck is not None:
                search, label = deck_search(col, args.deck), f'deck "{args.deck}"'
            else:
                search, label = args.search, None
            if before_read is not None:
                before_read()
            yield col, read_collection(col, search, scope_label=label, **read)
        finally:
            col.close(downgrade=False)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def import_engine() -> None:
    """Import numpy and the engine's modules (they are only imported when a command needs them)."""
    for name in ENGINE:
        importlib.import_module(f"{__package__}.{name}")


def read_scope(args: argparse.Namespace, with_durations: bool = False, before_read: Any = None) -> CollectionData:
    """Return the scope of --search/--deck read from a temporary copy of the collection."""
    with opened_copy(args, before_read, with_durations=with_durations) as (_col, data):
        return data


def run_evaluate(args: argparse.Namespace) -> Evaluation:
    """Return the evaluation the `evaluate` subcommand asks for."""
    options = options_from(args, anki_version())
    data = read_scope(args)
    from .metrics.evaluate import evaluate

    return evaluate(data, options)


def run_export(args: argparse.Namespace) -> str:
    """Write the benchmark-format zip of the scope; return a one-paragraph summary."""
    if os.path.isdir(args.out):
        raise UsageError(f"{args.out}: is a folder; give the name of the zip file to write.")
    whole = args.deck is None and not (args.search or "").strip()
    # pyarrow's first use (for the optional parquet copy) overlaps the revlog query, which releases the GIL
    data = read_scope(args, with_durations=True, before_read=_start_preparing_parquet)
    from .metrics.dataset import build_tables, write_zip

    tables = build_tables(data, whole_collection=whole)
    del data  # the revlog arrays are not needed while the zip is written
    if tables.rows()["revlogs"] == 0:
        raise UsageError("No reviews to export in this scope (cards need a learning step).")
    write_zip(tables, args.out, {"addon_version": addon_version(), "anki_version": anki_version()})
    rows = tables.rows()
    return f"Wrote {args.out}: {rows['revlogs']:,} reviews of {rows['cards']:,} cards in {rows['decks']:,} decks."


def _start_preparing_parquet() -> None:
    """Start importing and warming up pyarrow's parquet writer in a background thread."""
    from .metrics.dataset import prepare_parquet

    threading.Thread(target=prepare_parquet, daemon=True).start()


def run_compare(args: argparse.Namespace) -> Any:
    """Return the comparison the `compare` subcommand asks for (Anki's optimizer for out-of-sample FSRS)."""
    options = options_from(args, anki_version())
    models = [m.strip() for m in (args.models or ",".join(MODELS)).split(",") if m.strip()]
    progress = (lambda text: print(text, file=sys.stderr)) if not args.json else None
    with opened_copy(args, with_intervals="anki-interval" in models) as (col, data):
        from .metrics.compare import compare

        return compare(data, options, anki_trainer(col), models, progress=progress, share_cpu_by_size=True)


def format_comparison(cmp: Any) -> str:
    """Return the plain-text table of a comparison."""
    lines = [
        f"Compared on {cmp.reviews_compared:,} of {cmp.reviews_total:,} scored reviews "
        "(the parts a time-series split tests: every review after the first sixth).",
        "",
        f"{'model':<20} {'log loss':>9} {'95% interval':>17} {'RMSE (bins)':>12} {'AUC':>6} {'UM+ max':>8}",
    ]
    for name, m in cmp.models.items():
        ump = [v for v in cmp.um_plus[name].values() if v is not None]
        lines.append(
            f"{name:<20} {m.log_loss:9.4f} {m.log_loss_ci[0]:8.4f}–{m.log_loss_ci[1]:<8.4f} {m.rmse_bins:12.4f}"
            f" {m.auc if m.auc is not None else float('nan'):6.3f} {max(ump) if ump else float('nan'):8.4f}"
        )
    lines += [""] + cmp.guidance
    return "\n".join(lines)


def run_evaluate_dataset(args: argparse.Namespace) -> Evaluation:
    """Return the evaluation of an export zip or an anki-revlogs-10k folder (numpy only, no anki)."""
    from .metrics.dataset import read_tables
    from .metrics.evaluate import evaluate_tables

    options = options_from(args, args.anki_version)
    return evaluate_tables(read_tables(args.source, args.user), options)


def _json_default(value: Any) -> Any:
    """Return JSON-ready values for numpy scalars."""
    if hasattr(value, "item"):
        return value.item()
    raise TypeError(type(value).__name__)


def _clean(obj: Any) -> Any:
    """Return obj with NaN replaced by None, so the output is strict JSON."""
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    if isinstance(obj, dict):
        return {k: _clean(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_clean(v) for v in obj]
    return obj


def build_parser() -> argparse.ArgumentParser:
    """Return the command line parser."""
    parser = argparse.ArgumentParser(prog=PROG, description="How well does FSRS predict your memory?")
    sub = parser.add_subparsers(dest="command", required=True)
    ev = sub.add_parser("evaluate", help="score FSRS's predictions on a collection's revlog")
    ev.add_argument("collection", help="path to collection.anki2 (read through a temporary copy)")
    _scope_arguments(ev)
    _option_arguments(ev, params_default="preset")
    ex = sub.add_parser("export", help="write anonymized review data in the FSRS benchmark's format (a zip)")
    ex.add_argument("collection", help="path to collection.anki2 (read through a temporary copy)")
    ex.add_argument("out", help="the zip file to write, e.g. fsrs-benchmark.zip")
    _scope_arguments(ex)
    cp = sub.add_parser("compare", help="FSRS (presets, defaults, out-of-sample) against SM-2 and simple baselines")
    cp.add_argument("collection", help="path to collection.anki2 (read through a temporary copy)")
    _scope_arguments(cp)
    cp.add_argument("--models", help="comma-separated subset of the models (default: all)")
    _option_arguments(cp, params_default="preset")
    ds = sub.add_parser("evaluate-dataset", help="score FSRS on an export zip or an anki-revlogs-10k folder")
    ds.add_argument("source", help="an export zip, or a folder with revlogs/ cards/ decks/ (CSV or parquet)")
    ds.add_argument("--user", type=int, help="which user_id partition (when the folder holds several)")
    ds.add_argument(
        "--anki-version",
        help="replay same-day reviews as this Anki does (e.g. 25.07: Hard may lower stability); default: current",
    )
    _option_arguments(ds, params_default="default")
    return parser


def _scope_arguments(parser: argparse.ArgumentParser) -> None:
    scope = parser.add_mutually_exclusive_group()
    scope.add_argument("--search", help="an Anki search, e.g. 'preset:\"Default\" -is:suspended'")
    scope.add_argument("--deck", help="a deck name (its subdecks included)")


def _option_arguments(parser: argparse.ArgumentParser, params_default: str) -> None:
    parser.add_argument(
        "--params", default=params_default, help="preset (each card's preset), default, or W0,W1,... (17/19/21)"
    )
    parser.add_argument("--weighting", choices=WEIGHTINGS, default="uniform")
    parser.add_argument("--binning", choices=sorted(BINNINGS), default="benchmark")
    parser.add_argument(
        "--same-day",
        choices=("auto", "keep", "drop"),
        default="auto",
        help="same-day repeats in the history: keep (FSRS-5/6), drop (FSRS-4.5); auto by parameter count",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (2 for any user error, with one line on stderr)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "export":
            print(run_export(args))
            return 0
        if args.command == "compare":
            cmp = run_compare(args)
            if args.json:
                print(json.dumps(_clean(cmp.to_dict()), default=_json_default, indent=1))
            else:
                print(format_comparison(cmp))
            return 0
        ev = run_evaluate(args) if args.command == "evaluate" else run_evaluate_dataset(args)
        if args.json:
            print(json.dumps(_clean(ev.to_dict()), default=_json_default, indent=1))
        else:
            from .metrics.report import format_report

            print(format_report(ev))
        return 0
    except (UsageError, EvaluationError) as err:
        print(f"{PROG}: error: {err}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader went away (`... | head`): stop quietly, as other tools do
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so the interpreter's final flush does not fail again
        return 1


def run() -> int:
    """Run the command line as the `fsrs-calibration` program; return the exit status.

    The process ends right after: the garbage collector is frozen first, which spares the
    interpreter's final collections over everything Anki's modules created (about 60 ms).
    """
    status = main()
    gc.freeze()
    return status


if __name__ == "__main__":
    sys.exit(run())
