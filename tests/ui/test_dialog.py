"""The dialog in real Qt (offscreen) on real collections: scopes, options, cancel, messages, charts."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from support.qt_helpers import ThreadRunner

from fsrs_calibration.metrics.errors import EvaluationError
from fsrs_calibration.metrics.jobs.evaluate import Options, evaluate
from fsrs_calibration.metrics.read.collection import read_collection
from fsrs_calibration.metrics.read.scope import deck_search
from fsrs_calibration.metrics.report.text import format_report
from fsrs_calibration.ui.dialog import CalibrationDialog
from fsrs_calibration.ui.scope_bar import select

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "build" / "screenshots"


@pytest.fixture
def col(mixed_collection):
    from anki.collection import Collection

    c = Collection(mixed_collection["path"])
    yield c
    c.close(downgrade=False)


def make_dialog(qtbot, col, config=None, gate=None, saved=None):
    runner = ThreadRunner(col, gate)
    dialog = CalibrationDialog(None, runner, config or {}, saved.append if saved is not None else None, "26.09.3")
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog, runner


def run_and_wait(qtbot, dialog):
    dialog.run()
    qtbot.waitUntil(lambda: not dialog.running, timeout=60_000)


def test_whole_collection_numbers_and_chart_are_the_engines(qtbot, col):
    dialog, _ = make_dialog(qtbot, col)
    run_and_wait(qtbot, dialog)
    ev = dialog.evaluation
    want = evaluate(read_collection(col), Options())
    assert ev.overall == want.overall
    assert "percentage points" in dialog.headline.text() and f"{want.overall.reviews:,}" in dialog.headline.text()
    dialog.tabs.setCurrentWidget(dialog.results)
    dialog.results.chart.repaint()
    drawn = dialog.results.chart.points
    assert [(p.x, p.y, p.count) for p in drawn] == [
        (b.mean_predicted, b.mean_actual, b.count) for b in want.calibration.bins
    ]
    assert dialog.views.get("decks").table.rowCount() == len(want.decks)
    # the dialog reads the scheduled intervals too (lateness in "Where the error is"), as the engine does here
    with_intervals = evaluate(read_collection(col, with_intervals=True), Options())
    assert with_intervals.overall == want.overall and "By lateness" in format_report(with_intervals)
    assert dialog.views.get("report").text.toPlainText() == format_report(with_intervals)
    assert "FSRS is switched off" in dialog.results.notes.text()  # the mixed collection has FSRS off


def test_scopes_and_options_and_no_reread(qtbot, col):
    saved: list[dict] = []
    dialog, _ = make_dialog(qtbot, col, saved=saved)
    dialog.set_scope("deck", "Six")
    run_and_wait(qtbot, dialog)
    want = evaluate(read_collection(col, deck_search(col, "Six")), Options())
    assert dialog.evaluation.overall == want.overall
    assert {d.name for d in dialog.evaluation.decks} == {"Six", "Six::Sub"}
    reads = dialog._reads
    select(dialog.bar.option_boxes["binning"], "wiki")
    select(dialog.bar.option_boxes["weighting"], "recency")
    run_and_wait(qtbot, dialog)
    assert dialog._reads == reads  # same scope: the revlog is not read again
    want = evaluate(read_collection(col, deck_search(col, "Six")), Options(binning="wiki", weighting="recency"))
    assert dialog.evaluation.overall == want.overall
    assert saved[-1]["binning"] == "wiki" and saved[-1]["scope"] == "deck" and saved[-1]["scope_value"] == "Six"

    dialog.set_scope("preset", "P5")
    run_and_wait(qtbot, dialog)
    assert dialog._reads == reads + 1
    assert dialog.evaluation.overall == evaluate(read_collection(col, 'preset:"P5"'), dialog.options()).overall
    dialog.set_scope("search", "deck:Five is:suspended OR deck:FourFive")
    run_and_wait(qtbot, dialog)
    assert dialog.evaluation.overall.reviews > 0


def test_remembered_choices_are_restored(qtbot, col):
    config = {
        "params": "default",
        "binning": "wiki",
        "weighting": "recency",
        "same_day": "drop",
        "scope": "preset",
        "scope_value": "P45",
    }
    dialog, _ = make_dialog(qtbot, col, config)
    assert dialog.scope() == ("preset", "P45")
    o = dialog.options()
    assert (o.params, o.binning, o.weighting, o.same_day) == ("default", "wiki", "recency", "drop")


def test_cancel(qtbot, col):
    gate = threading.Event()
    dialog, runner = make_dialog(qtbot, col, gate=gate)
    dialog.run()
    assert dialog.running and dialog.job.cancel_button.isEnabled() and not dialog.run_button.isEnabled()
    runner.started.wait(10)
    dialog.cancel()
    gate.set()
    qtbot.waitUntil(lambda: not dialog.running, timeout=30_000)
    assert dialog.status.text() == "Cancelled."
    assert dialog.evaluation is None
    run_and_wait(qtbot, dialog)  # and it runs again afterwards
    assert dialog.evaluation is not None


@pytest.mark.parametrize(
    "kind, value, fragment",
    [
        ("search", "tag:no-such-tag", "No cards match"),
        ("search", "deck:((", "not valid"),
        ("deck", "", "Choose a deck"),
    ],
)
def test_messages_in_the_dialog(qtbot, col, kind, value, fragment):
    dialog, _ = make_dialog(qtbot, col)
    dialog.set_scope(kind, value)
    if kind == "deck":
        dialog.bar.deck_box.setCurrentIndex(-1)
    run_and_wait(qtbot, dialog)
    assert fragment in dialog.headline.text()
    assert dialog.evaluation is None and not dialog.save_button.isEnabled()


def test_deck_with_no_or_only_same_day_reviews(qtbot, tmp_path):
    from anki.collection import Collection
    from support.builder import LEARN, Builder, Entry

    path = str(tmp_path / "collection.anki2")
    b = Builder(path, seed=4)
    b.cards(b.deck("New only"), 3)
    for cid in b.cards(b.deck("Same day"), 3):
        b.write(cid, [Entry(b.at(5, 1000), 1, LEARN, 0), Entry(b.at(5, 2000), 3, LEARN, 0)])
    b.close()
    c = Collection(path)
    try:
        dialog, _ = make_dialog(qtbot, c)
        for deck in ("New only", "Same day"):
            dialog.set_scope("deck", deck)
            run_and_wait(qtbot, dialog)
            assert "No reviews to score" in dialog.headline.text()
    finally:
        c.close(downgrade=False)


def test_per_deck_table_sorts_and_opens_a_deck(qtbot, col):
    dialog, _ = make_dialog(qtbot, col)
    run_and_wait(qtbot, dialog)
    table = dialog.views.get("decks").table
    headers = [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]
    assert headers == ["Deck", "Preset", "Reviews", "Predicted", "Measured", "Log loss", "RMSE (bins)", "AUC"]
    by_reviews = sorted(dialog.evaluation.decks, key=lambda d: -d.scores.reviews)
    assert [table.item(r, 2).value for r in range(table.rowCount())] == [d.scores.reviews for d in by_reviews]
    presets = {table.item(r, 0).text(): table.item(r, 1).text() for r in range(table.rowCount())}
    assert presets["Six"] == presets["Six::Sub"] == "P6" and presets["FourFive"] == "P45"
    for column, attr in ((5, "log_loss"), (6, "rmse_bins"), (3, "mean_predicted"), (4, "retention")):
        table.sortItems(column)  # ascending, numerically
        shown = [table.item(r, column).value for r in range(table.rowCount())]
        assert shown == sorted(getattr(d.scores, attr) for d in dialog.evaluation.decks)
    row = next(r for r in range(table.rowCount()) if table.item(r, 0).text() == "Five")
    dialog.views.get("decks")._open_row(row, 0)
    qtbot.waitUntil(lambda: not dialog.running, timeout=60_000)
    assert dialog.scope() == ("deck", "Five")
    assert {d.name for d in dialog.evaluation.decks} == {"Five"}


def test_save_chart_png_svg_and_copy(qtbot, col, tmp_path):
    from aqt.qt import QApplication, QImage

    dialog, _ = make_dialog(qtbot, col)
    run_and_wait(qtbot, dialog)
    dialog.save_chart(str(tmp_path / "chart.png"))
    dialog.save_chart(str(tmp_path / "chart.svg"))
    image = QImage(str(tmp_path / "chart.png"))
    assert image.width() >= 2 * dialog.results.chart.width()  # high-DPI export
    assert "<svg" in (tmp_path / "chart.svg").read_text()
    dialog.copy_results()
    assert QApplication.clipboard().text() == format_report(dialog.evaluation)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_chart_readable_in_light_and_dark(qtbot, col, theme):
    from aqt.qt import QColor, QPalette

    dialog, _ = make_dialog(qtbot, col)
    run_and_wait(qtbot, dialog)
    palette = QPalette()
    base, text = (QColor("#ffffff"), QColor("#202020")) if theme == "light" else (QColor("#2c2c2c"), QColor("#eeeeee"))
    for role, color in (
        (QPalette.ColorRole.Base, base),
        (QPalette.ColorRole.Window, base),
        (QPalette.ColorRole.WindowText, text),
        (QPalette.ColorRole.Text, text),
    ):
        palette.setColor(role, color)
    dialog.setPalette(palette)
    dialog.results.chart.setPalette(palette)
    image = dialog.results.chart.to_image()
    assert image.pixelColor(2, 2) == base  # background follows the theme
    colors = {image.pixelColor(x, y).name() for x in range(0, image.width(), 7) for y in range(0, image.height(), 7)}
    assert text.name() in colors or len(colors) > 20  # axes and labels drawn in the text colour
    SHOTS.mkdir(parents=True, exist_ok=True)
    dialog.resize(900, 760)
    dialog.grab().save(str(SHOTS / f"dialog-{theme}.png"))


def test_collection_is_not_modified(qtbot, col):
    before = (col.mod, col.db.scalar("select count() from revlog"), col.db.scalar("select sum(mod) from cards"))
    undo_before = col.undo_status().undo
    dialog, _ = make_dialog(qtbot, col)
    for kind, value in (("collection", ""), ("deck", "Six"), ("preset", "P6")):
        dialog.set_scope(kind, value)
        run_and_wait(qtbot, dialog)
    after = (col.mod, col.db.scalar("select count() from revlog"), col.db.scalar("select sum(mod) from cards"))
    assert after == before
    assert col.undo_status().undo == undo_before


def test_export_from_the_dialog_equals_the_cli_export(qtbot, col, mixed_collection, tmp_path):
    from fsrs_calibration.cli.commands import main
    from fsrs_calibration.metrics.read.dataset import read_tables

    dialog, _ = make_dialog(qtbot, col)
    dialog.set_scope("deck", "Five")
    dialog.prepare_export()
    qtbot.waitUntil(lambda: not dialog.running, timeout=60_000)
    assert "reviews of" in dialog.export_summary and "cards in" in dialog.export_summary
    target = tmp_path / "from-dialog.zip"
    dialog.save_export(str(target))
    qtbot.waitUntil(lambda: not dialog.running, timeout=60_000)
    assert target.exists() and dialog.status.text().startswith("Saved")
    assert main(["export", mixed_collection["path"], str(tmp_path / "from-cli.zip"), "--deck", "Five"]) == 0
    a, b = read_tables(str(target)), read_tables(str(tmp_path / "from-cli.zip"))
    for name in ("revlogs", "cards", "decks"):
        for column, values in getattr(a, name).items():
            assert values.tolist() == getattr(b, name)[column].tolist(), (name, column)


def test_export_of_an_empty_scope_is_a_message(qtbot, col, tmp_path):
    dialog, _ = make_dialog(qtbot, col)
    dialog.set_scope("search", "tag:no-such-tag")
    dialog.prepare_export()
    qtbot.waitUntil(lambda: not dialog.running, timeout=60_000)
    assert "No cards match" in dialog.headline.text()
    dialog.save_export(str(tmp_path / "x.zip"))  # nothing prepared: nothing written
    assert not (tmp_path / "x.zip").exists()


def test_compare_can_be_cancelled(qtbot, col):
    gate = threading.Event()
    dialog, runner = make_dialog(qtbot, col, gate=gate)
    dialog.run_compare()
    runner.started.wait(10)
    dialog.cancel()
    gate.set()
    qtbot.waitUntil(lambda: not dialog.running, timeout=60_000)
    assert dialog.status.text() == "Cancelled." and dialog.comparison is None


def test_compare_models_tab(qtbot, col):
    dialog, _ = make_dialog(qtbot, col)
    dialog.set_scope("deck", "Six")
    dialog.run_compare()
    qtbot.waitUntil(lambda: not dialog.running, timeout=120_000)
    cmp = dialog.comparison
    assert cmp is not None and "fsrs-out-of-sample" in cmp.models
    assert dialog.views.get("compare").table.rowCount() == len(cmp.models) == 7
    assert (
        dialog.views.get("compare").um_table.rowCount() == 7
        and dialog.views.get("compare").um_table.item(0, 0).text() == "–"
    )
    first_row = list(cmp.models)[0]
    second = list(cmp.models)[1]
    assert dialog.views.get("compare").um_table.item(0, 1).text() == f"{cmp.um_plus[first_row][second]:.3f}"
    select(dialog.views.get("compare").um_choice, "um")
    assert dialog.views.get("compare").um_table.item(0, 1).text() == f"{cmp.um[first_row][second]:.3f}"
    dialog.tabs.setCurrentWidget(dialog.views.get("compare"))
    dialog.views.get("compare").chart.repaint()
    assert len(dialog.views.get("compare").chart.points) == sum(len(m.calibration.bins) for m in cmp.models.values())
    from fsrs_calibration.metrics.explain.names import MODEL_NAMES
    from fsrs_calibration.metrics.report.advice import comparison_advice

    assert dialog.views.get("compare").advice.toPlainText() == "\n\n".join(comparison_advice(cmp))
    assert (
        dialog.views.get("compare").advice.toPlainText().startswith(f"Only {cmp.reviews_compared} reviews")
    )  # 654: too few
    names = {dialog.views.get("compare").table.item(r, 0).text() for r in range(7)}
    assert names == {MODEL_NAMES[m] for m in cmp.models}
    assert dialog.views.get("compare").model_order()[0] == min(cmp.models, key=lambda m: cmp.models[m].log_loss)
    SHOTS.mkdir(parents=True, exist_ok=True)
    dialog.resize(1000, 800)
    dialog.grab().save(str(SHOTS / "dialog-compare.png"))


def test_saving_never_replaces_the_collection_but_replaces_a_chosen_file(qtbot, mixed_collection, tmp_path):
    """The save dialogs confirm replacing a file (force), yet the collection itself is refused."""
    import shutil

    from anki.collection import Collection

    path = tmp_path / "collection.anki2"
    shutil.copy(mixed_collection["path"], path)
    own = Collection(str(path))
    try:
        dialog, _ = make_dialog(qtbot, own)
        run_and_wait(qtbot, dialog)
        before = own.db.scalar("select count() from revlog")
        with pytest.raises(EvaluationError, match="that is the collection"):
            dialog.save_chart(str(path))
        existing = tmp_path / "chart.png"
        existing.write_bytes(b"old")
        dialog.save_chart(str(existing))
        assert existing.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        dialog.prepare_export()
        qtbot.waitUntil(lambda: not dialog.running, timeout=60_000)
        dialog.save_export(str(path) + "-wal")
        qtbot.waitUntil(lambda: not dialog.running, timeout=60_000)
        assert "that is the collection" in dialog.status.text() or "that is the collection" in dialog.message
        assert own.db.scalar("select count() from revlog") == before
        assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("collection.")) == ["chart.png"]
    finally:
        own.close(downgrade=False)


def test_results_are_marked_out_of_date_while_they_no_longer_match(qtbot, col):
    gate = threading.Event()
    gate.set()
    dialog, runner = make_dialog(qtbot, col, gate=gate)
    run_and_wait(qtbot, dialog)
    assert not dialog.stale and not dialog.stale_label.isVisibleTo(dialog)
    assert all(v._fade.opacity() == 1.0 for v in dialog.views.all())
    select(dialog.bar.option_boxes["weighting"], "recency")  # an option changed: the numbers shown are for the old one
    assert dialog.stale and dialog.stale_label.isVisibleTo(dialog)
    assert "made with other options" in dialog.stale_label.text()
    assert dialog.results._fade.opacity() < 1.0 and dialog.views.get("decks")._fade.opacity() < 1.0
    assert "Recent reviews more" in dialog.bar.options_summary.text()
    select(dialog.bar.option_boxes["weighting"], "uniform")  # back to what the results were made with
    assert not dialog.stale and not dialog.stale_label.isVisibleTo(dialog)
    select(dialog.bar.option_boxes["weighting"], "recency")
    run_and_wait(qtbot, dialog)
    assert not dialog.stale and dialog.results._fade.opacity() == 1.0
    dialog.set_scope("deck", "Five")  # the scope changed
    assert dialog.stale and "these results are for Whole collection" in dialog.stale_label.text()
    run_and_wait(qtbot, dialog)
    assert not dialog.stale
    gate.clear()
    select(dialog.bar.option_boxes["binning"], "wiki")
    dialog.run()
    runner.started.clear()
    dialog.cancel()  # cancelled: what is shown was made with the old binning
    gate.set()
    qtbot.waitUntil(lambda: not dialog.running, timeout=60_000)
    assert dialog.status.text() == "Cancelled." and dialog.stale and dialog.stale_label.isVisibleTo(dialog)
    assert "made with other options" in dialog.stale_label.text()


def test_remembered_options_are_shown(qtbot, col):
    dialog, _ = make_dialog(qtbot, col, config={"binning": "wiki", "weighting": "recency"})
    text = dialog.bar.options_summary.text()
    assert "The Metric page (wiki)" in text and "Recent reviews more" in text and "remembered" in text
    plain, _ = make_dialog(qtbot, col)
    assert plain.bar.options_summary.text() == "all at their defaults"


def test_the_calibration_tab_names_scope_parameters_same_day_rule_and_binning(qtbot, col):
    # The learner's headline says how well FSRS predicts, in plain words; the statistics' details are a click away.
    dialog, _ = make_dialog(qtbot, col)
    dialog.set_scope("preset", "P45")
    run_and_wait(qtbot, dialog)
    reviews = dialog.evaluation.overall.reviews
    assert dialog.headline.text().startswith('<b>Preset "P45"</b>: ')  # the verdict, then how well FSRS predicts
    assert "FSRS predicts your recall to within about " in dialog.headline.text()
    assert "RMSE" not in dialog.headline.text() and "log loss" not in dialog.headline.text().lower()
    text = dialog.results.details.text()
    assert text.startswith('<b>Preset "P45"</b>: ') and f"{reviews:,} reviews scored" in text
    assert "parameters: P45 (FSRS-4.5)" in text and "same-day repeats dropped" in text
    assert "benchmark bins" in text and "equal weights" in text


def test_long_tooltips_wrap():
    from fsrs_calibration.ui.text import TOOLTIP_WIDTH, tooltip
    from fsrs_calibration.ui.views.results import HELP

    wrapped = tooltip(HELP["rmse"])
    assert f"width={TOOLTIP_WIDTH}" in wrapped and TOOLTIP_WIDTH == 420
    assert tooltip("short") == "<qt>short</qt>" and tooltip("<b>x</b>") == "<qt>&lt;b&gt;x&lt;/b&gt;</qt>"


def test_a_shown_tooltip_is_about_420_px_wide(qtbot, col):
    from aqt.qt import QApplication, QPoint, QToolTip

    dialog, _ = make_dialog(qtbot, col)
    label = dialog.results.labels["log_loss"]
    QToolTip.showText(label.mapToGlobal(QPoint(0, 0)), label.toolTip(), label)
    tips = [w for w in QApplication.topLevelWidgets() if w.objectName() == "qtooltip_label" and w.isVisible()]
    assert tips and 380 <= tips[0].width() <= 460, [t.width() for t in tips]
    QToolTip.hideText()


def test_what_to_do_tab_shows_the_engines_diagnosis(qtbot, col):
    from fsrs_calibration.metrics.jobs.diagnose import diagnose
    from fsrs_calibration.metrics.read.anki_backend import anki_health_check, anki_trainer
    from fsrs_calibration.ui.views.whattodo import LABELS, TITLES

    dialog, _ = make_dialog(qtbot, col)
    assert dialog.tabs.widget(0) is dialog.whattodo and dialog.tabs.tabText(0) == "What to do"
    dialog.run_diagnosis()
    qtbot.waitUntil(lambda: not dialog.running, timeout=120_000)
    dg = dialog.diagnosis
    want = diagnose(read_collection(col), anki_health_check(col), trainer=anki_trainer(col))
    assert [(f.id, f.verdict, f.scope, f.summary) for f in dg.findings] == [
        (f.id, f.verdict, f.scope, f.summary) for f in want.findings
    ]
    text = dialog.whattodo.plain_text()
    for f in dg.findings:
        assert f.summary in text and TITLES[f.id] in text and LABELS[f.verdict] in text
    assert dialog.tabs.currentWidget() is dialog.whattodo
    select(dialog.bar.option_boxes["binning"], "wiki")  # the diagnosis uses each preset's own choices, not these
    assert dialog.whattodo._fade.opacity() == 1.0
    dialog.set_scope("deck", "Five")  # another scope: the findings shown are not its own
    assert dialog.whattodo._fade.opacity() < 1.0


def test_a_closed_dialog_dies_on_the_main_thread(qtbot, col):
    """Garbage is collected as in Anki (automatic collection off, tests/conftest.py): a closed dialog's
    reference cycles are not collected by a worker thread that allocates, which would destroy its widgets
    off the GUI thread (the cause of a crash in Qt's painter seen in earlier test runs)."""
    import gc
    import weakref

    died_in: list[str] = []
    dialog, _ = make_dialog(qtbot, col)
    run_and_wait(qtbot, dialog)
    dialog.close()
    weakref.finalize(dialog, lambda: died_in.append(threading.current_thread().name))
    del dialog
    qtbot.wait(10)

    def allocate() -> None:  # enough live objects that an automatic collector would run all generations
        junk = [[i] for i in range(1_000_000)]
        del junk

    worker = threading.Thread(target=allocate, name="worker")
    worker.start()
    worker.join()
    assert died_in == []
    gc.collect()
    assert died_in == [threading.current_thread().name]  # collected here, on the main thread
