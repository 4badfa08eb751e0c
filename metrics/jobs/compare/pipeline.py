"""Comparisons on the same reviews: FSRS (preset, default, out-of-sample), SM-2, Anki's interval, AVG, MOVING-AVG.

Every model predicts the same scored reviews; they are compared on the reviews that the time-series
split tests (everything after the first sixth, in time order), since the out-of-sample FSRS and AVG
can only predict those. The stages: the entries in time order and their folds (folds.py); the folds'
trainings started in threads; the other models meanwhile (models.py); each trained fold's
predictions collected; the scores (scores.py). A large collection's staging (train the folds first,
alone, with the collection's arrays put aside) is jobs/plan.py's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ...errors import EvaluationError
from ...explain import formatting as fmt
from ...explain.lang import _, text
from ...kinds import MODELS
from ...read.collection import CollectionData
from ..gate import replay_cost, settle
from ..job import Job
from ..options import Options
from . import models as model
from .folds import N_SPLITS, Entries, FoldTrainings, Trainer, time_ordered
from .result import ComparedReviews, Comparison
from .scores import Tested, scores, tested, universal


@dataclass(frozen=True)
class CompareInput:
    """What to compare, with its defaults (as fsrs-rs's ComputeParametersInput).

    `trainer`: Anki's optimizer (needed for "fsrs-out-of-sample" unless its folds come trained, see
    `Prepared`). `share_cpu_by_size` lowers the CPU priority of the smaller out-of-sample trainings
    (Linux), so that on few cores they end with the largest; for a process that ends afterwards (the
    CLI). Without `scores` (for callers that test the predictions themselves, with `keep_predictions`),
    the comparison holds the predictions only: no models' scores, superiority or UM.
    """

    options: Options = field(default_factory=Options)
    trainer: Trainer | None = None
    models: Sequence[str] = MODELS
    folds: int = N_SPLITS
    keep_predictions: bool = False
    scores: bool = True
    share_cpu_by_size: bool = False
    cut_ms: int | None = None  # one fold split at this time, instead of `folds` time-series folds


@dataclass(frozen=True)
class Prepared:
    """What jobs/plan.py did before the comparison: the folds' requests encoded (`requests`: the largest
    fold's request and each fold's length), or their parameters trained already (`trained`, per fold)."""

    requests: tuple[bytes, list[int]] | None = None
    trained: list[list[float]] | None = None


class _Stage:
    """The comparison under way: its entries, what the scores need of them, the predictions so far."""

    def __init__(self, entries: Entries, t: Tested, preds: dict[str, np.ndarray]) -> None:
        self._entries: Entries | None = entries
        self.tested = t
        self.preds = preds

    @property
    def entries(self) -> Entries:
        """Return the entries (until `let_go`)."""
        assert self._entries is not None
        return self._entries

    def let_go(self) -> Entries:
        """Return the entries and keep no reference to them: the caller's is the last (memory)."""
        entries, self._entries = self.entries, None
        return entries


def compare(
    data: CollectionData, inp: CompareInput | None = None, job: Job | None = None, prepared: Prepared | None = None
) -> Comparison:
    """Return the models' scores on the same reviews of `data` (read with_intervals for anki-interval).

    `job`: cancel, progress and the memory gate shared with the caller's other work. `prepared`: from
    jobs/plan.py only. Our own work (replays, predictions, scores) counts in the memory gate beside the
    trainings, until the other models are done.
    """
    inp = inp or CompareInput()
    _check_input(inp, prepared)
    run = (job or Job()).part()
    main = run.hold_until_released(replay_cost(data.revlog.card.size))
    trainings = FoldTrainings(inp.folds, inp.options.short_term_floor_rating, run)
    try:
        if prepared is not None and prepared.trained is not None:  # no training to start first
            stage = _stage(data, inp, run, preset_first=True)
            _check_prepared(prepared, len(stage.entries.parts))
            del data  # nothing below reads the collection's arrays: a caller that handed them over gets them back
            settle()
            if "fsrs-out-of-sample" in inp.models:
                trainings.given(prepared.trained, stage.entries)
        else:
            stage = _stage(data, inp, run, preset_first=False)
            _check_prepared(prepared, len(stage.entries.parts))
            if "fsrs-out-of-sample" in inp.models and inp.trainer is not None:
                requests = prepared.requests if prepared is not None else None
                prepared = None  # the trainings alone hold the largest request: freed once they have ended
                trainings.train(inp.trainer, stage.entries, requests, inp.share_cpu_by_size)
                del requests
            if "fsrs-preset" in inp.models:
                stage.preds.update(model.checked_preset(*model.preset(data, inp.options, run), stage.entries))
        floor = inp.options.short_term_floor_rating
        stage.preds.update(model.without_training(stage.entries, stage.tested.y, inp.models, floor, run))
        main.release()  # the other models are done: their memory is free for the trainings
        folds = trainings.collect(stage.entries.sel.size, stage.tested.start)
    finally:
        run.end()  # trainings still waiting for memory give up (a finished comparison needs none)
        main.release()
        trainings.close()
    return _result(stage, inp, folds)


