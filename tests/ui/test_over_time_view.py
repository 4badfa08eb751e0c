"""The "Over time" tab draws the evaluation's months: one point per month, one row per month."""

from __future__ import annotations

import pytest
from support.qt_helpers import ThreadRunner

from fsrs_calibration.ui.dialog import CalibrationDialog


@pytest.fixture
def col(mixed_collection):
    from anki.collection import Collection

    c = Collection(mixed_collection["path"])
    yield c
    c.close(downgrade=False)


def test_months_drawn_and_listed(qtbot, col):
    dialog = CalibrationDialog(None, ThreadRunner(col), {}, None, "26.09.3")
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.run()
    qtbot.waitUntil(lambda: dialog.evaluation is not None and not dialog.running, timeout=60_000)
    months = dialog.evaluation.over_time
    assert len(months) > 1 and sum(m.reviews for m in months) == dialog.evaluation.overall.reviews
    view = dialog.views.get("over_time")
    dialog.tabs.setCurrentWidget(view)
    view.chart.repaint()
    assert [p.count for p in view.chart.points] == [m.reviews for m in months]
    assert view.table.rowCount() == len(months)
    assert {view.table.item(r, 0).text() for r in range(len(months))} == {m.month for m in months}
