"""What a diagnosis leaves for the next one (issue 21, "did acting help?"): the scope, the latest review
it saw, its key numbers and each preset's parameters and desired retention. Kept in the add-on's own user
files (never in the collection); read as untrusted input (metrics/read/history_file.py)."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any

FIELDS = ("scope", "through_ms", "date", "reviews", "log_loss", "params", "desired_retention")


@dataclass(frozen=True)
class Snapshot:
    """One diagnosis, summed up: `through_ms` is the latest scored review's id (ms since the epoch)."""

    scope: str
    through_ms: int
    date: str  # YYYY-MM-DD of that review, local time
    reviews: int
    log_loss: float
    params: dict[str, list[float]] = field(default_factory=dict)  # preset name -> parameters in use
    desired_retention: dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """Return the snapshot as JSON-ready values."""
        return asdict(self)

    @classmethod
    def from_dict(cls, d: Any) -> Snapshot:
        """Return the snapshot written by `to_dict`; ValueError for anything else."""
        if not isinstance(d, dict) or set(d) != set(FIELDS):
            raise ValueError("not a diagnosis summary")
        params, retention = d["params"], d["desired_retention"]
        if not isinstance(params, dict) or not isinstance(retention, dict):
            raise ValueError("parameters or retention not a table")
        return cls(
            str(d["scope"]),
            _integer(d["through_ms"]),
            str(d["date"]),
            _integer(d["reviews"]),
            _number(d["log_loss"]),
            {str(k): [_number(v) for v in _sequence(vs)] for k, vs in params.items()},
            {str(k): _number(v) for k, v in retention.items()},
        )


def _integer(v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < 2**63:
        raise ValueError(f"not a count: {v!r}")
    return v


def _number(v: Any) -> float:
    if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
        raise ValueError(f"not a number: {v!r}")
    return float(v)


def _sequence(v: Any) -> list[Any]:
    if not isinstance(v, list) or len(v) > 64:
        raise ValueError("parameters not a list")
    return v


def last_for(history: list[dict[str, Any]], scope: str) -> Snapshot | None:
    """Return the newest summary of this scope in `history` (entries that are not summaries are skipped)."""
    for entry in reversed(history):
        try:
            snap = Snapshot.from_dict(entry)
        except ValueError:
            continue
        if snap.scope == scope:
            return snap
    return None


def appended(history: list[dict[str, Any]], snap: Snapshot | None) -> list[dict[str, Any]]:
    """Return `history` with `snap` added last (unchanged without one)."""
    return history if snap is None else [*history, snap.to_dict()]
