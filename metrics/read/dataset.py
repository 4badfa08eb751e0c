"""Reading a benchmark-format dataset (an export zip or an anki-revlogs-10k folder) as untrusted input.

CSV is streamed in blocks (never the whole text in memory) and parsed without a Python loop per row;
every value is checked: whole numbers that fit in 64 bits, rows of the header's length, the value
ranges of each column (rating 1-4, state 0-4, no negative ids, ...), and each card's day_offset never
decreasing. A problem is one sentence naming the file, the row (and its line) and the column.
Limits, checked while reading: at most MAX_ROWS rows and MAX_CSV_BYTES of decompressed CSV per table
(a 5,000,000-review export is 5M rows and about 150 MB); parquet files are read only after their
row count (from the file's metadata) is checked.
"""

from __future__ import annotations

import io
import os
import zipfile
from typing import IO

import numpy as np

from ..errors import EvaluationError
from ..export.dataset import TABLES, USER, Tables

MAX_ROWS = 20_000_000  # rows per table: 20M reviews is four times the largest collections we know of
MAX_CSV_BYTES = 1 << 30  # 1 GiB of CSV text per table (20M revlog rows take about 600 MB)
BLOCK = 2 << 20  # bytes read and parsed at a time (its temporaries are ~40 bytes per byte)
MAX_DIGITS = 19  # int64 holds up to 9,223,372,036,854,775,807: 19 digits, checked against that
ROOT_PARENT = -1
INT32 = np.iinfo(np.int32)

# Allowed values per column: (lowest, highest or None).
RANGES: dict[str, dict[str, tuple[int, int | None]]] = {
    "revlogs": {"card_id": (0, None), "day_offset": (0, None), "rating": (1, 4), "state": (0, 4),
                "duration": (0, None), "elapsed_days": (-1, None), "elapsed_seconds": (-1, None)},
    "cards": {"card_id": (0, None), "note_id": (0, None), "deck_id": (0, None)},
    "decks": {"deck_id": (0, None), "parent_id": (ROOT_PARENT, None), "preset_id": (0, None)},
}  # fmt: skip

_INT64_MAX = np.frombuffer(b"9223372036854775807", dtype=np.uint8)
_DIGIT = np.zeros(256, dtype=bool)
_DIGIT[ord("0") : ord("9") + 1] = True
_ALLOWED = _DIGIT.copy()
_ALLOWED[[ord(","), ord("\n"), ord("-")]] = True


def read_tables(source: str, user: int | None = None) -> Tables:
    """Return the checked tables of an export zip, or of a folder in the anki-revlogs-10k layout (CSV or parquet)."""
    if not os.path.exists(source):
        raise EvaluationError(f"{source}: no such file or folder.")
    files: list[str] = []
    if os.path.isdir(source):
        for root, _dirs, names in os.walk(source):
            files += [os.path.relpath(os.path.join(root, n), source).replace(os.sep, "/") for n in names]

        def opener(rel: str) -> tuple[IO[bytes], int]:
            path = os.path.join(source, rel)
            return open(path, "rb"), os.path.getsize(path)  # noqa: SIM115  (closed by the caller)

    else:
        try:
            z = zipfile.ZipFile(source)
        except (zipfile.BadZipFile, OSError):
            raise EvaluationError(f"{source}: not a zip file.") from None
        files = z.namelist()

        def opener(rel: str) -> tuple[IO[bytes], int]:
            return z.open(rel), z.getinfo(rel).file_size  # the declared size; the stream is counted too

    tables = {}
    for name in TABLES:
        found = _table_file(files, name, user)
        if found is None:
            wanted = f"user_id={user}" if user is not None else USER
            held = sorted({f.split("user_id=")[1].split("/")[0] for f in files if f"{name}/user_id=" in f})
            holds = f" (the data holds user_id={', '.join(held)})" if held else ""
            raise EvaluationError(f"{source}: no {name} table for {wanted}{holds}.")
        stream, declared = opener(found)
        try:
            if found.endswith(".parquet"):
                columns = _read_parquet(stream, declared, found)
            else:
                columns = read_csv(stream, found, declared)
        except (zipfile.BadZipFile, OSError, EOFError) as err:
            raise EvaluationError(f"{found}: cannot be read ({err}).") from None
        finally:
            stream.close()
        missing = [c for c in TABLES[name] if c not in columns]
        if missing:
            raise EvaluationError(f"{found}: the {name} table lacks the columns {', '.join(missing)}.")
        check_table(name, columns, found)
        tables[name] = {c: columns[c] for c in TABLES[name]}
    return Tables(**tables)


