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
