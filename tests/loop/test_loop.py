"""Does doing the plan help? The closed loop (tests/support/loop.py, loop_branches.py): a learner whose true memory
is known reviews for 330 days under Anki's scheduling (Optimize pressed every 90 days and at the end), the plan is
made on that collection with Anki's own trainer, and from that same state the learner goes on for 150 days doing
nothing or doing the plan's steps. Measured: the mean |R_sched - R_true| at each review of those 150 days (the
"gap"), the mean true recall against the desired retention, reviews per day.

Numbers of an exploratory run of scripts/loop_explore.py (3 seeds per learner) are in the docstrings; the
assertions hold for the seeds run here. The tests marked xfail are what the plan does not do yet (strict=False:
they pass once the rules change).
"""

from __future__ import annotations

import pytest
from anki.buildinfo import version
from support.loop_branches import SCENARIOS, run_learner

pytestmark = pytest.mark.slow  # make check leaves it out; make test runs it (on the pinned Anki only)

if tuple(int(x) for x in version.split(".")[:2]) < (26, 9):
    # The numbers are Anki 26.09's optimizer's. On 25.07 (an older FSRS optimizer; the module takes 190 s there)
    # 4 assertions differ: an honest learner (seed 1) is told ignore-before + optimize; defaults-other seed 1's
    # plan gap equals nothing's (0.0204); seed 2's true recall moves 0.025 -> 0.016 off target; old-habits gains
    # 0.005 (0.036 -> 0.031).
    pytest.skip("closed-loop numbers are pinned for Anki 26.09's optimizer", allow_module_level=True)

_RESULTS: dict[tuple[str, int], dict] = {}


@pytest.fixture(scope="module")
def loop(tmp_path_factory):
    """Return run(learner, seed) -> the learner's loop (diagnosis summary and branches), each run once."""

    def run(name: str, seed: int) -> dict:
        if (name, seed) not in _RESULTS:
            workdir = str(tmp_path_factory.mktemp(f"{name}-{seed}"))
            _RESULTS[(name, seed)] = run_learner(SCENARIOS[name], seed, workdir)
        return _RESULTS[(name, seed)]

    return run


def actions(r: dict) -> list[str]:
    return [a for _preset, a, _target in r["diagnosis"]["steps"]]


def gap(r: dict, branch: str, deck: str = "all") -> float:
    return r["branches"][branch][deck]["gap"]


def off_target(r: dict, branch: str) -> float:
    """Return |mean true recall - desired retention| over phase 2."""
    b = r["branches"][branch]["all"]
    return abs(b["r_true"] - b["desired"][0])


@pytest.mark.parametrize("seed", (1, 2))
def test_an_honest_optimized_learner_gets_no_step(loop, seed):
    r = loop("honest", seed)
    assert actions(r) == []
    assert gap(r, "plan") == gap(r, "nothing") < 0.03  # 0.006, 0.019, 0.009 over seeds 1-3


@pytest.mark.parametrize(("name", "seed"), [("hard-uniform", 1), ("hard-uniform", 3), ("hard-tied", 1)])
def test_hard_misuse_the_plan_narrows_the_gap_and_lifts_true_recall(loop, name, seed):
    # Gap nothing -> plan: hard-uniform 0.148 -> 0.076, 0.134 -> 0.119, 0.136 -> 0.083; hard-tied 0.097 -> 0.073,
    # 0.096 -> 0.074, 0.092 -> 0.069. True recall 0.75-0.80 -> 0.78-0.83 (target 0.90).
    r = loop(name, seed)
    assert actions(r)[0] == "answer-buttons"
    assert gap(r, "plan") <= gap(r, "nothing") - 0.015
    assert r["branches"]["plan"]["all"]["r_true"] > r["branches"]["nothing"]["all"]["r_true"] + 0.01


