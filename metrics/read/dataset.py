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
import stat
import zipfile
import zlib
from collections.abc import Callable
from typing import IO, TYPE_CHECKING

import numpy as np

from ..errors import EvaluationError
from ..explain import formatting as fmt
from ..explain.lang import N_, _, n_, text
from .dataset_layout import TABLES, USER, Tables

if TYPE_CHECKING:
    import pyarrow as pa  # optional: the parquet files are read only when it is there

MAX_ROWS = 20_000_000  # rows per table: 20M reviews is four times the largest collections we know of
MAX_CSV_BYTES = 1 << 30  # 1 GiB of CSV text per table (20M revlog rows take about 600 MB)
BLOCK = 2 << 20  # bytes read and parsed at a time (its temporaries are ~40 bytes per byte)
MAX_LINE = 4096  # bytes in one CSV line: a revlogs row of seven 64-bit numbers takes at most 146
BOM = b"\xef\xbb\xbf"  # the byte-order mark Excel writes at the start of a UTF-8 CSV
MAX_DIGITS = 19  # int64 holds up to 9,223,372,036,854,775,807: 19 digits, checked against that
ROOT_PARENT = -1
INT32 = np.iinfo(np.int32)
DAYS_MAX = int(INT32.max)  # day counts are computed in 32 bits: a larger one is refused, never wrapped

# Allowed values per column: (lowest, highest or None).
RANGES: dict[str, dict[str, tuple[int, int | None]]] = {
    "revlogs": {
        "card_id": (0, None),
        "day_offset": (0, DAYS_MAX),
        "rating": (1, 4),
        "state": (0, 4),
        "duration": (0, None),
        "elapsed_days": (-1, DAYS_MAX),
        "elapsed_seconds": (-1, None),
    },
    "cards": {"card_id": (0, None), "note_id": (0, None), "deck_id": (0, None)},
    "decks": {"deck_id": (0, None), "parent_id": (ROOT_PARENT, None), "preset_id": (0, None)},
}

_INT64_MAX = np.frombuffer(b"9223372036854775807", dtype=np.uint8)
_DIGIT = np.zeros(256, dtype=bool)
_DIGIT[ord("0") : ord("9") + 1] = True
_ALLOWED = _DIGIT.copy()
_ALLOWED[[ord(","), ord("\n"), ord("-")]] = True


# What reading a zip entry or a file may raise besides our own errors: a damaged or encrypted entry, an
# unknown compression method, a corrupt deflate stream, a file that vanished.
_READ_ERRORS = (zipfile.BadZipFile, OSError, EOFError, RuntimeError, NotImplementedError, zlib.error, ValueError)
MAX_ENTRIES = 10_000  # entries of a zip: an export has five; a central directory of millions is refused unread


class _Source:
    """The files of a dataset (paths relative to its root, with "/") and a way to open each one."""

    def __init__(self, files: list[str], opener: Callable[[str], tuple[IO[bytes], int]]) -> None:
        self.files, self.open = files, opener


def read_tables(source: str, user: int | None = None) -> Tables:
    """Return the checked tables of an export zip, or of a folder in the anki-revlogs-10k layout (CSV or parquet)."""
    if not os.path.lexists(source):
        raise EvaluationError(text("{path}: no such file or folder.", path=fmt.name(source)))
    data = _folder(source) if os.path.isdir(source) else _zip(source)
    tables = {}
    for name in TABLES:
        found = _table_file(data.files, name, user)
        if found is None:
            wanted = f"user_id={user}" if user is not None else USER
            held = sorted({_user_of(f) for f in data.files if _is_table_file(f, name)})
            raise EvaluationError(_no_table(source, name, wanted, held))
        tables[name] = _read_table(data, name, found)
    return Tables(**tables)


