"""Read the parts of an Anki collection the engine needs into arrays (the only module that touches `col`).

It uses only the collection object it is handed (`col.db`, `col.sched.day_cutoff`,
`col.decks`, `col.find_cards`, `col.get_config`) and never writes.
"""

from __future__ import annotations

import datetime as _dt
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from ..errors import EvaluationError
from ..explain import formatting as fmt
from ..explain import newer
from ..explain.lang import _, text
from ..models.params import newer_model, preset_raw_params
from .collection_file import is_damage
from .revlog_table import Revlog, stable_order

if TYPE_CHECKING:
    from .anki_collection import AnkiCollection, Database

DEFAULT_PRESET_ID = 1
_CHUNK_ROWS = 1_000_000  # revlog rows per range query: bounds the size of one result string
# Inside a living Anki each query holds the collection while it runs (about 0.6 s per million rows): the
# dialog reads in smaller chunks, so that a card answered meanwhile waits at most one of them.
LIVING_CHUNK_ROWS = 100_000


@dataclass(frozen=True)
class Preset:
    """A deck options preset: its name, raw parameter list and ignore-before date."""

    id: int
    name: str
    params: list[Any]
    params_key: str = ""  # fsrsParams6 / fsrsParams5 / fsrsWeights, "" when none
    ignore_before: str = ""
    desired_retention: float | None = None
    newer_model: str = ""  # a newer FSRS than the replay knows ("FSRS-7"): its cards are left out of every number


@dataclass(frozen=True)
class LeftOut:
    """The cards in scope of a preset set to an FSRS the replay does not know, left out of every number."""

    preset: str
    model: str
    cards: int


@dataclass(frozen=True)
class CollectionData:
    """Everything evaluation needs from one collection and scope, as arrays and small dicts."""

    revlog: Revlog  # entries of the cards in scope, sorted by (card, id)
    card_ids: np.ndarray  # int64, sorted; `revlog.card` indexes it
    home_deck: np.ndarray  # int64 per card: odid when in a filtered deck, else did
    card_note: np.ndarray  # int64 note id per card
    next_day_at: int
    deck_names: dict[int, str] = field(default_factory=dict)  # every deck, filtered ones too
    deck_preset: dict[int, int] = field(default_factory=dict)  # normal deck id -> preset id
    presets: dict[int, Preset] = field(default_factory=dict)
    fsrs_enabled: bool = False
    scope: str = ""
    leech_notes: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))  # sorted note ids
    left_out: tuple[LeftOut, ...] = ()  # presets on a newer FSRS, whose cards are not in the arrays


def _parse_ints(text: str | None) -> np.ndarray | None:
    """Return the comma-separated integers of `text` as int64, or None if any is not an integer."""
    if not text:
        return np.zeros(0, dtype=np.int64)
    expected = text.count(",") + 1
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # older numpy warns and stops at a value it cannot parse
            values = np.fromstring(text, dtype=np.int64, sep=",")  # text mode: fast and exact
    except ValueError:  # newer numpy raises instead
        return None
    return values if values.size == expected else None


def _db(col: AnkiCollection) -> Database:
    """Return the collection's database (None once the collection closed: the read then fails as it always did)."""
    return cast("Database", col.db)


def _int_columns(col: AnkiCollection, select: str, columns: Sequence[tuple[str, str]], *args: int) -> list[np.ndarray]:
    """Return integer columns aggregated by one query, as equally long int64 arrays.

    Each column is (expression, robust expression). The plain expressions are read first; if any
    value is not an integer (a REAL or text written by some tool) the query is repeated with the
    robust ones, which cast every value to an integer.
    """
    for robust in (False, True):
        exprs = ", ".join(f"group_concat({pair[1] if robust else pair[0]}, ',')" for pair in columns)
        row = _db(col).first(select.format(exprs), *args) or [None] * len(columns)
        arrays = [a for a in (_parse_ints(text) for text in row) if a is not None]
        if len(arrays) == len(columns) and len({a.size for a in arrays}) == 1:
            return arrays
    raise EvaluationError(_("The collection holds revlog or card values that cannot be read as whole numbers."))


def _int(column: str) -> tuple[str, str]:
    """Return a column read as stored, and cast to an integer for odd rows."""
    return column, f"ifnull(cast({column} as integer), 0)"


# The small revlog columns packed into one integer: ease * 16 + kind * 2 + (factor == 0).
# The kind follows Anki's reading of `type` (rslib storage/revlog): the value as u8 when it is
# 0..5, else Learning (0) - including REAL or text values, which fail Anki's integer conversion.
_KIND = "(case when typeof(type) = 'integer' and (type & 255) between 0 and 5 then (type & 255) else 0 end)"
_PACKED = (
    f"ease*16 + {_KIND}*2 + (factor = 0)",
    f"ifnull(cast(ease as integer), 0)*16 + {_KIND}*2 + (ifnull(factor, 0) = 0)",
)


