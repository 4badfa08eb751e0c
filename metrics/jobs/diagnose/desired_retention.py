"""Finding "desired-retention": for candidate desired retentions (0.70 to 0.97), is FSRS calibrated where that
retention would put its predictions? The preset's own reviews predicted near each candidate (score/
near_retention.py), and the range of candidates it can be trusted at, around the preset's desired retention."""

from __future__ import annotations

from dataclasses import dataclass

from ...explain import desired as words
from ...explain import formatting as fmt
from ...explain.lang import text
from ...kinds import FindingId
from ...score.near_retention import MIN_REVIEWS as MIN_NEAR
from ...score.near_retention import Calibration, Candidate, near_retention, trusted_range
from .context import Context, PresetPart
from .evidence import Evidence
from .finding import MIN_REVIEWS, Finding, Verdict, too_few
from .retention import DEFAULT_RETENTION

ID = FindingId.DESIRED_RETENTION


@dataclass(frozen=True)
class RetentionCandidates(Evidence):
    """The preset's reviews, its desired retention, each candidate's reviews predicted near it and how they went,
    and the range of candidates FSRS can be trusted at around the preset's own (None: none)."""

    reviews: int
    desired: float
    candidates: tuple[Candidate, ...]
    trusted_range: tuple[float, float] | None


def check(ctx: Context, part: PresetPart) -> list[Finding]:
    """Return the desired-retention finding of one preset."""
    if not ctx.enough:
        return [too_few(ID, part.scope, part.reviews, MIN_REVIEWS)]
    s = ctx.scored
    found = near_retention(s.p[part.mask], s.y[part.mask])
    info = part.info
    desired = float(info.desired_retention) if info is not None and info.desired_retention else DEFAULT_RETENTION
    trusted = trusted_range(found, around=desired)
    evidence = RetentionCandidates(part.reviews, desired, tuple(found), trusted)
    judged = [c for c in found if c.verdict is not Calibration.NOT_ENOUGH_DATA]
    if not judged:
        said = words.TOO_FEW.fill(reviews=fmt.count(part.reviews), needed=fmt.count(MIN_NEAR))
        return [Finding.of(ID, Verdict.NOT_ENOUGH_DATA, part.scope, said, evidence)]
    off = [c for c in judged if c.verdict is Calibration.OFF]
    count = fmt.count(len(found))
    if not off:
        low, high = judged[0].retention, judged[-1].retention
        calibrated = words.CALIBRATED_ONE if low == high else words.CALIBRATED
        said = calibrated.fill(low=_pct(low), high=_pct(high), count=count)
        return [Finding.of(ID, Verdict.OK, part.scope, said, evidence)]
    here = min(found, key=lambda c: abs(c.retention - desired))  # the candidate at the preset's own
    places = fmt.listed([_off_at(c) for c in off], strong=True)
    values = {"desired": _pct(desired), "off": places, "count": count}
    if trusted is not None:
        here_words = words.TRUSTED_HERE_ONE if trusted[0] == trusted[1] else words.TRUSTED_HERE
        said = here_words.fill(low=_pct(trusted[0]), high=_pct(trusted[1]), **values)
        return [Finding.of(ID, Verdict.OK, part.scope, said, evidence)]
    if here.verdict is Calibration.NOT_ENOUGH_DATA:
        return [Finding.of(ID, Verdict.NOT_ENOUGH_DATA, part.scope, words.CANNOT_TELL_HERE.fill(**values), evidence)]
    said = words.OFF_HERE.fill(here=_off_at(here, words.HERE), **values)
    return [Finding.of(ID, Verdict.SUGGESTION, part.scope, said, evidence, affected=here.reviews)]


def _pct(r: float) -> str:
    return fmt.percent(r, 0)


def _off_at(c: Candidate, template: str = words.OFF_AT) -> str:
    low, high = fmt.points(c.low, True), fmt.points(c.high, True)
    gap = fmt.points(c.gap, True)
    return text(template, retention=_pct(c.retention), gap=gap, low=low, high=high, reviews=fmt.count(c.reviews))
