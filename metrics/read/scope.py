"""A scope (the whole collection, a deck with its subdecks, a preset, or any Anki search) as Anki's search and a
label that names it in messages: the one place a scope becomes a search."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import EvaluationError
from ..explain import formatting as fmt
from ..explain.lang import text

if TYPE_CHECKING:
    from .anki_collection import DeckIdT, WithDeckTree

KINDS = ("collection", "deck", "preset", "search")


def quoted(name: str) -> str:
    """Return `name` in double quotes for Anki's search language (backslashes and quotes escaped)."""
    escaped = name.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'


def preset_search(name: str) -> str:
    """Return Anki's search for the cards of the preset `name`."""
    return f"preset:{quoted(name)}"


def deck_search(col: WithDeckTree[DeckIdT], name: str) -> str:
    """Return Anki's search for a deck and its subdecks (by id), or raise if no deck has that name."""
    did = col.decks.id_for_name(name)
    if did is None:
        raise EvaluationError(text('No deck named "{deck}".', deck=fmt.name(name)))
    ids = sorted({int(did), *(int(i) for i in col.decks.deck_and_child_ids(did))})
    return "did:" + ",".join(str(i) for i in ids)


def scope_search(col: WithDeckTree[DeckIdT], kind: str, value: str = "") -> tuple[str | None, str | None]:
    """Return (Anki's search or None for every card, the label naming the scope or None: the search itself)."""
    if kind == "deck":
        return deck_search(col, value), text('deck "{deck}"', deck=fmt.name(value))
    if kind == "preset":
        return preset_search(value), text('preset "{preset}"', preset=fmt.name(value))
    if kind == "search":
        return value, None
    return None, None
