"""The places learners look (issue 29), driven in the real Anki window: the section in Deck Options, the
Browser's selected cards, the button beside Statistics (part of the driver add-on, with living_scripts.py)."""

from __future__ import annotations

import json
import os
import time

import aqt
from aqt import mw
from aqt.qt import QApplication

from . import find_dialog, result
from .living import ops_done, settled, state, tools_menu

SECTION = "document.getElementById('fsrs-calibration')"
_seen: dict = {}


def _deck_options():
    from aqt.deckoptions import DeckOptionsDialog

    found = [w for w in QApplication.topLevelWidgets() if isinstance(w, DeckOptionsDialog) and w.isVisible()]
    return found[-1] if found else None


def _eval(js: str, key: str) -> None:
    """Run `js` in Deck Options' page; its value lands in _seen[key] (JSON)."""
    _seen.pop(key, None)
    _deck_options().web.evalWithCallback(js, lambda v: _seen.__setitem__(key, v))


def _section_read():
    js = f"""(() => {{ const s = {SECTION}; if (!s) return null;
      const lines = [...s.querySelectorAll('[data-line]')].filter(e => e.style.display !== 'none');
      return JSON.stringify({{preset: s.dataset.preset, title: s.querySelector('[data-title]').textContent,
        lines: lines.map(e => e.textContent), check: s.querySelector('[data-button=check]').style.display}}); }})()"""
    _eval(js, "section")
    return lambda: _seen.get("section") is not None


def evaluate_first():
    tools_menu()  # the collection, evaluated and diagnosed: the numbers Deck Options shows are kept
    return lambda: settled() and find_dialog() is not None and find_dialog().diagnosis is not None


def _open_options():
    from aqt.deckoptions import display_options_for_deck_id

    display_options_for_deck_id(mw.col.decks.id_for_name("Languages::Spanish"))
    return lambda: _deck_options() is not None and _deck_options()._ready


def control_open():
    """Anki alone first (the section's hook taken out): the same clicks, then Save; what the save leaves."""
    from aqt import gui_hooks

    from fsrs_calibration.ui import places

    find_dialog().close()
    gui_hooks.deck_options_did_load.remove(places._deck_options_loaded)
    return _open_options()


def _selector(preset: str) -> list:
    """The steps that choose `preset` in Deck Options' preset selector, as a learner clicks it."""

    def open_it():
        _eval("document.querySelector('.button-bar .select-container').click(); true", "opened")
        return lambda: _seen.get("opened") is True

    def pick():
        js = """(() => {
          const options = [...document.querySelectorAll('.popover button, [role=option], .dropdown-item')];
          const one = options.find(o => o.textContent.trim().startsWith(PREFIX));
          if (!one) {  // the list is not open (a click after a choice may only focus it): click it again
            document.querySelector('.button-bar .select-container').click();
            return options.map(o => o.textContent.trim()).join('|') || false;
          }
          one.click(); return true; })()""".replace("PREFIX", json.dumps(preset))

        def picked() -> bool:
            if _seen.get("picked") is True:
                return True
            if isinstance(_seen.get("picked"), str):
                result.setdefault("pick_seen", []).append(_seen["picked"])
            if not _seen.get("asking_pick"):
                _seen["asking_pick"] = True
                _deck_options().web.evalWithCallback(js, lambda v: _seen.update(picked=v, asking_pick=False))
            return False

        _seen.pop("picked", None)
        return picked

    open_it.__name__, pick.__name__ = f"open_selector_{preset}", f"pick_{preset}"
    return [open_it, pick]


def _save():
    """Click Save as a learner does: the click makes Deck Options the active window first (Anki 25.07 closes
    Deck Options after a save only when it is the active window), then the page's Save button."""
    _seen.pop("saved", None)
    _deck_options().activateWindow()

    def saved() -> bool:
        if "saved" not in _seen and QApplication.activeWindow() is _deck_options():
            _eval("document.querySelector('.save').closest('button').click(); true", "saved")
        return "saved" in _seen and _deck_options() is None and ops_done()

    return saved


