"""Write what the add-on keeps per preset (see metrics/read/kept_file.py): replaced whole or not at all."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping

from ..read.kept_file import VERSION
from .safefile import safe_output


def write_kept(path: str, presets: Mapping[str, Mapping[str, object]], protected: Iterable[str] = ()) -> None:
    """Replace `path` with these entries, by preset name."""
    doc = {"version": VERSION, "presets": presets}
    with safe_output(path, protected, force=True) as f:
        f.write(json.dumps(doc, indent=1, allow_nan=False).encode("utf-8"))
