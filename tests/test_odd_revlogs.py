"""Random, odd revlog histories (every row kind Anki writes, in any order) scored like Anki does."""

from __future__ import annotations

import random

import pytest
from builder import DAY, DEFAULTS6, PARAMS19, WEIGHTS17, Builder, Entry

from fsrs_calibration.metrics.collection import read_collection
from fsrs_calibration.metrics.evaluate import Options, evaluate

# (type, ease, factor) of every kind of row: learning/review/relearning answers, cram,
# filtered with rescheduling, Reset (Forget), Set Due Date, Rescheduled.
KINDS = [
    ((0, None, 0), 6), ((1, None, 2500), 10), ((2, None, 2500), 4), ((3, 0, 0), 1), ((3, None, 0), 2),
    ((3, None, 2500), 2), ((4, 0, 0), 1), ((4, 0, 2500), 1), ((5, 0, 2500), 1),
]  # fmt: skip


def random_history(rng: random.Random) -> list[Entry]:
    """Return entries of random kinds on random days, with clusters on one day and day-edge times."""
    out = []
    day = rng.randrange(30, 400)
    for _ in range(rng.randrange(1, 25)):
        ((rtype, ease, factor),) = rng.choices([k for k, _ in KINDS], weights=[w for _, w in KINDS])
        ease = rng.choice([1, 2, 3, 3, 3, 4]) if ease is None else ease
        within = rng.choice([0, 1, DAY - 1, rng.randrange(1, DAY - 1)])  # exactly at / just after rollover
        out.append(Entry(day * DAY + within, ease, rtype, factor=factor))
        if rng.random() < 0.6:
            day -= rng.choice([0, 0, 1, 1, 2, 5, 20, 60])
        if day < 1:
            break
    return out


@pytest.fixture(scope="module", params=[1, 2, 3])
def odd_collection(request, tmp_path_factory):
    path = str(tmp_path_factory.mktemp("odd") / "collection.anki2")
    b = Builder(path, seed=request.param)
    presets = {
        "A": b.preset("A", "fsrsParams6", [round(v * b.rng.uniform(0.7, 1.4), 4) for v in DEFAULTS6]),
        "B": b.preset("B", "fsrsParams5", PARAMS19),
        "C": b.preset("C", "fsrsWeights", WEIGHTS17),
    }
    rows = []
    for name, conf in presets.items():
        did = b.deck(name, conf)
        for cid in b.cards(did, 150):
            rows += [(cid, e) for e in random_history(b.rng)]
    b.write_many(rows)
    b.close()
    return path


@pytest.mark.parametrize("preset", ["A", "B", "C"])
def test_odd_histories_match_anki(odd_collection, preset):
    from anki.collection import Collection

    col = Collection(odd_collection)
    try:
        conf = next(c for c in col.decks.all_config() if c["name"] == preset)
        raw = conf["fsrsParams6"] or conf["fsrsParams5"] or conf["fsrsWeights"]
        for params in (raw, []):
            a = col._backend.evaluate_params_legacy(
                params=params, search=f"preset:{preset}", ignore_revlogs_before_ms=0
            )
            ev = evaluate(
                read_collection(col, f"preset:{preset}"),
                Options(params=params if params else "default", weighting="recency", same_day="keep"),
            )
            assert ev.overall.reviews > 50
            assert ev.overall.log_loss == pytest.approx(a.log_loss, abs=1e-5)
            assert ev.overall.rmse_bins == pytest.approx(a.rmse_bins, abs=1e-5)
    finally:
        col.close(downgrade=False)


def test_mixed_collection_holds_every_case(open_col):
    """The main test collection really contains the cases the Anki comparisons are meant to cover."""
    db = open_col.db
    assert db.scalar("select count() from revlog where cid not in (select id from cards)") > 0  # deleted cards
    assert db.scalar("select count() from cards where odid != 0") > 0  # cards sitting in a filtered deck
    assert db.scalar("select count() from cards where queue = -1") > 0  # suspended
    assert db.scalar("select count() from revlog where type = 3 and factor = 0 and usn = -1") > 0  # real cram answers
    assert db.scalar("select count() from revlog where type = 3 and factor != 0 and usn = -1") > 0  # real rescheduling
    assert db.scalar("select count() from revlog where type = 4 and factor = 0 and usn = -1") > 0  # real Forget
    assert db.scalar("select count() from revlog where type = 4 and factor != 0 and usn = -1") > 0  # real Set Due Date
    assert db.scalar("select count() from revlog where type = 2") > 0  # relearning
    lengths = {len(c["fsrsParams6"] or c["fsrsParams5"] or c["fsrsWeights"]) for c in open_col.decks.all_config()}
    assert lengths == {0, 17, 19, 21}
    assert any(c["ignoreRevlogsBeforeDate"] for c in open_col.decks.all_config())


def test_values_stored_as_real_or_text_are_read(tmp_path):
    """Some tools write REAL or text into integer columns; the reader still gets the integers."""
    from anki.collection import Collection

    path = str(tmp_path / "collection.anki2")
    b = Builder(path, seed=5)
    did = b.deck("D")
    cid = b.cards(did, 1)[0]
    b.write(cid, b.history(60, max_reviews=6))
    b.close()
    col = Collection(path)
    try:
        before = evaluate(read_collection(col), Options(params="default"))
        col.db.execute("update revlog set factor = factor + 0.5 where factor != 0")
        assert col.db.scalar("select count() from revlog where typeof(factor) = 'real'") > 0
        after = evaluate(read_collection(col), Options(params="default"))
        col.db.execute("update revlog set ease = 'x' where id = (select max(id) from revlog)")
        garbled = evaluate(read_collection(col), Options(params="default"))
    finally:
        col.close(downgrade=False)
    assert after.overall == before.overall
    assert garbled.overall.reviews == before.overall.reviews - 1  # a non-number answer is no review
