"""The summary a diagnosis leaves for the next one (snapshot.py): the scope, its latest review, its key numbers and
each preset's parameters and desired retention."""

from __future__ import annotations

from datetime import datetime

from ...score.terms import log_loss_terms
from .context import Context
from .snapshot import Snapshot


def summary(ctx: Context) -> Snapshot | None:
    """Return the summary of the diagnosis of `ctx` (None without scored reviews)."""
    s = ctx.scored
    if s.p.size == 0:
        return None
    through = int(s.revlog_id.max())
    presets = [ctx.data.presets[pid] for pid in s.presets_by_size() if pid in ctx.data.presets]
    return Snapshot(
        ctx.data.scope,
        through,
        datetime.fromtimestamp(through / 1000).strftime("%Y-%m-%d"),
        int(s.p.size),
        float(log_loss_terms(s.p, s.y).mean()),
        {p.name: [float(v) for v in p.params] for p in presets if p.params},
        {p.name: float(p.desired_retention) for p in presets if p.desired_retention},
    )