def test_again_misuse_the_plan_narrows_the_gap_and_cuts_the_workload(loop):
    # Again on 15% of recalls, optimized on them: FSRS learns memories that fade within a day, 320-360 reviews a day
    # of cards truly recalled at 0.999. Plan: gap 0.147 -> 0.114, 0.142 -> 0.106, 0.145 -> 0.105; 45-72 reviews a
    # day; desired retention 0.90 -> 0.85 (the nearest calibrated candidate: no trusted range after optimizing).
    r = loop("again-uniform", 3)  # the quickest seed (20 s)
    assert actions(r)[0] == "answer-buttons"
    assert gap(r, "plan") <= gap(r, "nothing") - 0.02
    assert r["branches"]["plan"]["all"]["per_day"] <= 0.5 * r["branches"]["nothing"]["all"]["per_day"]


@pytest.mark.parametrize(
    ("name", "seed"), [("hard-uniform", 1), ("hard-uniform", 3), ("hard-tied", 1), ("again-uniform", 3)]
)
def test_new_habits_then_optimize_a_month_later_is_at_least_as_good_as_at_once(loop, name, seed):
    # The plan's order: buttons at day 0, Optimize at day 30. Optimizing at day 0 reruns the optimizer on the very
    # reviews the preset was optimized on: Anki keeps the parameters. Later: 0.076 vs 0.113, 0.083 vs 0.102 (seeds
    # 1, 3), equal where the optimizer kept the parameters at day 30 too (hard-uniform 2, hard-tied 1-3). Again on
    # 15% of recalls: 0.114 vs 0.150, 0.106 vs 0.150, 0.105 vs 0.149.
    r = loop(name, seed)
    assert gap(r, "plan") <= gap(r, "plan-optimize-at-once") + 0.002


@pytest.mark.parametrize(("name", "seed"), [("hard-uniform", 1), ("hard-tied", 1)])
@pytest.mark.xfail(
    strict=False, reason="after new habits the plan optimizes once, on reviews mostly answered the old way"
)
def test_after_the_plan_a_misuse_learner_is_scheduled_about_as_well_as_an_honest_one(loop, name, seed):
    # Honest optimized learners: gap 0.006-0.019. After the plan: 0.07-0.12 (Anki's optimizer keeps learning from
    # the misused answers; "Ignore cards reviewed before" the change is never suggested later).
    r = loop(name, seed)
    assert gap(r, "plan") <= 0.04


@pytest.mark.parametrize("seed", (1,))
def test_a_deck_of_other_material_split_off_narrows_both_decks_gaps(loop, seed):
    # Gap 0.031 -> 0.014 (seed 1), 0.028 -> 0.012 (seed 3); Other 0.027 -> 0.014, Main 0.045 -> 0.019.
    r = loop("subdeck", seed)
    assert "split-preset" in actions(r)
    assert gap(r, "plan") <= 0.6 * gap(r, "nothing")
    for deck in ("Main", "Other"):
        assert gap(r, "plan", deck) <= 0.7 * gap(r, "nothing", deck)


@pytest.mark.xfail(strict=False, reason="seed 2: the decks finding is a suggestion but no deck passes the split test")
def test_a_deck_of_other_material_is_always_split_off(loop):
    r = loop("subdeck", 2)  # gap stays 0.031 (Main 0.043, Other 0.028)
    assert "split-preset" in actions(r)


@pytest.mark.parametrize("seed", (1, 2))
def test_a_preset_on_defaults_that_do_not_fit_gets_closer_to_the_truth_and_the_target(loop, seed):
    # Gap 0.020 -> 0.013 (3 of 3 seeds); true recall 0.872-0.875 -> 0.892-0.897 (target 0.90).
    r = loop("defaults-other", seed)
    assert "optimize" in actions(r)
    assert gap(r, "plan") <= gap(r, "nothing") - 0.004
    assert off_target(r, "plan") < off_target(r, "nothing") - 0.01


