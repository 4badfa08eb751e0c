"""What a diagnosis returns: the findings ranked, Anki's own health check per preset, the plan, and the summary the
next diagnosis compares with."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...kinds import FindingId, Verdict
from ...read.anki_backend import HealthCheck
from .finding import Finding
from .plan import PresetPlan
from .snapshot import Snapshot


@dataclass(frozen=True)
class Diagnosis:
    """The findings, most important first, and Anki's own health check per preset."""

    findings: list[Finding]
    anki_health_check: dict[str, HealthCheck]
    reviews: int
    snapshot: Snapshot | None = None  # what the next diagnosis compares with (not in the JSON)
    notes: list[str] = field(default_factory=list)  # presets left out (a newer FSRS), one line each
    plan: list[PresetPlan] = field(default_factory=list)  # per preset, the steps in order
    first_line: str = ""  # when the plan has no step: nothing to change, or too few reviews

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON object of `fsrs-calibration diagnose --json` (`notes` only when there are any)."""
        out: dict[str, Any] = {
            "plan": [p.to_dict() for p in self.plan],
            "findings": [f.to_dict() for f in self.findings],
            "anki_health_check": {name: check.to_dict() for name, check in self.anki_health_check.items()},
            "reviews": self.reviews,
        }
        if self.notes:
            out["notes"] = list(self.notes)
        return out

    def count(self, verdict: Verdict) -> int:
        """Return how many findings have this verdict."""
        return sum(f.verdict is verdict for f in self.findings)

    def by_id(self, finding_id: FindingId) -> list[Finding]:
        """Return the findings with this id (some ids have one finding per preset or deck)."""
        return [f for f in self.findings if f.id == finding_id]
