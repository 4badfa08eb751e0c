"""The benchmark-format export: round trip, cross-check with Anki's research export, privacy, bad input."""

from __future__ import annotations

import errno
import io
import json
import os
import zipfile

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.anki import run_python
from support.builder import Builder

from fsrs_calibration.cli.commands import main
from fsrs_calibration.metrics.errors import EvaluationError
from fsrs_calibration.metrics.export.dataset import REVLOG_COLUMNS, build_tables, write_zip
from fsrs_calibration.metrics.jobs.evaluate import Options, evaluate, evaluate_tables
from fsrs_calibration.metrics.read.collection import read_collection
from fsrs_calibration.metrics.read.dataset import parse_csv, read_tables


def export(col, search=None, path=None):
    data = read_collection(col, search, with_durations=True)
    tables = build_tables(data, whole_collection=search is None)
    if path is not None:
        write_zip(tables, path, {"addon_version": "test"})
    return tables


@pytest.fixture(scope="module")
def mixed_tables(mixed_collection):
    """The export tables of the whole mixed collection."""
    from anki.collection import Collection

    col = Collection(mixed_collection["path"])
    try:
        return export(col)
    finally:
        col.close(downgrade=False)


def same_rules_cards(col) -> list[int]:
    """Cards on which Anki's rules and the dataset builder's agree: no Reset, Set Due Date or
    Rescheduled row after the learning run starts, and no ignore-before date (Anki drops or cuts such
    cards; the builder ignores those rows)."""
    out = []
    rows = col.db.all("select cid, type, factor, ease from revlog where cid in (select id from cards) order by cid, id")
    by_card: dict[int, list] = {}
    for cid, t, f, e in rows:
        by_card.setdefault(cid, []).append((t, f, e))
    ignore = set(col.find_cards("preset:Ignore"))
    for cid, entries in by_card.items():
        learn = [i for i, (t, f, e) in enumerate(entries) if t == 0 and e >= 1]
        if not learn or cid in ignore:
            continue
        after = entries[learn[0] :]
        if not any(e == 0 and t in (4, 5) for t, f, e in after):
            out.append(cid)
    return out


@pytest.mark.parametrize("same_day", ["keep", "drop"])
def test_round_trip_equals_collection_evaluation(mixed_collection, tmp_path, same_day):
    from anki.collection import Collection

    col = Collection(mixed_collection["path"])
    try:
        scope = "cid:" + ",".join(map(str, same_rules_cards(col)))
        options = Options(params="default", weighting="uniform", same_day=same_day)
        direct = evaluate(read_collection(col, scope), options).overall
        export(col, scope, str(tmp_path / "out.zip"))
    finally:
        col.close(downgrade=False)
    again = evaluate_tables(read_tables(str(tmp_path / "out.zip")), options).overall
    assert again.reviews == direct.reviews and direct.reviews > 1000
    assert again.log_loss == pytest.approx(direct.log_loss, abs=1e-9)
    assert again.rmse_bins == pytest.approx(direct.rmse_bins, abs=1e-9)
    assert again.auc == pytest.approx(direct.auc, abs=1e-9)


def test_round_trip_through_the_command_line(tmp_path, capsys):
    sample = tmp_path / "sample.anki2"
    from make_sample import build_sample

    build_sample(str(sample), seed=5)
    out = tmp_path / "export.zip"
    assert main(["export", str(sample), str(out)]) == 0
    assert "reviews of 1,300 cards" in capsys.readouterr().out
    assert main(["evaluate", str(sample), "--params", "default", "--json"]) == 0
    direct = json.loads(capsys.readouterr().out)
    from anki.buildinfo import version

    assert main(["evaluate-dataset", str(out), "--json", "--anki-version", version]) == 0
    again = json.loads(capsys.readouterr().out)
    for key in ("reviews", "log_loss", "rmse_bins", "auc"):
        assert again[key] == pytest.approx(direct[key], abs=1e-9), key
    # the same from the unpacked folder, CSV and parquet alike
    folder = tmp_path / "unpacked"
    zipfile.ZipFile(out).extractall(folder)
    assert main(["evaluate-dataset", str(folder), "--json", "--anki-version", version]) == 0
    assert json.loads(capsys.readouterr().out)["log_loss"] == pytest.approx(direct["log_loss"], abs=1e-9)
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return  # the oldest-Anki environment has no pyarrow: no parquet in the zip
    assert main(["evaluate-dataset", str(folder / "parquet"), "--json", "--anki-version", version]) == 0
    assert json.loads(capsys.readouterr().out)["log_loss"] == pytest.approx(direct["log_loss"], abs=1e-9)


