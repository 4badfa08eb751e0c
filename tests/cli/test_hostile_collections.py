"""Collections as an Anki crash, a damaged disk or a careless command line leave them: read right, or one line.

- What a crash leaves: the `-wal` of a session Anki did not close (read with it, by its path or through
  a symlink, nothing created beside it) and a hot `-journal` (rolled back in the private copy).
- Damaged collections (a damaged page, a preset or deck that is not valid protobuf, a missing table):
  one line that suggests Check Database, in every command (the dialog: tests/ui/test_dialog_damage.py).
- One line on stderr for every mistake (argparse, names holding line breaks or escape codes, early
  Ctrl-C), and no thread left running when the command ends (a thread inside pyarrow at exit aborted
  the process now and then).
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from support.damage import DAMAGE, damage

from fsrs_calibration.cli.commands import main

EXE = os.path.join(os.path.dirname(sys.executable), "fsrs-calibration")
ONE_LINE_START = "fsrs-calibration: error: "

# An Anki session that deletes reviews, then dies without closing the collection (as in a crash).
CRASH = """
import os, sys
from anki.collection import Collection
col = Collection(sys.argv[1])
col.db.execute("delete from revlog where id in (select id from revlog order by id desc limit 300)")
col.db.execute("delete from revlog where cid in (select id from cards order by id limit 8)")
col.db.execute("update cards set did = 1 where id in (select id from cards order by id desc limit 20)")
print(col.db.scalar("select count() from revlog"), flush=True)
os.kill(os.getpid(), 9)
"""


def files(folder: Path) -> dict[str, str]:
    """Return every file of `folder` with the sha256 of its bytes."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir()) if p.is_file()}


