"""Comparisons on the same reviews: FSRS (preset, default, out-of-sample), SM-2, Anki's interval, AVG, MOVING-AVG.

Every model predicts the same scored reviews; they are compared on the reviews that the time-series
split tests (everything after the first sixth, in time order), since the out-of-sample FSRS and AVG
can only predict those. Out-of-sample FSRS trains, for each of the 5 folds, on the items before the
fold with a trainer the caller supplies (Anki's own optimizer), and predicts the fold with the replay.
"""

from __future__ import annotations

import math
import os
import sys
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any, TypeVar

import numpy as np

from ..errors import Cancelled, EvaluationError
from ..explain.advice import Score, advise
from ..models.baselines import average_by_fold, interval_recall, moving_average, revlog_interval_days, sm2_intervals
from ..models.catalog import MODELS
from ..models.fsrs import replay
from ..models.items import REQUEST_BYTES_PER_ENTRY, ItemEncoder, encode_in_parts, history_entries, segment_starts
from ..models.params import to_fsrs6
from ..read.collection import CollectionData
from ..reviews.revlog import Reviews, build_reviews, time_order
from ..score.binning import bin_keys, rmse_bins
from ..score.calibration import Calibration, calibration_table
from ..score.intervals import bootstrap_ci
from ..score.scores import auc, log_loss
from ..score.terms import clipped, log_loss_terms
from ..score.universal import matrices
from . import gate as memory
from .evaluate import NO_REVIEWS, card_ignore_before, predict
from .gate import MemoryGate, replay_cost, training_cost
from .options import BINNINGS, Options

N_SPLITS = 5
Trainer = Callable[[bytes], Sequence[float]]  # ComputeFsrsParamsFromItemsRequest bytes -> 21 parameters


@dataclass(frozen=True)
class ModelScores:
    """One model's numbers on the compared reviews."""

    name: str
    reviews: int
    log_loss: float
    log_loss_ci: tuple[float, float]  # bootstrap 95% interval (reviews resampled)
    rmse_bins: float
    auc: float | None
    calibration: Calibration


@dataclass(frozen=True)
class Comparison:
    """Models side by side: scores, deck-by-deck superiority, UM and UM+ matrices, plain-words guidance."""

    models: dict[str, ModelScores]
    superiority: dict[str, dict[str, float | None]]  # share of decks where row beats column on log loss
    um: dict[str, dict[str, float | None]]
    um_plus: dict[str, dict[str, float | None]]
    reviews_total: int
    reviews_compared: int
    fold_params: list[list[float]] = field(default_factory=list)
    guidance: list[str] = field(default_factory=list)
    # With keep_predictions: "y" (answers), "card" (card index), the binning features ("delta_t",
    # "n_reviews", "n_lapses"), "revlog_id" and each model's predictions of the compared reviews, in time order
    # (for paired tests and pooled scores); empty otherwise.
    compared: dict[str, np.ndarray] = field(default_factory=dict, repr=False)

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON object of `fsrs-calibration compare --json`."""
        models = {}
        for name, m in self.models.items():
            d = asdict(m)
            d["calibration"] = [asdict(b) for b in m.calibration.bins]
            models[name] = d
        return {
            "models": models,
            "superiority": self.superiority,
            "um": self.um,
            "um_plus": self.um_plus,
            "um_plus_max": {a: _max(row) for a, row in self.um_plus.items()},
            "reviews_total": self.reviews_total,
            "reviews_compared": self.reviews_compared,
            "fold_params": self.fold_params,
            "guidance": self.guidance,
        }


def _max(row: dict[str, float | None]) -> float | None:
    values = [v for v in row.values() if v is not None]
    return max(values) if values else None


def _settle() -> None:
    """Hand the memory freed so far back to the system (the command line only: see gate.TRIM_AFTER_JOBS):
    without it, the heap keeps what large temporaries freed, and the peak adds them up."""
    if memory.TRIM_AFTER_JOBS:
        memory.give_back_memory()


def _preset_note(options: Options) -> str:
    return "FSRS with the given parameters" if options.params != "preset" else "FSRS with your presets' parameters"


def _time_ordered(data: CollectionData, folds: int) -> tuple[Reviews, np.ndarray, list[tuple[int, int]]]:
    """Return the kept entries in "keep" mode (what Anki trains on), the scored ones' indexes in time
    order, and the folds' test parts of those."""
    ignore = card_ignore_before(data)
    no_drop = np.zeros(data.card_ids.size, dtype=bool)
    reviews = build_reviews(data.revlog, data.next_day_at, ignore, no_drop)
    sel = np.flatnonzero(reviews.scored)
    read_rows = reviews.row[sel] if reviews.row is not None else None
    sel = sel[time_order(data.revlog, read_rows, reviews.revlog_id[sel])]  # scored reviews in time order
    parts = splits(sel.size, folds)
    if not parts:
        raise EvaluationError(f"{NO_REVIEWS} (Comparisons need at least 6 scored reviews.)")
    return reviews, sel, parts