def test_evaluate_dataset_needs_no_anki(tmp_path):

    tables = {"revlogs": {c: np.array([0, 0]) for c in REVLOG_COLUMNS}}
    tables["revlogs"].update(state=np.array([0, 2]), elapsed_days=np.array([-1, 3]), rating=np.array([3, 3]))
    folder = tmp_path / "ds"
    from fsrs_calibration.metrics.export.dataset import Tables

    t = Tables(
        tables["revlogs"],
        {"card_id": np.array([0]), "note_id": np.array([0]), "deck_id": np.array([0])},
        {"deck_id": np.array([0]), "parent_id": np.array([1]), "preset_id": np.array([0])},
    )
    write_zip(t, str(tmp_path / "x.zip"), {})
    zipfile.ZipFile(tmp_path / "x.zip").extractall(folder)
    code = (
        "import sys, builtins\n"
        "real = builtins.__import__\n"
        "def guard(name, *a, **k):\n"
        "    if name.split('.')[0] in ('anki', 'aqt'):\n"
        "        raise ImportError('anki is not allowed here')\n"
        "    return real(name, *a, **k)\n"
        "builtins.__import__ = guard\n"
        "from fsrs_calibration.cli.commands import main\n"
        "sys.exit(main(['evaluate-dataset', sys.argv[1], '--json']))\n"
    )
    assert json.loads(run_python(code, str(folder)))["reviews"] == 1


def builder_rules(dataset) -> dict[str, list[tuple]]:
    """The anki-revlogs-dataset-builder's rules (build_parquet.py), row by row in plain Python."""
    rows = [r for r in dataset.revlogs if r.button_chosen >= 1 and (r.review_kind != 3 or r.ease_factor != 0)]
    rows.sort(key=lambda r: (r.cid, r.id))
    by_card: dict[int, list] = {}
    for r in rows:
        by_card.setdefault(r.cid, []).append(r)
    kept = []
    for entries in by_card.values():
        starts = [
            i for i, r in enumerate(entries) if r.review_kind == 0 and (i == 0 or entries[i - 1].review_kind != 0)
        ]
        if not starts:
            continue
        for j, r in enumerate(entries[starts[-1] :]):
            kept.append((r, j == 0))
    day = [int((r.id / 1000 - dataset.next_day_at) / 86400) for r, _ in kept]
    low = min(day)
    card_map: dict[int, int] = {}
    out = []
    prev = None
    for (r, start), d in zip(kept, day, strict=True):
        cid = card_map.setdefault(r.cid, len(card_map))
        state = 0 if start else r.review_kind + 1
        ed = -1 if start else (d - low) - (prev[1] - low)
        es = -1 if start else int((r.id - prev[0].id) / 1000)
        out.append((r.id, (cid, d - low, r.button_chosen, state, r.taken_millis, ed, es)))
        prev = (r, d)
    out.sort()
    revlogs = [row for _, row in out]
    cards = []
    note_map: dict[int, int] = {}
    deck_map: dict[int, int] = {}
    for c in dataset.cards:
        cards.append(
            (
                card_map.setdefault(c.id, len(card_map)),
                note_map.setdefault(c.note_id, len(note_map)),
                deck_map.setdefault(c.deck_id, len(deck_map)),
            )
        )
    preset_map: dict[int, int] = {}
    # parent_id: the parent's deck number, -1 for a top-level deck (Anki's research export says 0). The
    # builder numbers parent_id apart from deck_id, which loses the tree; ours keeps it (docs/compare-and-export.md).
    decks = [
        (
            deck_map.setdefault(d.id, len(deck_map)),
            -1 if d.parent_id == 0 else deck_map.setdefault(d.parent_id, len(deck_map)),
            preset_map.setdefault(d.preset_id, len(preset_map)),
        )
        for d in dataset.decks
    ]
    return {"revlogs": revlogs, "cards": cards, "decks": decks}


