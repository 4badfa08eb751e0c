"""Finding "since-last" for a changed desired retention (issue 29: Deck Options' "Check whether it helped") on
simulated learners whose true memory is known: Anki scheduled for 80% until the last diagnosis, for 90% after.

A learner whose memory FSRS represents must be told the new target is reached (never "below" or "above": false
alarms counted over seeds), also when the preset holds parameters Anki optimized on those same reviews (the usual
case); a learner FSRS overrates (a share of cards whose true stability is a quarter of FSRS's) recalls less than
asked for, and must be told so (misses counted); a preset whose desired retention did not change gets no such
finding; too few reviews since is said so, never judged.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from support.learners import build
from support.optimized import build_optimized

from fsrs_calibration.metrics.jobs.diagnose import Verdict, diagnose
from fsrs_calibration.metrics.read.collection import read_collection

pytestmark = pytest.mark.slow  # make check leaves it out; make test runs it

DAYS, CHANGE, CARDS = 300, 150, 800
OLD, PRESET = 0.8, "Main preset"
SEEDS = range(3)
CHANGED = {"habits_until": CHANGE, "old_desired_retention": OLD}


def _said(path: str, old_dr: float = OLD, days_before_end: int = DAYS - CHANGE, odd: object = "") -> list:
    """Return the since-last findings about retention, the last diagnosis made on day CHANGE with `old_dr`."""
    from anki.collection import Collection

    col = Collection(path)
    try:
        data = read_collection(col, None)
        if odd != "":  # the preset's desired retention as another tool may have written it
            for pid, info in list(data.presets.items()):
                data.presets[pid] = replace(info, desired_retention=odd)
        through = int(col.db.scalar("select max(id) from revlog")) - days_before_end * 86_400_000
        now = diagnose(data)
        assert now.snapshot is not None
        last = replace(now.snapshot, through_ms=through, desired_retention={PRESET: old_dr}, date="2026-01-01")
        found = diagnose(data, last=last).findings
        return [f for f in found if f.id == "since-last" and "desired" in f.evidence.to_dict()]
    finally:
        col.close(downgrade=False)


def _word(found) -> str:
    (f,) = found
    s = f.summary
    if "you recall what you asked for" in s:
        return "reached"
    return "below" if "recall less" in s else "above" if "recall more" in s else str(f.verdict)


def test_the_new_target_reached_is_said_so(tmp_path):
    said = [_word(_said(build(str(tmp_path / f"h{seed}.anki2"), seed, CARDS, DAYS, **CHANGED))) for seed in SEEDS]
    assert said.count("reached") == len(SEEDS), said  # no false alarm


def test_the_usual_case_of_a_preset_optimized_on_the_same_reviews(tmp_path):
    said = []
    for seed in SEEDS:
        path = str(tmp_path / f"o{seed}.anki2")
        build_optimized(path, seed, CARDS, DAYS, **CHANGED)
        said.append(_word(_said(path)))
    assert "below" not in said and said.count("reached") >= len(SEEDS) - 1, said


def test_a_learner_fsrs_overrates_is_told_the_target_is_missed(tmp_path):
    said = []
    for seed in SEEDS:
        path = build(str(tmp_path / f"m{seed}.anki2"), seed, CARDS, DAYS, planted_share=0.4, **CHANGED)
        found = _said(path)
        said.append(_word(found))
        if said[-1] == "below":
            (f,) = found
            assert f.verdict is Verdict.SUGGESTION and f.evidence.to_dict()["measured_ci"][1] < 0.9
            assert f"{f.evidence.to_dict()['reviews']:,} reviews scheduled since then" in f.summary
    assert said.count("below") == len(SEEDS), said  # no miss


def test_no_change_no_finding_and_too_few_said_so(tmp_path):
    path = build(str(tmp_path / "same.anki2"), 0, CARDS, DAYS)
    assert _said(path, old_dr=0.9) == []  # the same desired retention: nothing to check
    (f,) = _said(path, days_before_end=1)  # the last diagnosis yesterday: too few reviews scheduled since
    assert f.verdict is Verdict.NOT_ENOUGH_DATA and "too few to tell" in f.summary


@pytest.mark.parametrize("odd", [True, "0.85", 1.5, 0.0, float("nan"), None])
def test_an_odd_desired_retention_in_the_preset_is_not_judged(tmp_path, odd):
    """Anki refuses such values; a collection written by other tools may hold them (the preset as read)."""
    path = build(str(tmp_path / "odd.anki2"), 1, 300, 160)
    assert _said(path, days_before_end=80, odd=odd) == []
