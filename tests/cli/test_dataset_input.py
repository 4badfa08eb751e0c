"""evaluate-dataset treats its input as untrusted: every bad value is one line naming file, row and column."""

from __future__ import annotations

import subprocess
import sys
import zipfile

import numpy as np
import pytest

from fsrs_calibration.cli.commands import main
from fsrs_calibration.metrics.errors import EvaluationError
from fsrs_calibration.metrics.export.dataset import csv_bytes
from fsrs_calibration.metrics.read import dataset as dataset_read

pytestmark = pytest.mark.anki_free  # no part of Anki: make test-oldest leaves it out

REVLOGS = "card_id,day_offset,rating,state,duration,elapsed_days,elapsed_seconds\n"
GOOD = {
    "revlogs": REVLOGS + "0,0,3,0,5000,-1,-1\n1,0,3,0,4000,-1,-1\n0,2,3,2,3000,2,172800\n1,3,1,2,3000,3,259200\n"
    "0,5,2,2,3000,3,259000\n1,6,3,3,3000,3,259100\n0,9,3,2,3000,4,345600\n1,9,4,2,3000,3,259300\n",
    "cards": "card_id,note_id,deck_id\n0,0,0\n1,1,0\n",
    "decks": "deck_id,parent_id,preset_id\n0,-1,0\n",
}


def write(tmp_path, tables, user=0, name="d.zip"):
    path = tmp_path / name
    with zipfile.ZipFile(path, "w") as z:
        for table, text in tables.items():
            z.writestr(f"{table}/user_id={user}/data.csv", text)
    return str(path)


def error_of(capsys, argv):
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and "Traceback" not in captured.err, captured.err
    return captured.err


def test_a_good_dataset_is_scored(tmp_path, capsys):
    assert main(["evaluate-dataset", write(tmp_path, GOOD), "--json"]) == 0
    assert '"reviews": ' in capsys.readouterr().out


def with_revlog_line(line_no: int, text: str) -> dict:
    lines = GOOD["revlogs"].splitlines()
    lines[line_no - 1] = text
    return dict(GOOD, revlogs="\n".join(lines) + "\n")


@pytest.mark.parametrize(
    "line, text, fragment",
    [
        (4, "0,2,9,2,3000,2,172800", "row 3 (line 4), column rating: 9 is outside 1–4"),
        (4, "0,2,0,2,3000,2,172800", "row 3 (line 4), column rating: 0 is outside 1–4"),
        (5, "1,3,1,7,3000,3,259200", "row 4 (line 5), column state: 7 is outside 0–4"),
        (2, "-5,0,3,0,5000,-1,-1", "row 1 (line 2), column card_id: -5 is outside 0 or more"),
        (6, "0,5,2,2,-1,3,259000", "row 5 (line 6), column duration: -1 is outside 0 or more"),
        (6, "0,5,2,2,3000,-2,259000", "column elapsed_days: -2 is outside -1–2,147,483,647"),
        (4, "0,2,3,2,12345678901234567890123,2,172800", "column duration: a number of more than 19 digits"),
        (4, "0,2,3,2,9223372036854775808,2,172800", "column duration: a number too large for 64 bits"),
        (4, "0,2,3,2,3000.5,2,172800", "column duration: not a whole number"),
        (4, "0,2,3,2,abc,2,172800", "row 3 (line 4), column duration: not a whole number"),
        (4, "0,2,3,2,3-0,2,172800", "column duration: not a whole number"),
        (4, "0,2,3,2,,2,172800", "column duration: an empty value"),
        (4, "0,2,3,2,3000,2", "row 3 (line 4), column card_id: 6 values where the header has 7"),
        (6, "0,1,2,2,3000,3,259000", "row 5 (line 6), column day_offset: this card's day_offset goes back in time"),
    ],
)
def test_bad_revlog_rows_name_file_row_and_column(tmp_path, capsys, line, text, fragment):
    err = error_of(capsys, ["evaluate-dataset", write(tmp_path, with_revlog_line(line, text))])
    assert "revlogs/user_id=0/data.csv: " in err and fragment in err


def test_bad_cards_and_decks(tmp_path, capsys):
    bad_cards = dict(GOOD, cards="card_id,note_id,deck_id\n0,0,0\n1,-3,0\n")
    err = error_of(capsys, ["evaluate-dataset", write(tmp_path, bad_cards)])
    assert "cards/user_id=0/data.csv: row 2 (line 3), column note_id: -3 is outside 0 or more" in err
    bad_decks = dict(GOOD, decks="deck_id,parent_id,preset_id\n0,-2,0\n")
    err = error_of(capsys, ["evaluate-dataset", write(tmp_path, bad_decks, name="e.zip")])
    assert "column parent_id: -2 is outside -1 or more" in err
    missing = dict(GOOD, cards="card_id,deck_id\n0,0\n1,0\n")
    err = error_of(capsys, ["evaluate-dataset", write(tmp_path, missing, name="f.zip")])
    assert "the cards table lacks the columns note_id" in err


