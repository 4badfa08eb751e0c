"""A damaged collection in the dialog: a message that suggests Check Database, not a crash, in every job."""

from __future__ import annotations

from support.damage import damage
from support.qt_helpers import ThreadRunner

from fsrs_calibration.ui.dialog import CalibrationDialog


def test_a_damaged_collection_is_a_message_in_the_dialog(qtbot, mixed_collection, tmp_path):
    from anki.collection import Collection

    col = Collection(str(damage(mixed_collection["path"], tmp_path, "damaged revlog page")))
    try:
        dialog = CalibrationDialog(None, ThreadRunner(col), {}, None, "26.09.3")
        qtbot.addWidget(dialog)
        dialog.show()
        for start in (dialog.run, dialog.run_diagnosis, dialog.run_compare):
            start()
            qtbot.waitUntil(lambda: not dialog.running, timeout=60_000)
            assert "Check Database" in dialog.headline.text() and dialog.evaluation is None
        dialog.close()
    finally:
        col.close(downgrade=False)
