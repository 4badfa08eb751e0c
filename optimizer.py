"""Anki's own FSRS optimizer as the comparison's trainer (the backend call that takes encoded items)."""

from __future__ import annotations

from typing import Any


def anki_trainer(col: Any) -> Any:
    """Return train(request bytes) -> parameters, running Anki's optimizer (compute_fsrs_params_from_items).

    The backend releases the GIL while it trains, so several trainings can run in threads.
    """
    from anki.scheduler_pb2 import ComputeFsrsParamsResponse

    def train(request: bytes) -> list[float]:
        response = ComputeFsrsParamsResponse.FromString(col._backend.compute_fsrs_params_from_items_raw(request))
        return list(response.params)

    return train


def anki_health_check(col: Any) -> Any:
    """Return check(preset name) -> Anki's health check of that preset, as Anki's Optimize button runs it.

    It is Anki's own call (compute_fsrs_params with health_check=True: it trains), on the preset's
    search (its "optimize search", else `preset:"NAME" -is:suspended`), current parameters, ignore-before
    date and number of relearning steps. Returns {"passed": True/False/None, "fsrs_items", "search"}; None
    when no preset has that name.
    """
    from .metrics.collection import Preset, ignore_before_ms
    from .metrics.params import preset_raw_params

    def check(name: str) -> dict[str, Any] | None:
        conf = next((c for c in col.decks.all_config() if c.get("name") == name), None)
        if conf is None:
            return None
        escaped = name.replace("\\", "\\\\").replace('"', '\\"')
        search = conf.get("paramSearch") or conf.get("weightSearch") or f'preset:"{escaped}" -is:suspended'
        _key, params = preset_raw_params(conf)
        ignore = ignore_before_ms(
            Preset(int(conf["id"]), name, params, ignore_before=conf.get("ignoreRevlogsBeforeDate", ""))
        )
        steps = len((conf.get("lapse") or {}).get("delays") or [])
        response = col._backend.compute_fsrs_params(search=search, current_params=[float(v) for v in params],
                                                    ignore_revlogs_before_ms=ignore, num_of_relearning_steps=steps,
                                                    health_check=True)  # fmt: skip
        passed = response.health_check_passed if response.HasField("health_check_passed") else None
        return {"passed": passed, "fsrs_items": int(response.fsrs_items), "search": search}

    return check
