"""Evaluation: collection arrays in, log loss / RMSE (bins) / AUC / calibration (overall and per deck) out."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from typing import TYPE_CHECKING

import numpy as np

from ..errors import Cancelled, EvaluationError
from ..explain import formatting as fmt
from ..explain.lang import N_, _, text
from ..explain.newer import left_out_line
from ..models.fsrs import replay
from ..models.params import to_fsrs6
from ..read.collection import CollectionData, ignore_before_ms
from ..read.revlog_table import stable_order
from ..reviews.presets import card_presets
from ..reviews.revlog import Reviews, build_reviews, finish_reviews, run_starts
from ..score.binning import FeatureBin, bin_keys, breakdown, categories, difficulty_codes, overdue_codes, rmse_bins
from ..score.calibration import Calibration, calibration_table
from ..score.over_time import MonthScores, by_month
from ..score.scores import auc, log_loss, recency_weights
from ..score.where import BinError, bin_errors, largest_error
from .options import BINNINGS, DEFAULT_OPTIONS, Options

if TYPE_CHECKING:
    from ..read.dataset_layout import Tables

NO_REVIEWS = N_(
    "No reviews to score in this scope: FSRS is scored on reviews of cards that have a "
    "learning step and at least one later review on another day."
)
MISSING_PRESET = N_("(missing preset)")  # the name of a preset the collection does not hold
ALL_CARDS = N_("(all cards)")  # the one set of parameters of every card (given, or the defaults)


@dataclass(frozen=True)
class Scores:
    """The numbers for one group of scored reviews."""

    reviews: int
    cards: int
    log_loss: float
    rmse_bins: float
    auc: float | None
    retention: float  # measured: share of scored reviews answered Hard/Good/Easy
    mean_predicted: float


@dataclass(frozen=True)
class DeckScores:
    """Scores of the cards whose home deck is this deck (subdecks not included)."""

    deck_id: int
    name: str
    scores: Scores
    calibration: Calibration
    preset: str = ""  # the deck's preset name (empty for a dataset, which has none)


@dataclass(frozen=True)
class ParamSource:
    """Which parameters a group of cards was evaluated with."""

    preset: str
    source: str  # fsrsParams6 / fsrsParams5 / fsrsWeights / defaults / given
    length: int
    same_day: str  # keep or drop
    cards: int


@dataclass(frozen=True)
class Scored:
    """The scored reviews in time order, with everything a chart needs (arrays)."""

    p: np.ndarray
    y: np.ndarray
    weight: np.ndarray
    delta_t: np.ndarray
    n_reviews: np.ndarray
    n_lapses: np.ndarray
    card_id: np.ndarray
    deck_id: np.ndarray
    revlog_id: np.ndarray
    bin_key: np.ndarray
    difficulty: np.ndarray | None = None  # FSRS difficulty before the review (1-10)
    scheduled: np.ndarray | None = None  # the interval Anki had scheduled, in days (None: not read)


@dataclass(frozen=True)
class Evaluation:
    """The result of one evaluation."""

    overall: Scores
    calibration: Calibration
    decks: list[DeckScores]
    params: list[ParamSource]
    options: Options
    notes: list[str] = field(default_factory=list)
    scored: Scored | None = None
    by_feature: dict[str, list[FeatureBin]] = field(default_factory=dict)  # interval, reviews, lapses
    over_time: list[MonthScores] = field(default_factory=list)  # per calendar month (collections only)
    where: dict[str, list[BinError]] = field(default_factory=dict)  # by_feature's bins with their intervals
    where_worst: BinError | None = None  # the largest miscalibration beyond chance (None: none)

    def to_dict(self) -> dict[str, object]:
        """Return the JSON object of the CLI's --json (arrays left out)."""
        out: dict[str, object] = asdict(self.overall)
        out.update(
            weighting=self.options.weighting,
            binning=self.options.binning,
            same_day=self.options.same_day,
            params_choice=self.options.params if isinstance(self.options.params, str) else "given",
            calibration=[asdict(b) for b in self.calibration.bins],
            calibration_summary=_summary(self.calibration),
            decks=[
                {
                    "deck_id": d.deck_id,
                    "name": d.name,
                    "preset": d.preset,
                    **asdict(d.scores),
                    "calibration": [asdict(b) for b in d.calibration.bins],
                    "calibration_summary": _summary(d.calibration),
                }
                for d in self.decks
            ],
            params=[asdict(p) for p in self.params],
            by_feature={k: [asdict(b) for b in v] for k, v in self.by_feature.items()},
            over_time=[asdict(m) for m in self.over_time],
            notes=list(self.notes),
        )
        return out


def _summary(calibration: Calibration) -> dict[str, object]:
    """Return the calibration's fit, R², MAE and Brier numbers without its bins."""
    return {k: v for k, v in calibration.to_dict().items() if k != "bins"}


