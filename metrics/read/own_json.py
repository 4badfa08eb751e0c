"""A JSON file of the add-on's own (what it keeps per preset, the history of diagnoses), read as untrusted input:
at most `max_bytes`, a regular file, UTF-8 JSON; anything else is one reason in words, and nothing of it is used."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable

from ..explain import formatting as fmt
from ..explain.lang import _, text

Refusal = Callable[[str], Exception]  # the reason in words -> the error to raise


def read_own_json(path: str, max_bytes: int, refused: Refusal) -> object:
    """Return the JSON document in `path` (None when there is no such file yet); raise `refused(reason)` for a file
    that is not a regular file, larger than `max_bytes`, unreadable, or not UTF-8 JSON."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        return None
    except OSError as err:
        raise refused(err.strerror or str(err)) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):  # a folder opens too (and fails only when read)
            raise refused(_("not a regular file"))
        if info.st_size > max_bytes:
            raise refused(_size(max_bytes))
        with os.fdopen(os.dup(fd), "rb") as f:
            raw = f.read(max_bytes + 1)
    except OSError as err:  # unreadable, or gone meanwhile
        raise refused(err.strerror or str(err)) from None
    finally:
        os.close(fd)
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise refused(_("not JSON")) from None


def _size(max_bytes: int) -> str:
    """Return the size limit in words: in MB from one MB on when whole, else in KB."""
    mb = 1024 * 1024
    if max_bytes > mb and max_bytes % mb == 0:
        return text("larger than {size} MB", size=fmt.local(str(max_bytes // mb)))
    return text("larger than {size} KB", size=fmt.local(str(max_bytes // 1024)))
