"""Finding "ignore-before" (issue 21 part 2) on simulated learners whose true memory is known.

The learners keep adding new cards (over 90% of 400 days). One changed its button habits half way: before
day 200 it pressed Again on a third of the cards it had recalled and Hard on 80% of those it had forgotten,
then answered honestly; it must be told to ignore the cards begun before a date near the change. An honest
learner must not be told (false alarms counted), nor one whose memory FSRS cannot represent (30% of cards
whose true stability is a quarter of FSRS's), nor one whose only old habit was mild (Hard on 70% of lapses:
measured not worth losing the data for). A learner who raised desired retention from 0.80 to 0.90 half way
(its memory unchanged) answers differently from then on: it is told at most rarely (1 of 12 seeds in an
exploratory run, where parameters trained on the new regime did predict it better by 0.004). Which cards a
date keeps is checked against Anki's own optimizer.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest
from support.builder import DEFAULTS6
from support.simulate import Learner, build_learner_collection

from fsrs_calibration.metrics.jobs.diagnose import diagnose
from fsrs_calibration.metrics.read.collection import read_collection

pytestmark = pytest.mark.slow  # make check leaves it out; make test runs it

DAYS, CHANGE, CARDS = 400, 200, 2000
CHANGED = {"habits_until": CHANGE, "old_again_share": 1 / 3, "old_hard_share": 0.8}
LEARNERS = {
    "changed": (CHANGED, range(3)),
    "honest": ({}, range(3)),
    "misfit": ({"planted_share": 0.3}, range(2)),
    "mild": ({"habits_until": CHANGE, "old_hard_share": 0.7}, range(2)),
    "retention": ({"habits_until": CHANGE, "old_desired_retention": 0.8}, range(2)),
}


def _build(path: str, seed: int, **kw) -> str:
    learner = Learner(true_params=list(DEFAULTS6), seed=seed, **kw)
    params = {"Main": list(DEFAULTS6)}
    build_learner_collection(
        path, {"Main": (learner, CARDS)}, days=DAYS, preset_params=params, seed=700 + seed, introduced=0.9
    ).close()
    return path


def _diagnose(path: str):
    from anki.collection import Collection

    from fsrs_calibration.metrics.read.anki_backend import anki_trainer

    col = Collection(path)
    try:
        data = read_collection(col, None)
        (f,) = diagnose(data, trainer=anki_trainer(col)).by_id("ignore-before")
        return f, data, path
    finally:
        col.close(downgrade=False)


@pytest.fixture(scope="module")
def found(tmp_path_factory):
    out = {}
    for name, (kw, seeds) in LEARNERS.items():
        out[name] = [_diagnose(_build(str(tmp_path_factory.mktemp(f"{name}{s}") / "c.anki2"), s, **kw)) for s in seeds]
    return out


def _change_day(data) -> dt.date:
    """The day the habits changed: DAYS - CHANGE days before the collection's last review day."""
    last = dt.datetime.fromtimestamp(int(data.revlog.id.max()) / 1000, dt.UTC).date()
    return last - dt.timedelta(days=DAYS - 1 - CHANGE)


def test_a_changed_learner_is_told_a_date_near_the_change(found):
    told = [(f, data) for f, data, _ in found["changed"] if f.verdict == "suggestion"]
    print("changed:", [(f.evidence.to_dict()["cutoff"], str(_change_day(d))) for f, d in told])
    assert len(told) == len(found["changed"])
    for f, data in told:
        cutoff = dt.date.fromisoformat(f.evidence.to_dict()["cutoff"])
        assert abs((cutoff - _change_day(data)).days) <= 30
        assert f"Ignore cards reviewed before: {f.evidence.to_dict()['cutoff']}" in f.action
        assert f.actions and f.actions[0].kind == "deck-options"
        best = next(c for c in f.evidence.to_dict()["candidates"] if c["cutoff"] == f.evidence.to_dict()["cutoff"])
        assert best["gain_ci"][0] > 0 and best["gain"] >= 0.002
        if best["why"] != "answers-changed":  # where the answers changed is told when it helps; else the best
            assert best["gain"] == max(c["gain"] for c in f.evidence.to_dict()["candidates"])


@pytest.mark.parametrize("name", ["honest", "misfit", "mild"])
def test_no_suggestion_where_old_reviews_do_not_mislead(found, name):
    verdicts = [f.verdict for f, _, _ in found[name]]
    print(
        name, verdicts, [[round(c["gain"], 4) for c in f.evidence.to_dict()["candidates"]] for f, _, _ in found[name]]
    )
    assert verdicts == ["ok"] * len(verdicts)
    for f, _, _ in found[name]:
        assert f.evidence.to_dict()["cutoff"] is None and "Keep all your reviews" in f.summary
        assert all(c["gain_ci"][0] <= 0 or c["gain"] < 0.002 for c in f.evidence.to_dict()["candidates"])


def test_a_new_desired_retention_alone_is_rarely_a_reason(found):
    told = [f for f, _, _ in found["retention"] if f.verdict == "suggestion"]
    print(
        "retention:",
        [
            [(c["why"], round(c["gain"], 4)) for c in f.evidence.to_dict()["candidates"]]
            for f, _, _ in found["retention"]
        ],
    )
    assert len(told) <= 1
    assert any(
        c["why"] == "answers-changed" for f, _, _ in found["retention"] for c in f.evidence.to_dict()["candidates"]
    )


