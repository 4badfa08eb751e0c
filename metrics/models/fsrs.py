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


def forgetting_curve(t: np.ndarray, s: np.ndarray, decay: np.ndarray | float) -> np.ndarray:
    """Return R(t, S) = (1 + f t / S)^-decay with f = 0.9^(-1/decay) - 1 (so R(S, S) = 0.9)."""
    decay = np.asarray(decay, dtype=np.float64)
    factor = np.power(0.9, -1.0 / decay) - 1.0
    return np.power(np.asarray(t, dtype=np.float64) / s * factor + 1.0, -decay)


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
    n_seg = int(np.count_nonzero(first))
    if n == 0:
        empty = np.zeros(0)
        return Replay(empty, empty, empty)
    itype = np.int32 if n < 2**31 else np.int64
    seg_start_idx = np.flatnonzero(first).astype(itype)
    seg = np.cumsum(first, dtype=itype) - 1
    pos = np.arange(n, dtype=itype) - seg_start_idx[seg]
    lengths = np.diff(np.append(seg_start_idx, n))
    # Rank segments longest first, so the cards still active at step p are ranks 0..m_p-1.
    order = np.argsort(-lengths, kind="stable")
    rank = np.empty(n_seg, dtype=itype)
    rank[order] = np.arange(n_seg, dtype=itype)
    per_pos = np.bincount(pos)
    offsets = np.concatenate(([0], np.cumsum(per_pos)))
    slot = offsets[pos] + rank[seg]  # position-major layout: block p holds ranks 0..m_p-1
    del pos, rank, seg
    row_of_slot = np.empty(n, dtype=itype)
    row_of_slot[slot] = np.arange(n, dtype=itype)
    g_all = rating[row_of_slot]
    t_all = delta_t[row_of_slot]
    del slot

    # float32 throughout, operation for operation as fsrs-rs (model.rs), which Anki runs: near
    # R = 1 the rounding of 1 - R matters to the log loss of a lapse.
    sets = np.asarray(params, dtype=np.float32)
    if param_index is None:
        w = np.ascontiguousarray(sets[order].T)  # (21, segments), longest first
    else:
        w = np.ascontiguousarray(sets.T[:, np.asarray(param_index)[order]])
    decay = -w[20]
    factor = np.exp(np.log(np.float32(0.9)) / decay) - np.float32(1.0)
    exp_w8 = np.exp(w[8])
    d0_easy = w[4] - np.exp(w[5] * np.float32(3.0)) + np.float32(1.0)  # unclamped D0(4): mean-reversion target
    fail_cap = np.exp(w[17] * w[18])
    neg_w9, neg_w12, neg_w19 = -w[9], -w[12], -w[19]

    # First entry: initial stability and difficulty from its rating (clamped to 1..4).
    g0 = np.clip(g_all[:n_seg], 1, 4).astype(np.int64)
    r_rows = np.full(n, np.nan)
    s_state = np.clip(w[g0 - 1, np.arange(n_seg)], S_MIN, S_MAX)
    d_state = np.clip(w[4] - np.exp(w[5] * (g0 - 1).astype(np.float32)) + np.float32(1.0), D_MIN, D_MAX)

    for p in range(1, per_pos.size):
        if should_stop is not None and p % 16 == 0 and should_stop():
            raise Cancelled()
        lo, hi = offsets[p], offsets[p + 1]
        m = hi - lo
        g = g_all[lo:hi].astype(np.float32)
        t = t_all[lo:hi].astype(np.float32)
        s = np.clip(s_state[:m], S_MIN, S_MAX)
        d = np.clip(d_state[:m], D_MIN, D_MAX)
        r = np.power(t / s * factor[:m] + 1.0, decay[:m])
        r_rows[row_of_slot[lo:hi]] = r

        one_minus_r = 1.0 - r
        bonus = np.where(g == 2, w[15, :m], np.float32(1.0))
        easy = np.where(g == 4, w[16, :m], np.float32(1.0))
        growth = exp_w8[:m] * (11.0 - d) * np.power(s, neg_w9[:m]) * (np.exp(one_minus_r * w[10, :m]) - 1.0)
        new_s = s * (growth * bonus * easy + 1.0)
        fail = np.flatnonzero(g == 1)
        if fail.size:
            sf, df = s[fail], d[fail]
            lapse = (
                w[11, fail]
                * np.power(df, neg_w12[fail])
                * (np.power(sf + 1.0, w[13, fail]) - 1.0)
                * np.exp(one_minus_r[fail] * w[14, fail])
            )
            new_s[fail] = np.minimum(lapse, sf / fail_cap[fail])
        same = np.flatnonzero(t == 0)
        if same.size:
            ss, gs = s[same], g[same]
            sinc = np.exp(w[17, same] * (gs - 3.0 + w[18, same])) * np.power(ss, neg_w19[same])
            new_s[same] = ss * np.where(gs >= short_term_floor_rating, np.maximum(sinc, 1.0), sinc)

        delta_d = -w[6, :m] * (g - 3.0)
        new_d = d + (10.0 - d) * delta_d / 9.0
        new_d = w[7, :m] * (d0_easy[:m] - new_d) + new_d
        s_state[:m] = np.clip(new_s, S_MIN, S_MAX)
        d_state[:m] = np.clip(new_d, D_MIN, D_MAX)

    stability = np.empty(n_seg, dtype=np.float32)
    difficulty = np.empty(n_seg, dtype=np.float32)
    stability[order] = s_state
    difficulty[order] = d_state
    return Replay(retrievability=r_rows, stability=stability, difficulty=difficulty)
