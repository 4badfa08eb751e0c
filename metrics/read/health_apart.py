"""Anki's own health check, run apart from the learner's open collection, so Anki's window never waits for it.

Anki's health check (`compute_fsrs_params(health_check=True)`, what Deck Options' Optimize runs) trains
FSRS several times while it holds the collection: run on the learner's collection, answering a card waited
for it (7.2 s at 650,000 revlog rows). Here the check reads what it needs first — the preset's settings and
the revlog rows of the cards its search finds, mostly from the data the diagnosis already read — writes those
rows into a private collection in a scratch folder, and runs Anki's same call there. The result is Anki's own,
bit for bit (tests/engine/test_health_apart.py compares it with the call on the learner's collection).

Anki turns revlog times into days with the collection's day cutoff; the private collection has its own, so
the rows are written shifted by the difference (the days between reviews, and the ignore-before date, are
unchanged). Only the columns Anki's items use carry the learner's values (id, card, button, interval, kind,
whether the ease factor is 0); the others are 0.
"""

from __future__ import annotations

import itertools
import os
import shutil
import sqlite3
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from .anki_backend import HealthCheck, HealthChecker, PresetCheck, preset_check
from .collection import LIVING_CHUNK_ROWS, CollectionData, _revlog

if TYPE_CHECKING:
    from .anki_collection import AnkiCollection

ROWS_PER_INSERT = 100_000  # rows built and written at a time (a Python tuple each: bounded memory)
ABORT_POLL_S = 0.1  # how often a running check looks at should_stop
_INSERT = "insert into revlog (id, cid, usn, ease, ivl, lastIvl, factor, time, type) values (?,?,0,?,?,0,?,0,?)"

OpenCollection = Callable[[str], "AnkiCollection"]  # path -> an anki Collection (created when the file does not exist)


@dataclass(frozen=True)
class Rows:
    """Revlog rows for Anki's items: time (ms), card id, button, interval, ease factor (0 or not), kind."""

    id: np.ndarray
    cid: np.ndarray
    ease: np.ndarray
    ivl: np.ndarray
    factor: np.ndarray
    kind: np.ndarray


def apart_health_check(
    col: AnkiCollection,
    data: CollectionData,
    open_collection: OpenCollection,
    folder: str,
    should_stop: Callable[[], bool] | None = None,
) -> HealthChecker:
    """Return check(preset name) -> Anki's health check of that preset, run in a private collection.

    `folder` is a private scratch folder for the private collections (the caller removes it); the learner's
    `col` is only read, briefly: the preset's settings, the cards its search finds, and the revlog rows of
    those cards that `data` does not hold.
    """
    empty = Empty(open_collection, os.path.join(folder, "empty.anki2"))
    numbers = itertools.count()

    def check(name: str) -> HealthCheck | None:
        conf = next((c for c in col.decks.all_config() if c.get("name") == name), None)
        if conf is None:
            return None
        inputs = preset_check(conf)
        rows = preset_rows(col, data, np.array(sorted(col.find_cards(inputs.search)), dtype=np.int64))
        path = os.path.join(folder, f"preset-{next(numbers)}.anki2")  # checks may run side by side
        shift_ms = empty.copy_to(path, data.next_day_at)
        try:
            return run_apart(inputs, rows, shift_ms, open_collection, path, should_stop)
        finally:
            os.remove(path)

    return check


class Empty:
    """An empty private collection made once, copied for each check: its day cutoff is known."""

    def __init__(self, open_collection: OpenCollection, path: str) -> None:
        self.open_collection, self.path = open_collection, path
        self.cutoff: int | None = None
        self.lock = threading.Lock()

    def copy_to(self, path: str, next_day_at: int) -> int:
        """Copy the empty collection to `path`; return the shift (ms) that puts revlog times in its days."""
        with self.lock:
            if self.cutoff is None:
                private = self.open_collection(self.path)
                try:
                    self.cutoff = int(private.sched.day_cutoff)
                finally:
                    private.close(downgrade=False)
        shutil.copyfile(self.path, path)
        return (self.cutoff - int(next_day_at)) * 1000