@dataclass
class FoldPlan:
    """The folds' trainings before their requests are encoded: the encoder, the largest fold's items
    (entry indices) and each fold's request length (a prefix of the largest one's)."""

    encoder: ItemEncoder
    items: np.ndarray
    sizes: list[int]

    def encode(self, pool: Executor | None = None) -> bytes:
        """Return the optimizer's request for the largest fold's training set (two threads encode it:
        `pool`'s, or a pool of its own)."""
        if pool is not None:
            return encode_in_parts(self.encoder, self.items, pool)[0]
        with ThreadPoolExecutor(max_workers=2) as own:
            return encode_in_parts(self.encoder, self.items, own)[0]


def _plan(reviews: Reviews, sel: np.ndarray, parts: list[tuple[int, int]]) -> FoldPlan:
    """Return the folds' training plan of `_time_ordered`'s entries (the encoder keeps what it needs)."""
    encoder = ItemEncoder(reviews.rating, reviews.delta_t, reviews.first)
    items = sel[: parts[-1][0]]
    ends = encoder.item_ends(items)
    return FoldPlan(encoder, items, [int(ends[a - 1]) for a, _ in parts])


def fold_plan(data: CollectionData, folds: int = N_SPLITS) -> FoldPlan:
    """Return the folds' training plan: what `FoldPlan.encode` turns into the largest fold's request (the
    reviews before its test part, with their histories) and each fold's request length. Nothing of
    `data` is kept: the caller may let it go before encoding."""
    return _plan(*_time_ordered(data, folds))


def fold_requests(data: CollectionData, folds: int = N_SPLITS) -> tuple[bytes, list[int]]:
    """Return the optimizer's request for the largest fold's training set and each fold's request length."""
    plan = fold_plan(data, folds)
    return plan.encode(), plan.sizes


def may_train_first(data: CollectionData, gate: MemoryGate | None = None) -> bool:
    """Return False when the folds' trainings surely fit beside the comparison's other work (`trains_first`
    of an upper bound of the requests: every card's whole history); `fold_requests` tells exactly."""
    estimate = REQUEST_BYTES_PER_ENTRY * float(history_entries(data.revlog.card, data.card_ids.size).sum())
    return trains_first([int(estimate)] * N_SPLITS, gate)


def trains_first(sizes: list[int], gate: MemoryGate | None = None) -> bool:
    """Return True when the folds' trainings (requests of these sizes) together need more than half the
    memory gate's budget: then the command line trains them first, one at a time, with the collection's
    arrays put aside (at 5M reviews a comparison otherwise peaks at 1.9 GiB; 500,000 reviews stay below)."""
    return memory.one_at_a_time([training_cost(size) for size in sizes], gate)


def train_folds(largest: bytes, sizes: list[int], trainer: Trainer,
                should_stop: Callable[[], bool] | None = None) -> list[list[float]]:  # fmt: skip
    """Return each fold's parameters, trained one at a time (the largest first) on its prefix of `largest`:
    while nothing else of the comparison is in memory (compare(..., trained=) predicts with them)."""
    out: dict[int, list[float]] = {}
    _settle()  # what the caller freed before
    # In a thread of their own: a training leaves its thread's malloc heap so that the replays after it,
    # had it run in the caller's thread, peak about 200 MB higher at 5M reviews.
    with ThreadPoolExecutor(max_workers=1) as pool:
        for k in reversed(range(len(sizes))):
            if should_stop is not None and should_stop():
                raise Cancelled()
            request = largest if sizes[k] == len(largest) else largest[: sizes[k]]
            out[k] = [float(x) for x in pool.submit(trainer, request).result()]
            del request
            _settle()
    return [out[k] for k in range(len(sizes))]