def control_saved():
    from aqt import gui_hooks

    from fsrs_calibration.ui import places

    _seen["control"] = _settings()
    gui_hooks.deck_options_did_load.append(places._deck_options_loaded)
    return _open_options()


def wait_for_section():
    """Ask the page, again and again, whether the section is there (the page builds it when it is ready)."""

    def there() -> bool:
        if _seen.get("present") is True:
            return True
        if _seen.get("present", False) is False and not _seen.get("asking"):
            _seen["asking"] = True
            _deck_options().web.evalWithCallback(f"{SECTION} !== null", _answered)
        return False

    def _answered(value) -> None:  # type: ignore[no-untyped-def]
        _seen["present"], _seen["asking"] = value, False

    _seen.pop("present", None)
    return there


def read_section():
    _deck_options().resize(1366, 728)  # the screenshots' size: the page lays itself out again meanwhile
    return _section_read()


def show_section():
    result["section"] = json.loads(_seen["section"])
    _eval(f"{SECTION}.scrollIntoView({{block: 'center'}}); true", "scrolled")
    _seen["since"] = time.monotonic()
    return lambda: _seen.get("scrolled") is True and time.monotonic() - _seen["since"] > 0.5


def shot_light_then_dark():
    from aqt.theme import Theme

    _shot("deck-options-light.png")
    mw.set_theme(Theme.DARK)
    _seen["since"] = time.monotonic()
    return lambda: time.monotonic() - _seen["since"] > 1.0


def shot_dark_then_open():
    from aqt.theme import Theme

    _shot("deck-options-dark.png")
    mw.set_theme(Theme.LIGHT)
    _eval(f"{SECTION}.querySelector('[data-button=open]').click()", "clicked")
    return lambda: _evaluated_on("preset")


def _shot(name: str) -> None:
    if shots := os.environ.get("E2E_SHOTS"):
        QApplication.processEvents()
        _deck_options().grab().save(os.path.join(shots, name))


def _evaluated_on(kind: str) -> bool:
    d = find_dialog()
    return d is not None and d.scope()[0] == kind and d.evaluation is not None and settled()


def read_dialog_beside():
    d, options = find_dialog(), _deck_options()
    result["beside"] = {
        "scope": list(d.scope()),
        "parent_is_deck_options": d.parentWidget() is options,
        "modal": QApplication.activeModalWidget() is options,
        "reviews": d.evaluation.overall.reviews if d.evaluation is not None else None,
    }
    _seen["before_click"] = d.evaluation
    d.run_button.click()  # usable beside Deck Options: the click reaches it and evaluates again
    return lambda: settled() and find_dialog().evaluation is not _seen["before_click"]


def read_switched():
    result["beside"]["clicked_again"] = True
    return _section_read()


def open_on_other():
    result["switched"] = json.loads(_seen["section"])
    _eval(f"{SECTION}.querySelector('[data-button=open]').click()", "clicked")
    return lambda: _evaluated_on("preset") and find_dialog().scope() == ("preset", result["switched"]["preset"])


def dark_and_save():
    result["other_scope"] = list(find_dialog().scope())
    return None


def after_save():
    result["saved_as_anki_alone"] = _settings() == _seen["control"]
    return _open_options()


def nothing_pending():
    """Opened with the section, nothing changed: Anki's close asks nothing (the page is not modified)."""
    _eval("anki.deckOptionsPendingChanges(); true", "pending")
    return lambda: _deck_options() is None


def _settings() -> str:
    """Return every preset and every deck's preset, without their modification stamps (a save stamps them)."""
    stamps = ("mod", "usn")
    presets = [{k: v for k, v in c.items() if k not in stamps} for c in mw.col.decks.all_config()]
    decks = sorted((d["name"], d.get("conf")) for d in mw.col.decks.all())
    return json.dumps([presets, decks], sort_keys=True)


