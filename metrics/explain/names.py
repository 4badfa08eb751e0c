"""What people read for each model: a name, a short name for narrow tables, and one line on what it is."""

from __future__ import annotations

MODEL_NAMES = {
    "fsrs-preset": "FSRS, your presets",
    "fsrs-default": "FSRS, default parameters",
    "fsrs-out-of-sample": "FSRS, trained on earlier reviews",
    "sm2": "SM-2 (Anki's old scheduler)",
    "anki-interval": "Anki's scheduled intervals",
    "avg": "Average recall",
    "moving-avg": "Moving average",
}
MODEL_SHORT = {
    "fsrs-preset": "FSRS",
    "fsrs-default": "FSRS-def",
    "fsrs-out-of-sample": "FSRS-oos",
    "sm2": "SM-2",
    "anki-interval": "Anki ivl",
    "avg": "AVG",
    "moving-avg": "MOV-AVG",
}
MODEL_DESCRIPTIONS = {
    "fsrs-preset": "FSRS with each card's preset parameters (probably optimized on these same reviews: flatters).",
    "fsrs-default": "FSRS with its default parameters (FSRS-6), the same for everybody.",
    "fsrs-out-of-sample": "FSRS trained by Anki's optimizer only on the reviews before each predicted part "
    "(comparable with the FSRS benchmark).",
    "sm2": "SM-2's intervals turned into a recall forecast: 90% at the scheduled interval.",
    "anki-interval": "The interval Anki actually scheduled, as a forecast: 90% at that interval.",
    "avg": "Your average recall on the earlier reviews, the same for every card.",
    "moving-avg": "Your recent recall (an exponential moving average), the same for every card.",
}
