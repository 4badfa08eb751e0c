"""Whether a result still describes what the dialog shows: every result carries the scope and options it was
made for and what had happened to the collection when its job started; it is current only while all of them
still hold. Nothing here touches a widget."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..metrics.explain import dialog as words
from .operations import Scope


@dataclass(frozen=True)
class Stamp:
    """What a result was made for: scope (and its words), options, and the collection's change counts then."""

    scope: Scope
    scope_text: str
    choices: tuple[tuple[str, str], ...]
    changes: int
    answered: int


@dataclass
class Freshness:
    """Counts the changes to the collection seen while the dialog is open (Anki's change hooks call `changed`
    and `answered`), and says why a result is no longer current."""

    changes: int = 0
    answers: int = 0
    _results: dict[str, Stamp] = field(default_factory=dict)

    def changed(self) -> None:
        """The collection changed (cards, decks or presets): results made before no longer hold."""
        self.changes += 1

    def answered(self) -> None:
        """A review was answered (it changed the collection too)."""
        self.answers += 1
        self.changes += 1

    def stamp(self, scope: Scope, scope_text: str, choices: dict[str, str]) -> Stamp:
        """Return the stamp of a job starting now on this scope and these options."""
        return Stamp(scope, scope_text, tuple(sorted(choices.items())), self.changes, self.answers)

    def keep(self, kind: str, stamp: Stamp | None) -> None:
        """Remember the stamp of the result of `kind` now shown (None: none shown)."""
        if stamp is None:
            self._results.pop(kind, None)
        else:
            self._results[kind] = stamp

    def has(self, kind: str) -> bool:
        """Return whether a result of `kind` is shown."""
        return kind in self._results

    def why_stale(self, kind: str, scope: Scope, choices: dict[str, str], uses_choices: bool = True) -> str:
        """Return why the result of `kind` is out of date for this scope and these options ("" when it is
        current, or when there is none)."""
        stamp = self._results.get(kind)
        if stamp is None:
            return ""
        if stamp.scope != scope:
            return words.stale(words.STALE_OTHER_SCOPE, kind, scope=stamp.scope_text)
        if uses_choices and stamp.choices != tuple(sorted(choices.items())):
            return words.stale(words.STALE_OTHER_OPTIONS, kind)
        if self.answers > stamp.answered:
            return words.answered(kind, self.answers - stamp.answered)
        if self.changes > stamp.changes:
            return words.stale(words.STALE_CHANGED, kind)
        return ""