def splits(n: int, n_splits: int = N_SPLITS) -> list[tuple[int, int]]:
    """Return fsrs-rs's time-series test parts [(start, end)]: segment n // 6, the last one to the end."""
    seg = n // (n_splits + 1)
    if seg == 0:
        return []
    return [((i + 1) * seg, n if i == n_splits - 1 else (i + 2) * seg) for i in range(n_splits)]


_T = TypeVar("_T")
_NICE_STEP_RATIO = 1.25  # Linux's scheduler gives a thread about 1.25x the CPU of one a nice level lower


def _train(
    trainer: Trainer,
    make_request: Callable[[], bytes],
    smaller: float,
    then: Callable[[list[float]], _T],
    gate: MemoryGate,
    cost: int,
    stop: Callable[[], bool],
) -> tuple[list[float], _T]:
    """Return (params = trainer(make_request()), then(params)), once `cost` bytes fit in the memory
    gate, run at a CPU priority lowered by log(smaller) / log(_NICE_STEP_RATIO) nice levels
    (restored afterwards where the system lets a thread raise its priority again).

    The request is made only when the training may start and dropped when it ends (a smaller fold's
    copy of the largest request's prefix), so trainings waiting for memory hold nothing of their own.
    With fewer cores than trainings, equal shares would finish the
    small trainings first and leave the largest one alone on one core at the end; shares in
    proportion to the training's work (the size of its request) make them finish together. Only
    Linux sets a thread's priority this way; elsewhere (and with smaller <= 1) it runs as is. Threads
    started meanwhile inherit the lowered priority, so callers inside a long-lived process (Anki)
    leave it off.
    """
    with gate.hold(cost, stop):
        steps = round(math.log(smaller) / math.log(_NICE_STEP_RATIO)) if smaller > 1 else 0
        tid, before = threading.get_native_id(), None
        if steps and sys.platform.startswith("linux"):
            try:
                before = os.getpriority(os.PRIO_PROCESS, tid)
                os.setpriority(os.PRIO_PROCESS, tid, before + steps)
            except OSError:
                before = None
        try:
            request = make_request()
            params = [float(x) for x in trainer(request)]
            del request
            return params, then(params)
        finally:
            if before is not None:
                try:
                    os.setpriority(os.PRIO_PROCESS, tid, before)  # back up: allowed only with CAP_SYS_NICE
                except OSError:
                    pass


def _predict(
    reviews: Reviews, rows: np.ndarray | slice, w: np.ndarray, floor: int, should_stop: Callable[[], bool] | None
) -> np.ndarray:
    """Return FSRS's predicted recall for the entries `rows` (whole card histories) with the parameters `w`."""
    first = reviews.first[rows]
    one_set = np.zeros(int(np.count_nonzero(first)), dtype=np.int64)
    r = replay(reviews.rating[rows], reviews.delta_t[rows], first, w[None, :], floor, one_set, should_stop)
    return r.retrievability


