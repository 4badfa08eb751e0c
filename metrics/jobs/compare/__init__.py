"""Comparisons on the same reviews: FSRS (preset, default, out-of-sample), SM-2, Anki's interval, AVG,
MOVING-AVG. `compare(data, CompareInput(...), Job(...))` runs one; jobs/plan.py stages a large collection's.

pipeline.py runs the stages; folds.py the time-series folds and their trainings; models.py every other
model's predictions; scores.py the scores and matrices; result.py what a comparison returns.
"""

from .folds import N_SPLITS, FoldPlan, Trainer, fold_plan, histories_up_to, splits
from .pipeline import CompareInput, Prepared, compare
from .result import ComparedReviews, Comparison, ModelScores

__all__ = [
    "N_SPLITS",
    "ComparedReviews",
    "CompareInput",
    "Comparison",
    "FoldPlan",
    "ModelScores",
    "Prepared",
    "Trainer",
    "compare",
    "fold_plan",
    "histories_up_to",
    "splits",
]
