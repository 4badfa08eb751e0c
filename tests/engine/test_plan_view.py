"""The plan as a learner reads it (metrics/report/plan_view.py): steps numbered once, in the order of time — a step
for later (its sentence says "in a month") after every step for now, whichever preset it belongs to."""

from __future__ import annotations

from fsrs_calibration.metrics.jobs.diagnose.plan import PresetPlan, Step
from fsrs_calibration.metrics.kinds import Action, DeckOptions, FindingId, Note, NoteKind, When
from fsrs_calibration.metrics.report.plan_view import plan_view

HABIT = "Press Again only when you have forgotten."
LATER = "In a month: Optimize (not before)."


def _habit(preset: str) -> Step:
    return Step(Action.ANSWER_BUTTONS, preset, (FindingId.HARD_MISUSE,), HABIT)


def _later(preset: str) -> Step:
    return Step(Action.OPTIMIZE, preset, (FindingId.HARD_MISUSE,), LATER, later=True)


def _optimize_now(preset: str) -> Step:
    button = DeckOptions(preset, 1)
    return Step(Action.OPTIMIZE, preset, (FindingId.PARAMETERS,), f"Optimize {preset} now.", button)


def _shown(plans: list[PresetPlan]) -> list[tuple[int, tuple[str, ...], str]]:
    view = plan_view(plans)
    return [(x.number, b.presets, x.step.text) for b in view.blocks for x in b.steps]


def test_a_step_for_later_comes_after_every_step_for_now():
    plans = [
        PresetPlan("A", 300, [_habit("A"), _later("A")]),
        PresetPlan("B", 200, [_optimize_now("B")]),
    ]
    # in a plan of several presets: the button to press now, then the habit from the next review, then later
    assert _shown(plans) == [(1, ("B",), "Optimize B now."), (2, ("A",), HABIT), (3, ("A",), LATER)]


def test_shared_steps_for_later_stay_said_once_naming_their_presets():
    plans = [
        PresetPlan("A", 300, [_habit("A"), _later("A")]),
        PresetPlan("C", 100, [_habit("C"), _later("C")]),
        PresetPlan("B", 200, [_optimize_now("B")]),
    ]
    assert _shown(plans) == [(1, ("B",), "Optimize B now."), (2, ("A", "C"), HABIT), (3, ("A", "C"), LATER)]
    assert plan_view(plans).steps == 3


def test_without_a_step_for_later_the_order_is_the_plans():
    plans = [PresetPlan("B", 200, [_optimize_now("B")]), PresetPlan("A", 300, [_habit("A")])]
    assert _shown(plans) == [(1, ("B",), "Optimize B now."), (2, ("A",), HABIT)]


def test_a_preset_with_notes_only_comes_after_every_step():
    late = Note(NoteKind.LATE, "Recall fell below target because reviews came late.")
    plans = [
        PresetPlan("A", 300, [_habit("A"), _later("A")]),
        PresetPlan("L", 250, [], [late]),
        PresetPlan("B", 200, [_optimize_now("B")]),
    ]
    view = plan_view(plans)
    assert [(b.presets, [x.number for x in b.steps], b.notes) for b in view.blocks] == [
        (("B",), [1], []),
        (("A",), [2], []),
        (("A",), [3], []),
        (("L",), [], [late]),
    ]


def test_one_preset_keeps_one_heading_for_its_steps_now_and_later():
    late = Note(NoteKind.LATE, "Recall fell below target because reviews came late.")
    plans = [PresetPlan("A", 300, [_habit("A"), _later("A")], [late])]
    view = plan_view(plans)
    assert [(b.presets, [x.number for x in b.steps], b.notes) for b in view.blocks] == [(("A",), [1, 2], [late])]


def test_a_plan_of_several_presets_reads_as_now_then_in_a_month_then_notes():
    # readers lost their way between five preset headings for three presets ("Languages" under three of them):
    # a plan of several presets is one to-do list, each part headed once, each line naming its presets
    late = Note(NoteKind.LATE, "Recall fell below target because reviews came late.")
    check = Note(NoteKind.RETENTION_OFF, "Near your desired retention FSRS expected more.")
    plans = [
        PresetPlan("A", 300, [_habit("A"), _later("A")], [late]),
        PresetPlan("B", 200, [_optimize_now("B")], [check]),
        PresetPlan("C", 100, [], [late]),
    ]
    view = plan_view(plans)
    parts = [(b.when, b.opens, b.presets, [x.number for x in b.steps], b.notes) for b in view.blocks]
    assert parts == [
        (When.NOW, True, ("B",), [1], []),
        (When.HABITS, True, ("A",), [2], []),
        (When.LATER, True, ("A",), [3], []),
        (When.NOTES, True, ("B",), [], [check]),  # a preset's notes beside its steps first, as its steps stand
        (When.NOTES, False, ("A", "C"), [], [late]),
    ]
    assert view.later and view.steps == 3


def test_a_plan_under_one_heading_has_no_parts():
    plans = [PresetPlan("A", 300, [_habit("A"), _optimize_now("A")])]
    view = plan_view(plans)
    assert [b.when for b in view.blocks] == [None] and not view.later


def test_a_habit_to_check_goes_with_the_step_to_optimize_now():
    # readers took the note, standing apart under Notes, for a warning against the Optimize beside it ("optimize
    # again a month later" against "Optimize now"): it is said with that step
    check = Note(NoteKind.CHECK_HABITS, "A habit only you can check.")
    late = Note(NoteKind.LATE, "Recall fell below target because reviews came late.")
    plans = [
        PresetPlan("A", 300, [_habit("A"), _later("A")], [late]),
        PresetPlan("B", 200, [_optimize_now("B")], [check]),
    ]
    view = plan_view(plans)
    [optimize] = [x for b in view.blocks for x in b.steps if x.step.text == "Optimize B now."]
    assert optimize.aside == check and optimize.number == 1
    assert [n for b in view.blocks for n in b.notes] == [late]  # the other notes stay notes
    alone = plan_view([PresetPlan("C", 100, [_later("C")], [check])])  # no step to optimize now: a note
    assert [n for b in alone.blocks for n in b.notes] == [check]


def test_a_preset_s_notes_join_into_one_line_in_every_script():
    from fsrs_calibration.metrics.report.plan_view import joined

    late, off = Note(NoteKind.LATE, "Reviews came late."), Note(NoteKind.RETENTION_OFF, "FSRS expected more.")
    assert joined([late, off]) == "Reviews came late. FSRS expected more."
    ja = [Note(NoteKind.LATE, "復習が遅れました。"), Note(NoteKind.RETENTION_OFF, "目標保持率前後では…")]
    assert joined(ja) == "復習が遅れました。目標保持率前後では…"
