"""Finding "since-last" for a preset whose desired retention changed since the last diagnosis of the same scope
(`Context.last`): does the learner now recall what they asked for? Counted are the reviews whose interval was
set after the last diagnosis (the card's previous scored review came after it): their measured recall, with its
Wilson interval, against the new desired retention. Below it, the retention finding says why (it carries the
step); this one only says whether the change reached its target."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ...explain import formatting as fmt
from ...explain import since as words
from ...kinds import FindingId, Scope
from ...score.intervals import wilson
from .context import Context
from .evidence import ABSENT, Absent, Evidence
from .finding import MIN_EFFECT, Finding, Verdict
from .snapshot import Snapshot

ID = FindingId.SINCE_LAST
MIN_SCHEDULED = 100  # reviews scheduled since the last diagnosis below which the change is not judged


@dataclass(frozen=True)
class RetentionChanged(Evidence):
    """A preset's desired retention changed since the last diagnosis: before and now, the reviews scheduled since,
    and when judged their measured recall with its Wilson interval."""

    since: str
    desired_before: float
    desired: float
    reviews: int
    measured: float | Absent = ABSENT
    measured_ci: tuple[float, float] | Absent = ABSENT


def check(ctx: Context, last: Snapshot) -> list[Finding]:
    """Return one finding per preset whose desired retention differs from the last diagnosis's."""
    out = []
    for pid in ctx.scored.presets_by_size():
        info = ctx.data.presets.get(pid)
        if info is None or info.name not in last.desired_retention:
            continue
        now, before = info.desired_retention, last.desired_retention[info.name]
        if isinstance(now, bool) or not isinstance(now, int | float) or not 0 < now < 1 or abs(now - before) < 1e-9:
            continue
        out.append(_changed(ctx, Scope.preset(info.name, pid), before, float(now), last))
    return out


def scheduled_since(ctx: Context, pid: int, through_ms: int) -> np.ndarray:
    """Return the mask of the preset's scored reviews whose card's previous scored review came after
    `through_ms` (their interval was set since then)."""
    s = ctx.scored
    after = np.zeros(s.revlog_id.size, dtype=bool)
    after[1:] = (s.card[1:] == s.card[:-1]) & (s.revlog_id[:-1] > through_ms)
    return after & (s.preset == pid)


def _changed(ctx: Context, scope: Scope, before: float, now: float, last: Snapshot) -> Finding:
    mask = scheduled_since(ctx, scope.id, last.through_ms)
    n = int(mask.sum())
    values = {
        "date": fmt.date(last.date),
        "before": fmt.percent(before, 0),
        "now": fmt.percent(now, 0),
        "reviews": fmt.count(n),
    }
    evidence = RetentionChanged(last.date, before, now, n)
    if n < MIN_SCHEDULED:
        said = words.RETENTION_TOO_FEW.fill(needed=fmt.count(MIN_SCHEDULED), **values)
        return Finding.of(ID, Verdict.NOT_ENOUGH_DATA, scope, said, evidence)
    y = ctx.scored.y[mask]
    measured = float(y.mean())
    low, high = wilson(float(y.sum()), n)
    evidence = replace(evidence, measured=measured, measured_ci=(low, high))
    values.update(measured=fmt.percent(measured), interval=fmt.interval(low, high, "percent"))
    if low <= now <= high or abs(measured - now) < MIN_EFFECT / 1.5:  # the retention finding's tolerance
        said, verdict = words.RETENTION_REACHED.fill(**values), Verdict.OK
    elif measured > now:
        said, verdict = words.RETENTION_ABOVE.fill(**values), Verdict.OK
    else:
        said, verdict = words.RETENTION_BELOW.fill(**values), Verdict.SUGGESTION
    return Finding.of(ID, verdict, scope, said, evidence, affected=n if verdict != Verdict.OK else 0)
