"""The command line under misuse and faults: nothing of the learner's is lost, nothing is left behind."""

from __future__ import annotations

import errno
import fcntl
import hashlib
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from support.builder import DEFAULTS6
from support.readonly import read_only

from fsrs_calibration.cli.commands import main
from fsrs_calibration.metrics.errors import EvaluationError
from fsrs_calibration.metrics.export.safefile import safe_output

# The console command with opening the copy slowed down: a run that lives a while with its copy.
SLOW_OPEN = """
import sys, time
from fsrs_calibration.cli import commands, copy
open_collection = copy.open_collection
def slow(path):
    time.sleep(4)
    return open_collection(path)
copy.open_collection = slow
sys.exit(commands.run())
"""
EXE = os.path.join(os.path.dirname(sys.executable), "fsrs-calibration")
# The console command with the zip writer slowed down, so that a signal lands while the export is written.
SLOW_EXPORT = """
import sys, time
from fsrs_calibration.metrics.export import ziparchive
add = ziparchive.ZipWriter.add
def slow(*args, **kwargs):
    time.sleep(0.4)
    return add(*args, **kwargs)
ziparchive.ZipWriter.add = slow
from fsrs_calibration.cli import run  # the program itself (the console script's entry point)
sys.exit(run())
"""


def fingerprint(path: str | Path) -> tuple[str, int, int]:
    with open(path, "rb") as f:
        data = f.read()
    info = os.stat(path)
    return hashlib.sha256(data).hexdigest(), info.st_mtime_ns, info.st_size


def listing(folder: str | Path) -> list[str]:
    return sorted(os.listdir(folder))


def one_line_error(err: str, fragment: str) -> None:
    assert err.count("\n") == 1 and err.startswith("fsrs-calibration: error:"), err
    assert fragment in err, err
    assert "Traceback" not in err


@pytest.fixture
def col_copy(mixed_collection, tmp_path) -> Path:
    """A private copy of the mixed collection in its own folder (its bytes are the learner's)."""
    folder = tmp_path / "profile"
    folder.mkdir()
    target = folder / "collection.anki2"
    shutil.copy(mixed_collection["path"], target)
    return target


# -- output safety ---------------------------------------------------------------------------------
def test_export_onto_its_own_collection_is_refused(col_copy, tmp_path, capsys):
    before = fingerprint(col_copy)
    other = tmp_path / "x"
    other.mkdir()
    link = tmp_path / "link.zip"
    link.symlink_to(col_copy)
    hard = tmp_path / "hard.anki2"
    os.link(col_copy, hard)
    for target in (
        str(col_copy),
        os.path.join(str(other), "..", "profile", "collection.anki2"),  # ./../x/c.anki2
        str(link),
        str(hard),
        str(col_copy) + "-wal",
        str(col_copy.with_suffix(".media.db2")),
    ):
        code = main(["export", str(col_copy), target, "--force"])
        one_line_error(capsys.readouterr().err, "that is the collection")
        assert code == 2
    assert fingerprint(col_copy) == before
    assert listing(col_copy.parent) == ["collection.anki2"]
    assert link.is_symlink() and os.readlink(link) == str(col_copy)


def test_existing_output_is_kept_without_force_and_replaced_with_it(col_copy, tmp_path, capsys):
    out = tmp_path / "out.zip"
    out.write_bytes(b"the learner's own file")
    assert main(["export", str(col_copy), str(out)]) == 2
    one_line_error(capsys.readouterr().err, "already exists")
    assert out.read_bytes() == b"the learner's own file"
    assert main(["export", str(col_copy), str(out), "--force"]) == 0
    assert out.read_bytes()[:2] == b"PK" and stat.S_IMODE(out.stat().st_mode) == 0o644
    assert listing(tmp_path) == ["out.zip", "profile"]


def test_devices_folders_and_pipes_are_never_replaced(col_copy, tmp_path, capsys):
    fifo = tmp_path / "pipe.zip"
    os.mkfifo(fifo)
    dangling = tmp_path / "dangling.zip"
    dangling.symlink_to(tmp_path / "nowhere")
    cases = [("/dev/full", "not a regular file"), ("/dev/null", "not a regular file"), (str(fifo), "not a regular")]
    cases += [(str(tmp_path), "is a folder"), (str(dangling), "symbolic link to a missing file")]
    cases += [("/no/such/folder/out.zip", "no such folder")]
    for target, fragment in cases:
        assert main(["export", str(col_copy), target, "--force"]) == 2
        one_line_error(capsys.readouterr().err, fragment)
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode) and stat.S_ISCHR(os.stat("/dev/null").st_mode)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode) and dangling.is_symlink() and not (tmp_path / "nowhere").exists()


