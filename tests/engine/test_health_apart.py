"""Anki's health check run apart (in a private collection, metrics/read/health_apart.py) is Anki's own: the same
answer as the call on the learner's collection, on every preset of the mixed collection (odd histories, an
ignore-before date, suspended and deleted cards), read whole or for one deck, with or without the intervals."""

from __future__ import annotations

import shutil

import pytest
from anki.collection import Collection

from fsrs_calibration.metrics.export.scratch import run_folder
from fsrs_calibration.metrics.read.anki_backend import anki_health_check
from fsrs_calibration.metrics.read.collection import read_collection
from fsrs_calibration.metrics.read.health_apart import apart_health_check
from fsrs_calibration.metrics.read.scope import deck_search

pytestmark = pytest.mark.slow  # make check leaves it out; make test runs it

PRESETS = ["P6", "P5", "P45", "Empty", "Ignore", "Default"]


@pytest.fixture
def own_col(mixed_collection, tmp_path):
    """A copy of the mixed collection (its presets' settings are changed here)."""
    path = tmp_path / "collection.anki2"
    shutil.copy(mixed_collection["path"], path)
    col = Collection(str(path))
    yield col
    col.close(downgrade=False)


@pytest.mark.parametrize("deck", [None, "Six"])
@pytest.mark.parametrize("with_intervals", [True, False])
def test_the_check_apart_is_ankis_own(own_col, deck, with_intervals):
    data = read_collection(own_col, deck_search(own_col, deck) if deck else None, with_intervals=with_intervals)
    anki = anki_health_check(own_col)
    checked = 0
    with run_folder() as folder:
        apart = apart_health_check(own_col, data, Collection, folder)
        for name in PRESETS:
            ours, theirs = apart(name), anki(name)
            assert ours == theirs, name
            checked += theirs is not None and theirs.passed is not None
        assert apart("no such preset") is None
    assert checked >= 3  # most presets have enough reviews for Anki to run its check


def test_an_optimize_search_and_the_ignore_date_are_anki_s(own_col):
    for name, search in (("P6", "deck:Five -is:suspended"), ("Ignore", "")):
        conf = next(c for c in own_col.decks.all_config() if c["name"] == name)
        conf["paramSearch"] = search
        own_col.decks.update_config(conf)
    data = read_collection(own_col, deck_search(own_col, "Six"), with_intervals=True)
    anki = anki_health_check(own_col)
    with run_folder() as folder:
        apart = apart_health_check(own_col, data, Collection, folder)
        for name in ("P6", "Ignore"):
            assert apart(name) == anki(name)
        assert apart("P6").search == "deck:Five -is:suspended"


def test_nothing_is_left_behind(own_col, tmp_path, monkeypatch):
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    before = set(tmp_path.iterdir())
    data = read_collection(own_col, with_intervals=True)
    with run_folder() as folder:
        apart_health_check(own_col, data, Collection, folder)("P6")
    assert set(tmp_path.iterdir()) == before
