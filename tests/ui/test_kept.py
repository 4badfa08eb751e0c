"""What the dialog keeps per preset for Deck Options (issue 29), on a real collection in real Qt: each preset's
numbers are those of an evaluation of that preset alone (the engine on `preset:"NAME"`, itself checked against
Anki's Evaluate in tests/engine), kept only for the standard choices and for scopes that hold whole presets; the
plan's steps with the scope they were made on; a broken file is one line and left as it is. The section's
lines (ui/deck_options.py) say a preset changed since its last diagnosis after its parameters or its desired
retention changed, and carry names as data, never as markup."""

from __future__ import annotations

import json

import pytest
from support.builder import DEFAULTS6
from support.qt_helpers import ThreadRunner

from fsrs_calibration.metrics.explain import deck_options as words
from fsrs_calibration.metrics.jobs.evaluate import evaluate
from fsrs_calibration.metrics.jobs.options import Options
from fsrs_calibration.metrics.models.params import preset_raw_params
from fsrs_calibration.metrics.read.collection import read_collection
from fsrs_calibration.metrics.read.kept_file import read_kept
from fsrs_calibration.ui.deck_options import preset_lines, section_script
from fsrs_calibration.ui.dialog import CalibrationDialog


@pytest.fixture
def col(mixed_collection):
    from anki.collection import Collection

    c = Collection(mixed_collection["path"])
    yield c
    c.close(downgrade=False)


def _dialog(qtbot, col, kept, config=None):
    dialog = CalibrationDialog(None, ThreadRunner(col), config or {"auto_diagnose": False}, None, "26.09.3")
    dialog.kept_file = str(kept)
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def _run(qtbot, dialog, diagnosis=False):
    dialog.start() if diagnosis else dialog.run()  # start: evaluate, then diagnose (the Tools menu's way)
    qtbot.waitUntil(lambda: not dialog.running, timeout=60_000)
    if diagnosis:
        qtbot.waitUntil(lambda: dialog.diagnosis is not None and not dialog.running, timeout=180_000)


def test_each_presets_numbers_are_its_own_evaluation(qtbot, col, tmp_path):
    kept_file = tmp_path / "presets-Test.json"
    dialog = _dialog(qtbot, col, kept_file)
    _run(qtbot, dialog)  # the whole collection
    kept = read_kept(str(kept_file))
    scored = [name for name, entry in kept.items() if entry.get("reviews")]
    assert len(scored) >= 3, kept
    for name in scored:
        alone = evaluate(read_collection(col, f'preset:"{name}"'), Options()).overall
        entry = kept[name]
        assert entry["reviews"] == alone.reviews, name
        assert entry["log_loss"] == pytest.approx(alone.log_loss, abs=1e-12), name
        assert entry["rmse_bins"] == pytest.approx(alone.rmse_bins, abs=1e-12), name
    conf = next(c for c in col.decks.all_config() if c["name"] == scored[0])
    assert kept[scored[0]]["desired_retention"] == pytest.approx(conf["desiredRetention"])


def test_only_the_standard_choices_and_whole_presets_are_kept(qtbot, col, tmp_path):
    kept_file = tmp_path / "presets-Test.json"
    dialog = _dialog(qtbot, col, kept_file)
    dialog.set_scope("deck", "Five")  # a deck is not a preset's whole
    _run(qtbot, dialog)
    assert not kept_file.exists()
    dialog.set_scope("collection", "")
    box = dialog.bar.option_boxes["binning"]
    box.setCurrentIndex(box.findData("wiki"))  # not the numbers Anki's Evaluate showed
    _run(qtbot, dialog)
    assert not kept_file.exists()


def test_the_plan_is_kept_with_its_scope_and_the_values_it_saw(qtbot, col, tmp_path):
    kept_file = tmp_path / "presets-Test.json"
    dialog = _dialog(qtbot, col, kept_file, {"auto_diagnose": True})
    dialog.set_scope("collection", "")
    _run(qtbot, dialog, diagnosis=True)
    kept = read_kept(str(kept_file))
    assert dialog.diagnosis.plan, "the mixed collection has enough reviews for a plan"
    for plan in dialog.diagnosis.plan:
        entry = kept[plan.preset]
        assert entry["steps"] == len(plan.steps) and entry["actions"] == [s.action for s in plan.steps]
        assert entry["scope"] == ["collection", ""]
    name = dialog.diagnosis.plan[0].preset
    conf = next(c for c in col.decks.all_config() if c["name"] == name)
    lines = preset_lines(kept, [conf])[name]
    assert lines["changed"] == "" and lines["numbers"].startswith("Last evaluated")
    assert lines["plan"].startswith("Last diagnosis")
    key, params = preset_raw_params(conf)
    key, params = key or "fsrsParams6", params or list(DEFAULTS6)  # a preset on FSRS's defaults: none kept
    optimized = dict(conf, **{key: [round(v * 1.01, 4) for v in params]})  # what Optimize writes
    assert preset_lines(kept, [optimized])[name]["changed"].startswith("This preset changed since its last diagnosis")
    lower = dict(conf, desiredRetention=conf["desiredRetention"] - 0.05)
    assert preset_lines(kept, [lower])[name]["changed"]
    broken = dict(conf, **{key: ["not", "numbers"]})
    assert preset_lines(kept, [broken])[name]["changed"]  # no exception inside Deck Options


def test_a_broken_file_is_one_line_and_left_as_it_is(qtbot, col, tmp_path):
    kept_file = tmp_path / "presets-Test.json"
    kept_file.write_text("{broken")
    dialog = _dialog(qtbot, col, kept_file)
    _run(qtbot, dialog)
    assert dialog.evaluation is not None and dialog.evaluation.overall.reviews > 0
    assert kept_file.read_text() == "{broken"
    notice = dialog.notice.text()
    assert notice.startswith("Deck Options cannot show this add-on's numbers") and str(kept_file) in notice


def test_the_section_carries_names_as_data():
    name = 'A </script><b onclick="x">bold</b> & "quotes"'
    lines = preset_lines({}, [{"name": name, "fsrsParams6": [], "desiredRetention": 0.9}])
    assert lines[name]["numbers"] == words.NO_NUMBERS
    script = section_script(lines, name)
    assert "<b onclick" not in script  # in JSON strings (escaped), set with textContent in the page
    data = json.loads(script.split("const DATA = ", 1)[1].split(";\n", 1)[0])
    assert list(data) == [name]
    assert "textContent" in script and "innerHTML" not in script
