"""The revlog as read: raw columns of the scope's rows, sorted by (card, id) — what reviews/revlog.py turns into
scored reviews by Anki's rules."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Revlog:
    """Raw revlog columns (int64), sorted by (cid, id); `card` indexes the card table of the scope."""

    id: np.ndarray  # int64 ms timestamp
    card: np.ndarray  # int32 index into the scope's cards
    ease: np.ndarray  # int32
    type: np.ndarray  # int8
    factor: np.ndarray  # only whether it is 0 matters (cram and Reset rows)
    duration: np.ndarray | None = None  # int64 ms (revlog.time), read only for the export
    ivl: np.ndarray | None = None  # int64 revlog.ivl (days > 0, seconds < 0), read only for comparisons
    time_rank: np.ndarray | None = None  # int32 position of each entry among all rows read, in id order

    def __len__(self) -> int:
        return int(self.id.size)


def stable_order(keys: np.ndarray) -> np.ndarray:
    """Return the stable sorting order of integer `keys` (radix passes of 16 bits when they are small)."""
    keys = np.asarray(keys)
    if keys.size == 0 or keys.min() < 0 or keys.max() >= 2**32:
        return np.argsort(keys, kind="stable")
    order = np.argsort((keys & 0xFFFF).astype(np.uint16), kind="stable")  # numpy radix-sorts 16-bit keys
    if keys.max() < 2**16:
        return order
    return order[np.argsort((keys[order] >> 16).astype(np.uint16), kind="stable")]
