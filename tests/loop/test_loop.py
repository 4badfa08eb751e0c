"""Does doing the plan help? The closed loop (tests/support/loop.py, loop_branches.py): a learner whose true memory is
known reviews for 330 days under Anki's scheduling (Optimize pressed every 90 days and at the end, as a learner
would), the plan is made on that collection with Anki's own trainer, and from that same state the learner goes on for
150 days doing nothing, or doing the plan's steps (and what its notes ask them to check). Measured at each review of
those 150 days: |R_sched - R_true| (the "gap" between what the scheduler predicts and the true recall), the true
recall against the desired retention, reviews per day; for a split each deck's gap, for the listed cards their own.

The numbers in the comments are an exploratory run of scripts/loop_explore.py (3 seeds per learner: the table of
docs/diagnosis.md); the assertions hold for the seeds run here.
"""

from __future__ import annotations

import pytest
from anki.buildinfo import version
from support.loop_branches import SCENARIOS, run_learner

pytestmark = pytest.mark.slow  # make check leaves it out; make test runs it (on the pinned Anki only)

if tuple(int(x) for x in version.split(".")[:2]) < (26, 9):
    # The numbers are Anki 26.09's optimizer's (an older one trains other parameters from the same reviews).
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


def gap(r: dict, branch: str, part: str = "all") -> float:
    return r["branches"][branch][part]["gap"]


def off_target(r: dict, branch: str) -> float:
    """Return |mean true recall - desired retention| over phase 2."""
    b = r["branches"][branch]["all"]
    return abs(b["r_true"] - b["desired"][0])


def per_day(r: dict, branch: str) -> float:
    return r["branches"][branch]["all"]["per_day"]


@pytest.mark.parametrize(
    ("name", "seed"), [("honest", 1), ("honest", 2), ("exponential", 1), ("sticky", 1), ("late", 1)]
)
def test_a_learner_with_nothing_to_change_gets_no_step(loop, name, seed):
    # Honest optimized learners, memories FSRS cannot represent (exponential, sticky), reviews done late: no step
    # (late: a note), and the habit note changes nothing for an honest learner: gap 0.006, 0.019; 0.020; 0.016; 0.013.
    r = loop(name, seed)
    assert actions(r) == []
    assert gap(r, "plan") == gap(r, "nothing") < 0.03


@pytest.mark.parametrize(
    ("name", "seed"),
    [("hard-uniform", 1), ("again-uniform", 3), ("subdeck", 1), ("subdeck", 3), ("old-habits", 1), ("planted", 2)],
)
def test_no_step_stands_beside_a_passed_check_that_says_the_opposite(loop, name, seed):
    # Before: "Then optimize" beside "Re-optimizing would not measurably help" in 14 plans; now the passed check says
    # why both hold. No answer-buttons step beside a passed misuse check, no split beside a passed deck check.
    assert loop(name, seed)["diagnosis"]["contradictions"] == []


@pytest.mark.parametrize(("name", "seed"), [("hard-uniform", 1), ("hard-uniform", 3), ("hard-tied", 1)])
def test_hard_misuse_the_plan_narrows_the_gap_and_lifts_true_recall(loop, name, seed):
    # Gap nothing -> plan: hard-uniform 0.148 -> 0.076, 0.134 -> 0.119, 0.136 -> 0.083; hard-tied 0.097 -> 0.073,
    # 0.096 -> 0.074, 0.092 -> 0.069. True recall 0.75-0.80 -> 0.78-0.83 (target 0.90): more reviews (4-6 -> 5-9 a
    # day), the price of honest answers.
    r = loop(name, seed)
    assert actions(r)[0] == "answer-buttons"
    assert gap(r, "plan") <= gap(r, "nothing") - 0.015
    assert r["branches"]["plan"]["all"]["r_true"] > r["branches"]["nothing"]["all"]["r_true"] + 0.01


def test_again_misuse_the_plan_narrows_the_gap_and_cuts_the_workload(loop):
    # Again on 15% of recalls, optimized on them: FSRS learns memories that fade within a day, 320-360 reviews a day
    # of cards truly recalled at 0.999. Plan: gap 0.147 -> 0.108, 0.142 -> 0.100, 0.145 -> 0.099; 50-80 reviews a day.
    r = loop("again-uniform", 3)  # the quickest seed
    assert actions(r)[0] == "answer-buttons"
    assert gap(r, "plan") <= gap(r, "nothing") - 0.02
    assert per_day(r, "plan") <= 0.5 * per_day(r, "nothing")


@pytest.mark.parametrize("seed", (1, 3))
def test_again_on_shaky_recalls_is_named_and_checking_it_helps(loop, seed):
    # Again for 80% of the recalls that deserve Hard, optimized on them: the data cannot show it (the optimizer
    # absorbs it), so no step — but a note tells the learner how to check the habit, never "nothing to change".
    # Following it: gap 0.038 -> 0.029, 0.046 -> 0.039, 0.042 -> 0.032; 12-16 -> 10-14 reviews a day; true recall
    # 0.93-0.94 -> 0.92-0.94 (target 0.90).
    r = loop("again-tied", seed)
    assert "answer-buttons" not in actions(r)
    assert "checked the habit the note names: honest buttons" in r["branches"]["plan"]["done"]
    assert gap(r, "plan") <= gap(r, "nothing") - 0.005
    assert per_day(r, "plan") < per_day(r, "nothing")


