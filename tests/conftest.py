"""Shared fixtures: real Anki collections built with the `anki` package."""

from __future__ import annotations

import gc
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


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the test files that hold slow tests first, each file's tests together and in their order: with both
    cores at work (make test), a long file started last would keep one core busy alone at the end."""
    slow = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.path not in slow)  # stable: the order within each group is kept
