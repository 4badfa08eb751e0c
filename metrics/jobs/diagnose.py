"""What to do: findings about a learner's FSRS set-up, each with a verdict, its evidence and an action.

Arrays in, findings out (no Qt, no anki): Anki's own health check and optimizer come in as callables.
Every number a finding rests on carries a 95% interval and the count of reviews behind it; a finding
says `not-enough-data` rather than guess. Finding ids are fixed (others rely on them):
data, anki-health-check, parameters, hard-misuse, again-misuse, retention, decks, benchmark-standing.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from typing import Any

import numpy as np

from ..errors import Cancelled
from ..explain import formatting as fmt
from ..models.items import REQUEST_BYTES_PER_ENTRY, history_entries
from ..read.collection import CollectionData
from ..reviews.presets import card_presets, deck_presets
from ..reviews.subset import restrict
from ..score.binning import bin_keys, rmse_bins
from ..score.intervals import bootstrap_ci, normal_half_width, wilson
from ..score.scores import auc, log_loss
from ..score.standing import standing
from ..score.terms import clipped, log_loss_terms
from . import gate as memory
from .compare import Comparison, Trainer, compare
from .evaluate import Evaluation, evaluate
from .gate import MemoryGate, training_cost
from .options import BINNINGS, Options

VERDICTS = ("ok", "suggestion", "problem", "not-enough-data")
MIN_REVIEWS = 1000  # scored reviews below which no finding gives a verdict
MIN_GROUP = 100  # reviews a group (previous answer, deck) needs before it is judged
MIN_EFFECT = 0.03  # a gap in recall smaller than 3 percentage points is not worth acting on
# Out of sample, each preset's (and deck's) FSRS is trained on the first half of its reviews in time order
# and scored on the second half: one training of half the reviews, where five time-series folds train five
# times (1/6 ... 5/6 of them: five times the work). Five folds train on half the reviews on average too.
SPLITS = 1
DEFAULT_RETENTION = 0.9  # Anki's default desired retention
HealthCheck = Callable[[str], "dict[str, Any] | None"]  # preset name -> Anki's verdict (or None: not run)


@dataclass(frozen=True)
class Finding:
    """One thing the diagnosis says: verdict, a plain sentence, the numbers, what to do and why."""

    id: str
    verdict: str
    scope: str
    summary: str
    evidence: dict[str, Any] = field(default_factory=dict)
    action: str = ""
    why: str = ""

    def to_dict(self) -> dict[str, Any]:
        """Return the finding as JSON-ready values."""
        return asdict(self)


@dataclass(frozen=True)
class Diagnosis:
    """The findings, most important first, and Anki's own health check per preset."""

    findings: list[Finding]
    anki_health_check: dict[str, Any]
    reviews: int

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON object of `fsrs-calibration diagnose --json`."""
        return {"findings": [f.to_dict() for f in self.findings], "anki_health_check": self.anki_health_check,
                "reviews": self.reviews}  # fmt: skip

    def by_id(self, finding_id: str) -> list[Finding]:
        """Return the findings with this id (some ids have one finding per preset or deck)."""
        return [f for f in self.findings if f.id == finding_id]


@dataclass(frozen=True)
class Gap:
    """Measured minus predicted recall over a group of reviews, with its 95% interval."""

    reviews: int
    predicted: float
    measured: float
    low: float
    high: float

    @property
    def gap(self) -> float:
        """Return measured minus predicted recall."""
        return self.measured - self.predicted

    def to_dict(self) -> dict[str, Any]:
        """Return the numbers for a finding's evidence."""
        return {"reviews": self.reviews, "predicted": self.predicted, "measured": self.measured,
                "gap": self.gap, "gap_ci": [self.low, self.high]}  # fmt: skip


def gap(p: np.ndarray, y: np.ndarray) -> Gap:
    """Return the measured-minus-predicted recall of a group, its interval from the spread of y - p."""
    n = int(p.size)
    if n == 0:
        return Gap(0, math.nan, math.nan, math.nan, math.nan)
    d = y - p
    half = normal_half_width(float(d.std(ddof=1)), n) if n > 1 else math.inf
    mean = float(d.mean())
    return Gap(n, float(p.mean()), float(y.mean()), mean - half, mean + half)


