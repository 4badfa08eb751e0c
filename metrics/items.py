"""FSRS training items as the protobuf bytes Anki's optimizer takes (ComputeFsrsParamsFromItemsRequest).

An item is one scored review with the card's whole history up to it: FsrsItem{repeated FsrsReview
reviews = 1}, FsrsReview{uint32 rating = 1; uint32 delta_t = 2}. The request is the items, each as
field 1. Encoded here with numpy (no per-review Python), so that the optimizer can be fed from the
same reviews the engine scores; items in time order make every training prefix a prefix of the bytes.
"""

from __future__ import annotations

import numpy as np

_WIDTH = 10  # bytes of the longest piece: a wrapped review (2 + 1 + 1 + 1 + 5) or an item header (1 + 5)


def _varint(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return (bytes (n, 10) uint8, length (n,)) of the protobuf varint of each non-negative value."""
    v = np.asarray(values, dtype=np.uint64)
    length = np.ones(v.size, dtype=np.int64)
    for k in range(1, 10):
        length += v >= np.uint64(1) << np.uint64(7 * k)
    out = np.zeros((v.size, 10), dtype=np.uint8)
    for k in range(10):
        byte = ((v >> np.uint64(7 * k)) & np.uint64(0x7F)).astype(np.uint8)
        out[:, k] = np.where(k < length - 1, byte | 0x80, byte)
    return out, length


class ItemEncoder:
    """Encodes items of one set of entries (grouped by card, `first` starts a card); pieces are built once."""

    def __init__(self, rating: np.ndarray, delta_t: np.ndarray, first: np.ndarray) -> None:
        n = rating.size
        # each entry as a review wrapped in FsrsItem field 1: 0x0A, len, 0x08 rating[, 0x10 delta_t]
        r_bytes, r_len = _varint(rating)
        t_bytes, t_len = _varint(delta_t)
        has_t = delta_t > 0
        msg_len = 1 + r_len + np.where(has_t, 1 + t_len, 0)
        piece = np.zeros((n, _WIDTH), dtype=np.uint8)
        piece[:, 0] = 0x0A
        piece[:, 1] = msg_len  # < 128: one byte
        piece[:, 2] = 0x08
        for k in range(int(r_len.max(initial=1))):
            longer = r_len > k
            piece[longer, 3 + k] = r_bytes[longer, k]
        pos = 3 + r_len
        with_t = np.flatnonzero(has_t)
        piece[with_t, pos[with_t]] = 0x10
        for k in range(int(t_len[with_t].max(initial=0))):
            sel = with_t[t_len[with_t] > k]
            piece[sel, pos[sel] + 1 + k] = t_bytes[sel, k]
        self.piece = piece
        self.piece_len = 2 + msg_len
        self.cum = np.concatenate(([0], np.cumsum(self.piece_len)))
        self.seg_start = np.maximum.accumulate(np.where(first, np.arange(n), 0))

    def encode(self, items: np.ndarray) -> tuple[bytes, np.ndarray]:
        """Return (request bytes, end offset of each item) for items given as entry indices, in order.

        Item k holds the entries from its card's first up to entries[items[k]].
        """
        items = np.asarray(items, dtype=np.int64)
        starts = self.seg_start[items]
        count = items - starts + 1
        payload = self.cum[items + 1] - self.cum[starts]
        h_bytes, h_len = _varint(payload)
        if h_len.size and h_len.max() > _WIDTH - 1:
            raise ValueError("an item longer than 34 GB")
        header = np.zeros((items.size, _WIDTH), dtype=np.uint8)
        header[:, 0] = 0x0A
        header[:, 1:] = h_bytes[:, : _WIDTH - 1]
        header_len = 1 + h_len
        # rows: for each item its header, then the pieces of its card's entries up to the item
        total_rows = int(count.sum()) + items.size
        head_at = np.cumsum(count + 1) - (count + 1)
        is_head = np.zeros(total_rows, dtype=bool)
        is_head[head_at] = True
        entry_rows = np.flatnonzero(~is_head)
        within = np.arange(entry_rows.size) - np.repeat(np.cumsum(count) - count, count)
        entry_of_row = np.repeat(starts, count) + within
        grid = np.empty((total_rows, _WIDTH), dtype=np.uint8)
        lengths = np.empty(total_rows, dtype=np.int64)
        grid[head_at] = header
        lengths[head_at] = header_len
        grid[entry_rows] = self.piece[entry_of_row]
        lengths[entry_rows] = self.piece_len[entry_of_row]
        data = grid[np.arange(_WIDTH)[None, :] < lengths[:, None]].tobytes()
        return data, np.cumsum(header_len + payload)


def encode_items(
    rating: np.ndarray, delta_t: np.ndarray, first: np.ndarray, items: np.ndarray
) -> tuple[bytes, np.ndarray]:
    """Return (request bytes, end offset of each item) for items given as entry indices, in order."""
    return ItemEncoder(rating, delta_t, first).encode(items)
