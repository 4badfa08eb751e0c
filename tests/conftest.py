"""Shared fixtures: real Anki collections built with the `anki` package."""

from __future__ import annotations

import gc
import importlib.util
import os
from collections.abc import Iterator

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
from support.builder import build_mixed


@pytest.fixture(scope="session", autouse=True)
def garbage_collected_like_anki() -> Iterator[None]:
    """Collect garbage as Anki does: never automatically, only on the main thread (aqt/main.py).

    Automatic collection runs in whichever thread happens to allocate: a closed dialog's reference
    cycle collected in a background worker destroys its widgets off the GUI thread, which crashed Qt's
    painter now and then (tests/ui/test_dialog.py). Anki disables it for this reason; so do the tests.
    """
    gc.collect()
    gc.disable()
    yield
    gc.enable()


@pytest.fixture(autouse=True)
def collect_after_each_test() -> Iterator[None]:
    """Collect the test's garbage (closed dialogs and their cycles) on the main thread afterwards."""
    yield
    gc.collect()


@pytest.fixture(scope="session")
def sample() -> str:
    """Return the path of the sample collection `make run` opens (built once, kept in build/)."""
    from pathlib import Path

    from make_sample import build_sample
    from support.built_once import built_once

    return built_once(Path(__file__).resolve().parents[1] / "build" / "sample" / "collection.anki2", build_sample)


@pytest.fixture(scope="session")
def mixed_collection(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """Return the info of the mixed test collection (closed; reopen it from info["path"])."""
    path = str(tmp_path_factory.mktemp("mixed") / "collection.anki2")
    info = build_mixed(path, seed=7)
    info["builder"].close()
    del info["builder"]
    info["path"] = path
    return info


@pytest.fixture
def open_col(mixed_collection: dict) -> Iterator:
    """Yield the mixed collection opened (read-only use), closed afterwards."""
    from anki.collection import Collection

    col = Collection(mixed_collection["path"])
    try:
        yield col
    finally:
        col.close(downgrade=False)


# Files whose tests share nothing costly but the session's sample: each test goes to whichever worker is free (each
# runs the real Anki window for half a minute or more). Every other file's tests run together on one worker, so that
# its module fixtures (simulated learners, large collections) are built once.
SPREAD = {"test_languages.py", "test_screens.py", "test_living.py"}


def unit_of(nodeid: str) -> str:
    """Return the unit a worker takes at once: the test itself in a SPREAD file, else its whole file."""
    path = nodeid.split("::", 1)[0]
    return nodeid if path.rsplit("/", 1)[-1] in SPREAD else path


if importlib.util.find_spec("xdist") is not None:

    def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object:
        """Hand out whole files, SPREAD's tests one by one (xdist's own `loadgroup` marks are lost on pytest 9.2,
        which keeps an item's id where xdist 3.8 no longer writes its group)."""
        from xdist.scheduler import LoadScopeScheduling

        class FilesOrTests(LoadScopeScheduling):
            def _split_scope(self, nodeid: str) -> str:
                return unit_of(nodeid)

        return FilesOrTests(config, log)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the test files that hold slow tests first, each file's tests in their order: with both cores at work
    (make test, `-n 2`), a long file started last would keep one core busy alone at the end."""
    slow = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.path not in slow)  # stable: the order within each file is kept
