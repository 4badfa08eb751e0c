"""Anki's own FSRS optimizer as the comparison's trainer (the backend call that takes encoded items), and
Anki's health check: the engine's only calls into Anki's backend, through the collection object it is handed.

The optimizer's raw answer is read here (its protobuf has one field the engine needs), so the engine never
imports `anki`.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .anki_collection import AnkiCollection, DeckDict


@dataclass(frozen=True)
class HealthCheck:
    """Anki's health check of one preset, as its Optimize button runs it."""

    passed: bool | None  # None: Anki ran no check (too few reviews to optimize)
    fsrs_items: int  # the training items Anki's optimizer saw
    search: str  # the preset's search the check ran on

    def to_dict(self) -> dict[str, object]:
        """Return the check as JSON-ready values."""
        return asdict(self)


HealthChecker = Callable[[str], HealthCheck | None]  # preset name -> Anki's health check (None: no such preset)


def anki_trainer(col: AnkiCollection) -> Callable[[bytes], list[float]]:
    """Return train(request bytes) -> parameters, running Anki's optimizer (compute_fsrs_params_from_items).

    The backend releases the GIL while it trains, so several trainings can run in threads.
    """

    def train(request: bytes) -> list[float]:
        return response_params(col._backend.compute_fsrs_params_from_items_raw(request))

    return train


def _varint(data: bytes, at: int) -> tuple[int, int]:
    """Return (value, position after it) of the protobuf varint at `at`."""
    value = shift = 0
    while True:
        byte = data[at]
        value |= (byte & 0x7F) << shift
        at += 1
        if byte < 0x80:
            return value, at
        shift += 7


def response_params(data: bytes) -> list[float]:
    """Return the parameters of Anki's ComputeFsrsParamsResponse (field 1: repeated float, packed or not)."""
    params: list[float] = []
    at = 0
    while at < len(data):
        key, at = _varint(data, at)
        field, wire = key >> 3, key & 7
        if wire == 2:  # length-delimited: field 1 packed floats, else skipped
            size, at = _varint(data, at)
            if field == 1:
                params += struct.unpack(f"<{size // 4}f", data[at : at + size])
            at += size
        elif wire == 5:  # one 32-bit value (an unpacked float)
            if field == 1:
                params.append(struct.unpack("<f", data[at : at + 4])[0])
            at += 4
        elif wire == 0:
            at = _varint(data, at)[1]
        elif wire == 1:
            at += 8
        else:
            raise ValueError(f"unexpected protobuf wire type {wire} in Anki's optimizer response")
    return params


@dataclass(frozen=True)
class PresetCheck:
    """What Anki's Optimize button hands its health check for one preset."""

    name: str
    search: str
    params: list[float]
    ignore_before_ms: int
    relearning_steps: int


def preset_check(conf: DeckDict) -> PresetCheck:
    """Return the health check's inputs for a preset (deck config) as Anki's Optimize button builds them: its
    "optimize search" (else `preset:"NAME" -is:suspended`), current parameters, ignore-before date and number
    of relearning steps."""
    from ..models.params import preset_raw_params
    from .collection import Preset, ignore_before_ms
    from .scope import preset_search

    name = str(conf.get("name", ""))
    search = conf.get("paramSearch") or conf.get("weightSearch") or f"{preset_search(name)} -is:suspended"
    _key, params = preset_raw_params(conf)
    preset = Preset(int(conf["id"]), name, params, ignore_before=conf.get("ignoreRevlogsBeforeDate", ""))
    steps = len((conf.get("lapse") or {}).get("delays") or [])
    return PresetCheck(name, str(search), [float(v) for v in params], ignore_before_ms(preset), steps)


def anki_health_check(col: AnkiCollection) -> HealthChecker:
    """Return check(preset name) -> Anki's health check of that preset, as Anki's Optimize button runs it.

    It is Anki's own call (compute_fsrs_params with health_check=True: it trains) on `col`, which it holds
    meanwhile: for a collection nobody else uses (the command line's copy). Inside a living Anki the dialog
    runs the same call apart (health_apart.py). Returns None when no preset has that name.
    """

    def check(name: str) -> HealthCheck | None:
        conf = next((c for c in col.decks.all_config() if c.get("name") == name), None)
        if conf is None:
            return None
        inputs = preset_check(conf)
        response = col._backend.compute_fsrs_params(
            search=inputs.search,
            current_params=inputs.params,
            ignore_revlogs_before_ms=inputs.ignore_before_ms,
            num_of_relearning_steps=inputs.relearning_steps,
            health_check=True,
        )
        passed = response.health_check_passed if response.HasField("health_check_passed") else None
        return HealthCheck(passed, int(response.fsrs_items), inputs.search)

    return check
