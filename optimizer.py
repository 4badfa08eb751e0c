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