@pytest.mark.parametrize("seed", (1,))
def test_a_memory_fsrs_defaults_cannot_hold_optimized_and_retention_checked_again(loop, seed):
    # Sticky forgetting (a floor of 0.5) at desired retention 0.80 on defaults: FSRS off by 7-16 points at every
    # candidate; optimize, check again: 0.108 -> 0.039, 0.032, 0.025; the retention stays 0.80 (now trusted).
    r = loop("retention-off-defaults", seed)
    assert actions(r) == ["optimize", "desired-retention"]
    assert gap(r, "plan") <= 0.5 * gap(r, "nothing")


@pytest.mark.parametrize("seed", (2, 3))
@pytest.mark.xfail(strict=False, reason="Optimize on defaults is asked for without testing that it beats them")
def test_optimizing_defaults_that_are_right_does_not_widen_the_gap(loop, seed):
    # The learner's memory is FSRS-6's defaults: gap 0 -> 0.020 and 0.010 after Optimize (seed 1: Anki kept them).
    r = loop("defaults-true", seed)
    assert gap(r, "plan") <= gap(r, "nothing") + 0.005


def test_misleading_old_reviews_are_ignored_and_the_gap_narrows(loop):
    # Old habits (Hard on 60% of lapses, Again on 20% of recalls) for the first half: gap 0.035 -> 0.026,
    # 0.034 -> 0.032, 0.033 -> 0.030; the ignore date within 18 days of the change (day 165) in 3 of 3 seeds.
    r = loop("old-habits", 1)
    assert "ignore-before" in actions(r)
    assert gap(r, "plan") < gap(r, "nothing") - 0.005


@pytest.mark.xfail(strict=False, reason="the parameters learnt from old answers still look like misuse")
def test_a_learner_honest_for_half_a_year_is_not_told_to_change_the_buttons(loop):
    r = loop("old-habits", 1)  # seeds 1-3: answer-buttons (again-misuse or hard-misuse from the old half)
    assert "answer-buttons" not in actions(r)


@pytest.mark.xfail(strict=False, reason="optimize (after other steps) beside a parameters finding saying it won't help")
def test_no_step_contradicts_a_passed_check(loop):
    # Every plan with answer-buttons, split-preset or ignore-before: "Then optimize" beside `parameters` ok
    # ("Re-optimizing would not measurably help").
    for name, seed in (("hard-uniform", 1), ("subdeck", 1)):
        assert loop(name, seed)["diagnosis"]["contradictions"] == []


@pytest.mark.parametrize("seed", (2,))
def test_planted_cards_listed_are_planted_and_the_plan_narrows_the_gap(loop, seed):
    # 5% of 1,500 cards at a fifth of FSRS's stability, the preset on the true parameters: 3, 4, 6 cards listed,
    # all planted; gap 0.043 -> 0.038, 0.052 -> 0.042, 0.050 -> 0.042 (Optimize alone: 0.043, 0.045).
    r = loop("planted", seed)
    assert "review-cards" in actions(r)
    [done] = [d for d in r["branches"]["plan"]["done"] if d.startswith("rewrite")]
    listed, planted = done.removeprefix("rewrite ").split(" cards (")
    assert int(planted.split()[0]) == int(listed)
    assert gap(r, "plan") < gap(r, "nothing") - 0.005


@pytest.mark.xfail(strict=False, reason="Again on shaky recalls: not-enough-data or ok; the gap (0.04) stays")
def test_again_on_shaky_recalls_gets_a_step(loop):
    r = loop("again-tied", 1)  # gap 0.038-0.046, true recall 0.93-0.94 for a target of 0.90 (over-reviewing)
    assert "answer-buttons" in actions(r)


@pytest.mark.xfail(strict=False, reason="a memory FSRS cannot represent: off at the preset's own retention, 'ok'")
def test_a_retention_fsrs_misses_after_optimizing_gets_a_step(loop):
    r = loop("retention-off", 1)  # sticky (floor 0.6) at 0.80: true recall 0.855-0.861, gap 0.033-0.053
    assert "desired-retention" in actions(r)
