"""What the engine uses of the Anki collection it is handed, as Protocols: the engine imports nothing of Anki, not
even its types (tests/package/test_addon_entry.py), and anki.collection.Collection satisfies each of them.

The database's answers are typed as the engine's queries give them (a group_concat: text, or NULL without rows).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Literal, Protocol, TypeVar

# A deck or a preset (deck config) as Anki hands it: JSON values, as Anki types them (DeckDict, DeckConfigDict).
DeckDict = dict[str, Any]

DeckIdT = TypeVar("DeckIdT", bound=int)  # Anki's DeckId


class Database(Protocol):
    """The queries the engine runs (anki.dbproxy.DBProxy)."""

    def first(self, sql: str, *args: int) -> Sequence[str | None] | None: ...

    def scalar(self, sql: str) -> int | None: ...

    def list(self, sql: str) -> list[int]: ...


class Scheduler(Protocol):
    @property
    def day_cutoff(self) -> int: ...


class Decks(Protocol):
    """Every deck and every preset (anki.decks.DeckManager)."""

    def all(self) -> list[DeckDict]: ...

    def all_config(self) -> list[DeckDict]: ...


class DeckTree(Protocol[DeckIdT]):
    """A deck found by its name, and its subdecks (anki.decks.DeckManager)."""

    def id_for_name(self, name: str) -> DeckIdT | None: ...

    def deck_and_child_ids(self, deck_id: DeckIdT) -> Sequence[int]: ...


class FsrsResponse(Protocol):
    """Anki's ComputeFsrsParamsResponse, as far as the health check reads it."""

    @property
    def fsrs_items(self) -> int: ...

    @property
    def health_check_passed(self) -> bool: ...

    def HasField(self, field_name: Literal["health_check_passed"]) -> bool: ...  # noqa: N802 (protobuf's name)


class Backend(Protocol):
    """The calls into Anki's backend: its optimizer and its health check (anki._backend.RustBackend)."""

    def compute_fsrs_params_from_items_raw(self, message: bytes) -> bytes: ...

    def compute_fsrs_params(
        self,
        *,
        search: str,
        current_params: Iterable[float],
        ignore_revlogs_before_ms: int,
        num_of_relearning_steps: int,
        health_check: bool,
    ) -> FsrsResponse: ...

    def set_wants_abort(self) -> object: ...


class AnkiCollection(Protocol):
    """The collection the engine reads (anki.collection.Collection); `db` is None once it is closed."""

    @property
    def db(self) -> Database | None: ...

    @property
    def sched(self) -> Scheduler: ...

    @property
    def decks(self) -> Decks: ...

    @property
    def _backend(self) -> Backend: ...

    def find_cards(self, query: str) -> Sequence[int]: ...

    def get_config(self, key: str, default: object = None) -> object: ...

    def close(self, downgrade: bool = False) -> None: ...


class WithDeckTree(Protocol[DeckIdT]):
    """A collection whose decks are found by name (anki.collection.Collection)."""

    @property
    def decks(self) -> DeckTree[DeckIdT]: ...