def difference(a: Gap, b: Gap) -> tuple[float, float, float]:
    """Return (a.gap - b.gap, low, high): the difference of two independent groups' gaps with its interval."""
    half_a, half_b = (a.high - a.low) / 2, (b.high - b.low) / 2
    diff = a.gap - b.gap
    half = math.hypot(half_a, half_b)
    return diff, diff - half, diff + half


@dataclass(frozen=True)
class _Scored:
    """The scored reviews with what the findings need, in (card, time) order."""

    p: np.ndarray
    y: np.ndarray
    rating: np.ndarray
    prev: np.ndarray  # the rating of the card's previous scored review (0: none)
    deck: np.ndarray  # home deck id
    preset: np.ndarray  # preset id
    revlog_id: np.ndarray
    by_revlog_id: np.ndarray  # the order that sorts revlog_id

    def predictions_of(self, revlog_id: np.ndarray) -> np.ndarray:
        """Return the presets' predictions of these scored reviews (by revlog id): what a replay of any
        part of the collection with the presets' parameters predicts for them (each card replays alone)."""
        order = self.by_revlog_id
        at = order[np.minimum(np.searchsorted(self.revlog_id, revlog_id, sorter=order), max(0, order.size - 1))]
        if not np.array_equal(self.revlog_id[at], revlog_id):
            raise AssertionError("a compared review is not among the scored reviews")
        return self.p[at]


def _columns(ev: Evaluation) -> dict[str, np.ndarray]:
    """Return the evaluation's per-review arrays that the findings need, by name."""
    assert ev.scored is not None
    return {k: getattr(ev.scored, k) for k in ("p", "y", "card_id", "deck_id", "revlog_id")}


def _scored(columns: dict[str, np.ndarray], data: CollectionData) -> _Scored:
    """Return the scored reviews with their ratings, previous ratings, decks and presets, built from the
    evaluation's `columns` (p, y, card_id, deck_id, revlog_id: taken out of the dict, so each is let go
    once used; at 5M reviews both sets at once were the diagnosis's peak)."""
    p, y, card, deck, revlog_id = (columns.pop(k) for k in ("p", "y", "card_id", "deck_id", "revlog_id"))
    order = np.lexsort((revlog_id, card))
    card = card[order]
    first = np.ones(card.size, dtype=bool)
    first[1:] = card[1:] != card[:-1]
    del card
    p = p[order]  # one array at a time: the unsorted one goes as its sorted copy arrives
    y = (y[order] > 0.5).astype(np.int8)
    deck = deck[order]
    revlog_id = revlog_id[order]
    del order
    rl = data.revlog
    by_id = np.argsort(rl.id, kind="stable")
    rating = rl.ease[by_id[np.searchsorted(rl.id[by_id], revlog_id)]].astype(np.int8)
    del by_id
    prev = np.zeros(rating.size, dtype=np.int8)
    prev[1:] = rating[:-1]
    prev[first] = 0
    del first
    preset = deck_presets(data, deck)
    return _Scored(p, y, rating, prev, deck, preset, revlog_id, np.argsort(revlog_id, kind="stable"))


