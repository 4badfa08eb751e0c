"""Read the parts of an Anki collection the engine needs into arrays (the only module that touches `col`).

It uses only the collection object it is handed (`col.db`, `col.sched.day_cutoff`,
`col.decks`, `col.find_cards`, `col.get_config`) and never writes.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .errors import EvaluationError
from .params import preset_raw_params
from .revlog import Revlog

DEFAULT_PRESET_ID = 1
_CHUNK_ROWS = 1_000_000  # revlog rows per range query: bounds the size of one result string


@dataclass(frozen=True)
class Preset:
    """A deck options preset: its name, raw parameter list and ignore-before date."""

    id: int
    name: str
    params: list[Any]
    params_key: str = ""  # fsrsParams6 / fsrsParams5 / fsrsWeights, "" when none
    ignore_before: str = ""
    desired_retention: float | None = None


@dataclass(frozen=True)
class CollectionData:
    """Everything evaluation needs from one collection and scope, as arrays and small dicts."""

    revlog: Revlog  # entries of the cards in scope, sorted by (card, id)
    card_ids: np.ndarray  # int64, sorted; `revlog.card` indexes it
    home_deck: np.ndarray  # int64 per card: odid when in a filtered deck, else did
    next_day_at: int
    deck_names: dict[int, str] = field(default_factory=dict)
    deck_preset: dict[int, int] = field(default_factory=dict)  # normal deck id -> preset id
    presets: dict[int, Preset] = field(default_factory=dict)
    fsrs_enabled: bool = False
    scope: str = ""


def _int_table(col: Any, sql: str, columns: int, *args: Any) -> np.ndarray:
    """Return the rows of a group_concat query as an (n, columns) int64 array."""
    text = col.db.scalar(sql, *args)
    if not text:
        return np.zeros((0, columns), dtype=np.int64)
    flat = np.fromstring(text, dtype=np.int64, sep=",")  # text mode: fast and exact for integers
    if flat.size % columns:
        raise EvaluationError("The collection holds revlog or card rows that are not whole numbers.")
    return flat.reshape(-1, columns)


def _revlog_rows(col: Any) -> np.ndarray:
    """Return (id, cid, ease, type, factor) of the whole revlog in one pass over id ranges."""
    cols = "id||','||cast(cid as integer)||','||cast(ease as integer)||','||cast(type as integer)||','||cast(factor as integer)"
    total, lo, hi = col.db.first("select count(), min(id), max(id) from revlog")
    if not total:
        return np.zeros((0, 5), dtype=np.int64)
    chunks = max(1, -(-int(total) // _CHUNK_ROWS))
    edges = np.linspace(int(lo), int(hi) + 1, chunks + 1).astype(np.int64)
    edges[-1] = int(hi) + 1
    parts = [
        _int_table(col, f"select group_concat({cols}, ',') from revlog where id >= ? and id < ?", 5, int(a), int(b))
        for a, b in zip(edges[:-1], edges[1:])
        if b > a
    ]
    return np.concatenate(parts) if parts else np.zeros((0, 5), dtype=np.int64)


def _date_ms(text: str) -> int:
    """Return a "YYYY-MM-DD" date as milliseconds at UTC midnight (0 for an empty string)."""
    if not text:
        return 0
    day = _dt.datetime.strptime(text.strip(), "%Y-%m-%d").replace(tzinfo=_dt.timezone.utc)
    return int(day.timestamp() * 1000)


def ignore_before_ms(preset: Preset | None) -> int:
    """Return the preset's ignoreRevlogsBeforeDate in ms (0 when unset)."""
    if preset is None or not preset.ignore_before:
        return 0
    try:
        return _date_ms(preset.ignore_before)
    except ValueError:
        raise EvaluationError(
            f'Preset "{preset.name}": the ignore-before date {preset.ignore_before!r} is not a YYYY-MM-DD date.'
        ) from None


def deck_search(col: Any, name: str) -> str:
    """Return Anki's search for a deck and its subdecks (by id), or raise if no deck has that name."""
    did = col.decks.id_for_name(name)
    if did is None:
        raise EvaluationError(f'No deck named "{name}".')
    ids = sorted({int(did), *(int(i) for i in col.decks.deck_and_child_ids(did))})
    return "did:" + ",".join(str(i) for i in ids)


def read_collection(col: Any, search: str | None = None) -> CollectionData:
    """Return the revlog, cards, decks and presets of the cards matching `search` (all cards if None)."""
    next_day_at = int(col.sched.day_cutoff)
    cards = _int_table(
        col,
        "select group_concat(id||','||cast(did as integer)||','||cast(odid as integer), ',') from cards",
        3,
    )
    if cards.size:
        cards = cards[np.argsort(cards[:, 0], kind="stable")]
    if search is not None and search.strip():
        try:
            wanted = np.array(sorted(col.find_cards(search)), dtype=np.int64)
        except Exception as err:  # anki.errors.SearchError and friends; metrics/ cannot import anki
            raise EvaluationError(f"The search {search!r} is not valid: {err}") from None
        if wanted.size == 0:
            raise EvaluationError(f"No cards match the search {search!r}.")
        cards = cards[np.isin(cards[:, 0], wanted)]
    elif cards.size == 0:
        raise EvaluationError("The collection has no cards.")
    card_ids = cards[:, 0]
    home = np.where(cards[:, 2] != 0, cards[:, 2], cards[:, 1])

    rows = _revlog_rows(col)
    pos = np.searchsorted(card_ids, rows[:, 1])
    pos_c = np.minimum(pos, max(card_ids.size - 1, 0))
    in_scope = (pos < card_ids.size) & (card_ids[pos_c] == rows[:, 1]) if card_ids.size else np.zeros(len(rows), bool)
    rows, pos = rows[in_scope], pos[in_scope]
    order = np.lexsort((rows[:, 0], pos))
    rows, pos = rows[order], pos[order]
    revlog = Revlog(id=rows[:, 0], card=pos, ease=rows[:, 2], type=rows[:, 3], factor=rows[:, 4])

    deck_names: dict[int, str] = {}
    deck_preset: dict[int, int] = {}
    for deck in col.decks.all():
        did = int(deck["id"])
        deck_names[did] = str(deck["name"])
        if not deck.get("dyn"):
            deck_preset[did] = int(deck.get("conf", DEFAULT_PRESET_ID) or DEFAULT_PRESET_ID)
    presets: dict[int, Preset] = {}
    for conf in col.decks.all_config():
        key, values = preset_raw_params(conf)
        presets[int(conf["id"])] = Preset(
            id=int(conf["id"]),
            name=str(conf.get("name", "")),
            params=values,
            params_key=key,
            ignore_before=str(conf.get("ignoreRevlogsBeforeDate") or ""),
            desired_retention=conf.get("desiredRetention"),
        )
    return CollectionData(
        revlog=revlog,
        card_ids=card_ids,
        home_deck=home,
        next_day_at=next_day_at,
        deck_names=deck_names,
        deck_preset=deck_preset,
        presets=presets,
        fsrs_enabled=bool(col.get_config("fsrs", False)),
        scope=search or "",
    )
