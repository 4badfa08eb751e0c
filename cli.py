"""The `fsrs-calibration` command: evaluate FSRS on a collection file (always on a temporary copy)."""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib
import json
import math
import os
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, NoReturn

from .bundled import addon_version
from .metrics import formatting as fmt
from .metrics import gate, interrupts
from .metrics.collection_file import copy_collection, damage_text, is_damage
from .metrics.errors import EvaluationError
from .metrics.options import (
    BINNINGS,
    WEIGHTINGS,
    Options,
    parse_anki_version,
    parse_models,
    parse_params_text,
    short_term_floor_rating,
)
from .metrics.safefile import check_target
from .optimizer import anki_trainer
from .scratch import run_folder

if TYPE_CHECKING:
    from .metrics.collection import CollectionData
    from .metrics.evaluate import Evaluation

# The engine (numpy and the metrics) is imported while the collection opens (see opened_copy).
ENGINE = ("metrics.collection", "metrics.evaluate", "metrics.report", "metrics.compare", "metrics.dataset",
          "metrics.diagnose")  # fmt: skip

PROG = "fsrs-calibration"


class UsageError(Exception):
    """A mistake in the command line or its files; printed as one line, exit status 2."""


class Parser(argparse.ArgumentParser):
    """argparse's parser, whose mistakes are a UsageError (one line) instead of the usage text and an exit."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see {self.prog} --help).")


def progress_printer(args: argparse.Namespace, end: str = "") -> Callable[[str], None] | None:
    """Return what prints progress lines on stderr: nothing with --json or when stderr is not a terminal."""
    if args.json or not sys.stderr.isatty():
        return None
    return lambda text: print(text + end, file=sys.stderr)


def open_collection(path: str) -> Any:
    """Return an anki Collection opened on `path` (a temporary copy)."""
    from anki.collection import Collection

    try:
        return Collection(path)
    except Exception as err:  # the backend's DBError, schema too new, ...
        if is_damage(err):
            raise
        raise UsageError(f"cannot open the collection: {err}") from None


def anki_version() -> str:
    """Return the version of the installed anki package, e.g. "26.09.3"."""
    try:
        from anki.buildinfo import version

        return str(version)
    except Exception:
        return ""


def parse_params_option(value: str, clamp: bool = False) -> str | list[float]:
    """Return "preset", "default" or the list of numbers given to --params (checked against Anki's ranges)."""
    if value.strip() in ("preset", "default"):
        return value.strip()
    return parse_params_text(value, clamp=clamp)


def options_from(args: argparse.Namespace, anki: str | None) -> Options:
    """Return the evaluation options of the command line (the same-day rule of the given Anki)."""
    options = Options(
        params=parse_params_option(args.params, clamp=args.clamp_params),
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
    """Yield (collection, data of --search/--deck) on a temporary copy in this run's scratch folder, removed afterwards.

    `before_read` runs just before the revlog is read (a query that releases the GIL for a while).
    """
    with run_folder() as workdir:
        stop = threading.Event()
        with ThreadPoolExecutor(max_workers=1) as pool:
            try:
                copying = pool.submit(copy_collection, args.collection, workdir, stop)  # SQLite copies without the GIL
                import anki.collection  # noqa: F401  (while anki imports)

                copy = copying.result()
                engine = pool.submit(import_engine)  # numpy and the engine import while Anki opens the copy
                col = open_collection(copy)
            except BaseException:
                stop.set()  # an interrupted copy stops at its next step
                raise
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
    check_target(args.out, [args.collection], args.force)  # before the long read; checked again when written
    whole = args.deck is None and not (args.search or "").strip()
    # pyarrow's first use (for the optional parquet copy) overlaps the revlog query, which releases the GIL
    warm_up = threading.Thread(target=_prepare_parquet, name="parquet warm-up")
    try:
        data = read_scope(args, with_durations=True, before_read=warm_up.start)
        from .metrics.dataset import build_tables, write_zip

        tables = build_tables(data, whole_collection=whole)
        del data  # the revlog arrays are not needed while the zip is written
        if tables.rows()["revlogs"] == 0:
            raise UsageError("No reviews to export in this scope (cards need a learning step).")
        meta = {"addon_version": addon_version(), "anki_version": anki_version()}
        write_zip(tables, args.out, meta, protected=[args.collection], force=args.force)
    finally:
        # Never left running: a thread inside pyarrow's C++ code when the interpreter exits is stopped by
        # a forced unwind that pyarrow swallows, and the process aborts ("FATAL: exception not rethrown").
        if warm_up.is_alive() and not interrupts.interrupted_by():  # interrupted: the process ends at once
            warm_up.join()
    rows = tables.rows()
    return f"Wrote {args.out}: {rows['revlogs']:,} reviews of {rows['cards']:,} cards in {rows['decks']:,} decks."


def _prepare_parquet() -> None:
    """Import and warm up pyarrow's parquet writer (in the export's background thread)."""
    from .metrics.dataset import prepare_parquet

    prepare_parquet()


def run_compare(args: argparse.Namespace) -> Any:
    """Return the comparison the `compare` subcommand asks for (Anki's optimizer for out-of-sample FSRS)."""
    options = options_from(args, anki_version())
    models = parse_models(args.models)
    progress = progress_printer(args)
    with opened_copy(args, with_intervals="anki-interval" in models) as (col, data):
        from .metrics.compare import compare, fold_plan, may_train_first, train_folds, trains_first

        if "fsrs-out-of-sample" in models and may_train_first(data):
            plan = fold_plan(data)
            sizes = plan.sizes
            if trains_first(sizes):
                # A large collection: the trainings run first, one at a time, with the collection's
                # arrays put aside in this run's folder (5M reviews: 1.9 GiB at peak otherwise).
                step = "Training FSRS on the reviews before each test part, one part at a time"
                with _put_aside(data, col, progress, step) as load:
                    del data
                    largest = plan.encode()  # with the arrays put aside (184 MB at 5M reviews)
                    del plan
                    trained = train_folds(largest, sizes, anki_trainer(col))
                    del largest
                    # read back straight into compare, which lets go of them once replayed
                    return compare(load(), options, None, models, progress=progress, trained=trained)
            requests = (plan.encode(), sizes)
            del plan
            return compare(data, options, anki_trainer(col), models, progress=progress, share_cpu_by_size=True,
                           requests=requests)  # fmt: skip
        return compare(data, options, anki_trainer(col), models, progress=progress, share_cpu_by_size=True)


@contextlib.contextmanager
def _put_aside(data: Any, col: Any, progress: Any, step: str) -> Iterator[Any]:
    """Say `step`, write `data` to a file in the run's scratch folder (beside `col`'s copy) and shrink
    SQLite's page cache; yield a call that reads the data back.

    The caller drops its own reference meanwhile, so the arrays' memory is free until read back.
    """
    import pickle

    if progress is not None:
        progress(step)
    path = os.path.join(os.path.dirname(col.path), "collection-arrays.pickle")
    try:
        with open(path, "xb") as f:
            pickle.dump(data, f, protocol=5)
    except OSError as err:
        with contextlib.suppress(OSError):
            os.unlink(path)
        raise UsageError(f"Cannot write a temporary file in {os.path.dirname(path)} ({err.strerror}); "
                         "free some space in the temporary folder and try again.") from None  # fmt: skip
    del data
    gc.collect()
    col.db.execute("pragma shrink_memory")  # SQLite's page cache of the read (about 40 MB at 5M reviews)

    def load() -> Any:
        """Read the data back and remove the file (it is not needed twice: /tmp may be held in memory)."""
        try:
            with open(path, "rb") as f:
                return pickle.load(f)
        finally:
            os.unlink(path)

    try:
        yield load
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)


def run_diagnose(args: argparse.Namespace) -> Any:
    """Return the diagnosis of the scope ("What to do"), with Anki's own health check per preset."""
    options = Options(short_term_floor_rating=short_term_floor_rating(anki_version()))  # each card's preset
    progress = progress_printer(args, "…")
    with opened_copy(args) as (col, data):
        from .metrics.diagnose import diagnose, health_check_plan, health_checks_first
        from .metrics.gate import give_back_memory
        from .optimizer import anki_health_check

        check = anki_health_check(col)
        plan = health_check_plan(data)
        if health_checks_first(plan):
            # A large collection: Anki's health checks (each a training) run first, one at a time, with the
            # collection's arrays put aside in this run's folder (5M reviews: 1.5 GiB at peak otherwise).
            step = "Running Anki's health check of each preset first, one at a time"
            with _put_aside(data, col, progress, step) as load:
                del data
                checked = {}
                # in a thread of their own: Anki's training leaves the calling thread's heap so that our
                # replay afterwards peaked 200 MB higher (measured: 5M reviews, 1,068 against 864 MiB)
                with ThreadPoolExecutor(max_workers=1) as pool:
                    for name, _cost in plan:
                        checked[name] = pool.submit(check, name).result()
                        give_back_memory()
                data = load()
            check = checked.get
        return diagnose(data, check, options, progress=progress, trainer=anki_trainer(col))


def format_diagnosis(diagnosis: Any) -> str:
    """Return the plain-text list of findings: verdict, scope, summary, what to do and why."""
    lines = []
    for f in diagnosis.findings:
        lines.append(f"[{f.verdict}] {f.id} — {f.scope}: {f.summary}")
        if f.action:
            lines.append(f"    What to do: {f.action}")
        if f.why:
            lines.append(f"    Why: {f.why}")
    return "\n".join(lines)


def format_comparison(cmp: Any, given_params: bool = False) -> str:
    """Return the plain-text table of a comparison (`given_params`: fsrs-preset used the --params given)."""
    lines = [
        f"Compared on {fmt.count(cmp.reviews_compared)} of {fmt.count(cmp.reviews_total)} scored reviews "
        "(the parts a time-series split tests: every review after the first sixth).",
        "",
        f"{'model':<20} {'log loss':>9} {'95% interval':>17} {'RMSE (bins)':>12} {'AUC':>6} {'UM+ max':>8}",
    ]
    for name, m in cmp.models.items():
        ump = [v for v in cmp.um_plus[name].values() if v is not None]
        lines.append(
            f"{name:<20} {fmt.log_loss(m.log_loss):>9} {fmt.interval(*m.log_loss_ci):>17} {fmt.rmse(m.rmse_bins):>12}"
            f" {fmt.auc(m.auc):>6} {fmt.log_loss(max(ump) if ump else None):>8}"
        )
    if given_params:
        lines += ["", "fsrs-preset: FSRS with the parameters given with --params (not the presets')."]
    from .metrics.advice import comparison_advice

    lines += [""] + comparison_advice(cmp)
    return "\n".join(lines)


def run_evaluate_dataset(args: argparse.Namespace) -> Evaluation:
    """Return the evaluation of an export zip or an anki-revlogs-10k folder (numpy only, no anki)."""
    from .metrics.dataset_read import read_tables
    from .metrics.evaluate import evaluate_tables

    options = options_from(args, parse_anki_version(args.anki_version))
    return evaluate_tables(read_tables(args.source, args.user), options)


def run_to_parquet(args: argparse.Namespace) -> str:
    """Convert an export (CSV, as made inside Anki) into the benchmark's parquet folder; return a summary."""
    from .metrics.dataset import write_parquet_folder
    from .metrics.dataset_read import read_tables

    tables = read_tables(args.source, args.user)
    user = args.user if args.user is not None else 0
    write_parquet_folder(tables, args.folder, user, force=args.force)
    rows = tables.rows()
    return (
        f"Wrote {args.folder}/{{revlogs,cards,decks}}/user_id={user}/data.parquet: {rows['revlogs']:,} reviews, "
        f"{rows['cards']:,} cards, {rows['decks']:,} decks. srs-benchmark reads it with --data {args.folder}."
    )


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
    parser = Parser(prog=PROG, description="How well does FSRS predict your memory?")
    sub = parser.add_subparsers(dest="command", required=True)
    ev = sub.add_parser("evaluate", help="score FSRS's predictions on a collection's revlog")
    ev.add_argument("collection", help="path to collection.anki2 (read through a temporary copy)")
    _scope_arguments(ev)
    _option_arguments(ev, params_default="preset")
    ex = sub.add_parser("export", help="write anonymized review data in the FSRS benchmark's format (a zip)")
    ex.add_argument("collection", help="path to collection.anki2 (read through a temporary copy)")
    ex.add_argument("out", help="the zip file to write (an existing file only with --force)")
    _scope_arguments(ex)
    ex.add_argument("--force", action="store_true", help="replace OUT if it exists (never the collection itself)")
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
    dg = sub.add_parser("diagnose", help="what to do: findings about your FSRS set-up, with their evidence")
    dg.add_argument("collection", help="path to collection.anki2 (read through a temporary copy)")
    _scope_arguments(dg)
    dg.add_argument("--json", action="store_true", help="print one JSON object")
    tp = sub.add_parser("to-parquet", help="convert an export zip (CSV) into the benchmark's parquet folder")
    tp.add_argument("source", help="an export zip, or a folder with revlogs/ cards/ decks/")
    tp.add_argument("folder", help="the folder to write: FOLDER/revlogs/user_id=N/data.parquet, cards, decks")
    tp.add_argument("--user", type=int, help="which user_id partition (when the source holds several)")
    tp.add_argument("--force", action="store_true", help="replace parquet files that exist already")
    return parser


def _scope_arguments(parser: argparse.ArgumentParser) -> None:
    scope = parser.add_mutually_exclusive_group()
    scope.add_argument("--search", help="an Anki search, e.g. 'preset:\"Default\" -is:suspended'")
    scope.add_argument("--deck", help="a deck name (its subdecks included)")


def _option_arguments(parser: argparse.ArgumentParser, params_default: str) -> None:
    parser.add_argument(
        "--params", default=params_default, help="preset (each card's preset), default, or W0,W1,... (17/19/21)"
    )
    parser.add_argument(
        "--clamp-params",
        action="store_true",
        help="clip numbers given to --params into Anki's ranges (as Anki does) instead of refusing them",
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


class OutputError(Exception):
    """Standard output cannot be written (a full disk, a device error)."""


def emit(text: str) -> None:
    """Print `text` and flush it now, so that a write error surfaces here and not at exit."""
    try:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as err:
        raise OutputError(f"cannot write the output: {err.strerror or err}.") from None


def _silence_stdout() -> None:
    """Point standard output at the null device, so the interpreter's final flush cannot fail again."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (2 for any user error, with one line on stderr).

    Ctrl-C (and SIGTERM, under `run`) stops it with one line and status 130: every temporary file is
    gone by then (the scratch folder, a half-written export).
    """
    args: argparse.Namespace | None = None
    try:
        args = build_parser().parse_args(argv)
        emit(run_command(args))
        return 0
    except (UsageError, EvaluationError, OutputError) as err:
        return _fail(str(err), isinstance(err, OutputError))
    except BrokenPipeError:  # the reader went away (`... | head`): stop quietly, as other tools do
        _silence_stdout()
        return 1
    except KeyboardInterrupt:
        print(f"{PROG}: cancelled; nothing was written.", file=sys.stderr)
        return 130
    except Exception as err:
        if not is_damage(err):
            raise
        return _fail(f"{getattr(args, 'collection', '')}: {damage_text(str(err))}")


def _fail(message: str, output: bool = False) -> int:
    """Print `message` as the one error line (control characters shown escaped); return status 2."""
    print(f"{PROG}: error: {one_line(message)}", file=sys.stderr)
    if output:
        _silence_stdout()
    return 2


def one_line(text: str) -> str:
    """Return `text` with line breaks, escape codes and other control characters shown escaped (a path or
    a deck name may hold them: the error stays one line and cannot drive the terminal)."""
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


def run_command(args: argparse.Namespace) -> str:
    """Run the subcommand of `args`; return what it prints on standard output."""
    if args.command == "export":
        return run_export(args)
    if args.command == "to-parquet":
        return run_to_parquet(args)
    if args.command == "diagnose":
        diagnosis = run_diagnose(args)
        return _json(diagnosis.to_dict()) if args.json else format_diagnosis(diagnosis)
    if args.command == "compare":
        cmp = run_compare(args)
        if args.json:
            return _json(dict(_clean(cmp.to_dict()), params=parse_params_option(args.params, args.clamp_params)))
        return format_comparison(cmp, args.params.strip() != "preset")
    ev = run_evaluate(args) if args.command == "evaluate" else run_evaluate_dataset(args)
    if args.json:
        return _json(ev.to_dict())
    from .metrics.report import format_report

    return format_report(ev)


def _json(obj: Any) -> str:
    return json.dumps(_clean(obj), default=_json_default, indent=1)


def run() -> int:
    """Run the command line as the `fsrs-calibration` program; return the exit status.

    The process ends right after: the garbage collector is frozen first, which spares the
    interpreter's final collections over everything Anki's modules created (about 60 ms). After
    an interruption it ends at once (a training thread still running has nothing to leave behind).
    """
    interrupts.install()
    gate.TRIM_AFTER_JOBS = True  # a command's own process: freed heap goes back after each training
    status = main()
    gc.freeze()
    if status == 130:
        with contextlib.suppress(Exception):
            sys.stderr.flush()
        os._exit(status)
    _join_threads()
    return status


def _join_threads(timeout: float = 30.0) -> None:
    """Wait for the threads still running (daemon ones too), each up to `timeout` seconds: a thread that is
    inside C++ code (pyarrow, Anki's backend) when the interpreter exits can abort the process."""
    for thread in threading.enumerate():
        if thread is not threading.current_thread() and thread.is_alive():
            thread.join(timeout)


if __name__ == "__main__":
    sys.exit(run())
