"""What the add-on keeps per preset for Deck Options (issue 29): the file is untrusted input when read back
(one clear message, nothing of it used), written whole or not at all, and a preset's change since its last
diagnosis (Optimize pressed, desired retention changed) is noticed against the values it had then."""

from __future__ import annotations

import json
import os

import pytest

from fsrs_calibration.metrics.export.kept_file import write_kept
from fsrs_calibration.metrics.jobs.kept import changed_since, merged, plain_params
from fsrs_calibration.metrics.read.kept_file import MAX_BYTES, KeptUnreadable, read_kept

ENTRY = {
    "evaluated": "2026-11-25",
    "reviews": 1200,
    "log_loss": 0.3551,
    "rmse_bins": 0.0421,
    "auc": 0.61,
    "diagnosed": "2026-11-25",
    "steps": 2,
    "actions": ["optimize", "desired-retention"],
    "scope": ["preset", "Spanish <b>verbs</b>"],
    "diagnosed_params": [0.4, 1.2, 3.1],
    "diagnosed_retention": 0.9,
}


def test_what_is_written_is_read_back(tmp_path):
    path = str(tmp_path / "presets-Test.json")
    assert read_kept(path) == {}  # no file yet: nothing kept, no message
    write_kept(path, {"Spanish <b>verbs</b>": ENTRY})
    assert read_kept(path) == {"Spanish <b>verbs</b>": ENTRY}
    assert [p.name for p in tmp_path.iterdir()] == ["presets-Test.json"]  # no part file left


@pytest.mark.parametrize(
    "content, why",
    [
        (b"{not json", "not JSON"),
        (b"\xff\xfe\x00", "not JSON"),
        (b"[1, 2]", "not a file this add-on wrote"),
        (b'{"version": 99, "presets": {}}', "not a file this add-on wrote"),
        (b'{"version": 1, "presets": []}', "not a file this add-on wrote"),
        (b"[" * 100_000, "not JSON"),
    ],
)
def test_a_damaged_file_is_one_message_and_left_as_it_is(tmp_path, content, why):
    path = tmp_path / "presets-Test.json"
    path.write_bytes(content)
    with pytest.raises(KeptUnreadable) as err:
        read_kept(str(path))
    assert err.value.why == why and str(path) in str(err.value) and "\n" not in str(err.value)
    assert path.read_bytes() == content


def test_a_folder_or_a_huge_file_is_not_read(tmp_path):
    folder = tmp_path / "folder.json"
    folder.mkdir()
    with pytest.raises(KeptUnreadable, match="not a regular file"):
        read_kept(str(folder))
    huge = tmp_path / "huge.json"
    huge.write_bytes(b" " * (MAX_BYTES + 1))
    with pytest.raises(KeptUnreadable, match="larger than"):
        read_kept(str(huge))


def test_entries_the_add_on_did_not_write_are_left_out(tmp_path):
    odd = {
        "reviews": "many",
        "log_loss": True,
        "rmse_bins": 1e400,  # JSON's Infinity when read back
        "auc": None,
        "evaluated": "x" * 100,
        "diagnosed_params": [1, "two"],
        "actions": ["optimize", 3],
        "scope": ["preset"],
        "steps": 1,
    }
    path = tmp_path / "presets-Test.json"
    path.write_text(json.dumps({"version": 1, "presets": {"Odd": odd, "Not an entry": [1], "Good": ENTRY}}))
    kept = read_kept(str(path))
    assert kept == {"Odd": {"steps": 1}, "Good": ENTRY}


def test_a_file_that_cannot_be_replaced_keeps_what_it_had(tmp_path):
    path = tmp_path / "presets-Test.json"
    write_kept(str(path), {"A": ENTRY})
    before = path.read_bytes()
    with pytest.raises(ValueError):  # a NaN is refused before anything is put in place
        write_kept(str(path), {"A": {"log_loss": float("nan")}})
    assert path.read_bytes() == before
    if os.geteuid() != 0:
        os.chmod(tmp_path, 0o500)
        try:
            with pytest.raises(Exception, match="could not write"):
                write_kept(str(path), {"B": ENTRY})
        finally:
            os.chmod(tmp_path, 0o700)
        assert path.read_bytes() == before


def test_merged_keeps_other_presets_and_updates_one():
    kept = {"A": {"reviews": 1, "steps": 3}, "B": {"reviews": 2}}
    out = merged(kept, {"A": {"reviews": 5}})
    assert out == {"A": {"reviews": 5, "steps": 3}, "B": {"reviews": 2}}
    assert kept["A"] == {"reviews": 1, "steps": 3}  # the old entries are not changed in place


def test_a_change_since_the_last_diagnosis_is_noticed():
    params, dr = ENTRY["diagnosed_params"], ENTRY["diagnosed_retention"]
    assert not changed_since(ENTRY, list(params), dr)
    assert changed_since(ENTRY, [0.4, 1.2, 3.1001], dr)  # Optimize wrote new parameters
    assert changed_since(ENTRY, [*params, 0.5], dr)  # another model's list
    assert changed_since(ENTRY, params, 0.85)  # desired retention moved
    assert changed_since(ENTRY, ["x", 1], dr)  # the preset's parameters are now malformed
    assert not changed_since(ENTRY, params, "0.85")  # a malformed desired retention says nothing
    assert not changed_since({"diagnosed": "2026-11-25"}, [1.0], 0.8)  # nothing kept then: cannot tell
    assert plain_params([1, 2.5]) == [1.0, 2.5] and plain_params([1, float("nan")]) is None
    assert plain_params(None) is None
