"""A collection file copied, with what an Anki crash left beside it, into a private folder (never opened in place).

The learner's `collection.anki2` is resolved once (a symlink to it counts as the file it points to)
and every check and read below uses that one path. It is never opened by SQLite: SQLite may create
files beside a database it opens (`-shm`, a rolled-back `-journal`), and would read a symlinked
collection without the `-wal` beside the real file. Instead its bytes are copied, under a read lock
that keeps writers out, together with the `-wal` (the changes of a session Anki did not close:
Anki keeps its collection in exclusive WAL mode, so a crash leaves them there) and a hot `-journal`
(an unfinished write). SQLite then opens the copy inside the private folder, where it applies the
`-wal` or rolls the `-journal` back exactly as Anki would when it next opens the collection.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
import threading
from collections.abc import Iterator

from ..errors import Cancelled, EvaluationError
from ..explain import formatting as fmt
from ..explain.lang import N_, text

try:
    import fcntl
except ImportError:  # Windows: the file's own lock makes reading it fail with "locked" instead
    fcntl = None  # type: ignore[assignment]

NAME = "collection.anki2"
JOURNALS = ("-wal", "-journal")  # what a crash leaves beside the collection (-shm is rebuilt from -wal)
CHUNK = 8 << 20
_SHARED_FIRST, _SHARED_SIZE = 0x40000002, 510  # SQLite's shared-lock byte range (os_unix.c)
_TABLES = {"col", "revlog", "cards", "notes"}
# Opening a FIFO for reading blocks until a writer comes: non-blocking, it returns at once (then refused).
_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)


def _locked(path: str) -> EvaluationError:
    return EvaluationError(
        text("{path}: the collection is locked (is Anki open?); close Anki and try again.", path=fmt.name(path))
    )


def _unreadable(path: str, err: OSError) -> str:
    return text("{path}: cannot be read ({reason}).", path=fmt.name(path), reason=err.strerror)


def _not_regular(path: str) -> str:
    return text("{path}: not a regular file (a pipe or a device), so not a collection file.", path=fmt.name(path))


def resolve(path: str) -> str:
    """Return the real path of the collection file `path`, or raise EvaluationError saying why it is none."""
    real = os.path.realpath(path)
    try:
        info = os.stat(real)
    except FileNotFoundError:
        raise EvaluationError(text("{path}: no such file.", path=fmt.name(path))) from None
    except OSError as err:
        raise EvaluationError(_unreadable(path, err)) from None
    if stat.S_ISDIR(info.st_mode):
        raise EvaluationError(
            text("{path}: is a folder, not a collection file (collection.anki2).", path=fmt.name(path))
        )
    if not stat.S_ISREG(info.st_mode):
        raise EvaluationError(_not_regular(path))
    return real


@contextlib.contextmanager
def _read_locked(real: str, shown: str) -> Iterator[int]:
    """Yield a descriptor of the regular file `real`, holding a read lock on SQLite's shared-lock bytes.

    Anki holds those bytes locked for writing while the collection is open (SQLite's exclusive locking
    mode): then the collection is refused. The lock keeps any other writer out while the bytes are copied.
    """
    try:
        fd = os.open(real, _READ_FLAGS)
    except PermissionError:
        raise EvaluationError(text("{path}: permission denied.", path=fmt.name(shown))) from None
    except OSError as err:
        raise EvaluationError(_unreadable(shown, err)) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # swapped since it was looked at
            raise EvaluationError(_not_regular(shown))
        if fcntl is not None:
            try:
                fcntl.lockf(fd, fcntl.LOCK_SH | fcntl.LOCK_NB, _SHARED_SIZE, _SHARED_FIRST)
            except OSError:
                raise _locked(shown) from None
        yield fd
    finally:
        os.close(fd)  # drops the lock


def _copy_bytes(fd: int, target: str, stop: threading.Event | None) -> None:
    """Copy the whole file behind `fd` into the new file `target` (setting `stop` aborts between chunks)."""
    with open(target, "xb") as out:
        offset = 0
        while True:
            if stop is not None and stop.is_set():
                raise Cancelled()
            chunk = os.pread(fd, CHUNK, offset) if hasattr(os, "pread") else _read_at(fd, offset)
            if not chunk:
                return
            out.write(chunk)
            offset += len(chunk)


def _read_at(fd: int, offset: int) -> bytes:
    os.lseek(fd, offset, os.SEEK_SET)
    return os.read(fd, CHUNK)


def _copy_journal(real: str, target: str, stop: threading.Event | None) -> None:
    """Copy the collection's `-wal` and `-journal` (when present, regular and not empty) beside `target`."""
    for suffix in JOURNALS:
        try:
            info = os.stat(real + suffix)
        except OSError:
            continue
        if not stat.S_ISREG(info.st_mode) or info.st_size == 0:
            continue  # SQLite ignores an empty one; something else is not SQLite's
        try:
            fd = os.open(real + suffix, _READ_FLAGS)
        except OSError as err:
            raise EvaluationError(
                text(
                    "{path}: Anki's unsaved changes to the collection cannot be read ({reason}).",
                    path=fmt.name(real + suffix),
                    reason=err.strerror,
                )
            ) from None
        try:
            _copy_bytes(fd, target + suffix, stop)
        finally:
            os.close(fd)


