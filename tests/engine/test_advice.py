"""Advice rules, the 'where the error is' summary and number formatting, on constructed results."""

from __future__ import annotations

import math

import numpy as np
import pytest

from fsrs_calibration.metrics.explain import formatting as fmt
from fsrs_calibration.metrics.explain.advice import Score, advise, auc_interval, auc_verdict
from fsrs_calibration.metrics.explain.where import summary as where_summary
from fsrs_calibration.metrics.score.binning import FeatureBin
from fsrs_calibration.metrics.score.intervals import wilson
from fsrs_calibration.metrics.score.where import MIN_REVIEWS, bin_errors, largest_error


def score(name, ll, half=0.004, auc=0.72, reviews=20_000, remembered=18_000):
    return Score(name, ll, (ll - half, ll + half), auc, reviews, remembered)


def test_a_baseline_that_wins_is_said_first_and_no_fit_is_claimed():
    scores = {
        "fsrs-preset": score("fsrs-preset", 0.340),
        "fsrs-default": score("fsrs-default", 0.350),
        "fsrs-out-of-sample": score("fsrs-out-of-sample", 0.345),
        "moving-avg": score("moving-avg", 0.320),
        "avg": score("avg", 0.330),
    }
    text = advise(scores, 20_000)
    assert text[0].startswith("Moving average does better than FSRS with your presets")
    assert "0.3200 (95% interval 0.3160–0.3240)" in text[0] and "20,000 reviews" in text[0]
    assert "does worse than Moving average" in text[1]
    assert not any("generalises" in t or "fit your memory better" in t for t in text)


def test_fsrs_that_wins_clearly_is_said_to_generalise():
    scores = {
        "fsrs-preset": score("fsrs-preset", 0.300),
        "fsrs-default": score("fsrs-default", 0.320),
        "fsrs-out-of-sample": score("fsrs-out-of-sample", 0.305),
        "moving-avg": score("moving-avg", 0.330),
        "sm2": score("sm2", 0.400),
    }
    text = advise(scores, 20_000)
    assert "beats the best simple baseline (Moving average)" in text[0] and "generalises" in text[0]
    assert text[1].startswith("Your presets' parameters predict better than the defaults")
    assert text[2].startswith("AUC 0.720 (95% interval 0.710–0.730, 20,000 reviews) is good")
    assert not any("does as well as" in t or "does better than FSRS" in t for t in text)


def test_a_tie_within_noise_is_a_tie():
    scores = {
        "fsrs-preset": score("fsrs-preset", 0.330),
        "fsrs-default": score("fsrs-default", 0.333),
        "fsrs-out-of-sample": score("fsrs-out-of-sample", 0.332),
        "avg": score("avg", 0.334),
    }
    text = advise(scores, 20_000)
    assert text[0].startswith("Average recall does as well as (within the intervals) FSRS with your presets")
    assert "cannot show that FSRS's parameters fit" in text[1]
    assert "equally well within the intervals" in text[2]


def test_no_fit_claim_without_the_out_of_sample_model():
    text = advise({"fsrs-preset": score("fsrs-preset", 0.30), "avg": score("avg", 0.40)}, 20_000)
    assert any("cannot be said from these numbers" in t for t in text)
    assert not any("generalises" in t for t in text)


def test_too_few_reviews_says_so_and_nothing_else():
    scores = {"fsrs-preset": score("fsrs-preset", 0.20, half=0.05), "avg": score("avg", 0.50, half=0.05)}
    text = advise(scores, 600)
    assert len(text) == 1 and "Only 600 reviews" in text[0] and "no conclusion" in text[0]


@pytest.mark.parametrize("auc, band", [(0.55, "poor"), (0.65, "fair"), (0.75, "good"), (0.85, "very good")])
def test_auc_bands(auc, band):
    assert f"is {band}:" in auc_verdict(auc, 10_000, 9_000)


def test_auc_interval_matches_hanley_mcneil_by_simulation():
    """The interval's width matches the spread of AUCs of many samples of the same size."""
    from sklearn.metrics import roc_auc_score

    rng = np.random.default_rng(5)
    aucs = []
    for _ in range(300):
        y = rng.random(2000) < 0.85
        p = rng.normal(0.8 * y, 1.0)
        aucs.append(roc_auc_score(y, p))
    mean = float(np.mean(aucs))
    low, high = auc_interval(mean, 1700, 300)
    assert (high - low) / 2 == pytest.approx(1.96 * np.std(aucs), rel=0.15)


def _bins(rows):
    return [FeatureBin("lapses", lo, lo, hi, n, p, a) for lo, hi, n, p, a in rows]


def test_where_summary_names_the_largest_well_supported_error():
    rows = _bins([(0, 0, 5000, 0.90, 0.90), (1, 1, 1204, 0.88, 0.82), (5, 5, 40, 0.9, 0.3)])
    worst = largest_error({"lapses": rows})
    assert worst is not None and worst.lowest == 1 and worst.count == 1204
    text = where_summary(largest_error({"lapses": rows}), MIN_REVIEWS)
    assert text.startswith("FSRS overestimates recall by 6.0 pp on cards with 1 lapse")
    assert "1,204 reviews" in text
    errors = bin_errors(rows)
    assert not errors[2].enough and not errors[2].beyond_chance  # 40 reviews: marked, never summarised
    assert not errors[0].beyond_chance


def test_where_summary_says_when_the_data_cannot_tell():
    rows = _bins([(0, 0, 300, 0.90, 0.89), (1, 1, 99, 0.9, 0.2)])
    text = where_summary(largest_error({"lapses": rows}), MIN_REVIEWS)
    assert text.startswith("No group of at least 100 reviews is off beyond chance")


def test_wilson_matches_the_calibration_tables_interval():
    from fsrs_calibration.metrics.score.intervals import wilson_interval

    for k, n in ((0, 10), (7, 10), (900, 1000), (1000, 1000)):
        low, high = wilson_interval(np.array([k]), np.array([n]))
        assert wilson(k, n) == pytest.approx((low[0], high[0]))


def test_formatting_one_unit_each():
    assert fmt.rmse(0.0321) == "3.21 pp"
    assert fmt.log_loss(0.341234) == "0.3412"
    assert fmt.auc(0.71234) == "0.712"
    assert fmt.count(1234567) == "1,234,567"
    assert fmt.percent(0.9123) == "91.2%"
    assert fmt.points(-0.06, signed=True) == "-6.0 pp"
    assert fmt.interval(0.1, 0.2) == "0.1000–0.2000"
    assert fmt.log_loss(math.nan) == fmt.auc(None) == "n/a"
