"""What the add-on keeps of each preset for the places learners look later (Deck Options): the key numbers of
its last evaluation (log loss, RMSE (bins), AUC, reviews, the day), the steps its last diagnosis planned, and the
parameters and desired retention the preset had then (so that a change since can be noticed).

Numbers are kept only when they are the preset's own: the whole collection or the preset itself evaluated,
each card with its preset's parameters and the benchmark's choices (the numbers Anki's Evaluate showed). The
file is the add-on's (metrics/read/kept_file.py, metrics/export/kept_file.py), never the collection.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict

import numpy as np

from ..read.collection import CollectionData
from ..read.kept_file import KeptEntry
from ..reviews.presets import card_presets
from .evaluate import Evaluation, score
from .options import DEFAULT_OPTIONS

if TYPE_CHECKING:
    from .diagnose.plan import PresetPlan

WHOLE_SCOPES = ("collection", "preset")  # scopes whose numbers are each preset's whole


class Evaluated(TypedDict):
    """A preset's entry of an evaluation, as written (None: no finite number; not read back)."""

    evaluated: str  # the day, YYYY-MM-DD
    reviews: int
    log_loss: float | None
    rmse_bins: float | None
    auc: float | None
    params: list[float] | None
    desired_retention: float | None


class Diagnosed(TypedDict):
    """A preset's entry of a diagnosis, as written (the preset's parameters and desired retention then, when
    the data was given)."""

    diagnosed: str  # the day, YYYY-MM-DD
    steps: int
    actions: list[str]
    scope: list[str]  # [kind, value]
    diagnosed_params: NotRequired[list[float] | None]
    diagnosed_retention: NotRequired[float | None]


def standard(ev: Evaluation) -> bool:
    """Return whether the evaluation was made with the standard choices (each card's preset, benchmark bins,
    every review the same, the same-day rule of the preset's FSRS): the only numbers kept."""
    o, d = ev.options, DEFAULT_OPTIONS
    return (o.params, o.binning, o.weighting, o.same_day) == (d.params, d.binning, d.weighting, d.same_day)


def evaluated(ev: Evaluation, data: CollectionData, now: datetime | None = None) -> dict[str, Evaluated]:
    """Return, per preset with scored reviews, its key numbers in this evaluation, with the preset's parameters
    and desired retention as they are and the day."""
    s = ev.scored
    if s is None or s.p.size == 0:
        return {}
    card = np.searchsorted(data.card_ids, s.card_id)
    preset = card_presets(data)[card]
    day = (now or datetime.now()).strftime("%Y-%m-%d")
    out: dict[str, Evaluated] = {}
    for pid in np.unique(preset).tolist():
        info = data.presets.get(int(pid))
        if info is None:
            continue
        m = preset == pid
        sc = score(s.p[m], s.y[m], s.weight[m], s.bin_key[m], card[m])
        out[info.name] = {
            "evaluated": day,
            "reviews": sc.reviews,
            "log_loss": plain_number(sc.log_loss),
            "rmse_bins": plain_number(sc.rmse_bins),
            "auc": plain_number(sc.auc),  # None: one outcome only
            "params": plain_params(info.params),
            "desired_retention": plain_number(info.desired_retention),
        }
    return out


def diagnosed(
    plan: list[PresetPlan],
    scope_kind: str,
    scope_value: str,
    data: CollectionData | None = None,
    now: datetime | None = None,
) -> dict[str, Diagnosed]:
    """Return, per preset of a diagnosis's plan, how many steps it planned, their actions, the day, the scope
    it was made on (where the check of "did it help?" is made again), and the preset's parameters and desired
    retention then (from `data`: a later Optimize or a new desired retention is noticed against these)."""
    day = (now or datetime.now()).strftime("%Y-%m-%d")
    then = {info.name: info for info in (data.presets.values() if data is not None else ())}
    out: dict[str, Diagnosed] = {}
    for p in plan:
        entry: Diagnosed = {
            "diagnosed": day,
            "steps": len(p.steps),
            "actions": [s.action for s in p.steps],
            "scope": [scope_kind, scope_value],
        }
        info = then.get(p.preset)
        if info is not None:
            entry["diagnosed_params"] = plain_params(info.params)
            entry["diagnosed_retention"] = plain_number(info.desired_retention)
        out[p.preset] = entry
    return out


def plain_params(values: Iterable[Any]) -> list[float] | None:  # a preset's raw values: anything
    """Return the parameters as finite floats, or None when they are not (a malformed preset)."""
    try:
        out = [float(v) for v in values]
    except (TypeError, ValueError, OverflowError):
        return None
    return out if all(np.isfinite(out)) else None


def plain_number(value: object) -> float | None:
    """Return the value as a finite float, or None (a preset's field may hold anything)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not np.isfinite(value):
        return None
    return float(value)


def merged(
    kept: Mapping[str, Mapping[str, object]], new: Mapping[str, Mapping[str, object]]
) -> dict[str, dict[str, object]]:
    """Return `kept` with each preset's entry updated by `new` (other presets kept as they were)."""
    out = {name: dict(entry) for name, entry in kept.items()}
    for name, entry in new.items():
        out.setdefault(name, {}).update(entry)
    return out


def changed_since(entry: KeptEntry, params: Iterable[object], desired_retention: object) -> bool:
    """Return whether the preset's parameters or desired retention differ from those it had at its last
    diagnosis (Optimize pressed, or desired retention changed, since); False when none was kept."""
    kept_params, now = entry.get("diagnosed_params"), plain_params(params)
    if isinstance(kept_params, list) and now != [float(v) for v in kept_params]:
        return True  # another list, or now malformed (Anki rounds what Optimize writes: compared exactly)
    kept_dr, dr = plain_number(entry.get("diagnosed_retention")), plain_number(desired_retention)
    return kept_dr is not None and dr is not None and abs(kept_dr - dr) > 1e-9
