"""Finding "cards": the cards FSRS keeps getting wrong — forgotten more often than predicted beyond chance.

Per card with at least MIN_CARD_REVIEWS scored reviews: lapses against the lapses FSRS predicted (its
predictions matched per preset to the preset's overall lapse rate, so that a card is listed for itself,
not for its preset), the exact Poisson-binomial tail as its p-value, and Benjamini–Hochberg over every
card tested (score/excess.py). Cards are listed only when beyond chance; the merely worst never are.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ...explain import findings as words
from ...explain import formatting as fmt
from ...kinds import AnkiAction, Browse, FindingId, Scope
from ...score.excess import FALSE_DISCOVERY_RATE, Excess, excess_lapses
from .context import Context
from .evidence import ABSENT, Absent, Evidence
from .finding import MIN_REVIEWS, Finding, Verdict, too_few

MIN_CARD_REVIEWS = 5  # scored reviews a card needs to be tested
SHOWN = 20  # cards listed in the evidence (the Browser search holds them all)


@dataclass(frozen=True)
class CardOff(Evidence):
    """A card forgotten more often than FSRS predicted beyond chance: its reviews, lapses against the lapses FSRS
    expected, the excess, the exact p-value, and whether its note is tagged leech."""

    card_id: int
    reviews: int
    lapses: int
    expected_lapses: float
    excess: float
    p_value: float
    leech: bool


@dataclass(frozen=True)
class CardsEvidence(Evidence):
    """The cards tested (with at least `min_reviews` scored reviews), the false-discovery rate, and the cards listed
    beyond chance (the first SHOWN of them, the largest excess first)."""

    cards_tested: int
    min_reviews: int
    false_discovery_rate: float
    cards_listed: int | Absent = ABSENT
    cards: tuple[CardOff, ...] = ()


def check(ctx: Context) -> list[Finding]:
    """Return the cards finding of the scope."""
    if not ctx.enough:
        return [too_few(FindingId.CARDS, Scope.collection(), ctx.reviews, MIN_REVIEWS)]
    s = ctx.scored
    result = excess_lapses(s.card, s.p, s.y, MIN_CARD_REVIEWS, stratum=s.preset)
    tested = int(result.group.size)
    evidence = CardsEvidence(tested, MIN_CARD_REVIEWS, FALSE_DISCOVERY_RATE)
    ranked = result.ranked()
    if not ranked.size:
        said = words.CARDS_OK.fill(
            tested=fmt.count(tested),
            min_reviews=fmt.count(MIN_CARD_REVIEWS),
            reviews=fmt.count(int(result.reviews.sum())),
        )
        return [Finding.of(FindingId.CARDS, Verdict.OK, Scope.collection(), said, evidence)]
    listed = _listed(ctx, result, ranked)
    said = words.cards_off(
        int(ranked.size),
        lapses=fmt.count(int(result.lapses[ranked].sum())),
        expected=fmt.local(f"{float(result.expected[ranked].sum()):.1f}"),
        reviews=fmt.count(int(result.reviews[ranked].sum())),
        tested=fmt.count(tested),
    )
    ids = ctx.data.card_ids[result.group[ranked]]
    actions: list[AnkiAction] = [Browse.cards(tuple(int(c) for c in ids))]
    evidence = replace(evidence, cards_listed=int(ranked.size), cards=tuple(listed[:SHOWN]))
    affected = int(result.reviews[ranked].sum())
    return [Finding.of(FindingId.CARDS, Verdict.SUGGESTION, Scope.collection(), said, evidence, actions, affected)]


def _listed(ctx: Context, result: Excess, ranked: np.ndarray) -> list[CardOff]:
    """Return the listed cards' numbers, the largest excess first."""
    index = result.group[ranked]
    leech = np.isin(ctx.data.card_note[index], ctx.data.leech_notes)
    return [
        CardOff(
            int(ctx.data.card_ids[i]),
            int(result.reviews[k]),
            int(result.lapses[k]),
            float(result.expected[k]),
            float(result.excess[k]),
            float(result.p_value[k]),
            bool(is_leech),
        )
        for i, k, is_leech in zip(index.tolist(), ranked.tolist(), leech.tolist(), strict=True)
    ]
