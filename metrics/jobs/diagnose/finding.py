"""What the diagnosis returns: findings with a typed verdict, and the thresholds every finding shares."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from ...explain import findings as words
from ...explain.findings import Words
from ...read.anki_backend import HealthCheck

if TYPE_CHECKING:
    from .snapshot import Snapshot

MIN_REVIEWS = 1000  # scored reviews below which no finding gives a verdict
MIN_GROUP = 100  # reviews a group (previous answer, deck) needs before it is judged
MIN_EFFECT = 0.03  # a gap in recall smaller than 3 percentage points is not worth acting on


class Verdict(StrEnum):
    """A finding's verdict; its value is what JSON and the report show ("not-enough-data")."""

    PROBLEM = "problem"
    SUGGESTION = "suggestion"
    NOT_ENOUGH_DATA = "not-enough-data"
    OK = "ok"

    @property
    def rank(self) -> int:
        """Return the verdict's place in the list of findings: problems first, then suggestions, …, ok last."""
        return _RANKS[self]


_RANKS = {Verdict.PROBLEM: 0, Verdict.SUGGESTION: 1, Verdict.NOT_ENOUGH_DATA: 2, Verdict.OK: 3}
VERDICTS = tuple(v.value for v in Verdict)


@dataclass(frozen=True)
class Finding:
    """One thing the diagnosis says: verdict, a plain sentence, the numbers, what to do and why."""

    id: str
    verdict: Verdict
    scope: str
    summary: str
    evidence: dict[str, Any] = field(default_factory=dict)
    action: str = ""
    why: str = ""
    # What to do, as Anki's own screens: {"kind": "deck-options", "preset", "deck_id"} | {"kind": "browse",
    # "search"} | {"kind": "evaluate", "search"} (the dialog's buttons; scripts and other add-ons act on them).
    actions: list[dict[str, Any]] = field(default_factory=list)
    # How much it matters: the reviews a problem or suggestion is about (ranks them; 0 for the others).
    reviews_affected: int = 0

    @classmethod
    def of(
        cls,
        id: str,
        verdict: Verdict,
        scope: str,
        said: Words,
        evidence: dict[str, Any],
        actions: list[dict[str, Any]] | None = None,
        affected: int = 0,
    ) -> Finding:
        """Return the finding that says `said` (summary, action, why) about these numbers, which concern
        `affected` reviews."""
        return cls(id, verdict, scope, said.summary, evidence, said.action, said.why, actions or [], affected)

    def to_dict(self) -> dict[str, Any]:
        """Return the finding as JSON-ready values."""
        return asdict(self)


@dataclass(frozen=True)
class Diagnosis:
    """The findings, most important first, and Anki's own health check per preset."""

    findings: list[Finding]
    anki_health_check: dict[str, HealthCheck]
    reviews: int
    snapshot: Snapshot | None = None  # what the next diagnosis compares with (not in the JSON)
    notes: list[str] = field(default_factory=list)  # presets left out (a newer FSRS), one line each
    plan: list[Any] = field(default_factory=list)  # per preset, the steps in order (plan.PresetPlan)
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

    def by_id(self, finding_id: str) -> list[Finding]:
        """Return the findings with this id (some ids have one finding per preset or deck)."""
        return [f for f in self.findings if f.id == finding_id]


def rank(finding: Finding) -> tuple[bool, int, int]:
    """Return the finding's place in the list: the data first (what everything rests on), then problems,
    then suggestions, each by how many reviews it concerns (the most first), then not-enough-data, then ok."""
    return finding.id != "data", finding.verdict.rank, -finding.reviews_affected


def too_few(finding_id: str, scope: str, reviews: int, needed: int) -> Finding:
    """Return the not-enough-data finding: `reviews` where at least `needed` are."""
    evidence = {"reviews": reviews, "needed": needed}
    return Finding.of(finding_id, Verdict.NOT_ENOUGH_DATA, scope, words.too_few(reviews, needed), evidence)


def too_few_after(finding_id: str, scope: str, group: int, reviews: int, enough: bool) -> Finding:
    """The not-enough-data finding of a comparison after one answer: too few reviews in the scope, or in
    the group (reviews after that answer)."""
    return too_few(finding_id, scope, group, MIN_GROUP) if enough else too_few(finding_id, scope, reviews, MIN_REVIEWS)
