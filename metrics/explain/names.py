"""What people read for each model: a name, a short name for narrow tables, and one line on what it is."""

from __future__ import annotations

from .lang import N_

# Marked only (lang.N_): whoever shows them translates them (lang._), in the language in use then.
MODEL_NAMES = {
    "fsrs-preset": N_("FSRS, your presets"),
    "fsrs-default": N_("FSRS, default parameters"),
    "fsrs-out-of-sample": N_("FSRS, trained on earlier reviews"),
    "sm2": N_("SM-2 (Anki's old scheduler)"),
    "anki-interval": N_("Anki's scheduled intervals"),
    "avg": N_("Average recall"),
    "moving-avg": N_("Moving average"),
}
MODEL_SHORT = {
    "fsrs-preset": N_("FSRS"),
    "fsrs-default": N_("FSRS-def"),
    "fsrs-out-of-sample": N_("FSRS-oos"),
    "sm2": N_("SM-2"),
    "anki-interval": N_("Anki ivl"),
    "avg": N_("AVG"),
    "moving-avg": N_("MOV-AVG"),
}
MODEL_DESCRIPTIONS = {
    "fsrs-preset": N_("FSRS with each card's preset parameters (probably optimized on these same reviews: flatters)."),
    "fsrs-default": N_("FSRS with its default parameters (FSRS-6), the same for everybody."),
    "fsrs-out-of-sample": N_(
        "FSRS trained by Anki's optimizer only on the reviews before each predicted part "
        "(comparable with the FSRS benchmark)."
    ),
    "sm2": N_("SM-2's intervals turned into a recall forecast: 90% at the scheduled interval."),
    "anki-interval": N_("The interval Anki actually scheduled, as a forecast: 90% at that interval."),
    "avg": N_("Your average recall on the earlier reviews, the same for every card."),
    "moving-avg": N_("Your recent recall (an exponential moving average), the same for every card."),
}

# The evaluation's choices in words (the dialog's Calibration tab and the plain report say them alike).
BINS = {"benchmark": N_("benchmark bins"), "wiki": N_("wiki bins")}
WEIGHTS = {"recency": N_("recency weights"), "uniform": N_("equal weights")}
# Where a preset's parameters came from, in the report: FSRS's defaults, given (--params), or the preset's own, named
# by their FSRS version (a key such as "fsrsParams6" is Anki's, not the learner's word).
SOURCES = {"defaults": N_("defaults"), "given": N_("given")}
VERSIONS = {21: "FSRS-6", 19: "FSRS-5", 17: "FSRS-4.5"}