def preset_rows(col: AnkiCollection, data: CollectionData, card_ids: np.ndarray) -> Rows:
    """Return the revlog rows of these cards (sorted ids): from `data` where it holds them, else read."""
    rl = data.revlog
    parts = []
    if rl.ivl is not None:
        held = np.isin(data.card_ids, card_ids)
        take = np.flatnonzero(held[rl.card])
        parts.append(
            Rows(rl.id[take], data.card_ids[rl.card[take]], rl.ease[take], rl.ivl[take], rl.factor[take], rl.type[take])
        )
        card_ids = card_ids[~np.isin(card_ids, data.card_ids)]
    if card_ids.size:
        more = _revlog(col, card_ids, False, True, LIVING_CHUNK_ROWS)
        parts.append(Rows(more.id, card_ids[more.card], more.ease, more.ivl, more.factor, more.type))  # type: ignore[arg-type]
    if not parts:
        empty = np.zeros(0, dtype=np.int64)
        return Rows(empty, empty, empty, empty, empty, empty)
    return Rows(*(np.concatenate([getattr(p, f) for p in parts]) for f in Rows.__dataclass_fields__))


def run_apart(
    inputs: PresetCheck,
    rows: Rows,
    shift_ms: int,
    open_collection: OpenCollection,
    path: str,
    should_stop: Callable[[], bool] | None = None,
) -> HealthCheck | None:
    """Write `rows`, shifted by `shift_ms`, into the empty private collection at `path` and run Anki's health
    check there (None when should_stop stopped it)."""
    _write(path, rows, shift_ms)
    ignore = inputs.ignore_before_ms + shift_ms if inputs.ignore_before_ms > 0 else 0
    private = open_collection(path)
    try:
        with _aborting(private, should_stop):
            response = private._backend.compute_fsrs_params(
                search="",  # the whole private collection: the preset's rows only
                current_params=inputs.params,
                ignore_revlogs_before_ms=ignore,
                num_of_relearning_steps=inputs.relearning_steps,
                health_check=True,
            )
    except Exception:
        if should_stop is not None and should_stop():
            return None  # aborted: the diagnosis was cancelled
        raise
    finally:
        private.close(downgrade=False)
    passed = response.health_check_passed if response.HasField("health_check_passed") else None
    return HealthCheck(passed, int(response.fsrs_items), inputs.search)


def _write(path: str, rows: Rows, shift_ms: int) -> None:
    """Insert the rows into the private collection's revlog (closed meanwhile), a slice at a time."""
    db = sqlite3.connect(path)
    try:
        db.execute("pragma journal_mode = off")
        db.execute("pragma synchronous = off")
        for index in ("ix_revlog_usn", "ix_revlog_cid"):  # writes 2× faster without; Anki reads all rows
            db.execute(f"drop index if exists {index}")
        with db:
            db.executemany(_INSERT, _tuples(rows, shift_ms))
    finally:
        db.close()


def _tuples(rows: Rows, shift_ms: int) -> Iterator[tuple[int, ...]]:
    for at in range(0, rows.id.size, ROWS_PER_INSERT):
        part = slice(at, at + ROWS_PER_INSERT)
        factor = np.where(rows.factor[part] != 0, 2500, 0)
        yield from zip(
            (rows.id[part] + shift_ms).tolist(),
            rows.cid[part].tolist(),
            rows.ease[part].tolist(),
            rows.ivl[part].tolist(),
            factor.tolist(),
            rows.kind[part].tolist(),
            strict=True,
        )


class _aborting:  # noqa: N801 (a context manager used as a function)
    """While inside, ask the private backend to abort as soon as should_stop() says so."""

    def __init__(self, private: AnkiCollection, should_stop: Callable[[], bool] | None) -> None:
        self.private, self.should_stop = private, should_stop
        self.done = threading.Event()
        self.watcher = threading.Thread(target=self._watch, name="fsrs-calibration-health-abort", daemon=True)

    def __enter__(self) -> None:
        if self.should_stop is not None:
            self.watcher.start()

    def __exit__(self, *exc: object) -> None:
        self.done.set()
        if self.watcher.is_alive():
            self.watcher.join()

    def _watch(self) -> None:
        assert self.should_stop is not None
        while not self.done.wait(ABORT_POLL_S):
            if self.should_stop():
                self.private._backend.set_wants_abort()
                return
