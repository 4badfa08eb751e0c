"""The What-to-do tab in real Qt: the dialog opens on the plan (per preset, its steps in order, each with the
keyboard-reachable button that does it in Anki and its evidence under Why?), then the checks behind it folded
into one line each ("7 checks passed")."""

from __future__ import annotations

import pytest
from support.qt_helpers import ThreadRunner

from fsrs_calibration.metrics.explain import counts
from fsrs_calibration.metrics.jobs.evaluate import evaluate
from fsrs_calibration.metrics.kinds import Evaluate
from fsrs_calibration.metrics.read.collection import read_collection
from fsrs_calibration.metrics.report.plan_view import plan_view
from fsrs_calibration.ui.dialog import CalibrationDialog
from fsrs_calibration.ui.views.plan_cards import button_text
from fsrs_calibration.ui.views.whattodo import WhatToDoView


@pytest.fixture
def col(mixed_collection):
    from anki.collection import Collection

    c = Collection(mixed_collection["path"])
    yield c
    c.close(downgrade=False)


def _opened(qtbot, col, config):
    dialog = CalibrationDialog(None, ThreadRunner(col), config, None, "26.09.3")
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.start()  # what the Tools menu does once the dialog is shown
    return dialog


def test_opening_evaluates_then_diagnoses_without_a_second_click(qtbot, col):
    dialog = _opened(qtbot, col, {"auto_diagnose": True})
    qtbot.waitUntil(lambda: dialog.diagnosis is not None and not dialog.running, timeout=120_000)
    qtbot.waitUntil(lambda: not dialog.whattodo.building, timeout=10_000)  # a few cards per turn
    assert dialog.evaluation is not None and dialog.tabs.currentWidget() is dialog.whattodo
    dg = dialog.diagnosis
    findings = dg.findings
    acting = [f for f in findings if f.verdict in ("problem", "suggestion")]
    assert acting and dg.plan[0].steps, "the mixed collection has suggestions, and so steps"
    view = dialog.whattodo
    shown = plan_view(dg.plan)
    steps = [x.step for b in shown.blocks for x in b.steps]
    assert {id(s) for s in steps} <= {id(s) for p in dg.plan for s in p.steps}  # each shared step once
    assert [card.step for card in view.cards] == steps  # the order shown: shared habits first, then each preset's
    numbers = [x.number for b in shown.blocks for x in b.steps]
    assert numbers == list(range(1, len(steps) + 1))  # numbered once across presets
    assert counts.steps(len(steps)).split()[0] in dialog.headline.text()  # the count on top is the count shown
    for card in view.cards:
        assert [b.text() for b in card.buttons] == [button_text(a) for a in card.anki_actions]
        for button, action in zip(card.buttons, card.anki_actions, strict=True):  # each names what it opens
            assert getattr(action, "preset", "") in button.text() or getattr(action, "deck", "") in button.text()
        for button in card.buttons:  # reachable with Tab, and Enter does not press it by accident
            assert button.focusPolicy() & button.focusPolicy().TabFocus and not button.autoDefault()
        assert card.why.body is None  # the evidence is one click away
        card.why.toggle.click()
        assert card.why.body is not None and card.why.body.isVisible()
    passed = sum(f.verdict == "ok" for f in findings)
    assert view.passed.toggle.text() == counts.checks_passed(passed) and not view.passed.body.isVisible()
    view.passed.toggle.click()
    assert view.passed.body.isVisible()
    assert not view.button.isVisible()  # opening diagnosed: one main action, no second button
    view.acting.toggle.click()  # the checks behind the plan, in the engine's ranked order, with their buttons
    assert [c.finding for c in view.acting.cards][: len(acting)] == acting


def test_busy_from_the_evaluation_until_the_diagnosis_has_ended(qtbot, col):
    """Between the evaluation's results and the diagnosis's start (the next turn) the dialog is `busy`:
    what waits for the dialog to settle (the end-to-end driver) does not read it half done."""
    from aqt.qt import QTimer

    dialog = _opened(qtbot, col, {"auto_diagnose": True})
    seen: list[tuple[bool, bool, bool]] = []  # (evaluated, diagnosed, busy) at every turn of the loop

    def look() -> None:
        seen.append((dialog.evaluation is not None, dialog.diagnosis is not None, dialog.busy))
        if dialog.diagnosis is None:
            QTimer.singleShot(0, look)

    look()
    qtbot.waitUntil(lambda: dialog.diagnosis is not None, timeout=120_000)
    assert any(ev and not dg for ev, dg, _ in seen), "the loop never turned between the two jobs"
    assert all(busy for ev, dg, busy in seen if ev and not dg)
    assert not dialog.busy


def test_automatic_diagnosis_can_be_turned_off(qtbot, col):
    dialog = _opened(qtbot, col, {"auto_diagnose": False})
    qtbot.waitUntil(lambda: dialog.evaluation is not None and not dialog.running, timeout=60_000)
    qtbot.wait(50)
    assert dialog.diagnosis is None and not dialog.busy


def test_each_button_carries_out_its_action(qtbot, col):
    dialog = _opened(qtbot, col, {"auto_diagnose": True})
    qtbot.waitUntil(lambda: dialog.diagnosis is not None and not dialog.running, timeout=120_000)
    done: list[dict] = []
    view = WhatToDoView(lambda: None, done.append)
    qtbot.addWidget(view)
    view.show_diagnosis(dialog.diagnosis)
    qtbot.waitUntil(lambda: not view.building, timeout=10_000)
    want = []
    view.acting.toggle.click()
    for card in view.cards + view.acting.cards:
        for button, action in zip(card.buttons, card.anki_actions, strict=True):
            button.click()
            want.append(action)
    assert done == want and {a.kind for a in done} >= {"deck-options", "browse", "evaluate"}
    # "Evaluate this deck" evaluates the finding's search in the dialog
    search = next(a.search for a in done if a.kind == "evaluate")
    dialog.act(Evaluate(search))
    qtbot.waitUntil(lambda: not dialog.running and dialog.scope() == ("search", search), timeout=60_000)
    assert dialog.evaluation.overall == evaluate(read_collection(col, search), dialog.options()).overall


def test_opening_again_while_busy_restarts_on_the_new_scope(qtbot, col):
    dialog = _opened(qtbot, col, {"auto_diagnose": True})
    qtbot.waitUntil(lambda: dialog.running, timeout=10_000)
    deck = col.decks.all_names_and_ids()[-1].name
    dialog.set_scope("deck", deck)
    dialog.start()  # the deck's gear menu while the collection's diagnosis runs
    qtbot.waitUntil(lambda: dialog.diagnosis is not None and not dialog.running, timeout=120_000)
    assert dialog.scope() == ("deck", deck) and dialog.evaluation is not None
