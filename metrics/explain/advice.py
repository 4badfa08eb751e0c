"""Plain-words advice from an evaluation or a comparison, never saying more than the intervals allow.

Rules, in the order they are said:
1. Too few reviews compared (< MIN_REVIEWS): say so, and make no other claim.
2. A baseline (average, moving average, SM-2, Anki's intervals) as good as or better than FSRS with the
   presets, within the 95% intervals: said first, with what it likely means.
3. Out-of-sample FSRS against the best baseline: the only ground for saying that FSRS's parameters fit
   (they predict reviews they were not trained on better than a baseline does).
4. Presets against the defaults: better, worse (then: optimize) or equal within the intervals.
5. AUC: a plain verdict band, with its interval.
Two models differ "clearly" only when their 95% intervals do not overlap (a conservative test).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

from ..kinds import BASELINES
from . import formatting as fmt
from .lang import N_, _, text
from .names import MODEL_NAMES

Z95 = NormalDist().inv_cdf(0.975)  # as score/intervals.py: the wording imports no numpy

MIN_REVIEWS = 1000
AUC_BANDS = (  # the upper end of each band, and the whole sentence said of an AUC in it
    (
        0.6,
        N_(
            "AUC {auc} (95% interval {interval}, {reviews} reviews) is poor: barely better than a coin flip at "
            "telling which reviews you will forget."
        ),
    ),
    (
        0.7,
        N_(
            "AUC {auc} (95% interval {interval}, {reviews} reviews) is fair: FSRS tells the reviews you will forget "
            "from the others only roughly."
        ),
    ),
    (
        0.8,
        N_(
            "AUC {auc} (95% interval {interval}, {reviews} reviews) is good: FSRS usually ranks the reviews you will "
            "forget below the others."
        ),
    ),
    (
        1.01,
        N_(
            "AUC {auc} (95% interval {interval}, {reviews} reviews) is very good: FSRS ranks the reviews you will "
            "forget well below the others."
        ),
    ),
)


@dataclass(frozen=True)
class Score:
    """One model's log loss with its 95% interval, AUC and the counts behind them."""

    name: str
    log_loss: float
    ci: tuple[float, float]
    auc: float | None
    reviews: int
    remembered: int  # reviews answered Hard, Good or Easy


def _named(model: str) -> str:
    """Return a model's name in the language in use (an unknown model: its id)."""
    return _(MODEL_NAMES[model]) if model in MODEL_NAMES else model


def _scores(**named: Score) -> dict[str, str]:
    """Return the fields of scores said in a sentence: {<key>_log_loss} and its {<key>_interval} for each."""
    out = {}
    for key, s in named.items():
        out[f"{key}_log_loss"] = fmt.log_loss(s.log_loss)
        out[f"{key}_interval"] = fmt.interval(*s.ci)
    return out


def compare(a: Score, b: Score) -> int:
    """Return -1 if a's log loss is clearly lower (better) than b's, 1 if clearly higher, 0 if within noise."""
    if a.ci[1] < b.ci[0]:
        return -1
    if a.ci[0] > b.ci[1]:
        return 1
    return 0


def auc_interval(auc: float, positives: int, negatives: int) -> tuple[float, float]:
    """Return the 95% interval of an AUC (Hanley & McNeil's standard error, normal approximation)."""
    if positives <= 0 or negatives <= 0:
        return 0.0, 1.0
    q1, q2 = auc / (2 - auc), 2 * auc * auc / (1 + auc)
    var = (auc * (1 - auc) + (positives - 1) * (q1 - auc * auc) + (negatives - 1) * (q2 - auc * auc)) / (
        positives * negatives
    )
    half = Z95 * math.sqrt(max(var, 0.0))
    return max(0.0, auc - half), min(1.0, auc + half)


def auc_verdict(auc: float | None, reviews: int, remembered: int) -> str:
    """Return one sentence judging an AUC, with its interval and the reviews it rests on."""
    if auc is None:
        return text("AUC is undefined: all {reviews} reviews have the same answer kind.", reviews=fmt.count(reviews))
    low, high = auc_interval(auc, remembered, reviews - remembered)
    band = next(sentence for top, sentence in AUC_BANDS if auc < top)
    return text(band, auc=fmt.auc(auc), interval=fmt.interval(low, high, "auc"), reviews=fmt.count(reviews))


def advise(scores: dict[str, Score], reviews: int) -> list[str]:
    """Return the advice sentences for models' scores on the same `reviews` (see the module's rules), in the
    language in use."""
    if reviews < MIN_REVIEWS:
        return [
            text(
                "Only {reviews} reviews could be compared: too few to tell the models apart (at least {needed} are "
                "needed). The numbers are shown, but no conclusion is drawn from them.",
                reviews=fmt.count(reviews),
                needed=fmt.count(MIN_REVIEWS),
            )
        ]
    own = scores.get("fsrs-preset")
    oos = scores.get("fsrs-out-of-sample")
    default = scores.get("fsrs-default")
    baselines = [scores[b] for b in BASELINES if b in scores]
    n = fmt.count(reviews)
    out = _baseline_rivals(own, baselines, n)
    out += _generalises(oos, own, min(baselines, key=lambda s: s.log_loss, default=None), n)
    out += _presets_against_defaults(own, default, n)
    ranked = own or oos or default
    if ranked is not None:
        out.append(auc_verdict(ranked.auc, ranked.reviews, ranked.remembered))
    return out