def _table_file(files: list[str], name: str, user: int | None) -> str | None:
    """Return the path of a table's file: this user's partition (the only one when user is None), CSV first."""
    candidates = sorted(
        f for f in files if f.endswith(("/data.csv", "/data.parquet")) and f"{name}/user_id=" in f
        and (f.startswith(f"{name}/") or f.startswith(f"parquet/{name}/"))
    )  # fmt: skip
    users = sorted({f.split("user_id=")[1].split("/")[0] for f in candidates})
    if user is None:
        if len(users) > 1:
            raise EvaluationError(f"The data holds {len(users)} users; choose one with --user (e.g. {users[0]}).")
    else:
        candidates = [f for f in candidates if f"user_id={user}/" in f]
    csvs = [f for f in candidates if f.endswith(".csv")]
    chosen = csvs or candidates
    return chosen[0] if chosen else None


def parse_csv(text: bytes | str) -> dict[str, np.ndarray]:
    """Return the whole-number columns of a CSV table with a header line (checked as read_csv does)."""
    data = text.encode() if isinstance(text, str) else text
    return read_csv(io.BytesIO(data), "CSV table", len(data))


def read_csv(stream: IO[bytes], where: str, declared: int = 0) -> dict[str, np.ndarray]:
    """Return the whole-number columns (each in its smallest type) of a CSV stream, read block by block."""
    if declared > MAX_CSV_BYTES:
        raise EvaluationError(f"{where}: {declared:,} bytes of CSV, more than the limit of {MAX_CSV_BYTES:,}.")
    head = stream.readline(65_536)
    names = [h.strip() for h in head.decode("utf-8", "replace").strip().split(",") if h.strip()]
    if not names or not head.endswith(b"\n") and stream.read(1):
        raise EvaluationError(f"{where}: no header line.")
    parts: list[list[np.ndarray]] = [[] for _ in names]
    total, rows, carry = len(head), 0, b""
    while True:
        chunk = stream.read(BLOCK)
        total += len(chunk)
        if total > MAX_CSV_BYTES:
            raise EvaluationError(f"{where}: more than {MAX_CSV_BYTES:,} bytes of CSV, the limit; nothing was read.")
        data = carry + chunk
        if chunk:
            cut = data.rfind(b"\n") + 1
            block, carry = data[:cut], data[cut:]
        else:
            block, carry = data, b""
        if block.strip():
            table = _parse_block(block, len(names), rows, where, names)
            rows += table.shape[0]
            if rows > MAX_ROWS:
                raise EvaluationError(f"{where}: more than {MAX_ROWS:,} rows, the limit; nothing was read.")
            for i in range(len(names)):
                parts[i].append(narrow(table[:, i]))
        if not chunk:
            break
    out = {}
    for i, n in enumerate(names):  # one column at a time: the blocks of a column are freed as it is joined
        out[n] = np.concatenate(parts[i]) if parts[i] else np.zeros(0, dtype=np.int64)
        parts[i].clear()
    return out


def narrow(values: np.ndarray) -> np.ndarray:
    """Return a copy of whole numbers as int32 when they fit, else as int64.

    A table's column joins these parts with numpy's promotion (int32 and int64 parts make an int64
    column): a 5M-review revlogs table takes about 140 MB instead of 280 MB. Not narrower: code
    downstream does int32 arithmetic (sort keys, day counts) that int8 or int16 would overflow.
    """
    if values.size and INT32.min <= int(values.min()) and int(values.max()) <= INT32.max:
        return values.astype(np.int32)
    return values.astype(np.int64)