def _no_table(source: str, name: str, wanted: str, held: list[str]) -> str:
    """Return the sentence saying the dataset has no table `name` for the user `wanted` (`held`: its users)."""
    if not held:
        return text("{path}: no {table} table for {user}.", path=fmt.name(source), table=name, user=wanted)
    return text(
        "{path}: no {table} table for {user} (the data holds user_id={users}).",
        path=fmt.name(source),
        table=name,
        user=wanted,
        users=printable(", ".join(held)),
    )


def _not_regular(path: str) -> str:
    return text("{path}: is not a regular file (a pipe, a device or a socket).", path=fmt.name(path))


def _read_table(data: _Source, name: str, found: str) -> dict[str, np.ndarray]:
    """Return the checked columns of one table's file."""
    try:
        stream, declared = data.open(found)
        try:
            if found.endswith(".parquet"):
                columns = _read_parquet(stream, declared, found, TABLES[name])
            else:
                columns = read_csv(stream, found, declared)
        finally:
            stream.close()
    except _READ_ERRORS as err:
        raise EvaluationError(
            text("{path}: cannot be read ({reason}).", path=fmt.name(found), reason=printable(str(err), 120))
        ) from None
    missing = [c for c in TABLES[name] if c not in columns]
    if missing:
        raise EvaluationError(
            text(
                "{path}: the {table} table lacks the columns {columns}.",
                path=fmt.name(found),
                table=name,
                columns=", ".join(missing),
            )
        )
    check_table(name, columns, found)
    return {c: columns[c] for c in TABLES[name]}


def _folder(source: str) -> _Source:
    """Return a folder's files; each is opened only if it is a regular file (never a pipe, which would block)."""
    files: list[str] = []
    for root, _dirs, names in os.walk(source):
        files += [os.path.relpath(os.path.join(root, n), source).replace(os.sep, "/") for n in names]

    def opener(rel: str) -> tuple[IO[bytes], int]:
        path = os.path.join(source, rel)
        if os.path.islink(path) and not os.path.exists(path):
            raise EvaluationError(text("{path}: is a symbolic link to a missing file.", path=fmt.name(rel)))
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # a pipe opens at once, then is refused
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            os.close(fd)
            raise EvaluationError(_not_regular(rel))
        return os.fdopen(fd, "rb"), info.st_size

    return _Source(files, opener)


def _zip(source: str) -> _Source:
    """Return a zip's entries, refusing entries outside its root and a central directory too large to read."""
    try:
        info = os.stat(source)
        if not stat.S_ISREG(info.st_mode):
            raise EvaluationError(_not_regular(source))
        with open(source, "rb") as f:
            if _declared_entries(f, info.st_size) > MAX_ENTRIES:
                raise EvaluationError(
                    text(
                        "{path}: a zip of more than {count} files; not a dataset.",
                        path=fmt.name(source),
                        count=fmt.count(MAX_ENTRIES),
                    )
                )
        z = zipfile.ZipFile(source)
    except EvaluationError:
        raise
    except Exception as err:  # a damaged central directory raises more than BadZipFile
        raise EvaluationError(
            text("{path}: not a readable zip file ({reason}).", path=fmt.name(source), reason=printable(str(err), 120))
        ) from None
    files = z.namelist()
    outside = [f for f in files if _outside_root(f)]
    if outside:
        raise EvaluationError(
            text(
                "{path}: the zip holds a file outside its root ({file}); refused.",
                path=fmt.name(source),
                file=fmt.name(printable(outside[0])),
            )
        )

    def opener(rel: str) -> tuple[IO[bytes], int]:
        return z.open(rel), z.getinfo(rel).file_size  # the declared size; the stream is counted too

    return _Source(files, opener)


def _declared_entries(f: IO[bytes], size: int) -> int:
    """Return the entry count a zip's end record declares (0 when there is none: zipfile then says so)."""
    tail_size = min(size, 65_536 + 22)
    f.seek(size - tail_size)
    tail = f.read(tail_size)
    at = tail.rfind(b"PK\x05\x06")
    if at < 0 or at + 22 > len(tail):
        return 0
    return int.from_bytes(tail[at + 10 : at + 12], "little")


