"""The dialog inside a living Anki (issue 26), one test per way it failed the learner: the real Anki main window
(offscreen) with the add-on installed, driven by tests/e2e/living_scripts.py. Each test also holds that Anki
saw no exception: none reached its excepthook, its error window had nothing to show.

Run on the pinned Anki and on the oldest supported one (make test-oldest runs tests/ui there too).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # make check leaves it out; make test runs it

ROOT = Path(__file__).resolve().parents[2]
ADDON = "fsrs_calibration"
MAX_ANSWER_WAIT_S = 0.5  # the promise: an answered card never waits longer while the add-on works
LARGE_REVIEWS = 150_000  # enough that the diagnosis trains for a few seconds (bench/: the same at 500,000)


@pytest.fixture(scope="module")
def large() -> str:
    from support.builder import build_large
    from support.built_once import built_once

    path = ROOT / "build" / "living" / f"collection-{LARGE_REVIEWS}.anki2"
    return built_once(path, lambda own: build_large(own, LARGE_REVIEWS))


def living(tmp_path, sample, script, prepare=None, config=None, history_dir=False, env=None) -> dict:
    ran, _path = living_at(tmp_path, sample, script, prepare, config, history_dir, env)
    return ran


def living_at(tmp_path, sample, script, prepare=None, config=None, history_dir=False, env=None) -> tuple:
    """Run the living script in a real Anki on a copy of the sample (changed by `prepare(col)` first)."""
    from anki.collection import Collection
    from e2e.harness import install_working_tree, make_base, run_anki

    base = tmp_path / "base"
    path = make_base(base, sample, sys.executable)
    col = Collection(str(path))
    try:
        for conf in col.decks.all_config():  # new cards enough to review for a while
            conf["new"]["perDay"] = 9999
            col.decks.update_config(conf)
        if prepare is not None:
            prepare(col)
    finally:
        col.close(downgrade=False)
    install_working_tree(base)
    addon = base / "addons21" / ADDON
    if config is not None:
        (addon / "meta.json").write_text(json.dumps({"config": config}))
    if history_dir:
        (addon / "user_files" / "diagnoses-Test.json").mkdir(parents=True)
    shots = ROOT / "build" / "screenshots" / "living" / script
    shots.mkdir(parents=True, exist_ok=True)
    env = {"E2E_SHOTS": str(shots), **(env or {})}
    ran = run_anki(base, f"living-{script}", tmp_path / "out.json", env, python=sys.executable, timeout=300)
    assert "error" not in ran, ran.get("error")
    assert ran["exceptions"] == [], ran["exceptions"]
    assert "Traceback" not in ran.get("anki_errors", "") and "Traceback" not in ran["stderr"], ran
    return ran, path


def test_every_button_works_without_a_popup(tmp_path, sample):
    ran = living(tmp_path, sample, "buttons")
    after = ran["after"]
    assert after["reviews"] and after["diagnosis_reviews"] and after["scope"][0] == "deck"


def test_a_job_ends_quietly_when_its_dialog_is_gone(tmp_path, sample):
    ran = living(tmp_path, sample, "gone")
    assert ran["closing_anki"] and ran["returncode"] == 0
    assert ran["before_closing_anki"]["open"]


def test_bad_settings_and_a_broken_history_are_said_in_one_line_each(tmp_path, sample):
    config = {"scope": "search", "scope_value": 42, "auto_diagnose": "no", "binning": 5}
    ran = living(tmp_path, sample, "settings", config=config, history_dir=True)
    first = ran["directory"]
    assert first["scope"] == ["collection", ""] and first["reviews"] and first["diagnosis_reviews"]
    notice = first["notice"].splitlines()
    assert any(line.startswith('Setting "scope_value" is 42') for line in notice), notice
    assert any(line.startswith('Setting "auto_diagnose" is "no"') for line in notice), notice
    assert any(line.startswith('Setting "binning" is 5') for line in notice), notice
    assert any("not a regular file" in line for line in notice), notice
    assert len(notice) == 4
    assert ran["config_after"]["auto_diagnose"] is True and ran["config_after"]["scope"] == "collection"
    assert any("not JSON" in line for line in ran["garbage"]["notice"].splitlines())
    assert ran["history_bytes"] == "\x00garbage{"  # a file it cannot read is never replaced


def _markup_names(col) -> None:
    col.decks.rename(col.decks.id_for_name("Geography"), "<img src=x> deck")
    medicine = next(c for c in col.decks.all_config() if c["name"].startswith("Medicine"))
    medicine["name"] = "<b>P</b>"
    col.decks.update_config(medicine)
    bold = col.decks.id("<b>x</b>", create=True)
    col.set_deck(col.find_cards('deck:"Languages::Spanish"')[:100], bold)


def test_names_and_searches_are_text_never_html(tmp_path, sample):
    ran = living(tmp_path, sample, "names", prepare=_markup_names)
    assert ran["deck_markup"] == [] and ran["findings_markup"] == [] and ran["message_markup"] == []
    assert ran["deck"]["scope"] == ["deck", "<img src=x> deck"] and "<img src=x> deck" in ran["deck"]["headline"]
    assert 'preset "<b>P</b>"' in ran["findings_text"]
    assert "<i>bad(" in ran["message"]["headline"] and ran["message"]["reviews"] is None


def test_the_gear_follows_renamed_created_and_deleted_decks(tmp_path, sample):
    ran = living(tmp_path, sample, "decks")
    assert "Geography 2" in ran["lists_after_rename"] and "Fresh" in ran["lists_after_rename"]
    assert "Geography" not in ran["lists_after_rename"]
    renamed, created = ran["renamed"], ran["created"]
    assert renamed["scope"] == ["deck", "Geography 2"] and renamed["reviews"] == ran["expected"]["Geography 2"]
    assert created["scope"] == ["deck", "Fresh"] and created["reviews"] == ran["expected"]["Fresh"]
    assert ran["deleted"]["stale"] and ran["deleted"]["stale_text"].startswith("Out of date")
    assert ran["pressed"]["headline"].startswith('There is no deck "Fresh" any more')
    assert ran["pressed"]["reviews"] is None  # never another deck's numbers


def test_a_result_for_another_scope_or_before_reviews_is_not_shown_as_current(tmp_path, sample):
    ran = living(tmp_path, sample, "scope")
    before, changed = ran["before"], ran["changed_while_running"]
    assert changed["scope"] == ["deck", "Medicine"] and changed["reviews"] == before["reviews"]
    assert changed["stale"] and "these results are for Whole collection" in changed["stale_text"]
    assert changed["diagnosis_reviews"] == before["diagnosis_reviews"]  # no diagnosis started on another scope
    assert changed["whattodo_faded"]
    medicine = ran["medicine"]
    assert not medicine["stale"] and medicine["reviews"] < before["reviews"] and medicine["whattodo_faded"]
    assert "the findings in What to do are for Whole collection" in medicine["stale_text"]
    answered = ran["answered"]
    assert answered["stale"] and "2 reviews were answered since these results" in answered["stale_text"]


def test_reviewing_never_waits_for_the_diagnosis(tmp_path, large):
    ran = living(tmp_path, large, "answers", env={"E2E_DECK": "Deck 0::Sub 0"})
    answers = ran["answers"]
    assert len(answers["waits"]) >= 10, answers  # reviewing went on all through the diagnosis
    assert max(answers["waits"]) < MAX_ANSWER_WAIT_S, answers
    assert answers["longest_freeze_s"] < MAX_ANSWER_WAIT_S, answers
    assert ran["after"]["diagnosis_reviews"]


def _fsrs7_preset(col) -> None:
    conf = col.decks.get_config(col.decks.add_config_returning_id("Next"))
    conf["fsrsParams7"], conf["fsrsVersion"] = [round(0.1 + 0.03 * i, 3) for i in range(35)], 7
    col.decks.update_config(conf)
    deck = col.decks.get(col.decks.id_for_name("Geography"))
    deck["conf"] = conf["id"]
    col.decks.save(deck)


def test_a_preset_on_fsrs7_is_named_and_left_out(tmp_path, sample):
    ran = living(tmp_path, sample, "newer", prepare=_fsrs7_preset)
    whole = ran["collection"]
    assert whole["notes"][0].startswith('Preset "Next" uses FSRS-7, which this version cannot replay yet')
    assert whole["reviews"] == ran["expected"]
    assert ran["whattodo_notes"].startswith('Preset "Next" uses FSRS-7')
    assert ran["deck"]["reviews"] is None and ran["deck"]["headline"].endswith(
        'No other cards are in deck "Geography".'
    )


def _cli_reviews(collection, search: str, tmp_path) -> int:
    """The scored reviews `fsrs-calibration evaluate --search SEARCH --json` reports (the learner's command)."""
    import contextlib
    import io

    from fsrs_calibration.cli.commands import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["evaluate", str(collection), "--search", search, "--json"]) == 0
    return int(json.loads(out.getvalue())["reviews"])


