"""Datasets built to hurt (evaluate-dataset, to-parquet): bounded memory and time, no silent coercion, one line.

- A tiny parquet file whose string column decodes to gigabytes, a CSV of one endless line: refused early,
  in little memory (measured in a fresh process) and little time.
- Values are whole numbers or refused: parquet floats, booleans, text, dates, decimals, nulls, values beyond
  64 bits; CSV days beyond 32 bits (the engine counts days in 32 bits: refused, never wrapped).
- Zips: an encrypted entry, an unknown compression method, a corrupt deflate stream, a damaged central
  directory, entries outside the root, a central directory of thousands of files: one line each.
- Folders: a table that is a dangling symlink or a pipe (which would block forever): one line, at once.
- A CSV with a byte-order mark is read (Excel writes them); header text in an error is escaped.
"""

from __future__ import annotations

import os
import struct
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

from fsrs_calibration.cli.commands import main

pytestmark = pytest.mark.anki_free  # no part of Anki: make test-oldest leaves it out

EXE = os.path.join(os.path.dirname(sys.executable), "fsrs-calibration")
ONE_LINE = "fsrs-calibration: error: "
REVLOGS = "card_id,day_offset,rating,state,duration,elapsed_days,elapsed_seconds\n"
GOOD = {
    "revlogs": REVLOGS + "0,0,3,0,5000,-1,-1\n1,0,3,0,4000,-1,-1\n0,2,3,2,3000,2,172800\n1,3,1,2,3000,3,259200\n"
    "0,5,2,2,3000,3,259000\n1,6,3,3,3000,3,259100\n0,9,3,2,3000,4,345600\n1,9,4,2,3000,3,259300\n",
    "cards": "card_id,note_id,deck_id\n0,0,0\n1,1,0\n",
    "decks": "deck_id,parent_id,preset_id\n0,-1,0\n",
}
INTS = {
    "revlogs": {
        "card_id": [0, 1, 0, 1],
        "day_offset": [0, 0, 2, 3],
        "rating": [3, 3, 3, 1],
        "state": [0, 0, 2, 2],
        "duration": [5000, 4000, 3000, 3000],
        "elapsed_days": [-1, -1, 2, 3],
        "elapsed_seconds": [-1, -1, 172800, 259200],
    },
    "cards": {"card_id": [0, 1], "note_id": [0, 1], "deck_id": [0, 0]},
    "decks": {"deck_id": [0], "parent_id": [-1], "preset_id": [0]},
}


def zipped(path: Path, tables: dict[str, bytes | str], names: dict[str, str] | None = None, **kw) -> Path:
    with zipfile.ZipFile(path, "w", **kw) as z:
        for table, data in tables.items():
            z.writestr((names or {}).get(table, f"{table}/user_id=0/data.csv"), data)
    return path


# Runs a command as its only child, then prints that child's peak memory (kB) on stderr and exits with its status.
MEASURED = (
    "import resource, subprocess, sys\n"
    "status = subprocess.run(sys.argv[2:], timeout=float(sys.argv[1])).returncode\n"
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)\n"
    "sys.exit(status)\n"
)


def run(argv: list[str], timeout: float = 60) -> tuple[subprocess.CompletedProcess, float, float]:
    """Run the console command in a fresh process; return it, its seconds and its own peak memory in MB."""
    start = time.monotonic()
    argv = [sys.executable, "-c", MEASURED, str(timeout), EXE, *argv]  # the inner timeout ends the command itself
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=timeout + 30)
    seconds = time.monotonic() - start
    err, _, peak = proc.stderr.rstrip("\n").rpartition("\n")
    proc.stderr = err + "\n" if err else ""
    return proc, seconds, int(peak) / 1024


def one_line(proc: subprocess.CompletedProcess, fragment: str) -> None:
    assert proc.returncode == 2, (proc.returncode, proc.stderr[-2000:])
    assert proc.stderr.startswith(ONE_LINE) and proc.stderr.count("\n") == 1, proc.stderr[-2000:]
    assert fragment in proc.stderr and "\x1b" not in proc.stderr, proc.stderr