def _outside_root(name: str) -> bool:
    """Return whether a zip entry's name points outside the zip's root (absolute, a drive, .. or backslashes)."""
    return name.startswith(("/", "\\")) or "\\" in name or ":" in name or ".." in name.split("/")


def _is_table_file(f: str, name: str) -> bool:
    """Return whether `f` is a data file of table `name` (at the root, or under parquet/)."""
    return (
        f.endswith(("/data.csv", "/data.parquet"))
        and f"{name}/user_id=" in f
        and (f.startswith(f"{name}/") or f.startswith(f"parquet/{name}/"))
    )


def _user_of(f: str) -> str:
    """Return the user id written in a table file's path."""
    return f.split("user_id=")[1].split("/")[0]


def _table_file(files: list[str], name: str, user: int | None) -> str | None:
    """Return the path of a table's file: this user's partition (the only one when user is None), CSV first."""
    candidates = sorted(f for f in files if _is_table_file(f, name))
    users = sorted({_user_of(f) for f in candidates})
    if user is None:
        if len(users) > 1:
            raise EvaluationError(
                n_(
                    "The data holds {count} users; choose one with --user (e.g. {user}).",
                    "The data holds {count} users; choose one with --user (e.g. {user}).",
                    len(users),
                ).format(count=fmt.local(str(len(users))), user=printable(users[0]))
            )
    else:
        candidates = [f for f in candidates if f"user_id={user}/" in f]
    csvs = [f for f in candidates if f.endswith(".csv")]
    chosen = csvs or candidates
    return chosen[0] if chosen else None


def parse_csv(text: bytes | str) -> dict[str, np.ndarray]:
    """Return the whole-number columns of a CSV table with a header line (checked as read_csv does)."""
    data = text.encode() if isinstance(text, str) else text
    return read_csv(io.BytesIO(data), _("CSV table"), len(data))


def read_csv(stream: IO[bytes], where: str, declared: int = 0) -> dict[str, np.ndarray]:
    """Return the whole-number columns (each in its smallest type) of a CSV stream, read block by block."""
    if declared > MAX_CSV_BYTES:
        raise EvaluationError(
            n_(
                "{path}: {count} bytes of CSV, more than the limit of {limit}.",
                "{path}: {count} bytes of CSV, more than the limit of {limit}.",
                declared,
            ).format(path=fmt.name(where), count=fmt.count(declared), limit=fmt.count(MAX_CSV_BYTES))
        )
    head = stream.readline(MAX_LINE)
    names = [h.strip() for h in head.removeprefix(BOM).decode("utf-8", "replace").strip().split(",") if h.strip()]
    if not names or not head.endswith(b"\n") and stream.read(1):
        raise _over(where, N_("{path}: no header line (or one longer than {limit} bytes)."), MAX_LINE)
    parts: list[list[np.ndarray]] = [[] for _ in names]
    total, rows, carry = len(head), 0, b""
    while True:
        chunk = stream.read(BLOCK)
        total += len(chunk)
        if total > MAX_CSV_BYTES:
            raise _over(
                where, N_("{path}: more than {limit} bytes of CSV, the limit; nothing was read."), MAX_CSV_BYTES
            )
        block, carry = _whole_lines(carry, chunk)
        if len(carry) > MAX_LINE:
            raise _line_too_long(where, rows + block.count(b"\n") + 1)
        if block.strip():
            table = _parse_block(block, len(names), rows, where, names)
            rows += table.shape[0]
            if rows > MAX_ROWS:
                raise _over(where, N_("{path}: more than {limit} rows, the limit; nothing was read."), MAX_ROWS)
            for i in range(len(names)):
                parts[i].append(narrow(table[:, i]))
        if not chunk:
            break
    out = {}
    for i, n in enumerate(names):  # one column at a time: the blocks of a column are freed as it is joined
        out[n] = np.concatenate(parts[i]) if parts[i] else np.zeros(0, dtype=np.int64)
        parts[i].clear()
    return out


