"""The benchmark standing: the table generator (scripts/benchmark_table.py), the shipped table and metrics.standing.

Percentiles are checked against a direct count on a hand-made fixture: the share of its users, in the learner's
band, whose metric is worse than the learner's.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import math
import random
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from fsrs_calibration.metrics.explain import standing as words
from fsrs_calibration.metrics.score import benchmark_table as shipped
from fsrs_calibration.metrics.score import standing as st

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "benchmark_table.py"
BANDS = (100, 1000)  # fixture bands: fewer than 100, 100–999, 1000+ reviews
PER_BAND = 50  # with 50 users, hazen quantiles at every 1% fall on each user's value: exact at midpoints
NAN = float("nan")


def _script() -> ModuleType:
    import benchmark_table  # scripts/ is on pytest's path

    assert Path(benchmark_table.__file__).resolve() == SCRIPT.resolve()
    return benchmark_table


def _load(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _fixture_users() -> list[dict[str, Any]]:
    """50 users per band, distinct 4-decimal metrics; band metrics differ (more reviews, lower RMSE)."""
    rng = random.Random(7)
    users = []
    for b, (low, high) in enumerate([(1, 100), (100, 1000), (1000, 60000)]):
        lls = rng.sample(range(500, 7000), PER_BAND)
        rmses = rng.sample(range(100 // (b + 1), 2500 // (b + 1)), PER_BAND)
        aucs = rng.sample(range(4000, 9500), PER_BAND)
        for j in range(PER_BAND):
            users.append(
                {
                    "size": rng.randrange(low, high) if j > 1 else (low if j == 0 else high - 1),  # band edges included
                    "LogLoss": lls[j] / 10000,
                    "RMSE(bins)": rmses[j] / 10000,
                    "AUC": None if j == 3 else aucs[j] / 10000,  # one user per band without an AUC
                }
            )
    return users


def _fixture_lines(users: list[dict[str, Any]]) -> list[str]:
    """The users in the benchmark's layout, plus a blank line and one user without a finite log loss."""
    lines = []
    for i, u in enumerate(users, 1):
        metrics = {"RMSE": 0.3, "LogLoss": u["LogLoss"], "RMSE(bins)": u["RMSE(bins)"], "ICI": 0.02, "AUC": u["AUC"]}
        lines.append(json.dumps({"metrics": metrics, "user": i, "size": u["size"], "parameters": {"0": [0.4] * 19}}))
    lines.insert(10, "")
    bad = {"RMSE": 0.3, "LogLoss": NAN, "RMSE(bins)": 0.05, "ICI": 0.02, "AUC": 0.7}
    lines.append(json.dumps({"metrics": bad, "user": len(users) + 1, "size": 500, "parameters": {}}))
    return [line + "\n" for line in lines]


