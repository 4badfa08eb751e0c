"""FSRS training items as the protobuf bytes Anki's optimizer takes (ComputeFsrsParamsFromItemsRequest).

An item is one scored review with the card's whole history up to it: FsrsItem{repeated FsrsReview
reviews = 1}, FsrsReview{uint32 rating = 1; uint32 delta_t = 2}. The request is the items, each as
field 1. Encoded here with numpy (no per-review Python), so that the optimizer can be fed from the
same reviews the engine scores; items in time order make every training prefix a prefix of the bytes.
"""

from __future__ import annotations

from concurrent.futures import Executor

import numpy as np

_BLOCK = 1 << 18  # request bytes built per step


def _varint(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return (bytes (n, width) uint8, length (n,)) of the protobuf varint of each non-negative value."""
    v = np.asarray(values, dtype=np.uint64)
    width = max(1, (int(v.max(initial=0)).bit_length() + 6) // 7)
    length = np.ones(v.size, dtype=np.int64)
    for k in range(1, width):
        length += v >= np.uint64(1) << np.uint64(7 * k)
    out = np.zeros((v.size, width), dtype=np.uint8)
    for k in range(width):
        byte = ((v >> np.uint64(7 * k)) & np.uint64(0x7F)).astype(np.uint8)
        out[:, k] = np.where(k < length - 1, byte | 0x80, byte)
    return out, length


def _put(out: np.ndarray, at: np.ndarray, varint: tuple[np.ndarray, np.ndarray]) -> None:
    """Write each row's varint bytes into `out` starting at `at`."""
    data, length = varint
    for k in range(data.shape[1]):
        rows = np.flatnonzero(length > k) if k else slice(None)
        out[at[rows] + k] = data[rows, k]


_CHUNK = 1 << 16  # items encoded per step (their run arrays stay a few MB)
_HEADER_WIDTH = 11  # an item's header: 0x0A and a varint of at most 10 bytes


def _varint_length(values: np.ndarray) -> np.ndarray:
    """Return the number of bytes of each non-negative value's protobuf varint."""
    v = np.asarray(values, dtype=np.uint64)
    length = np.ones(v.size, dtype=np.int64)
    for k in range(1, 10):
        length += v >= np.uint64(1) << np.uint64(7 * k)
    return length


def segment_starts(first: np.ndarray) -> np.ndarray:
    """Return, for each entry, the index of its card's first entry (`first` marks where a card starts)."""
    return np.maximum.accumulate(np.where(first, np.arange(first.size), 0))


class ItemEncoder:
    """Encodes items of one set of entries (grouped by card, `first` starts a card).

    Every entry's review, wrapped as FsrsItem field 1, is serialized once into one byte string; an
    item is then its header followed by the slice of that string from its card's first entry.
    """

    def __init__(self, rating: np.ndarray, delta_t: np.ndarray, first: np.ndarray) -> None:
        # each entry: 0x0A, len, 0x08 rating[, 0x10 delta_t] (delta_t 0 is the field's default: omitted)
        r_var = _varint(rating)
        t_var = _varint(delta_t)
        has_t = np.asarray(delta_t) > 0
        msg_len = 1 + r_var[1] + np.where(has_t, 1 + t_var[1], 0)  # at most 1 + 10 + 1 + 10: one byte
        piece_len = 2 + msg_len
        self.cum = np.concatenate(([0], np.cumsum(piece_len)))
        at = self.cum[:-1]
        size = int(self.cum[-1])
        flat = np.empty(size, dtype=np.uint8)
        flat[at] = 0x0A
        flat[at + 1] = msg_len
        flat[at + 2] = 0x08
        _put(flat, at + 3, r_var)
        with_t = np.flatnonzero(has_t)
        t_at = at[with_t] + 3 + r_var[1][with_t]
        flat[t_at] = 0x10
        _put(flat, t_at + 1, (t_var[0][with_t], t_var[1][with_t]))
        self.flat = flat
        self.seg_start = segment_starts(first)

    def item_ends(self, items: np.ndarray) -> np.ndarray:
        """Return the end offset of each item in the request of `items` (entry indices, in order)."""
        items = np.asarray(items, dtype=np.int64)
        payload = self.cum[items + 1] - self.cum[self.seg_start[items]]
        return np.cumsum(1 + _varint_length(payload) + payload)

    def encode(self, items: np.ndarray) -> tuple[bytes, np.ndarray]:
        """Return (request bytes, end offset of each item) for items given as entry indices, in order.

        Item k holds the entries from its card's first up to entries[items[k]]. Built chunk by chunk
        into one buffer: its peak is the request twice (the buffer and the bytes), the pieces once more
        and a few MB. Encodes may run at once in several threads (numpy releases the GIL).
        """
        items = np.asarray(items, dtype=np.int64)
        ends = self.item_ends(items)
        total = int(ends[-1]) if items.size else 0
        out = np.empty(total, dtype=np.uint8)
        # the pieces, then room for one chunk's item headers: runs are copied from this one source
        source = np.concatenate((self.flat, np.empty(_HEADER_WIDTH * _CHUNK, dtype=np.uint8)))
        for lo in range(0, items.size, _CHUNK):
            self._encode_chunk(items[lo : lo + _CHUNK], source, out, int(ends[lo - 1]) if lo else 0)
        return out.tobytes(), ends

    def _encode_chunk(self, items: np.ndarray, source: np.ndarray, out: np.ndarray, offset: int) -> None:
        """Write the items' bytes into out[offset:] (their headers go into the room at the end of `source`)."""
        pieces = self.flat.size
        body_from = self.cum[self.seg_start[items]]
        payload = self.cum[items + 1] - body_from
        h_var = _varint(payload)
        header_len = 1 + h_var[1]
        width = 1 + h_var[0].shape[1]
        headers = source[pieces : pieces + width * items.size].reshape(items.size, width)
        headers[:, 0] = 0x0A
        headers[:, 1:] = h_var[0]
        # The chunk's bytes are runs copied from the source: header, body, header, body, ...
        run_from = np.empty(2 * items.size, dtype=np.int64)
        run_len = np.empty(2 * items.size, dtype=np.int64)
        run_from[0::2] = pieces + width * np.arange(items.size)
        run_len[0::2] = header_len
        run_from[1::2] = body_from
        run_len[1::2] = payload
        run_to = np.cumsum(run_len) - run_len
        total = int(run_to[-1] + run_len[-1])
        # Source index of every output byte = running sum of steps: 1 within a run, a jump at its start.
        jump = np.empty_like(run_from)
        jump[0] = 0
        jump[1:] = run_from[1:] - (run_from[:-1] + run_len[:-1]) + 1
        itype = np.int32 if source.size < 2**31 else np.int64
        # in blocks of whole runs, so the index stays small (in cache, no page faults)
        cuts = np.unique(np.append(np.searchsorted(run_to, np.arange(0, total, _BLOCK)), run_to.size))
        for lo, hi in zip(cuts[:-1], cuts[1:], strict=True):
            a, b = run_to[lo], run_to[hi - 1] + run_len[hi - 1]
            index = np.ones(b - a, dtype=itype)
            index[run_to[lo:hi] - a] = jump[lo:hi]
            index[0] = run_from[lo]
            np.cumsum(index, out=index)
            out[offset + a : offset + b] = source[index]


REQUEST_BYTES_PER_ENTRY = 5  # an optimizer's request: about 4-5 bytes per review entry of its items' histories


def history_entries(card: np.ndarray, cards: int) -> np.ndarray:
    """Return, per card (`card`: each revlog entry's card index), the review entries its training items
    can hold: a card with k entries gives items of 1 ... k entries, k(k+1)/2 in all (an upper bound:
    learning steps and same-day repeats are not scored). What an optimizer's request grows with."""
    per_card = np.bincount(card, minlength=cards).astype(np.float64)
    return per_card * (per_card + 1) / 2


def encode_in_parts(
    encoder: ItemEncoder, items: np.ndarray, pool: Executor, parts: int = 2
) -> tuple[bytes, np.ndarray]:
    """Return encoder.encode(items), its parts encoded at once in `pool`'s threads (numpy releases the GIL)."""
    cuts = np.linspace(0, items.size, parts + 1).astype(np.int64)
    futures = [pool.submit(encoder.encode, items[a:b]) for a, b in zip(cuts[:-1], cuts[1:], strict=True)]
    done = [f.result() for f in futures]
    offsets = np.cumsum([0] + [len(data) for data, _ in done[:-1]])
    ends = np.concatenate([e + o for (_, e), o in zip(done, offsets, strict=True)])
    return b"".join(data for data, _ in done), ends


def encode_items(
    rating: np.ndarray, delta_t: np.ndarray, first: np.ndarray, items: np.ndarray
) -> tuple[bytes, np.ndarray]:
    """Return (request bytes, end offset of each item) for items given as entry indices, in order."""
    return ItemEncoder(rating, delta_t, first).encode(items)