def _over(where: str, message: str, limit: int) -> EvaluationError:
    """Return the error `message` (marked, with the fields path and limit) about a file past a limit."""
    return EvaluationError(text(message, path=fmt.name(where), limit=fmt.count(limit)))


def _line_too_long(where: str, row: int) -> EvaluationError:
    """Return the error about a CSV row longer than MAX_LINE."""
    return EvaluationError(
        text(
            "{path}: row {row} (line {line}) is longer than {limit} bytes.",
            path=fmt.name(where),
            row=fmt.count(row),
            line=fmt.count(row + 1),
            limit=fmt.count(MAX_LINE),
        )
    )


def _whole_lines(carry: bytes, chunk: bytes) -> tuple[bytes, bytes]:
    """Return (the whole lines of carry + chunk, the unfinished last line); at the end (no chunk), all of it."""
    if not chunk:
        return carry, b""
    cut = chunk.rfind(b"\n") + 1
    if cut == 0:
        return b"", carry + chunk  # no line ends here: the carry grows, and read_csv caps it
    return carry + chunk[:cut], chunk[cut:]


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
    raw = _without_blank_lines(np.frombuffer(block.replace(b"\r", b"").rstrip(b"\n") + b"\n", dtype=np.uint8))
    line_end = np.flatnonzero(raw == ord("\n"))
    if line_end.size == 0:
        return np.zeros((0, ncols), dtype=np.int64)
    fail = _Failure(raw, line_end, first_row, where, names)
    bad = np.flatnonzero(~_ALLOWED[raw])
    if bad.size:
        raise fail(int(bad[0]), _("not a whole number"))
    sep, starts, length = _fields(raw, line_end, ncols, fail)
    _check_signs(raw, starts, length, fail)
    _check_magnitudes(raw, sep, starts, length, fail)
    joined = bytes(raw[:-1]).replace(b"\n", b",")  # checked above: digits, single commas, leading minus signs
    values = np.fromstring(joined.decode("ascii"), dtype=np.int64, sep=",")
    if values.size != line_end.size * ncols:
        raise EvaluationError(
            text(
                "{path}: rows {first}–{last} could not be read.",
                path=fmt.name(where),
                first=fmt.count(first_row + 1),
                last=fmt.count(first_row + line_end.size),
            )
        )
    return values.reshape(-1, ncols)


def _without_blank_lines(raw: np.ndarray) -> np.ndarray:
    """Return the block without its empty lines (a trailing one is common); the last line ends with a newline."""
    line_end = np.flatnonzero(raw == ord("\n"))
    blank = np.diff(line_end, prepend=-1) == 1
    if not blank.any():
        return raw
    keep = np.ones(raw.size, dtype=bool)
    keep[line_end[blank]] = False
    return raw[keep]


class _Failure:
    """Makes the one-sentence error for a position in a block: the row, its line, the column and its text."""

    def __init__(self, raw: np.ndarray, line_end: np.ndarray, first_row: int, where: str, names: list[str]) -> None:
        self.raw, self.line_end, self.first_row, self.where, self.names = raw, line_end, first_row, where, names

    def __call__(self, pos: int, what: str) -> EvaluationError:
        r = int(np.searchsorted(self.line_end, pos))
        start = int(self.line_end[r - 1]) + 1 if r else 0
        col = int((self.raw[start:pos] == ord(",")).sum())
        line = bytes(self.raw[start : int(self.line_end[r])]).decode("utf-8", "replace")
        name = printable(self.names[col]) if col < len(self.names) else f"#{col + 1}"
        row = self.first_row + r + 1
        return EvaluationError(
            text(
                "{path}: row {row} (line {line}), column {column}: {problem} ({line_text}).",
                path=fmt.name(self.where),
                row=fmt.count(row),
                line=fmt.count(row + 1),
                column=name,
                problem=what,
                line_text=repr(line[:80]),
            )
        )


