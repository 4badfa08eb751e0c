"""The `fsrs-calibration` subcommands: evaluate, export, compare, diagnose, evaluate-dataset, to-parquet."""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import sys
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

from ..bundled import addon_version
from ..metrics.errors import EvaluationError
from ..metrics.explain import formatting as fmt
from ..metrics.explain.lang import _, text
from ..metrics.export import interrupts
from ..metrics.export.safefile import check_target
from ..metrics.export.scratch import sweep
from ..metrics.jobs import gate
from ..metrics.jobs.options import Options, short_term_floor_rating
from ..metrics.read.anki_backend import anki_trainer
from ..metrics.read.collection_file import damage_text, is_damage
from .arguments import (
    PROG,
    UsageError,
    anki_version,
    build_parser,
    options_from,
    parse_anki_version,
    parse_models,
    parse_params_option,
)
from .copy import opened_copy, put_aside, read_scope
from .output import OutputError, clean, emit, fail, silence_stdout, to_json

if TYPE_CHECKING:
    from ..metrics.jobs.compare import Comparison
    from ..metrics.jobs.diagnose.diagnosis import Diagnosis
    from ..metrics.jobs.evaluate import Evaluation


def progress_printer(args: argparse.Namespace, end: str = "") -> Callable[[str], None] | None:
    """Return what prints progress lines on stderr: nothing with --json or when stderr is not a terminal."""
    if args.json or not sys.stderr.isatty():
        return None
    return lambda text: print(text + end, file=sys.stderr)


def run_evaluate(args: argparse.Namespace) -> Evaluation:
    """Return the evaluation the `evaluate` subcommand asks for."""
    options = options_from(args, anki_version())
    data = read_scope(args, with_intervals=True)
    from ..metrics.jobs.evaluate import evaluate

    return evaluate(data, options)


def run_export(args: argparse.Namespace) -> str:
    """Write the benchmark-format zip of the scope; return a one-paragraph summary."""
    check_target(args.out, [args.collection], args.force)  # before the long read; checked again when written
    whole = args.deck is None and not (args.search or "").strip()
    # pyarrow's first use (for the optional parquet copy) overlaps the revlog query, which releases the GIL
    warm_up = threading.Thread(target=_prepare_parquet, name="parquet warm-up")
    try:
        data = read_scope(args, with_durations=True, before_read=warm_up.start, all_models=True)
        from ..metrics.export.dataset import build_tables, write_zip

        tables = build_tables(data, whole_collection=whole)
        del data  # the revlog arrays are not needed while the zip is written
        if tables.rows()["revlogs"] == 0:
            raise UsageError(_("No reviews to export in this scope (cards need a learning step)."))
        meta = {"addon_version": addon_version(), "anki_version": anki_version()}
        write_zip(tables, args.out, meta, protected=[args.collection], force=args.force)
    finally:
        # Never left running: a thread inside pyarrow's C++ code when the interpreter exits is stopped by
        # a forced unwind that pyarrow swallows, and the process aborts ("FATAL: exception not rethrown").
        if warm_up.is_alive() and not interrupts.interrupted_by():  # interrupted: the process ends at once
            warm_up.join()
    rows = tables.rows()
    return text(
        "Wrote {path}: {reviews} reviews of {cards} cards in {decks} decks.",
        path=args.out,
        reviews=fmt.count(rows["revlogs"]),
        cards=fmt.count(rows["cards"]),
        decks=fmt.count(rows["decks"]),
    )


def _prepare_parquet() -> None:
    """Import and warm up pyarrow's parquet writer (in the export's background thread)."""
    from ..metrics.export.dataset import prepare_parquet

    prepare_parquet()


def run_compare(args: argparse.Namespace) -> Comparison:
    """Return the comparison the `compare` subcommand asks for (Anki's optimizer for out-of-sample FSRS)."""
    options = options_from(args, anki_version())
    models = parse_models(args.models)
    progress = progress_printer(args)
    with opened_copy(args, with_intervals="anki-interval" in models) as (col, data):
        from ..metrics.explain.progress import in_words
        from ..metrics.jobs.compare import CompareInput
        from ..metrics.jobs.job import Job
        from ..metrics.jobs.plan import Handed, plan_compare

        handed = Handed(data)  # a large collection's arrays are let go while its folds train (jobs/plan.py)
        del data
        inp = CompareInput(options, anki_trainer(col), models, share_cpu_by_size=True)
        # a large collection's arrays are put aside in this run's folder (5M reviews: 1.9 GiB at peak otherwise)
        return plan_compare(handed, inp, Job(progress=in_words(progress)), lambda d: put_aside(d, col, None, ""))


