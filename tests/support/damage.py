"""Collections damaged as real disks and crashes damage them (what Anki's Check Database is for)."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path


def _corrupt_root_page(path: Path, table: str) -> None:
    con = sqlite3.connect(path)
    root = con.execute("select rootpage from sqlite_master where name = ?", (table,)).fetchone()[0]
    page_size = con.execute("pragma page_size").fetchone()[0]
    con.close()
    with open(path, "r+b") as f:
        f.seek((root - 1) * page_size)
        f.write(b"\x07" * 64)  # not a b-tree page header


# name -> (how the collection is damaged, a fragment of the one-line message)
DAMAGE: dict[str, tuple[Callable[[Path], None] | str, str]] = {
    "damaged revlog page": (lambda p: _corrupt_root_page(p, "revlog"), "cannot be read"),
    "damaged cards page": (lambda p: _corrupt_root_page(p, "cards"), "cannot be read"),
    "preset not protobuf": ("update deck_config set config = x'ffffff'", "cannot read"),
    "deck not protobuf": ("update decks set common = x'ffffff' where id != 1", "cannot read"),
    "no deck_config table": ("drop table deck_config", "deck_config"),
    "no decks table": ("drop table decks", "decks"),
}


def damage(source: str | Path, folder: Path, name: str) -> Path:
    """Return a copy of the collection `source` in `folder`, damaged as DAMAGE[name] says."""
    path = folder / "collection.anki2"
    shutil.copy(source, path)
    how = DAMAGE[name][0]
    if callable(how):
        how(path)
    else:
        con = sqlite3.connect(path)
        con.executescript(how)
        con.close()
    return path