@pytest.mark.parametrize(("name", "seed"), [("hard-uniform", 1), ("hard-uniform", 3), ("again-uniform", 3)])
def test_new_habits_then_optimize_a_month_later_is_at_least_as_good_as_at_once(loop, name, seed):
    # The plan's order: buttons at day 0, Optimize at day 30. Optimizing at once trains on reviews answered the old
    # way: 0.076 vs 0.113, 0.083 vs 0.102; Again misuse 0.099 vs 0.103 (and 50 vs 95 reviews a day). Equal where Anki
    # kept the parameters either way (hard-uniform 2, hard-tied 1-3).
    r = loop(name, seed)
    assert gap(r, "plan") <= gap(r, "plan-optimize-at-once") + 0.002


@pytest.mark.parametrize("seed", (1, 3))
def test_a_deck_of_other_material_is_split_off_once_and_both_decks_gain(loop, seed):
    # One split per preset (of a two-deck preset the deck with the most reviews keeps it): gap 0.031 -> 0.014,
    # 0.028 -> 0.012; Main 0.045 -> 0.019 and 0.052 -> 0.024, Other 0.027 -> 0.014 and 0.022 -> 0.010.
    r = loop("subdeck", seed)
    assert actions(r).count("split-preset") == 1
    assert gap(r, "plan") <= 0.6 * gap(r, "nothing")
    for deck in ("Main", "Other"):
        assert gap(r, "plan", deck) <= 0.7 * gap(r, "nothing", deck)


@pytest.mark.xfail(strict=True, reason="a miss, said in docs/diagnosis.md: seed 2's decks do not pass the split test")
def test_a_deck_of_other_material_is_split_off_in_every_seed(loop):
    assert "split-preset" in actions(loop("subdeck", 2))  # gap stays 0.031 (Main 0.043, Other 0.028)


@pytest.mark.parametrize("seed", (1, 2))
def test_a_preset_on_defaults_that_do_not_fit_gets_closer_to_the_truth_and_the_target(loop, seed):
    # Gap 0.020 -> 0.013, 0.020 -> 0.013, 0.020 -> 0.015; true recall 0.872-0.875 -> 0.892-0.897 (target 0.90).
    r = loop("defaults-other", seed)
    assert "optimize" in actions(r)
    assert gap(r, "plan") <= gap(r, "nothing") - 0.004
    assert off_target(r, "plan") < off_target(r, "nothing") - 0.01


def test_fsrs_off_at_the_desired_retention_is_a_note_and_optimizing_closes_the_gap(loop):
    # Sticky forgetting (a floor of 0.5) at desired retention 0.80 on defaults: FSRS off by 7-16 points at every
    # candidate. The plan optimizes; the desired retention is a note (no change of it was shown to help): 0.108 ->
    # 0.039, 0.032, 0.025.
    r = loop("retention-off-defaults", 1)
    assert actions(r) == ["optimize"]
    assert gap(r, "plan") <= 0.5 * gap(r, "nothing")


def test_misleading_old_reviews_are_ignored_and_true_recall_meets_the_target(loop):
    # Old habits (Hard on 60% of lapses, Again on 20% of recalls) for the first half: ignore before a date within 18
    # days of the change, then optimize. True recall 0.921 -> 0.905, 0.913, 0.901 (target 0.90), 7-9 -> 5-7 reviews a
    # day; the gap 0.035 -> 0.026, 0.034 -> 0.032, 0.033 -> 0.036 (seed 3: no better).
    r = loop("old-habits", 1)
    assert "ignore-before" in actions(r)
    assert off_target(r, "plan") < off_target(r, "nothing") - 0.005
    assert per_day(r, "plan") < per_day(r, "nothing")


@pytest.mark.xfail(
    strict=True, reason="a limit, said in docs/diagnosis.md: answers honest for half a year still get the step"
)
def test_a_learner_honest_for_half_a_year_is_not_told_to_change_the_buttons(loop):
    assert "answer-buttons" not in actions(loop("old-habits", 1))  # the misuse check reads the whole history


def test_the_cards_listed_are_the_planted_ones_and_rewriting_them_fixes_them(loop):
    # 5% of 1,500 cards at a fifth of FSRS's stability, the preset on the true parameters: 3, 4, 6 cards listed, all
    # planted. Their own gap: 0.143 -> 0.018 rewritten (0.081 after optimizing alone); the preset's 0.052 -> 0.042.
    r = loop("planted", 2)
    assert "review-cards" in actions(r)
    [done] = [d for d in r["branches"]["plan"]["done"] if d.startswith("rewrite")]
    listed, planted = done.removeprefix("rewrite ").split(" cards (")
    assert int(planted.split()[0]) == int(listed)
    assert gap(r, "plan", "listed") <= 0.3 * gap(r, "nothing", "listed")
    assert gap(r, "plan", "listed") < gap(r, "optimize-only", "listed")
    assert gap(r, "plan") < gap(r, "nothing") - 0.005
