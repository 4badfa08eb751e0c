"""The FSRS benchmark's dataset layout (anki-revlogs-10k): its three tables and their columns, as the export writes
them and the dataset reader reads them."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

REVLOG_COLUMNS = ("card_id", "day_offset", "rating", "state", "duration", "elapsed_days", "elapsed_seconds")
CARD_COLUMNS = ("card_id", "note_id", "deck_id")
DECK_COLUMNS = ("deck_id", "parent_id", "preset_id")
TABLES = {"revlogs": REVLOG_COLUMNS, "cards": CARD_COLUMNS, "decks": DECK_COLUMNS}
FORMAT_VERSION = 1
USER = "user_id=0"
ROOT = -1  # parent_id of a top-level deck (every other parent_id is a deck_id of the table)


@dataclass(frozen=True)
class Tables:
    """The three tables, each a dict of equally long int64 columns."""

    revlogs: dict[str, np.ndarray]
    cards: dict[str, np.ndarray]
    decks: dict[str, np.ndarray]

    def rows(self) -> dict[str, int]:
        """Return the row count of each table."""
        return {name: int(len(next(iter(getattr(self, name).values())))) for name in TABLES}
