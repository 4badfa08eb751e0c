"""Finding "ignore-before": do a preset's old reviews now mislead FSRS? For candidate dates (where the answers
changed most, and the middle of the reviews: reviews/cutoffs.py), parameters trained only on the cards begun
on or after the date against parameters trained on every card, both trained before a split and scored on the
same latest reviews (cutoff_trainings.py), paired by card, with intervals that hold for all dates together
(Bonferroni). A date is suggested only when its gain's interval lies above zero and the gain is at least
0.002 (as "it helped" of since-last)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from statistics import NormalDist

import numpy as np

from ...explain import formatting as fmt
from ...explain import ignore_before as words
from ...explain.lang import _, text
from ...kinds import FindingId
from ...reviews.cutoffs import Cutoff, candidates
from ...reviews.subset import restrict
from ...score.paired import PairedGain, paired_gain_by_card
from ..gate import settle
from . import since_last
from .context import Context, PresetPart
from .cutoff_trainings import Trainings, Window, memory, window
from .evidence import ABSENT, Absent, Evidence
from .finding import MIN_REVIEWS, Finding, Verdict, too_few
from .out_of_sample import signed
from .parameters_oos import trains

ID = FindingId.IGNORE_BEFORE
MIN_TEST = MIN_REVIEWS  # tested reviews (the latest sixth, at least this many)
MIN_TRAIN = MIN_REVIEWS  # training reviews a date must leave
MAX_KEPT = 0.95  # a date that keeps more of the training reviews drops too little to matter
ALPHA = 0.05
MIN_GAIN = since_last.MIN_GAIN  # a smaller log-loss gain is not worth losing what the old reviews teach


@dataclass(frozen=True)
class TestedDate(Evidence):
    """One date tested: why it is a candidate, the reviews and cards kept to train on, and the log loss on the
    latest reviews with its paired gain over training on every card."""

    cutoff: str
    why: str
    train_reviews: int
    train_cards: int
    log_loss: float
    gain: float
    gain_ci: tuple[float, float]


@dataclass(frozen=True)
class IgnoreEvidence(Evidence):
    """The date to ignore the reviews before (None: keep them all), where the latest reviews begin (the test), the
    reviews and cards tested and trained on; when dates were tested, the interval's level, the log loss of training
    on every card, and each date's numbers."""

    cutoff: str | None
    split: str
    test_reviews: int
    test_cards: int
    train_reviews: int
    interval: float | Absent = ABSENT
    log_loss_all: float | Absent = ABSENT
    candidates: tuple[TestedDate, ...] | Absent = ABSENT


def plan(ctx: Context, part: PresetPart) -> tuple[int, Callable[[], list[Finding]]]:
    """Return the estimated bytes the check of this preset holds (its window and trainings: none when it
    does not train), and its check, which returns the finding (none without Anki's optimizer): this finding's
    `check`, in the form context.each_preset_beside takes."""
    if not trains(ctx, part) or ctx.trainer is None:
        return 0, list  # no finding without Anki's optimizer
    needed = MIN_TEST + MIN_TRAIN
    if part.reviews < needed:
        found = [too_few(ID, part.scope, part.reviews, needed)]
        return 0, lambda: found
    cards = ctx.card_preset == part.id
    workers, cost = memory(ctx.data, cards, ctx.job.gate.budget)
    return cost, partial(_checked, ctx, part, cards, workers, cost)


def _checked(ctx: Context, part: PresetPart, cards: np.ndarray, workers: int, cost: int) -> list[Finding]:
    """Return the finding of a preset that trains: `workers` trainings at once, `cost` bytes held. Runs beside
    the other checks (context.each_preset_beside): it reads the context's collection and scored table, writes
    nothing."""
    ctx.job.check()  # in the thread beside the others: no progress of its own (context.each_preset_beside)
    settle()  # what the checks before freed goes back to the system first (the command line)
    with ctx.job.hold(cost):  # the window, its predictions and its trainings: one job in the memory gate
        return [_judged(ctx, part, window(restrict(ctx.data, cards), MIN_TEST), workers)]


def _judged(ctx: Context, part: PresetPart, win: Window, workers: int) -> Finding:
    """Return the finding of a preset's window: its dates tested, or not enough data."""
    r = win.reviews
    dates = [c for c in candidates(r.revlog_id[win.train], r.rating[win.train]) if _testable(win, c)]
    evidence = IgnoreEvidence(None, _date(win.split_ms), int(win.test.size), win.cards(win.test), int(win.train.size))
    if not dates:
        split = fmt.date(evidence.split)
        said = words.NO_DATE.fill(needed=fmt.count(MIN_TRAIN), split=split, train=fmt.count(win.train.size))
        return Finding.of(ID, Verdict.NOT_ENOUGH_DATA, part.scope, said, evidence)
    tested = _tested(ctx, win, dates, workers)
    evidence = replace(
        evidence,
        interval=1 - ALPHA / len(dates),
        log_loss_all=tested[0][1].before_log_loss,
        candidates=tuple(_tested_date(win, c, g) for c, g in tested),
    )
    return _finding(part, win, tested, evidence)