def test_a_symlink_at_a_temporary_name_is_never_followed(col_copy, tmp_path, monkeypatch, capsys):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    out = tmp_path / "y.zip"
    (tmp_path / "y.zip.part").symlink_to(victim)  # the name earlier versions used
    names = iter(["aaaaaaaa", "bbbbbbbb", "cccccccc"])
    monkeypatch.setattr(tempfile, "_get_candidate_names", lambda: names)
    (tmp_path / ".y.zip.aaaaaaaa.part").symlink_to(victim)  # the first name the writer will try
    assert main(["export", str(col_copy), str(out)]) == 0, capsys.readouterr().err
    assert victim.read_text() == "precious"
    assert out.is_file() and not out.is_symlink() and out.read_bytes()[:2] == b"PK"
    assert (tmp_path / "y.zip.part").is_symlink() and (tmp_path / ".y.zip.aaaaaaaa.part").is_symlink()
    assert not (tmp_path / ".y.zip.bbbbbbbb.part").exists()  # used, then renamed


def test_leftover_parts_of_dead_runs_are_removed_and_living_ones_kept(tmp_path):
    dead = tmp_path / ".out.zip.deadbeef.part"
    dead.write_bytes(b"half an export")
    living = tmp_path / ".out.zip.alive123.part"
    living.write_bytes(b"being written")
    other = tmp_path / ".other.zip.deadbeef.part"
    other.write_bytes(b"another output's")
    with open(living, "rb") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)  # a living writer holds its part locked
        with safe_output(str(tmp_path / "out.zip")) as f:
            f.write(b"new")
        assert living.exists()
    assert not dead.exists() and other.exists()
    assert (tmp_path / "out.zip").read_bytes() == b"new"


def test_a_failed_write_leaves_nothing(tmp_path):
    with pytest.raises(EvaluationError, match="No space left"), safe_output(str(tmp_path / "o.zip")) as f:
        f.write(b"x")
        raise OSError(errno.ENOSPC, "No space left on device")
    with pytest.raises(KeyboardInterrupt), safe_output(str(tmp_path / "o.zip")):
        raise KeyboardInterrupt
    assert listing(tmp_path) == []


