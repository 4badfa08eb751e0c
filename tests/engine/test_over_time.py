"""Scores per calendar month: months in the learner's time zone, reviews adding up, each month scored by
scikit-learn's log loss and a hand-computed RMSE (bins)."""

from __future__ import annotations

import datetime as dt
import math

import numpy as np
import pytest
from sklearn.metrics import log_loss as sk_log_loss

from fsrs_calibration.metrics.score.over_time import by_month, month_starts

TOKYO = dt.timezone(dt.timedelta(hours=9))


def ms(*args: int, tz: dt.tzinfo = dt.UTC) -> int:
    return int(dt.datetime(*args, tzinfo=tz).timestamp() * 1000)


def test_months_follow_the_learners_time_zone_across_a_year():
    labels, starts = month_starts(ms(2025, 11, 30, 16), ms(2026, 2, 3), TOKYO)  # 2025-12-01 01:00 in Tokyo
    assert labels == ["2025-12", "2026-01", "2026-02"]
    assert starts[0] == ms(2025, 12, 1, tz=TOKYO) and starts[2] == ms(2026, 2, 1, tz=TOKYO)


def test_each_month_is_scored_as_the_whole_would_be():
    rng = np.random.default_rng(4)
    when = np.sort(rng.integers(ms(2026, 1, 1), ms(2026, 4, 15), 3000))
    p = rng.uniform(0.5, 0.99, when.size)
    y = (rng.uniform(size=when.size) < p).astype(float)
    w = np.ones(when.size)
    keys = rng.integers(0, 5, when.size)
    months = by_month(when, p, y, w, keys, dt.UTC)
    assert [m.month for m in months] == ["2026-01", "2026-02", "2026-03", "2026-04"]
    assert sum(m.reviews for m in months) == when.size
    march = (when >= ms(2026, 3, 1)) & (when < ms(2026, 4, 1))
    m = months[2]
    assert m.reviews == march.sum() and m.measured == pytest.approx(y[march].mean())
    assert m.log_loss == pytest.approx(sk_log_loss(y[march], p[march], labels=[0, 1]), rel=1e-9)
    gaps = [
        (p[march & (keys == k)].mean() - y[march & (keys == k)].mean(), (march & (keys == k)).sum()) for k in range(5)
    ]
    rmse = math.sqrt(sum(n * g * g for g, n in gaps) / sum(n for _, n in gaps))
    assert m.rmse_bins == pytest.approx(rmse, rel=1e-12)


def test_a_month_without_reviews_is_left_out():
    when = np.array([ms(2026, 1, 5), ms(2026, 3, 5)])
    months = by_month(when, np.array([0.9, 0.8]), np.array([1.0, 0.0]), np.ones(2), np.zeros(2, dtype=int), dt.UTC)
    assert [m.month for m in months] == ["2026-01", "2026-03"]


def test_evaluate_json_over_time_on_a_collection(mixed_collection, capsys):
    """`evaluate --json` "over_time": the months of the scored reviews (local time), adding up to the total,
    each month's log loss as scikit-learn computes it on that month's reviews."""
    import json

    from anki.buildinfo import version
    from anki.collection import Collection

    from fsrs_calibration.cli.commands import main
    from fsrs_calibration.metrics.jobs.evaluate import evaluate
    from fsrs_calibration.metrics.jobs.options import Options, short_term_floor_rating
    from fsrs_calibration.metrics.read.collection import read_collection

    assert main(["evaluate", mixed_collection["path"], "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    months = out["over_time"]
    assert sum(m["reviews"] for m in months) == out["reviews"] and len(months) > 1
    assert [m["month"] for m in months] == sorted(m["month"] for m in months)
    col = Collection(mixed_collection["path"])
    try:
        # the same-day rule of the installed Anki, as the command line uses
        options = Options(short_term_floor_rating=short_term_floor_rating(version))
        s = evaluate(read_collection(col, None), options).scored
    finally:
        col.close(downgrade=False)
    label = np.array([dt.datetime.fromtimestamp(int(i) / 1000).strftime("%Y-%m") for i in s.revlog_id])
    for m in months:
        at = label == m["month"]
        assert int(at.sum()) == m["reviews"]
        assert m["log_loss"] == pytest.approx(sk_log_loss(s.y[at], s.p[at], labels=[0, 1]), rel=1e-9)
        assert m["measured"] == pytest.approx(float(s.y[at].mean())) and m["predicted"] == pytest.approx(
            float(s.p[at].mean())
        )


def test_the_text_report_has_the_months_and_where_the_error_is(mixed_collection, capsys):
    """The plain report (`evaluate` without --json) holds the same months and bins as the JSON: each month's
    and each feature's review counts add up to the reviews scored."""
    import json
    import re

    from fsrs_calibration.cli.commands import main

    assert main(["evaluate", mixed_collection["path"], "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert main(["evaluate", mixed_collection["path"]]) == 0
    text = capsys.readouterr().out
    months = re.findall(r"^  (\d{4}-\d{2}) +([\d,]+) ", text, flags=re.M)
    assert [m for m, _ in months] == [m["month"] for m in out["over_time"]]
    assert sum(int(n.replace(",", "")) for _, n in months) == out["reviews"]
    where = text[text.index("Where the error is:") : text.index("By month")]
    blocks = re.split(r"^  By .*:$", where, flags=re.M)[1:]
    assert len(blocks) == len(out["by_feature"]) == 5
    for block in blocks:
        counts = re.findall(r"^    .+? +([\d,]+)  +\d", block, flags=re.M)
        assert sum(int(n.replace(",", "")) for n in counts) == out["reviews"]