def _fields(raw: np.ndarray, line_end: np.ndarray, ncols: int, fail: _Failure) -> tuple[np.ndarray, ...]:
    """Return each value's end (its separator), start and length; raise for a row of the wrong length or an
    empty value."""
    comma = raw == ord(",")
    commas = np.searchsorted(np.flatnonzero(comma), line_end)  # commas before each line's end
    per_line = np.diff(commas, prepend=0)
    wrong = np.flatnonzero(per_line != ncols - 1)
    if wrong.size:
        r = int(wrong[0])
        values = int(per_line[r]) + 1
        said = n_(
            "{count} values where the header has {columns}", "{count} values where the header has {columns}", values
        )
        raise fail(
            int(line_end[r - 1]) + 1 if r else 0,
            said.format(count=fmt.local(str(values)), columns=fmt.local(str(ncols))),
        )
    sep = np.flatnonzero(comma | (raw == ord("\n")))
    starts = np.concatenate(([0], sep[:-1] + 1))
    length = sep - starts
    if (length == 0).any():
        raise fail(int(starts[np.flatnonzero(length == 0)[0]]), _("an empty value"))
    return sep, starts, length


def _check_signs(raw: np.ndarray, starts: np.ndarray, length: np.ndarray, fail: _Failure) -> None:
    """Raise unless every minus sign leads a value that has digits after it."""
    minus = np.flatnonzero(raw == ord("-"))
    if not minus.size:
        return
    at_start = np.isin(minus, starts)
    if not at_start.all():
        raise fail(int(minus[~at_start][0]), _("not a whole number"))
    lone = length[np.searchsorted(starts, minus)] == 1
    if lone.any():
        raise fail(int(minus[lone][0]), _("not a whole number"))


def _check_magnitudes(raw: np.ndarray, sep: np.ndarray, starts: np.ndarray, length: np.ndarray, fail: _Failure) -> None:
    """Raise for a value that does not fit in 64 bits (more than 19 digits, or 19 digits above int64's largest)."""
    digits = length - (raw[starts] == ord("-"))
    too_long = np.flatnonzero(digits > MAX_DIGITS)
    if too_long.size:
        raise fail(int(starts[too_long[0]]), text("a number of more than {count} digits", count=fmt.count(MAX_DIGITS)))
    longest = np.flatnonzero(digits == MAX_DIGITS)
    if longest.size:  # compare the 19-digit ones with int64's largest, digit by digit
        grid = raw[(sep[longest] - MAX_DIGITS)[:, None] + np.arange(MAX_DIGITS)]
        differs = grid != _INT64_MAX
        at = differs.argmax(axis=1)
        over = differs.any(axis=1) & (grid[np.arange(at.size), at] > _INT64_MAX[at])
        if over.any():
            raise fail(int(starts[longest[over][0]]), _("a number too large for 64 bits"))


def printable(text: str, limit: int = 60) -> str:
    """Return `text` cut to `limit` characters with control characters escaped (\\n, \\x1b): shown in one line,
    it cannot drive the terminal."""
    shown = text[:limit].encode("unicode_escape").decode("ascii")
    return shown + ("…" if len(text) > limit else "")


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
            first = (int(hit[0]), col, _outside(int(v[hit[0]]), low, high))
    if name == "revlogs" and columns["card_id"].size > 1:
        card, day = columns["card_id"], columns["day_offset"]
        order = np.argsort(card, kind="stable")  # each card's rows in file order
        back = (card[order][1:] == card[order][:-1]) & (day[order][1:] < day[order][:-1])
        hit = np.flatnonzero(back)
        if hit.size:
            r = int(order[1:][hit].min())
            if first is None or r < first[0]:
                first = (r, "day_offset", _("this card's day_offset goes back in time"))
    if first is not None:
        r, col, what = first
        raise EvaluationError(
            text(
                "{path}: row {row} (line {line}), column {column}: {problem}.",
                path=fmt.name(where),
                row=fmt.count(r + 1),
                line=fmt.count(r + 2),
                column=col,
                problem=what,
            )
        )