def evaluate_json(path: str | Path, *extra: str) -> dict:
    proc = subprocess.run([EXE, "evaluate", str(path), "--json", *extra], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def cleanly_closed(folder: Path, into: Path) -> Path:
    """Return a copy of the collection in `folder` (with what lies beside it) that Anki itself opened and
    closed: the state Anki would show the learner (the independent reference)."""
    shutil.copytree(folder, into)
    from anki.collection import Collection

    col = Collection(str(into / "collection.anki2"))
    col.close(downgrade=False)
    return into / "collection.anki2"


@pytest.fixture
def crashed(mixed_collection, tmp_path) -> tuple[Path, int]:
    """Return (a collection folder as a killed Anki session left it, Anki's revlog count in that session)."""
    folder = tmp_path / "profile"
    folder.mkdir()
    shutil.copy(mixed_collection["path"], folder / "collection.anki2")
    argv = [sys.executable, "-c", CRASH, str(folder / "collection.anki2")]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    assert proc.returncode == -9, proc.stderr
    assert (folder / "collection.anki2-wal").stat().st_size > 0 and not (folder / "collection.anki2-shm").exists()
    return folder, int(proc.stdout)


# -- what an Anki crash leaves -----------------------------------------------------------------------
@pytest.mark.slow
def test_a_crashed_sessions_wal_is_read_by_path_and_through_a_symlink_and_nothing_appears(crashed, tmp_path):
    folder, anki_count = crashed
    before = files(folder)
    reference = cleanly_closed(folder, tmp_path / "reference")
    from anki.collection import Collection

    col = Collection(str(reference))
    assert col.db.scalar("select count() from revlog") == anki_count  # Anki's own view of the crash
    col.close(downgrade=False)
    expected = evaluate_json(reference)
    link = tmp_path / "elsewhere" / "link.anki2"
    link.parent.mkdir()
    link.symlink_to(folder / "collection.anki2")
    assert evaluate_json(folder / "collection.anki2") == expected
    assert evaluate_json(link) == expected
    assert files(folder) == before  # no -shm, no checkpoint: the learner's files as they were
    assert sorted(os.listdir(link.parent)) == ["link.anki2"]
    # the main file alone (what was read through a symlink before) is stale: the WAL matters here
    stale = tmp_path / "stale"
    stale.mkdir()
    shutil.copy(folder / "collection.anki2", stale / "collection.anki2")
    assert evaluate_json(stale / "collection.anki2")["reviews"] != expected["reviews"]


def test_export_through_a_symlink_leaves_out_the_reviews_deleted_in_the_wal(crashed, tmp_path):
    folder, _ = crashed
    reference = cleanly_closed(folder, tmp_path / "reference")
    link = tmp_path / "link.anki2"
    link.symlink_to(folder / "collection.anki2")
    rows = {}
    for name, source in (("link", link), ("reference", reference)):
        out = tmp_path / f"{name}.zip"
        proc = subprocess.run([EXE, "export", str(source), str(out)], capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        import zipfile

        with zipfile.ZipFile(out) as z:
            rows[name] = (json.loads(z.read("metadata.json"))["rows"], z.read("revlogs/user_id=0/data.csv"))
    assert rows["link"] == rows["reference"]


def test_a_hot_rollback_journal_is_rolled_back_in_the_copy(mixed_collection, tmp_path):
    """A write interrupted in rollback-journal mode: Anki would roll it back when it next opens the file;
    the copy is rolled back the same way, and the learner's file and journal stay as they are."""
    folder = tmp_path / "hot"
    folder.mkdir()
    shutil.copy(mixed_collection["path"], folder / "collection.anki2")
    before_write = evaluate_json(folder / "collection.anki2")
    code = (
        "import os, sqlite3, sys\n"
        "con = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        "con.execute('pragma journal_mode=delete'); con.execute('pragma cache_size=2'); con.execute('begin')\n"
        "con.execute('delete from revlog'); con.execute('update cards set did = 12345')\n"
        "os._exit(0)\n"
    )
    subprocess.run([sys.executable, "-c", code, str(folder / "collection.anki2")], check=True, timeout=60)
    assert (folder / "collection.anki2-journal").stat().st_size > 0
    before = files(folder)
    assert evaluate_json(folder / "collection.anki2") == before_write
    assert files(folder) == before


@pytest.mark.parametrize("how", ["fifo", "symlink to a fifo"])
def test_a_fifo_as_collection_is_refused_at_once(tmp_path, how):
    fifo = tmp_path / "collection.anki2"
    os.mkfifo(fifo)
    path = fifo
    if how != "fifo":
        path = tmp_path / "link.anki2"
        path.symlink_to(fifo)
    for command in (["evaluate", str(path)], ["export", str(path), str(tmp_path / "out.zip")]):
        proc = subprocess.run([EXE, *command], capture_output=True, text=True, timeout=60)
        assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
        assert "not a regular file" in proc.stderr


# -- damaged collections -----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def damaged(mixed_collection, tmp_path_factory) -> dict[str, Path]:
    return {name: damage(mixed_collection["path"], tmp_path_factory.mktemp("damaged"), name) for name in DAMAGE}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(DAMAGE))
@pytest.mark.parametrize("command", ["evaluate", "export", "compare", "diagnose"])
def test_a_damaged_collection_is_one_line_in_every_command(damaged, name, command, capsys, tmp_path):
    path = damaged[name]
    before = files(path.parent)
    argv = [command, str(path)] + {"export": [str(tmp_path / "out.zip")], "compare": ["--models", "avg"]}.get(
        command, []
    )
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(ONE_LINE_START) and err.count("\n") == 1, err
    assert str(path) in err and "Check Database" in err and DAMAGE[name][1] in err
    assert files(path.parent) == before and not (tmp_path / "out.zip").exists()


# -- one line for every mistake ----------------------------------------------------------------------
@pytest.mark.parametrize(
    "argv, fragment",
    [
        ([], "the following arguments are required: command"),
        (["evaluate"], "the following arguments are required: collection"),
        (["evaluate", "c.anki2", "--weighting", "bogus"], "invalid choice: 'bogus'"),
        (["evaluate", "c.anki2", "--search", "x", "--deck", "y"], "not allowed with argument"),
        (["evaluate-dataset", "x.zip", "--user", "one"], "invalid int value"),
        (["frobnicate"], "invalid choice: 'frobnicate'"),
        (["evaluate", "c.anki2", "--no-such-flag"], "unrecognized arguments: --no-such-flag"),
    ],
)
def test_argument_mistakes_are_one_line(argv, fragment):
    proc = subprocess.run([EXE, *argv], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith(ONE_LINE_START) and proc.stderr.count("\n") == 1, proc.stderr
    assert fragment in proc.stderr and "--help" in proc.stderr


@pytest.mark.slow
def test_names_with_line_breaks_and_escape_codes_stay_one_line(mixed_collection, tmp_path):
    odd = tmp_path / "a\nb\x1b[2J.anki2"
    cases = [
        ["evaluate", str(odd)],
        ["evaluate", mixed_collection["path"], "--deck", "Six\nSub\x1b[31m"],
        ["compare", mixed_collection["path"], "--search", "deck:nothing\r\nhere"],
        ["diagnose", mixed_collection["path"], "--search", "deck:nothing\x07"],
    ]
    for argv in cases:
        proc = subprocess.run([EXE, *argv], capture_output=True, text=True, timeout=120)
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr.startswith(ONE_LINE_START) and proc.stderr.count("\n") == 1, proc.stderr
        assert not any(c in proc.stderr[:-1] for c in "\r\x1b\x07")
        assert "\\n" in proc.stderr or "\\x" in proc.stderr or "\\r" in proc.stderr


def _caught_signals(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("SigCgt:"):
                return int(line.split()[1], 16)
    return 0


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="needs Linux's /proc")
def test_ctrl_c_at_any_moment_after_the_program_starts_is_one_line(mixed_collection):
    """From the program's first code on (its SIGTERM handler is in place: Python sets none of its own), a
    Ctrl-C at a random moment of the first 200 ms (imports, the copy) is one line and status 130."""
    rng = random.Random(5)
    for _ in range(12):
        argv = [EXE, "evaluate", mixed_collection["path"]]
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 30
        while not _caught_signals(proc.pid) & (1 << (signal.SIGTERM - 1)) and time.monotonic() < deadline:
            time.sleep(0.0005)
        time.sleep(rng.uniform(0, 0.2))
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        if proc.returncode == 0:
            continue  # it had finished already
        assert proc.returncode == 130 and err == "fsrs-calibration: cancelled; nothing was written.\n", err


def test_progress_goes_to_stderr_only_for_a_terminal(mixed_collection):
    argv = [EXE, "compare", mixed_collection["path"], "--models", "avg,fsrs-default"]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stderr == ""


# -- no thread left running at exit ------------------------------------------------------------------
@pytest.fixture(scope="module")
def with_fresh_deck(mixed_collection, tmp_path_factory) -> Path:
    """Return a copy of the mixed collection with a deck "Fresh" of one new card (nothing to export)."""
    from anki.collection import Collection

    path = tmp_path_factory.mktemp("fresh") / "collection.anki2"
    shutil.copy(mixed_collection["path"], path)
    col = Collection(str(path))
    note = col.new_note(col.models.by_name("Basic"))
    note["Front"] = "new"
    col.add_note(note, col.decks.id("Fresh"))
    col.close(downgrade=False)
    return path


def test_export_leaves_no_thread_running(with_fresh_deck, tmp_path, capsys):
    """The parquet warm-up thread is joined whether the export succeeds or fails (a daemon thread inside
    pyarrow's C++ code at interpreter exit aborted the process: "FATAL: exception not rethrown")."""
    path = str(with_fresh_deck)
    for argv, status in (
        (["export", path, str(tmp_path / "a.zip")], 0),
        (["export", path, str(tmp_path / "b.zip"), "--deck", "Fresh"], 2),  # ends as soon as it is read
    ):
        assert main(argv) == status, capsys.readouterr().err
        assert threading.enumerate() == [threading.main_thread()]
    capsys.readouterr()


@pytest.mark.slow
def test_concurrent_failing_and_succeeding_exports_never_abort(with_fresh_deck, tmp_path):
    """A stress of what aborted 1 in ~75 rounds: exports that end while pyarrow warms up, three at a time
    to the same file (one writes it; the others fail at once or find it there)."""
    target = tmp_path / "same.zip"
    for _ in range(6):
        target.unlink(missing_ok=True)
        argvs = [[EXE, "export", str(with_fresh_deck), str(target)]] * 2
        argvs.append([EXE, "export", str(with_fresh_deck), str(tmp_path / "x.zip"), "--deck", "Fresh"])
        procs = [subprocess.Popen(a, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for a in argvs]
        for proc in procs:
            out, err = proc.communicate(timeout=120)
            assert proc.returncode in (0, 2), (proc.returncode, err)
            assert "FATAL" not in err and "Traceback" not in err
            assert err == "" or err.count("\n") == 1