def browser_selection():
    browser = aqt.dialogs.open("Browser", mw, search=("deck:Medicine",))
    _seen["browser"] = browser
    return lambda: browser.table.len() > 0


def evaluate_selection():
    browser = _seen["browser"]
    browser.table.select_all()
    _seen["selected"] = sorted(int(c) for c in browser.selected_cards())
    actions = {a.text(): a for a in browser.form.menu_Cards.actions()}
    actions["Evaluate FSRS on the selected cards…"].trigger()
    return lambda: _evaluated_on("cards")


def read_selection():
    d = find_dialog()
    from fsrs_calibration.metrics.jobs.evaluate import evaluate
    from fsrs_calibration.metrics.read.collection import read_collection

    search = "cid:" + ",".join(str(c) for c in _seen["selected"])
    result["browser"] = {
        "cards": len(_seen["selected"]),
        "ids": _seen["selected"],
        "reviews": d.evaluation.overall.reviews,
        "expected": evaluate(read_collection(mw.col, search)).overall.reviews,
        "headline": state("selection")["headline"],
    }
    _seen["browser"].close()
    stats = aqt.dialogs.open("NewDeckStats", mw)
    _seen["stats"] = stats
    return lambda: stats.isVisible()


def statistics_button():
    stats = _seen["stats"]
    buttons = {b.text(): b for b in stats.form.buttonBox.buttons()}
    result["stats_buttons"] = sorted(buttons)
    _seen["stats_deck"] = mw.col.decks.name(stats.deck_chooser.selected_deck_id)
    buttons["FSRS Calibration…"].click()
    return lambda: settled() and find_dialog().scope() == ("deck", _seen["stats_deck"])


STATS_SEARCH = "deck:Languages -is:suspended"


def read_statistics():
    """The deck the statistics show, then a search typed in the statistics' own search box."""
    result["stats"] = {"scope": list(find_dialog().scope()), "deck": _seen["stats_deck"]}
    js = f"""(() => {{ const e = document.getElementById('statisticsSearchText'); if (!e) return null; e.focus();
      e.value = {json.dumps(STATS_SEARCH)}; e.dispatchEvent(new Event('input')); e.dispatchEvent(new Event('change'));
      return e.value; }})()"""

    def typed() -> bool:  # the page loads after the window shows: type again until its search box is there
        if _seen.get("typed") == STATS_SEARCH:
            return True
        if not _seen.get("typing"):  # one at a time: its answer clears the flag
            _seen["typing"] = True
            _seen["stats"].form.web.evalWithCallback(js, lambda v: _seen.update(typed=v, typing=False))
        return False

    return typed


def statistics_search():
    buttons = {b.text(): b for b in _seen["stats"].form.buttonBox.buttons()}
    buttons["FSRS Calibration…"].click()
    return lambda: settled() and find_dialog().scope() == ("search", STATS_SEARCH)


def read_statistics_search():
    result["stats"]["search"] = list(find_dialog().scope())
    _seen["stats"].close()
    time.sleep(0.1)
    return None


def places() -> list:
    clicks = [*_selector("Medicine"), *_selector("Languages")]  # the learner's clicks, the same both times
    return [
        evaluate_first,
        control_open,
        *clicks,
        _save,
        control_saved,
        wait_for_section,
        read_section,
        show_section,
        shot_light_then_dark,
        shot_dark_then_open,
        read_dialog_beside,
        *_selector("Medicine"),
        read_switched,
        open_on_other,
        *_selector("Languages"),
        dark_and_save,
        _save,
        after_save,
        wait_for_section,
        nothing_pending,
        browser_selection,
        evaluate_selection,
        read_selection,
        statistics_button,
        read_statistics,
        statistics_search,
        read_statistics_search,
    ]