def test_the_evidence(found):
    for f, _, _ in [x for rows in found.values() for x in rows]:
        e = f.evidence.to_dict()
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", e["split"])
        assert e["test_reviews"] >= 1000 and e["train_reviews"] >= 1000
        k = len(e["candidates"])
        assert 1 <= k <= 2 and e["interval"] == pytest.approx(1 - 0.05 / k)
        for c in e["candidates"]:
            assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", c["cutoff"]) and c["cutoff"] < e["split"]
            assert 1000 <= c["train_reviews"] <= 0.95 * e["train_reviews"]
            assert c["gain_ci"][0] <= c["gain"] <= c["gain_ci"][1]
            assert c["why"] in ("answers-changed", "quantile")
            assert c["gain"] == pytest.approx(e["log_loss_all"] - c["log_loss"])
        assert f"{e['test_reviews']:,} latest reviews" in f.summary


def test_a_date_keeps_the_cards_anki_keeps(found):
    """A candidate date keeps the cards whose learning began on or after it: the scored reviews of those
    cards are the items Anki's optimizer trains on with that "Ignore cards reviewed before" date."""
    from anki.collection import Collection

    from fsrs_calibration.metrics.jobs.diagnose.cutoff_trainings import window
    from fsrs_calibration.metrics.reviews.cutoffs import DAY_MS

    finding, _, path = found["changed"][0]
    col = Collection(path)
    try:
        data = read_collection(col, None)
        win = window(data, 1000)
        conf = next(c for c in col.decks.all_config() if c["name"] == "Main preset")
        for c in finding.evidence.to_dict()["candidates"]:
            cutoff_ms = int(dt.datetime.fromisoformat(c["cutoff"]).replace(tzinfo=dt.UTC).timestamp() * 1000)
            assert cutoff_ms % DAY_MS == 0
            ours = win.kept(cutoff_ms).size + _kept_tested(win, cutoff_ms)
            assert _anki_items(col, conf, cutoff_ms) == ours
    finally:
        col.close(downgrade=False)


def _anki_items(col, conf, ignore_before_ms: int) -> int:
    """The items Anki's own optimizer trains on for the preset with this "Ignore cards reviewed before"."""
    return col._backend.compute_fsrs_params(
        search='preset:"Main preset"',
        current_params=[],
        ignore_revlogs_before_ms=ignore_before_ms,
        num_of_relearning_steps=len(conf["lapse"]["delays"]),
        health_check=False,
    ).fsrs_items


def _kept_tested(win, cutoff_ms: int) -> int:
    from fsrs_calibration.metrics.models.items import segment_starts

    start = win.reviews.revlog_id[segment_starts(win.reviews.first)[win.test]]
    return int((start >= cutoff_ms).sum())


def test_a_large_preset_is_checked_alone_at_the_end_with_the_same_numbers(found, monkeypatch):
    """Where the check would hold more than a quarter of the memory budget (5M reviews), it runs after the
    other checks, one training at a time; its numbers are those of the check beside the others."""
    from fsrs_calibration.metrics.jobs import gate
    from fsrs_calibration.metrics.jobs.diagnose import cutoff_trainings

    finding, data, path = found["changed"][0]
    assert cutoff_trainings.memory(data, data.card_ids > 0, gate.DEFAULT_BUDGET)[0] == 2  # beside, two at once
    monkeypatch.setattr(gate, "DEFAULT_BUDGET", 1 << 20)
    assert cutoff_trainings.memory(data, data.card_ids > 0, 1 << 20)[0] == 1
    alone, _, _ = _diagnose(path)
    assert alone.evidence == finding.evidence and alone.summary == finding.summary


def test_a_preset_that_ignores_old_cards_already(found, tmp_path):
    """With "Ignore cards reviewed before" set, the cards it drops are neither trained on nor tested (as in
    Anki's own optimizer: the same items), and every candidate date is later than it."""
    import shutil

    from anki.collection import Collection

    _, _, original = found["honest"][0]
    path = str(tmp_path / "ignoring.anki2")
    shutil.copy(original, path)
    col = Collection(path)
    try:
        conf = next(c for c in col.decks.all_config() if c["name"] == "Main preset")
        first = dt.datetime.fromtimestamp(int(col.db.scalar("select min(id) from revlog")) / 1000, dt.UTC).date()
        date = first + dt.timedelta(days=120)
        conf["ignoreRevlogsBeforeDate"] = date.isoformat()
        col.decks.update_config(conf)
        date_ms = int(dt.datetime(date.year, date.month, date.day, tzinfo=dt.UTC).timestamp() * 1000)
        anki_items = _anki_items(col, conf, date_ms)
    finally:
        col.close(downgrade=False)
    f, _, _ = _diagnose(path)
    e = f.evidence.to_dict()
    assert e["train_reviews"] + e["test_reviews"] == anki_items
    assert all(c["cutoff"] > date.isoformat() for c in e.get("candidates", []))
