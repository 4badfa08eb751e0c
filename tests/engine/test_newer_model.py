"""A preset set to an FSRS newer than the replay knows (FSRS-7: `fsrsParams7` and `fsrsVersion` in the preset,
as Anki's development code writes them) is named in one line and left out of every number, never scored as an
older FSRS; the export keeps its cards (review data, no predictions)."""

from __future__ import annotations

import pytest
from anki.collection import Collection
from support.builder import DEFAULTS6, Builder

from fsrs_calibration.metrics.errors import EvaluationError
from fsrs_calibration.metrics.jobs.diagnose import diagnose
from fsrs_calibration.metrics.jobs.evaluate import evaluate
from fsrs_calibration.metrics.models.params import newer_model
from fsrs_calibration.metrics.read.collection import read_collection

FSRS7 = [round(0.1 + 0.03 * i, 3) for i in range(35)]  # 35 values: FSRS-7's count


@pytest.fixture(scope="module")
def col_path(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("newer") / "collection.anki2")
    b = Builder(path, seed=5)
    six = b.preset("Six", "fsrsParams6", DEFAULTS6)
    nxt = b.preset("Next <b>model</b>", "fsrsParams6", DEFAULTS6)  # FSRS-6 parameters kept beside FSRS-7's
    conf = b.col.decks.get_config(nxt)
    conf["fsrsParams7"], conf["fsrsVersion"] = FSRS7, 7
    b.col.decks.update_config(conf)
    rows = []
    for name, preset in (("Old", six), ("New", nxt), ("New::Sub", nxt)):
        for cid in b.cards(b.deck(name, preset), 40):
            rows += [(cid, e) for e in b.history(b.rng.randrange(60, 400))]
    b.write_many(rows)
    b.close()
    return path


@pytest.fixture
def col(col_path):
    c = Collection(col_path)
    yield c
    c.close(downgrade=False)


LINE = 'Preset "Next <b>model</b>" uses FSRS-7, which this version cannot replay yet: its 80 cards in scope'


def test_its_cards_are_left_out_of_every_number(col):
    ev = evaluate(read_collection(col))
    without = evaluate(read_collection(col, 'deck:"Old"'))  # the same collection without those cards
    assert ev.overall == without.overall and ev.calibration == without.calibration
    assert ev.notes[0].startswith(LINE) and "left out of every number" in ev.notes[0]
    assert {d.name for d in ev.decks} == {"Old"}
    assert [p.preset for p in ev.params] == ["Six"]  # never scored with its FSRS-6 parameters


def test_a_scope_of_its_cards_only_says_so(col):
    with pytest.raises(EvaluationError) as err:
        read_collection(col, 'deck:"New"', scope_label='deck "New"')
    assert str(err.value).startswith(LINE) and str(err.value).endswith('No other cards are in deck "New".')


def test_the_diagnosis_names_it_and_judges_the_others(col):
    dg = diagnose(read_collection(col))
    assert len(dg.notes) == 1 and dg.notes[0].startswith(LINE)
    assert not any("Next" in f.scope.name for f in dg.findings)
    assert dg.to_dict()["notes"] == dg.notes


def test_the_export_keeps_its_reviews(col):
    kept = read_collection(col, all_models=True)
    assert kept.card_ids.size == 120 and kept.left_out == ()
    assert read_collection(col).card_ids.size == 40


@pytest.mark.parametrize(
    "preset, model",
    [
        ({}, ""),
        ({"fsrsParams6": DEFAULTS6}, ""),
        ({"fsrsParams7": FSRS7}, "FSRS-7"),
        ({"fsrsParams7": []}, ""),
        ({"fsrsVersion": 7}, "FSRS-7"),
        ({"fsrs_version": "FSRS-8"}, "FSRS-8"),
        ({"fsrsVersion": 6, "fsrsParams7": FSRS7}, ""),  # the version says which one Anki uses
        ({"fsrsVersion": 0}, ""),  # unset
        ({"fsrsVersion": 2}, "an FSRS version this add-on does not know (2)"),
    ],
)
def test_which_presets_are_newer(preset, model):
    assert newer_model(preset) == model


def test_the_command_line_names_it(col_path, capsys, tmp_path):
    import json
    import zipfile

    from fsrs_calibration.cli.commands import main

    assert main(["evaluate", col_path, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    col = Collection(col_path)
    try:
        assert out["reviews"] == evaluate(read_collection(col, 'deck:"Old"')).overall.reviews
    finally:
        col.close(downgrade=False)
    assert out["notes"][0].startswith(LINE)
    assert main(["diagnose", col_path]) == 0
    assert capsys.readouterr().out.startswith(LINE)
    assert main(["evaluate", col_path, "--deck", "New"]) != 0
    assert "uses FSRS-7" in capsys.readouterr().err
    zip_path = tmp_path / "export.zip"
    assert main(["export", col_path, str(zip_path)]) == 0
    with zipfile.ZipFile(zip_path) as z:
        names = z.namelist()
        cards = next(n for n in names if n.startswith("cards"))
        assert len(z.read(cards).decode().strip().splitlines()) == 1 + 120, names  # every card, with a header