def diagnose(
    data: CollectionData,
    health_check: HealthCheck | None = None,
    options: Options | None = None,
    should_stop: Callable[[], bool] | None = None,
    progress: Callable[[str], None] | None = None,
    trainer: Trainer | None = None,
) -> Diagnosis:
    """Return the findings for the scope read into `data` (each card with its preset's parameters).

    With a `trainer` (Anki's optimizer), the out-of-sample findings run too: re-optimizing each preset,
    decks' own presets, and the standing among the FSRS benchmark's learners.
    """

    def note(text: str) -> None:
        if progress is not None:
            progress(text)
        if should_stop is not None and should_stop():
            raise Cancelled()

    note("Replaying FSRS with your presets")
    options = options or Options()
    gate = MemoryGate()  # Anki's health checks, its trainings and our replays share one memory budget
    card_preset = card_presets(data)
    # Anki's health checks (its own training) run in a thread from the start, while our checks and
    # trainings go on here (they read the collection themselves: it is not touched here meanwhile).
    checking = ThreadPoolExecutor(max_workers=1)
    health_runs = {}
    if health_check is not None:
        for name, cost in health_check_plan(data):
            health_runs[name] = checking.submit(_unless_stopped, health_check, name, should_stop, gate, cost)
    try:
        ev = evaluate(data, Options(**{**asdict(options), "params": "preset"}), should_stop)
        columns = _columns(ev)
        ev = replace(ev, scored=None)  # the bins, weights and features are freed here
        scored = _scored(columns, data)
        n = ev.overall.reviews
        findings = [_data_finding(n, ev.overall.cards)]
        health: dict[str, Any] = {}
        presets = _presets_in_scope(data, scored)
        in_scope = {data.presets[pid].name if pid in data.presets else f"preset {pid}" for pid in presets}
        enough = n >= MIN_REVIEWS
        pooled: list[Comparison] = []
        for pid in presets:
            mask = scored.preset == pid
            name = data.presets[pid].name if pid in data.presets else f"preset {pid}"
            hard = _hard_misuse(scored, mask, name, enough)
            findings.append(hard)
            findings.append(_again_misuse(scored, mask, name, enough, hard.verdict == "problem"))
            findings.append(_retention(scored, mask, name, data.presets.get(pid), enough))
            info = data.presets.get(pid)
            has_params = info is not None and bool(info.params)
            if trainer is not None and enough and mask.sum() >= MIN_REVIEWS:
                note(f"Training FSRS on earlier reviews of preset {name}")
                cmp = _out_of_sample(restrict(data, card_preset == pid), scored if has_params else None, trainer,
                                     options, should_stop, gate)  # fmt: skip
                pooled.append(cmp)
                if has_params:
                    findings.append(_parameters_oos(cmp, name))
            if not (has_params and trainer is not None and enough and mask.sum() >= MIN_REVIEWS):
                findings.append(_parameters_defaults(data, pid, name, int(mask.sum()), enough))
        findings.append(_decks(ev, scored, data, enough))
        if trainer is not None and enough:
            findings += _own_presets(data, scored, card_preset, trainer, options, should_stop, note, gate)
            findings.append(_standing(pooled, n, options))
        elif not enough:
            findings.append(_too_few("benchmark-standing", "collection", n, MIN_REVIEWS))
        if health_runs:
            note("Waiting for Anki's health check")
        for name, run in health_runs.items():
            result = run.result()
            if result is not None and name in in_scope:  # presets with scored reviews only
                health[name] = result
    finally:
        checking.shutdown(wait=True, cancel_futures=True)
    findings += _health_findings(health, findings)
    order = {"problem": 0, "suggestion": 1, "not-enough-data": 2, "ok": 3}
    findings.sort(key=lambda f: (f.id != "data", order.get(f.verdict, 9)))
    return Diagnosis([f for f in findings if f is not None], health, n)


def _unless_stopped(check: HealthCheck, name: str, should_stop: Callable[[], bool] | None, gate: MemoryGate,
                    cost: int) -> dict[str, Any] | None:  # fmt: skip
    """Return Anki's health check of a preset (once its memory fits the gate), or None when the diagnosis
    was cancelled before it started."""
    try:
        with gate.hold(cost, should_stop):
            if should_stop is not None and should_stop():
                return None
            return check(name)
    except Cancelled:
        return None


def health_check_plan(data: CollectionData) -> list[tuple[str, int]]:
    """Return [(preset name, estimated memory of Anki's health check of it)] for presets with reviews, most first."""
    card_preset = card_presets(data)
    return [(data.presets[pid].name if pid in data.presets else f"preset {pid}",
             training_cost(REQUEST_BYTES_PER_ENTRY * entries))
            for pid, entries in _history_entries(data, card_preset)]  # fmt: skip


def health_checks_first(plan: list[tuple[str, int]], gate: MemoryGate | None = None) -> bool:
    """Return True when Anki's health checks (of this plan) together need more than half the memory gate's
    budget: then the command line runs them first, one at a time, with the collection's arrays put aside
    (at 5M reviews the diagnosis otherwise peaks near 1.5 GiB, with them beside its own replay)."""
    return memory.one_at_a_time([cost for _name, cost in plan], gate)


def _history_entries(data: CollectionData, card_preset: np.ndarray) -> list[tuple[int, int]]:
    """Return [(preset, review entries its training items can hold)], presets with reviews, most first."""
    ids, group = np.unique(card_preset, return_inverse=True)
    entries = np.bincount(group.reshape(-1), weights=history_entries(data.revlog.card, card_preset.size),
                          minlength=ids.size)  # fmt: skip
    reviews = np.bincount(group.reshape(-1), weights=np.bincount(data.revlog.card, minlength=card_preset.size),
                          minlength=ids.size)  # fmt: skip
    order = np.argsort(-reviews, kind="stable")
    return [(int(ids[i]), int(entries[i])) for i in order.tolist() if reviews[i] > 0]


