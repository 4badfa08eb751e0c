"""Vectorized FSRS-6 replay: every card advances one review per step (fsrs-rs model.rs formulas)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..errors import Cancelled
from .params import D_MAX, D_MIN, S_MAX, S_MIN


@dataclass(frozen=True)
class Replay:
    """Predicted recall for every entry (NaN on each card's first) and final memory states."""

    retrievability: np.ndarray  # per entry, R(delta_t, S before the entry)
    stability: np.ndarray  # per card segment, after its last entry
    difficulty: np.ndarray  # per card segment, after its last entry
    difficulty_before: np.ndarray | None = None  # per entry, D before the entry (NaN on each card's first)


def forgetting_curve(t: np.ndarray, s: np.ndarray, decay: np.ndarray | float) -> np.ndarray:
    """Return R(t, S) = (1 + f t / S)^-decay with f = 0.9^(-1/decay) - 1 (so R(S, S) = 0.9)."""
    decay = np.asarray(decay, dtype=np.float64)
    factor = np.power(0.9, -1.0 / decay) - 1.0
    return np.power(np.asarray(t, dtype=np.float64) / s * factor + 1.0, -decay)


@dataclass(frozen=True)
class _Layout:
    """The entries in position-major order: block p holds the p-th entry of every card with more than p,
    longest histories first, so the cards still active at step p are the first ones."""

    order: np.ndarray  # segments longest first
    offsets: np.ndarray  # block p is slots offsets[p]..offsets[p+1]
    row_of_slot: np.ndarray  # the entry each slot holds


def _layout(first: np.ndarray, n: int) -> _Layout:
    """Return the position-major layout of n entries grouped by card (each group starts where `first`)."""
    itype = np.int32 if n < 2**31 else np.int64
    seg_start_idx = np.flatnonzero(first).astype(itype)
    n_seg = seg_start_idx.size
    seg = np.cumsum(first, dtype=itype) - 1
    pos = np.arange(n, dtype=itype) - seg_start_idx[seg]
    lengths = np.diff(np.append(seg_start_idx, n))
    # Rank segments longest first, so the cards still active at step p are ranks 0..m_p-1.
    order = np.argsort(-lengths, kind="stable")
    rank = np.empty(n_seg, dtype=itype)
    rank[order] = np.arange(n_seg, dtype=itype)
    offsets = np.concatenate(([0], np.cumsum(np.bincount(pos))))
    slot = offsets[pos] + rank[seg]  # position-major layout: block p holds ranks 0..m_p-1
    del pos, rank, seg
    row_of_slot = np.empty(n, dtype=itype)
    row_of_slot[slot] = np.arange(n, dtype=itype)
    return _Layout(order, offsets, row_of_slot)


@dataclass(frozen=True)
class _Weights:
    """The parameters of each segment, longest first, as rows w[i] (float32), with the constants derived
    from them once (fsrs-rs computes them per step)."""

    w: np.ndarray  # (21, segments)
    decay: np.ndarray  # -w20
    factor: np.ndarray  # 0.9^(1/decay) - 1
    exp_w8: np.ndarray
    d0_easy: np.ndarray  # unclamped D0(4): the mean-reversion target
    fail_cap: np.ndarray  # exp(w17 w18): a lapse's stability is at most S / fail_cap
    neg_w9: np.ndarray
    neg_w12: np.ndarray
    neg_w19: np.ndarray

    @classmethod
    def of(cls, w: np.ndarray) -> _Weights:
        """Return the weights of rows `w` (21, segments) with their derived constants."""
        decay = -w[20]
        factor = np.exp(np.log(np.float32(0.9)) / decay) - np.float32(1.0)
        d0_easy = w[4] - np.exp(w[5] * np.float32(3.0)) + np.float32(1.0)
        return cls(w, decay, factor, np.exp(w[8]), d0_easy, np.exp(w[17] * w[18]), -w[9], -w[12], -w[19])

    def head(self, m: int) -> _Weights:
        """Return the weights of the first m segments (views)."""
        return _Weights(
            self.w[:, :m],
            self.decay[:m],
            self.factor[:m],
            self.exp_w8[:m],
            self.d0_easy[:m],
            self.fail_cap[:m],
            self.neg_w9[:m],
            self.neg_w12[:m],
            self.neg_w19[:m],
        )


def _segment_weights(params: np.ndarray, param_index: np.ndarray | None, order: np.ndarray) -> _Weights:
    """Return each segment's parameters, longest first (`params` per segment, or per set with `param_index`)."""
    # float32 throughout, operation for operation as fsrs-rs (model.rs), which Anki runs: near
    # R = 1 the rounding of 1 - R matters to the log loss of a lapse.
    sets = np.asarray(params, dtype=np.float32)
    if param_index is None:
        return _Weights.of(np.ascontiguousarray(sets[order].T))  # (21, segments), longest first
    return _Weights.of(np.ascontiguousarray(sets.T[:, np.asarray(param_index)[order]]))


def _init_state(p: _Weights, g0: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return the stability and difficulty after each card's first entry (its rating clamped to 1..4)."""
    g0 = np.clip(g0, 1, 4).astype(np.int64)
    s = np.clip(p.w[g0 - 1, np.arange(g0.size)], S_MIN, S_MAX)  # init_stability
    d = np.clip(p.w[4] - np.exp(p.w[5] * (g0 - 1).astype(np.float32)) + np.float32(1.0), D_MIN, D_MAX)
    return s, d  # init_difficulty


def _retrievability(p: _Weights, t: np.ndarray, s: np.ndarray) -> np.ndarray:
    """power_forgetting_curve: R(t, S) = (1 + factor t / S)^-decay."""
    return np.power(t / s * p.factor + 1.0, p.decay)


def _stability_after_success(
    p: _Weights, s: np.ndarray, d: np.ndarray, one_minus_r: np.ndarray, g: np.ndarray
) -> np.ndarray:
    """stability_after_success, with the Hard penalty (w15) and the Easy bonus (w16)."""
    bonus = np.where(g == 2, p.w[15], np.float32(1.0))
    easy = np.where(g == 4, p.w[16], np.float32(1.0))
    growth = p.exp_w8 * (11.0 - d) * np.power(s, p.neg_w9) * (np.exp(one_minus_r * p.w[10]) - 1.0)
    return s * (growth * bonus * easy + 1.0)


def _stability_after_failure(
    p: _Weights, at: np.ndarray, s: np.ndarray, d: np.ndarray, one_minus_r: np.ndarray
) -> np.ndarray:
    """stability_after_failure of the segments `at` (s, d and 1 - R theirs), at most S / exp(w17 w18)."""
    lapse = (
        p.w[11, at]
        * np.power(d, p.neg_w12[at])
        * (np.power(s + 1.0, p.w[13, at]) - 1.0)
        * np.exp(one_minus_r * p.w[14, at])
    )
    return np.minimum(lapse, s / p.fail_cap[at])


def _stability_short_term(p: _Weights, at: np.ndarray, s: np.ndarray, g: np.ndarray, floor_rating: int) -> np.ndarray:
    """stability_short_term of the same-day segments `at` (s and g theirs), its gain floored at 1 for ratings
    >= floor_rating."""
    sinc = np.exp(p.w[17, at] * (g - 3.0 + p.w[18, at])) * np.power(s, p.neg_w19[at])
    return s * np.where(g >= floor_rating, np.maximum(sinc, 1.0), sinc)


def _next_difficulty(p: _Weights, d: np.ndarray, g: np.ndarray) -> np.ndarray:
    """next_difficulty: linear damping towards 10, then mean reversion towards D0(4)."""
    delta_d = -p.w[6] * (g - 3.0)
    new_d = d + (10.0 - d) * delta_d / 9.0
    return p.w[7] * (p.d0_easy - new_d) + new_d


def _step(
    p: _Weights, s: np.ndarray, d: np.ndarray, g: np.ndarray, t: np.ndarray, floor_rating: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return (R before the entry, new S, new D) of one entry per segment (fsrs-rs step), states clamped."""
    s = np.clip(s, S_MIN, S_MAX)
    d = np.clip(d, D_MIN, D_MAX)
    r = _retrievability(p, t, s)
    one_minus_r = 1.0 - r
    new_s = _stability_after_success(p, s, d, one_minus_r, g)
    fail = np.flatnonzero(g == 1)
    if fail.size:
        new_s[fail] = _stability_after_failure(p, fail, s[fail], d[fail], one_minus_r[fail])
    same = np.flatnonzero(t == 0)
    if same.size:
        new_s[same] = _stability_short_term(p, same, s[same], g[same], floor_rating)
    new_d = _next_difficulty(p, d, g)
    return r, np.clip(new_s, S_MIN, S_MAX), np.clip(new_d, D_MIN, D_MAX)


def replay(
    rating: np.ndarray,
    delta_t: np.ndarray,
    first: np.ndarray,
    params: np.ndarray,
    short_term_floor_rating: int = 2,
    param_index: np.ndarray | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> Replay:
    """Return FSRS predictions for entries grouped by card (each group starts where `first`).

    `params` holds 21 clipped parameters per card segment, shape (segments, 21), or per
    parameter set when `param_index` gives each segment's set.
    Same-day entries (delta_t == 0) use the short-term formula; its stability gain is
    floored at 1 for ratings >= `short_term_floor_rating` (2 in fsrs-rs >= 6, 3 before).
    `should_stop` is polled between steps; when it returns True, Cancelled is raised.
    """
    n = rating.size
    if n == 0:
        empty = np.zeros(0)
        return Replay(empty, empty, empty, empty)
    lay = _layout(first, n)
    g_all = rating[lay.row_of_slot]
    t_all = delta_t[lay.row_of_slot]
    weights = _segment_weights(params, param_index, lay.order)
    n_seg = lay.order.size
    r_rows = np.full(n, np.nan)
    d_rows = np.full(n, np.nan, dtype=np.float32)
    s_state, d_state = _init_state(weights, g_all[:n_seg])
    for p in range(1, lay.offsets.size - 1):
        if should_stop is not None and p % 16 == 0 and should_stop():
            raise Cancelled()
        lo, hi = lay.offsets[p], lay.offsets[p + 1]
        m = hi - lo
        g = g_all[lo:hi].astype(np.float32)
        t = t_all[lo:hi].astype(np.float32)
        rows = lay.row_of_slot[lo:hi]
        d_rows[rows] = d_state[:m]
        r, s_state[:m], d_state[:m] = _step(weights.head(m), s_state[:m], d_state[:m], g, t, short_term_floor_rating)
        r_rows[rows] = r
    stability = np.empty(n_seg, dtype=np.float32)
    difficulty = np.empty(n_seg, dtype=np.float32)
    stability[lay.order] = s_state
    difficulty[lay.order] = d_state
    return Replay(retrievability=r_rows, stability=stability, difficulty=difficulty, difficulty_before=d_rows)
