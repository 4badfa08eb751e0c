"""The `fsrs-calibration` command: evaluate FSRS on a collection file (always on a temporary copy)."""

from __future__ import annotations

import argparse
import json
import math
import os
import pathlib
import shutil
import sqlite3
import sys
import tempfile
from collections.abc import Sequence
from typing import Any

from .metrics.binning import BINNINGS
from .metrics.errors import EvaluationError
from .metrics.evaluate import WEIGHTINGS, Evaluation, Options, evaluate
from .metrics.params import parse_params_text, short_term_floor_rating
from .metrics.report import format_report

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


def run_evaluate(args: argparse.Namespace) -> Evaluation:
    """Return the evaluation the `evaluate` subcommand asks for."""
    from .metrics.collection import deck_search, read_collection

    options = Options(
        params=parse_params_option(args.params),
        weighting=args.weighting,
        binning=args.binning,
        same_day=args.same_day,
        short_term_floor_rating=short_term_floor_rating(anki_version()),
    )
    options.validate()
    workdir = tempfile.mkdtemp(prefix="fsrs-calibration-")
    try:
        col = open_collection(copy_collection(args.collection, workdir))
        try:
            if args.deck is not None:
                data = read_collection(col, deck_search(col, args.deck), scope_label=f'deck "{args.deck}"')
            else:
                data = read_collection(col, args.search)
        finally:
            col.close(downgrade=False)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return evaluate(data, options)


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
    scope = ev.add_mutually_exclusive_group()
    scope.add_argument("--search", help="an Anki search, e.g. 'preset:\"Default\" -is:suspended'")
    scope.add_argument("--deck", help="a deck name (its subdecks included)")
    ev.add_argument("--params", default="preset", help="preset (each card's preset), default, or W0,W1,... (17/19/21)")
    ev.add_argument("--weighting", choices=WEIGHTINGS, default="uniform")
    ev.add_argument("--binning", choices=sorted(BINNINGS), default="benchmark")
    ev.add_argument(
        "--same-day",
        choices=("auto", "keep", "drop"),
        default="auto",
        help="same-day repeats in the history: keep (FSRS-5/6), drop (FSRS-4.5); auto by parameter count",
    )
    ev.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (2 for any user error, with one line on stderr)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "evaluate":
            ev = run_evaluate(args)
            if args.json:
                print(json.dumps(_clean(ev.to_dict()), default=_json_default, indent=1))
            else:
                print(format_report(ev))
        return 0
    except (UsageError, EvaluationError) as err:
        print(f"{PROG}: error: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
