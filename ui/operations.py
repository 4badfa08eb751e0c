"""The dialog's background work, as Anki's own operations are written (qt/aqt/operations/deck.py): each
function returns a QueryOp. This is the only ui module that imports the engine's jobs. An `op` runs in a
worker and touches no widget and no dialog state: it gets plain inputs (the scope, the choices, the data
read before if any, the job's controls) and returns its result; `success` applies it on the main thread.

Inside a living Anki the learner keeps reviewing meanwhile, so no op may hold the collection for long:
- every op runs `without_collection()`: Anki runs the ops that use the collection one at a time, so an
  answered card (Anki's own op) would wait for the whole job; the collection's own lock still keeps each
  read whole, and the reads come in small chunks (LIVING_CHUNK_ROWS), each a short wait at most;
- Anki's health check, which trains while it holds the collection, runs in a private collection
  (metrics/read/health_apart.py); the trainings use Anki's backend, which holds no collection for them.
- `success` and `failure` reach the dialog only while it lives and the job is still its own (`Request.alive`):
  a dialog closed, or a profile switched, meanwhile gets nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generic, TypeVar

from aqt.operations import QueryOp
from aqt.qt import QWidget

from .job_status import Controls

if TYPE_CHECKING:
    from anki.collection import Collection

    from ..metrics.jobs.compare import Comparison
    from ..metrics.jobs.diagnose.diagnosis import Diagnosis
    from ..metrics.jobs.evaluate import Evaluation
    from ..metrics.jobs.options import Options
    from ..metrics.read.collection import CollectionData
    from ..metrics.read.dataset_layout import Tables

T = TypeVar("T")
R = TypeVar("R")  # a job's result: Evaluation, Comparison or Diagnosis


@dataclass(frozen=True)
class Scope:
    """A dialog scope: kind (collection, deck, preset, search) and its value."""

    kind: str
    value: str = ""
    cards: tuple[int, ...] = ()  # the "cards" scope's card ids (the Browser's selection)

    def key(self, col: Collection) -> tuple[str, int]:
        """Return the key of this scope's data: read again when the scope or the collection changed."""
        return f"{self.kind}:{self.value}:{hash(self.cards)}", int(col.mod)


@dataclass(frozen=True)
class Request:
    """What a job needs: where to report, the scope, the choices, and the scope's data read before (or None)."""

    parent: QWidget
    scope: Scope
    controls: Controls
    choices: dict[str, str] = field(default_factory=dict)
    anki_version: str = ""
    cached: CollectionData | None = None
    key: tuple[str, int] | None = None  # the scope's key when the job started (Scope.key)
    alive: Callable[[], bool] = lambda: True  # whether the dialog still wants this job's outcome
    kept: str | None = None  # the add-on's file of each preset's numbers (for Deck Options), or None


@dataclass(frozen=True)
class Done(Generic[R]):
    """An op's result, with the scope's data it read (for the dialog to keep for the next job), and what the
    learner should know about the add-on's own files (one plain line each)."""

    data: CollectionData
    result: R
    notes: tuple[str, ...] = ()


Failure = Callable[[Exception], None]
Starter = Callable[[Request, Callable[[Done[R]], None], Failure], QueryOp[Done[R]]]  # evaluate, compare, diagnose


def _query(req: Request, op: Callable[[Collection], T], success: Callable[[T], None], failure: Failure) -> QueryOp[T]:
    """Return the QueryOp of `op`: off Anki's queue of collection ops, its outcome only for a living dialog."""

    def succeeded(result: T) -> None:
        if req.alive():
            success(result)

    def failed(error: Exception) -> None:
        if req.alive():
            failure(error)

    return QueryOp(parent=req.parent, op=op, success=succeeded).failure(failed).without_collection()


def options(choices: dict[str, str], anki_version: str) -> Options:
    """Return the engine's Options for the dialog's choices on this Anki."""
    from ..metrics.jobs.options import Options, short_term_floor_rating

    return Options(**choices, short_term_floor_rating=short_term_floor_rating(anki_version))


def _scope_data(col: Collection | None, req: Request, with_durations: bool = False) -> CollectionData:
    """Return the scope's data: the one read before, else read now (in the worker). With `with_durations`
    (the export: review data, no predictions) the cards of presets on a newer FSRS are kept."""
    if req.cached is not None and not with_durations:
        return req.cached
    if col is None:  # the profile closed before the job began
        from ..metrics.errors import EvaluationError
        from ..metrics.explain.dialog import COLLECTION_CLOSED
        from ..metrics.explain.lang import _

        raise EvaluationError(_(COLLECTION_CLOSED))
    from ..metrics.read.collection import LIVING_CHUNK_ROWS, read_collection
    from ..metrics.read.scope import scope_search

    if req.scope.kind == "cards":  # by ids: no search string, however many cards
        import numpy as np

        from ..metrics.explain import formatting as fmt
        from ..metrics.explain.dialog import SELECTED_CARDS
        from ..metrics.explain.lang import text

        ids = np.array(sorted(req.scope.cards), dtype=np.int64)
        return read_collection(
            col,
            None,
            text(SELECTED_CARDS, count=fmt.count(int(ids.size))),
            with_durations=with_durations,
            with_intervals=True,
            chunk_rows=LIVING_CHUNK_ROWS,
            all_models=with_durations,
            card_ids=ids,
        )
    search, label = scope_search(col, req.scope.kind, req.scope.value)
    return read_collection(
        col,
        search,
        label,
        with_durations=with_durations,
        with_intervals=True,
        chunk_rows=LIVING_CHUNK_ROWS,
        all_models=with_durations,
    )


def _stop_if_cancelled(req: Request) -> None:
    if req.controls.should_stop():
        from ..metrics.errors import Cancelled

        raise Cancelled()


