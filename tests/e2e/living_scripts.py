"""The scripts of tests/ui/test_living.py, one per way a living Anki failed the dialog (issue 26): each a list
of steps for living.run (part of the driver add-on: copied beside driver_addon.py)."""

from __future__ import annotations

import os
import time

from aqt import mw
from aqt.qt import QApplication

from . import Ticker, find_dialog, result
from .living import (
    answer_loop,
    deck_gear,
    diagnosing,
    markup_shown,
    open_reviewer,
    ops_done,
    processed,
    running,
    settled,
    state,
    tools_menu,
)

PROFILE = "Test"
EVIL = ["<b>x</b>", "<img src=x>", "<b>P</b>", "<i>bad("]


def _dialog():
    d = find_dialog()
    assert d is not None, "the dialog is not open"
    return d


def _evaluated() -> bool:
    d = find_dialog()
    return settled() and d.evaluation is not None


def _diagnosed() -> bool:
    d = find_dialog()
    return settled() and d.diagnosis is not None


# -- 1. every button of the dialog, pressed as a learner presses it -------------------------------------------
_seen: dict = {}


def _open_and_diagnose():
    tools_menu()
    return _diagnosed


def _open_while_diagnosing():
    tools_menu()  # it evaluates, then diagnoses on its own
    return diagnosing


def _press_evaluate():
    d = _dialog()
    _seen["evaluation"] = d.evaluation
    d.run_button.click()
    return lambda: settled() and d.evaluation is not None and d.evaluation is not _seen["evaluation"]


def _press_in(tab: str, button: str, made: str):
    """Return the step that shows tab `tab`, clicks its `button`, and waits for a new dialog.`made`."""

    def step():
        d = _dialog()
        view = d.views.get(tab)
        d.tabs.setCurrentWidget(view)
        _seen[made] = getattr(d, made)
        getattr(view, button).click()
        return lambda: settled() and getattr(d, made) is not None and getattr(d, made) is not _seen[made]

    step.__name__ = f"press_{button}_in_{tab}"
    return step


def _press_evaluate_then_cancel():
    d = _dialog()
    d.run_button.click()
    d.job.cancel_button.click()
    return settled


def _press_toggles_and_a_deck_row():
    d = _dialog()
    for button in (d.bar.options_toggle, d.bar.options_toggle, d.remember, d.remember):
        button.click()
    for fold in (d.whattodo.passed, d.whattodo.undecided):
        if fold.isVisible():
            fold.toggle.click()
    decks = d.views.get("decks")
    d.tabs.setCurrentWidget(decks)
    decks.table.cellDoubleClicked.emit(0, 0)
    return _evaluated


def _read_and_close():
    d = _dialog()
    state("after")
    close = [b for b in d.findChildren(type(d.run_button)) if b.text() == "Close"][0]
    close.click()
    return lambda: find_dialog() is None


def buttons() -> list:
    return [
        _open_and_diagnose,
        _press_evaluate,
        _press_in("whattodo", "button", "diagnosis"),
        _press_in("compare", "button", "comparison"),
        _press_in("export", "prepare_button", "export_tables"),
        _press_evaluate_then_cancel,
        _press_toggles_and_a_deck_row,
        _read_and_close,
    ]


# -- 2. the dialog gone while its job runs: closed, the profile switched, Anki closed ----------------------
def gone() -> list:
    def close_the_dialog():
        _dialog().close()
        result["closed_while"] = "diagnosing"
        return ops_done

    def grace():
        result["after_close"] = time.monotonic()
        return lambda: time.monotonic() - result["after_close"] > 1.0

    def open_again():
        tools_menu()
        return running

    def switch_profile():
        mw.unloadProfileAndShowProfileManager()
        return lambda: mw.state == "profileManager" and ops_done()

    def open_the_profile_again():
        mw.pm.load(PROFILE)
        mw.onOpenProfile()
        return lambda: mw.col is not None and mw.state in ("deckBrowser", "overview")

    def close_anki():
        result["closing_anki"] = True
        state("before_closing_anki")
        mw.close()  # Anki exits: the result is written as it exits (living.watch_errors)
        return lambda: False

    return [
        _open_while_diagnosing,
        close_the_dialog,
        grace,
        open_again,
        switch_profile,
        open_the_profile_again,
        _open_while_diagnosing,
        close_anki,
    ]