def _check_input(inp: CompareInput, prepared: Prepared | None) -> None:
    """Raise EvaluationError for an unknown model, or an out-of-sample FSRS with no way to train it."""
    unknown = [m for m in inp.models if m not in MODELS]
    if unknown:
        raise EvaluationError(
            text(
                "Unknown model {model}; choose from {models}.",
                model=fmt.name(repr(unknown[0])),
                models=", ".join(MODELS),
            )
        )
    trained = prepared is not None and prepared.trained is not None
    if "fsrs-out-of-sample" in inp.models and inp.trainer is None and not trained:
        raise EvaluationError(_("The out-of-sample FSRS needs Anki's optimizer."))


def _check_prepared(prepared: Prepared | None, parts: int) -> None:
    """Raise EvaluationError when what was prepared is not for this many folds."""
    if prepared is not None and prepared.trained is not None and len(prepared.trained) != parts:
        raise EvaluationError(f"{len(prepared.trained)} folds' parameters given for {parts} folds.")
    if prepared is not None and prepared.requests is not None and len(prepared.requests[1]) != parts:
        raise EvaluationError(f"{len(prepared.requests[1])} folds' requests given for {parts} folds.")


def _stage(data: CollectionData, inp: CompareInput, job: Job, preset_first: bool) -> _Stage:
    """Return the comparison's entries, what its scores need and the models that read `data` itself:
    Anki's intervals, and with `preset_first` the presets' FSRS (replayed before the comparison's own
    entries exist: memory)."""
    first = None
    if preset_first and "fsrs-preset" in inp.models:
        first = model.preset(data, inp.options, job)
        settle()
    entries = time_ordered(data, inp.folds, inp.cut_ms)
    t = tested(data.home_deck, entries, inp.options.binning)
    preds = model.anki_interval(data, entries, inp.models)
    if first is not None:
        preds.update(model.checked_preset(*first, entries))
    return _Stage(entries, t, preds)


def _result(
    stage: _Stage, inp: CompareInput, folds: tuple[list[list[float]], np.ndarray, np.ndarray] | None
) -> Comparison:
    """Return the comparison of the stage's predictions (the out-of-sample FSRS's from `folds`)."""
    sorted_by = {}
    fold_params: list[list[float]] = []
    if folds is not None:
        fold_params, stage.preds["fsrs-out-of-sample"], sorted_by["fsrs-out-of-sample"] = folds
    preds = {m: stage.preds[m] for m in MODELS if m in inp.models and m in stage.preds}
    t, entries = stage.tested, stage.let_go()
    n, reviews = entries.sel.size, int(t.compared_y.size)
    compared = _compared(entries, t, preds) if inp.keep_predictions else None
    del entries  # the scores need none of them (memory)
    if not inp.scores:
        return Comparison({}, {}, {}, {}, n, reviews, fold_params, compared)
    results, won = scores(preds, t, sorted_by)
    um = universal(preds, t)
    return Comparison(results, won, um["um"], um["um_plus"], n, reviews, fold_params, compared)


def _compared(entries: Entries, t: Tested, preds: dict[str, np.ndarray]) -> ComparedReviews:
    """Return the compared reviews with every model's predictions of them (in time order)."""
    test, reviews = entries.sel[t.start :], entries.reviews
    return ComparedReviews(
        y=t.compared_y,
        card=reviews.card[test],
        delta_t=reviews.delta_t[test],
        n_reviews=reviews.n_reviews[test],
        n_lapses=reviews.n_lapses[test],
        revlog_id=reviews.revlog_id[test],
        predictions={m: p[t.start :] for m, p in preds.items()},
    )
