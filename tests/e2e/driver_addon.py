"""An Anki add-on that drives Anki for the end-to-end tests (installed as addons21/zz_e2e_driver).

E2E_MODE=screens: open the dialog from the Tools menu, run the comparison, then for every tab, in light
                  and dark, at the size it opened with and at 800x500: record the screen's available
                  geometry, the dialog's geometry and every visible control that is outside the
                  dialog or squeezed below its minimum size (outside a scroll area); save screenshots.
E2E_MODE=install: install the .ankiaddon at E2E_ADDON with Anki's own add-on manager, then quit.
E2E_MODE=living-NAME: run the script NAME of living_scripts.py (the dialog in a living Anki: buttons pressed,
                  reviews answered, decks renamed, windows closed, the profile switched meanwhile).
E2E_MODE=tools:   trigger Tools → "FSRS Calibration…", wait for the results, then trigger the deck
                  gear's "Evaluate FSRS on this deck…" for E2E_DECK, wait again; save screenshots
                  (E2E_SHOTS), the dialog's numbers and a fingerprint of the collection before and
                  after. Everything observed goes to the JSON file E2E_OUT; then Anki quits.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
import traceback

from aqt import gui_hooks, mw
from aqt.qt import QApplication, QDialog, QMenu, Qt, QTimer

MODE = os.environ.get("E2E_MODE", "")
OUT = os.environ.get("E2E_OUT", "")
SHOTS = os.environ.get("E2E_SHOTS", "")
DECK = os.environ.get("E2E_DECK", "")
MENU_TEXT = "FSRS Calibration…"
DECK_MENU_TEXT = "Evaluate FSRS on this deck…"
ESCAPED = os.environ.get("E2E_TEXTS", "") == "1"  # record every visible text (the language tests)
result: dict = {"mode": MODE, "log": []}
started = time.monotonic()


def log(msg: str) -> None:
    result["log"].append(f"{time.monotonic() - started:6.2f} {msg}")


def finish() -> None:
    with open(OUT, "w") as f:
        json.dump(result, f, indent=1)
    QTimer.singleShot(100, mw.unloadProfileAndExit)


def guarded(fn):
    def wrapper(*args):
        try:
            fn(*args)
        except Exception:
            result["error"] = traceback.format_exc()
            finish()

    return wrapper


def fingerprint() -> dict:
    """Return what would show any change to the collection: mod time, undo state, table digests."""
    col = mw.col
    out = {"mod": col.mod, "undo": col.undo_status().undo}
    for table in ("revlog", "cards", "notes", "decks", "deck_config", "config", "col"):
        rows = col.db.all(f"select * from {table} order by 1")
        out[table] = hashlib.sha256(repr(rows).encode()).hexdigest()
    return out


@guarded
def install() -> None:
    res = mw.addonManager.install(os.environ["E2E_ADDON"])
    result["install"] = repr(res)
    result["installed"] = sorted(os.listdir(mw.addonManager.addonsFolder()))
    finish()


def tools_action(text: str):
    """Return the add-on's Tools entry: by its object name (any language), else by its English text."""
    actions = mw.form.menuTools.actions()
    named = [a for a in actions if a.objectName() == "fsrs_calibration_tools"]
    return named[0] if named else {a.text(): a for a in actions}[text]


def find_dialog() -> QDialog | None:
    for w in QApplication.topLevelWidgets():
        if isinstance(w, QDialog) and w.isVisible() and type(w).__name__ == "CalibrationDialog":
            return w
    return None


def read_dialog(name: str) -> dict:
    dialog = find_dialog()
    out: dict = {"title": dialog.windowTitle(), "scope": list(dialog.scope()), "message": dialog.message}
    out["tab"] = dialog.tabs.tabText(dialog.tabs.currentIndex())  # the tab it shows, before the screenshots
    out["headline_text"] = _plain(dialog.headline.text())
    out["findings"] = dialog.whattodo.plain_text()
    ev = dialog.evaluation
    if ev is not None:
        o = ev.overall
        out.update(
            reviews=o.reviews,
            log_loss=o.log_loss,
            rmse_bins=o.rmse_bins,
            auc=o.auc,
            decks=[d.name for d in ev.decks],
            report=dialog.views.get("report").text.toPlainText(),
            headline=dialog.headline.text(),
            chart_points=len(dialog.results.chart.points),
        )
    if SHOTS:
        dialog.resize(920, 780)
        dialog.grab().save(os.path.join(SHOTS, f"{name}.png"))
        for view, tab in (
            (dialog.results, "calibration"),
            (dialog.views.get("where"), "where"),
            (dialog.views.get("decks"), "decks"),
        ):
            dialog.tabs.setCurrentWidget(view)
            dialog.grab().save(os.path.join(SHOTS, f"{name}-{tab}.png"))
        dialog.tabs.setCurrentWidget(dialog.results)
    return out


