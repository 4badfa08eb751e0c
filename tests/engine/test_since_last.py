"""Finding "since-last" (issue 21, "did acting help?") on simulated learners whose true memory is known.

The collection holds the parameters in use now; the last diagnosis's snapshot holds the ones in use then,
and its moment is half way through the history. The old and new parameters predict the same reviews made
after it: re-optimizing to the true parameters must be called helpful, going away from them harmful, and
a change too small to matter must never be called either (false alarms counted over seeds), also for a
learner FSRS cannot represent exactly (a share of cards whose true stability is a quarter of FSRS's).
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from support.builder import DEFAULTS6
from support.learners import build

from fsrs_calibration.cli.commands import main
from fsrs_calibration.metrics.jobs.diagnose import Snapshot, Verdict, diagnose
from fsrs_calibration.metrics.read.collection import read_collection

FAR_OFF = [v * 0.2 for v in DEFAULTS6[:4]] + DEFAULTS6[4:20] + [0.6]  # initial stabilities a fifth, steep curve
NUDGED = [v * 1.0005 for v in DEFAULTS6]  # a change too small to matter
SEEDS = range(4)


def _since(path: str, old: list[float], split: float = 0.5):
    """Return the since-last findings, the last diagnosis made with `old` at `split` of the history."""
    from anki.collection import Collection

    col = Collection(path)
    try:
        data = read_collection(col, None)
        ids = sorted(col.db.list("select id from revlog"))
        through = int(ids[int(len(ids) * split)])
        now = diagnose(data)
        assert now.snapshot is not None
        last = replace(now.snapshot, through_ms=through, params={"Main preset": list(old)}, date="2026-01-01")
        return [f for f in diagnose(data, last=last).findings if f.id == "since-last"]
    finally:
        col.close(downgrade=False)


def _verdict(found) -> str:
    (f,) = found
    s = f.summary
    return "helped" if "it helped" in s else "worse" if "worse" in s else "little" if "little" in s else str(f.verdict)


@pytest.mark.slow
@pytest.mark.parametrize("planted", [0.0, 0.3], ids=["fsrs-memory", "misfit-memory"])
def test_what_changed_since_the_last_diagnosis(tmp_path, planted):
    said = {"to truth": [], "away": [], "nudged": []}
    for seed in SEEDS:
        for case, (preset, old) in {
            "to truth": (True, FAR_OFF),
            "away": (FAR_OFF, DEFAULTS6),
            "nudged": (True, NUDGED),
        }.items():
            path = build(str(tmp_path / f"{case}{seed}.anki2"), seed, preset=preset, planted_share=planted)
            found = _since(path, old)
            f = found[0]
            assert f.evidence.to_dict()["reviews"] >= 100 and len(f.evidence.to_dict()["gain_ci"]) == 2
            said[case].append(_verdict(found))
    print(planted, said)
    assert said["to truth"] == ["helped"] * len(SEEDS)
    assert said["away"] == ["worse"] * len(SEEDS)
    # a negligible change is never called helpful or harmful (little difference, or cannot tell)
    assert not {"helped", "worse"} & set(said["nudged"])


def test_nothing_changed_and_no_last_diagnosis(tmp_path):
    from anki.collection import Collection

    path = build(str(tmp_path / "c.anki2"), 0)
    col = Collection(path)
    try:
        data = read_collection(col, None)
        first = diagnose(data)
        assert not [f for f in first.findings if f.id == "since-last"]  # no last diagnosis: nothing said
        again = [f for f in diagnose(data, last=first.snapshot).findings if f.id == "since-last"]
        assert [f.verdict for f in again] == [Verdict.OK]
        assert "No preset's parameters or desired retention changed" in again[0].summary
        other = replace(first.snapshot, scope="deck:Other")  # another scope's diagnosis is not compared
        assert not [f for f in diagnose(data, last=other).findings if f.id == "since-last"]
    finally:
        col.close(downgrade=False)


def test_snapshot_round_trip_and_malformed_entries():
    snap = Snapshot("collection", 1_700_000_000_000, "2023-11-14", 1234, 0.33, {"A": [0.1, 0.2]}, {"A": 0.9})
    assert Snapshot.from_dict(json.loads(json.dumps(snap.to_dict()))) == snap
    for bad in (
        {},
        [],
        {**snap.to_dict(), "reviews": -1},
        {**snap.to_dict(), "log_loss": "x"},
        {**snap.to_dict(), "params": {"A": ["x"]}},
        {**snap.to_dict(), "extra": 1},
    ):
        with pytest.raises(ValueError):
            Snapshot.from_dict(bad)


def test_cli_history_file(tmp_path, capsys):
    path = build(str(tmp_path / "c.anki2"), 1)
    history = tmp_path / "history.json"
    assert main(["diagnose", path, "--json", "--history", str(history)]) == 0
    first = json.loads(capsys.readouterr().out)
    assert not [f for f in first["findings"] if f["id"] == "since-last"]
    doc = json.loads(history.read_text())
    assert (
        doc["version"] == 1 and len(doc["diagnoses"]) == 1 and doc["diagnoses"][0]["scope"] == ""
    )  # the whole collection
    assert main(["diagnose", path, "--json", "--history", str(history)]) == 0
    second = json.loads(capsys.readouterr().out)
    assert [f["verdict"] for f in second["findings"] if f["id"] == "since-last"] == ["ok"]
    assert len(json.loads(history.read_text())["diagnoses"]) == 2
    for content in (b"not json", b'{"version": 9, "diagnoses": []}', b"[1, 2]"):
        history.write_bytes(content)
        assert main(["diagnose", path, "--history", str(history)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "cannot read the history of diagnoses" in err
        assert history.read_bytes() == content  # a file it cannot read is left as it was
    assert main(["diagnose", path, "--history", path]) == 2  # never the collection itself
    assert "history" not in capsys.readouterr().out
    history.unlink()
    history.mkdir()  # a folder where the file should be: one line, not "[Errno 21] Is a directory"
    assert main(["diagnose", path, "--history", str(history)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot read the history of diagnoses (not a regular file)" in err
