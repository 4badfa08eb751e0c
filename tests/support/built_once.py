"""Collections kept in build/ between runs (the sample, the large living collection), built once and whole: into a
file of this process's own, then renamed into place, so that test workers running at once never see half a file."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path


def built_once(path: Path, build: Callable[[str], None]) -> str:
    """Return `path`, built by `build(path)` first when it does not exist yet."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        own = path.with_name(f".{path.name}.{os.getpid()}")
        build(str(own))
        os.replace(own, path)
    return str(path)
