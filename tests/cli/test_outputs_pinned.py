"""Every command's output on the test collections, pinned byte for byte across restructurings of the code.

The numbers themselves are checked against Anki's own code, published test vectors and hand-computed
examples in the other tests; this one only makes sure that moving code around changes no number and no
JSON field. The pins in tests/cli/pins/ were written by the code as it stood before the restructuring
(`PIN_REGENERATE=1 pytest tests/cli/test_outputs_pinned.py` writes them anew: do that only for a change that
is meant to change an output, and say so in its commit).
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import os
import zipfile
from pathlib import Path

import pytest
from support.builder import build_mixed
from support.learners import build

from fsrs_calibration.cli.commands import main

PINS = Path(__file__).parent / "pins"
REGENERATE = os.environ.get("PIN_REGENERATE") == "1"


def _anki_version() -> str:
    from anki.buildinfo import version

    return version


# The pins hold the outputs on the Anki they were written with: some rules follow the installed Anki
# (its same-day Hard rule, its health check), so on another Anki (the oldest supported) they differ by design.
PINNED_ANKI = (PINS / "anki-version.txt").read_text().strip()
pytestmark = pytest.mark.skipif(
    _anki_version() != PINNED_ANKI and not REGENERATE, reason=f"the pins were written on Anki {PINNED_ANKI}"
)


@pytest.fixture(autouse=True)
def _utc(monkeypatch):
    """The pins were written in UTC: months ("over_time") follow the computer's time zone."""
    import time

    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


EVALUATE_VARIANTS = {
    "evaluate": ["--json"],
    "evaluate-anki-legacy": ["--json", "--weighting", "recency", "--same-day", "keep"],
    "evaluate-wiki-bins": ["--json", "--binning", "wiki"],
    "evaluate-defaults": ["--json", "--params", "default"],
    "evaluate-drop-same-day": ["--json", "--same-day", "drop"],
    "evaluate-deck": ["--json", "--deck", "Six"],
    "evaluate-search": ["--json", "--search", 'preset:"P5" -is:suspended'],
    "evaluate-report": [],
}


def _built(name: str, path: str) -> None:
    """Build the pinned collection `name` at `path` (done once: its file is kept in tests/cli/pins/)."""
    if name == "mixed":
        build_mixed(path, seed=7)["builder"].close()
    else:
        build(path, 1, hard_share=0.7, cards=300, days=200)


@pytest.fixture(scope="module")
def collections(tmp_path_factory) -> dict[str, str]:
    """Return the pinned collections, unpacked from tests/cli/pins/ (the builder answers a few cards at the
    real clock, so a collection built anew differs in a second here and there: the inputs are kept)."""
    paths = {}
    if REGENERATE:
        (PINS / "anki-version.txt").write_text(_anki_version() + "\n")
    for name in ("mixed", "learner"):
        path = str(tmp_path_factory.mktemp(f"pin-{name}") / "collection.anki2")
        packed = PINS / f"{name}.anki2.gz"
        if not packed.exists():
            assert REGENERATE, f"no {packed.name}: write the pins with PIN_REGENERATE=1"
            _built(name, path)
            PINS.mkdir(exist_ok=True)
            packed.write_bytes(gzip.compress(Path(path).read_bytes(), 9, mtime=0))
        Path(path).write_bytes(gzip.decompress(packed.read_bytes()))
        paths[name] = path
    return paths


def _run(capsys, *argv: str) -> str:
    status = main(list(argv))
    captured = capsys.readouterr()
    assert status == 0, captured.err
    return captured.out


def _zip_listing(path: Path) -> str:
    """Return the zip's members and their contents (versions left out of metadata.json: they are not numbers)."""
    lines = []
    with zipfile.ZipFile(path) as z:
        for info in z.infolist():
            data = z.read(info)
            if info.filename == "metadata.json":
                meta = json.loads(data)
                meta.pop("addon_version", None)
                meta.pop("anki_version", None)
                data = json.dumps(meta, sort_keys=True).encode()
            if info.filename.endswith(".parquet"):
                import pyarrow.parquet as pq

                table = pq.read_table(io.BytesIO(data))
                data = json.dumps(table.to_pydict(), sort_keys=True).encode()
            lines.append(f"{info.filename} {len(data)} {hashlib.sha256(data).hexdigest()}")
    return "\n".join(lines) + "\n"


def _check(name: str, text: str) -> None:
    pin = PINS / f"{name}.txt"
    if REGENERATE:
        PINS.mkdir(exist_ok=True)
        pin.write_text(text, encoding="utf-8")
        return
    assert pin.exists(), f"no pin {pin.name}: write the pins with PIN_REGENERATE=1"
    assert text == pin.read_text(encoding="utf-8"), f"the output of {name} changed"


@pytest.mark.parametrize("variant", list(EVALUATE_VARIANTS))
def test_evaluate_is_pinned(collections, capsys, variant):
    _check(f"mixed-{variant}", _run(capsys, "evaluate", collections["mixed"], *EVALUATE_VARIANTS[variant]))


@pytest.mark.parametrize("which", ["mixed", "learner"])
def test_compare_is_pinned(collections, capsys, which):
    _check(f"{which}-compare", _run(capsys, "compare", collections[which], "--json"))


@pytest.mark.parametrize("which", ["mixed", "learner"])
def test_diagnose_is_pinned(collections, capsys, which):
    _check(f"{which}-diagnose", _run(capsys, "diagnose", collections[which], "--json"))


def test_export_and_its_evaluation_are_pinned(collections, capsys, tmp_path):
    pytest.importorskip("pyarrow")
    out = tmp_path / "export.zip"
    _run(capsys, "export", collections["mixed"], str(out))
    _check("mixed-export", _zip_listing(out))
    _check("mixed-evaluate-dataset", _run(capsys, "evaluate-dataset", str(out), "--json"))
