"""What a failed job says: one plain sentence for every failure a learner can meet (a scope with nothing to
score, a damaged collection, the collection closed meanwhile); "" for an unexpected error, which Anki's error
handler then reports."""

from __future__ import annotations

from ..metrics.errors import EvaluationError
from ..metrics.explain import dialog as words
from ..metrics.explain.lang import _
from ..metrics.read.collection_file import damage_text, is_damage

_CLOSED = ("collectionnotopen", "collection not open", "collection is not open")


def failure_text(error: BaseException) -> str:
    """Return the sentence the dialog shows for `error`, or "" when it is not one a learner can cause."""
    if isinstance(error, EvaluationError):
        return str(error)
    if any(key in str(error).lower().replace("_", "") for key in _CLOSED):
        return _(words.COLLECTION_CLOSED)
    if is_damage(error):  # Anki's backend or SQLite cannot read part of the collection
        text = damage_text(str(error))
        return text[:1].upper() + text[1:]
    return ""
