"""Writing an output file safely: never onto the collection, a device or a folder, whole or not at all.

Every command and dialog that writes a file goes through `safe_output`:
- the target must not be the collection or one of its side files (-wal, -shm, -journal, media
  database), whatever path, symlink or hard link leads there;
- it must be a regular file or not exist yet; an existing file is kept unless `force` is given
  (the dialog's save dialog has asked already);
- the bytes go to a new, uniquely named file in the target's folder, created exclusively (O_EXCL,
  never through a symlink), synced to disk, then renamed over the target in one step. Without
  `force` the rename is a hard link that fails if the target appeared meanwhile.
The temporary file is named `.NAME.XXXX.part` and is locked while written; a later write to the
same folder removes the leftovers of runs that were killed (their lock is gone).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Iterable, Iterator
from typing import BinaryIO, cast

from ..errors import EvaluationError
from ..explain import formatting as fmt
from ..explain.lang import _, n_, text
from . import interrupts

try:
    import fcntl
except ImportError:  # Windows: no advisory locks; leftovers of killed runs stay (they hold no personal data)
    fcntl = None  # type: ignore[assignment]

SIDE_SUFFIXES = ("", "-wal", "-shm", "-journal")
PART_SUFFIX = ".part"


def collection_files(collection: str) -> list[str]:
    """Return the collection's file and the files SQLite and Anki keep beside it."""
    base = os.path.splitext(collection)[0]
    return [collection + s for s in SIDE_SUFFIXES] + [base + ".media.db2", base + ".media.db2-wal"]


def check_target(path: str, protected: Iterable[str] = (), force: bool = False) -> str:
    """Return the absolute target path, or raise EvaluationError (one sentence) if writing there is refused."""
    if not path or not path.strip():
        raise EvaluationError(_("No output file given."))
    target = os.path.abspath(path)
    real = os.path.realpath(target)
    for name in protected:
        for side in collection_files(name):
            if os.path.realpath(side) == real or _same_file(side, target):
                raise EvaluationError(
                    text(
                        "{path}: that is the collection (or one of its files); choose another name for the output.",
                        path=fmt.name(path),
                    )
                )
    _check_existing(path, target, force)
    folder = os.path.dirname(target)
    if not os.path.isdir(folder):
        raise EvaluationError(text("{path}: no such folder.", path=fmt.name(folder)))
    return target


def _check_existing(path: str, target: str, force: bool) -> None:
    """Refuse to write over what is at `target` unless it is a regular file and `force` is given."""
    try:
        info = os.stat(target)  # through a symlink: what would really be replaced
    except FileNotFoundError:
        info = None
    except OSError as err:
        raise EvaluationError(
            text("{path}: cannot use it as the output ({reason}).", path=fmt.name(path), reason=err.strerror or err)
        ) from None
    if info is None:
        if os.path.islink(target):
            raise EvaluationError(
                text("{path}: is a symbolic link to a missing file; nothing was written.", path=fmt.name(path))
            )
        return
    if stat.S_ISDIR(info.st_mode):
        raise EvaluationError(text("{path}: is a folder; give the name of the file to write.", path=fmt.name(path)))
    if not stat.S_ISREG(info.st_mode):
        raise EvaluationError(
            text("{path}: is not a regular file (a device, pipe or socket); nothing was written.", path=fmt.name(path))
        )
    if not force:
        raise EvaluationError(_exists(path))


def _exists(path: str) -> str:
    return text("{path}: already exists; nothing was written (use --force to replace it).", path=fmt.name(path))


