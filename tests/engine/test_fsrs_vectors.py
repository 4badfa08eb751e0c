"""FSRS replay against published test vectors (reference §4, fsrs-rs and fsrs-optimizer tests)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from fsrs_calibration.metrics.errors import EvaluationError
from fsrs_calibration.metrics.jobs.options import short_term_floor_rating
from fsrs_calibration.metrics.models.fsrs import forgetting_curve, replay
from fsrs_calibration.metrics.models.params import DEFAULT_PARAMETERS, to_fsrs6

W = to_fsrs6([])


def run(history, w=W, floor=2):
    """Return final (S, D) and the replay of one card's (rating, delta_t) history."""
    r = np.array([g for g, _ in history])
    t = np.array([d for _, d in history])
    first = np.zeros(len(history), bool)
    first[0] = True
    out = replay(r, t, first, w[None, :], floor)
    return out.stability[0], out.difficulty[0], out


@pytest.mark.parametrize(
    "history, s, d",
    [
        ([(3, 0)], 2.3065, 2.1181),
        ([(3, 0), (3, 1)], 7.3153, 2.1112),
        ([(1, 0), (3, 0), (3, 1), (3, 3)], 7.8637, 6.3798),
    ],
)
def test_reference_memory_states(history, s, d):
    got_s, got_d, _ = run(history)
    assert got_s == pytest.approx(s, abs=1e-4)
    assert got_d == pytest.approx(d, abs=1e-4)


def test_reference_retrievability_after_history():
    s, _, _ = run([(1, 0), (3, 0), (3, 1), (3, 3)])
    assert forgetting_curve(7.0, s, W[20]) == pytest.approx(0.90779, abs=1e-5)


def test_forgetting_curve_vector():
    got = forgetting_curve(np.array([0, 1, 2, 3, 4, 5]), np.array([1, 2, 3, 4, 4, 2.0]), W[20])
    want = [1.0, 0.9403443, 0.9253786, 0.9185229, 0.9, 0.8261359]
    np.testing.assert_allclose(got, want, atol=1e-6)


def test_optimizer_two_step_vectors_all_cards_at_once():
    """fsrs-optimizer tests/model_test.py: six cards replayed together in one vectorized pass."""
    hist = [[(1, 0), (1, 1)], [(2, 0), (2, 1)], [(3, 0), (3, 1)], [(4, 0), (4, 1)], [(1, 0), (1, 2)], [(2, 0), (2, 2)]]
    r = np.array([g for h in hist for g, _ in h])
    t = np.array([d for h in hist for _, d in h])
    first = np.tile([True, False], len(hist))
    out = replay(r, t, first, np.tile(W, (len(hist), 1)))
    np.testing.assert_allclose(
        out.stability, [0.10088589, 3.2494123, 7.3153, 18.014914, 0.112798266, 4.4694576], rtol=5e-6
    )
    np.testing.assert_allclose(out.difficulty, [8.806304, 6.7404594, 2.1112142, 1.0, 8.806304, 6.7404594], rtol=1e-6)


def test_cards_of_different_lengths_and_params_replay_independently():
    a = [(3, 0), (3, 0), (1, 2), (2, 0), (3, 5), (4, 9)]
    b = [(4, 0), (3, 3)]
    w2 = to_fsrs6([round(x * 1.1, 4) for x in DEFAULT_PARAMETERS])
    sa, da, ra = run(a)
    sb, db, rb = run(b, w2)
    r = np.array([g for g, _ in b + a])
    t = np.array([d for _, d in b + a])
    first = np.zeros(len(r), bool)
    first[[0, len(b)]] = True
    both = replay(r, t, first, np.stack([w2, W]))
    assert both.stability.tolist() == pytest.approx([sb, sa])
    assert both.difficulty.tolist() == pytest.approx([db, da])
    np.testing.assert_allclose(both.retrievability, np.concatenate([rb.retrievability, ra.retrievability]))


def test_same_day_hard_floor_depends_on_version():
    s2, _, _ = run([(3, 0), (2, 0)], floor=2)
    s3, _, _ = run([(3, 0), (2, 0)], floor=3)
    w = W
    sinc = math.exp(w[17] * (2 - 3 + w[18])) * w[2] ** (-w[19])
    assert sinc < 1
    assert s2 == pytest.approx(w[2])  # floored: stability never drops on a same-day Hard
    assert s3 == pytest.approx(w[2] * sinc)
    assert short_term_floor_rating("26.09.3") == 2
    assert short_term_floor_rating("26.08") == 2
    assert short_term_floor_rating("25.07.5") == 3
    assert short_term_floor_rating("26.05") == 3
    assert short_term_floor_rating("2.1.66") == 3
    assert short_term_floor_rating("26.05b2") == 3  # fsrs-rs 5.2 in that release
    assert short_term_floor_rating("26.08rc1") == 2
    assert short_term_floor_rating(None) == 2


def test_conversion_17_and_19_and_clipping():
    w17 = [0.4, 0.9, 2.3, 10.9, 4.93, 0.94, 0.86, 0.01, 1.49, 0.14, 0.94, 2.18, 0.05, 0.34, 1.26, 0.29, 2.61]
    w = to_fsrs6(w17)
    f = np.float32
    assert w[4] == pytest.approx(f(4.93) + 2 * f(0.94), rel=1e-6)
    assert w[5] == pytest.approx(math.log(3 * f(0.94) + 1) / 3, rel=1e-6)
    assert w[6] == pytest.approx(f(0.86) + 0.5, rel=1e-6)
    assert list(w[17:]) == [0.0, 0.0, 0.0, 0.5]
    w19 = to_fsrs6(list(DEFAULT_PARAMETERS[:19]))
    assert list(w19[19:]) == [0.0, 0.5]
    clipped = to_fsrs6([200.0] * 4 + [0.0] * 17)
    assert list(clipped[:4]) == [100.0] * 4
    assert clipped[4] == 1.0 and clipped[16] == 1.0 and clipped[20] == pytest.approx(0.1)


@pytest.mark.parametrize(
    "values, fragment",
    [
        ([1.0] * 5, "5 parameters"),
        ([float("nan")] * 21, "finite"),
        (["x"] * 21, "not a list of numbers"),
        ([None] * 21, "not a list of numbers"),
    ],  # NaN reaches Python as null through Anki's JSON
)
def test_malformed_parameters_are_named(values, fragment):
    with pytest.raises(EvaluationError, match=fragment) as err:
        to_fsrs6(values, where='Preset "Bad"')
    assert 'Preset "Bad"' in str(err.value)