def run_diagnose(args: argparse.Namespace) -> Diagnosis:
    """Return the diagnosis of the scope ("What to do"), with Anki's own health check per preset."""
    options = Options(short_term_floor_rating=short_term_floor_rating(anki_version()))  # each card's preset
    progress = progress_printer(args, "…")
    history = _history(args)  # before the long work: a file that cannot be read is said at once
    with opened_copy(args, with_intervals=True) as (col, data):  # the intervals: how late each review came
        from ..metrics.jobs.diagnose import diagnose, health_check_plan, health_checks_first
        from ..metrics.jobs.diagnose.snapshot import appended, last_for
        from ..metrics.jobs.gate import give_back_memory
        from ..metrics.read.anki_backend import anki_health_check

        check = anki_health_check(col)
        plan = health_check_plan(data)
        if health_checks_first(plan):
            # A large collection: Anki's health checks (each a training) run first, one at a time, with the
            # collection's arrays put aside in this run's folder (5M reviews: 1.5 GiB at peak otherwise).
            step = _("Running Anki's health check of each preset first, one at a time")
            with put_aside(data, col, progress, step) as load:
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
        last = last_for(history, data.scope) if history else None
        dg = diagnose(data, check, options, progress=progress, trainer=anki_trainer(col), last=last)
    if args.history:
        from ..metrics.export.history_file import write_history
        from ..metrics.export.safefile import collection_files

        write_history(args.history, appended(history, dg.snapshot), protected=collection_files(args.collection))
    return dg


def _history(args: argparse.Namespace) -> list[dict[str, object]]:
    """Return the past diagnoses recorded in --history's file ([] without one)."""
    from ..metrics.read.history_file import read_history

    return read_history(args.history) if args.history else []


def run_evaluate_dataset(args: argparse.Namespace) -> Evaluation:
    """Return the evaluation of an export zip or an anki-revlogs-10k folder (numpy only, no anki)."""
    from ..metrics.jobs.evaluate import evaluate_tables
    from ..metrics.read.dataset import read_tables

    options = options_from(args, parse_anki_version(args.anki_version))
    return evaluate_tables(read_tables(args.source, args.user), options)


def run_to_parquet(args: argparse.Namespace) -> str:
    """Convert an export (CSV, as made inside Anki) into the benchmark's parquet folder; return a summary."""
    from ..metrics.export.dataset import write_parquet_folder
    from ..metrics.read.dataset import read_tables

    tables = read_tables(args.source, args.user)
    user = args.user if args.user is not None else 0
    write_parquet_folder(tables, args.folder, user, force=args.force)
    rows = tables.rows()
    return text(
        "Wrote {path}: {reviews} reviews, {cards} cards, {decks} decks. srs-benchmark reads it with --data {folder}.",
        path=f"{args.folder}/{{revlogs,cards,decks}}/user_id={user}/data.parquet",
        reviews=fmt.count(rows["revlogs"]),
        cards=fmt.count(rows["cards"]),
        decks=fmt.count(rows["decks"]),
        folder=args.folder,
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (2 for any user error, with one line on stderr).

    Ctrl-C (and SIGTERM, under `run`) stops it with one line and status 130: every temporary file is
    gone by then (the scratch folder, a half-written export).
    """
    args: argparse.Namespace | None = None
    try:
        args = build_parser().parse_args(argv)
        sweep()  # every command removes what killed runs left behind
        emit(run_command(args))
        return 0
    except (UsageError, EvaluationError, OutputError) as err:
        return fail(str(err), isinstance(err, OutputError))
    except BrokenPipeError:  # the reader went away (`... | head`): stop quietly, as other tools do
        silence_stdout()
        return 1
    except KeyboardInterrupt:
        print(text("{program}: cancelled; nothing was written.", program=PROG), file=sys.stderr)
        return 130
    except Exception as err:
        if not is_damage(err):
            raise
        return fail(text("{path}: {problem}", path=getattr(args, "collection", ""), problem=damage_text(str(err))))


def run_command(args: argparse.Namespace) -> str:
    """Run the subcommand of `args`; return what it prints on standard output."""
    if args.command == "export":
        return run_export(args)
    if args.command == "to-parquet":
        return run_to_parquet(args)
    from ..metrics.report.text import format_comparison, format_diagnosis

    if args.command == "diagnose":
        diagnosis = run_diagnose(args)
        return to_json(diagnosis.to_dict()) if args.json else format_diagnosis(diagnosis)
    if args.command == "compare":
        cmp = run_compare(args)
        if args.json:
            from ..metrics.report.advice import comparison_advice

            params = parse_params_option(args.params, args.clamp_params)
            return to_json(dict(clean(cmp.to_dict()), guidance=comparison_advice(cmp), params=params))
        return format_comparison(cmp, args.params.strip() != "preset")
    ev = run_evaluate(args) if args.command == "evaluate" else run_evaluate_dataset(args)
    if args.json:
        return to_json(ev.to_dict())
    from ..metrics.report.text import format_report

    return format_report(ev)


def run() -> int:
    """Run the command line as the `fsrs-calibration` program; return the exit status.

    The process ends right after: the garbage collector is frozen first, which spares the
    interpreter's final collections over everything Anki's modules created (about 60 ms). After
    an interruption it ends at once (a training thread still running has nothing to leave behind).
    """
    interrupts.install()
    gate.TRIM_AFTER_JOBS = True  # a command's own process: freed heap goes back after each training
    status = main()
    interrupts.stop()  # the command has ended: a signal now changes nothing (no traceback while threads end)
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
