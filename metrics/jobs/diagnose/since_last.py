"""Finding "since-last": for each preset whose parameters changed since the last diagnosis of the same scope
(`Context.last`), did the change help? The old and the new parameters predict the same reviews made since
then (neither was trained on them), compared by paired log loss with a bootstrap by card. A preset whose
desired retention changed: since_retention.py."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ...explain import formatting as fmt
from ...explain import since as words
from ...explain.lang import text
from ...kinds import FindingId, Scope
from ...read.collection import Preset
from ...reviews.subset import restrict
from ...score.paired import PairedGain, paired_log_loss_gain
from ..evaluate import predict
from . import since_retention
from .context import Context
from .evidence import ABSENT, Absent, Evidence
from .finding import Finding, Verdict
from .out_of_sample import signed
from .snapshot import Snapshot

MIN_SINCE = 100  # reviews since the last diagnosis below which the change is not judged
# A log-loss difference smaller than this is not worth a sentence either way (a tenth of the gap between
# optimized and default parameters in the FSRS benchmark: 0.346 against 0.366).
MIN_GAIN = 0.002
ID = FindingId.SINCE_LAST


@dataclass(frozen=True)
class Unchanged(Evidence):
    """Since the last diagnosis (its day) no preset's parameters changed."""

    since: str
    presets_changed: int


@dataclass(frozen=True)
class Changed(Evidence):
    """A preset's parameters changed since the last diagnosis: the old ones, the reviews since, and when judged the
    paired log-loss gain of the new over the old on those reviews (bootstrap by card)."""

    since: str
    old_params: tuple[float, ...]
    reviews: int
    cards: int | Absent = ABSENT
    old_log_loss: float | Absent = ABSENT
    new_log_loss: float | Absent = ABSENT
    gain: float | Absent = ABSENT
    gain_ci: tuple[float, float] | Absent = ABSENT


def check(ctx: Context) -> list[Finding]:
    """Return what changed since the last diagnosis (nothing when there was none)."""
    last = ctx.last
    if last is None or last.scope != ctx.data.scope:
        return []
    out = []
    for pid in ctx.scored.presets_by_size():
        info = ctx.data.presets.get(pid)
        before = last.params.get(info.name, []) if info is not None else []
        if info is None or not before or not info.params or _same(before, info.params):
            continue
        out.append(_changed(ctx, pid, info, before, last))
    out += since_retention.check(ctx, last)
    if out:
        return out
    now = fmt.count(ctx.reviews)
    said = words.UNCHANGED.fill(date=fmt.date(last.date), reviews=fmt.count(last.reviews), now=now)
    return [Finding.of(ID, Verdict.OK, Scope.collection(), said, Unchanged(last.date, 0))]


def _same(before: list[float], now: list[float]) -> bool:
    return len(before) == len(now) and np.allclose(before, [float(v) for v in now], rtol=0, atol=1e-6)


def _changed(ctx: Context, pid: int, info: Preset, before: list[float], last: Snapshot) -> Finding:
    """Return whether the change of preset `info`'s parameters helped, on the reviews since `last`."""
    scope = Scope.preset(info.name, pid)
    sub = restrict(ctx.data, ctx.card_preset == pid)
    old = predict(sub, replace(ctx.options, params=list(before), same_day="auto"), ctx.job.should_stop)
    # (a set with another same-day rule scores other reviews: only those both score are compared)
    since = (old.revlog_id > last.through_ms) & np.isin(old.revlog_id, ctx.scored.revlog_id)
    evidence = Changed(last.date, tuple(before), int(since.sum()))
    if since.sum() < MIN_SINCE:
        said = words.TOO_FEW.fill(
            date=fmt.date(last.date), reviews=fmt.count(int(since.sum())), needed=fmt.count(MIN_SINCE)
        )
        return Finding.of(ID, Verdict.NOT_ENOUGH_DATA, scope, said, evidence)
    revlog_id = old.revlog_id[since]
    new = ctx.scored.predictions_of(revlog_id)
    card = np.unique(old.card_id[since], return_inverse=True)[1]
    g = paired_log_loss_gain(old.p[since], new, old.y[since], card)
    evidence = _judged(evidence, g)
    numbers = _numbers(g)
    if g.low > 0 and g.gain >= MIN_GAIN:
        return Finding.of(ID, Verdict.OK, scope, words.HELPED.fill(date=fmt.date(last.date), numbers=numbers), evidence)
    if g.high < 0 and g.gain <= -MIN_GAIN:
        said = words.HURT.fill(date=fmt.date(last.date), numbers=numbers)
        return Finding.of(ID, Verdict.SUGGESTION, scope, said, evidence, affected=g.reviews)
    if -MIN_GAIN < g.low and g.high < MIN_GAIN:
        said = words.LITTLE.fill(date=fmt.date(last.date), numbers=numbers, least=fmt.local(f"{MIN_GAIN:.3f}"))
        return Finding.of(ID, Verdict.OK, scope, said, evidence)
    said = words.CANNOT_TELL.fill(date=fmt.date(last.date), numbers=numbers)
    return Finding.of(ID, Verdict.NOT_ENOUGH_DATA, scope, said, evidence)


def _judged(evidence: Changed, g: PairedGain) -> Changed:
    """Return the evidence with the paired gain of the new parameters over the old on the reviews since."""
    gain_ci = (g.low, g.high)
    return replace(
        evidence,
        reviews=g.reviews,
        cards=g.cards,
        old_log_loss=g.before_log_loss,
        new_log_loss=g.after_log_loss,
        gain=g.gain,
        gain_ci=gain_ci,
    )


def _numbers(g: PairedGain) -> str:
    return text(
        words.SINCE_NUMBERS,
        reviews=fmt.count(g.reviews),
        cards=fmt.count(g.cards),
        after=fmt.log_loss(g.after_log_loss),
        before=fmt.log_loss(g.before_log_loss),
        gain=signed(g.gain),
        low=signed(g.low),
        high=signed(g.high),
    )