def score(p: np.ndarray, y: np.ndarray, w: np.ndarray, keys: np.ndarray, cards: np.ndarray) -> Scores:
    """Return the scores of predictions p for outcomes y with weights w and bin keys."""
    return Scores(
        reviews=int(p.size),
        cards=int(np.count_nonzero(np.bincount(cards))) if cards.size else 0,
        log_loss=log_loss(p, y, w),
        rmse_bins=rmse_bins(p, y, w, keys),
        auc=auc(p, y),  # a ranking measure: every review counts once, whatever the weighting
        retention=float(np.mean(y)) if p.size else math.nan,
        mean_predicted=float(np.mean(p)) if p.size else math.nan,
    )


def _weights(n: int, weighting: str) -> np.ndarray:
    """Return the review weights in time order."""
    return recency_weights(n) if weighting == "recency" else np.ones(n)


def card_ignore_before(data: CollectionData, card_preset: np.ndarray | None = None) -> np.ndarray:
    """Return each card's ignore-before time in ms (its preset's ignoreRevlogsBeforeDate, 0 when unset)."""
    card_preset = card_presets(data) if card_preset is None else card_preset
    if card_preset.size == 0:
        return np.zeros(0, dtype=np.int64)
    preset_ids, preset_of_card = np.unique(card_preset, return_inverse=True)
    ignore_of_preset = np.array([ignore_before_ms(data.presets.get(i)) for i in preset_ids.tolist()], dtype=np.int64)
    return ignore_of_preset[preset_of_card.reshape(-1)]


def evaluate(
    data: CollectionData, options: Options = DEFAULT_OPTIONS, should_stop: Callable[[], bool] | None = None
) -> Evaluation:
    """Return the evaluation of FSRS on the scope read into `data`.

    `should_stop` is polled between stages (and replay steps); when it returns True the
    evaluation raises Cancelled.
    """
    (scored, card), sources, notes = _predict_collection(data, options, should_stop)
    ev = _summarize(scored, card, options, data.deck_names, sources, notes, should_stop)
    # by calendar month of the review (a revlog id is its time in ms): predicted against measured over time
    months = by_month(scored.revlog_id, scored.p, scored.y, scored.weight, scored.bin_key)
    ev = replace(ev, over_time=months)
    preset_names = {pid: p.name for pid, p in data.presets.items()}
    ev.decks[:] = [replace(d, preset=preset_names.get(data.deck_preset.get(d.deck_id, -1), "")) for d in ev.decks]
    return ev


def predict(
    data: CollectionData, options: Options = DEFAULT_OPTIONS, should_stop: Callable[[], bool] | None = None
) -> Scored:
    """Return the reviews `evaluate` scores, with FSRS's predictions, without scoring them (the same arrays)."""
    return _predict_collection(data, options, should_stop)[0][0]


@dataclass
class _ParamSets:
    """The parameter sets of an evaluation: one per preset in use, or one for all cards."""

    sets: list[np.ndarray] = field(default_factory=list)
    drop_same_day: list[bool] = field(default_factory=list)  # per set
    sources: list[ParamSource] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def add(self, params: np.ndarray, drop: bool, source: ParamSource) -> int:
        """Add a set; return its index."""
        self.sets.append(params)
        self.drop_same_day.append(drop)
        self.sources.append(source)
        return len(self.sets) - 1


def _drops_same_day(options: Options, length: int) -> bool:
    """Return whether same-day repeats leave the history of parameters with `length` values."""
    return options.same_day == "drop" or (options.same_day == "auto" and length == 17)


def _preset_sets(
    data: CollectionData, options: Options, card_preset: np.ndarray, has_history: np.ndarray
) -> tuple[_ParamSets, np.ndarray]:
    """Return each preset's parameters (presets of cards with a history) and each card's set."""
    out = _ParamSets()
    set_of_card = np.zeros(data.card_ids.size, dtype=np.int64)
    for preset_id in np.unique(card_preset[has_history]).tolist():
        preset = data.presets.get(preset_id)
        raw = preset.params if preset else []
        name = preset.name if preset else _(MISSING_PRESET)
        drop = _drops_same_day(options, len(raw))
        members = card_preset == preset_id
        source = ParamSource(
            name,
            preset.params_key if preset and raw else "defaults",
            len(raw) or 21,
            "drop" if drop else "keep",
            int(np.count_nonzero(members & has_history)),
        )
        where = text('Preset "{preset}"', preset=fmt.name(name))
        set_of_card[members] = out.add(to_fsrs6(raw, where=where), drop, source)
        if not raw:
            said = text(
                'Preset "{preset}" has no FSRS parameters of its own; its cards use the defaults.',
                preset=fmt.name(name),
            )
            out.notes.append(said)
    return out, set_of_card


