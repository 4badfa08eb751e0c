"""The one exception the engine raises for problems a user can fix."""

from __future__ import annotations


def N_(message: str) -> str:  # noqa: N802 — gettext's name: the catalog takes it, shown it is translated
    """Mark a message for the catalog where the wording may not be imported (the same as explain.lang.N_)."""
    return message


class EvaluationError(Exception):
    """A user-facing problem (empty scope, malformed parameters, unreadable file).

    Its message is one plain sentence, shown as-is by the CLI and the dialog. Raised from code that must not
    import the wording (models/: maths), it carries an English template marked for the catalog and its
    values instead (`EvaluationError(template=N_("{where}: …"), where=...)`): shown, it is translated then,
    in the language in use.
    """

    def __init__(self, message: str = "", *, template: str = "", **values: object) -> None:
        self.template, self.values = template, values
        super().__init__(message or (template.format(**values) if template else ""))

    def __str__(self) -> str:
        if not self.template:
            return super().__str__()
        from .explain.lang import text  # at display time: the language in use then

        return text(self.template, **self.values)


class Cancelled(Exception):
    """The caller asked the evaluation to stop (the dialog's Cancel button)."""