def evaluate(req: Request, success: Callable[[Done[Evaluation]], None], failure: Failure) -> QueryOp[Done[Evaluation]]:
    """Evaluate FSRS on the scope (numpy and the engine are first imported in the worker: about 0.1 s)."""

    def op(col: Collection) -> Done[Evaluation]:
        from ..metrics.jobs.evaluate import evaluate as run
        from .kept import keep

        data = _scope_data(col, req)
        _stop_if_cancelled(req)
        ev = run(data, options(req.choices, req.anki_version), should_stop=req.controls.should_stop)
        notes = keep(req.kept, req.scope, col.path, evaluation=ev, data=data)
        return Done(data, ev, tuple(notes))

    return _query(req, op, success, failure)


def compare(req: Request, success: Callable[[Done[Comparison]], None], failure: Failure) -> QueryOp[Done[Comparison]]:
    """Compare the models on the scope (trains FSRS five times with Anki's optimizer)."""

    def op(col: Collection) -> Done[Comparison]:
        from ..metrics.explain.progress import in_words
        from ..metrics.jobs.compare import CompareInput
        from ..metrics.jobs.job import Job
        from ..metrics.jobs.plan import plan_compare
        from ..metrics.read.anki_backend import anki_trainer

        data = _scope_data(col, req)
        inp = CompareInput(options(req.choices, req.anki_version), anki_trainer(col))
        job = Job(req.controls.should_stop, in_words(req.controls.report))
        return Done(data, plan_compare(data, inp, job))

    return _query(req, op, success, failure)


def diagnose(
    req: Request, history: str | None, success: Callable[[Done[Diagnosis]], None], failure: Failure
) -> QueryOp[Done[Diagnosis]]:
    """Diagnose the scope (runs Anki's health check per preset, apart: it trains). `history`: the add-on's
    file of past diagnoses of this profile (in its user files, never the collection): the last one of this
    scope is compared with, and this one is added."""

    def op(col: Collection) -> Done[Diagnosis]:
        from ..metrics.export.scratch import run_folder, sweep
        from ..metrics.jobs.diagnose import diagnose as run
        from ..metrics.jobs.diagnose.snapshot import last_for
        from ..metrics.read.anki_backend import anki_trainer
        from ..metrics.read.health_apart import apart_health_check
        from .kept import keep

        data = _scope_data(col, req)
        controls = req.controls
        past, notes = _past(history)
        sweep()  # private collections left by an Anki that was killed while it checked
        with run_folder() as folder:  # the private collections of Anki's health checks (removed afterwards)
            result = run(
                data,
                apart_health_check(col, data, _private_collection, folder, controls.should_stop),
                options({}, req.anki_version),  # each card's preset, the benchmark's choices
                should_stop=controls.should_stop,
                progress=controls.report,
                trainer=anki_trainer(col),
                last=last_for(past, data.scope) if past else None,
            )
        notes += _record(history, past, result, col.path)
        notes += keep(req.kept, req.scope, col.path, data=data, plan=result.plan)
        return Done(data, result, tuple(notes))

    return _query(req, op, success, failure)


def _private_collection(path: str) -> Collection:
    """Open (or create) a collection of the add-on's own, with a backend of its own (not the learner's)."""
    from anki.collection import Collection

    return Collection(path)


def prepare_export(req: Request, success: Callable[[Tables], None], failure: Failure) -> QueryOp[Tables]:
    """Build the benchmark tables of the scope (read again: with the review durations)."""

    def op(col: Collection) -> Tables:
        from ..metrics.export.dataset import build_tables

        data = _scope_data(col, req, with_durations=True)
        return build_tables(data, whole_collection=req.scope.kind == "collection")

    return _query(req, op, success, failure)


def save_export(
    req: Request, tables: Tables, path: str, success: Callable[[str], None], failure: Failure
) -> QueryOp[str]:
    """Write the prepared tables to `path` (whole or not at all; never over the collection)."""

    def op(col: Collection) -> str:
        from ..bundled import addon_version
        from ..metrics.export.dataset import write_zip

        meta = {"addon_version": addon_version(), "anki_version": req.anki_version}
        # the save dialog asked before replacing a file; the collection itself is never replaced
        write_zip(tables, path, meta, protected=[col.path], force=True)
        return path

    return _query(req, op, success, failure)


def _past(history: str | None) -> tuple[list[dict[str, object]] | None, list[str]]:
    """Return the past diagnoses (None without a file, or when it cannot be read: then it is left alone) and
    the line that says why it could not be read."""
    from ..metrics.explain import dialog as words
    from ..metrics.explain.lang import text
    from ..metrics.read.history_file import HistoryUnreadable, read_history

    if not history:
        return None, []
    try:
        return read_history(history), []
    except HistoryUnreadable as err:
        return None, [text(words.HISTORY_UNREADABLE, why=err.why, path=err.path)]


def _record(history: str | None, past: list[dict[str, object]] | None, result: Diagnosis, collection: str) -> list[str]:
    """Add this diagnosis to the history file (a file that could not be read is never replaced); return the
    line that says why it could not be written, if so."""
    from ..metrics.errors import EvaluationError
    from ..metrics.explain import dialog as words
    from ..metrics.explain.lang import text
    from ..metrics.export.history_file import write_history
    from ..metrics.jobs.diagnose.snapshot import appended

    if not history or past is None or result.snapshot is None:
        return []
    try:
        write_history(history, appended(past, result.snapshot), protected=[collection])
    except EvaluationError as err:
        return [text(words.HISTORY_UNWRITABLE, reason=err)]
    except OSError as err:  # the folder went read-only, the disk is full …
        return [text(words.HISTORY_UNWRITABLE, reason=f"{history}: {err.strerror or err}")]  # a path: an OS error
    return []
