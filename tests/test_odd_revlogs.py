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
        (rtype, ease, factor), = rng.choices([k for k, _ in KINDS], weights=[w for _, w in KINDS])
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
            a = col._backend.evaluate_params_legacy(params=params, search=f"preset:{preset}", ignore_revlogs_before_ms=0)
            ev = evaluate(
                read_collection(col, f"preset:{preset}"),
                Options(params=params if params else "default", weighting="recency", same_day="keep"),
            )
            assert ev.overall.reviews > 50
            assert ev.overall.log_loss == pytest.approx(a.log_loss, abs=1e-5)
            assert ev.overall.rmse_bins == pytest.approx(a.rmse_bins, abs=1e-5)
    finally:
        col.close(downgrade=False)
