"""Revlog rows -> scored reviews, with the rules of Anki >= 24.11 (rslib fsrs/params.rs)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..read.revlog_table import Revlog

# revlog.type values
LEARNING, REVIEW, RELEARNING, FILTERED, MANUAL, RESCHEDULED = range(6)
DAY_SECS = 86_400


@dataclass(frozen=True)
class Reviews:
    """The kept entries of every card, in (card, time) order, ready for replay and scoring.

    `scored` marks the entries FSRS is scored on; `n_reviews` and `n_lapses` are the
    binning features (only meaningful where `scored`).
    """

    card: np.ndarray  # int32 index into the scope's cards
    revlog_id: np.ndarray  # int64 ms timestamp
    rating: np.ndarray  # int32 1..4 (as written in the revlog)
    delta_t: np.ndarray  # int32 days since the previous kept entry (0 on the first)
    first: np.ndarray  # bool, first kept entry of its card
    scored: np.ndarray  # bool
    n_reviews: np.ndarray  # int32
    n_lapses: np.ndarray  # int32
    row: np.ndarray | None = None  # int64 index of each entry's row in the Revlog it came from

    def __len__(self) -> int:
        return int(self.card.size)


def run_starts(keys: np.ndarray) -> np.ndarray:
    """Return a bool array marking where a new run of equal sorted keys starts."""
    starts = np.ones(keys.size, dtype=bool)
    if keys.size > 1:
        starts[1:] = keys[1:] != keys[:-1]
    return starts


def time_order(rl: Revlog, entries: np.ndarray | None, rid: np.ndarray) -> np.ndarray:
    """Return the order that sorts `entries` (rows) of `rl`, whose ids are `rid`, by time.

    From the read's id order when `rl` has it (no sort); else, or without `entries`, by sorting `rid`.
    """
    if rl.time_rank is None or entries is None or entries.size == 0:
        return np.argsort(rid)  # revlog ids are unique: any sort is stable enough
    rank = rl.time_rank[entries]
    slot = np.full(int(rank.max()) + 1, -1, dtype=np.int64)
    slot[rank] = np.arange(entries.size)
    return slot[slot >= 0]


def days_elapsed(revlog_id: np.ndarray, next_day_at: int) -> np.ndarray:
    """Return whole days between each entry and the next day rollover, as Anki counts them."""
    # Rust: (next_day_at - id / 1000) / 86_400 with truncating division, then max(0).
    secs = np.where(revlog_id >= 0, revlog_id // 1000, -((-revlog_id) // 1000))
    return np.maximum(np.int64(next_day_at) - secs, 0) // DAY_SECS


def build_reviews(
    revlog: Revlog,
    next_day_at: int,
    ignore_before_ms: np.ndarray,
    drop_same_day: np.ndarray,
) -> Reviews:
    """Return the kept entries and scored reviews of every card of `revlog`.

    `ignore_before_ms` and `drop_same_day` are per card (indexed by `revlog.card`):
    a card whose last learning run starts before its ignore date is dropped, and a
    card with `drop_same_day` keeps only the first entry of each day in its history.
    """
    card, ease, rtype, factor, rid = revlog.card, revlog.ease, revlog.type, revlog.factor, revlog.id
    # 1. Cram (filtered deck without rescheduling) is invisible everywhere.
    cram = (rtype == FILTERED) & (factor == 0)
    source = np.arange(card.size, dtype=np.int64)
    if cram.any():
        keep = ~cram
        card, ease, rtype, factor, rid = card[keep], ease[keep], rtype[keep], factor[keep], rid[keep]
        source = source[keep]
    del cram
    n = card.size
    if n == 0:
        return _empty_reviews()
    idx = np.arange(n, dtype=np.int32 if n < 2**31 else np.int64)
    starts = run_starts(card)

    # 2. The first entry of the last unbroken run of rated Learning entries; a Reset after
    #    that run (or no Learning entry at all) drops the card.
    is_learn = (rtype == LEARNING) & (ease >= 1)
    is_reset = (rtype == MANUAL) & (factor == 0)
    start_pos = np.flatnonzero(starts)
    last_learn = np.maximum.reduceat(np.where(is_learn, idx, -1), start_pos)
    last_reset = np.maximum.reduceat(np.where(is_reset, idx, -1), start_pos)
    valid = (last_learn >= 0) & (last_reset < last_learn)
    last_break = np.maximum.accumulate(np.where(is_learn, -1, idx))
    run_start = np.maximum(last_break[np.maximum(last_learn, 0)] + 1, start_pos)

    # 3. ignoreRevlogsBeforeDate: the whole card goes if its learning run starts earlier.
    seg_card = card[start_pos]
    valid &= rid[np.minimum(run_start, n - 1)] >= ignore_before_ms[seg_card]

    # 4. Keep rated entries from the run start on, for valid cards.
    seg_of_row = np.cumsum(starts, dtype=idx.dtype) - 1
    keep = valid[seg_of_row] & (idx >= run_start[seg_of_row]) & (ease >= 1)
    del seg_of_row, idx, last_break, is_learn, is_reset, starts
    card, rid, rating, source = card[keep], rid[keep], ease[keep], source[keep]
    del keep

    # 5. Days on the day_cutoff grid; delta_t to the previous kept entry.
    days = days_elapsed(rid, next_day_at)
    first = run_starts(card)
    delta_t = np.zeros(card.size, dtype=np.int32)
    if card.size > 1:
        delta_t[1:] = days[:-1] - days[1:]
    delta_t[first] = 0
    del days

    return finish_reviews(card, rid, rating, delta_t, first, drop_same_day, source)


def finish_reviews(
    card: np.ndarray,
    revlog_id: np.ndarray,
    rating: np.ndarray,
    delta_t: np.ndarray,
    first: np.ndarray,
    drop_same_day: np.ndarray,
    row: np.ndarray | None = None,
) -> Reviews:
    """Return Reviews from each card's kept entries (grouped by card, in time order) and their delta_t.

    Cards with `drop_same_day` keep only the first entry of each day in their history (FSRS-4.5,
    Anki <= 24.06, the benchmark without short-term); then the scored entries and binning features.
    """
    drop = drop_same_day[card] & ~first & (delta_t == 0)
    if drop.any():
        keep = ~drop
        card, revlog_id, rating, delta_t, first = card[keep], revlog_id[keep], rating[keep], delta_t[keep], first[keep]
        row = row[keep] if row is not None else None

    # Scored: every entry but the first with delta_t > 0. Binning features:
    # n = 1 + long-term entries so far (this one included); lapses = earlier long-term Agains.
    long_term = delta_t > 0
    scored = long_term & ~first
    n_reviews = _cumsum_per_card(long_term, first) + 1
    lapse = long_term & (rating == 1)
    n_lapses = _cumsum_per_card(lapse, first) - lapse
    return Reviews(
        card=card,
        revlog_id=revlog_id,
        rating=rating,
        delta_t=delta_t,
        first=first,
        scored=scored,
        n_reviews=n_reviews,
        n_lapses=n_lapses,
        row=row,
    )


def _cumsum_per_card(flags: np.ndarray, first: np.ndarray) -> np.ndarray:
    """Return the running count of `flags` within each card (inclusive)."""
    total = np.cumsum(flags, dtype=np.int32)
    before = total - flags
    base = np.maximum.accumulate(np.where(first, before, 0))
    return total - base


def _empty_reviews() -> Reviews:
    """Return a Reviews with no entries."""
    i = np.zeros(0, dtype=np.int64)
    b = np.zeros(0, dtype=bool)
    return Reviews(card=i, revlog_id=i, rating=i, delta_t=i, first=b, scored=b, n_reviews=i, n_lapses=i)