def _given_set(options: Options, n_cards: int, with_history: int) -> tuple[_ParamSets, np.ndarray]:
    """Return the one set of all `n_cards` cards (`with_history` of them with reviews): the given parameters
    or the defaults."""
    out = _ParamSets()
    given: list[float | str] = [] if options.params == "default" else list(options.params)
    drop = _drops_same_day(options, len(given))
    source = ParamSource(
        _(ALL_CARDS), "given" if given else "defaults", len(given) or 21, "drop" if drop else "keep", with_history
    )
    out.add(to_fsrs6(given, where=_("The given parameters") if given else "defaults"), drop, source)
    return out, np.zeros(n_cards, dtype=np.int64)


def _predict_collection(
    data: CollectionData, options: Options, should_stop: Callable[[], bool] | None
) -> tuple[tuple[Scored, np.ndarray], list[ParamSource], list[str]]:
    """Return the scored reviews of a collection with their predictions (and each one's card index), the
    parameters' sources and notes."""
    options.validate()
    n_cards = data.card_ids.size
    card_preset = card_presets(data)
    has_history = np.zeros(n_cards, dtype=bool)
    has_history[data.revlog.card] = True
    if not has_history.any():
        raise EvaluationError(_(NO_REVIEWS))
    if isinstance(options.params, str) and options.params == "preset":
        sets, set_of_card = _preset_sets(data, options, card_preset, has_history)
    else:
        sets, set_of_card = _given_set(options, n_cards, int(np.count_nonzero(has_history)))
    if not data.fsrs_enabled:
        sets.notes.append(_("FSRS is switched off in this collection; the numbers show how FSRS would have predicted."))
    sets.notes[:0] = [left_out_line(x.preset, x.model, x.cards) for x in data.left_out]  # named first
    ignore = card_ignore_before(data, card_preset)
    drop = np.array(sets.drop_same_day, dtype=bool)[set_of_card] if n_cards else np.zeros(0, dtype=bool)
    if should_stop is not None and should_stop():
        raise Cancelled()
    scored = _predict_reviews(
        build_reviews(data.revlog, data.next_day_at, ignore, drop),  # held only there: freed after the replay
        np.stack(sets.sets),
        set_of_card,
        options,
        data.card_ids,
        data.home_deck,
        should_stop,
        data.revlog.ivl,
    )
    return scored, sets.sources, sets.notes


def _predict_reviews(
    reviews: Reviews,
    param_sets: np.ndarray,
    set_of_card: np.ndarray,
    options: Options,
    card_ids: np.ndarray,
    home_deck: np.ndarray,
    should_stop: Callable[[], bool] | None,
    ivl: np.ndarray | None = None,
) -> tuple[Scored, np.ndarray]:
    """Return the scored reviews in time order with FSRS's predictions, and each one's card index into
    card_ids (shared by collections and datasets); with the revlog's `ivl`, each one's scheduled interval."""
    if should_stop is not None and should_stop():
        raise Cancelled()
    if not reviews.scored.any():
        raise EvaluationError(_(NO_REVIEWS))
    seg_card = reviews.card[reviews.first]
    predicted = replay(
        reviews.rating,
        reviews.delta_t,
        reviews.first,
        param_sets,
        options.short_term_floor_rating,
        param_index=set_of_card[seg_card],
        should_stop=should_stop,
    )

    sel = np.flatnonzero(reviews.scored)
    sel = sel[np.argsort(reviews.revlog_id[sel], kind="stable")]  # time order, as Anki sorts items
    card = reviews.card[sel]
    p = predicted.retrievability[sel]
    y = (reviews.rating[sel] > 1).astype(np.float64)
    delta_t, n_rev, n_lapse = reviews.delta_t[sel], reviews.n_reviews[sel], reviews.n_lapses[sel]
    revlog_id = reviews.revlog_id[sel]
    difficulty = predicted.difficulty_before[sel] if predicted.difficulty_before is not None else None
    scheduled = _scheduled(reviews, sel, ivl)
    del reviews, predicted, sel  # the per-entry arrays are no longer needed
    keys = bin_keys(delta_t, n_rev, n_lapse, BINNINGS[options.binning])
    scored = Scored(
        p=p,
        y=y,
        weight=_weights(p.size, options.weighting),
        delta_t=delta_t,
        n_reviews=n_rev,
        n_lapses=n_lapse,
        card_id=card_ids[card],
        deck_id=home_deck[card],
        revlog_id=revlog_id,
        bin_key=keys,
        difficulty=difficulty,
        scheduled=scheduled,
    )
    return scored, card


