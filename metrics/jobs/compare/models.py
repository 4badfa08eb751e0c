"""Every model but the out-of-sample FSRS: each predicts the comparison's time-ordered scored reviews.

FSRS with the presets' (or given) parameters, FSRS with the defaults, SM-2, Anki's own intervals, AVG
and MOVING-AVG. Each function returns {model name: predictions} (nothing for a model not asked for).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ...errors import EvaluationError
from ...kinds import Progress, Step
from ...models.baselines import average_by_fold, interval_recall, moving_average, revlog_interval_days, sm2_intervals
from ...models.params import to_fsrs6
from ...read.collection import CollectionData
from ..evaluate import predict
from ..gate import settle
from ..job import Job
from ..options import Options
from .folds import Entries, predict_rows

Predictions = dict[str, np.ndarray]


def preset(data: CollectionData, options: Options, job: Job) -> tuple[np.ndarray, np.ndarray]:
    """Return FSRS's predictions with the presets' parameters (options.params: "preset" unless --params
    says otherwise) of the reviews `evaluate` scores, and their revlog ids."""
    job.report(Progress(Step.PRESETS if options.params == "preset" else Step.GIVEN_PARAMS))
    base = predict(data, options, job.should_stop)
    return base.p, base.revlog_id  # not its other per-review arrays (hundreds of MB at 5M reviews)


def checked_preset(p: np.ndarray, revlog_id: np.ndarray, entries: Entries) -> Predictions:
    """Return the presets' predictions, checked to be of the comparison's own time-ordered reviews."""
    assert np.array_equal(revlog_id, entries.reviews.revlog_id[entries.sel])
    return {"fsrs-preset": p}


def anki_interval(data: CollectionData, entries: Entries, models: Sequence[str]) -> Predictions:
    """Return the recall Anki's own scheduled interval implies (read with_intervals), if asked for."""
    if "anki-interval" not in models:
        return {}
    reviews, sel = entries.reviews, entries.sel
    if data.revlog.ivl is None or reviews.row is None:
        raise EvaluationError("Read the collection with its intervals to compare with Anki's own intervals.")
    prev_row = reviews.row[sel - 1]  # the card's previous kept entry (a scored entry is never a card's first)
    scheduled = revlog_interval_days(data.revlog.ivl[prev_row])
    return {"anki-interval": interval_recall(reviews.delta_t[sel], scheduled)}


def fsrs_default(entries: Entries, floor: int, job: Job) -> Predictions:
    """Return FSRS's predictions with the default parameters."""
    job.report(Progress(Step.DEFAULTS))
    every = predict_rows(entries.reviews, slice(None), to_fsrs6([]), floor, job.should_stop)
    out = every[entries.sel]
    del every
    settle()
    return {"fsrs-default": out}


def sm2(entries: Entries, job: Job) -> Predictions:
    """Return the recall SM-2's intervals imply (SM-2 sees one answer per day)."""
    job.report(Progress(Step.SM2))
    reviews = entries.reviews
    first_of_day = reviews.first | (reviews.delta_t > 0)
    day = np.flatnonzero(first_of_day)
    ivl_day = sm2_intervals(reviews.rating[day], reviews.first[day])
    ivl = np.zeros(reviews.rating.size)
    ivl[day] = ivl_day
    out = interval_recall(reviews.delta_t[entries.sel], ivl[entries.sel])
    del first_of_day, day, ivl_day, ivl
    settle()
    return {"sm2": out}


def averages(y: np.ndarray, entries: Entries, models: Sequence[str], job: Job) -> Predictions:
    """Return AVG (each part predicted by the answers before it) and MOVING-AVG, those asked for."""
    out = {}
    if "avg" in models:
        starts, ends = np.array([a for a, _ in entries.parts]), np.array([b for _, b in entries.parts])
        out["avg"] = average_by_fold(y, starts, ends)
    if "moving-avg" in models:
        job.report(Progress(Step.MOVING_AVG))
        out["moving-avg"] = moving_average(y)
        settle()
    return out


def without_training(entries: Entries, y: np.ndarray, models: Sequence[str], floor: int, job: Job) -> Predictions:
    """Return the predictions of the models computed from the entries alone (defaults, SM-2, averages)."""
    out = {}
    if "fsrs-default" in models:
        out.update(fsrs_default(entries, floor, job))
    if "sm2" in models:
        out.update(sm2(entries, job))
    out.update(averages(y, entries, models, job))
    return out
