"""'Where the error is' by FSRS difficulty and by lateness (issue 21 part 3).

Lateness is checked on hand-written cards whose scheduled intervals and review days are known (so each
review's bin is known by hand); difficulty before each review against the difficulty after the card's
earlier reviews (whose values the published FSRS test vectors check, tests/engine/test_fsrs_vectors.py);
both features' counts add up to the reviews scored, in the command line's JSON too.
"""

from __future__ import annotations

import json

import numpy as np
from support.builder import DEFAULTS6, LEARN, REVIEW, Builder, Entry

from fsrs_calibration.cli.commands import main
from fsrs_calibration.metrics.jobs.evaluate import evaluate
from fsrs_calibration.metrics.models.fsrs import replay
from fsrs_calibration.metrics.models.params import to_fsrs6
from fsrs_calibration.metrics.read.collection import read_collection

# (scheduled interval at the learning step, days until the review, then a second review on time or None)
CARDS = {
    "on time twice": (3, 3, 10),  # ratio 1.0, then 1.0
    "early": (10, 5, None),  # 0.5
    "late": (4, 8, None),  # 2.0
    "after a break": (2, 10, None),  # 5.0
    "just on time": (10, 9, None),  # 0.9: on time (the early bin ends below 0.9)
}
WANT = {"early": 1, "on time": 3, "1.5–3× late": 1, "over 3× late": 1}


def _collection(path: str) -> str:
    b = Builder(path, 1)
    did = b.deck("Main", b.preset("Main preset", "fsrsParams6", DEFAULTS6))
    rows = []
    for cid, (ivl, wait, second) in zip(b.cards(did, len(CARDS)), CARDS.values(), strict=True):
        start = 60
        rows.append((cid, Entry(b.at(start), 3, LEARN, ivl=ivl)))
        rows.append((cid, Entry(b.at(start - wait), 3, REVIEW, ivl=second or 20)))
        if second is not None:
            rows.append((cid, Entry(b.at(start - wait - second), 3, REVIEW, ivl=30)))
    b.write_many(rows)
    b.close()
    return path


def test_lateness_bins_by_hand(tmp_path, capsys):
    from anki.collection import Collection

    from fsrs_calibration.metrics.explain.where import bin_label

    path = _collection(str(tmp_path / "c.anki2"))
    col = Collection(path)
    try:
        ev = evaluate(read_collection(col, None, with_intervals=True))
    finally:
        col.close(downgrade=False)
    got = {bin_label("overdue", r.lowest, r.highest): r.count for r in ev.by_feature["overdue"]}
    assert got == WANT and sum(got.values()) == ev.overall.reviews
    assert main(["evaluate", path, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    for feature in ("overdue", "difficulty"):
        assert sum(r["count"] for r in out["by_feature"][feature]) == out["reviews"]
    assert {r["lowest"]: r["count"] for r in out["by_feature"]["overdue"]} == {0: 1, 1: 3, 2: 1, 3: 1}


def test_difficulty_before_each_review_is_the_difficulty_after_the_earlier_ones():
    rng = np.random.default_rng(3)
    params = np.asarray([to_fsrs6(list(DEFAULTS6))], dtype=np.float64)
    for _ in range(20):
        n = int(rng.integers(2, 9))
        rating = rng.integers(1, 5, n).astype(np.int32)
        delta_t = np.r_[0, rng.integers(1, 30, n - 1)].astype(np.int32)
        first = np.r_[True, np.zeros(n - 1, dtype=bool)]
        whole = replay(rating, delta_t, first, params)
        assert whole.difficulty_before is not None and np.isnan(whole.difficulty_before[0])
        for k in range(1, n):
            earlier = replay(rating[:k], delta_t[:k], first[:k], params)
            assert whole.difficulty_before[k] == earlier.difficulty[0]


def test_every_scored_review_has_a_difficulty_bin(mixed_collection):
    from anki.collection import Collection

    col = Collection(mixed_collection["path"])
    try:
        ev = evaluate(read_collection(col, None))
    finally:
        col.close(downgrade=False)
    rows = ev.by_feature["difficulty"]
    assert sum(r.count for r in rows) == ev.overall.reviews
    assert all(1 <= r.lowest <= 9 and r.highest == r.lowest + 1 for r in rows)
    assert "overdue" not in ev.by_feature  # the intervals were not read: no lateness
