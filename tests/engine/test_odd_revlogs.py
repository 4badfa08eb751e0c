"""Random, odd revlog histories (every row kind Anki writes, in any order) scored like Anki does."""

from __future__ import annotations

import random

import pytest
from support.anki import like_anki
from support.builder import DAY, DEFAULTS6, PARAMS19, WEIGHTS17, Builder, Entry

from fsrs_calibration.metrics.jobs.evaluate import Options, evaluate
from fsrs_calibration.metrics.read.collection import read_collection

# (type, ease, factor) of every kind of row: learning/review/relearning answers, cram,
# filtered with rescheduling, Reset (Forget), Set Due Date, Rescheduled.
KINDS = [
    ((0, None, 0), 6),
    ((1, None, 2500), 10),
    ((2, None, 2500), 4),
    ((3, 0, 0), 1),
    ((3, None, 0), 2),
    ((3, None, 2500), 2),
    ((4, 0, 0), 1),
    ((4, 0, 2500), 1),
    ((5, 0, 2500), 1),
]


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
            ev = evaluate(read_collection(col, f"preset:{preset}"), like_anki(params or "default"))
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


def test_revlog_read_in_chunks_equals_one_read(open_col, monkeypatch):
    """Large revlogs are read in bounded id-range chunks; the arrays are those of one read."""
    import numpy as np

    from fsrs_calibration.metrics.read import collection

    whole = read_collection(open_col, None, with_durations=True, with_intervals=True)
    total = open_col.db.scalar("select count() from revlog")
    for rows in (7, 1000, total - 1, total):
        monkeypatch.setattr(collection, "_CHUNK_ROWS", rows)
        chunked = read_collection(open_col, None, with_durations=True, with_intervals=True)
        for name in ("id", "card", "ease", "type", "factor", "duration", "ivl"):
            assert np.array_equal(getattr(chunked.revlog, name), getattr(whole.revlog, name)), (rows, name)


@pytest.mark.parametrize("chunk_rows", [3, 1000])
def test_revlog_rows_out_of_id_order_are_sorted(monkeypatch, chunk_rows):
    """SQL does not promise group_concat's order; rows that come out of id order, in one chunk or in
    several, are all read once and put back in id order. (SQLite scans revlog in rowid order, so a
    stand-in database answers the reader's queries with each chunk's rows shuffled.)"""
    import random

    from fsrs_calibration.metrics.read import collection

    ids = list(range(10, 200, 10))  # 19 rows: several chunks of 3, the last one short

    class ShuffledDb:
        def scalar(self, sql):
            return len(ids)

        def first(self, sql, start, *limit):
            rows = [i for i in ids if i >= start][: limit[0] if limit else None]
            random.Random(start).shuffle(rows)
            return [
                ",".join(str(i) for i in rows),
                ",".join(str(i // 10) for i in rows),
                ",".join(str(i * 2) for i in rows),
            ]

    class Col:
        db = ShuffledDb()

    monkeypatch.setattr(collection, "_CHUNK_ROWS", chunk_rows)
    rid, cid, packed = collection._revlog_rows(Col())
    assert rid.tolist() == ids and cid.tolist() == [i // 10 for i in ids] and packed.tolist() == [i * 2 for i in ids]


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


def _anki_vs_ours(path: str, search: str = "") -> tuple[float, float, float, float]:
    from anki.collection import Collection

    col = Collection(path)
    try:
        a = col._backend.evaluate_params_legacy(params=[], search=search, ignore_revlogs_before_ms=0)
        ev = evaluate(
            read_collection(col, search),
            like_anki(),
        )
    finally:
        col.close(downgrade=False)
    return ev.overall.log_loss, a.log_loss, ev.overall.rmse_bins, a.rmse_bins


NORMAL = [(40, 1, 0, 0), (40, 3, 0, 0), (38, 3, 1, 2500), (30, 2, 1, 2500), (15, 1, 1, 2500), (3, 3, 1, 2500)]


def _write_rows(tmp_path, cards: list[list[tuple]]) -> str:
    """Write cards whose rows are (days before cutoff, ease, type, factor); type may be any SQL value."""
    path = str(tmp_path / "collection.anki2")
    b = Builder(path, seed=9)
    cids = b.cards(b.deck("D"), len(cards))
    for k, (cid, rows) in enumerate(zip(cids, cards, strict=True)):
        for j, (days, ease, rtype, factor) in enumerate(rows):
            rid = (b.cutoff - days * DAY - 500 + j * 100) * 1000 + 17 + k
            sql = "insert into revlog (id, cid, usn, ease, ivl, lastIvl, factor, time, type) values (?,?,0,?,1,0,?,5,?)"
            b.col.db.execute(sql, rid, cid, ease, factor, rtype)
    b.close()
    return path


def test_lapse_near_certain_recall_matches_anki_float32(tmp_path):
    """A lapse when R is about 0.999: 1 - R must be rounded as fsrs-rs does (float32)."""
    path = _write_rows(tmp_path, [[(400, 4, 0, 0), (100, 4, 1, 2500), (99, 1, 1, 2500)], NORMAL])
    ll, ll_a, rmse, rmse_a = _anki_vs_ours(path)
    assert ll == pytest.approx(ll_a, abs=1e-6)
    assert rmse == pytest.approx(rmse_a, abs=1e-6)


@pytest.mark.parametrize("odd_type", [6, 7, 256, 259, -1, "x", 1.5])
def test_revlog_type_outside_0_to_5_is_read_as_anki_reads_it(tmp_path, odd_type):
    """Anki reads a type it does not know as Learning (and 256..261 as 0..5, as a u8)."""
    first = [(30, 3, odd_type, 0), (29, 3, 1, 2500), (25, 1, 1, 2500), (20, 3, 1, 2500), (10, 4, 1, 2500)]
    middle = [(60, 3, 0, 0), (50, 3, 1, 2500), (45, 3, odd_type, 2500), (35, 1, 1, 2500), (20, 3, 1, 2500)]
    path = _write_rows(tmp_path, [first, middle, NORMAL])
    ll, ll_a, rmse, rmse_a = _anki_vs_ours(path)
    assert ll == pytest.approx(ll_a, abs=1e-6)
    assert rmse == pytest.approx(rmse_a, abs=1e-6)