def test_a_bad_parquet_value_is_named_too(tmp_path, capsys):
    pa = pytest.importorskip("pyarrow", reason="the oldest-Anki environment has no pyarrow")
    import pyarrow.parquet as pq

    folder = tmp_path / "pq"
    for table in ("revlogs", "cards", "decks"):
        cols = dataset_read.parse_csv(GOOD[table])
        if table == "revlogs":
            cols["rating"][2] = 9
        (folder / table / "user_id=0").mkdir(parents=True)
        pq.write_table(pa.table(cols), folder / table / "user_id=0" / "data.parquet")
    err = error_of(capsys, ["evaluate-dataset", str(folder)])
    assert "revlogs/user_id=0/data.parquet: row 3 (line 4), column rating: 9 is outside 1–4" in err
    pq.write_table(pa.table(dataset_read.parse_csv(GOOD["revlogs"])), folder / "revlogs" / "user_id=0" / "data.parquet")
    (folder / "cards" / "user_id=0" / "data.parquet").write_bytes(b"not parquet at all")
    err = error_of(capsys, ["evaluate-dataset", str(folder)])
    assert "cards/user_id=0/data.parquet: not a readable parquet file" in err


def test_errors_name_the_real_user(tmp_path, capsys):
    path = write(tmp_path, GOOD, user=0)
    err = error_of(capsys, ["evaluate-dataset", path, "--user", "5"])
    assert "no revlogs table for user_id=5 (the data holds user_id=0)" in err and "user_id=0/" not in err


def test_limits_are_checked_while_streaming(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(dataset_read, "MAX_ROWS", 5)
    err = error_of(capsys, ["evaluate-dataset", write(tmp_path, GOOD)])
    assert "revlogs/user_id=0/data.csv: more than 5 rows, the limit" in err
    monkeypatch.setattr(dataset_read, "MAX_ROWS", 100)
    monkeypatch.setattr(dataset_read, "MAX_CSV_BYTES", 100)
    err = error_of(capsys, ["evaluate-dataset", write(tmp_path, GOOD, name="g.zip")])
    assert "more than the limit of 100" in err or "more than 100 bytes of CSV" in err


# The child's own peak: VmHWM belongs to its address space. (ru_maxrss does not: Linux carries the
# parent's peak across the exec of a vfork'ed child, so it measured pytest, not the command.)
PEAK_KIB = (
    "def peak_kib():\n"
    "    with open('/proc/self/status') as f:\n"
    "        return next(int(x.split()[1]) for x in f if x.startswith('VmHWM:'))\n"
)


@pytest.mark.slow
def test_a_zip_bomb_is_refused_quickly_with_little_memory(tmp_path):
    """A 1.1 GB CSV compressed into a couple of MB: refused within seconds, memory bounded."""
    path = tmp_path / "bomb.zip"
    line = b"0,0,3,0,5000,-1,-1\n"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        with z.open("revlogs/user_id=0/data.csv", "w", force_zip64=True) as f:
            f.write(REVLOGS.encode())
            block = line * 500_000
            for _ in range(1_100_000_000 // len(block) + 1):
                f.write(block)
        z.writestr("cards/user_id=0/data.csv", GOOD["cards"])
        z.writestr("decks/user_id=0/data.csv", GOOD["decks"])
    assert path.stat().st_size < 10_000_000
    code = (
        PEAK_KIB + "import sys, time\n"
        "from fsrs_calibration.cli.commands import main\n"
        "t = time.perf_counter(); status = main(['evaluate-dataset', sys.argv[1]])\n"
        "print(status, time.perf_counter() - t, peak_kib())\n"
    )
    proc = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=300)
    status, seconds, rss_kib = proc.stdout.split()
    assert status == "2" and "limit" in proc.stderr and proc.stderr.count("\n") == 1, proc.stderr
    assert float(seconds) < 10 and int(rss_kib) < 400 * 1024, (seconds, rss_kib)


def test_reading_a_large_csv_costs_about_its_arrays(tmp_path):
    """Memory grows with the parsed columns, not with the CSV text (read block by block)."""
    n = 3_000_000
    cols = {c: np.arange(n, dtype=np.int64) % 1000 for c in ("a", "b", "c")}
    text = csv_bytes(cols)
    path = tmp_path / "t.csv"
    path.write_bytes(text)
    code = (
        PEAK_KIB + "import sys\n"
        "from fsrs_calibration.metrics.read.dataset import read_csv\n"
        "before = peak_kib()\n"
        "with open(sys.argv[1], 'rb') as f: cols = read_csv(f, 't.csv')\n"
        "print(len(cols['a']), peak_kib() - before)\n"
    )
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=120)
    rows, grown_kib = map(int, out.stdout.split())
    arrays_mib = 3 * n * 8 / 2**20  # 69 MiB
    assert rows == n and grown_kib / 1024 < arrays_mib * 2 + 80, (grown_kib / 1024, len(text) / 2**20)


def test_parse_csv_of_exported_tables_round_trips():
    cols = {"a": np.array([0, -1, 2**62, 9223372036854775807]), "b": np.arange(4)}
    back = dataset_read.parse_csv(csv_bytes(cols))
    assert back["a"].tolist() == cols["a"].tolist()
    with pytest.raises(EvaluationError, match="no header line"):
        dataset_read.parse_csv(b"")
    assert dataset_read.parse_csv(b"a,b\n\n1,2\r\n\n")["b"].tolist() == [2]
