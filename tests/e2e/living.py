"""The dialog inside a living Anki (part of the driver add-on, tests/e2e/driver_addon.py): the learner presses
every button, keeps reviewing, renames decks, closes windows and switches profile while the add-on works.

E2E_MODE=living-NAME runs the script NAME of SCRIPTS: a list of steps, each run in its own turn of Anki's
event loop; a step may return a condition that must hold before the next one (polled every 20 ms). What the
steps observe goes to E2E_OUT, with every exception Anki saw (its excepthook, its error window's text).
"""

from __future__ import annotations

import atexit
import json
import os
import sys
import time
import traceback
from collections.abc import Callable

from aqt import gui_hooks, mw
from aqt.qt import QApplication, QLabel, QMenu, Qt, QTimer, QWidget

from . import DECK_MENU_TEXT, MENU_TEXT, find_dialog, finish, log, result

Step = Callable[[], "Callable[[], bool] | None"]
POLL_MS = 20
STEP_TIMEOUT_S = 150
ADDON = "fsrs_calibration"


# -- seeing what Anki saw ----------------------------------------------------------------------------------
def watch_errors() -> None:
    """Record every exception that reaches Anki (its excepthook and its error window's buffer)."""
    result.setdefault("exceptions", [])
    previous = sys.excepthook

    def hook(etype, value, tb) -> None:  # type: ignore[no-untyped-def]
        result["exceptions"].append("".join(traceback.format_exception(etype, value, tb))[-3000:])
        previous(etype, value, tb)

    sys.excepthook = hook
    atexit.register(_write_at_exit)


def _write_at_exit() -> None:
    """Write the result again as Anki exits (a script that closes Anki's window ends here)."""
    result["anki_errors"] = getattr(getattr(mw, "errorHandler", None), "pool", "")
    if OUT := os.environ.get("E2E_OUT"):
        with open(OUT, "w") as f:
            json.dump(result, f, indent=1)


def anki_errors() -> str:
    """Return what Anki's error handler has collected to show in its error window."""
    return getattr(mw.errorHandler, "pool", "")


# -- running a script ----------------------------------------------------------------------------------------
def run(steps: list[Step]) -> None:
    """Run `steps` one per turn; each may return a condition to wait for before the next."""
    watch_errors()
    _next(steps, 0)


def _next(steps: list[Step], at: int) -> None:
    if at >= len(steps):
        result["anki_errors"] = anki_errors()
        finish()
        return
    step = steps[at]
    log(f"step {step.__name__}")
    try:
        wait = step()
    except Exception:
        result["error"] = f"step {step.__name__}: {traceback.format_exc()}"
        finish()
        return
    if wait is None:
        QTimer.singleShot(POLL_MS, lambda: _next(steps, at + 1))
    else:
        _wait(steps, at, wait, time.monotonic() + STEP_TIMEOUT_S)


def _wait(steps: list[Step], at: int, ready: Callable[[], bool], deadline: float) -> None:
    try:
        done = ready()
    except Exception:
        result["error"] = f"waiting after {steps[at].__name__}: {traceback.format_exc()}"
        finish()
        return
    if done:
        QTimer.singleShot(POLL_MS, lambda: _next(steps, at + 1))
    elif time.monotonic() > deadline:
        result["error"] = f"timed out after step {steps[at].__name__}"
        finish()
    else:
        QTimer.singleShot(POLL_MS, lambda: _wait(steps, at, ready, deadline))


# -- what the steps use --------------------------------------------------------------------------------------
def tools_menu() -> None:
    """Trigger Tools → "FSRS Calibration…"."""
    {a.text(): a for a in mw.form.menuTools.actions()}[MENU_TEXT].trigger()


def deck_gear(name: str) -> None:
    """Trigger "Evaluate FSRS on this deck…" in the gear menu of deck `name`, as the deck list does."""
    menu = QMenu(mw)
    gui_hooks.deck_browser_will_show_options_menu(menu, mw.col.decks.id_for_name(name))
    {a.text(): a for a in menu.actions()}[DECK_MENU_TEXT].trigger()


def settled() -> bool:
    """Return whether the dialog is open and idle (no job running or about to start, cards all added)."""
    d = find_dialog()
    return d is not None and not d.busy and not d.whattodo.building