# -- 3. bad settings and a broken history file ---------------------------------------------------------------
def settings() -> list:
    def read_then_break_the_history_differently():
        state("directory")
        result["config_after"] = mw.addonManager.getConfig("fsrs_calibration")
        history = _dialog().history
        os.rmdir(history)
        with open(history, "wb") as f:
            f.write(b"\x00garbage{")
        _dialog().whattodo.button.click()
        return _diagnosed

    def read():
        state("garbage")
        result["history_bytes"] = open(_dialog().history, "rb").read().decode("latin-1")
        return None

    return [_open_and_diagnose, read_then_break_the_history_differently, read]


# -- 4. names and searches with markup ----------------------------------------------------------------------
def names() -> list:
    def open_on_the_deck():
        deck_gear("<img src=x> deck")
        return _diagnosed

    def check_deck():
        d = _dialog()
        processed()
        result["deck_markup"] = markup_shown(d, EVIL)
        state("deck")
        d.set_scope("collection")
        d.whattodo.button.click()
        return _diagnosed

    def check_findings():
        d = _dialog()
        d.tabs.setCurrentWidget(d.whattodo)
        processed()
        result["findings_markup"] = markup_shown(d, EVIL)
        result["findings_text"] = d.whattodo.plain_text()
        d.set_scope("search", "<i>bad(")
        d.run_button.click()
        return settled

    def check_message():
        d = _dialog()
        result["message_markup"] = markup_shown(d, EVIL)
        state("message")
        return None

    return [open_on_the_deck, check_deck, check_findings, check_message]


# -- 5. decks renamed, created and deleted after the dialog was built ----------------------------------------
def decks() -> list:
    from aqt.operations.card import set_card_deck
    from aqt.operations.deck import add_deck, rename_deck

    ids: dict = {}

    def rename_and_create():
        ids["geo"] = int(mw.col.decks.id_for_name("Geography"))
        rename_deck(parent=mw, deck_id=ids["geo"], new_name="Geography 2").run_in_background()
        add_deck(parent=mw, name="Fresh").run_in_background()
        return lambda: ops_done() and mw.col.decks.id_for_name("Fresh") is not None

    def move_cards():
        ids["fresh"] = int(mw.col.decks.id_for_name("Fresh"))
        cards = mw.col.find_cards('deck:"Medicine"')[:120]
        set_card_deck(parent=mw, card_ids=cards, deck_id=ids["fresh"]).run_in_background()
        return ops_done

    def gear_on_the_renamed():
        result["lists_after_rename"] = [
            _dialog().bar.deck_box.itemData(i) for i in range(_dialog().bar.deck_box.count())
        ]
        deck_gear("Geography 2")
        return _evaluated

    def gear_on_the_new():
        state("renamed")
        result["expected"] = {name: _reviews(f'deck:"{name}"') for name in ("Geography 2", "Fresh")}
        deck_gear("Fresh")
        return _evaluated

    def delete_the_selected():
        state("created")
        _remove_deck(ids["fresh"], "Fresh")
        return lambda: ops_done() and mw.col.decks.get(ids["fresh"], default=False) is None

    def evaluate_the_deleted():
        state("deleted")
        _dialog().run_button.click()
        return settled

    return [
        _open_and_diagnose,
        rename_and_create,
        move_cards,
        gear_on_the_renamed,
        gear_on_the_new,
        delete_the_selected,
        evaluate_the_deleted,
        lambda: state("pressed") and None,
    ]


def _remove_deck(did: int, name: str) -> None:
    """Delete a deck as Anki's deck list does (Anki 26 names it in the undo entry)."""
    import inspect

    from aqt.operations.deck import remove_decks

    named = {"deck_name": name} if "deck_name" in inspect.signature(remove_decks).parameters else {}
    remove_decks(parent=mw, deck_ids=[did], **named).run_in_background()


def _reviews(search: str) -> int:
    """Return the reviews the engine scores for `search` (the dialog's scope must give the same)."""
    from fsrs_calibration.metrics.jobs.evaluate import evaluate
    from fsrs_calibration.metrics.read.collection import read_collection

    return evaluate(read_collection(mw.col, search)).overall.reviews