def _presets_in_scope(data: CollectionData, scored: _Scored) -> list[int]:
    """Return the presets of the scope's scored reviews, largest first."""
    ids, counts = np.unique(scored.preset, return_counts=True)
    return [int(i) for i, _ in sorted(zip(ids.tolist(), counts.tolist(), strict=True), key=lambda t: -t[1])]


def _too_few_after(fid: str, scope: str, group: int, reviews: int, enough: bool) -> Finding:
    """The not-enough-data finding of a comparison after one answer: too few reviews in the scope, or in
    the group (reviews after that answer)."""
    return _too_few(fid, scope, group, MIN_GROUP) if enough else _too_few(fid, scope, reviews, MIN_REVIEWS)


def _too_few(fid: str, scope: str, reviews: int, needed: int) -> Finding:
    return Finding(fid, "not-enough-data", scope,
                   f"Too few reviews to judge this ({fmt.count(reviews)}; at least {fmt.count(needed)} are needed).",
                   {"reviews": reviews, "needed": needed}, "Keep reviewing; ask again later.",
                   "With fewer reviews the intervals are too wide for a verdict either way.")  # fmt: skip


def _data_finding(reviews: int, cards: int) -> Finding:
    evidence = {"scored_reviews": reviews, "cards": cards, "needed": MIN_REVIEWS}
    if reviews < MIN_REVIEWS:
        return Finding("data", "not-enough-data", "collection",
                       f"Only {fmt.count(reviews)} reviews can be scored here: too few for any verdict "
                       f"(at least {fmt.count(MIN_REVIEWS)} are needed).", evidence,
                       "Keep reviewing (or widen the scope) and ask again later.",
                       "FSRS is scored on reviews on a later day than the card's previous review; with few of them "
                       "every interval below is too wide to tell a real problem from chance.")  # fmt: skip
    return Finding("data", "ok", "collection", f"{fmt.count(reviews)} scored reviews on {fmt.count(cards)} cards: "
                   "enough for the checks below.", evidence, "",
                   "Every verdict below rests on these reviews.")  # fmt: skip


def _hard_misuse(s: _Scored, mask: np.ndarray, preset: str, enough: bool) -> Finding:
    """Is Hard pressed on forgotten cards? Recall after Hard, against FSRS and against recall after Good."""
    scope = f'preset "{preset}"'
    after_hard = gap(s.p[mask & (s.prev == 2)], s.y[mask & (s.prev == 2)])
    after_good = gap(s.p[mask & (s.prev == 3)], s.y[mask & (s.prev == 3)])
    recalled = mask & (s.rating >= 2)
    hard_presses = int((recalled & (s.rating == 2)).sum())
    share_low, share_high = wilson(hard_presses, int(recalled.sum()))
    diff, low, high = difference(after_hard, after_good)
    evidence = {"after_hard": after_hard.to_dict(), "after_good": after_good.to_dict(),
                "hard_minus_good": diff, "hard_minus_good_ci": [low, high],
                "hard_share": hard_presses / max(1, int(recalled.sum())), "hard_share_ci": [share_low, share_high],
                "successful_reviews": int(recalled.sum())}  # fmt: skip
    if not enough or after_hard.reviews < MIN_GROUP or after_good.reviews < MIN_GROUP:
        return _too_few_after("hard-misuse", scope, after_hard.reviews, int(mask.sum()), enough)
    numbers = (f"after Hard you recalled {fmt.percent(after_hard.measured)} where FSRS predicted "
               f"{fmt.percent(after_hard.predicted)} ({fmt.count(after_hard.reviews)} reviews); after Good "
               f"{fmt.percent(after_good.measured)} against {fmt.percent(after_good.predicted)} "
               f"({fmt.count(after_good.reviews)} reviews)")  # fmt: skip
    if high < 0 and diff <= -MIN_EFFECT:
        return Finding("hard-misuse", "problem", scope,
                       f"Cards you answered Hard are forgotten more often than FSRS expects: recall after Hard is "
                       f"{fmt.points(-diff)} lower than after Good, relative to FSRS's prediction (95% interval "
                       f"{fmt.points(-high)} to {fmt.points(-low)}).", evidence,
                       "When you have forgotten a card, press Again, even if it felt close; Hard means you "
                       "remembered it with effort. Then re-optimize (Deck Options → FSRS → Optimize).",
                       f"Hard tells FSRS the card was remembered, so it schedules it further out; {numbers}. "
                       "That is the pattern of forgotten cards answered Hard.")  # fmt: skip
    return Finding("hard-misuse", "ok", scope,
                   f"Your Hard answers look honest: {numbers}.", evidence, "",
                   f"Recall after Hard is within {fmt.points(MIN_EFFECT)} of recall after Good, relative to FSRS's "
                   f"prediction, or the difference is within chance (95% interval {fmt.points(low, True)} to "
                   f"{fmt.points(high, True)}).")  # fmt: skip


