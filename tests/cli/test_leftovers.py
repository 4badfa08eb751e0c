"""Nothing left behind, by any command, at any moment.

- Every command sweeps what killed runs left in the temporary folder (their scratch folders, and folders
  killed while being made), never a living run's.
- A removal, once begun, finishes even when Ctrl-C or SIGTERM arrives during it.
- to-parquet writes its three files or none (a full disk, --force over an older export), and says in one
  line why it cannot write where it was told to.
- Long output names: the temporary names stay within 255 bytes.
"""

from __future__ import annotations

import hashlib
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support.readonly import read_only

from fsrs_calibration.cli.commands import main
from fsrs_calibration.metrics.export.safefile import MAX_NAME_BYTES, PART_SUFFIX, part_prefix
from fsrs_calibration.metrics.export.scratch import LOCK, MAKING, MAKING_GRACE, PREFIX, sweep

EXE = os.path.join(os.path.dirname(sys.executable), "fsrs-calibration")
ONE_LINE = "fsrs-calibration: error: "


def run(argv: list[str], tmpdir: Path, limit_file_size: int = 0) -> subprocess.CompletedProcess:
    """Run the console command with its temporary folder in `tmpdir` (and files limited to that size)."""

    def limit() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG), as on a full disk
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit_file_size, limit_file_size))

    env = dict(os.environ, TMPDIR=str(tmpdir))
    return subprocess.run(
        [EXE, *argv],
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        preexec_fn=limit if limit_file_size else None,
    )


def dead_run(tmpdir: Path, name: str, age: float = 0.0) -> Path:
    """Make the folder a killed run leaves: a copy of the collection and a lock nobody holds."""
    folder = tmpdir / name
    folder.mkdir()
    (folder / LOCK).write_bytes(b"")
    (folder / "collection.anki2").write_bytes(os.urandom(4096))
    if age:
        os.utime(folder, (time.time() - age,) * 2)
    return folder


def tree(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "/"
        for p in sorted(folder.rglob("*"))
    }