def test_where_learners_look(tmp_path, sample):
    """Issue 29: the section in Deck Options (kept numbers of the preset it shows, its button opening the
    dialog usable beside Deck Options, following the preset selector, nothing saved but what the learner
    changed), the Browser's selected cards, and the button beside Statistics."""
    ran, collection = living_at(tmp_path, sample, "places")
    section = ran["section"]
    assert section["title"] == "FSRS Calibration" and section["preset"] == "Languages"
    assert section["lines"][0].startswith("Last evaluated") and "log loss" in section["lines"][0]
    beside = ran["beside"]
    assert beside["scope"] == ["preset", "Languages"] and beside["parent_is_deck_options"] and beside["modal"]
    assert beside["reviews"] and beside["clicked_again"]
    assert ran["switched"]["preset"].startswith("Medicine"), ran.get("picked")
    assert ran["other_scope"] == ["preset", ran["switched"]["preset"]]
    assert ran["saved_as_anki_alone"]  # the same clicks and Save leave what Anki alone leaves
    browser = ran["browser"]
    assert browser["cards"] > 0 and browser["reviews"] == browser["expected"]
    assert browser["reviews"] == _cli_reviews(collection, "cid:" + ",".join(map(str, browser["ids"])), tmp_path)
    assert f"{browser['cards']:,} cards selected in the Browser" in browser["headline"]
    assert "FSRS Calibration…" in ran["stats_buttons"] and ran["stats"]["scope"] == ["deck", ran["stats"]["deck"]]
    assert ran["stats"]["search"] == ["search", "deck:Languages -is:suspended"]  # the statistics' own search