def error_of(capsys, argv: list[str]) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(ONE_LINE) and err.count("\n") == 1 and "Traceback" not in err, err
    return err


# -- bounded memory and time -------------------------------------------------------------------------
def _parquet_folder(folder: Path, columns: dict[str, dict[str, object]]) -> Path:
    """Write parquet tables without pyarrow's own schema, so that a reader sees parquet's types only (a
    dictionary-encoded string column then decodes to plain strings, every value in full)."""
    pa = pytest.importorskip("pyarrow", reason="the oldest-Anki environment has no pyarrow")
    import pyarrow.parquet as pq

    for table, cols in columns.items():
        (folder / table / "user_id=0").mkdir(parents=True)
        path = folder / table / "user_id=0" / "data.parquet"
        pq.write_table(pa.table(cols), path, compression="zstd", store_schema=False)
    return folder


@pytest.mark.slow
@pytest.mark.parametrize("where", ["a column it needs", "a column it does not need"])
def test_a_tiny_parquet_that_decodes_to_gigabytes_is_refused_or_skipped_in_little_memory(tmp_path, where):
    pa = pytest.importorskip("pyarrow", reason="the oldest-Anki environment has no pyarrow")
    rows = 4
    bomb = pa.array(["x" * 1_000_000] * 3000).dictionary_encode()  # one 1 MB value, 3,000 times: 3 GB decoded
    revlogs = {k: pa.array(v * 750) for k, v in INTS["revlogs"].items()}
    revlogs["day_offset"] = pa.array(sorted(INTS["revlogs"]["day_offset"] * 750))
    revlogs["card_id"] = pa.array([0] * (rows * 750))
    if where == "a column it needs":
        revlogs["rating"] = bomb
    else:
        revlogs["note"] = bomb
    folder = _parquet_folder(tmp_path / "pq", {"revlogs": revlogs, **{t: INTS[t] for t in ("cards", "decks")}})
    assert (folder / "revlogs" / "user_id=0" / "data.parquet").stat().st_size < 200_000
    proc, seconds, peak_mb = run(["evaluate-dataset", str(folder)])
    if where == "a column it needs":
        one_line(proc, "column rating holds string, not whole numbers")
    else:
        assert proc.returncode == 0, proc.stderr
    assert peak_mb < 400 and seconds < 30, (peak_mb, seconds)


def test_a_csv_of_one_endless_line_is_refused_at_once(tmp_path):
    path = zipped(tmp_path / "d.zip", dict(GOOD, revlogs=REVLOGS + "1" * 200_000_000), compression=zipfile.ZIP_DEFLATED)
    proc, seconds, peak_mb = run(["evaluate-dataset", str(path)])
    one_line(proc, "row 1 (line 2) is longer than 4,096 bytes")
    assert seconds < 10 and peak_mb < 300, (seconds, peak_mb)


def test_a_header_longer_than_a_line_may_be_is_refused(tmp_path, capsys):
    path = zipped(tmp_path / "d.zip", dict(GOOD, cards="card_id," * 10_000 + "\n0\n"))
    assert "no header line (or one longer than 4,096 bytes)" in error_of(capsys, ["evaluate-dataset", str(path)])


# -- no silent coercion ------------------------------------------------------------------------------
def _typed(kind: str):
    pa = pytest.importorskip("pyarrow", reason="the oldest-Anki environment has no pyarrow")
    import datetime as dt
    import decimal

    return {
        "a float": (pa.array([3.7, 3.0, 3.0, 1.0]), "holds double"),
        "a boolean": (pa.array([True, True, False, True]), "holds bool"),
        "text": (pa.array(["3", "3", "3", "1"]), "holds string"),
        "a timestamp": (pa.array([dt.datetime(2024, 1, d) for d in (1, 2, 3, 4)]), "holds timestamp"),
        "a decimal": (pa.array([decimal.Decimal(x) for x in "3331"]), "holds decimal128"),
        "a null": (pa.array([3, None, 3, 1], type=pa.int64()), "row 2, column rating: an empty value"),
        "beyond 64 bits": (
            pa.array([3, 2**64 - 1, 3, 1], type=pa.uint64()),
            "row 2, column rating: a number too large",
        ),
    }[kind]