def as_rows(table: dict[str, np.ndarray]) -> list[tuple]:
    return list(zip(*(v.tolist() for v in table.values()), strict=True))


def test_rows_equal_the_builders_rules_on_ankis_research_export(mixed_collection, tmp_path):
    from anki.collection import Collection
    from anki.stats_pb2 import Dataset

    col = Collection(mixed_collection["path"])
    try:
        col.export_dataset_for_research(str(tmp_path / "anki.pb"))
        ours = export(col)
        existing = set(col.db.list("select id from cards"))
    finally:
        col.close(downgrade=False)
    dataset = Dataset()
    dataset.ParseFromString((tmp_path / "anki.pb").read_bytes())
    deleted = [r for r in dataset.revlogs if r.cid not in existing]
    assert deleted  # Anki's export also has the reviews of deleted cards; ours is of existing cards
    kept = [r for r in dataset.revlogs if r.cid in existing]
    del dataset.revlogs[:]
    dataset.revlogs.extend(kept)
    want = builder_rules(dataset)
    assert as_rows(ours.revlogs) == want["revlogs"]
    assert as_rows(ours.cards) == want["cards"]
    assert sorted(as_rows(ours.decks)) == sorted(want["decks"])
    assert len(want["revlogs"]) > 3000
    decks = set(ours.decks["deck_id"].tolist())
    assert all(p in decks or p == -1 for p in ours.decks["parent_id"].tolist())  # a tree: roots are -1
    assert -1 in ours.decks["parent_id"].tolist() and len(decks) > 5


