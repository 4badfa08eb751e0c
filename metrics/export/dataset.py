"""The FSRS benchmark's dataset format (anki-revlogs-10k): build it from a collection, write it, read it.

Tables (all int64), as open-spaced-repetition/anki-revlogs-dataset-builder makes them:
  revlogs: card_id, day_offset, rating, state, duration, elapsed_days, elapsed_seconds
  cards:   card_id, note_id, deck_id
  decks:   deck_id, parent_id, preset_id (parent_id is the parent's deck_id, -1 for a top-level deck)
Every id is renumbered 0..n-1 in order of first appearance; no timestamp, name or text is kept.
"""

from __future__ import annotations

import contextlib
import errno
import io
import json
import os
import zlib
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import BinaryIO

import numpy as np

from ..errors import EvaluationError
from ..explain import formatting as fmt
from ..explain.lang import _, text
from ..read.collection import CollectionData
from ..read.dataset_layout import FORMAT_VERSION, REVLOG_COLUMNS, ROOT, TABLES, USER, Tables
from ..reviews.revlog import FILTERED, LEARNING, run_starts, time_order
from .safefile import safe_output, safe_outputs
from .ziparchive import DEFLATED, TooLarge, ZipWriter, deflate_part


class _IdMapper:
    """Renumbers ids 0, 1, 2, … in order of first appearance, one numbering per name (as the builder)."""

    def __init__(self) -> None:
        self.keys: dict[str, np.ndarray] = {}  # per name: the values seen, in the order they got their ids

    def factorize(self, values: np.ndarray, name: str) -> np.ndarray:
        """Return the id of each value, giving new values the next ids in order of first appearance."""
        values = np.asarray(values, dtype=np.int64)
        known = self.keys.get(name, np.zeros(0, dtype=np.int64))
        sorted_known = known.size < 2 or bool(np.all(known[1:] > known[:-1]))
        if values.size and sorted_known and np.all(values[1:] >= values[:-1]):  # both sorted: runs, no sort
            starts = run_starts(values)
            uniq = values[starts]
            at = np.minimum(np.searchsorted(known, uniq), max(known.size - 1, 0))
            found = known[at] == uniq if known.size else np.zeros(uniq.size, dtype=bool)
            self.keys[name] = np.concatenate([known, uniq[~found]])  # new values in order of appearance
            ids = np.where(found, at, known.size + np.cumsum(~found) - 1)
            return ids[np.cumsum(starts) - 1]
        uniq, first = np.unique(values, return_index=True)
        new = ~np.isin(uniq, known, kind="sort")  # ids span ~10^12: never a lookup table
        keys = np.concatenate([known, uniq[new][np.argsort(first[new], kind="stable")]])
        self.keys[name] = keys
        order = np.argsort(keys, kind="stable")
        return order[np.searchsorted(keys[order], values)] if values.size else np.zeros(0, dtype=np.int64)


def _trunc_div(a: np.ndarray, b: float) -> np.ndarray:
    """Return int(a / b) with Python's float semantics (truncation toward zero), as the builder."""
    return np.trunc(a / b).astype(np.int64)


def build_tables(data: CollectionData, whole_collection: bool = False) -> Tables:
    """Return the benchmark tables of the scope read into `data` (which must hold durations).

    Reviews are rated (1-4) and not cram; each card keeps its rows from its last learning start (a
    Learning row after a non-Learning one), cards without one are left out. `state` is the revlog
    type + 1, and 0 on the learning start; days count on the day-rollover grid from 0.
    """
    if data.revlog.duration is None:
        raise ValueError("read the collection with with_durations=True")
    ids = _IdMapper()  # one numbering shared by the tables, in this order: revlogs, cards, decks
    revlogs = _revlog_table(data, ids, _exported_rows(data))
    # cards: every card of the scope, in id order, under its home deck
    cards = {
        "card_id": ids.factorize(data.card_ids, "card_id"),
        "note_id": ids.factorize(data.card_note, "note_id"),
        "deck_id": ids.factorize(data.home_deck, "deck_id"),
    }
    return Tables(revlogs=revlogs, cards=cards, decks=_deck_table(data, ids, whole_collection))