@pytest.mark.parametrize(
    "kind", ["a float", "a boolean", "text", "a timestamp", "a decimal", "a null", "beyond 64 bits"]
)
def test_parquet_values_must_be_whole_numbers(tmp_path, capsys, kind):
    column, fragment = _typed(kind)
    revlogs = dict(INTS["revlogs"], rating=column)
    folder = _parquet_folder(tmp_path / "pq", {"revlogs": revlogs, **{t: INTS[t] for t in ("cards", "decks")}})
    err = error_of(capsys, ["evaluate-dataset", str(folder)])
    assert "revlogs/user_id=0/data.parquet" in err and fragment in err, err
    assert "-9223372036854775808" not in err


@pytest.mark.parametrize("column, value", [("elapsed_days", 4294967298), ("day_offset", 2**31)])
def test_days_beyond_32_bits_are_refused_not_wrapped(tmp_path, capsys, column, value):
    lines = GOOD["revlogs"].splitlines()
    cells = lines[3].split(",")
    cells[REVLOGS.strip().split(",").index(column)] = str(value)
    lines[3] = ",".join(cells)
    if column == "day_offset":  # keep the card's days in order
        lines = lines[:4]
    path = zipped(tmp_path / "d.zip", dict(GOOD, revlogs="\n".join(lines) + "\n"))
    err = error_of(capsys, ["evaluate-dataset", str(path)])
    assert f"row 3 (line 4), column {column}: {value} is outside" in err and "2,147,483,647" in err


# -- zips built to hurt ------------------------------------------------------------------------------
def _patch_entry(path: Path, entry: str, local_offset: int, central_offset: int, value: bytes) -> None:
    """Overwrite bytes of an entry's local header and central directory record (flags, method)."""
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as z:
        info = z.getinfo(entry)
    data[info.header_offset + local_offset : info.header_offset + local_offset + len(value)] = value
    name = entry.encode()
    at = data.rfind(b"PK\x01\x02", 0, data.rfind(name))
    data[at + central_offset : at + central_offset + len(value)] = value
    path.write_bytes(bytes(data))


def _hurt(kind: str, path: Path) -> Path:
    entry = "revlogs/user_id=0/data.csv"
    if kind == "encrypted entry":
        zipped(path, GOOD)
        _patch_entry(path, entry, 6, 8, struct.pack("<H", 1))  # general purpose flag bit 0: encrypted
    elif kind == "unknown compression":
        zipped(path, GOOD)
        _patch_entry(path, entry, 8, 10, struct.pack("<H", 99))
    elif kind == "corrupt deflate":
        zipped(path, dict(GOOD, revlogs=GOOD["revlogs"] * 50), compression=zipfile.ZIP_DEFLATED)
        with zipfile.ZipFile(path) as z:
            info = z.getinfo(entry)
        data = bytearray(path.read_bytes())
        start = info.header_offset + 30 + len(entry)
        data[start + 5 : start + 40] = b"\xff" * 35
        path.write_bytes(bytes(data))
    elif kind == "damaged central directory":
        zipped(path, GOOD)
        data = bytearray(path.read_bytes())
        at = data.rfind(b"PK\x01\x02")
        data[at : at + 4] = b"PK\x09\x09"  # the first central directory record's signature damaged
        path.write_bytes(bytes(data))
    elif kind in ("entry above the root", "absolute entry"):
        bad = "../../revlogs/user_id=0/data.csv" if kind == "entry above the root" else "/revlogs/user_id=0/data.csv"
        zipped(path, GOOD, names={"revlogs": bad})
    elif kind == "thousands of entries":
        with zipfile.ZipFile(path, "w") as z:
            for i in range(10_001):
                z.writestr(f"f{i}", b"")
    return path