@pytest.fixture(scope="module")
def exported(mixed_collection, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("zip") / "e.zip"
    assert main(["export", mixed_collection["path"], str(out)]) == 0
    return out


@pytest.fixture(scope="module")
def commands(mixed_collection, exported, tmp_path_factory) -> dict[str, list[str]]:
    out = tmp_path_factory.mktemp("out")
    col = mixed_collection["path"]
    return {
        "evaluate": ["evaluate", col],
        "export": ["export", col, str(out / "again.zip")],
        "compare": ["compare", col, "--models", "avg"],
        "diagnose": ["diagnose", col],
        "evaluate-dataset": ["evaluate-dataset", str(exported)],
        "to-parquet": ["to-parquet", str(exported), str(out / "pq")],
        "a mistake": ["evaluate", str(out / "no-such.anki2")],
    }


@pytest.mark.parametrize(
    "command", ["evaluate", "export", "compare", "diagnose", "evaluate-dataset", "to-parquet", "a mistake"]
)
@pytest.mark.slow
def test_every_command_sweeps_what_killed_runs_left(commands, command, tmp_path):
    dead = dead_run(tmp_path, PREFIX + "0123456789abcdef")
    made = dead_run(tmp_path, MAKING + "abcdefgh")  # killed while being made, before its lock existed
    (made / LOCK).unlink()
    os.utime(made, (time.time() - MAKING_GRACE - 50,) * 2)
    young = tmp_path / (MAKING + "young123")  # being made right now by another run: within the grace
    young.mkdir()
    other = tmp_path / "someone-elses"
    other.mkdir()
    proc = run(commands[command], tmp_path)
    assert proc.returncode == (2 if command == "a mistake" else 0), proc.stderr
    assert not dead.exists() and not made.exists()
    assert young.exists() and other.exists()


def test_a_living_runs_folders_are_never_swept(tmp_path):
    alive = dead_run(tmp_path, PREFIX + "feedfacecafebeef", age=3600)
    making = dead_run(tmp_path, MAKING + "livelock", age=3600)
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import fcntl, os, sys, time\n"
            "fds = [os.open(p, os.O_RDONLY) for p in sys.argv[1:]]\n"
            "[fcntl.flock(fd, fcntl.LOCK_EX) for fd in fds]\nprint('held', flush=True)\ntime.sleep(60)",
            str(alive / LOCK),
            str(making / LOCK),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        assert sweep(str(tmp_path)) == [] and alive.exists() and making.exists()
    finally:
        holder.kill()
        holder.wait()
    assert sorted(sweep(str(tmp_path))) == sorted([str(alive), str(making)])


# A program whose folder removal is interrupted: the signal is sent from inside shutil.rmtree, after it began.
INTERRUPTED_REMOVAL = """
import os, shutil, signal, sys
from fsrs_calibration.metrics.export import interrupts
from fsrs_calibration.metrics.export import scratch
interrupts.install()
rmtree = shutil.rmtree
def rmtree_interrupted(path, *args, **kwargs):
    os.kill(os.getpid(), int(sys.argv[2]))
    return rmtree(path, *args, **kwargs)
shutil.rmtree = rmtree_interrupted
try:
    if sys.argv[1] == "run":
        with scratch.run_folder() as folder:
            for i in range(3000):
                open(os.path.join(folder, f"f{i}"), "wb").close()
    else:
        scratch.sweep()
except KeyboardInterrupt:
    sys.exit(130)
sys.exit(0)
"""


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("what", ["run", "sweep"])
def test_a_signal_during_a_removal_waits_until_it_is_done(tmp_path, sig, what):
    if what == "sweep":
        for i in range(3):
            folder = dead_run(tmp_path, f"{PREFIX}{i:016x}")
            for k in range(1000):
                (folder / f"f{k}").write_bytes(b"")
    env = dict(os.environ, TMPDIR=str(tmp_path))
    proc = subprocess.run(
        [sys.executable, "-c", INTERRUPTED_REMOVAL, what, str(int(sig))], env=env, capture_output=True, timeout=60
    )
    assert proc.returncode == 130, proc.stderr
    assert os.listdir(tmp_path) == []


def test_to_parquet_on_a_full_disk_writes_nothing_and_the_rerun_works(exported, tmp_path):
    target = tmp_path / "pq"
    proc = run(["to-parquet", str(exported), str(target)], tmp_path, limit_file_size=20_000)
    assert proc.returncode == 2 and proc.stderr.startswith(ONE_LINE) and proc.stderr.count("\n") == 1, proc.stderr
    assert "nothing was saved" in proc.stderr
    assert not target.exists() and [n for n in os.listdir(tmp_path) if n != "pq"] == []
    proc = run(["to-parquet", str(exported), str(target)], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert sorted(tree(target)) == sorted(
        [
            t
            for name in ("revlogs", "cards", "decks")
            for t in (name, f"{name}/user_id=0", f"{name}/user_id=0/data.parquet")
        ]
    )


def test_to_parquet_force_keeps_the_old_files_until_the_new_ones_are_complete(exported, tmp_path):
    target = tmp_path / "pq"
    assert run(["to-parquet", str(exported), str(target)], tmp_path).returncode == 0
    (target / "revlogs" / "user_id=1").mkdir()  # another learner's table in the same folder stays as it is
    before = tree(target)
    proc = run(["to-parquet", str(exported), str(target), "--force"], tmp_path, limit_file_size=20_000)
    assert proc.returncode == 2 and "nothing was saved" in proc.stderr
    assert tree(target) == before and not [
        n for n in os.listdir(target / "revlogs" / "user_id=0") if n.endswith(PART_SUFFIX)
    ]
    assert run(["to-parquet", str(exported), str(target), "--force"], tmp_path).returncode == 0


@pytest.mark.parametrize("where", ["under a file", "read-only folder"])
def test_to_parquet_where_nothing_can_be_written_is_one_line(exported, tmp_path, where):
    if where == "under a file":
        (tmp_path / "a-file").write_text("x")
        proc = run(["to-parquet", str(exported), str(tmp_path / "a-file" / "pq")], tmp_path)
    else:
        folder = tmp_path / "ro"
        folder.mkdir()
        argv = read_only(folder, [EXE, "to-parquet", str(exported), str(folder / "pq")])
        proc = subprocess.run(
            argv, capture_output=True, text=True, timeout=120, env=dict(os.environ, TMPDIR=str(tmp_path))
        )
        os.chmod(folder, 0o755)
        assert os.listdir(folder) == []
    assert proc.returncode == 2 and proc.stderr.startswith(ONE_LINE) and proc.stderr.count("\n") == 1, proc.stderr
    assert "cannot create the folders" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize("length", [246, 255])
def test_long_output_names_work(mixed_collection, exported, tmp_path, length):
    name = "é" * ((length - 4) // 2) + "x" * ((length - 4) % 2) + ".zip"  # two bytes a character
    assert len(name.encode()) == length
    assert run(["export", mixed_collection["path"], str(tmp_path / name)], tmp_path).returncode == 0
    assert (tmp_path / name).stat().st_size > 0
    folder = "p" * length
    assert run(["to-parquet", str(exported), str(tmp_path / folder)], tmp_path).returncode == 0
    assert len((part_prefix(name) + "12345678" + PART_SUFFIX).encode()) <= MAX_NAME_BYTES
