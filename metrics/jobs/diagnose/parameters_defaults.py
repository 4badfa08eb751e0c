"""Finding "parameters", in sample: does the preset still run on FSRS's defaults (never optimized)? Said when
the out-of-sample test does not run for it."""

from __future__ import annotations

from dataclasses import dataclass

from ...explain import findings as words
from ...explain import formatting as fmt
from ...kinds import FindingId
from .context import Context, PresetPart
from .evidence import Evidence
from .finding import MIN_REVIEWS, Finding, Verdict, too_few
from .parameters_oos import trains


@dataclass(frozen=True)
class ParametersEvidence(Evidence):
    """The preset's reviews and how many parameters it holds (0: FSRS's defaults)."""

    reviews: int
    parameters: int

    @property
    def defaults(self) -> bool:
        return self.parameters == 0


def check(ctx: Context, part: PresetPart) -> list[Finding]:
    """Return the parameters finding of a preset that was not judged out of sample."""
    if part.has_params and trains(ctx, part):
        return []
    if not ctx.enough:
        return [too_few(FindingId.PARAMETERS, part.scope, part.reviews, MIN_REVIEWS)]
    info = part.info
    if info is not None and info.params:
        said = words.PARAMETERS_OPTIMIZED.fill(values=fmt.count(len(info.params)), key=info.params_key)
        evidence = ParametersEvidence(part.reviews, len(info.params))
        return [Finding.of(FindingId.PARAMETERS, Verdict.OK, part.scope, said, evidence)]
    said = words.PARAMETERS_DEFAULT.fill(reviews=fmt.count(part.reviews))
    evidence = ParametersEvidence(part.reviews, 0)
    return [Finding.of(FindingId.PARAMETERS, Verdict.SUGGESTION, part.scope, said, evidence, affected=part.reviews)]
