"""Our numbers against Anki's own evaluate_params_legacy (fsrs-rs in Rust) on real collections."""

from __future__ import annotations

import pytest
from support.anki import like_anki

from fsrs_calibration.metrics.jobs.evaluate import Options, evaluate
from fsrs_calibration.metrics.models.params import preset_raw_params
from fsrs_calibration.metrics.read.collection import ignore_before_ms, read_collection

TOL = 1e-5


def anki_eval(col, params, search, ignore_ms=0):
    r = col._backend.evaluate_params_legacy(params=params, search=search, ignore_revlogs_before_ms=ignore_ms)
    return r.log_loss, r.rmse_bins


def ours(col, search, params="preset", same_day="keep"):
    data = read_collection(col, search)
    ev = evaluate(data, like_anki(params, same_day))
    return ev.overall.log_loss, ev.overall.rmse_bins, ev


PRESETS = ["P6", "P5", "P45", "Empty", "Ignore", "Default"]


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("suffix", ["", " -is:suspended"])
def test_preset_params_match_anki(open_col, preset, suffix):
    conf = next(c for c in open_col.decks.all_config() if c["name"] == preset)
    _, raw = preset_raw_params(conf)
    search = f'preset:"{preset}"{suffix}'
    from fsrs_calibration.metrics.read.collection import Preset

    ignore = ignore_before_ms(Preset(conf["id"], preset, raw, ignore_before=conf["ignoreRevlogsBeforeDate"]))
    ll_a, rmse_a = anki_eval(open_col, raw, search, ignore)
    ll, rmse, ev = ours(open_col, search)
    assert ev.overall.reviews > 50
    assert ll == pytest.approx(ll_a, abs=TOL)
    assert rmse == pytest.approx(rmse_a, abs=TOL)


@pytest.mark.parametrize(
    "search",
    ["", "deck:Six", "deck:Five", "deck:FourFive", "is:suspended", "deck:filtered", "-deck:filtered", "deck:Six::Sub"],
)
def test_default_params_match_anki(open_col, search, mixed_collection):
    # The "Ignore" preset's date applies per card in our engine; leave its cards out of mixed scopes.
    scope = f"({search}) -preset:Ignore" if search else "-preset:Ignore"
    ll_a, rmse_a = anki_eval(open_col, [], scope)
    ll, rmse, _ = ours(open_col, scope, params="default")
    assert ll == pytest.approx(ll_a, abs=TOL)
    assert rmse == pytest.approx(rmse_a, abs=TOL)


def _copy_without_same_day_repeats(src: str, dst: str) -> None:
    """Write a copy of the collection whose revlog keeps only each card's first rated entry per day."""
    import shutil

    from anki.collection import Collection

    shutil.copy(src, dst)
    col = Collection(dst)
    try:
        cutoff = col.sched.day_cutoff
        seen: set[tuple[int, int]] = set()
        doomed = []
        for rid, cid, ease, rtype, factor in col.db.all(
            "select id, cid, ease, type, factor from revlog order by cid, id"
        ):
            if ease < 1 or (rtype == 3 and factor == 0):
                continue
            day = max(0, (cutoff - rid // 1000) // 86400)
            if (cid, day) in seen:
                doomed.append(rid)
            seen.add((cid, day))
        col.db.execute(f"delete from revlog where id in ({','.join(map(str, doomed))})")
    finally:
        col.close(downgrade=False)


@pytest.mark.parametrize("preset", ["P6", "P5", "P45", "Empty"])
def test_drop_mode_matches_anki_on_history_without_repeats(mixed_collection, tmp_path, preset):
    """--same-day drop equals Anki evaluating a revlog from which same-day repeats were removed."""
    from anki.collection import Collection

    copy = str(tmp_path / "dropped.anki2")
    _copy_without_same_day_repeats(mixed_collection["path"], copy)
    search = f'preset:"{preset}"'
    col = Collection(copy)
    try:
        conf = next(c for c in col.decks.all_config() if c["name"] == preset)
        _, raw = preset_raw_params(conf)
        ll_a, rmse_a = anki_eval(col, raw, search)
    finally:
        col.close(downgrade=False)
    col = Collection(mixed_collection["path"])
    try:
        ll, rmse, ev = ours(col, search, same_day="drop")
        ll_keep, _, _ = ours(col, search, same_day="keep")
    finally:
        col.close(downgrade=False)
    assert ll == pytest.approx(ll_a, abs=TOL)
    assert rmse == pytest.approx(rmse_a, abs=TOL)
    assert abs(ll - ll_keep) > 1e-4  # the two modes really differ on this history


def test_auto_mode_drops_for_17_parameters_only(open_col):
    ev = evaluate(read_collection(open_col, 'preset:"P45" or preset:"P6"'), Options())
    modes = {p.preset: p.same_day for p in ev.params}
    assert modes == {"P45": "drop", "P6": "keep"}


def test_the_optimizers_answer_is_read_as_anki_reads_it():
    """metrics/read/anki_backend.py reads Anki's ComputeFsrsParamsResponse itself (the engine never imports
    anki): the same parameters as Anki's own protobuf class, for every size and field it may hold."""
    import random

    from anki.scheduler_pb2 import ComputeFsrsParamsResponse

    from fsrs_calibration.metrics.read.anki_backend import response_params

    rng = random.Random(3)
    for n in (0, 1, 17, 19, 21):
        for items in (0, 1, 300_000):
            for passed in (None, True, False):
                params = [rng.uniform(-5, 100) for _ in range(n)]
                response = ComputeFsrsParamsResponse(params=params, fsrs_items=items)
                if passed is not None:
                    response.health_check_passed = passed
                raw = response.SerializeToString()
                assert response_params(raw) == list(ComputeFsrsParamsResponse.FromString(raw).params)
