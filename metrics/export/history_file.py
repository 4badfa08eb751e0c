"""Write the record of past diagnoses (see metrics/read/history_file.py): the file is replaced whole or not
at all, and holds the last KEEP summaries."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence

from ..read.history_file import VERSION
from .safefile import safe_output

KEEP = 200  # summaries kept, the oldest dropped first


def write_history(path: str, diagnoses: Sequence[Mapping[str, object]], protected: Iterable[str] = ()) -> None:
    """Replace `path` with these summaries (oldest first), keeping the last KEEP."""
    doc = {"version": VERSION, "diagnoses": diagnoses[-KEEP:]}
    with safe_output(path, protected, force=True) as f:
        f.write(json.dumps(doc, indent=1, allow_nan=False).encode("utf-8"))
