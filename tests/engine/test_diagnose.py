"""The diagnosis on simulated learners whose true memory model is known (FSRS with known parameters).

Each scenario runs over several seeds; the false-alarm and miss counts asserted here are the ones the
docs/diagnosis.md states. Collections are real Anki collections (the `anki` package) built by tests/support/simulate.py.
"""

from __future__ import annotations

import json
import os
import sys

import pytest
from support.builder import DEFAULTS6
from support.learners import build
from support.simulate import Learner, build_learner_collection

from fsrs_calibration.cli.commands import main
from fsrs_calibration.metrics.jobs.diagnose import VERDICTS, diagnose
from fsrs_calibration.metrics.read.collection import read_collection

SEEDS = range(6)
SCENARIOS = {"honest": {}, "hard": {"hard_share": 0.7}, "again": {"again_share": 0.2}}


# Far from the simulated learners' memory: initial stabilities a fifth of the true ones, a steep forgetting curve.
FAR_OFF = [v * 0.2 for v in DEFAULTS6[:4]] + DEFAULTS6[4:20] + [0.6]
# A second kind of material: cards forgotten much faster (initial stabilities a tenth), harder.
OTHER = [v * 0.1 for v in DEFAULTS6[:4]] + [DEFAULTS6[4] + 2.0] + DEFAULTS6[5:]


def run(path: str, health: bool = False, train: bool = True):
    from anki.collection import Collection

    from fsrs_calibration.metrics.read.anki_backend import anki_health_check, anki_trainer

    col = Collection(path)
    try:
        data = read_collection(col, None)
        return diagnose(data, anki_health_check(col) if health else None, trainer=anki_trainer(col) if train else None)
    finally:
        col.close(downgrade=False)


@pytest.fixture(scope="module")
def verdicts(tmp_path_factory) -> dict[str, list[dict[str, str]]]:
    """scenario -> per seed, finding id -> verdict (presets hold the true parameters)."""
    out: dict[str, list[dict[str, str]]] = {}
    for name, kw in SCENARIOS.items():
        out[name] = []
        for seed in SEEDS:
            path = build(str(tmp_path_factory.mktemp(f"{name}{seed}") / "collection.anki2"), seed, **kw)
            out[name].append({f.id: f.verdict for f in run(path).findings})
    return out


def count(rows, finding, verdict):
    return sum(1 for r in rows if r[finding] == verdict)


@pytest.mark.slow
def test_hard_pressed_on_forgotten_cards_is_found_and_honest_learners_are_not_accused(verdicts):
    # docs/diagnosis.md: hard-misuse — 6 of 6 learners pressing Hard on 70% of forgotten cards found, 0 of 6 honest
    # learners accused (asserted as at most 1 miss and at most 1 false alarm).
    assert count(verdicts["hard"], "hard-misuse", "problem") >= 5
    assert count(verdicts["honest"], "hard-misuse", "problem") <= 1
    assert count(verdicts["again"], "hard-misuse", "problem") <= 1  # another misuse is not this one


def test_again_pressed_on_remembered_cards_is_found_and_not_confused(verdicts):
    assert count(verdicts["again"], "again-misuse", "suggestion") >= 5
    assert count(verdicts["honest"], "again-misuse", "suggestion") <= 1
    assert count(verdicts["hard"], "again-misuse", "suggestion") <= 1


def test_an_honest_learner_gets_no_retention_or_deck_alarm(verdicts):
    assert count(verdicts["honest"], "retention", "suggestion") <= 1
    assert count(verdicts["honest"], "decks", "suggestion") <= 1
    assert all(r["data"] == "ok" and r["parameters"] == "ok" for r in verdicts["honest"])


def test_true_parameters_are_not_sent_to_optimize(verdicts):
    # docs/diagnosis.md: parameters — 0 of 6 honest learners whose preset holds the true parameters told to re-optimize.
    assert count(verdicts["honest"], "parameters", "suggestion") <= 1
    assert count(verdicts["honest"], "benchmark-standing", "ok") == len(SEEDS)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
def test_far_off_parameters_are_sent_to_optimize(tmp_path, seed):
    dg = run(build(str(tmp_path / "c.anki2"), seed, preset=FAR_OFF))
    [params] = dg.by_id("parameters")
    assert params.verdict == "suggestion" and params.evidence.to_dict()["gain_ci"][0] > 0, params
    assert "Optimize" in params.action
    [action] = params.actions  # Deck Options of the deck that uses the preset
    assert action.kind == "deck-options" and action.preset == "Main preset" and action.deck_id > 1


def test_current_predictions_are_the_replay_of_the_part_itself(tmp_path):
    """The out-of-sample tests take the presets' predictions of a deck's (or preset's) reviews from the
    diagnosis's replay of the whole scope: the same numbers as a replay of that part alone."""
    import numpy as np
    from anki.collection import Collection

    from fsrs_calibration.metrics.jobs.diagnose.scored import columns, scored_reviews
    from fsrs_calibration.metrics.jobs.evaluate import Options, evaluate, predict
    from fsrs_calibration.metrics.reviews.subset import restrict

    path = str(tmp_path / "c.anki2")
    learners = {
        "A": (Learner(true_params=list(DEFAULTS6), seed=3), 150),
        "B": (Learner(true_params=OTHER, seed=4), 150),
    }
    build_learner_collection(path, learners, days=200, preset_params={"A": FAR_OFF, "B": None}, seed=9).close()
    col = Collection(path)
    try:
        data = read_collection(col, None)
    finally:
        col.close(downgrade=False)
    options = Options(params="preset")
    whole = scored_reviews(columns(evaluate(data, options)), data)
    for deck in np.unique(data.home_deck).tolist():
        part = predict(restrict(data, data.home_deck == deck), options)
        assert part.p.size > 0
        assert np.array_equal(whole.predictions_of(part.revlog_id), part.p)
    with pytest.raises(AssertionError):
        whole.predictions_of(np.array([12345], dtype=np.int64))