def _plain(rich: str) -> str:
    """Return a label's rich text as plain text (no <b> or <br> tags)."""
    from aqt.qt import QTextDocument

    doc = QTextDocument()
    doc.setHtml(rich)
    return doc.toPlainText()


def wait_until(ready, then, deadline: float, name: str) -> None:
    """Poll every 100 ms until ready() holds, then call then(); give up at the deadline."""

    @guarded
    def poll() -> None:
        if ready():
            log(f"{name} results")
            then()
        elif time.monotonic() > deadline:
            result["error"] = f"timed out waiting for {name}"
            result["anki_errors"] = getattr(getattr(mw, "errorHandler", None), "pool", "")  # what Anki caught
            finish()
        else:
            QTimer.singleShot(100, poll)

    poll()


def settled() -> bool:
    """Return True when the dialog is open and done (results or a message)."""
    dialog = find_dialog()
    if dialog is None or dialog.busy or dialog.whattodo.building:
        return False
    return dialog.evaluation is not None or dialog.message != ""


def wait_for_results(then, deadline: float, name: str) -> None:
    def read_then() -> None:
        result[name] = read_dialog(name)
        then()

    wait_until(settled, read_then, deadline, name)


@guarded
def tools() -> None:
    actions = {a.text(): a for a in mw.form.menuTools.actions()}
    result["tools_menu"] = sorted(actions)
    if MENU_TEXT not in actions:
        result["error"] = "menu entry missing"
        finish()
        return
    result["numpy_before"] = "numpy" in sys.modules
    result["before"] = fingerprint()
    actions[MENU_TEXT].trigger()
    log("tools triggered")
    wait_for_results(act_on_findings, time.monotonic() + 180, "tools")


def _first_action_of_each_kind(dialog) -> dict:
    first: dict = {}
    view = dialog.whattodo
    if view.acting.isVisible() and not view.acting.toggle.isChecked():
        view.acting.toggle.click()  # the checks behind the plan, with their buttons
    for card in view.cards + view.acting.cards:  # the plan's steps first: the button that does each in Anki
        for button, action in zip(card.buttons, card.anki_actions, strict=True):
            first.setdefault(action.kind, (button, action))
    return first


def _deck_options(button, action) -> dict:
    """Click "Open Deck Options": which deck's options opened, and that deck's preset."""
    from aqt.deckoptions import DeckOptionsDialog

    button.click()
    QApplication.processEvents()
    opened = [w for w in QApplication.topLevelWidgets() if isinstance(w, DeckOptionsDialog) and w.isVisible()]
    did = int(action.deck_id)
    return {
        "opened": [int(w._deck["id"]) for w in opened],
        "deck_id": did,
        "preset_of_deck": mw.col.decks.config_dict_for_deck_id(did)["name"],
        "preset": action.preset,
    }


def _browse(button, action, then) -> None:
    """Click "Show in Browser": once its search has run, the cards the Browser shows against those the
    search finds; then `then`."""
    import aqt

    found = sorted(int(c) for c in mw.col.find_cards(action.search))
    button.click()

    def read() -> None:
        browser = aqt.dialogs._dialogs["Browser"][1]
        browser.table.select_all()
        result["browse"] = {"shown": sorted(int(c) for c in browser.table.get_selected_card_ids()), "found": found}
        browser.close()
        then()

    def shown() -> bool:
        browser = aqt.dialogs._dialogs["Browser"][1]
        return browser is not None and browser.table.len() > 0

    wait_until(shown, read, time.monotonic() + 30, "browser")


@guarded
def act_on_findings() -> None:
    """Click one button of each kind of action on the findings the dialog opened on."""
    dialog = find_dialog()
    result["diagnosed"] = dialog.diagnosis is not None
    dialog.tabs.setCurrentWidget(dialog.whattodo)
    if SHOTS:  # what the learner sees first: the finished page, before anything is unfolded
        dialog.resize(920, 780)
        for _ in range(3):
            QApplication.processEvents()
        dialog.grab().save(os.path.join(SHOTS, "whattodo.png"))
    first = _first_action_of_each_kind(dialog)
    result["action_kinds"] = sorted(first)
    if "deck-options" in first:
        result["deck_options"] = _deck_options(*first["deck-options"])
    if "browse" in first:
        _browse(*first["browse"], lambda: _evaluate_action(dialog, first))
    else:
        _evaluate_action(dialog, first)


