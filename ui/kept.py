"""What the dialog's jobs keep per preset for Deck Options (metrics/jobs/kept.py), in the add-on's own file:
called in the worker, after an evaluation or a diagnosis of a scope that holds whole presets. A file that
cannot be read is never replaced; any problem is one plain line for the dialog."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol

from ..metrics.explain import dialog as words

if TYPE_CHECKING:
    from ..metrics.jobs.diagnose.plan import PresetPlan
    from ..metrics.jobs.evaluate import Evaluation
    from ..metrics.read.collection import CollectionData


class Scope(Protocol):
    """The job's scope (operations.Scope): its kind and value."""

    @property
    def kind(self) -> str: ...

    @property
    def value(self) -> str: ...


def keep(
    path: str | None,
    scope: Scope,
    collection: str,
    data: CollectionData,
    evaluation: Evaluation | None = None,
    plan: list[PresetPlan] | None = None,
) -> list[str]:
    """Add to the file at `path` the numbers of an evaluation (with its data) or the plan of a diagnosis of
    `scope`; return the lines that say what went wrong (none when nothing did, or nothing is kept)."""
    from ..metrics.errors import EvaluationError
    from ..metrics.explain.lang import text
    from ..metrics.export.kept_file import write_kept
    from ..metrics.jobs import kept
    from ..metrics.read.kept_file import KeptUnreadable, read_kept

    if not path or scope.kind not in kept.WHOLE_SCOPES:
        return []
    if evaluation is not None:
        if not kept.standard(evaluation):
            return []
        new: Mapping[str, Mapping[str, object]] = kept.evaluated(evaluation, data)
    else:
        new = kept.diagnosed(plan or [], scope.kind, scope.value, data)
    try:
        old = read_kept(path)
    except KeptUnreadable as err:
        return [text(words.KEPT_UNREADABLE, why=err.why, path=err.path)]
    try:
        write_kept(path, kept.merged(old, new), protected=[collection])
    except (EvaluationError, OSError, ValueError) as err:
        return [text(words.KEPT_UNWRITABLE, reason=getattr(err, "strerror", None) or err)]
    return []