def _exported_rows(data: CollectionData) -> dict[str, np.ndarray]:
    """Return the exported entries of the revlog, by card and time: "source" (their rows in the revlog),
    "card", "kind" (revlog type) and "start_row" (whether each is its card's learning start)."""
    rl = data.revlog
    kept = np.flatnonzero((rl.ease >= 1) & (rl.ease <= 4) & ~((rl.type == FILTERED) & (rl.factor == 0)))
    card, kind = rl.card[kept], rl.type[kept]
    n = card.size
    first = run_starts(card)
    prev_kind = np.empty(n, dtype=kind.dtype)
    prev_kind[1:] = kind[:-1]
    learn_start = (kind == LEARNING) & (first | (prev_kind != LEARNING))
    idx = np.arange(n)
    seg = np.cumsum(first) - 1
    starts = np.flatnonzero(first)
    last_start = np.maximum.reduceat(np.where(learn_start, idx, -1), starts) if n else np.zeros(0, dtype=np.int64)
    rows = (last_start[seg] >= 0) & (idx >= last_start[seg]) if n else np.zeros(0, dtype=bool)
    del first, prev_kind, idx, seg, starts, last_start
    return {"source": kept[rows], "card": card[rows], "kind": kind[rows], "start_row": learn_start[rows]}