@guarded
def _evaluate_action(dialog, first: dict) -> None:
    """Click "Evaluate this deck": the dialog evaluates the finding's search; then the deck gear."""
    if "evaluate" not in first:
        deck_gear()
        return
    button, action = first["evaluate"]
    button.click()

    def read_evaluated() -> None:
        ev = dialog.evaluation
        result["evaluated"] = {"scope": list(dialog.scope()), "search": action.search, "reviews": ev.overall.reviews}
        deck_gear()

    ready = lambda: settled() and dialog.scope() == ("search", action.search)  # noqa: E731
    wait_until(ready, read_evaluated, time.monotonic() + 180, "evaluate action")


@guarded
def deck_gear() -> None:
    result["numpy_file"] = getattr(sys.modules.get("numpy"), "__file__", None)
    did = mw.col.decks.id_for_name(DECK)
    menu = QMenu(mw)
    gui_hooks.deck_browser_will_show_options_menu(menu, did)  # what the deck list's gear button runs
    actions = {a.text(): a for a in menu.actions()}
    result["gear_menu"] = sorted(actions)
    actions[DECK_MENU_TEXT].trigger()
    log("deck gear triggered")
    wait_for_results(compare_models, time.monotonic() + 120, "deck")


@guarded
def compare_models() -> None:
    dialog = find_dialog()
    dialog.tabs.setCurrentWidget(dialog.views.get("compare"))
    dialog.run_compare()
    log("compare started")

    def read_comparison() -> None:
        cmp = dialog.comparison
        result["compare"] = {
            "models": list(cmp.models) if cmp else [],
            "log_loss": {k: m.log_loss for k, m in cmp.models.items()} if cmp else {},
            "message": dialog.message,
        }
        if SHOTS:
            dialog.resize(1000, 820)
            dialog.grab().save(os.path.join(SHOTS, "compare.png"))
        done()

    ready = lambda: not dialog.running and (dialog.comparison is not None or dialog.message != "")  # noqa: E731
    wait_until(ready, read_comparison, time.monotonic() + 180, "compare")


@guarded
def done() -> None:
    result["after"] = fingerprint()
    if SHOTS:
        mw.grab().save(os.path.join(SHOTS, "main_window.png"))
    finish()


class Ticker:
    """Measures how long the main thread's event loop goes without running a 10 ms timer."""

    def __init__(self) -> None:
        self.last = time.perf_counter()
        self.max_gap = 0.0
        self.timer = QTimer()
        self.timer.setInterval(10)
        self.timer.timeout.connect(self.tick)
        self.timer.start()

        self.gaps: list[tuple[float, float]] = []  # (seconds since start, gap) of gaps over 30 ms

    def tick(self) -> None:
        now = time.perf_counter()
        gap = now - self.last
        self.max_gap = max(self.max_gap, gap)
        if gap > 0.03:
            self.gaps.append((round(time.monotonic() - started, 3), round(gap * 1000, 1)))
        self.last = now


@guarded
def bench() -> None:
    """Click Tools → FSRS Calibration… and time it until the results are on screen."""
    actions = {a.text(): a for a in mw.form.menuTools.actions()}
    ticker = Ticker()
    QTimer.singleShot(300, lambda: start_bench(actions[MENU_TEXT], ticker))


@guarded
def start_bench(action, ticker) -> None:
    ticker.max_gap = 0.0
    ticker.last = time.perf_counter()
    clicked = time.perf_counter()

    @guarded
    def poll() -> None:
        dialog = find_dialog()
        if dialog is not None and dialog.evaluation is not None:  # (the diagnosis may follow on its own)
            QApplication.processEvents()
            result["click_to_results_s"] = time.perf_counter() - clicked
            result["max_ui_block_s"] = ticker.max_gap
            result["gaps_ms"] = ticker.gaps
            result["clicked_at"] = round(clicked - (time.perf_counter() - (time.monotonic() - started)), 3)
            result["reviews"] = dialog.evaluation.overall.reviews
            if os.environ.get("E2E_DIAGNOSE"):
                start_diagnosis(dialog, ticker)
            else:
                finish()
        else:
            QTimer.singleShot(5, poll)

    log("click")
    action.trigger()
    log("triggered")
    poll()