def _outside(value: int, low: int, high: int | None) -> str:
    """Return what is wrong with a value outside its column's range ("9 is outside 1–4")."""
    if high is None:
        return text("{value} is outside {low} or more", value=fmt.local(str(value)), low=fmt.count(low))
    return text(
        "{value} is outside {low}–{high}", value=fmt.local(str(value)), low=fmt.count(low), high=fmt.count(high)
    )


def _read_parquet(
    stream: IO[bytes], declared: int, where: str, wanted: tuple[str, ...] | list[str]
) -> dict[str, np.ndarray]:
    """Return a parquet file's wanted columns (needs pyarrow). Its row count and the columns' types are checked
    from its metadata before anything is decoded, and only the wanted columns are: each must hold integers."""
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise EvaluationError(_("Reading parquet needs pyarrow (pip install pyarrow); CSV needs nothing.")) from None
    limit = MAX_CSV_BYTES
    data = stream.read(limit + 1)
    if len(data) > limit or declared > limit:
        raise EvaluationError(
            text(
                "{path}: a parquet file larger than {limit} bytes, the limit.",
                path=fmt.name(where),
                limit=fmt.count(limit),
            )
        )
    try:
        file = pq.ParquetFile(io.BytesIO(data))
        if file.metadata.num_rows > MAX_ROWS:
            raise EvaluationError(_too_many_rows(where, int(file.metadata.num_rows)))
        present = [c for c in wanted if c in file.schema_arrow.names]
        _check_parquet_types(file.schema_arrow, present, where)
        table = file.read(columns=present)
    except EvaluationError:
        raise
    except Exception as err:  # pyarrow's own errors: not a parquet file, corrupt pages, ...
        raise EvaluationError(
            text(
                "{path}: not a readable parquet file ({reason}).", path=fmt.name(where), reason=printable(str(err), 120)
            )
        ) from None
    return {c: _parquet_column(table.column(c), c, where) for c in present}


def _too_many_rows(where: str, rows: int) -> str:
    return n_(
        "{path}: {count} rows, more than the limit of {limit}.",
        "{path}: {count} rows, more than the limit of {limit}.",
        rows,
    ).format(path=fmt.name(where), count=fmt.count(rows), limit=fmt.count(MAX_ROWS))


def _refused_value(where: str, row: int, column: str, template: str) -> EvaluationError:
    """Return the error of one value of a parquet column (`row` counted from 0), said with `template`."""
    return EvaluationError(text(template, path=fmt.name(where), row=fmt.count(row + 1), column=column))


def _check_parquet_types(schema: pa.Schema, columns: list[str], where: str) -> None:
    """Raise unless each column is stored as integers (not floats, booleans, text, dates or decimals)."""
    import pyarrow as pa

    for c in columns:
        kind = schema.field(c).type
        if pa.types.is_dictionary(kind):
            kind = kind.value_type
        if not pa.types.is_integer(kind):
            raise EvaluationError(
                text(
                    "{path}: column {column} holds {type}, not whole numbers.",
                    path=fmt.name(where),
                    column=c,
                    type=printable(str(kind)),
                )
            )


def _parquet_column(column: pa.ChunkedArray, name: str, where: str) -> np.ndarray:
    """Return an integer column as int64 (narrowed), refusing empty values and values beyond 64 bits."""
    if column.null_count:
        row = int(np.flatnonzero(np.asarray(column.is_null()))[0])
        raise _refused_value(where, row, name, N_("{path}: row {row}, column {column}: an empty value."))
    values = np.asarray(column.to_numpy())
    if values.dtype == np.uint64 and values.size and int(values.max()) > np.iinfo(np.int64).max:
        row = int(np.argmax(values > np.iinfo(np.int64).max))
        raise _refused_value(
            where, row, name, N_("{path}: row {row}, column {column}: a number too large for 64 bits.")
        )
    return narrow(values.astype(np.int64))