def _testable(win: Window, c: Cutoff) -> bool:
    kept = win.kept(c.ms).size
    return kept >= MIN_TRAIN and kept <= MAX_KEPT * win.train.size


def _tested(ctx: Context, win: Window, dates: list[Cutoff], workers: int) -> list[tuple[Cutoff, PairedGain]]:
    """Return each date's paired gain over training on every card, intervals holding for all dates together."""
    assert ctx.trainer is not None
    run = Trainings(win, ctx.trainer, ctx.job, ctx.options.short_term_floor_rating)
    sets = [(win.train, _("every card"))]  # each with its label, for the words of an error
    sets += [(win.kept(c.ms), text("the cards begun on or after {date}", date=_date(c.ms))) for c in dates]
    every, *cuts = run.predict_each(sets, workers)
    z = NormalDist().inv_cdf(1 - ALPHA / (2 * len(dates)))
    return [(c, paired_gain_by_card(every, cut, run.y, run.card, z)) for c, cut in zip(dates, cuts, strict=True)]


def _finding(
    part: PresetPart, win: Window, tested: list[tuple[Cutoff, PairedGain]], evidence: IgnoreEvidence
) -> Finding:
    c, g = _chosen(tested)
    helps = _helps(g)
    interval = float(evidence.interval) if not isinstance(evidence.interval, Absent) else 1 - ALPHA
    level = fmt.percent(interval, 0 if round(interval * 100, 1).is_integer() else 1)
    numbers = _numbers(win, c, g, level)
    dates = fmt.listed([fmt.date(_date(t[0].ms)) for t in tested])  # in the language's own way, as every date shown
    shared = {
        "split": fmt.date(evidence.split),
        "tested": fmt.count(len(tested)),
        "tested_dates": words.tested_dates(len(tested), dates),
        "dates": dates,
        "numbers": numbers,
        "least": fmt.local(f"{MIN_GAIN:.3f}"),
    }
    if helps:
        evidence = replace(evidence, cutoff=_date(c.ms))
        why_words = words.WHY_CHANGED if c.why == "answers-changed" else words.WHY_QUANTILE
        cutoff = fmt.date(_date(c.ms))
        why = text(why_words, cutoff=cutoff, split=shared["split"])
        said = words.MISLEAD.fill(cutoff=cutoff, why_date=why, **shared)
        return Finding.of(ID, Verdict.SUGGESTION, part.scope, said, evidence, affected=part.reviews)
    return Finding.of(ID, Verdict.OK, part.scope, words.KEEP.fill(**shared), evidence)


def _helps(g: PairedGain) -> bool:
    """Return whether a date's gain is beyond chance (its interval above zero) and large enough to matter."""
    return g.low > 0 and g.gain >= MIN_GAIN


def _chosen(tested: list[tuple[Cutoff, PairedGain]]) -> tuple[Cutoff, PairedGain]:
    """Return the date to suggest: where the answers changed most, when its gain helps (the date the data
    explains; the others' gains are about as large then); else the one with the largest gain among those
    that help; else (nothing to suggest) the one with the largest gain."""
    helps = [t for t in tested if _helps(t[1])]
    changed = [t for t in helps if t[0].why == "answers-changed"]
    return changed[0] if changed else max(helps or tested, key=lambda t: t[1].gain)


def _numbers(win: Window, c: Cutoff, g: PairedGain, level: str) -> str:
    return text(
        words.NUMBERS,
        cut=fmt.log_loss(g.after_log_loss),
        all=fmt.log_loss(g.before_log_loss),
        cutoff=fmt.date(_date(c.ms)),
        kept=fmt.count(win.kept(c.ms).size),
        train=fmt.count(win.train.size),
        reviews=fmt.count(g.reviews),
        cards=fmt.count(g.cards),
        gain=signed(g.gain),
        level=level,
        low=signed(g.low),
        high=signed(g.high),
    )


def _tested_date(win: Window, c: Cutoff, g: PairedGain) -> TestedDate:
    kept = win.kept(c.ms)
    return TestedDate(_date(c.ms), c.why, int(kept.size), win.cards(kept), g.after_log_loss, g.gain, (g.low, g.high))


def _date(ms: int) -> str:
    """Return the UTC date of a time in ms, as Anki's setting writes it (YYYY-MM-DD)."""
    return dt.datetime.fromtimestamp(ms / 1000, dt.UTC).strftime("%Y-%m-%d")