def _parse_block(block: bytes, ncols: int, first_row: int, where: str, names: list[str]) -> np.ndarray:
    """Return the rows of a block of whole CSV lines as an int64 array, or raise naming the bad row."""
    block = block.replace(b"\r", b"")
    if not block.endswith(b"\n"):
        block += b"\n"
    raw = np.frombuffer(block, dtype=np.uint8)
    newline = raw == ord("\n")
    line_end = np.flatnonzero(newline)
    blank = np.diff(line_end, prepend=-1) == 1
    if blank.any():  # empty lines (a trailing one is common): drop them
        keep = np.ones(raw.size, dtype=bool)
        keep[line_end[blank]] = False
        raw = raw[keep]
        newline = raw == ord("\n")
        line_end = np.flatnonzero(newline)
    if line_end.size == 0:
        return np.zeros((0, ncols), dtype=np.int64)

    def row_of(pos: int) -> int:
        return int(np.searchsorted(line_end, pos))

    def fail(pos: int, what: str) -> EvaluationError:
        r = row_of(pos)
        start = int(line_end[r - 1]) + 1 if r else 0
        col = int((raw[start:pos] == ord(",")).sum())
        line = bytes(raw[start : int(line_end[r])]).decode("utf-8", "replace")
        name = names[col] if col < len(names) else f"#{col + 1}"
        return EvaluationError(
            f"{where}: row {first_row + r + 1:,} (line {first_row + r + 2:,}), column {name}: {what} ({line[:80]!r})."
        )

    bad = np.flatnonzero(~_ALLOWED[raw])
    if bad.size:
        raise fail(int(bad[0]), "not a whole number")
    sep = np.flatnonzero(newline | (raw == ord(",")))
    commas = np.searchsorted(np.flatnonzero(raw == ord(",")), line_end)  # commas before each line's end
    per_line = np.diff(commas, prepend=0)
    wrong = np.flatnonzero(per_line != ncols - 1)
    if wrong.size:
        r = int(wrong[0])
        start = int(line_end[r - 1]) + 1 if r else 0
        raise fail(start, f"{per_line[r] + 1} values where the header has {ncols}")
    starts = np.concatenate(([0], sep[:-1] + 1))
    length = sep - starts
    if (length == 0).any():
        raise fail(int(starts[np.flatnonzero(length == 0)[0]]), "an empty value")
    minus = np.flatnonzero(raw == ord("-"))
    if minus.size:
        at_start = np.isin(minus, starts)
        if not at_start.all():
            raise fail(int(minus[~at_start][0]), "not a whole number")
        lone = length[np.searchsorted(starts, minus)] == 1
        if lone.any():
            raise fail(int(minus[lone][0]), "not a whole number")
    digits = length - (raw[starts] == ord("-"))
    too_long = np.flatnonzero(digits > MAX_DIGITS)
    if too_long.size:
        raise fail(int(starts[too_long[0]]), f"a number of more than {MAX_DIGITS} digits")
    longest = np.flatnonzero(digits == MAX_DIGITS)
    if longest.size:  # compare the 19-digit ones with int64's largest, digit by digit
        first_digit = sep[longest] - MAX_DIGITS
        grid = raw[first_digit[:, None] + np.arange(MAX_DIGITS)]
        differs = grid != _INT64_MAX
        at = differs.argmax(axis=1)
        over = differs.any(axis=1) & (grid[np.arange(at.size), at] > _INT64_MAX[at])
        if over.any():
            raise fail(int(starts[longest[over][0]]), "a number too large for 64 bits")
    text = bytes(raw[:-1]).replace(b"\n", b",")  # checked above: digits, single commas, leading minus signs
    values = np.fromstring(text.decode("ascii"), dtype=np.int64, sep=",")
    if values.size != line_end.size * ncols:
        raise EvaluationError(f"{where}: rows {first_row + 1:,}–{first_row + line_end.size:,} could not be read.")
    return values.reshape(-1, ncols)


def check_table(name: str, columns: dict[str, np.ndarray], where: str) -> None:
    """Raise EvaluationError naming the first row whose value is impossible (or out of time order per card)."""
    first: tuple[int, str, str] | None = None
    for col, (low, high) in RANGES.get(name, {}).items():
        v = columns.get(col)
        if v is None or v.size == 0:
            continue
        bad = (v < low) | (v > high) if high is not None else v < low
        hit = np.flatnonzero(bad)
        if hit.size and (first is None or hit[0] < first[0]):
            allowed = f"{low}–{high}" if high is not None else f"{low} or more"
            first = (int(hit[0]), col, f"{int(v[hit[0]])} is outside {allowed}")
    if name == "revlogs" and columns["card_id"].size > 1:
        card, day = columns["card_id"], columns["day_offset"]
        order = np.argsort(card, kind="stable")  # each card's rows in file order
        back = (card[order][1:] == card[order][:-1]) & (day[order][1:] < day[order][:-1])
        hit = np.flatnonzero(back)
        if hit.size:
            r = int(order[1:][hit].min())
            if first is None or r < first[0]:
                first = (r, "day_offset", "this card's day_offset goes back in time")
    if first is not None:
        r, col, what = first
        raise EvaluationError(f"{where}: row {r + 1:,} (line {r + 2:,}), column {col}: {what}.")


def _read_parquet(stream: IO[bytes], declared: int, where: str) -> dict[str, np.ndarray]:
    """Return the whole-number columns of a parquet file (needs pyarrow), its row count checked before reading."""
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise EvaluationError("Reading parquet needs pyarrow (pip install pyarrow); CSV needs nothing.") from None
    limit = MAX_CSV_BYTES
    data = stream.read(limit + 1)
    if len(data) > limit or declared > limit:
        raise EvaluationError(f"{where}: a parquet file larger than {limit:,} bytes, the limit.")
    try:
        file = pq.ParquetFile(io.BytesIO(data))
        if file.metadata.num_rows > MAX_ROWS:
            raise EvaluationError(f"{where}: {file.metadata.num_rows:,} rows, more than the limit of {MAX_ROWS:,}.")
        table = file.read()
    except EvaluationError:
        raise
    except Exception as err:  # pyarrow's own errors: not a parquet file, corrupt pages, ...
        raise EvaluationError(f"{where}: not a readable parquet file ({err}).") from None
    out = {}
    for c in table.column_names:
        if c == "user_id":
            continue
        try:
            out[c] = narrow(np.asarray(table.column(c).to_numpy(), dtype=np.int64))
        except Exception:
            raise EvaluationError(f"{where}: column {c} does not hold whole numbers.") from None
    return out
