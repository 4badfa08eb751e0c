"""The shared scored table: every scored review with its prediction, answer, previous answer, deck and preset,
in (card, time) order, and the gap between measured and predicted recall over a group of them."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...read.collection import CollectionData
from ...reviews.presets import deck_presets
from ...score.intervals import normal_half_width
from ..evaluate import Evaluation

COLUMNS = ("p", "y", "card_id", "deck_id", "revlog_id", "delta_t", "scheduled")  # taken from an evaluation


@dataclass(frozen=True)
class Gap:
    """Measured minus predicted recall over a group of reviews, with its 95% interval."""

    reviews: int
    predicted: float
    measured: float
    low: float
    high: float

    @property
    def gap(self) -> float:
        """Return measured minus predicted recall."""
        return self.measured - self.predicted

    def to_dict(self) -> dict[str, Any]:
        """Return the numbers for a finding's evidence."""
        return {
            "reviews": self.reviews,
            "predicted": self.predicted,
            "measured": self.measured,
            "gap": self.gap,
            "gap_ci": [self.low, self.high],
        }


def gap(p: np.ndarray, y: np.ndarray) -> Gap:
    """Return the measured-minus-predicted recall of a group, its interval from the spread of y - p."""
    n = int(p.size)
    if n == 0:
        return Gap(0, math.nan, math.nan, math.nan, math.nan)
    d = y - p
    half = normal_half_width(float(d.std(ddof=1)), n) if n > 1 else math.inf
    mean = float(d.mean())
    return Gap(n, float(p.mean()), float(y.mean()), mean - half, mean + half)


def difference(a: Gap, b: Gap) -> tuple[float, float, float]:
    """Return (a.gap - b.gap, low, high): the difference of two independent groups' gaps with its interval."""
    half_a, half_b = (a.high - a.low) / 2, (b.high - b.low) / 2
    diff = a.gap - b.gap
    half = math.hypot(half_a, half_b)
    return diff, diff - half, diff + half


@dataclass(frozen=True)
class ScoredReviews:
    """The scored reviews with what the findings need, in (card, time) order."""

    p: np.ndarray
    y: np.ndarray
    rating: np.ndarray
    prev: np.ndarray  # the rating of the card's previous scored review (0: none)
    deck: np.ndarray  # home deck id
    preset: np.ndarray  # preset id
    revlog_id: np.ndarray
    by_revlog_id: np.ndarray  # the order that sorts revlog_id
    card: np.ndarray  # int32: the card's index in the scope's card_ids (the table is sorted by it)
    delta_t: np.ndarray  # days since the card's previous review
    scheduled: np.ndarray | None = None  # the interval Anki had scheduled before it (None: not read)

    def after(self, mask: np.ndarray, rating: int) -> Gap:
        """Return the gap of the reviews in `mask` whose card's previous scored answer was `rating`."""
        group = mask & (self.prev == rating)
        return gap(self.p[group], self.y[group])

    def predictions_of(self, revlog_id: np.ndarray) -> np.ndarray:
        """Return the presets' predictions of these scored reviews (by revlog id): what a replay of any
        part of the collection with the presets' parameters predicts for them (each card replays alone)."""
        order = self.by_revlog_id
        at = order[np.minimum(np.searchsorted(self.revlog_id, revlog_id, sorter=order), max(0, order.size - 1))]
        if not np.array_equal(self.revlog_id[at], revlog_id):
            raise AssertionError("a compared review is not among the scored reviews")
        return self.p[at]

    def presets_by_size(self) -> list[int]:
        """Return the presets of the scored reviews, largest first."""
        ids, counts = np.unique(self.preset, return_counts=True)
        pairs = sorted(zip(ids.tolist(), counts.tolist(), strict=True), key=lambda t: -t[1])
        return [int(i) for i, _ in pairs]


def columns(ev: Evaluation) -> dict[str, np.ndarray]:
    """Return the evaluation's per-review arrays that the findings need, by name."""
    assert ev.scored is not None
    return {k: getattr(ev.scored, k) for k in COLUMNS}


def scored_reviews(columns: dict[str, np.ndarray], data: CollectionData) -> ScoredReviews:
    """Return the scored reviews with their ratings, previous ratings, decks and presets, built from the
    evaluation's `columns` (p, y, card_id, deck_id, revlog_id, delta_t, scheduled: taken out of the dict, so
    each is let go once used; at 5M reviews both sets at once were the diagnosis's peak)."""
    p, y, card, deck, revlog_id, delta_t, scheduled = (columns.pop(k) for k in COLUMNS)
    order = np.lexsort((revlog_id, card))
    card = card[order]
    first = np.ones(card.size, dtype=bool)
    first[1:] = card[1:] != card[:-1]
    card = np.searchsorted(data.card_ids, card).astype(np.int32)  # an index: half the memory of the id
    p = p[order]  # one array at a time: the unsorted one goes as its sorted copy arrives
    y = (y[order] > 0.5).astype(np.int8)
    deck = deck[order]
    revlog_id = revlog_id[order]
    delta_t = delta_t[order].astype(np.int32)
    scheduled = scheduled[order].astype(np.int32) if scheduled is not None else None
    del order
    rl = data.revlog
    by_id = np.argsort(rl.id, kind="stable")
    rating = rl.ease[by_id[np.searchsorted(rl.id[by_id], revlog_id)]].astype(np.int8)
    del by_id
    prev = np.zeros(rating.size, dtype=np.int8)
    prev[1:] = rating[:-1]
    prev[first] = 0
    del first
    preset = deck_presets(data, deck)
    by_id = np.argsort(revlog_id, kind="stable")
    return ScoredReviews(p, y, rating, prev, deck, preset, revlog_id, by_id, card, delta_t, scheduled)
