"""The add-on's own record of past diagnoses (a JSON file in its user files, never in the collection),
read as untrusted input: a file this add-on did not write, or damaged, is one clear message."""

from __future__ import annotations

import json
import os
import stat
from typing import Any

from ..errors import EvaluationError
from ..explain import formatting as fmt
from ..explain.lang import _, text
from .dataset import printable

MAX_BYTES = 4 * 1024 * 1024  # about 10,000 summaries; the add-on keeps far fewer
VERSION = 1


def read_history(path: str) -> list[dict[str, Any]]:
    """Return the summaries recorded in `path`, oldest first ([] when there is no such file yet)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        return []
    except OSError as err:
        raise _refused(path, err.strerror or str(err)) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):  # a folder opens too (and fails only when read)
            raise _refused(path, _("not a regular file"))
        if info.st_size > MAX_BYTES:
            raise _refused(path, text("larger than {size} MB", size=fmt.local(str(MAX_BYTES // 1024 // 1024))))
        with os.fdopen(os.dup(fd), "rb") as f:
            raw = f.read(MAX_BYTES + 1)
    except OSError as err:  # unreadable, or gone meanwhile
        raise _refused(path, err.strerror or str(err)) from None
    finally:
        os.close(fd)
    try:
        doc = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise _refused(path, _("not JSON")) from None
    if not isinstance(doc, dict) or doc.get("version") != VERSION or not isinstance(doc.get("diagnoses"), list):
        raise _refused(path, _("not a history this add-on wrote"))
    return [d for d in doc["diagnoses"] if isinstance(d, dict)]


class HistoryUnreadable(EvaluationError):
    """The history file cannot be read (`why`); it is left as it is."""

    def __init__(self, path: str, why: str) -> None:
        super().__init__(
            text(
                "{path}: cannot read the history of diagnoses ({reason}); move the file away or name another.",
                path=fmt.name(printable(path, 200)),
                reason=why,
            )
        )
        self.path, self.why = printable(path, 200), why


def _refused(path: str, why: str) -> HistoryUnreadable:
    return HistoryUnreadable(path, why)
