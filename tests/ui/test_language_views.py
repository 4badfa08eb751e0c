"""The dialog's views in another language, in real Qt: numbers in the language's marks yet sorted by value,
words from the catalog, Arabic mirrored with its ranges isolated left to right, the chart left to right."""

from __future__ import annotations

import gettext

import pytest
from support.qt_helpers import ThreadRunner

from fsrs_calibration.metrics.explain import lang
from fsrs_calibration.ui import language
from fsrs_calibration.ui.dialog import CalibrationDialog


@pytest.fixture
def col(mixed_collection):
    from anki.collection import Collection

    c = Collection(mixed_collection["path"])
    yield c
    c.close(downgrade=False)


@pytest.fixture(autouse=True)
def english_after():
    yield
    lang.use(None)


def evaluated(qtbot, col, code):
    language.apply(code)
    dialog = CalibrationDialog(None, ThreadRunner(col, None), {"auto_diagnose": False}, None, "26.09.3")
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.run()
    qtbot.waitUntil(lambda: not dialog.running, timeout=60_000)
    assert dialog.evaluation is not None, dialog.message
    return dialog


def test_german_numbers_are_written_the_german_way_and_sort_by_value(qtbot, col):
    dialog = evaluated(qtbot, col, "de_DE")
    reviews = dialog.evaluation.overall.reviews
    german = f"{reviews:,}".replace(",", ".")
    assert german in dialog.headline.text() and f"{reviews:,}" not in dialog.headline.text().replace(german, "")
    table = dialog.views.get("decks").table
    table.sortItems(2)  # Reviews
    shown = [table.item(r, 2) for r in range(table.rowCount())]
    assert [i.value for i in shown] == sorted(i.value for i in shown)  # by value, not by "1.229" < "912"
    rates = [table.item(r, 4).text() for r in range(table.rowCount())]  # Measured
    assert all("," in t and t.endswith("%") for t in rates), rates  # "88,1 %" (decimal comma, its spacing)


def test_japanese_words_come_from_the_japanese_catalog(qtbot, col):
    dialog = evaluated(qtbot, col, "ja_JP")
    with open(lang.catalog_for.__globals__["gettext"].find(lang.DOMAIN, str(lang.FOLDER), ["ja"]), "rb") as f:
        japanese = gettext.GNUTranslations(f)
    assert dialog.tabs.tabText(0) == japanese.gettext("What to do") != "What to do"
    assert dialog.windowTitle() == japanese.gettext("FSRS Calibration")


def test_arabic_mirrors_the_dialog_isolates_ranges_and_keeps_the_chart_left_to_right(qtbot, col):
    from aqt.qt import Qt

    dialog = evaluated(qtbot, col, "ar_SA")
    assert dialog.layoutDirection() == Qt.LayoutDirection.RightToLeft
    assert dialog.results.chart.layoutDirection() == Qt.LayoutDirection.LeftToRight
    bins = dialog.results.bins
    interval = bins.item(bins.rowCount() - 1, 4).text()
    assert interval.startswith("\u2066") and interval.endswith("\u2069") and "–" in interval  # never reversed
    assert "٪" in interval or "%" in interval


@pytest.mark.parametrize("code", ["ja_JP", "zh_CN", "zh_TW"])
def test_the_report_lines_up_its_columns_in_chinese_and_japanese(qtbot, col, code):
    # second readers (ja, zh_CN): the report's values stood out of line after CJK labels — the system's fixed font
    # fell back to a proportional CJK font, while the report pads by East Asian width (two columns a character)
    from aqt.qt import QFontDatabase, QFontMetricsF

    from fsrs_calibration.metrics.report.text import width

    if not any(f.startswith("Noto Sans Mono CJK") for f in QFontDatabase.families()):
        pytest.skip("no CJK fixed-pitch font installed (make installs fonts-noto-cjk)")
    dialog = evaluated(qtbot, col, code)
    view = dialog.views.get("report")  # built when first shown: shown now, filled with the evaluation
    metrics = QFontMetricsF(view.text.font())
    lines = [line for line in view.text.toPlainText().splitlines() if ":" in line or "：" in line][:12]
    assert any(width(line) != len(line) for line in lines), lines  # some hold CJK characters
    column = metrics.horizontalAdvance("0")
    for line in lines:
        assert abs(metrics.horizontalAdvance(line) - width(line) * column) < 0.5, line