MARK = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=12, max_size=12).map(lambda s: "ZQ" + s)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    marks=st.lists(MARK, min_size=5, max_size=5, unique=True),
    seed=st.integers(0, 10**6),
    id_base=st.integers(10**12, 9 * 10**12),
)
def test_export_holds_nothing_personal(tmp_path_factory, marks, seed, id_base):
    path = str(tmp_path_factory.mktemp("priv") / "collection.anki2")
    b = Builder(path, seed)
    deck_mark, field_mark, tag_mark, model_mark, sub_mark = marks
    model = b.col.models.copy(b.col.models.by_name("Basic"))
    model["name"] = f"Type {model_mark}"
    b.col.models.update_dict(model)
    b._notetype = b.col.models.get(model["id"])
    did = b.deck(f"Deck {deck_mark}::{sub_mark}")
    cids = b.cards(did, 6, marker=field_mark)
    for cid in cids:
        note = b.col.get_card(cid).note()
        note.tags = [tag_mark]
        b.col.update_note(note)
        b.write(cid, b.history(b.rng.randrange(30, 300)))
    # random ids for cards and notes (Anki's ids are creation times)
    for k, cid in enumerate(cids):
        new = id_base + k * 7919
        b.col.db.execute("update revlog set cid = ? where cid = ?", new, cid)
        b.col.db.execute("update cards set id = ?, nid = ? where id = ?", new, new + 13, cid)
        b.col.db.execute("update notes set id = ? where id = (select nid from cards where id = ?)", new + 13, new)
    b.close()
    from anki.collection import Collection

    col = Collection(path)
    try:
        out = str(tmp_path_factory.mktemp("out") / "export.zip")
        export(col, path=out)
        secrets = list(marks) + [str(x) for x in col.db.list("select id from cards")]
        secrets += [str(x) for x in col.db.list("select id from notes")]
        secrets += [str(x) for x in col.db.list("select id from decks where id > 1")]
        stamps = col.db.list("select id from revlog")
        secrets += [str(x) for x in stamps] + [str(x // 1000) for x in stamps]
        secrets += [os.path.basename(path), "collection", str(col.sched.day_cutoff)]
    finally:
        col.close(downgrade=False)
    raw = open(out, "rb").read()
    z = zipfile.ZipFile(io.BytesIO(raw))
    blobs = [raw] + [z.read(n) for n in z.namelist()] + [n.encode() for n in z.namelist()]
    for s in secrets:
        for blob in blobs:
            assert s.encode() not in blob, s
    assert all(info.date_time == (1980, 1, 1, 0, 0, 0) for info in z.infolist())


def test_bad_input_leaves_no_file(mixed_collection, tmp_path, capsys):
    path = mixed_collection["path"]
    target = tmp_path / "out.zip"
    assert main(["export", path, str(target), "--search", "tag:nothing-has-it"]) == 2
    assert "No cards match" in capsys.readouterr().err
    assert main(["export", path, "/no/such/folder/out.zip"]) == 2
    assert "no such folder" in capsys.readouterr().err
    assert main(["export", path, str(tmp_path)]) == 2
    assert "is a folder" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_full_disk_leaves_no_partial_zip(mixed_tables, tmp_path):
    tables = mixed_tables

    class FullDisk(io.RawIOBase):
        def __init__(self, f):
            self.f = f
            self.written = 0

        def writable(self):
            return True

        def write(self, data):
            if self.written + len(data) > 20_000:
                raise OSError(errno.ENOSPC, "No space left on device")
            self.written += len(data)
            return self.f.write(data)

    target = tmp_path / "out.zip"
    with pytest.raises(EvaluationError, match="No space left on device"):
        write_zip(tables, str(target), {}, wrap=FullDisk)
    assert list(tmp_path.iterdir()) == []


def test_zip_of_csv_deflated_block_by_block_reads_back(mixed_tables, tmp_path, monkeypatch):
    """CSV blocks deflated apart (in threads) join into one member that zipfile reads and CRC-checks."""
    from fsrs_calibration.metrics.export import dataset
    from fsrs_calibration.metrics.export.dataset import csv_bytes

    tables = mixed_tables
    monkeypatch.setattr(dataset, "_CSV_BLOCK_ROWS", 7)  # hundreds of blocks, the last one short
    out = tmp_path / "x.zip"
    write_zip(tables, str(out), {"addon_version": "test"})
    z = zipfile.ZipFile(out)
    assert z.testzip() is None
    for name in ("revlogs", "cards", "decks"):
        info = z.getinfo(f"{name}/user_id=0/data.csv")
        assert info.compress_type == zipfile.ZIP_DEFLATED and info.compress_size < info.file_size
        assert z.read(info) == csv_bytes(getattr(tables, name))
    for info in z.infolist():
        assert info.date_time == (1980, 1, 1, 0, 0, 0) and info.extra == b"" and info.comment == b""
        assert info.external_attr >> 16 == 0o100644
        if info.filename.endswith(".parquet"):
            assert info.compress_type == zipfile.ZIP_STORED
    assert json.loads(z.read("metadata.json"))["rows"]["revlogs"] == len(tables.revlogs["card_id"])
    assert list(tmp_path.iterdir()) == [out]


def test_export_too_large_for_a_plain_zip_leaves_no_file(mixed_tables, tmp_path, monkeypatch):
    from fsrs_calibration.metrics.export import ziparchive

    tables = mixed_tables
    monkeypatch.setattr(ziparchive, "_LIMIT", 5000)  # stands in for 4 GiB
    with pytest.raises(EvaluationError, match="zip64"):
        write_zip(tables, str(tmp_path / "x.zip"), {})
    assert list(tmp_path.iterdir()) == []


def test_csv_round_trip_of_extreme_values():
    from fsrs_calibration.metrics.export.dataset import csv_bytes

    cols = {"a": np.array([0, -1, 9, 10, -10, 2**62, -(2**62), 123456789]), "b": np.arange(8)}
    back = parse_csv(csv_bytes(cols))
    for k in cols:
        assert back[k].tolist() == cols[k].tolist()
    text = csv_bytes(cols).decode()
    import csv

    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["a", "b"] and rows[2] == ["-1", "1"] and len(rows) == 9


def test_dataset_errors(tmp_path):
    with pytest.raises(EvaluationError, match="no such file"):
        read_tables(str(tmp_path / "missing.zip"))
    (tmp_path / "bad.zip").write_text("not a zip")
    with pytest.raises(EvaluationError, match="not a zip"):
        read_tables(str(tmp_path / "bad.zip"))
    with pytest.raises(EvaluationError, match="no revlogs table"):
        read_tables(str(tmp_path))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.lists(st.integers(0, 40) | st.integers(10**11, 10**11 + 5)), st.booleans()), max_size=4))
