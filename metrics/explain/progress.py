"""Progress in words: each step a job reports (jobs/job.py Progress), as the command line and the dialog show it."""

from __future__ import annotations

from collections.abc import Callable

from ..kinds import Progress, ProgressCallback, Step
from . import formatting as fmt
from .lang import N_, text

STEPS = {
    Step.PRESETS: N_("FSRS with your presets' parameters"),
    Step.GIVEN_PARAMS: N_("FSRS with the given parameters"),
    Step.DEFAULTS: N_("FSRS with the default parameters"),
    Step.SM2: N_("SM-2"),
    Step.MOVING_AVG: N_("MOVING-AVG"),
    Step.TRAINING: N_("Training FSRS on the reviews before each test part"),
    Step.TRAINING_FIRST: N_("Training FSRS on the reviews before each test part, one part at a time"),
    Step.TRAINED_PART: N_("FSRS trained on the reviews before part {part} of {parts}"),
}


def progress_text(progress: Progress) -> str:
    """Return one progress line in the language in use (no final punctuation: the caller adds its own)."""
    return text(STEPS[progress.step], part=fmt.count(progress.part), parts=fmt.count(progress.parts))


def in_words(say: Callable[[str], None] | None) -> ProgressCallback | None:
    """Return a job's progress callback that says each step with `say` (None: nothing to say)."""
    if say is None:
        return None
    return lambda progress: say(progress_text(progress))
