"""What the diagnosis returns: findings with a typed verdict, and the thresholds every finding shares."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...explain import findings as words
from ...explain.findings import Words
from ...kinds import AnkiAction, FindingId, Scope, Verdict
from .evidence import Evidence, TooFew

MIN_REVIEWS = 1000  # scored reviews below which no finding gives a verdict
MIN_GROUP = 100  # reviews a group (previous answer, deck) needs before it is judged
MIN_EFFECT = 0.03  # a gap in recall smaller than 3 percentage points is not worth acting on


VERDICTS = tuple(v.value for v in Verdict)
ACTING = (Verdict.PROBLEM, Verdict.SUGGESTION)


@dataclass(frozen=True)
class Finding:
    """One thing the diagnosis says: verdict, a plain sentence, the numbers, what to do and why."""

    id: FindingId
    verdict: Verdict
    scope: Scope
    summary: str
    evidence: Evidence = field(default_factory=Evidence)
    action: str = ""
    why: str = ""
    # What to do, as Anki's own screens (the dialog's buttons; --json writes them for scripts and other add-ons).
    actions: list[AnkiAction] = field(default_factory=list)
    # How much it matters: the reviews a problem or suggestion is about (ranks them; 0 for the others).
    reviews_affected: int = 0

    @classmethod
    def of(
        cls,
        id: FindingId,
        verdict: Verdict,
        scope: Scope,
        said: Words,
        evidence: Evidence,
        actions: list[AnkiAction] | None = None,
        affected: int = 0,
    ) -> Finding:
        """Return the finding that says `said` (summary, action, why) about these numbers, which concern
        `affected` reviews."""
        return cls(id, verdict, scope, said.summary, evidence, said.action, said.why, actions or [], affected)

    def to_dict(self) -> dict[str, Any]:
        """Return the finding as JSON-ready values."""
        return {
            "id": str(self.id),
            "verdict": str(self.verdict),
            "scope": self.scope.key,
            "summary": self.summary,
            "evidence": self.evidence.to_dict(),
            "action": self.action,
            "why": self.why,
            "actions": [a.to_dict() for a in self.actions],
            "reviews_affected": self.reviews_affected,
        }


def rank(finding: Finding) -> tuple[bool, int, int]:
    """Return the finding's place in the list: the data first (what everything rests on), then problems,
    then suggestions, each by how many reviews it concerns (the most first), then not-enough-data, then ok."""
    return finding.id is not FindingId.DATA, finding.verdict.rank, -finding.reviews_affected


def too_few(finding_id: FindingId, scope: Scope, reviews: int, needed: int) -> Finding:
    """Return the not-enough-data finding: `reviews` where at least `needed` are."""
    return Finding.of(
        finding_id, Verdict.NOT_ENOUGH_DATA, scope, words.too_few(reviews, needed), TooFew(reviews, needed)
    )


def too_few_after(finding_id: FindingId, scope: Scope, group: int, reviews: int, enough: bool) -> Finding:
    """The not-enough-data finding of a comparison after one answer: too few reviews in the scope, or in
    the group (reviews after that answer)."""
    return too_few(finding_id, scope, group, MIN_GROUP) if enough else too_few(finding_id, scope, reviews, MIN_REVIEWS)