def test_renumbering_is_first_appearance_order(calls):
    """Ids as the builder gives them (in order of first appearance, shared across calls), whatever the input's order."""
    from fsrs_calibration.metrics.export.dataset import _IdMapper

    mapper, seen = _IdMapper(), {}
    for values, presorted in calls:
        values = sorted(values) if presorted else values
        got = mapper.factorize(np.array(values, dtype=np.int64), "card_id").tolist()
        assert got == [seen.setdefault(v, len(seen)) for v in values]


def test_csv_export_converts_to_the_benchmarks_parquet_layout(mixed_collection, tmp_path, capsys, monkeypatch):
    """An export made inside Anki (CSV only) becomes the parquet folder srs-benchmark reads with --data."""
    pq = pytest.importorskip("pyarrow.parquet", reason="the oldest-Anki environment has no pyarrow")

    from fsrs_calibration.metrics.export import dataset

    monkeypatch.setattr(dataset, "_parquet_files", lambda tables: {})  # as inside Anki: no pyarrow, CSV only
    zip_path = tmp_path / "anki.zip"
    assert main(["export", mixed_collection["path"], str(zip_path)]) == 0
    assert not [n for n in zipfile.ZipFile(zip_path).namelist() if n.endswith(".parquet")]
    monkeypatch.undo()
    folder = tmp_path / "bench-data"
    assert main(["to-parquet", str(zip_path), str(folder)]) == 0
    assert "--data" in capsys.readouterr().out
    exported = read_tables(str(zip_path))
    for name in ("revlogs", "cards", "decks"):
        path = folder / name / "user_id=0" / "data.parquet"
        assert path.read_bytes()[:4] == b"PAR1"  # what srs-benchmark's loader checks first
        # as the benchmark reads it: the table's folder, hive partitions, filtered to one user
        table = pq.read_table(folder / name, filters=[("user_id", "=", 0)])
        want = getattr(exported, name)
        assert [c for c in table.column_names if c != "user_id"] == list(want)
        for column, values in want.items():
            assert table.column(column).to_numpy().tolist() == values.tolist()
    assert main(["to-parquet", str(zip_path), str(folder)]) == 2  # never over existing files without --force
    assert "already exists" in capsys.readouterr().err
    assert main(["to-parquet", str(zip_path), str(folder), "--force"]) == 0
    capsys.readouterr()
    assert main(["evaluate-dataset", str(folder), "--json"]) == 0
    from_parquet = json.loads(capsys.readouterr().out)
    assert main(["evaluate-dataset", str(zip_path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["log_loss"] == from_parquet["log_loss"]