def histories_up_to(seg_start: np.ndarray, entries: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return (rows, at): the entries of the cards of `entries`, from each card's first (`seg_start` per
    entry) up to its last one in `entries`, in order (a replay of `rows` predicts them), and where each
    of `entries` is in `rows`.
    """
    last = np.sort(entries)
    last = last[np.append(seg_start[last[1:]] != seg_start[last[:-1]], True)]  # each card's last asked entry
    begin = seg_start[last]
    count = last - begin + 1
    rows = np.repeat(begin - (np.cumsum(count) - count), count) + np.arange(int(count.sum()))
    return rows, np.searchsorted(rows, entries)


def compare(
    data: CollectionData,
    options: Options | None = None,
    trainer: Trainer | None = None,
    models: Sequence[str] = MODELS,
    should_stop: Callable[[], bool] | None = None,
    progress: Callable[[str], None] | None = None,
    share_cpu_by_size: bool = False,
    keep_predictions: bool = False,
    folds: int = N_SPLITS,
    gate: MemoryGate | None = None,
    scores: bool = True,
    trained: list[list[float]] | None = None,
    requests: tuple[bytes, list[int]] | None = None,
) -> Comparison:
    """Return the models' scores on the same reviews of `data` (read with_intervals for anki-interval).

    `share_cpu_by_size` lowers the CPU priority of the smaller out-of-sample trainings (Linux), so
    that on few cores they end with the largest; for a process that ends afterwards (the CLI).
    Without `scores` (for callers that test the predictions themselves, with keep_predictions), the
    comparison holds the predictions only: no models' scores, superiority, UM or guidance.
    `trained`: each fold's parameters, already trained on its earlier reviews (`train_folds`); the
    out-of-sample model then predicts with them instead of training (no trainer needed).
    `requests`: the folds' optimizer requests, encoded already (`fold_requests`).
    """
    options = options or Options()
    unknown = [m for m in models if m not in MODELS]
    if unknown:
        raise EvaluationError(f"Unknown model {unknown[0]!r}; choose from {', '.join(MODELS)}.")
    if "fsrs-out-of-sample" in models and trainer is None and trained is None:
        raise EvaluationError("The out-of-sample FSRS needs Anki's optimizer.")

    def note(text: str) -> None:
        if progress is not None:
            progress(text)
        if should_stop is not None and should_stop():
            raise Cancelled()

    gate = gate or MemoryGate()
    aborted = threading.Event()

    def stop() -> bool:
        return aborted.is_set() or (should_stop is not None and should_stop())

    # Our own work (replays, predictions, scores) counts in the memory gate beside the trainings.
    main_cost = replay_cost(data.revlog.card.size)
    gate.acquire(main_cost, stop)
    main_held = [True]

    def release_main() -> None:
        if main_held:
            main_held.clear()
            gate.release(main_cost)

    try:  # until the pool's own try below: give the gate back on an error
        base_p = base_ids = None
        if trained is not None and "fsrs-preset" in models:  # no training to start first: replayed before
            note(_preset_note(options))  # the comparison's own entries exist (memory)
            base = predict(data, options, should_stop)
            base_p, base_ids = base.p, base.revlog_id
            del base
            _settle()
        reviews, sel, parts = _time_ordered(data, folds)
        n = sel.size
        if trained is not None and len(trained) != len(parts):
            raise EvaluationError(f"{len(trained)} folds' parameters given for {len(parts)} folds.")
        if requests is not None and len(requests[1]) != len(parts):
            raise EvaluationError(f"{len(requests[1])} folds' requests given for {len(parts)} folds.")
        y = (reviews.rating[sel] > 1).astype(np.float64)
        preds: dict[str, np.ndarray] = {}
        sorted_by: dict[str, np.ndarray] = {}  # a model's ordering of the compared reviews by prediction, if known

        # Compare on the tested parts only: the same reviews for every model (prepared while training runs).
        start = parts[0][0]
        test = sel[start:]
        yt = y[start:]
        binning = BINNINGS[options.binning]
        keys = bin_keys(reviews.delta_t[test], reviews.n_reviews[test], reviews.n_lapses[test], binning)
        deck_of_review = np.unique(data.home_deck[reviews.card[test]], return_inverse=True)[1].reshape(-1)
        if "anki-interval" in models:
            if data.revlog.ivl is None or reviews.row is None:
                raise EvaluationError("Read the collection with its intervals to compare with Anki's own intervals.")
            prev_row = reviews.row[sel - 1]  # the card's previous kept entry (a scored entry is never a card's first)
            scheduled = revlog_interval_days(data.revlog.ivl[prev_row])
            preds["anki-interval"] = interval_recall(reviews.delta_t[sel], scheduled)
            del prev_row, scheduled
        if base_p is not None:
            assert base_ids is not None and np.array_equal(base_ids, reviews.revlog_id[sel])
            preds["fsrs-preset"] = base_p
        if trained is not None:
            # Nothing below reads the collection's arrays: a caller that handed them over (the command
            # line, for a large collection) gets their memory back now.
            del data
            _settle()
    except BaseException:
        release_main()
        raise

    # Out-of-sample FSRS: the trainings run in threads (Anki's optimizer releases the GIL) while the
    # other models are computed here, as many at once as the memory gate admits: at 5M reviews one
    # fold's training alone holds about 750 MB, so the large folds run one by one.
    entries: dict[str, Any] = {"reviews": reviews, "sel": sel}  # dropped before the scores (memory)

    def predict_part(k: int, a: int, b: int) -> Callable[[list[float]], tuple[np.ndarray, np.ndarray]]:
        def predict(params: list[float]) -> tuple[np.ndarray, np.ndarray]:  # in the training's thread
            w = to_fsrs6(params, where=f"The optimizer's parameters for part {k + 1}")
            rows, at = histories_up_to(seg_start, entries["sel"][a:b])  # only the histories this part needs
            part = _predict(entries["reviews"], rows, w, options.short_term_floor_rating, should_stop)[at]
            return part, np.argsort(part)  # sorted here, the AUC only merges the parts' orders

        return predict

    pool = ThreadPoolExecutor(max_workers=max(1, folds))
    trainings: list[Any] = []  # per fold: a future of (params, (predictions, their order)), or a callable
    try:
        if "fsrs-out-of-sample" in models and trained is not None:  # trained already: predict afterwards
            seg_start = segment_starts(reviews.first)
            trainings = [(lambda k=k, a=a, b=b: (trained[k], predict_part(k, a, b)(trained[k])))
                         for k, (a, b) in enumerate(parts)]  # fmt: skip
        elif "fsrs-out-of-sample" in models and trainer is not None:
            note("Training FSRS on the reviews before each test part")
            # The items in time order: each part's training set is a prefix of the largest one's request,
            # encoded once (in two threads); a smaller one's copy is made only when its training starts.
            if requests is not None:  # encoded already (fold_requests)
                seg_start = segment_starts(reviews.first)
                largest, sizes = requests
                requests = None  # `largest` alone holds the bytes: freed once every training has ended
            else:
                plan = _plan(reviews, sel, parts)
                seg_start, sizes = plan.encoder.seg_start, plan.sizes
                largest = plan.encode(pool)
                del plan

            def request_of(size: int) -> Callable[[], bytes]:
                return lambda: largest if size == len(largest) else largest[:size]

            futures = {}
            for k in reversed(range(len(parts))):  # the largest (the longest to train) first
                size = sizes[k]
                smaller = len(largest) / size if share_cpu_by_size else 1.0  # the work grows with the size
                futures[k] = pool.submit(_train, trainer, request_of(size), smaller, predict_part(k, *parts[k]),
                                         gate, training_cost(size), stop)  # fmt: skip
            trainings = [futures[k] for k in range(len(parts))]

        if "fsrs-preset" in models and "fsrs-preset" not in preds:
            note(_preset_note(options))
            base = predict(data, options, should_stop)  # options.params: "preset" unless --params says otherwise
            assert np.array_equal(base.revlog_id, reviews.revlog_id[sel])
            preds["fsrs-preset"] = base.p
            del base  # its other per-review arrays (hundreds of MB at 5M reviews)
        if "fsrs-default" in models:
            note("FSRS with the default parameters")
            every = _predict(reviews, slice(None), to_fsrs6([]), options.short_term_floor_rating, should_stop)
            preds["fsrs-default"] = every[sel]
            del every
            _settle()

        if "sm2" in models:
            note("SM-2")
            first_of_day = reviews.first | (reviews.delta_t > 0)  # SM-2 sees one answer per day
            day = np.flatnonzero(first_of_day)
            ivl_day = sm2_intervals(reviews.rating[day], reviews.first[day])
            ivl = np.zeros(reviews.rating.size)
            ivl[day] = ivl_day
            preds["sm2"] = interval_recall(reviews.delta_t[sel], ivl[sel])
            del first_of_day, day, ivl_day, ivl
            _settle()

        starts = np.array([a for a, _ in parts])
        ends = np.array([b for _, b in parts])
        if "avg" in models:
            preds["avg"] = average_by_fold(y, starts, ends)
        if "moving-avg" in models:
            note("MOVING-AVG")
            preds["moving-avg"] = moving_average(y)
            _settle()

        release_main()  # the other models are done: their memory is free for the trainings
        fold_params: list[list[float]] = []
        if trainings:
            out = np.full(n, np.nan)
            runs = []
            for k, ((a, b), future) in enumerate(zip(parts, trainings, strict=True)):
                note(f"FSRS trained on the reviews before part {k + 1} of {len(parts)}")
                params, (out[a:b], part_order) = future() if callable(future) else future.result()
                fold_params.append(params)
                runs.append(part_order + (a - start))  # positions among the compared reviews
                _settle()
            preds["fsrs-out-of-sample"] = out
            largest = b""  # every training has ended
            merged = np.concatenate(runs)
            sorted_by["fsrs-out-of-sample"] = merged[np.argsort(out[start:][merged], kind="stable")]  # merges runs
    finally:
        aborted.set()  # trainings still waiting for memory give up (a finished comparison needs none)
        release_main()
        for future in trainings:
            if not callable(future):
                future.cancel()
        pool.shutdown(wait=True)
    preds = {m: preds[m] for m in MODELS if m in models and m in preds}
    compared = (
        {
            "y": yt,
            "card": reviews.card[test],
            "delta_t": reviews.delta_t[test],
            "n_reviews": reviews.n_reviews[test],
            "n_lapses": reviews.n_lapses[test],
            "revlog_id": reviews.revlog_id[test],
            **{m: p[start:] for m, p in preds.items()},
        }  # fmt: skip
        if keep_predictions
        else {}
    )
    del reviews, sel, test  # the entries: the scores need none of them (memory)
    entries.clear()
    if not scores:
        return Comparison({}, {}, {}, {}, n, int(yt.size), fold_params, [], compared)

    ones = np.ones(yt.size)
    results = {}
    deck_loss: dict[str, np.ndarray] = {}  # each model's summed log loss per deck (not its terms: memory)
    for name, p in preds.items():
        pt = clipped(p[start:])
        terms = log_loss_terms(pt, yt)
        deck_loss[name] = np.bincount(deck_of_review, weights=terms)
        results[name] = ModelScores(
            name=name, reviews=int(yt.size), log_loss=log_loss(pt, yt, ones), log_loss_ci=bootstrap_ci(terms),
            rmse_bins=rmse_bins(pt, yt, ones, keys), auc=auc(pt, yt, order=sorted_by.get(name)),
            calibration=calibration_table(pt, yt),
        )  # fmt: skip
    superiority = _superiority(deck_loss, np.bincount(deck_of_review))
    um = matrices({m: p[start:] for m, p in preds.items()}, yt)
    return Comparison(
        models=results,
        superiority=superiority,
        um=um["um"],
        um_plus=um["um_plus"],
        reviews_total=n,
        reviews_compared=int(yt.size),
        fold_params=fold_params,
        guidance=_guidance(results, int(yt.size)),
        compared=compared,
    )


def _superiority(loss: dict[str, np.ndarray], count: np.ndarray) -> dict[str, dict[str, float | None]]:
    """Return, for each pair, the share of decks where the row model's log loss is lower than the column's.

    `loss` is each model's summed log-loss terms per deck (0..n-1), `count` each deck's compared reviews.
    """
    per_deck = {name: total / np.maximum(count, 1) for name, total in loss.items()}
    out: dict[str, dict[str, float | None]] = {}
    for a in loss:
        out[a] = {b: None if a == b else float(np.mean(per_deck[a] < per_deck[b])) for b in loss}
    return out


def _guidance(results: dict[str, ModelScores], reviews: int) -> list[str]:
    """Return the plain-words advice of the comparison (metrics/advice.py: no more than the intervals allow)."""
    scores = {}
    for name, m in results.items():
        remembered = round(sum(b.count * b.mean_actual for b in m.calibration.bins))
        scores[name] = Score(name, m.log_loss, m.log_loss_ci, m.auc, m.reviews, remembered)
    return advise(scores, reviews)
