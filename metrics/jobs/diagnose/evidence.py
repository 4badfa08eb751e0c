"""A finding's evidence: one frozen dataclass per finding (in the finding's module), whose `to_dict` is what --json
writes under "evidence": its fields in order, those some verdicts do not have (ABSENT) left out, numbers that carry a
`to_dict` of their own written with it, tuples as lists."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Final


class _Absent:
    """The value of an evidence field a verdict does not have (not written)."""

    def __repr__(self) -> str:
        return "ABSENT"


ABSENT: Final = _Absent()
Absent = _Absent  # for annotations: `float | Absent = ABSENT`


def plain(value: object) -> object:
    """Return a value as JSON-ready data (nested evidence and numbers through their own `to_dict`)."""
    to_dict = getattr(value, "to_dict", None)
    if callable(to_dict):
        return to_dict()
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


@dataclass(frozen=True)
class Evidence:
    """The numbers a finding rests on (a subclass per finding)."""

    def to_dict(self) -> dict[str, Any]:
        """Return the evidence as --json writes it."""
        return {f.name: plain(getattr(self, f.name)) for f in fields(self) if getattr(self, f.name) is not ABSENT}


@dataclass(frozen=True)
class TooFew(Evidence):
    """Not enough data: `reviews` where at least `needed` are."""

    reviews: int
    needed: int
