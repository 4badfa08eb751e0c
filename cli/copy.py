"""The collection a command reads: copied into this run's scratch folder, opened by Anki's code there, read
into the engine's arrays (the engine imports meanwhile), and closed; a large one's arrays put aside on disk."""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib
import os
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, TypedDict, Unpack, cast

from ..metrics.export.scratch import run_folder
from ..metrics.read.collection_file import copy_collection, is_damage
from .arguments import UsageError

if TYPE_CHECKING:
    from anki.collection import Collection
    from anki.dbproxy import DBProxy  # the copy's database: open while its data is put aside

    from ..metrics.read.collection import CollectionData

ENGINE = (
    "metrics.read.collection",
    "metrics.jobs.evaluate",
    "metrics.report.text",
    "metrics.jobs.compare",
    "metrics.export.dataset",
    "metrics.jobs.diagnose",
)


class Reading(TypedDict, total=False):
    """What a command reads of the collection besides its scope (read_collection's choices)."""

    with_durations: bool
    with_intervals: bool
    all_models: bool


def open_collection(path: str) -> Collection:
    """Return an anki Collection opened on `path` (a temporary copy)."""
    from anki.collection import Collection

    try:
        return Collection(path)
    except Exception as err:  # the backend's DBError, schema too new, ...
        if is_damage(err):
            raise
        raise UsageError(f"cannot open the collection: {err}") from None


@contextlib.contextmanager
def opened_copy(
    args: argparse.Namespace, before_read: Callable[[], None] | None = None, **read: Unpack[Reading]
) -> Iterator[tuple[Collection, CollectionData]]:
    """Yield (collection, data of --search/--deck) on a temporary copy in this run's scratch folder, removed afterwards.

    `before_read` runs just before the revlog is read (a query that releases the GIL for a while).
    """
    with run_folder() as workdir:
        stop = threading.Event()
        with ThreadPoolExecutor(max_workers=1) as pool:
            try:
                copying = pool.submit(copy_collection, args.collection, workdir, stop)  # SQLite copies without the GIL
                import anki.collection  # noqa: F401  (while anki imports)

                copy = copying.result()
                engine = pool.submit(import_engine)  # numpy and the engine import while Anki opens the copy
                col = open_collection(copy)
            except BaseException:
                stop.set()  # an interrupted copy stops at its next step
                raise
        try:
            engine.result()
            from ..metrics.read.collection import read_collection
            from ..metrics.read.scope import scope_search

            if args.deck is not None:
                search, label = scope_search(col, "deck", args.deck)
            else:
                search, label = scope_search(col, "search", args.search)
            if before_read is not None:
                before_read()
            yield col, read_collection(col, search, scope_label=label, **read)
        finally:
            col.close(downgrade=False)


def import_engine() -> None:
    """Import numpy and the engine's modules (they are only imported when a command needs them)."""
    for name in ENGINE:
        importlib.import_module(f"{__package__.rpartition('.')[0]}.{name}")


def read_scope(
    args: argparse.Namespace,
    with_durations: bool = False,
    before_read: Callable[[], None] | None = None,
    with_intervals: bool = False,
    all_models: bool = False,
) -> CollectionData:
    """Return the scope of --search/--deck read from a temporary copy of the collection (`with_intervals`: the
    intervals Anki scheduled, for the lateness of each review; `all_models`: the cards of presets on a newer
    FSRS too, for the export)."""
    read: Reading = {"with_durations": with_durations, "with_intervals": with_intervals, "all_models": all_models}
    with opened_copy(args, before_read, **read) as (_col, data):
        return data


@contextlib.contextmanager
def put_aside(
    data: CollectionData, col: Collection, progress: Callable[[str], None] | None, step: str
) -> Iterator[Callable[[], CollectionData]]:
    """Say `step`, write `data` to a file in the run's scratch folder (beside `col`'s copy) and shrink
    SQLite's page cache; yield a call that reads the data back.

    The caller drops its own reference meanwhile, so the arrays' memory is free until read back.
    """
    import pickle

    if progress is not None:
        progress(step)
    path = os.path.join(os.path.dirname(col.path), "collection-arrays.pickle")
    try:
        with open(path, "xb") as f:
            pickle.dump(data, f, protocol=5)
    except OSError as err:
        with contextlib.suppress(OSError):
            os.unlink(path)
        raise UsageError(
            f"Cannot write a temporary file in {os.path.dirname(path)} ({err.strerror}); "
            "free some space in the temporary folder and try again."
        ) from None
    del data
    gc.collect()
    # SQLite's page cache of the read (about 40 MB at 5M reviews)
    cast("DBProxy", col.db).execute("pragma shrink_memory")

    def load() -> CollectionData:
        """Read the data back and remove the file (it is not needed twice: /tmp may be held in memory)."""
        try:
            with open(path, "rb") as f:
                return pickle.load(f)
        finally:
            os.unlink(path)

    try:
        yield load
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)
