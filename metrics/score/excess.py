"""Groups (cards) forgotten more often than predicted, beyond chance after testing many of them.

For each group of reviews with predicted recall p and outcome y, the lapses X = Σ(1 − y) are, if the
predictions are right, a sum of independent Bernoulli variables with probabilities q = 1 − p (a
Poisson-binomial). Its exact upper tail P(X ≥ observed) is the group's p-value, computed for all groups
at once by dynamic programming over their reviews (probabilities of 0, 1, …, K lapses, with the last
state absorbing "K or more"). Groups are listed when Benjamini–Hochberg over every group tested keeps
them at a false-discovery rate `q` (it also bounds the chance of listing any group at all at `q` when
every prediction is right).

What is tested is the card, not the preset: before the test, each stratum's (preset's) predictions are
shifted on the logit scale so that they expect as many lapses as the stratum had (`matched_to_observed`).
A preset whose FSRS is off for all its cards is what the retention and parameters findings report; here
a card is listed only when it lapses more than the preset's other cards with the same predictions.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

FALSE_DISCOVERY_RATE = 0.05
MAX_LAPSES_TRACKED = 64  # a tail beyond this many lapses is bounded by P(X >= 64): conservative


@dataclass(frozen=True)
class Excess:
    """Per group tested (all arrays of the same length, groups with at least `min_reviews` reviews)."""

    group: np.ndarray  # the group's key (card id)
    reviews: np.ndarray
    lapses: np.ndarray  # observed: reviews answered Again
    expected: np.ndarray  # Σ (1 − p): lapses the predictions expect
    variance: np.ndarray  # Σ p (1 − p)
    p_value: np.ndarray  # exact P(X >= lapses) when the predictions are right (1 where lapses <= expected)
    listed: np.ndarray  # bool: kept by Benjamini–Hochberg at FALSE_DISCOVERY_RATE

    @property
    def excess(self) -> np.ndarray:
        """Return observed minus expected lapses."""
        return self.lapses - self.expected

    def ranked(self) -> np.ndarray:
        """Return the indexes of the listed groups, the largest excess first."""
        idx = np.flatnonzero(self.listed)
        return idx[np.argsort(-self.excess[idx], kind="stable")]


def group_sums(starts: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Return the sums of `values` over the runs that begin at `starts` (ascending, first 0)."""
    return np.add.reduceat(values, starts) if values.size else np.zeros(0)


def upper_tails(q: np.ndarray, starts: np.ndarray, counts: np.ndarray, at_least: np.ndarray) -> np.ndarray:
    """Return P(X_g >= at_least[g]) for X_g the number of successes of independent Bernoulli(q) over group g.

    Groups are the runs of `q` beginning at `starts` with `counts` elements. Exact up to MAX_LAPSES_TRACKED
    (beyond, the bound P(X_g >= MAX_LAPSES_TRACKED)). One step per review position, over all groups at
    once: the work is the number of reviews times the states tracked.
    """
    states = int(min(MAX_LAPSES_TRACKED, max(1, int(at_least.max(initial=1))))) + 1
    order = np.argsort(-counts, kind="stable")  # longest first: the groups still running are a prefix
    first, shorter = starts[order], -counts[order]  # `shorter` ascends
    dist = np.zeros((starts.size, states))  # in `order`
    dist[:, 0] = 1.0
    for step in range(int(counts.max(initial=0))):
        running = int(np.searchsorted(shorter, -step, side="left"))  # groups with more than `step` reviews
        d = dist[:running]
        moved = d * q[first[:running] + step][:, None]
        d -= moved
        d[:, 1:] += moved[:, :-1]
        d[:, -1] += moved[:, -1]  # the last state absorbs "that many or more"
    dist[order] = dist.copy()
    k = np.minimum(at_least, states - 1).astype(np.int64)
    tail_mask = np.arange(states)[None, :] >= k[:, None]
    return np.minimum(1.0, (dist * tail_mask).sum(axis=1))


def benjamini_hochberg(p_values: np.ndarray, rate: float = FALSE_DISCOVERY_RATE) -> np.ndarray:
    """Return which hypotheses Benjamini–Hochberg rejects at false-discovery rate `rate`."""
    m = p_values.size
    if m == 0:
        return np.zeros(0, dtype=bool)
    order = np.argsort(p_values, kind="stable")
    passed = np.flatnonzero(p_values[order] <= rate * np.arange(1, m + 1) / m)
    keep = np.zeros(m, dtype=bool)
    if passed.size:
        keep[order[: passed[-1] + 1]] = True
    return keep


def matched_to_observed(q: np.ndarray, failed: np.ndarray, stratum: np.ndarray | None = None) -> np.ndarray:
    """Return lapse probabilities `q` shifted on the logit scale, per stratum, to sum to the observed lapses."""
    out = np.asarray(q, dtype=np.float64).copy()
    keys = np.zeros(out.size, dtype=np.int64) if stratum is None else stratum
    for key in np.unique(keys):
        at = keys == key
        target = float(failed[at].sum())
        if 0.0 < target < at.sum():
            out[at] = _shifted(out[at], target)
    return out


def _shifted(q: np.ndarray, target: float) -> np.ndarray:
    """Return sigmoid(logit(q) + d) with d (Newton's method) making its sum `target`."""
    logit = np.log(np.clip(q, 1e-9, 1 - 1e-9)) - np.log1p(-np.clip(q, 1e-9, 1 - 1e-9))
    d = 0.0
    for _ in range(50):
        shifted = 1.0 / (1.0 + np.exp(-(logit + d)))
        miss = float(shifted.sum()) - target
        slope = float((shifted * (1.0 - shifted)).sum())
        if abs(miss) < 1e-9 * max(1.0, target) or slope <= 0.0:
            break
        d -= max(-2.0, min(2.0, miss / slope))
    return 1.0 / (1.0 + np.exp(-(logit + d)))


def excess_lapses(
    group: np.ndarray,
    p: np.ndarray,
    y: np.ndarray,
    min_reviews: int,
    stratum: np.ndarray | None = None,
    rate: float = FALSE_DISCOVERY_RATE,
) -> Excess:
    """Return each group's lapses against its predictions; `group` sorted (equal keys adjacent).

    With `stratum` (each review's preset), the predictions are first matched to each stratum's observed
    lapses (`matched_to_observed`). Groups with fewer than `min_reviews` reviews are left out (not tested,
    not counted in the correction).
    """
    if group.size and np.any(group[1:] < group[:-1]):
        raise ValueError("group keys must be sorted")
    starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]]) if group.size else np.zeros(0, dtype=np.int64)
    counts = np.diff(np.r_[starts, group.size]).astype(np.int64)
    failed = 1.0 - np.asarray(y, dtype=np.float64)
    q = 1.0 - np.asarray(p, dtype=np.float64)
    if stratum is not None:
        q = matched_to_observed(q, failed, stratum)
    lapses = np.rint(group_sums(starts, failed)).astype(np.int64)
    expected = group_sums(starts, q)
    variance = group_sums(starts, q * (1.0 - q))
    tested = counts >= min_reviews
    p_value = np.ones(starts.size)
    worse = tested & (lapses > expected)
    if worse.any():
        p_value[worse] = upper_tails(q, starts[worse], counts[worse], lapses[worse])
    keep = benjamini_hochberg(p_value[tested], rate)
    return Excess(
        group=group[starts][tested] if group.size else group,
        reviews=counts[tested],
        lapses=lapses[tested],
        expected=expected[tested],
        variance=variance[tested],
        p_value=p_value[tested],
        listed=keep,
    )
