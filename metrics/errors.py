"""The one exception the engine raises for problems a user can fix."""

from __future__ import annotations


class EvaluationError(Exception):
    """A user-facing problem (empty scope, malformed parameters, unreadable file).

    Its message is one plain sentence, shown as-is by the CLI and the dialog.
    """


class Cancelled(Exception):
    """The caller asked the evaluation to stop (the dialog's Cancel button)."""