def _same_file(a: str, b: str) -> bool:
    """Return whether both paths exist and are the same file (hard links included)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


MAX_NAME_BYTES = 255  # the longest file name most file systems take


def part_prefix(name: str) -> str:
    """Return the start of the temporary file's name for output `name`: `.NAME.`, NAME cut short enough that
    the whole temporary name (with mkstemp's 8 characters and `.part`) stays within MAX_NAME_BYTES."""
    room = MAX_NAME_BYTES - len(".") - len(".") - 8 - len(PART_SUFFIX)
    cut = name.encode("utf-8", "surrogateescape")[:room].decode("utf-8", "ignore")
    return f".{cut}."


class _Part:
    """A temporary file beside the target, exclusively created, locked while written, removed unless used."""

    def __init__(self, target: str) -> None:
        folder, name = os.path.split(target)
        remove_dead_parts(folder, name)
        self.fd, self.path, self.file = -1, "", cast(BinaryIO, None)
        try:
            with interrupts.deferred():  # the part file and its cleanup come into being together
                self.fd, self.path = tempfile.mkstemp(prefix=part_prefix(name), suffix=PART_SUFFIX, dir=folder)
            _lock(self.fd)
            self.file = cast(BinaryIO, os.fdopen(self.fd, "wb", closefd=False))
        except BaseException:
            self.discard()
            raise

    def finish(self) -> None:
        """Put the written bytes on disk and make the file an ordinary one (mkstemp made it 0600)."""
        self.file.flush()
        os.fsync(self.fd)
        if hasattr(os, "fchmod"):
            os.fchmod(self.fd, 0o644)

    def discard(self) -> None:
        """Close the file and remove it if it was not put in place."""
        if self.file is not None:
            self.file.close()
            self.file = cast(BinaryIO, None)
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1
        if self.path:
            with contextlib.suppress(FileNotFoundError):
                os.remove(self.path)


@contextlib.contextmanager
def safe_outputs(paths: list[str], protected: Iterable[str] = (), force: bool = False) -> Iterator[list[BinaryIO]]:
    """Yield one binary file per path; when the block ends without error, every file is put in place, else none.

    Raises EvaluationError when a target is refused (see check_target) or cannot be written.
    """
    protected = list(protected)
    targets = [check_target(path, protected, force) for path in paths]
    parts: list[_Part] = []
    try:
        for target in targets:
            parts.append(_Part(target))
        yield [part.file for part in parts]
        for part in parts:
            part.finish()
        for path in paths:
            check_target(path, protected, force)  # nothing may have taken a name's place meanwhile
        interrupts.stop()  # from here on the output is written: an interruption no longer cancels it
        _commit([part.path for part in parts], targets, paths, force)
    except OSError as err:
        raise EvaluationError(_not_written(paths, err)) from None
    finally:
        for part in parts:
            part.discard()


def _not_written(paths: list[str], err: OSError) -> str:
    """Return the sentence saying that writing `paths` failed with `err` and nothing was saved."""
    reason = err.strerror or err
    if len(paths) == 1:
        return text(
            "{path}: could not write the file ({reason}); nothing was saved.", path=fmt.name(paths[0]), reason=reason
        )
    folder = os.path.commonpath([os.path.abspath(p) for p in paths])
    return n_(
        "{path}: could not write the {count} file ({reason}); nothing was saved.",
        "{path}: could not write the {count} files ({reason}); nothing was saved.",
        len(paths),
    ).format(path=fmt.name(folder), count=fmt.local(str(len(paths))), reason=reason)


@contextlib.contextmanager
def safe_output(path: str, protected: Iterable[str] = (), force: bool = False) -> Iterator[BinaryIO]:
    """Yield a binary file to write the output into; on success it replaces `path` whole, else nothing changes."""
    with safe_outputs([path], protected, force) as outs:
        yield outs[0]


def _commit(parts: list[str], targets: list[str], paths: list[str], force: bool) -> None:
    """Give each finished part its target's name; without `force`, undo the ones given if one fails."""
    done: list[str] = []
    try:
        for part, target, path in zip(parts, targets, paths, strict=True):
            if force:
                os.replace(part, target)
            else:
                _link_new(part, target, path)
            done.append(target)
    except BaseException:
        if not force:
            for target in done:
                with contextlib.suppress(OSError):
                    os.remove(target)
        raise
    for folder in {os.path.dirname(t) for t in targets}:
        _sync_folder(folder)


def _link_new(part: str, target: str, path: str) -> None:
    """Give the finished file the target's name, failing if a file of that name exists by now."""
    try:
        os.link(part, target, follow_symlinks=False)
    except FileExistsError:
        raise EvaluationError(_exists(path)) from None
    except OSError as err:
        if err.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK, errno.ENOSYS):
            raise
        os.replace(part, target)  # a file system without hard links: checked just before


def _lock(fd: int) -> None:
    """Hold an exclusive lock on the open temporary file while this process lives."""
    if fcntl is not None:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)


def _sync_folder(folder: str) -> None:
    """Make the rename durable (POSIX); a no-op where folders cannot be opened."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def remove_dead_parts(folder: str, name: str) -> None:
    """Remove `.NAME.*.part` files in `folder` that no living process holds locked (left by a killed run)."""
    if fcntl is None:
        return
    try:
        entries = os.listdir(folder)
    except OSError:
        return
    for entry in entries:
        if not (entry.startswith(part_prefix(name)) and entry.endswith(PART_SUFFIX)):
            continue
        full = os.path.join(folder, entry)
        try:
            fd = os.open(full, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
        except OSError:
            continue  # a symlink or something else: not ours, left alone
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                continue
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                continue  # a living run is writing it
            with contextlib.suppress(OSError):
                if os.path.samestat(os.fstat(fd), os.lstat(full)):  # still the file that was checked
                    os.remove(full)
        finally:
            os.close(fd)