def copy_collection(path: str, folder: str, stop: threading.Event | None = None) -> str:
    """Return the path of a copy of the collection at `path` in the private `folder`, with Anki's unsaved
    changes (a crash's `-wal`) applied and an unfinished write (a hot `-journal`) rolled back.

    Raises EvaluationError (one line) for anything that is not a readable, unlocked Anki collection, and
    Cancelled when `stop` is set. Nothing is created beside the collection.
    """
    real = resolve(path)
    target = os.path.join(folder, NAME)
    with _read_locked(real, path) as fd:
        try:
            _copy_bytes(fd, target, stop)
            _copy_journal(real, target, stop)
        except OSError as err:
            raise EvaluationError(
                text(
                    "Cannot copy {path} into the temporary folder {folder} ({reason}).",
                    path=fmt.name(path),
                    folder=fmt.name(folder),
                    reason=err.strerror,
                )
            ) from None
    check_copy(target, path)
    return target


def check_copy(copy: str, shown: str) -> None:
    """Open the copy once with SQLite (which applies its -wal or rolls back its -journal, in the private
    folder); raise EvaluationError when it is not an Anki collection."""
    try:
        con = sqlite3.connect(copy, timeout=0)
        try:
            tables = {r[0] for r in con.execute("select name from sqlite_master where type = 'table'")}
            con.execute("pragma wal_checkpoint(truncate)")  # the copy becomes one file: Anki opens it as usual
        finally:
            con.close()
    except sqlite3.DatabaseError as err:
        said = str(err)
        if "not a database" in said or "encrypted" in said:
            raise EvaluationError(
                text("{path}: not an Anki collection (not an SQLite database).", path=fmt.name(shown))
            ) from None
        raise EvaluationError(text("{path}: {problem}", path=fmt.name(shown), problem=damage_text(said))) from None
    if not _TABLES <= tables:
        raise EvaluationError(text("{path}: an SQLite file, but not an Anki collection.", path=fmt.name(shown)))


# What SQLite's and Anki's messages say about a damaged file, and how we say it (with what to do).
_DAMAGE = (
    (
        "malformed",
        N_(
            "the collection is damaged: some of its pages cannot be read (SQLite: database disk image is "
            "malformed); open it in Anki and use Tools → Check Database, then try again."
        ),
    ),
    (
        "no such table",
        N_(
            "the collection is damaged: a table Anki needs is missing ({detail}); open it in Anki and use "
            "Tools → Check Database, then try again."
        ),
    ),
    (
        "no such column",
        N_(
            "the collection is damaged: a table Anki needs lacks a column ({detail}); open it in Anki and use "
            "Tools → Check Database, then try again."
        ),
    ),
    (
        "decode protobuf",
        N_(
            "the collection is damaged: a deck, a preset or a setting is stored in a form Anki cannot read "
            "({detail}); open it in Anki and use Tools → Check Database, then try again."
        ),
    ),
    (
        "disk i/o error",
        N_(
            "the collection is damaged: the file could not be read from the disk (SQLite: disk I/O error); "
            "open it in Anki and use Tools → Check Database, then try again."
        ),
    ),
)
UNREADABLE = N_(
    "Anki cannot read the collection ({error}); open it in Anki and use Tools → Check Database, then try again."
)


def damage_text(message: str) -> str:
    """Return one sentence saying what is damaged, from SQLite's or Anki's error message, and what to do."""
    low = message.lower()
    for key, said in _DAMAGE:
        if key in low:
            detail = message[low.index(key) :].split('"')[0].split(")")[0].strip(" .,\\")
            return text(said, detail=detail)
    return text(UNREADABLE, error=message.strip()[:200])


def is_damage(err: BaseException) -> bool:
    """Return whether `err` is Anki's backend or SQLite failing to read the collection's contents.

    (By class name: the engine never imports anki. A cancelled job, Anki's `Interrupted`, is not damage.)
    """
    names = {cls.__name__ for cls in type(err).__mro__}
    if isinstance(err, sqlite3.DatabaseError):
        return True
    if "DBError" in names or "BackendIOError" in names:
        return True
    return type(err).__name__ == "BackendError"  # kinds Anki has no class for, such as a protobuf it cannot decode