def test_a_preset_on_defaults_is_told_to_optimize(tmp_path):
    dg = run(build(str(tmp_path / "c.anki2"), 0, cards=300, preset=False))
    [params] = dg.by_id("parameters")
    assert params.verdict == "suggestion" and "Optimize" in params.action and "default parameters" in params.summary


def test_a_tiny_collection_is_not_enough_data_everywhere(tmp_path):
    dg = run(build(str(tmp_path / "c.anki2"), 0, cards=25, days=60))
    assert 0 < dg.reviews < 1000
    assert dg.by_id("data")[0].verdict == "not-enough-data"
    assert {f.verdict for f in dg.findings if f.id != "anki-health-check"} == {"not-enough-data"}


def test_anki_health_check_is_ankis_own_call(tmp_path):
    from anki.collection import Collection

    path = build(str(tmp_path / "c.anki2"), 1, cards=200, hard_share=0.7)
    dg = run(path, health=True)
    col = Collection(path)
    try:
        conf = next(c for c in col.decks.all_config() if c["name"] == "Main preset")
        want = col._backend.compute_fsrs_params(
            search='preset:"Main preset" -is:suspended',
            current_params=conf["fsrsParams6"],
            ignore_revlogs_before_ms=0,
            num_of_relearning_steps=len(conf["lapse"]["delays"]),
            health_check=True,
        )
    finally:
        col.close(downgrade=False)
    assert dg.anki_health_check["Main preset"].passed == want.health_check_passed
    assert dg.anki_health_check["Main preset"].fsrs_items == want.fsrs_items
    [finding] = dg.by_id("anki-health-check")
    assert finding.verdict == ("ok" if want.health_check_passed else "problem")
    if want.health_check_passed and dg.by_id("hard-misuse")[0].verdict == "problem":
        assert "disagree" in finding.why  # Anki passes a learner our check flags: said, with why


def test_every_finding_has_the_promised_shape(tmp_path):
    dg = run(build(str(tmp_path / "c.anki2"), 2, cards=300, hard_share=0.7), health=True)
    ids = {f.id for f in dg.findings}
    assert {"data", "anki-health-check", "parameters", "hard-misuse", "again-misuse", "retention", "decks"} <= ids
    for f in dg.findings:
        assert f.verdict in VERDICTS and f.summary and f.scope
        assert f.verdict == "ok" or f.verdict == "not-enough-data" or f.action, f
        if f.verdict in ("problem", "suggestion") and f.id not in ("anki-health-check", "parameters"):
            text = json.dumps(f.evidence.to_dict())
            intervals = "_ci" in text or ('"low"' in text and '"high"' in text)
            assert "reviews" in text and intervals, f  # numbers with intervals and counts


def test_cli_diagnose_json_and_bad_input(tmp_path, capsys):
    path = build(str(tmp_path / "c.anki2"), 0, hard_share=0.7)  # the first "hard" learner of the scenarios
    assert main(["diagnose", path, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) >= {"findings", "anki_health_check"}
    keys = {"id", "verdict", "scope", "summary", "evidence", "action", "why", "actions", "reviews_affected"}
    assert set(out["findings"][0]) == keys
    assert any(f["id"] == "hard-misuse" and f["verdict"] == "problem" for f in out["findings"])
    assert main(["diagnose", path]) == 0
    assert "[problem] hard-misuse" in capsys.readouterr().out
    for argv, fragment in (
        (["diagnose", str(tmp_path / "missing.anki2")], "no such file"),
        (["diagnose", path, "--deck", "Nope"], 'No deck named "Nope"'),
        (["diagnose", path, "--search", "deck:(("], "not valid"),
    ):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and fragment in err, err
    assert sorted(os.listdir(tmp_path)) == ["c.anki2", "c.media"]  # nothing written beside the collection


def test_cli_diagnose_of_a_large_collection_runs_the_health_checks_first(
    tmp_path, tmp_path_factory, capsys, monkeypatch
):
    """With health checks too large for half the memory budget (a 5M-review collection; here a tiny
    budget), the command runs Anki's health checks first, one at a time, with the collection's arrays put
    aside in its run folder: the same diagnosis, the same health checks, nothing left behind."""
    import glob
    import tempfile

    from fsrs_calibration.metrics.jobs import gate

    # a temporary folder of its own: the run folders of other processes (another test run) are not ours
    scratch = tmp_path_factory.mktemp("scratch")
    monkeypatch.setenv("TMPDIR", str(scratch))
    monkeypatch.setattr(tempfile, "tempdir", None)
    path = build(str(tmp_path / "c.anki2"), 1, hard_share=0.7, cards=300, days=200)
    assert main(["diagnose", path, "--json"]) == 0
    usual = json.loads(capsys.readouterr().out)
    monkeypatch.setattr(gate, "DEFAULT_BUDGET", 1)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)  # progress lines are shown on a terminal only
    assert main(["diagnose", path]) == 0
    assert "health check of each preset first" in capsys.readouterr().err
    assert main(["diagnose", path, "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert usual["anki_health_check"] and first["anki_health_check"] == usual["anki_health_check"]
    assert first == usual
    assert tempfile.gettempdir() == str(scratch)
    assert not glob.glob(os.path.join(str(scratch), "fsrs-calibration-run-*", "collection-arrays.pickle"))
    assert sorted(os.listdir(tmp_path)) == ["c.anki2", "c.media"]