def _revlog_rows(
    col: AnkiCollection, with_durations: bool = False, with_intervals: bool = False, chunk_rows: int = _CHUNK_ROWS
) -> list[np.ndarray]:
    """Return [id, cid, packed(, time)(, ivl)] of the whole revlog in id order, read in chunks of `chunk_rows`."""
    total = int(_db(col).scalar("select count() from revlog") or 0)
    wanted = [_int("id"), _int("cid"), _PACKED]
    wanted += ([_int("time")] if with_durations else []) + ([_int("ivl")] if with_intervals else [])
    columns = [np.empty(total, dtype=np.int64) for _ in wanted]  # filled in place: no concatenation peak
    filled = 0
    start = -(2**63)
    while True:
        last = total - filled <= chunk_rows  # the rest fits in one chunk: a plain scan, no subquery
        chunk = _int_columns(
            col,
            "select {} from revlog where id >= ?"
            if last
            else "select {} from (select id, cid, ease, type, factor, time, ivl from revlog"
            " where id >= ? order by id limit ?)",
            wanted,
            start,
            *(() if last else (chunk_rows,)),
        )
        size = chunk[0].size
        if filled + size > total:  # rows added since the count (only possible on a live collection)
            columns = [np.concatenate([c[:filled], np.empty(size, dtype=np.int64)]) for c in columns]
            total = filled + size
        for column, values in zip(columns, chunk, strict=True):
            column[filled : filled + size] = values
        filled += size
        if last or size < chunk_rows:
            break
        start = int(chunk[0].max()) + 1  # the next chunk starts after every id read so far
    columns = [c[:filled] for c in columns]
    if filled > 1 and not np.all(columns[0][1:] > columns[0][:-1]):  # SQLite scans rowid order; make sure
        by_id = np.argsort(columns[0], kind="stable")
        columns = [c[by_id] for c in columns]
    return columns


def _date_ms(text: str) -> int:
    """Return a "YYYY-MM-DD" date as milliseconds at UTC midnight (0 for an empty string)."""
    if not text:
        return 0
    day = _dt.datetime.strptime(text.strip(), "%Y-%m-%d").replace(tzinfo=_dt.UTC)
    return int(day.timestamp() * 1000)


def ignore_before_ms(preset: Preset | None) -> int:
    """Return the preset's ignoreRevlogsBeforeDate in ms (0 when unset)."""
    if preset is None or not preset.ignore_before:
        return 0
    try:
        return _date_ms(preset.ignore_before)
    except ValueError:
        raise EvaluationError(
            text(
                'Preset "{preset}": the ignore-before date {date} is not a YYYY-MM-DD date.',
                preset=fmt.name(preset.name),
                date=repr(preset.ignore_before),
            )
        ) from None


def read_collection(
    col: AnkiCollection,
    search: str | None = None,
    scope_label: str | None = None,
    with_durations: bool = False,
    with_intervals: bool = False,
    chunk_rows: int = _CHUNK_ROWS,
    all_models: bool = False,
    card_ids: np.ndarray | None = None,
) -> CollectionData:
    """Return the revlog, cards, decks and presets of the cards matching `search` (all cards if None).

    `scope_label` names the scope in messages (e.g. 'deck "Spanish"'); by default the search itself.
    `with_durations` also reads each review's time taken (for the benchmark export), `with_intervals`
    the interval Anki scheduled (for comparisons); `chunk_rows` bounds the revlog rows one query reads. The
    cards of presets set to an FSRS newer than the replay knows are left out (`left_out` names them), unless
    `all_models` (the export: review data, no predictions). `card_ids` (sorted) keeps only those cards
    (the Browser's selection: no search string, however many).
    """
    next_day_at = int(col.sched.day_cutoff)
    cards = _cards(col, search, scope_label)
    if card_ids is not None:
        cards = cards[np.isin(cards[:, 0], card_ids)]
        if cards.size == 0:
            raise EvaluationError(
                text("No cards in {scope}: they were deleted meanwhile.", scope=scope_label)
                if scope_label
                else _("No cards in the selection: they were deleted meanwhile.")
            )
    deck_names, deck_preset = _decks(col)
    presets = _presets(col)
    left_out: tuple[LeftOut, ...] = ()
    if not all_models:
        cards, left_out = _replayable(cards, deck_preset, presets, scope_label or (fmt.name(search) if search else ""))
    card_ids = cards[:, 0]
    revlog = _revlog(col, card_ids, with_durations, with_intervals, chunk_rows)
    return CollectionData(
        revlog=revlog,
        card_ids=card_ids,
        home_deck=np.where(cards[:, 2] != 0, cards[:, 2], cards[:, 1]),
        card_note=cards[:, 3],
        next_day_at=next_day_at,
        deck_names=deck_names,
        deck_preset=deck_preset,
        presets=presets,
        fsrs_enabled=bool(col.get_config("fsrs", False)),
        scope=search or "",
        leech_notes=_leech_notes(col),
        left_out=left_out,
    )