def _more_features(scored: Scored) -> dict[str, list[FeatureBin]]:
    """Return the bins of FSRS difficulty at the review and of lateness (when the scheduled intervals were read)."""
    out = {}
    if scored.difficulty is not None:
        out["difficulty"] = categories("difficulty", difficulty_codes(scored.difficulty), scored.p, scored.y, 1)
    if scored.scheduled is not None:
        codes = overdue_codes(scored.delta_t, scored.scheduled)
        out["overdue"] = categories("overdue", codes, scored.p, scored.y)
    return out


def _scheduled(reviews: Reviews, sel: np.ndarray, ivl: np.ndarray | None) -> np.ndarray | None:
    """Return the interval Anki had scheduled before each selected (scored, so never first) entry: the
    `ivl` written by the card's previous kept entry, in days (a learning step's, in seconds, counts as 1)."""
    if ivl is None or reviews.row is None:
        return None
    days = ivl[reviews.row[sel - 1]]
    return np.where(days > 0, days, 1).astype(np.int64)


def _summarize(
    scored: Scored,
    card: np.ndarray,
    options: Options,
    deck_names: dict[int, str],
    sources: list[ParamSource],
    notes: list[str],
    should_stop: Callable[[], bool] | None,
) -> Evaluation:
    """Return the evaluation of scored reviews (`card`: their card indexes): overall, per deck, calibration,
    by feature."""

    def check() -> None:
        if should_stop is not None and should_stop():
            raise Cancelled()

    p, y, w, keys, deck = scored.p, scored.y, scored.weight, scored.bin_key, scored.deck_id
    delta_t, n_rev, n_lapse = scored.delta_t, scored.n_reviews, scored.n_lapses
    overall = score(p, y, w, keys, card)
    deck_scores = []
    deck_ids, deck_group = np.unique(deck, return_inverse=True)
    order = stable_order(deck_group.reshape(-1))
    bounds = np.concatenate(([0], np.cumsum(np.bincount(deck_group))))
    for j, did in enumerate(deck_ids.tolist()):
        check()
        idx = order[bounds[j] : bounds[j + 1]]  # time order kept (stable sort)
        s = score(p[idx], y[idx], _weights(idx.size, options.weighting), keys[idx], card[idx])
        name = deck_names[int(did)] if int(did) in deck_names else text("(deck {deck_id})", deck_id=did)
        deck_scores.append(DeckScores(int(did), name, s, calibration_table(p[idx], y[idx])))
    deck_scores.sort(key=lambda d: d.name.lower())
    by_feature = breakdown(delta_t, n_rev, n_lapse, p, y, BINNINGS[options.binning])
    by_feature.update(_more_features(scored))
    return Evaluation(
        overall=overall,
        calibration=calibration_table(p, y),
        decks=deck_scores,
        params=sources,
        options=options,
        notes=notes,
        scored=scored,
        by_feature=by_feature,
        where={name: bin_errors(rows) for name, rows in by_feature.items()},
        where_worst=largest_error(by_feature),
    )


def evaluate_tables(
    tables: Tables, options: Options = DEFAULT_OPTIONS, should_stop: Callable[[], bool] | None = None
) -> Evaluation:
    """Return the evaluation of FSRS on benchmark-format tables (an export or anki-revlogs-10k).

    Each card's history is its revlogs rows in time order from its learning start (state 0);
    elapsed_days is delta_t. The tables carry no parameters: use default or given ones.
    """
    options.validate()
    if isinstance(options.params, str) and options.params == "preset":
        raise EvaluationError(_("A dataset holds no presets' parameters: use --params default or a list of numbers."))
    rl, cards = tables.revlogs, tables.cards
    if rl["card_id"].size == 0:
        raise EvaluationError(_(NO_REVIEWS))
    order = stable_order(rl["card_id"])  # rows are in time order: keep it within each card
    card_id = rl["card_id"][order]
    card_ids, card = np.unique(card_id, return_inverse=True)
    card = card.reshape(-1).astype(np.int32)
    first = run_starts(card)
    delta_t = np.where(first | (rl["state"][order] == 0), 0, np.maximum(rl["elapsed_days"][order], 0))
    sets, set_of_card = _given_set(options, card_ids.size, int(card_ids.size))
    reviews = finish_reviews(
        card,
        order.astype(np.int64),
        rl["rating"][order].astype(np.int32),
        delta_t.astype(np.int32),
        first,
        np.full(card_ids.size, sets.drop_same_day[0]),
    )
    deck_of_card = dict(zip(cards["card_id"].tolist(), cards["deck_id"].tolist(), strict=True))
    home = np.array([deck_of_card.get(c, -1) for c in card_ids.tolist()], dtype=np.int64)
    names = {int(d): text("deck {deck_id}", deck_id=d) for d in np.unique(home).tolist()}  # a dataset's decks: ids
    scored, card = _predict_reviews(reviews, np.stack(sets.sets), set_of_card, options, card_ids, home, should_stop)
    return _summarize(scored, card, options, names, sets.sources, [], should_stop)