# -- nothing left behind: signals, kills, read-only folders ------------------------------------------
def _start(argv: list[str], tmpdir: Path, code: str | None = None) -> subprocess.Popen:
    env = dict(os.environ, TMPDIR=str(tmpdir))
    cmd = [sys.executable, "-c", code, *argv] if code else [EXE, *argv]
    return subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _wait_for(predicate, proc: subprocess.Popen, timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while not predicate():
        assert proc.poll() is None, f"the command ended first: {proc.communicate()}"
        assert time.monotonic() < end, "timed out"
        time.sleep(0.005)


def _has_copy(tmpdir: Path) -> bool:
    return any((tmpdir / d / "collection.anki2").exists() for d in os.listdir(tmpdir))


def _parts(folder: Path) -> list[str]:
    return [n for n in os.listdir(folder) if n.endswith(".part")]


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("phase", ["copy", "write"])
def test_interrupted_export_leaves_nothing_and_says_one_line(col_copy, tmp_path, sig, phase):
    tmpdir, outdir = tmp_path / "tmp", tmp_path / "out"
    tmpdir.mkdir()
    outdir.mkdir()
    before = fingerprint(col_copy)
    proc = _start(["export", str(col_copy), str(outdir / "e.zip")], tmpdir, SLOW_EXPORT)
    _wait_for((lambda: _has_copy(tmpdir)) if phase == "copy" else (lambda: bool(_parts(outdir))), proc)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert err == "fsrs-calibration: cancelled; nothing was written.\n" and out == ""
    assert listing(tmpdir) == [] and listing(outdir) == []
    assert fingerprint(col_copy) == before and listing(col_copy.parent) == ["collection.anki2"]


@pytest.mark.slow
def test_a_killed_export_is_cleaned_up_by_the_next_run(col_copy, tmp_path):
    tmpdir, outdir = tmp_path / "tmp", tmp_path / "out"
    tmpdir.mkdir()
    outdir.mkdir()
    for phase in (lambda: bool(_parts(outdir)), lambda: _has_copy(tmpdir)):  # killed while writing, while copying
        proc = _start(["export", str(col_copy), str(outdir / "e.zip")], tmpdir, SLOW_EXPORT)
        _wait_for(phase, proc)
        proc.kill()
        proc.wait(timeout=30)
    assert _has_copy(tmpdir) and _parts(outdir)  # SIGKILL: the processes could not clean up
    dead = set(os.listdir(tmpdir))
    # a living run's folder is never touched by another run
    living = _start(["evaluate", str(col_copy)], tmpdir, SLOW_OPEN)
    _wait_for(lambda: any((tmpdir / d / "collection.anki2").exists() for d in set(os.listdir(tmpdir)) - dead), living)
    alive = set(os.listdir(tmpdir)) - dead
    again = _start(["export", str(col_copy), str(outdir / "e.zip")], tmpdir)
    out, err = again.communicate(timeout=120)
    assert again.returncode == 0, err
    assert listing(outdir) == ["e.zip"]  # the dead run's part is gone, the new export complete
    assert living.poll() is None and set(os.listdir(tmpdir)) == alive  # the dead run's copy is gone, not the living
    assert living.wait(timeout=120) == 0
    assert listing(tmpdir) == []


def test_evaluate_removes_a_dead_runs_copy_and_old_versions_folders(col_copy, tmp_path):
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    proc = _start(["evaluate", str(col_copy)], tmpdir)
    _wait_for(lambda: _has_copy(tmpdir), proc)
    proc.kill()
    proc.wait(timeout=30)
    legacy = tmpdir / "fsrs-calibration-abcd_123"  # an earlier version's folder, two days old
    legacy.mkdir()
    (legacy / "collection.anki2").write_bytes(b"old copy")
    os.utime(legacy, (time.time() - 2 * 86400,) * 2)
    unrelated = tmpdir / "fsrs-calibration-notes"
    unrelated.mkdir()
    again = _start(["evaluate", str(col_copy)], tmpdir)
    assert again.wait(timeout=120) == 0
    assert listing(tmpdir) == ["fsrs-calibration-notes"]


def test_a_collection_in_a_read_only_folder_is_read_and_nothing_appears_beside_it(mixed_collection, tmp_path):
    folder, tmpdir = tmp_path / "ro", tmp_path / "tmp"
    folder.mkdir()
    tmpdir.mkdir()
    shutil.copy(mixed_collection["path"], folder / "collection.anki2")
    env = dict(os.environ, TMPDIR=str(tmpdir))
    try:
        cmd = read_only(folder, [EXE, "evaluate", str(folder / "collection.anki2"), "--json"])
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        assert json.loads(proc.stdout)["reviews"] > 0
        probe = subprocess.run(read_only(folder, ["touch", str(folder / "probe")]), capture_output=True)
        assert probe.returncode != 0  # the folder really was read-only
        assert listing(folder) == ["collection.anki2"] and listing(tmpdir) == []
    finally:
        os.chmod(folder, 0o755)


def test_reading_writes_nothing_beside_the_collection(col_copy, capsys):
    before = fingerprint(col_copy)
    for argv in (["evaluate"], ["compare", "--models", "avg,fsrs-default"]):
        assert main([argv[0], str(col_copy), *argv[1:], "--json"]) == 0, capsys.readouterr().err
        capsys.readouterr()
        assert listing(col_copy.parent) == ["collection.anki2"]
    assert fingerprint(col_copy) == before


# -- every flag validated --------------------------------------------------------------------------
def _params(value: str, n: int = 21) -> str:
    return ",".join([value] * n)


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["compare", "{col}", "--params", _params("nan")], "w0 is nan, not a finite number"),
        (["compare", "{col}", "--params", ""], "no numbers given"),
        (["evaluate", "{col}", "--params", " "], "no numbers given"),
        (
            ["evaluate", "{col}", "--params=" + _params("-1e9")],
            "w0 = -1e+09 is outside the range Anki allows (0.001 to 100)",
        ),
        (["evaluate", "{col}", "--params", _params("1e30")], "w0 = 1e+30 is outside the range Anki allows"),
        (["compare", "{col}", "--params", _params("1e300")], "w0 = 1e+300 is outside the range Anki allows"),
        (["evaluate", "{col}", "--params", ",".join(map(str, DEFAULTS6[:20] + [0.95]))], "w20 = 0.95 is outside"),
        (["evaluate", "{col}", "--params", ",".join(map(str, DEFAULTS6[:20] + ["inf"]))], "w20 is inf"),
        (["compare", "{col}", "--models", ","], "name at least one"),
        (["compare", "{col}", "--models", ""], "name at least one"),
        (["compare", "{col}", "--models", "avg,avg"], "avg is named twice"),
        (["compare", "{col}", "--models", "avg,,sm2"], "empty name"),
        (["compare", "{col}", "--models", "fsrs,avg"], "unknown model 'fsrs'"),
        (["evaluate-dataset", "{zip}", "--anki-version", "garbage"], "not an Anki version"),
        (["evaluate-dataset", "{zip}", "--anki-version", ""], "not an Anki version"),
    ],
)
def test_bad_flags_are_one_line_with_status_2(mixed_collection, exported_zip, capsys, argv, fragment):
    argv = [{"{col}": mixed_collection["path"], "{zip}": exported_zip}.get(a, a) for a in argv]
    with _warnings_are_errors():
        assert main(argv) == 2
    captured = capsys.readouterr()
    one_line_error(captured.err, fragment)
    assert captured.out == ""


