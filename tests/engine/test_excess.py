"""Cards forgotten more often than predicted: the exact tail against SciPy's Poisson-binomial, the
Benjamini–Hochberg step against SciPy's, and the false-alarm rate when every prediction is right."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from fsrs_calibration.metrics.score.excess import (
    MAX_LAPSES_TRACKED,
    benjamini_hochberg,
    excess_lapses,
    upper_tails,
)

pytestmark = pytest.mark.anki_free  # no part of Anki: make test-oldest leaves it out


def _groups(rng: np.random.Generator, sizes: list[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    starts = np.r_[0, np.cumsum(sizes)[:-1]].astype(np.int64)
    q = rng.uniform(0.0, 0.5, int(sum(sizes))) ** 2  # mostly small lapse probabilities, as in reviews
    return q, starts, np.asarray(sizes, dtype=np.int64)


def test_upper_tails_are_scipys_poisson_binomial():
    rng = np.random.default_rng(3)
    sizes = [1, 2, 5, 17, 40, 120, 300] + list(rng.integers(1, 60, 40))
    q, starts, counts = _groups(rng, sizes)
    at_least = np.array([rng.integers(0, min(n, 50) + 2) for n in sizes])
    got = upper_tails(q, starts, counts, at_least)
    for g, (s, n, k) in enumerate(zip(starts, counts, at_least, strict=True)):
        expected = 1.0 if k == 0 else stats.poisson_binom(q[s : s + n]).sf(k - 1)
        assert got[g] == pytest.approx(expected, rel=1e-9, abs=1e-14), (n, k)


def test_a_tail_beyond_the_tracked_lapses_is_a_bound_never_below_the_exact_value():
    q = np.full(400, 0.5)
    k = MAX_LAPSES_TRACKED + 80
    got = upper_tails(q, np.array([0]), np.array([400]), np.array([k]))[0]
    exact = stats.poisson_binom(q).sf(k - 1)
    assert got >= exact and got == pytest.approx(stats.poisson_binom(q).sf(MAX_LAPSES_TRACKED - 1))


@pytest.mark.parametrize("rate", [0.05, 0.2])
def test_benjamini_hochberg_is_scipys(rate):
    rng = np.random.default_rng(5)
    p = np.concatenate([rng.uniform(size=300), rng.uniform(0, 1e-3, 20), np.ones(30)])
    expected = stats.false_discovery_control(p, method="bh") <= rate
    assert np.array_equal(benjamini_hochberg(p, rate), expected) and expected.sum() >= 10


def test_when_every_prediction_is_right_hardly_any_card_is_listed():
    """Outcomes drawn from the predictions themselves: any listing is a false alarm. Over 200 collections of
    2,000 cards each, a listing at all happens in at most about 5% of them (BH bounds it at 5%)."""
    rng = np.random.default_rng(11)
    runs_with_a_listing = 0
    for _ in range(200):
        sizes = rng.integers(3, 40, 2000)
        card = np.repeat(np.arange(sizes.size), sizes)
        p = 1.0 - rng.uniform(0.0, 0.45, card.size) ** 2
        y = (rng.uniform(size=card.size) < p).astype(np.float64)
        runs_with_a_listing += bool(excess_lapses(card, p, y, min_reviews=5).listed.any())
    assert runs_with_a_listing <= 18  # 5% of 200 is 10; 18 is beyond it with probability < 1%


def test_cards_with_planted_lapses_are_listed_largest_excess_first():
    rng = np.random.default_rng(2)
    sizes = rng.integers(10, 30, 1000)
    card = np.repeat(np.arange(sizes.size) * 7 + 100, sizes)
    p = np.full(card.size, 0.9)
    planted = np.isin(card, [100 + 7 * 3, 100 + 7 * 500, 100 + 7 * 900])
    y = (rng.uniform(size=card.size) < np.where(planted, 0.3, 0.9)).astype(np.float64)
    result = excess_lapses(card, p, y, min_reviews=5)
    listed = result.group[result.ranked()]
    assert set(listed) == {121, 3600, 6400}
    assert np.all(np.diff(result.excess[result.ranked()]) <= 0)
    assert result.reviews.sum() == card.size and result.lapses.sum() == int((1 - y).sum())


def test_groups_below_the_minimum_are_not_tested_and_unsorted_keys_are_refused():
    card = np.array([1, 1, 2, 2, 2, 2, 2])
    p = np.full(7, 0.9)
    y = np.zeros(7)
    result = excess_lapses(card, p, y, min_reviews=5)
    assert list(result.group) == [2] and result.reviews[0] == 5
    with pytest.raises(ValueError):
        excess_lapses(card[::-1].copy(), p, y, min_reviews=1)