# -- 6. the scope changed while a job runs; reviews answered since a result ---------------------------------
def scope() -> list:
    stats: dict = {}

    def evaluate_then_change_the_scope():
        state("before")
        d = _dialog()
        d.run()  # (test_every_button_works_without_a_popup presses the button itself)
        d.set_scope("deck", "Medicine")  # while the whole collection is being evaluated
        return settled

    def read_then_evaluate_the_new_scope():
        state("changed_while_running")
        _dialog().run()
        return settled

    def start_reviewing():
        state("medicine")
        return open_reviewer("Medicine")

    def answer_two_cards():
        stats["stop"] = answer_loop(stats, lambda: len(stats["waits"]) < 2)
        return lambda: len(stats["waits"]) >= 2

    def read():
        stats["stop"]()
        processed()
        state("answered")
        return None

    return [
        _open_and_diagnose,
        evaluate_then_change_the_scope,
        read_then_evaluate_the_new_scope,
        start_reviewing,
        answer_two_cards,
        read,
    ]


# -- 7. reviewing while the diagnosis trains --------------------------------------------------------------------
def answers() -> list:
    stats: dict = {}

    def start_reviewing():
        return open_reviewer(os.environ.get("E2E_DECK") or "Languages")

    def review_meanwhile():
        d = _dialog()
        stats["diagnosis_started"] = time.monotonic()
        stats["ticker"] = Ticker()
        stats["stop"] = answer_loop(stats, lambda: d.running)
        return lambda: stats.get("stopped") or not d.busy

    def read():
        stats["stop"]()
        d = _dialog()
        result["answers"] = {
            "waits": [round(w, 4) for w in stats["waits"]],
            "diagnosis_s": round(time.monotonic() - stats["diagnosis_started"], 2),
            "longest_freeze_s": round(stats["ticker"].max_gap, 4),
        }
        stats["ticker"].timer.stop()
        state("after")
        return _diagnosed if d.diagnosis is None else None

    return [start_reviewing, _open_while_diagnosing, review_meanwhile, read]


def anki_checks() -> list:
    """For bench_dialog: the same reviewing while Anki's own health checks run as Deck Options runs them (on the
    learner's collection), the figure the diagnosis's is compared with."""
    stats: dict = {}

    def start_reviewing():
        return open_reviewer(os.environ.get("E2E_DECK") or "Languages")

    def check_and_review():
        from aqt.operations import QueryOp

        from fsrs_calibration.metrics.read.anki_backend import anki_health_check

        names = [c["name"] for c in mw.col.decks.all_config()]
        QueryOp(
            parent=mw,
            op=lambda col: [anki_health_check(col)(name) for name in names],
            success=lambda _done: stats.__setitem__("done", True),
        ).without_collection().run_in_background()
        stats["started"], stats["ticker"] = time.monotonic(), Ticker()
        stats["stop"] = answer_loop(stats, lambda: not stats.get("done"))
        return lambda: stats.get("done") and (stats.get("stopped") or ops_done())

    def read():
        stats["stop"]()
        result["answers"] = {
            "waits": [round(w, 4) for w in stats["waits"]],
            "checks_s": round(time.monotonic() - stats["started"], 2),
            "longest_freeze_s": round(stats["ticker"].max_gap, 4),
        }
        return None

    return [start_reviewing, check_and_review, read]


# -- 8. a preset on FSRS-7 ----------------------------------------------------------------------------------------
def newer() -> list:
    def gear_on_its_deck():
        state("collection")
        d = _dialog()
        d.tabs.setCurrentWidget(d.whattodo)
        notes = getattr(d.whattodo, "notes", None)
        result["whattodo_notes"] = notes.text() if notes is not None and notes.isVisibleTo(d) else ""
        result["expected"] = _reviews('-preset:"Next"')
        deck_gear("Geography")
        return settled

    def read():
        state("deck")
        return None

    return [_open_and_diagnose, gear_on_its_deck, read]


def _places() -> list:
    from .living_places import places

    return places()


SCRIPTS = {
    "buttons": buttons,
    "gone": gone,
    "settings": settings,
    "names": names,
    "decks": decks,
    "scope": scope,
    "answers": answers,
    "anki-checks": anki_checks,
    "newer": newer,
    "places": _places,
}


def start(name: str) -> None:
    from .living import run

    QApplication.processEvents()
    run(SCRIPTS[name]())