class _warnings_are_errors:
    """A numpy warning printed before the error line would be a second line: make it fail instead."""

    def __enter__(self):
        import warnings

        self.ctx = warnings.catch_warnings()
        self.ctx.__enter__()
        warnings.simplefilter("error")

    def __exit__(self, *exc):
        return self.ctx.__exit__(*exc)


@pytest.fixture(scope="module")
def exported_zip(mixed_collection, tmp_path_factory):
    out = str(tmp_path_factory.mktemp("zip") / "e.zip")
    assert main(["export", mixed_collection["path"], out]) == 0
    return out


def test_clamp_params_clips_as_anki_does(mixed_collection, capsys):
    clipped = [min(max(v, lo), hi) for v, (lo, hi) in zip([-1e9] * 21, _ranges(), strict=True)]
    assert main(["evaluate", mixed_collection["path"], "--params=" + _params("-1e9"), "--clamp-params", "--json"]) == 0
    ours = json.loads(capsys.readouterr().out)
    assert main(["evaluate", mixed_collection["path"], "--params", ",".join(map(str, clipped)), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["log_loss"] == ours["log_loss"]


def _ranges():
    from fsrs_calibration.metrics.models.ranges import PARAM_RANGES

    return PARAM_RANGES


def test_compare_uses_the_params_given(mixed_collection, capsys):
    """fsrs-preset with --params set to the defaults scores exactly as the fsrs-default model."""
    path = mixed_collection["path"]
    argv = [
        "compare",
        path,
        "--models",
        "fsrs-preset,fsrs-default",
        "--json",
        "--params",
        ",".join(map(str, DEFAULTS6)),
    ]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["params"] == DEFAULTS6
    assert out["models"]["fsrs-preset"]["log_loss"] == out["models"]["fsrs-default"]["log_loss"]
    assert main(["compare", path, "--models", "fsrs-preset,fsrs-default", "--json"]) == 0
    presets = json.loads(capsys.readouterr().out)
    assert presets["params"] == "preset"
    assert presets["models"]["fsrs-preset"]["log_loss"] != presets["models"]["fsrs-default"]["log_loss"]
    assert main(["compare", path, "--models", "fsrs-preset,avg", "--params", ",".join(map(str, DEFAULTS6))]) == 0
    assert "parameters given with --params" in capsys.readouterr().out


# -- standard output -------------------------------------------------------------------------------
def test_a_full_stdout_is_one_line_and_status_2(mixed_collection):
    with open("/dev/full", "w") as full:
        proc = subprocess.run(
            [EXE, "evaluate", mixed_collection["path"], "--json"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    assert proc.returncode == 2
    one_line_error(proc.stderr, "cannot write the output: No space left on device")


def test_a_closed_pipe_ends_quietly(mixed_collection):
    """`fsrs-calibration evaluate … | head -1` through a real shell pipe."""
    proc = subprocess.run(
        f"'{EXE}' evaluate '{mixed_collection['path']}' --json | head -1",
        shell=True,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.stdout == "{\n" and proc.stderr == ""


def test_an_interruption_waits_for_the_end_of_a_held_block_and_never_comes_after_stop():
    from support.anki import run_python

    out = run_python(
        """
import os, signal
from fsrs_calibration.metrics.export import interrupts
interrupts.install()
steps = []
try:
    with interrupts.deferred():
        os.kill(os.getpid(), signal.SIGTERM)
        for _ in range(1000):
            pass  # Python runs the handler here: held, not raised
        steps.append("block finished")
    steps.append("after the block")
except KeyboardInterrupt:
    steps.append("interrupted at the end of the block")
interrupts.stop()
interrupts._state["pending"] = 0
os.kill(os.getpid(), signal.SIGINT)
for _ in range(1000):
    pass
steps.append("not interrupted after stop")
print(steps, interrupts.interrupted_by())
"""
    )
    assert out.strip() == ("['block finished', 'interrupted at the end of the block', 'not interrupted after stop'] 2")