def _again_misuse(s: _Scored, mask: np.ndarray, preset: str, enough: bool, hard_problem: bool) -> Finding:
    """Is Again pressed on remembered cards? Recall after Again, against FSRS and against recall after Good."""
    scope = f'preset "{preset}"'
    after_again = gap(s.p[mask & (s.prev == 1)], s.y[mask & (s.prev == 1)])
    after_good = gap(s.p[mask & (s.prev == 3)], s.y[mask & (s.prev == 3)])
    diff, low, high = difference(after_again, after_good)
    evidence = {"after_again": after_again.to_dict(), "after_good": after_good.to_dict(),
                "again_minus_good": diff, "again_minus_good_ci": [low, high]}  # fmt: skip
    if not enough or after_again.reviews < MIN_GROUP or after_good.reviews < MIN_GROUP:
        return _too_few_after("again-misuse", scope, after_again.reviews, int(mask.sum()), enough)
    numbers = (f"after Again you recalled {fmt.percent(after_again.measured)} where FSRS predicted "
               f"{fmt.percent(after_again.predicted)} ({fmt.count(after_again.reviews)} reviews)")  # fmt: skip
    if low > 0 and diff >= MIN_EFFECT and not hard_problem:
        return Finding("again-misuse", "suggestion", scope,
                       f"Cards you answered Again are remembered more often than FSRS expects: {fmt.points(diff)} "
                       f"more than after Good, relative to FSRS's prediction (95% interval {fmt.points(low)} to "
                       f"{fmt.points(high)}).", evidence,
                       "Press Again only when you could not recall the answer; for a slow or shaky recall press "
                       "Hard. Then re-optimize (Deck Options → FSRS → Optimize).",
                       f"Again tells FSRS the card was forgotten, so it resets its memory; {numbers}.")  # fmt: skip
    why = ("The Hard pattern above explains a gap after Again as well." if hard_problem and low > 0 else
           f"Recall after Again is within chance of recall after Good, relative to FSRS's prediction (95% interval "
           f"{fmt.points(low, True)} to {fmt.points(high, True)}).")  # fmt: skip
    return Finding("again-misuse", "ok", scope, f"Nothing suggests Again is pressed on remembered cards: {numbers}.",
                   evidence, "", why)  # fmt: skip


def _retention(s: _Scored, mask: np.ndarray, preset: str, info: Any, enough: bool) -> Finding:
    """Measured retention against the preset's desired retention, with its interval."""
    scope = f'preset "{preset}"'
    n = int(mask.sum())
    if not enough or n < MIN_GROUP:
        return _too_few("retention", scope, n, MIN_GROUP if enough else MIN_REVIEWS)
    measured = float(s.y[mask].mean())
    low, high = wilson(float(s.y[mask].sum()), n)
    desired = float(info.desired_retention) if info is not None and info.desired_retention else DEFAULT_RETENTION
    predicted = float(s.p[mask].mean())
    evidence = {"reviews": n, "measured": measured, "measured_ci": [low, high], "desired": desired,
                "predicted": predicted}  # fmt: skip
    text = (f"you recalled {fmt.percent(measured)} of {fmt.count(n)} reviews (95% interval "
            f"{fmt.interval(low, high, 'percent')}); your desired retention is {fmt.percent(desired, 0)}")  # fmt: skip
    if low <= desired <= high or abs(measured - desired) < MIN_EFFECT / 1.5:
        return Finding("retention", "ok", scope, f"Retention is on target: {text}.", evidence, "",
                       "FSRS schedules each review for your desired retention; "
                       "measured recall matches it.")  # fmt: skip
    way = "below" if measured < desired else "above"
    action = ("Re-optimize your parameters (Deck Options → FSRS → Optimize), and review overdue cards first; if "
              "it persists, check that you press Again whenever you have forgotten." if way == "below" else
              "Nothing is wrong; if reviews feel too frequent you may lower desired retention (Deck Options → "
              "FSRS → Desired retention) or re-optimize.")  # fmt: skip
    return Finding("retention", "suggestion", scope, f"Retention is {way} target: {text}.", evidence, action,
                   f"FSRS predicted {fmt.percent(predicted)} for these reviews. A measured retention away from the "
                   "desired one means the predictions, and so the intervals, are off for you (or that many "
                   "reviews were done late or early).")  # fmt: skip