def _baseline_rivals(own: Score | None, baselines: list[Score], n: str) -> list[str]:
    """Rule 2: a baseline as good as or better than FSRS with the presets (on `n` reviews, written)."""
    rivals = [b for b in baselines if own is not None and compare(b, own) <= 0]
    if own is None or not rivals:
        return []
    b = min(rivals, key=lambda s: s.log_loss)
    values = {"baseline": _named(b.name), "reviews": n, **_scores(baseline=b, fsrs=own)}
    if compare(b, own) < 0:
        return [
            text(
                "{baseline} does better than FSRS with your presets: log loss {baseline_log_loss} (95% interval "
                "{baseline_interval}) against {fsrs_log_loss} (95% interval {fsrs_interval}), on {reviews} reviews. "
                "FSRS's card-by-card predictions add little over that simple rule here. Common reasons: few "
                "reviews per card, answer buttons used inconsistently (Hard for a forgotten card), or "
                "parameters that do not fit ({deck_options} → FSRS → {optimize}).",
                **values,
            )
        ]
    return [
        text(
            "{baseline} does as well as (within the intervals) FSRS with your presets: log loss {baseline_log_loss} "
            "(95% interval {baseline_interval}) against {fsrs_log_loss} (95% interval {fsrs_interval}), on "
            "{reviews} reviews. FSRS's card-by-card predictions add little over that simple rule here. Common "
            "reasons: few reviews per card, answer buttons used inconsistently (Hard for a forgotten card), or "
            "parameters that do not fit ({deck_options} → FSRS → {optimize}).",
            **values,
        )
    ]


def _generalises(oos: Score | None, own: Score | None, best_baseline: Score | None, n: str) -> list[str]:
    """Rule 3: out-of-sample FSRS against the best baseline (or why fit cannot be judged without it)."""
    if oos is None:
        if own is None:
            return []
        return [
            text(
                "Whether your parameters fit cannot be said from these numbers: your presets were probably "
                "optimized on these same reviews. Include '{model}' in the comparison to find out.",
                model=_named("fsrs-out-of-sample"),
            )
        ]
    if best_baseline is None:
        return []
    verdict = compare(oos, best_baseline)
    values = {"baseline": _named(best_baseline.name), "reviews": n, **_scores(fsrs=oos, baseline=best_baseline)}
    if verdict < 0:
        return [
            text(
                "Trained only on earlier reviews, FSRS beats the best simple baseline ({baseline}) on reviews it had "
                "not seen: log loss {fsrs_log_loss} (95% interval {fsrs_interval}) against {baseline_log_loss} "
                "(95% interval {baseline_interval}), on {reviews} reviews. FSRS's model of your memory generalises.",
                **values,
            )
        ]
    if verdict == 0:
        return [
            text(
                "Trained only on earlier reviews, FSRS does no better than {baseline} within the intervals "
                "({fsrs_log_loss} (95% interval {fsrs_interval}) against {baseline_log_loss} (95% interval "
                "{baseline_interval}), on {reviews} reviews): the data cannot show that FSRS's parameters fit your "
                "memory better than a simple rule.",
                **values,
            )
        ]
    return [
        text(
            "Trained only on earlier reviews, FSRS does worse than {baseline} ({fsrs_log_loss} (95% interval "
            "{fsrs_interval}) against {baseline_log_loss} (95% interval {baseline_interval}), on {reviews} reviews): "
            "FSRS's parameters do not capture your reviews well.",
            **values,
        )
    ]


def _presets_against_defaults(own: Score | None, default: Score | None, n: str) -> list[str]:
    """Rule 4: the presets' parameters against the defaults."""
    if own is None or default is None:
        return []
    verdict = compare(own, default)
    values = {"reviews": n, **_scores(presets=own, defaults=default)}
    if verdict < 0:
        return [
            text(
                "Your presets' parameters predict better than the defaults: log loss {presets_log_loss} (95% "
                "interval {presets_interval}) against {defaults_log_loss} (95% interval {defaults_interval}), on "
                "{reviews} reviews.",
                **values,
            )
        ]
    if verdict > 0:
        return [
            text(
                "The default parameters predict better than your presets' ({defaults_log_loss} (95% interval "
                "{defaults_interval}) against {presets_log_loss} (95% interval {presets_interval}), on {reviews} "
                "reviews): optimize them ({deck_options} → FSRS → {optimize}).",
                **values,
            )
        ]
    return [
        text(
            "Your presets' parameters and the defaults predict equally well within the intervals ({presets_log_loss} "
            "(95% interval {presets_interval}) against {defaults_log_loss} (95% interval {defaults_interval}), on "
            "{reviews} reviews).",
            **values,
        )
    ]
