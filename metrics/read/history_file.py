"""The add-on's own record of past diagnoses (a JSON file in its user files, never in the collection),
read as untrusted input: a file this add-on did not write, or damaged, is one clear message."""

from __future__ import annotations

from ..errors import EvaluationError
from ..explain import formatting as fmt
from ..explain.lang import _, text
from .dataset import printable
from .own_json import read_own_json

MAX_BYTES = 4 * 1024 * 1024  # about 10,000 summaries; the add-on keeps far fewer
VERSION = 1


def read_history(path: str) -> list[dict[str, object]]:
    """Return the summaries recorded in `path`, oldest first ([] when there is no such file yet)."""
    doc = read_own_json(path, MAX_BYTES, lambda why: HistoryUnreadable(path, why))
    if doc is None:
        return []
    if not isinstance(doc, dict) or doc.get("version") != VERSION or not isinstance(doc.get("diagnoses"), list):
        raise HistoryUnreadable(path, _("not a history this add-on wrote"))
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