def _revlog_table(data: CollectionData, ids: _IdMapper, rows: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Return the revlogs table of the exported `rows` (taken out of the dict: each let go once used)."""
    # Each column is computed by card (the elapsed values are differences within a card's history),
    # then put in time order; every by-card array is dropped as soon as it is used (5M reviews: 40 MB each).
    rl = data.revlog
    source = rows.pop("source")
    rid = rl.id[source]
    order = time_order(rl, source, rid)
    in_time = source[order]
    del source
    state = rows.pop("kind").astype(np.int64) + 1
    state[rows.pop("start_row")] = 0
    new_history = state == 0
    day_offset = _trunc_div(rid / 1000 - data.next_day_at, 86400.0)
    if day_offset.size:
        day_offset -= day_offset.min()
    elapsed_days = np.diff(day_offset, prepend=0)
    elapsed_days[new_history] = -1
    elapsed_seconds = _trunc_div(np.diff(rid, prepend=0).astype(np.float64), 1000.0)
    elapsed_seconds[new_history] = -1
    del rid, new_history
    revlogs = {"card_id": ids.factorize(data.card_ids[rows.pop("card")], "card_id")[order]}
    revlogs["day_offset"] = day_offset[order]
    del day_offset
    revlogs["rating"] = rl.ease[in_time].astype(np.int64)
    revlogs["state"] = state[order]
    del state
    assert rl.duration is not None
    revlogs["duration"] = rl.duration[in_time].astype(np.int64)
    revlogs["elapsed_days"] = elapsed_days[order]
    del elapsed_days
    revlogs["elapsed_seconds"] = elapsed_seconds[order]
    return revlogs


def _deck_table(data: CollectionData, ids: _IdMapper, whole_collection: bool) -> dict[str, np.ndarray]:
    """Return the decks table: normal decks (filtered ones have no preset) - all of them for the whole
    collection, else those of the scope's cards and their ancestors - in id order."""
    by_name = {name: did for did, name in data.deck_names.items()}
    wanted = set(data.deck_preset) if whole_collection else _with_ancestors(set(data.home_deck.tolist()), data)
    deck_ids = np.array(sorted(d for d in wanted if d in data.deck_preset), dtype=np.int64)
    parents = np.array([_parent(data.deck_names[d], by_name) for d in deck_ids.tolist()], dtype=np.int64)
    deck_numbers = ids.factorize(deck_ids, "deck_id")
    parent_numbers = np.full(parents.size, ROOT, dtype=np.int64)
    has_parent = parents != ROOT
    parent_numbers[has_parent] = ids.factorize(parents[has_parent], "deck_id")  # the parents' own deck_id
    presets = np.array([data.deck_preset[d] for d in deck_ids.tolist()], dtype=np.int64)
    return {"deck_id": deck_numbers, "parent_id": parent_numbers, "preset_id": ids.factorize(presets, "preset_id")}


def _parent(name: str, by_name: dict[str, int]) -> int:
    """Return the deck id of the parent of the deck named `name` (ROOT for a top-level deck or a lost parent)."""
    return by_name.get(name.rsplit("::", 1)[0], ROOT) if "::" in name else ROOT


def _with_ancestors(decks: set[int], data: CollectionData) -> set[int]:
    """Return the decks and every deck above them."""
    by_name = {name: did for did, name in data.deck_names.items()}
    out = set(decks)
    for did in decks:
        name = data.deck_names.get(did, "")
        while "::" in name:
            name = name.rsplit("::", 1)[0]
            if name in by_name:
                out.add(by_name[name])
    return out


# -- CSV ------------------------------------------------------------------------------------------
_POWERS = 10 ** np.arange(1, 19, dtype=np.int64)
_SPACE = 32


def csv_bytes(columns: dict[str, np.ndarray]) -> bytes:
    """Return the table as CSV (header line, integers, LF line ends), formatted without a Python loop per row.

    Each column is written right-aligned into a fixed-width byte grid padded with spaces, then the
    spaces (which no value contains) are squeezed out in one pass.
    """
    return (",".join(columns) + "\n").encode() + _csv_rows(columns)


def _csv_rows(columns: dict[str, np.ndarray]) -> bytes:
    """Return the table's rows as CSV lines (no header)."""
    names = list(columns)
    if not names or len(columns[names[0]]) == 0:
        return b""
    cols = [np.asarray(columns[c], dtype=np.int64) for c in names]
    n = cols[0].size
    layout = []
    for c in cols:
        digits = int(np.searchsorted(_POWERS, int(np.abs(c).max()), side="right")) + 1
        layout.append((digits, bool((c < 0).any())))
    grid = np.full((n, sum(d + neg + 1 for d, neg in layout)), _SPACE, dtype=np.uint8)
    offset = 0
    for k, (c, (digits, has_neg)) in enumerate(zip(cols, layout, strict=True)):
        width = digits + has_neg
        q = np.abs(c)
        if digits <= 9:
            q = q.astype(np.int32)  # narrower integers divide faster
        for d in range(digits):  # from the units digit leftwards; leading zeros become spaces
            rest = q // 10  # division by a constant is fast, % is not: the digit is q - 10 * rest
            char = (q - rest * 10).astype(np.uint8)
            char += 48
            if d:
                char -= (q == 0).view(np.uint8) << 4  # "0" (48) -> " " (32) once nothing is left
            grid[:, offset + width - 1 - d] = char
            q = rest
        if has_neg:
            neg = np.flatnonzero(c < 0)
            ndig = np.searchsorted(_POWERS, np.abs(c[neg]), side="right") + 1
            grid[neg, offset + width - 1 - ndig] = ord("-")
        grid[:, offset + width] = ord("\n") if k == len(cols) - 1 else ord(",")
        offset += width + 1
    flat = grid.reshape(-1)
    return flat[flat != _SPACE].tobytes()


# -- the zip ----------------------------------------------------------------------------------------
_CSV_BLOCK_ROWS = 100_000  # rows formatted per step; each step's bytes are deflated in a thread


def write_zip(
    tables: Tables,
    path: str,
    metadata: dict,
    protected: Iterable[str] = (),
    force: bool = False,
    wrap: Callable[[BinaryIO], BinaryIO] | None = None,
) -> None:
    """Write the tables as one zip (CSV in the benchmark's layout, parquet too if pyarrow is there).

    The CSV is formatted in blocks of rows, each block deflated in a worker thread while the next
    is formatted (zlib and pyarrow release the GIL). The file appears whole or not at all, never over
    the `protected` collection's files, an existing file (unless `force`) or a device: see safefile.
    `wrap` lets a test stand between the writer and the file (a full disk).
    """
    try:
        with safe_output(path, protected, force) as out, ThreadPoolExecutor(max_workers=3) as pool:
            parquet = pool.submit(_parquet_files, tables)
            csvs = {name: _deflated_csv(getattr(tables, name), pool) for name in TABLES}
            z = ZipWriter(out if wrap is None else wrap(out))
            for name, (parts, crc, size) in csvs.items():
                z.add(f"{name}/{USER}/data.csv", [part.result() for part in parts], crc, size, DEFLATED)
            for name, data in parquet.result().items():  # already compressed: stored
                z.add_bytes(f"parquet/{name}/{USER}/data.parquet", data, deflate=False)
            meta = dict(metadata, format="anki-revlogs-10k", format_version=FORMAT_VERSION, rows=tables.rows())
            z.add_bytes("metadata.json", json.dumps(meta, indent=1, sort_keys=True).encode())
            z.close()
    except TooLarge:
        raise EvaluationError(
            text(
                "{path}: the export is larger than a zip without zip64 can hold (4 GiB); nothing was saved.",
                path=fmt.name(path),
            )
        ) from None


def _deflated_csv(columns: dict[str, np.ndarray], pool: ThreadPoolExecutor) -> tuple[list[Future[bytes]], int, int]:
    """Return (deflated parts being made in `pool`, CRC-32, size) of the table's CSV, formatted block by block."""
    n = len(next(iter(columns.values())))
    count = max(1, -(-n // _CSV_BLOCK_ROWS))
    parts, crc, size = [], 0, 0
    for k in range(count):
        rows = {c: v[k * _CSV_BLOCK_ROWS : (k + 1) * _CSV_BLOCK_ROWS] for c, v in columns.items()}
        block = csv_bytes(rows) if k == 0 else _csv_rows(rows)  # the header comes with the first block
        crc, size = zlib.crc32(block, crc), size + len(block)
        parts.append(pool.submit(deflate_part, block, k == count - 1))
    return parts, crc, size


_FEW_VALUES = {"rating", "state", "day_offset", "elapsed_days", "deck_id", "parent_id", "preset_id"}


def _parquet_files(tables: Tables) -> dict[str, bytes]:
    """Return each table as parquet bytes, or nothing when pyarrow is not importable (as in Anki)."""
    try:
        import pyarrow  # noqa: F401  (optional: never required, never bundled)
    except Exception:  # not installed, or an install that fails to import: CSV only
        return {}
    return {name: _parquet_bytes(getattr(tables, name)) for name in TABLES}


def _parquet_bytes(columns: dict[str, np.ndarray]) -> bytes:
    """Return int64 columns as a parquet file (needs pyarrow)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    sink = io.BytesIO()
    table = pa.table({k: pa.array(v, type=pa.int64()) for k, v in columns.items()})
    few_values = [c for c in columns if c in _FEW_VALUES]  # dictionary-encoded; ids and times are not worth it
    pq.write_table(table, sink, use_dictionary=few_values, compression="zstd")
    return sink.getvalue()


def write_parquet_folder(tables: Tables, folder: str, user: int = 0, force: bool = False) -> list[str]:
    """Write the tables as the benchmark's parquet layout, FOLDER/<table>/user_id=N/data.parquet; return the paths.

    What srs-benchmark reads with --data (and what anki-revlogs-10k holds). Needs pyarrow. Each file is
    written together (safe_outputs): all three or none, never over an existing file unless `force`; the
    folders this run created are removed again when nothing is written.
    """
    try:
        import pyarrow  # noqa: F401
    except Exception:
        raise EvaluationError(
            _("Writing parquet needs pyarrow (pip install pyarrow); the CSV export needs nothing.")
        ) from None
    paths = [os.path.join(folder, name, f"user_id={user}", "data.parquet") for name in TABLES]
    if not force:
        taken = [p for p in paths if os.path.lexists(p)]
        if taken:
            raise EvaluationError(
                text(
                    "{path}: already exists; nothing was written (use --force to replace it).", path=fmt.name(taken[0])
                )
            )
    data = [_parquet_bytes(getattr(tables, name)) for name in TABLES]
    made = _make_folders([os.path.dirname(p) for p in paths], folder)
    try:
        with safe_outputs(paths, force=force) as outs:  # the three files, or none
            for out, table in zip(outs, data, strict=True):
                out.write(table)
    except BaseException:
        _remove_empty(made)
        raise
    return paths


def _make_folders(folders: list[str], shown: str) -> list[str]:
    """Create the folders that are missing; return those created, parents first. One line if that fails."""
    made: list[str] = []
    try:
        for leaf in folders:
            missing = []
            at = os.path.abspath(leaf)
            while not os.path.lexists(at):
                missing.append(at)
                at = os.path.dirname(at)
            for path in reversed(missing):
                os.mkdir(path)
                made.append(path)
            if not os.path.isdir(leaf):
                raise NotADirectoryError(errno.ENOTDIR, _("a part of the path is a file, not a folder"))
    except OSError as err:
        _remove_empty(made)
        raise EvaluationError(
            text(
                "{path}: cannot create the folders there ({reason}); nothing was written.",
                path=fmt.name(shown),
                reason=err.strerror or err,
            )
        ) from None
    return made


def _remove_empty(folders: list[str]) -> None:
    """Remove the folders this run created, children first (only while empty)."""
    for path in reversed(folders):
        with contextlib.suppress(OSError):
            os.rmdir(path)


def prepare_parquet() -> bool:
    """Import pyarrow and run its parquet writer once on a small table; return whether parquet is available.

    Its first use costs more than the later ones (imports, allocator, encoders): the export calls this
    while the revlog is read, when a core is free.
    """
    try:
        import pyarrow.parquet  # noqa: F401

        _parquet_bytes({c: np.arange(20_000, dtype=np.int64) % 97 for c in REVLOG_COLUMNS})
    except Exception:  # a warm-up only: the export itself reports or skips what fails here
        return False
    return True
