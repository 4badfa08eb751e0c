"""The Browser's selection (issue 29) is read by card ids, never as a search string: thousands of cards read
exactly what Anki's own search `cid:…` of those cards finds (Anki's search, an independent reading), with the
same numbers; cards deleted since the selection are left out, a selection all gone is one message."""

from __future__ import annotations

import random

import numpy as np
import pytest
from anki.collection import Collection
from support.builder import build_large

from fsrs_calibration.metrics.errors import EvaluationError
from fsrs_calibration.metrics.jobs.evaluate import evaluate
from fsrs_calibration.metrics.read.collection import read_collection

SELECTED = 3_000  # thousands of cards: a search string of them would be 45,000 characters


@pytest.fixture(scope="module")
def col_path(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("selected") / "collection.anki2")
    build_large(path, 120_000, seed=3)
    return path


@pytest.fixture
def col(col_path):
    c = Collection(col_path)
    try:
        yield c
    finally:
        c.close(downgrade=False)


def _chosen(col) -> np.ndarray:
    ids = sorted(col.find_cards(""))
    assert len(ids) > SELECTED + 100, "the collection must hold more cards than are selected"
    return np.array(sorted(random.Random(4).sample(ids, SELECTED)), dtype=np.int64)


def test_the_selection_reads_what_anki_finds_for_its_ids(col):
    ids = _chosen(col)
    selected = read_collection(col, None, "the selection", card_ids=ids)
    searched = read_collection(col, "cid:" + ",".join(map(str, ids.tolist())))
    assert selected.card_ids.tolist() == searched.card_ids.tolist() == ids.tolist()
    assert len(selected.revlog) > 10_000
    for field in ("id", "card", "ease", "type", "factor"):
        assert np.array_equal(getattr(selected.revlog, field), getattr(searched.revlog, field)), field
    a, b = evaluate(selected), evaluate(searched)
    assert a.overall.reviews == b.overall.reviews > 0
    assert a.overall.log_loss == b.overall.log_loss and a.overall.rmse_bins == b.overall.rmse_bins


def test_cards_deleted_since_the_selection_are_left_out(col):
    ids = _chosen(col)
    gone = np.array([1, 2, 3], dtype=np.int64)  # ids no card has (deleted meanwhile)
    kept = read_collection(col, None, "the selection", card_ids=np.union1d(ids, gone))
    assert kept.card_ids.tolist() == ids.tolist()
    with pytest.raises(EvaluationError, match="No cards in the selection: they were deleted meanwhile"):
        read_collection(col, None, "the selection", card_ids=gone)