def _parameters_defaults(data: CollectionData, pid: int, name: str, reviews: int, enough: bool) -> Finding:
    """Whether the preset still runs on FSRS's defaults (parameters never optimized)."""
    scope = f'preset "{name}"'
    info = data.presets.get(pid)
    key, values = (info.params_key, list(info.params)) if info is not None and info.params else ("", [])
    if not enough:
        return _too_few("parameters", scope, reviews, MIN_REVIEWS)
    if values:
        return Finding("parameters", "ok", scope,
                       f"This preset has optimized parameters ({len(values)} values, {key}).",
                       {"reviews": reviews, "parameters": len(values)}, "",
                       "Whether re-optimizing would help is judged out of sample in the comparison "
                       "(Compare models).")  # fmt: skip
    return Finding("parameters", "suggestion", scope,
                   f"This preset still uses FSRS's default parameters, with {fmt.count(reviews)} reviews to learn "
                   "yours from.", {"reviews": reviews, "parameters": 0},
                   "Deck Options → (this preset) → FSRS → Optimize.",
                   "Parameters optimized on your own reviews predict your memory better than the defaults for "
                   "almost every learner with this many reviews (the FSRS benchmark: FSRS-6 log loss 0.346 with "
                   "optimized parameters against 0.366 with the defaults).")  # fmt: skip


def _decks(ev: Evaluation, s: _Scored, data: CollectionData, enough: bool) -> Finding:
    """Decks whose measured recall differs from FSRS's prediction beyond chance."""
    if not enough:
        return _too_few("decks", "collection", ev.overall.reviews, MIN_REVIEWS)
    off = []
    judged = 0
    for did in np.unique(s.deck).tolist():
        m = s.deck == did
        if m.sum() < MIN_GROUP:
            continue
        judged += 1
        g = gap(s.p[m], s.y[m])
        if (g.low > 0 or g.high < 0) and abs(g.gap) >= MIN_EFFECT:
            off.append({"deck": data.deck_names.get(int(did), str(did)), **g.to_dict()})
    evidence = {"decks_judged": judged, "decks_off": off}
    if not off:
        return Finding("decks", "ok", "collection",
                       f"In every deck with at least {MIN_GROUP} reviews ({judged}), FSRS's predictions match your "
                       "recall within chance (or within 3 percentage points).", evidence, "",
                       "Each deck's measured minus predicted recall has a 95% interval that "
                       "includes zero.")  # fmt: skip
    off.sort(key=lambda d: -abs(d["gap"]))
    names = ", ".join(f'"{d["deck"]}" ({fmt.points(d["gap"], True)}, {fmt.count(d["reviews"])} reviews)'
                      for d in off[:3])  # fmt: skip
    return Finding("decks", "suggestion", "collection",
                   f"FSRS is off beyond chance in {len(off)} deck(s): {names} (measured minus predicted recall).",
                   evidence,
                   "If such a deck holds a different kind of material, give it a preset of its own (Deck Options → "
                   "Add preset) and optimize that preset.",
                   "In these decks the 95% interval of measured minus predicted recall excludes zero and the gap is "
                   "3 percentage points or more; one preset's parameters may not fit them.")  # fmt: skip


def _health_findings(health: dict[str, Any], findings: list[Finding]) -> list[Finding]:
    """Anki's own health check per preset, as Anki says it, and where our findings disagree."""
    out = []
    for name, result in health.items():
        passed = result.get("passed")
        scope = f'preset "{name}"'
        ours = [f for f in findings if f.scope == scope and f.verdict == "problem"]
        if passed is None:
            out.append(Finding("anki-health-check", "not-enough-data", scope,
                               "Anki ran no health check here (too few reviews to optimize).", result))  # fmt: skip
            continue
        if passed:
            summary = "Anki's health check passed."
            why = "Anki's check (run while optimizing) found nothing unusual."
            if ours:
                why += (" Our checks disagree: " + "; ".join(f.id for f in ours) + ". Anki's check looks at the "
                        "optimizer's overall fit only, not at how each answer button is used.")  # fmt: skip
            out.append(Finding("anki-health-check", "ok", scope, summary, result, "", why))
        else:
            out.append(Finding("anki-health-check", "problem", scope,
                               "Anki's health check failed: the optimizer could not fit your reviews well.", result,
                               "Check how you use the answer buttons (Again when forgotten), then optimize again.",
                               "Anki's own words after Optimize: the health check found the parameters fit this "
                               "preset's reviews poorly."))  # fmt: skip
    return out