@pytest.fixture(scope="module")
def fixture(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[dict[str, Any]], ModuleType, str]:
    """(fixture users, the module generated from them by the script's command line, its text)."""
    folder = tmp_path_factory.mktemp("bench")
    users = _fixture_users()
    source = folder / "TEST-1.jsonl"
    source.write_text("".join(_fixture_lines(users)), encoding="utf-8")
    args = ["--date", "2024-07", "--commit", "0123abcd", "--bands", ",".join(map(str, BANDS))]
    out = subprocess.run([sys.executable, str(SCRIPT), str(source), *args], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    generated = folder / "table_test1.py"
    generated.write_text(out.stdout, encoding="utf-8")
    return users, _load(generated, "table_test1"), out.stdout


def _band(users: list[dict[str, Any]], reviews: int) -> list[dict[str, Any]]:
    edges = [0, *BANDS, math.inf]
    b = next(i for i in range(3) if edges[i] <= reviews < edges[i + 1])
    return [u for u in users if edges[b] <= u["size"] < edges[b + 1]]


def _worse(users: list[dict[str, Any]], key: str, x: float, higher_is_better: bool = False) -> float:
    """Percent of users whose metric is worse than x (ties count half): the direct count."""
    vals = [u[key] for u in users if u[key] is not None]
    worse = sum(v < x if higher_is_better else v > x for v in vals)
    return 100 * (worse + 0.5 * sum(v == x for v in vals)) / len(vals)


def _hazen(values: list[float], p: float) -> float:
    """The hazen quantile by hand: position p·n − 0.5 in the sorted values, linear between, clipped at the ends."""
    v = sorted(values)
    pos = min(max(p * len(v) - 0.5, 0.0), len(v) - 1.0)
    i = min(int(pos), len(v) - 2)
    return v[i] + (pos - i) * (v[i + 1] - v[i])


# --- the generator ---------------------------------------------------------------------------------------------


def test_script_output_is_the_generate_function_and_deterministic(fixture: Any) -> None:
    users, table, text = fixture
    source_lines = _fixture_lines(users)
    flags = "--model TEST-1 --date 2024-07 --commit 0123abcd --bands 100,1000"
    command = f"python scripts/benchmark_table.py TEST-1.jsonl {flags}"
    again = _script().generate(
        source_lines, _script().Origin("TEST-1", "2024-07", "0123abcd"), bands=BANDS, command=command
    )
    assert again == text
    assert command in " ".join(text.split())  # the docstring says how it was made
    assert len(text) < 60_000


def test_generated_table_matches_a_direct_computation(fixture: Any) -> None:
    users, table, _ = fixture
    assert (table.MODEL, table.DATE, table.COMMIT, table.STEP) == ("TEST-1", "2024-07", "0123abcd", 1)
    assert table.PATH == "result/TEST-1.jsonl" and table.REPOSITORY == "open-spaced-repetition/srs-benchmark"
    assert table.BANDS == ((0, 100), (100, 1000), (1000, None))
    assert table.USERS == (PER_BAND,) * 3 and table.AUC_USERS == (PER_BAND - 1,) * 3
    assert table.SOURCE_USERS == len(users) + 1 and table.SKIPPED_USERS == 1
    assert sum(table.USERS) + table.SKIPPED_USERS == table.SOURCE_USERS
    for b, reviews in enumerate((50, 500, 5000)):
        band = _band(users, reviews)
        assert len(band) == PER_BAND
        for name, key in (("LOG_LOSS", "LogLoss"), ("RMSE_BINS", "RMSE(bins)"), ("AUC", "AUC")):
            values = [u[key] for u in band if u[key] is not None]
            q = getattr(table, name)[b]
            assert len(q) == 101 and q[0] == min(values) and q[-1] == max(values)
            assert q == pytest.approx([_hazen(values, k / 100) for k in range(101)], abs=1e-6)
            assert list(q) == sorted(q)


def test_script_rejects_bad_input(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"metrics": {"LogLoss": 0.3}, "size": 10}\n', encoding="utf-8")
    out = subprocess.run([sys.executable, str(SCRIPT), str(bad)], capture_output=True, text=True)
    assert out.returncode == 2 and "line 1" in out.stderr and not out.stdout
    good = tmp_path / "good.jsonl"
    good.write_text("".join(_fixture_lines(_fixture_users())), encoding="utf-8")
    for flags in (["--bands", "1000,100"], ["--step", "3"], ["--bands", "100000000"]):
        out = subprocess.run([sys.executable, str(SCRIPT), str(good), *flags], capture_output=True, text=True)
        assert out.returncode == 2 and out.stderr and not out.stdout, flags


# --- the shipped table -----------------------------------------------------------------------------------------


def test_shipped_table_names_its_source_and_adds_up() -> None:
    assert shipped.MODEL == "FSRS-5" and shipped.DATE == "2025-01"
    assert shipped.REPOSITORY == "open-spaced-repetition/srs-benchmark" and shipped.PATH == "result/FSRS-5.jsonl"
    assert re.fullmatch(r"[0-9a-f]{40}", shipped.COMMIT)
    assert shipped.SOURCE_USERS == 9999  # the benchmark's 9,999 users
    assert sum(shipped.USERS) + shipped.SKIPPED_USERS == shipped.SOURCE_USERS
    assert all(n >= 500 for n in shipped.USERS)  # every band has enough users for percentiles
    assert all(a <= n for a, n in zip(shipped.AUC_USERS, shipped.USERS, strict=True))
    bands = shipped.BANDS
    assert bands[0][0] == 0 and bands[-1][1] is None
    assert all(bands[i][1] == bands[i + 1][0] for i in range(len(bands) - 1))
    for name in ("LOG_LOSS", "RMSE_BINS", "AUC"):
        rows = getattr(shipped, name)
        assert len(rows) == len(bands)
        assert all(len(q) == 100 // shipped.STEP + 1 and list(q) == sorted(q) for q in rows)
    # RMSE (bins) falls as reviews grow: why the comparison is by band
    medians = [q[50] for q in shipped.RMSE_BINS]
    assert medians == sorted(medians, reverse=True)
    doc = shipped.__doc__ or ""
    assert "FSRS-5" in doc and shipped.COMMIT in " ".join(doc.split()) and "9,999 users" in doc
    assert Path(shipped.__file__).stat().st_size < 50_000


def test_shipped_table_is_the_scripts_output() -> None:
    """Rendering the shipped constants again with the script gives the shipped file byte for byte (not hand-edited)."""
    text = Path(shipped.__file__).read_text(encoding="utf-8")
    doc = (shipped.__doc__ or "").split("\n")
    start = doc.index("Generated by scripts/benchmark_table.py; do not edit by hand. Command:") + 1
    end = next(i for i in range(start, len(doc)) if doc[i].startswith("Source:"))
    command = " ".join(" ".join(doc[start:end]).split())
    names = ("BANDS", "USERS", "AUC_USERS", "LOG_LOSS", "RMSE_BINS", "AUC")
    table = {name: list(getattr(shipped, name)) for name in names}
    meta = {
        "model": shipped.MODEL,
        "date": shipped.DATE,
        "commit": shipped.COMMIT,
        "repository": shipped.REPOSITORY,
        "read_from": shipped.READ_FROM,
        "path": shipped.PATH,
        "source_users": shipped.SOURCE_USERS,
        "skipped_users": shipped.SKIPPED_USERS,
        "step": shipped.STEP,
    }
    assert _script().render(table, meta, command) == text


# --- percentiles -----------------------------------------------------------------------------------------------


def test_percentiles_match_a_direct_count_on_the_fixture(fixture: Any) -> None:
    users, table, _ = fixture
    rng = random.Random(11)
    for reviews in (1, 50, 99, 100, 500, 999, 1000, 40000):
        band = _band(users, reviews)
        for key, field in (("LogLoss", "log_loss_beats"), ("RMSE(bins)", "rmse_beats")):
            values = sorted(u[key] for u in band)
            # midway between two users the interpolation is exact; elsewhere within half a user (1 point)
            for a, b in zip(values, values[1:], strict=False):
                x = (a + b) / 2
                got = _get(table, reviews, key, x)
                assert getattr(got, field) == pytest.approx(_worse(band, key, x), abs=1e-6)
            for _ in range(200):
                x = rng.uniform(values[0], values[-1])
                got = getattr(_get(table, reviews, key, x), field)
                assert abs(got - _worse(band, key, x)) <= 100 * 0.5 / PER_BAND + 1e-6
        aucs = sorted(u["AUC"] for u in band if u["AUC"] is not None)
        for a, b in zip(aucs, aucs[1:], strict=False):
            got = st.standing(reviews, 0.3, 0.05, auc=(a + b) / 2, table=table)
            assert got.auc_beats == pytest.approx(_worse(band, "AUC", (a + b) / 2, higher_is_better=True), abs=1e-6)
            assert got.auc_users == PER_BAND - 1


def _get(table: ModuleType, reviews: int, key: str, x: float) -> st.Standing:
    if key == "LogLoss":
        return st.standing(reviews, x, 0.05, table=table)
    return st.standing(reviews, 0.3, x, table=table)


def test_percentiles_on_the_shipped_table_are_monotone() -> None:
    for reviews in (500, 3000, 10000, 50000, 300000):
        grid = [i / 1000 for i in range(0, 1001)]
        rmse = [st.standing(reviews, 0.3, x / 2).rmse_beats for x in grid]
        ll = [st.standing(reviews, x * 1.5, 0.05).log_loss_beats for x in grid]
        auc = [st.standing(reviews, 0.3, 0.05, auc=x).auc_beats for x in grid]
        for seq, falling in ((rmse, True), (ll, True), (auc, False)):
            assert all(v is not None and 0 <= v <= 100 for v in seq)
            pairs = list(zip(seq, seq[1:], strict=False))
            assert all((a >= b) if falling else (a <= b) for a, b in pairs)  # type: ignore[operator]
            assert {seq[0], seq[-1]} == {0.0, 100.0}
    # more reviews, same scores: the band of bigger collections is harder to beat on RMSE (bins)
    by_band = [st.standing(n, 0.3, 0.05).rmse_beats for n in (1000, 3000, 10000, 50000, 300000)]
    assert by_band == sorted(by_band, reverse=True)  # type: ignore[type-var]


def test_bands_and_their_edges() -> None:
    assert words.band_text(st.standing(1, 0.3, 0.05)) == "fewer than 2k reviews"
    assert words.band_text(st.standing(1999, 0.3, 0.05)) == "fewer than 2k reviews"
    assert words.band_text(st.standing(2000, 0.3, 0.05)) == "2k–5k reviews"
    assert words.band_text(st.standing(19999, 0.3, 0.05)) == "5k–20k reviews"
    assert words.band_text(st.standing(100000, 0.3, 0.05)) == "100k+ reviews"
    assert st.standing(10**9, 0.3, 0.05).users == shipped.USERS[-1]
    s = st.standing(8000, 0.3, 0.05)
    assert s.users == shipped.USERS[2] and s.rmse_median == shipped.RMSE_BINS[2][50]


# --- wording and edge cases ------------------------------------------------------------------------------------


def test_sentence_leads_with_rmse_and_gives_the_log_loss_caveat_and_source() -> None:
    s = st.standing(8000, 0.33, 0.041)
    text = words.sentence(s)
    assert text.startswith(f"By RMSE (bins), FSRS predicts you better than {round(s.rmse_beats or 0)}% of the ")
    assert "learners with 5k–20k reviews" in text and f"{shipped.USERS[2]:,}" in text
    assert text.index("RMSE (bins)") < text.index("log loss")
    assert f"better than {round(s.log_loss_beats or 0)}% of them" in text
    assert "retention" in text and "rough" in text  # the log-loss caveat beside its percentile
    assert words.source(s) == "FSRS benchmark, FSRS-5 results of January 2025 (open-spaced-repetition/srs-benchmark)"
    assert text.endswith(f"Source: {words.source(s)}.")
    assert "AUC" not in text  # not given, not said
    assert "By AUC" in words.sentence(st.standing(8000, 0.33, 0.041, auc=0.75))
    assert (s.model, s.date) == ("FSRS-5", "2025-01")
    d = s.to_dict()
    assert d["rmse_beats"] == s.rmse_beats and json.dumps(d)
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.users = 1  # type: ignore[misc]


def test_below_and_above_every_learner() -> None:
    best = st.standing(8000, 0.0, 0.0, auc=1.0)
    assert best.rmse_beats == best.log_loss_beats == best.auc_beats == 100.0
    assert (
        "better than all of the benchmark's" in words.sentence(best) and "%" not in words.sentence(best).split("—")[0]
    )
    worst = st.standing(8000, 5.0, 0.9, auc=0.0)
    assert worst.rmse_beats == worst.log_loss_beats == worst.auc_beats == 0.0
    assert "worse than all of the benchmark's" in words.sentence(worst) and "worse than all of them" in words.sentence(
        worst
    )
    inf = st.standing(8000, math.inf, 0.05)
    assert inf.log_loss_beats == 0.0
    # tying the best or worst learner is not "all" or "none"
    q = shipped.RMSE_BINS[2]
    top, bottom = st.standing(8000, 0.3, q[0]), st.standing(8000, 0.3, q[-1])
    assert 99 < (top.rmse_beats or 0) < 100 and 0 < (bottom.rmse_beats or 0) < 1
    assert "better than more than 99% of" in words.sentence(top) and "better than fewer than 1% of" in words.sentence(
        bottom
    )


def test_nan_zero_reviews_and_misuse() -> None:
    s = st.standing(8000, NAN, 0.05)
    assert s.log_loss_beats is None and s.rmse_beats is not None
    assert "log loss could not be computed" in words.sentence(s) and "By RMSE (bins)" in words.sentence(s)
    s = st.standing(8000, 0.3, NAN)
    assert s.rmse_beats is None and "RMSE (bins) could not be computed" in words.sentence(s)
    assert "By log loss" in words.sentence(s)
    s = st.standing(8000, NAN, NAN, auc=NAN)
    assert s.rmse_beats is s.log_loss_beats is s.auc_beats is s.auc is None
    assert words.sentence(s).startswith("Neither RMSE (bins) nor log loss could be computed")
    s = st.standing(0, 0.3, 0.05)
    assert (s.band, s.users, s.rmse_beats, s.log_loss_beats) == (None, 0, None, None)
    assert words.sentence(s).startswith("No reviews were scored out of sample") and "FSRS-5" in words.sentence(s)
    assert "noisy" in words.sentence(st.standing(300, 0.3, 0.05)) and "noisy" not in words.sentence(
        st.standing(3000, 0.3, 0.05)
    )
    for bad in ((-1, 0.3, 0.05), (10, -0.1, 0.05), (10, 0.3, -0.01)):
        with pytest.raises(ValueError):
            st.standing(*bad)


def test_below_interpolates_the_quantiles() -> None:
    q = (0.1, 0.2, 0.2, 0.4, 0.5)  # at 0, 25, 50, 75, 100%
    assert st.below(q, 25, 0.05) == 0.0 and st.below(q, 25, 0.6) == 1.0
    assert st.below(q, 25, 0.15) == pytest.approx(0.125)
    assert st.below(q, 25, 0.2) == pytest.approx(0.375)  # a flat stretch (25–50%): its middle
    assert st.below(q, 25, 0.3) == pytest.approx(0.625)
    assert st.below(q, 25, NAN) is None and st.below((), 25, 0.3) is None
