"""The command line's arguments: the parser (its mistakes are one line), and the options they ask for."""

from __future__ import annotations

import argparse
import re
from typing import NoReturn

from ..metrics.errors import EvaluationError
from ..metrics.jobs.options import BINNINGS, WEIGHTINGS, Options, short_term_floor_rating
from ..metrics.kinds import MODELS
from ..metrics.models.ranges import parse_params_text

PROG = "fsrs-calibration"


class UsageError(Exception):
    """A mistake in the command line or its files; printed as one line, exit status 2."""


class Parser(argparse.ArgumentParser):
    """argparse's parser, whose mistakes are a UsageError (one line) instead of the usage text and an exit."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see {self.prog} --help).")


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


def parse_anki_version(text: str | None) -> str | None:
    """Return the Anki version as given (e.g. "25.07", "26.09.3", "26.05b2"), or raise EvaluationError."""
    if text is None:
        return None
    if not re.fullmatch(r"\s*\d{1,4}\.\d{1,3}(\.\d{1,3})?([a-z]{1,5}\d{0,3})?\s*", text):
        raise EvaluationError(f"--anki-version: {text!r} is not an Anki version (e.g. 25.07, 26.09.3 or 2.1.66).")
    return text.strip()


def parse_models(text: str | None) -> list[str]:
    """Return the models named in a comma-separated list (all of them for None); raise for unknown or repeated ones."""
    if text is None:
        return list(MODELS)
    names = [m.strip() for m in text.split(",")]
    if not any(names):
        raise EvaluationError(f"--models: name at least one of {', '.join(MODELS)}.")
    seen: list[str] = []
    for name in names:
        if not name:
            raise EvaluationError(f"--models: {text!r} has an empty name; separate the models with single commas.")
        if name not in MODELS:
            raise EvaluationError(f"--models: unknown model {name!r}; choose from {', '.join(MODELS)}.")
        if name in seen:
            raise EvaluationError(f"--models: {name} is named twice.")
        seen.append(name)
    return seen


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
    dg.add_argument(
        "--history",
        metavar="FILE",
        help="a JSON file of past diagnoses: say what changed since the last one of this scope, then add this one",
    )
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
