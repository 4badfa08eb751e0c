"""Progress in words: each step a job reports (jobs/job.py Progress), as the command line and the dialog show it."""

from __future__ import annotations

from collections.abc import Callable

from ..jobs.job import Progress, ProgressCallback, Step

STEPS = {
    Step.PRESETS: "FSRS with your presets' parameters",
    Step.GIVEN_PARAMS: "FSRS with the given parameters",
    Step.DEFAULTS: "FSRS with the default parameters",
    Step.SM2: "SM-2",
    Step.MOVING_AVG: "MOVING-AVG",
    Step.TRAINING: "Training FSRS on the reviews before each test part",
    Step.TRAINING_FIRST: "Training FSRS on the reviews before each test part, one part at a time",
    Step.TRAINED_PART: "FSRS trained on the reviews before part {part} of {parts}",
}


def progress_text(progress: Progress) -> str:
    """Return one progress line (no final punctuation: the caller adds its own)."""
    return STEPS[progress.step].format(part=progress.part, parts=progress.parts)


def in_words(say: Callable[[str], None] | None) -> ProgressCallback | None:
    """Return a job's progress callback that says each step with `say` (None: nothing to say)."""
    if say is None:
        return None
    return lambda progress: say(progress_text(progress))