def _out_of_sample(data: CollectionData, current: _Scored | None, trainer: Trainer, options: Options,
                   should_stop: Callable[[], bool] | None, gate: MemoryGate | None = None) -> Comparison:  # fmt: skip
    """Return FSRS trained on the first half of `data`'s reviews (in time order) predicting the second half
    ("fsrs-out-of-sample"), beside the presets' parameters' predictions of the same reviews ("fsrs-preset",
    looked up in `current`, the diagnosis's own replay of every scored review, when given)."""
    preset_options = Options(**{**asdict(options), "params": "preset"})
    cmp = compare(data, preset_options, trainer, ("fsrs-out-of-sample",), should_stop=should_stop,
                  keep_predictions=True, folds=SPLITS, gate=gate, scores=False)  # fmt: skip
    if current is not None:
        cmp.compared["fsrs-preset"] = current.predictions_of(cmp.compared["revlog_id"])
    return cmp


def paired_gain(cmp: Comparison, current: str = "fsrs-preset", trained: str = "fsrs-out-of-sample",
                rounds: int = 200, seed: int = 0) -> dict[str, Any]:  # fmt: skip
    """Return the mean log-loss gain of `trained` over `current` on the same reviews, with a 95% interval
    from a bootstrap by card (each card's reviews resampled together: Poisson weights per card)."""
    y = cmp.compared["y"]
    terms = {}
    for name in (current, trained):
        terms[name] = log_loss_terms(cmp.compared[name], y)
    d = terms[current] - terms[trained]  # positive: the trained parameters predict better
    card = cmp.compared["card"]  # card indexes (small integers)
    counts = np.bincount(card).astype(np.float64)
    present = counts > 0
    sums, counts = np.bincount(card, weights=d)[present], counts[present]
    rng = np.random.default_rng(seed)
    estimates = []
    step = max(1, 4_000_000 // max(1, sums.size))  # rounds per block: bounded memory
    for start in range(0, rounds, step):
        w = rng.poisson(1.0, size=(min(step, rounds - start), sums.size)).astype(np.float64)
        estimates.append((w @ sums) / np.maximum(w @ counts, 1.0))
    est = np.concatenate(estimates)
    low, high = np.percentile(est, [2.5, 97.5])
    return {"gain": float(d.mean()), "gain_ci": [float(low), float(high)], "reviews": int(d.size),
            "cards": int(sums.size), "current_log_loss": float(terms[current].mean()),
            "trained_log_loss": float(terms[trained].mean())}  # fmt: skip


def _parameters_oos(cmp: Comparison, preset: str) -> Finding:
    """Would re-optimizing this preset help? Current parameters against FSRS trained on earlier reviews."""
    scope = f'preset "{preset}"'
    if cmp.reviews_compared < MIN_REVIEWS:
        return _too_few("parameters", scope, cmp.reviews_compared, MIN_REVIEWS)
    g = paired_gain(cmp)
    low, high = g["gain_ci"]
    numbers = (f"log loss {fmt.log_loss(g['trained_log_loss'])} with parameters trained only on earlier reviews "
               f"against {fmt.log_loss(g['current_log_loss'])} with the current ones, on the same "
               f"{fmt.count(g['reviews'])} later reviews of {fmt.count(g['cards'])} cards (difference "
               f"{g['gain']:+.4f}, 95% interval {low:+.4f} to {high:+.4f}, bootstrap by card)")  # fmt: skip
    if low > 0:
        return Finding("parameters", "suggestion", scope,
                       "Re-optimizing this preset's parameters should help: parameters trained on your earlier "
                       f"reviews predict the later ones better than the current parameters ({numbers}).", g,
                       "Deck Options → (this preset) → FSRS → Optimize.",
                       "The test is out of sample: the trained parameters never saw the reviews they are scored on, "
                       "and the gain's interval lies above zero.")  # fmt: skip
    return Finding("parameters", "ok", scope,
                   f"Re-optimizing would not measurably help: {numbers}.", g, "",
                   "Parameters trained only on earlier reviews do not beat the current ones beyond chance (the "
                   "gain's 95% interval reaches zero or below).")  # fmt: skip


def _own_presets(data: CollectionData, s: _Scored, card_preset: np.ndarray, trainer: Trainer, options: Options,
                 should_stop: Callable[[], bool] | None, note: Callable[[str], None],
                 gate: MemoryGate | None = None) -> list[Finding]:  # fmt: skip
    """For decks with at least MIN_REVIEWS scored reviews that share their preset with other decks: would
    parameters trained on the deck alone beat its preset's, out of sample?"""
    out = []
    decks, counts = np.unique(s.deck, return_counts=True)
    for did, count in zip(decks.tolist(), counts.tolist(), strict=True):
        cards = data.home_deck == did
        if count < MIN_REVIEWS or (card_preset == card_preset[cards][0]).sum() == cards.sum():
            continue  # too few reviews, or the deck is its preset's only deck (the parameters finding covers it)
        name = data.deck_names.get(int(did), str(did))
        note(f"Training FSRS on deck {name} alone")
        cmp = _out_of_sample(restrict(data, cards), s, trainer, options, should_stop, gate)  # first half -> second
        scope = f'deck "{name}"'
        if cmp.reviews_compared < MIN_REVIEWS:
            out.append(_too_few("decks", scope, cmp.reviews_compared, MIN_REVIEWS))
            continue
        g = paired_gain(cmp)
        low, high = g["gain_ci"]
        numbers = (f"log loss {fmt.log_loss(g['trained_log_loss'])} against {fmt.log_loss(g['current_log_loss'])} "
                   f"with its preset's, on {fmt.count(g['reviews'])} later reviews (difference {g['gain']:+.4f}, 95% "
                   f"interval {low:+.4f} to {high:+.4f}, bootstrap by card)")  # fmt: skip
        if low > 0:
            out.append(Finding("decks", "suggestion", scope,
                               f"This deck would do better with a preset of its own: parameters trained on it alone "
                               f"predict its later reviews better ({numbers}).", g,
                               "Deck Options → Add preset (for this deck only) → FSRS → Optimize.",
                               "Trained only on this deck's earlier reviews, FSRS beats the shared preset's parameters "
                               "on its later reviews beyond chance."))  # fmt: skip
        else:
            out.append(Finding("decks", "ok", scope,
                               f"A preset of its own would not help this deck measurably ({numbers}).", g, "",
                               "Parameters trained on this deck alone do not beat its preset's "
                               "beyond chance."))  # fmt: skip
    return out


def _standing(pooled: list[Comparison], reviews: int, options: Options) -> Finding:
    """Where this scope's out-of-sample numbers (each preset's FSRS trained on its earlier reviews, pooled)
    fall among the FSRS benchmark's learners."""
    parts = [c.compared for c in pooled if "fsrs-out-of-sample" in c.compared]
    if not parts or sum(p["y"].size for p in parts) < MIN_REVIEWS:
        return _too_few("benchmark-standing", "collection", sum(p["y"].size for p in parts), MIN_REVIEWS)
    y = np.concatenate([p["y"] for p in parts])
    pred = clipped(np.concatenate([p["fsrs-out-of-sample"] for p in parts]))
    delta_t, n_reviews, n_lapses = (np.concatenate([p[f] for p in parts]) for f in ("delta_t", "n_reviews", "n_lapses"))
    keys = bin_keys(delta_t, n_reviews, n_lapses, BINNINGS[options.binning])
    ones = np.ones(y.size)
    terms = log_loss_terms(pred, y)
    ll, rmse, area = log_loss(pred, y, ones), rmse_bins(pred, y, ones, keys), auc(pred, y)
    st = standing(int(y.size), ll, rmse, area)
    evidence = {"reviews": int(y.size), "reviews_scored": reviews, "log_loss": ll,
                "log_loss_ci": list(bootstrap_ci(terms)), "rmse_bins": rmse, "auc": area, **st.to_dict()}  # fmt: skip
    return Finding("benchmark-standing", "ok", "collection", st.sentence(), evidence, "",
                   "Out of sample, as the benchmark scores its learners (it averages five time-series folds; here one "
                   "split, as fair: the folds train on half the reviews on average): for each preset, FSRS trained "
                   f"only on the first half of its reviews predicts the second half. {st.source()}")  # fmt: skip