def _replayable(
    cards: np.ndarray, deck_preset: dict[int, int], presets: dict[int, Preset], scope: str | None
) -> tuple[np.ndarray, tuple[LeftOut, ...]]:
    """Return the cards whose preset the replay knows, and the presets left out with their card counts."""
    unknown = {pid for pid, p in presets.items() if p.newer_model}
    if not unknown or cards.size == 0:
        return cards, ()
    home = np.where(cards[:, 2] != 0, cards[:, 2], cards[:, 1])
    fallback = DEFAULT_PRESET_ID if DEFAULT_PRESET_ID in presets else -1
    decks, inverse = np.unique(home, return_inverse=True)
    of_deck = [deck_preset.get(int(d), fallback) for d in decks.tolist()]
    card_preset = np.array([p if p in presets else fallback for p in of_deck], dtype=np.int64)[inverse.reshape(-1)]
    dropped = np.isin(card_preset, np.array(sorted(unknown), dtype=np.int64))
    left = tuple(
        LeftOut(presets[pid].name, presets[pid].newer_model, int(np.count_nonzero(card_preset == pid)))
        for pid in sorted(unknown, key=lambda i: presets[i].name.lower())
        if np.any(card_preset == pid)
    )
    if dropped.all():
        lines = [newer.left_out_line(x.preset, x.model, x.cards) for x in left]
        lines.append(text(newer.NOTHING_ELSE, scope=scope or _(newer.THE_COLLECTION)))
        raise EvaluationError(" ".join(lines))
    return cards[~dropped], left


def _leech_notes(col: AnkiCollection) -> np.ndarray:
    """Return the sorted ids of the notes tagged "leech" (Anki's tag for cards forgotten again and again)."""
    rows = _db(col).list("select id from notes where (' ' || tags || ' ') like '% leech %'")
    return np.array(sorted(int(r) for r in rows), dtype=np.int64)


def _cards(col: AnkiCollection, search: str | None, scope_label: str | None) -> np.ndarray:
    """Return [id, did, odid, nid] of the cards matching `search` (all cards if None), in id order."""
    cards = np.stack(
        _int_columns(col, "select {} from cards", (_int("id"), _int("did"), _int("odid"), _int("nid"))), axis=1
    )
    if cards.size:
        cards = cards[np.argsort(cards[:, 0], kind="stable")]
    if search is not None and search.strip():
        try:
            wanted = np.array(sorted(col.find_cards(search)), dtype=np.int64)
        except Exception as err:  # anki.errors.SearchError and friends; metrics/ cannot import anki
            if is_damage(err):
                raise  # the collection's fault, not the search's: said as such by the caller
            raise EvaluationError(
                text("The search {search} is not valid: {error}", search=fmt.name(repr(search)), error=err)
            ) from None
        if wanted.size == 0:
            raise EvaluationError(
                text("No cards in {scope}.", scope=scope_label)
                if scope_label
                else text("No cards match the search {search}.", search=fmt.name(repr(search)))
            )
        cards = cards[np.isin(cards[:, 0], wanted)]
    elif cards.size == 0:
        raise EvaluationError(_("The collection has no cards."))
    return cards


def _revlog(
    col: AnkiCollection, card_ids: np.ndarray, with_durations: bool, with_intervals: bool, chunk_rows: int = _CHUNK_ROWS
) -> Revlog:
    """Return the revlog entries of these cards (sorted ids), by card, then time."""
    rid, cid, packed, *rest = _revlog_rows(col, with_durations, with_intervals, chunk_rows)
    pos = np.searchsorted(card_ids, cid).astype(np.int32)
    np.minimum(pos, max(card_ids.size - 1, 0), out=pos)
    take = np.flatnonzero(card_ids[pos] == cid) if card_ids.size else np.zeros(0, dtype=np.int64)
    del cid
    take = take[stable_order(pos[take])]  # by card, then time (the rows come in id order)
    packed = packed[take]
    return Revlog(
        id=rid[take],
        card=pos[take],
        ease=np.clip(packed >> 4, -(2**31), 2**31 - 1).astype(np.int32),
        type=((packed & 15) >> 1).astype(np.int8),
        factor=(1 - (packed & 1)).astype(np.int8),  # only whether the row's factor is 0 matters
        duration=rest[0][take] if with_durations else None,
        ivl=rest[-1][take] if with_intervals else None,
        time_rank=take.astype(np.int32) if rid.size < 2**31 else take,
    )


def _decks(col: AnkiCollection) -> tuple[dict[int, str], dict[int, int]]:
    """Return every deck's name (filtered ones too) and each normal deck's preset."""
    deck_names: dict[int, str] = {}
    deck_preset: dict[int, int] = {}
    for deck in col.decks.all():
        did = int(deck["id"])
        deck_names[did] = str(deck["name"])
        if not deck.get("dyn"):
            deck_preset[did] = int(deck.get("conf", DEFAULT_PRESET_ID) or DEFAULT_PRESET_ID)
    return deck_names, deck_preset


def _presets(col: AnkiCollection) -> dict[int, Preset]:
    """Return every preset (deck options) by id."""
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
            newer_model=newer_model(conf),
        )
    return presets