HURTS = {
    "encrypted entry": "revlogs/user_id=0/data.csv: cannot be read (File 'revlogs/user_id=0/data.csv' is encrypted",
    "unknown compression": "cannot be read (",
    "corrupt deflate": "revlogs/user_id=0/data.csv: cannot be read (",
    "damaged central directory": "not a readable zip file (",
    "entry above the root": "holds a file outside its root (../../revlogs/user_id=0/data.csv); refused",
    "absolute entry": "holds a file outside its root (/revlogs/user_id=0/data.csv); refused",
    "thousands of entries": "a zip of more than 10,000 files",
}


@pytest.mark.parametrize("kind", list(HURTS))
@pytest.mark.parametrize("command", ["evaluate-dataset", "to-parquet"])
def test_a_zip_built_to_hurt_is_one_line(tmp_path, capsys, kind, command):
    path = _hurt(kind, tmp_path / "d.zip")
    argv = [command, str(path)] + ([str(tmp_path / "pq")] if command == "to-parquet" else [])
    err = error_of(capsys, argv)
    assert HURTS[kind] in err, err
    assert not (tmp_path / "pq").exists()


# -- folders -----------------------------------------------------------------------------------------
def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    for table, text in GOOD.items():
        (folder / table / "user_id=0").mkdir(parents=True)
        (folder / table / "user_id=0" / "data.csv").write_text(text)
    return folder


@pytest.mark.parametrize("kind", ["dangling symlink", "pipe"])
def test_a_table_that_is_not_a_regular_file_is_one_line_at_once(tmp_path, kind):
    folder = _folder(tmp_path)
    table = folder / "cards" / "user_id=0" / "data.csv"
    table.unlink()
    if kind == "pipe":
        os.mkfifo(table)
    else:
        table.symlink_to(tmp_path / "gone.csv")
    proc, seconds, _ = run(["evaluate-dataset", str(folder)], timeout=30)
    one_line(proc, "cards/user_id=0/data.csv: is " + ("not a regular file" if kind == "pipe" else "a symbolic link"))
    assert seconds < 10


# -- what Excel writes, and what a terminal must not see ---------------------------------------------
def test_a_csv_with_a_byte_order_mark_is_read(tmp_path, capsys):
    plain = zipped(tmp_path / "plain.zip", GOOD)
    marked = zipped(tmp_path / "bom.zip", {t: b"\xef\xbb\xbf" + text.encode() for t, text in GOOD.items()})
    assert main(["evaluate-dataset", str(plain), "--json"]) == 0
    expected = capsys.readouterr().out
    assert main(["evaluate-dataset", str(marked), "--json"]) == 0
    assert capsys.readouterr().out == expected


def test_header_text_in_an_error_is_escaped(tmp_path, capsys):
    header = "card_id,note_id,\x1b[2J\x1b[Hdeck_id\n"
    path = zipped(tmp_path / "d.zip", dict(GOOD, cards=header + "0,0,x\n"))
    err = error_of(capsys, ["evaluate-dataset", str(path)])
    assert "\x1b" not in err and "\\x1b[2J" in err


def test_a_good_dataset_still_reads_through_every_route(tmp_path, capsys):
    """The checks refuse what they should and nothing else: zip, folder and parquet give the same numbers."""
    pytest.importorskip("pyarrow", reason="the oldest-Anki environment has no pyarrow")
    path = zipped(tmp_path / "d.zip", GOOD, compression=zipfile.ZIP_DEFLATED)
    outs = []
    for source in (path, _folder(tmp_path)):
        assert main(["evaluate-dataset", str(source), "--json"]) == 0
        outs.append(capsys.readouterr().out)
    assert main(["to-parquet", str(path), str(tmp_path / "pq")]) == 0
    capsys.readouterr()
    assert main(["evaluate-dataset", str(tmp_path / "pq"), "--json"]) == 0
    outs.append(capsys.readouterr().out)
    assert outs[0] == outs[1] == outs[2]
