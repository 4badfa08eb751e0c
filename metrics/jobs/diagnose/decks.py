"""Finding "decks": decks whose measured recall differs from FSRS's prediction beyond chance."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...explain import findings as words
from ...explain import formatting as fmt
from ...explain.lang import text
from ...kinds import FindingId, Scope
from .context import Context
from .evidence import Evidence
from .finding import MIN_EFFECT, MIN_GROUP, MIN_REVIEWS, Finding, Verdict, too_few
from .scored import Gap, gap

NAMED = 3  # decks named in the sentence, the largest gaps first


@dataclass(frozen=True)
class DeckOff:
    """A deck whose measured recall differs from FSRS's prediction beyond chance: its name and gap (and its id, not
    written)."""

    deck: str
    numbers: Gap
    deck_id: int = 0

    def to_dict(self) -> dict[str, object]:
        return {"deck": self.deck, **self.numbers.to_dict()}


@dataclass(frozen=True)
class DecksEvidence(Evidence):
    """How many decks had enough reviews to judge, and those off beyond chance (the largest gap first)."""

    decks_judged: int
    decks_off: tuple[DeckOff, ...]


def check(ctx: Context) -> list[Finding]:
    """Return the decks finding of the scope."""
    if not ctx.enough:
        return [too_few(FindingId.DECKS, Scope.collection(), ctx.reviews, MIN_REVIEWS)]
    off, judged = _decks_off(ctx)
    off.sort(key=lambda d: -abs(d.numbers.gap))
    evidence = DecksEvidence(judged, tuple(off))
    if not off:
        said = words.DECKS_OK.fill(min_group=fmt.count(MIN_GROUP), judged=fmt.count(judged))
        return [Finding.of(FindingId.DECKS, Verdict.OK, Scope.collection(), said, evidence)]
    names = ", ".join(_named(d) for d in off[:NAMED])
    said = words.decks_off(len(off), names)
    affected = sum(d.numbers.reviews for d in off)
    return [Finding.of(FindingId.DECKS, Verdict.SUGGESTION, Scope.collection(), said, evidence, affected=affected)]


def _named(d: DeckOff) -> str:
    """Return a deck off beyond chance as the sentence names it: its gap with the gap's 95% interval."""
    g = d.numbers
    low, high = fmt.points(g.low, True), fmt.points(g.high, True)
    gap, reviews = fmt.points(g.gap, True), fmt.count(g.reviews)
    return text(words.DECK_OFF, deck=fmt.name(d.deck), gap=gap, low=low, high=high, reviews=reviews)


def _decks_off(ctx: Context) -> tuple[list[DeckOff], int]:
    """Return the decks off beyond chance (name and gap), and how many decks had enough reviews to judge."""
    s = ctx.scored
    off = []
    judged = 0
    for did in np.unique(s.deck).tolist():
        m = s.deck == did
        if m.sum() < MIN_GROUP:
            continue
        judged += 1
        g = gap(s.p[m], s.y[m])
        if (g.low > 0 or g.high < 0) and abs(g.gap) >= MIN_EFFECT:
            off.append(DeckOff(ctx.data.deck_names.get(int(did), str(did)), g, int(did)))
    return off, judged
