"""The `fsrs-calibration evaluate` command: numbers, scopes, read-only use and one-line errors."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import subprocess
import sys

import pytest
from support.builder import WEIGHTS17, Builder

from fsrs_calibration.cli.commands import main

EXE = os.path.join(os.path.dirname(sys.executable), "fsrs-calibration")


def run_main(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest(), os.stat(path).st_mtime_ns


def test_console_command_json_matches_anki_and_leaves_file_untouched(mixed_collection):
    path = mixed_collection["path"]
    before = digest(path)
    args = [EXE, "evaluate", path, "--search", 'preset:"P6"', "--weighting", "recency", "--same-day", "keep", "--json"]
    proc = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    for key in ("reviews", "cards", "log_loss", "rmse_bins", "auc", "calibration", "decks"):
        assert key in out
    assert digest(path) == before
    from anki.collection import Collection

    col = Collection(path)
    try:
        conf = next(c for c in col.decks.all_config() if c["name"] == "P6")
        a = col._backend.evaluate_params_legacy(
            params=conf["fsrsParams6"], search='preset:"P6"', ignore_revlogs_before_ms=0
        )
    finally:
        col.close(downgrade=False)
    assert out["log_loss"] == pytest.approx(a.log_loss, abs=1e-5)
    assert out["rmse_bins"] == pytest.approx(a.rmse_bins, abs=1e-5)
    assert {d["name"] for d in out["decks"]} == {"Six", "Six::Sub"}
    assert sum(d["reviews"] for d in out["decks"]) == out["reviews"]
    assert sum(b["count"] for b in out["calibration"]) == out["reviews"]
    for deck in out["decks"]:
        assert sum(b["count"] for b in deck["calibration"]) == deck["reviews"]
        assert deck["calibration_summary"]["brier"] is not None
    assert 0 < out["auc"] < 1


def test_deck_scope_includes_subdecks_and_filtered_cards(mixed_collection, capsys):
    path = mixed_collection["path"]
    code, out, _ = run_main(
        capsys, "evaluate", path, "--deck", "Six", "--params", "default", "--weighting", "recency", "--json"
    )
    assert code == 0
    ours = json.loads(out)
    from anki.collection import Collection

    col = Collection(path)
    try:
        a = col._backend.evaluate_params_legacy(params=[], search="deck:Six", ignore_revlogs_before_ms=0)
    finally:
        col.close(downgrade=False)
    assert ours["log_loss"] == pytest.approx(a.log_loss, abs=1e-5)
    assert ours["rmse_bins"] == pytest.approx(a.rmse_bins, abs=1e-5)
    assert {d["name"] for d in ours["decks"]} == {"Six", "Six::Sub"}


def test_odd_characters_in_the_path(mixed_collection, tmp_path, capsys):
    import shutil

    odd = tmp_path / "we#ird %20 ?dir"
    odd.mkdir()
    shutil.copy(mixed_collection["path"], odd / "col%20x.anki2")
    code, out, err = run_main(capsys, "evaluate", str(odd / "col%20x.anki2"), "--json")
    assert code == 0, err
    assert json.loads(out)["reviews"] > 0


def test_text_report_and_options(mixed_collection, capsys):
    code, out, err = run_main(capsys, "evaluate", mixed_collection["path"], "--binning", "wiki")
    assert code == 0, err
    assert "Log loss:" in out and "RMSE (bins):" in out and "wiki bins" in out and "Per deck" in out
    code, out, _ = run_main(
        capsys, "evaluate", mixed_collection["path"], "--params", ",".join(map(str, WEIGHTS17)), "--json"
    )
    assert code == 0
    assert json.loads(out)["params"][0]["same_day"] == "drop"  # 17 parameters: FSRS-4.5 mode


@pytest.fixture(scope="module")
def error_collection(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("errors") / "collection.anki2")
    b = Builder(path, seed=3)
    broken = b.preset("Broken Preset", "fsrsParams6", [1.0] * 5)
    fine = b.deck("Fine")
    for cid in b.cards(fine, 5):
        b.write(cid, b.history(100))
    bad = b.deck("BadParams", broken)
    for cid in b.cards(bad, 5):
        b.write(cid, b.history(100))
    b.cards(b.deck("NewOnly"), 3)
    b.deck("NoCards")
    same_day = b.deck("SameDayOnly")
    for cid in b.cards(same_day, 3):
        b.write(cid, [e for e in b.history(50, max_reviews=2)][:1] * 1)
    b.close()
    return path


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["evaluate", "/nonexistent/collection.anki2"], "no such file"),
        (["evaluate", "{dir}"], "is a folder"),
        (["evaluate", "{text}"], "not an Anki collection"),
        (["evaluate", "{sqlite}"], "not an Anki collection"),
        (["evaluate", "{col}", "--search", "tag:nothing-has-this-tag"], "No cards match"),
        (["evaluate", "{col}", "--search", "deck:(("], "not valid"),
        (["evaluate", "{col}", "--deck", "No Such Deck"], 'No deck named "No Such Deck"'),
        (["evaluate", "{col}", "--deck", "NewOnly"], "No reviews to score"),
        (["evaluate", "{col}", "--deck", "NoCards"], 'No cards in deck "NoCards"'),
        (["evaluate", "{col}", "--deck", "SameDayOnly"], "No reviews to score"),
        (["evaluate", "{col}", "--deck", "BadParams"], 'Preset "Broken Preset": 5 parameters'),
        (["evaluate", "{col}", "--params", "1,2,nan" + ",1" * 18], "w2 is nan, not a finite number"),
        (["evaluate", "{col}", "--params", "1,2,x"], "not a list of numbers"),
        (["evaluate", "{col}", "--params", "1,2,3"], "3 parameters given"),
    ],
)
def test_user_errors_are_one_line_with_status_2(error_collection, tmp_path, capsys, argv, fragment):
    text = tmp_path / "notes.txt"
    text.write_text("hello")
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).execute("create table t (x)").connection.close()
    fill = {"{col}": error_collection, "{dir}": str(tmp_path), "{text}": str(text), "{sqlite}": str(other)}
    argv = [fill.get(a, a) for a in argv]
    code, out, err = run_main(capsys, *argv)
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("fsrs-calibration: error:")
    assert fragment in err
    assert "Traceback" not in err


def test_whole_collection_with_a_broken_preset_names_it(error_collection, capsys):
    code, _, err = run_main(capsys, "evaluate", error_collection)
    assert code == 2 and "Broken Preset" in err
    code, out, _ = run_main(capsys, "evaluate", error_collection, "--deck", "Fine")
    assert code == 0 and "Reviews scored" in out


def test_locked_collection(error_collection):
    from anki.collection import Collection

    col = Collection(error_collection)  # Anki holds an exclusive lock while open (POSIX locks: another process)
    try:
        proc = subprocess.run([EXE, "evaluate", error_collection], capture_output=True, text=True, timeout=120)
    finally:
        col.close(downgrade=False)
    assert proc.returncode == 2 and "locked" in proc.stderr and proc.stderr.count("\n") == 1


def test_output_closed_early_gives_no_traceback(mixed_collection):
    """`fsrs-calibration evaluate … | head -1`: the reader leaves; the command stops without a traceback."""
    cmd = [sys.executable, "-m", "fsrs_calibration.cli", "evaluate", mixed_collection["path"], "--json"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # nobody reads: the first write fails with EPIPE
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait(timeout=120) == 1 and "Traceback" not in err, err


def test_a_failing_engine_import_still_closes_the_copy(mixed_collection, monkeypatch, tmp_path):
    """numpy or the engine failing to import (a broken install) leaves no open collection or copy."""
    import argparse
    import tempfile

    from fsrs_calibration.cli import copy as cli

    opened = []
    real_open = cli.open_collection

    def open_collection(path):
        opened.append(real_open(path))
        return opened[-1]

    def import_engine():
        raise ImportError("numpy is broken")

    monkeypatch.setattr(cli, "open_collection", open_collection)
    monkeypatch.setattr(cli, "import_engine", import_engine)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # this run's scratch folder goes here
    args = argparse.Namespace(collection=mixed_collection["path"], deck=None, search=None)
    with pytest.raises(ImportError, match="numpy is broken"), cli.opened_copy(args):
        pass
    assert len(opened) == 1 and opened[0].db is None  # closed
    assert opened[0].path.startswith(str(tmp_path)) and os.listdir(tmp_path) == []


def test_compare_of_a_large_collection_trains_first_with_the_arrays_put_aside(
    mixed_collection, capsys, monkeypatch, tmp_path_factory
):
    """With trainings too large for half the memory budget (a 5M-review collection; here a tiny budget),
    the command trains every fold first, one at a time, with the collection's arrays in its run folder:
    the same comparison, the same models' numbers, nothing left behind."""
    import glob
    import tempfile

    from fsrs_calibration.metrics.jobs import gate

    # a temporary folder of its own: the run folders of other processes (another test run) are not ours
    scratch = tmp_path_factory.mktemp("scratch")
    monkeypatch.setenv("TMPDIR", str(scratch))
    monkeypatch.setattr(tempfile, "tempdir", None)
    path = mixed_collection["path"]
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)  # progress lines are shown on a terminal only
    code, out, err = run_main(capsys, "compare", path, "--deck", "Six")
    assert code == 0 and "one part at a time" not in err
    usual = json.loads(run_main(capsys, "compare", path, "--deck", "Six", "--json")[1])
    monkeypatch.setattr(gate, "DEFAULT_BUDGET", 1)
    code, out, err = run_main(capsys, "compare", path, "--deck", "Six")
    assert code == 0 and "one part at a time" in err
    first = json.loads(run_main(capsys, "compare", path, "--deck", "Six", "--json")[1])
    assert first["reviews_compared"] == usual["reviews_compared"] and len(first["fold_params"]) == 5
    for model in ("fsrs-preset", "fsrs-default", "sm2", "anki-interval", "avg", "moving-avg"):
        assert first["models"][model] == usual["models"][model]
    assert (
        abs(first["models"]["fsrs-out-of-sample"]["log_loss"] - usual["models"]["fsrs-out-of-sample"]["log_loss"])
        < 0.01
    )
    assert tempfile.gettempdir() == str(scratch)
    assert not glob.glob(os.path.join(str(scratch), "fsrs-calibration-run-*", "collection-arrays.pickle"))


def test_arrays_put_aside_are_removed_once_read_back_or_on_failure(tmp_path, monkeypatch):
    """The pickle of a large collection's arrays is gone as soon as it is read back, after an error
    inside the block, and a failed write leaves nothing and says so in one line."""
    import pickle
    import sqlite3
    import types

    from fsrs_calibration.cli import copy as cli
    from fsrs_calibration.cli.arguments import UsageError

    col = types.SimpleNamespace(path=str(tmp_path / "collection.anki2"), db=sqlite3.connect(":memory:"))
    steps: list[str] = []
    with cli.put_aside({"a": [1, 2]}, col, steps.append, "step") as load:
        assert steps == ["step"] and os.listdir(tmp_path) == ["collection-arrays.pickle"]
        assert load() == {"a": [1, 2]}
        assert os.listdir(tmp_path) == []
    with pytest.raises(RuntimeError), cli.put_aside([1], col, None, "step"):
        raise RuntimeError("inside")
    assert os.listdir(tmp_path) == []

    def full(*_a, **_k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(pickle, "dump", full)
    with pytest.raises(UsageError, match="No space left on device"), cli.put_aside([1], col, None, "s"):
        pass
    assert os.listdir(tmp_path) == []
