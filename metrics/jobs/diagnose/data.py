"""Finding "data": are there enough scored reviews for any verdict?"""

from __future__ import annotations

from dataclasses import dataclass

from ...explain import findings as words
from ...explain import formatting as fmt
from ...kinds import FindingId, Scope
from .context import Context
from .evidence import Evidence
from .finding import MIN_REVIEWS, Finding, Verdict


@dataclass(frozen=True)
class DataEvidence(Evidence):
    """The scored reviews and cards every verdict rests on, and how many are needed."""

    scored_reviews: int
    cards: int
    needed: int


def check(ctx: Context) -> list[Finding]:
    """Return how many reviews the verdicts rest on, or that they are too few."""
    reviews, cards = ctx.reviews, ctx.cards
    evidence = DataEvidence(reviews, cards, MIN_REVIEWS)
    if not ctx.enough:
        said = words.DATA_TOO_FEW.fill(reviews=fmt.count(reviews), needed=fmt.count(MIN_REVIEWS))
        return [Finding.of(FindingId.DATA, Verdict.NOT_ENOUGH_DATA, Scope.collection(), said, evidence)]
    said = words.DATA_OK.fill(reviews=fmt.count(reviews), cards=fmt.count(cards))
    return [Finding.of(FindingId.DATA, Verdict.OK, Scope.collection(), said, evidence)]