def running() -> bool:
    d = find_dialog()
    return d is not None and d.running


def diagnosing() -> bool:
    """Return whether the dialog's diagnosis runs now."""
    d = find_dialog()
    return d is not None and d.running and "what to do" in d.status.text().lower()


def ops_done() -> bool:
    """Return whether Anki runs no background operation (its own or the add-on's)."""
    return mw._background_op_count == 0


def state(name: str) -> dict:
    """Return what the dialog shows now, under `name` in the result."""
    d = find_dialog()
    out: dict = {"open": d is not None}
    if d is not None:
        ev = d.evaluation
        out.update(
            scope=list(d.scope()),
            message=d.message,
            headline=shown_text(d.headline),
            stale=d.stale,
            stale_text=d.stale_label.text() if d.stale_label.isVisibleTo(d) else "",
            notice=d.notice.text() if hasattr(d, "notice") and d.notice.isVisibleTo(d) else "",
            status=d.status.text(),
            reviews=ev.overall.reviews if ev is not None else None,
            diagnosis_reviews=d.diagnosis.reviews if d.diagnosis is not None else None,
            whattodo_faded=d.whattodo._fade.opacity() < 1.0,
            notes=list(ev.notes) if ev is not None else [],
        )
        if shots := os.environ.get("E2E_SHOTS"):
            d.grab().save(os.path.join(shots, f"{name}.png"))
    result[name] = out
    return out


def shown_text(label: QLabel) -> str:
    """Return the text a label shows (its rich text rendered)."""
    if label.textFormat() == Qt.TextFormat.PlainText or not Qt.mightBeRichText(label.text()):
        return label.text()
    from aqt.qt import QTextDocument

    doc = QTextDocument()
    doc.setHtml(label.text())
    return doc.toPlainText()


def rendered_as_html(widget: QWidget, text: str) -> bool:
    """Return whether Qt renders `text`, shown by `widget` (a label's text or any tooltip), as HTML."""
    if isinstance(widget, QLabel) and text == widget.text():
        fmt = widget.textFormat()
        if fmt == Qt.TextFormat.PlainText:
            return False
        if fmt == Qt.TextFormat.RichText:
            return True
    return Qt.mightBeRichText(text)


def markup_shown(root: QWidget, raw: list[str]) -> list[str]:
    """Return where a widget under `root` shows one of the `raw` markup strings rendered as HTML (labels and
    tooltips, the dialog's and the tabs' alike)."""
    found = []
    for w in [root, *root.findChildren(QWidget)]:
        texts = [w.text()] if isinstance(w, QLabel) else []
        texts.append(w.toolTip())
        for text in texts:
            if text and any(r in text for r in raw) and rendered_as_html(w, text):
                found.append(f"{type(w).__name__}: {text[:200]}")
    return found


def open_reviewer(deck: str) -> Callable[[], bool]:
    """Start reviewing `deck` in Anki's reviewer; return the condition that its first question shows."""
    mw.col.decks.select(mw.col.decks.id_for_name(deck))
    mw.moveToState("review")
    return lambda: mw.state == "review" and mw.reviewer.card is not None and mw.reviewer.state == "question"


def answer_loop(stats: dict, keep_going: Callable[[], bool]) -> Callable[[], None]:
    """Review in Anki's reviewer (showing a question) while `keep_going()`: show each answer, press Easy, and
    time from the press until the next question is shown (`stats["waits"]`, seconds). Return what stops
    listening."""
    stats.setdefault("waits", [])
    pressed: list[float] = []

    def question_shown(_card) -> None:  # type: ignore[no-untyped-def]
        if pressed:
            stats["waits"].append(time.perf_counter() - pressed.pop())
        if keep_going():
            QTimer.singleShot(30, press)
        else:
            stats["stopped"] = True

    def press() -> None:
        if mw.state != "review" or mw.reviewer.card is None:
            stats["stopped"] = True
            return
        mw.reviewer._showAnswer()
        pressed.append(time.perf_counter())
        mw.reviewer._answerCard(4)

    gui_hooks.reviewer_did_show_question.append(question_shown)
    QTimer.singleShot(30, press)
    return lambda: gui_hooks.reviewer_did_show_question.remove(question_shown)


def processed(n: int = 3) -> None:
    for _ in range(n):
        QApplication.processEvents()