@guarded
def start_diagnosis(dialog, ticker) -> None:
    """Time the diagnosis from the evaluation's results: the one the dialog started on its own
    (auto_diagnose), else started here with "What to do"'s button; the ticker measures the window's freezes."""
    ticker.max_gap = 0.0
    ticker.gaps = []
    ticker.last = time.perf_counter()
    clicked = time.perf_counter()
    result["diagnosis_automatic"] = dialog.busy
    if not dialog.busy:
        dialog.run_diagnosis()

    @guarded
    def poll() -> None:
        if not dialog.busy and dialog.diagnosis is not None:
            QApplication.processEvents()
            result["click_to_diagnosis_s"] = time.perf_counter() - clicked
            result["diagnosis_max_ui_block_s"] = ticker.max_gap
            result["diagnosis_gaps_ms"] = ticker.gaps
            result["findings"] = len(dialog.diagnosis.findings)
            finish()
        elif not dialog.busy:
            result["error"] = f"the diagnosis ended without findings: {dialog.status.text()}"
            finish()
        else:
            QTimer.singleShot(5, poll)

    poll()


@guarded
def screens() -> None:
    tools_action(MENU_TEXT).trigger()
    wait_until(settled, screens_compare, time.monotonic() + 120, "screens")


@guarded
def screens_compare() -> None:
    dialog = find_dialog()
    result["opened"] = _rect(dialog.frameGeometry())
    dialog.run_compare()
    ready = lambda: not dialog.running and (dialog.comparison is not None or dialog.message != "")  # noqa: E731
    wait_until(ready, screens_diagnose, time.monotonic() + 180, "screens compare")


@guarded
def screens_diagnose() -> None:
    dialog = find_dialog()
    dialog.run_diagnosis()
    ready = lambda: not dialog.running and (dialog.diagnosis is not None or dialog.message != "")  # noqa: E731
    wait_until(ready, screens_check, time.monotonic() + 180, "screens diagnose")


def _rect(r) -> list[int]:
    return [r.x(), r.y(), r.width(), r.height()]


def clipped_controls(dialog) -> list[str]:
    """Return the visible controls that lie outside the dialog or are squeezed (not in a scroll area)."""
    from aqt.qt import QAbstractButton, QAbstractScrollArea, QComboBox, QLineEdit, QPoint, QRect, QTabBar, QWidget

    problems = []
    inside = dialog.rect()
    for w in dialog.findChildren(QWidget):
        if not isinstance(w, (QAbstractButton, QComboBox, QLineEdit, QTabBar)) or not w.isVisibleTo(dialog):
            continue
        if isinstance(w.parentWidget(), QTabBar):
            continue  # the tab bar's own scroll arrows (Qt draws them narrower than their hint)
        parent, scrolled = w.parentWidget(), False
        while parent is not None and parent is not dialog:
            if isinstance(parent, QAbstractScrollArea):
                scrolled = True
                break
            parent = parent.parentWidget()
        if scrolled:
            continue  # reachable by scrolling
        r = QRect(w.mapTo(dialog, QPoint(0, 0)), w.size())
        name = f"{type(w).__name__} {getattr(w, 'text', lambda: '')() or w.objectName()}".strip()
        if not inside.contains(r):
            problems.append(f"{name} outside the dialog: {_rect(r)} not in {_rect(inside)}")
        hint = w.minimumSizeHint()
        if isinstance(w, QTabBar):
            continue  # a tab bar scrolls its tabs when narrow
        if w.width() < hint.width() - 1 or w.height() < hint.height() - 1:
            problems.append(f"{name} squeezed: {w.width()}x{w.height()} < {hint.width()}x{hint.height()}")
    return problems


def learner_names() -> list[str]:
    """Return the names the learner gave (decks, each part of a deck's path, presets, note types): text the
    catalog never holds."""
    names = set()
    for deck in mw.col.decks.all_names_and_ids():
        names.add(deck.name)
        names.update(deck.name.split("::"))
    names.update(c["name"] for c in mw.col.decks.all_config())
    names.update(m["name"] for m in mw.col.models.all())
    language = sys.modules.get("fsrs_calibration.metrics.explain.lang")  # Anki's own words for our TERMS
    names.update(language.current().terms.values() if language is not None else ())
    return sorted(names)


def visible_texts(dialog) -> list[str]:
    """Return every text the dialog shows now: labels, buttons, tabs, group titles, table headers and cells,
    tooltips of visible controls, the window title and the text views' contents (plain text)."""
    from aqt.qt import QAbstractButton, QGroupBox, QLabel, QTabBar, QTableWidget, QTextEdit, QTreeWidget, QWidget

    out = [dialog.windowTitle()]
    for w in dialog.findChildren(QWidget):
        if not w.isVisibleTo(dialog):
            continue
        out.append(w.toolTip())
        if isinstance(w, QLabel):
            out.append(_plain(w.text()) if w.textFormat() != 0 else w.text())
        elif isinstance(w, QAbstractButton | QGroupBox):
            out.append(w.text() if isinstance(w, QAbstractButton) else w.title())
        elif isinstance(w, QTabBar):
            out += [w.tabText(i) for i in range(w.count())] + [w.tabToolTip(i) for i in range(w.count())]
        elif isinstance(w, QTextEdit):
            out.append(w.toPlainText())
        elif isinstance(w, QTableWidget):
            out += _table_texts(w)
        elif isinstance(w, QTreeWidget):
            out += [w.headerItem().text(c) for c in range(w.columnCount())]
    return sorted({t for t in out if t and t.strip()})


def _table_texts(table) -> list[str]:
    out = []
    for c in range(table.columnCount()):
        head = table.horizontalHeaderItem(c)
        out += [head.text(), head.toolTip()] if head is not None else []
        for r in range(table.rowCount()):
            item = table.item(r, c)
            out += [item.text(), item.toolTip()] if item is not None else []
    return out


def findings_visible(dialog) -> int:
    """Return how many finding cards lie wholly inside the What-to-do tab's visible area (no scrolling)."""
    from aqt.qt import QAbstractScrollArea, QPoint, QRect

    cards = dialog.whattodo.cards
    if not cards or not dialog.whattodo.isVisible():
        return 0
    area = cards[0].parentWidget()
    while area is not None and not isinstance(area, QAbstractScrollArea):
        area = area.parentWidget()
    port = area.viewport()
    seen = QRect(port.mapTo(dialog, QPoint(0, 0)), port.size())
    return sum(seen.contains(QRect(c.mapTo(dialog, QPoint(0, 0)), c.size())) for c in cards)


def set_theme(dark: bool) -> None:
    from aqt.theme import Theme

    mw.set_theme(Theme.DARK if dark else Theme.LIGHT)
    QApplication.processEvents()


@guarded
def screens_check() -> None:
    dialog = find_dialog()
    screen = dialog.screen()
    result["screen"] = {
        "available": _rect(screen.availableGeometry()),
        "dpr": screen.devicePixelRatio(),
        "name": screen.name(),
    }
    result["compared"] = dialog.comparison is not None
    result["diagnosed"] = dialog.diagnosis is not None
    result["names"] = learner_names()
    rtl = dialog.layoutDirection() == Qt.LayoutDirection.RightToLeft
    result["direction"] = "right-to-left" if rtl else "left-to-right"
    checks = []
    sizes = [("opened", None), ("800x500", (800, 500))]
    for theme in ("light", "dark"):
        set_theme(theme == "dark")
        for label, size in sizes:
            if size is not None:
                dialog.resize(*size)
            else:
                dialog.resize(result["opened"][2], result["opened"][3])
            for i in range(dialog.tabs.count()):
                dialog.tabs.setCurrentIndex(i)
                for _ in range(3):
                    QApplication.processEvents()
                checks.append(
                    {
                        "theme": theme,
                        "size": label,
                        "tab": dialog.tabs.tabText(i),
                        "dialog": [dialog.width(), dialog.height()],
                        "problems": clipped_controls(dialog),
                        "findings_visible": findings_visible(dialog),
                        "texts": visible_texts(dialog) if ESCAPED and theme == "light" else [],
                    }
                )
                if SHOTS:
                    tab = f"{i + 1}" if ESCAPED else dialog.tabs.tabText(i)  # tab texts: any language
                    tab = tab.lower().replace(" ", "-")
                    dialog.grab().save(os.path.join(SHOTS, f"{label}-{theme}-{tab}.png"))
    set_theme(False)
    result["checks"] = checks
    result["minimum"] = [dialog.minimumSizeHint().width(), dialog.minimumSizeHint().height()]
    finish()


_opened: list[bool] = []


def on_profile_open() -> None:
    log("profile open")
    if _opened:  # a script reopened the profile: it goes on by itself
        return
    _opened.append(True)
    result["addons"] = {m.dir_name: m.enabled for m in mw.addonManager.all_addon_meta()}
    if MODE == "install":
        QTimer.singleShot(300, install)
    elif MODE == "tools":
        QTimer.singleShot(300, tools)
    elif MODE == "screens":
        QTimer.singleShot(300, screens)
    elif MODE == "bench":
        QTimer.singleShot(500, bench)
    elif MODE.startswith("living-"):
        from .living_scripts import start

        QTimer.singleShot(300, lambda: start(MODE.removeprefix("living-")))


gui_hooks.profile_did_open.append(on_profile_open)
QTimer.singleShot(240_000, lambda: (result.setdefault("error", "global timeout"), finish()))
