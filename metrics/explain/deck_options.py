"""The words of the add-on's section in Anki's Deck Options (ui/deck_options.py)."""

from __future__ import annotations

TITLE = "FSRS Calibration"
OPEN = "Evaluate this preset…"
CHECK = "Check whether it helped…"
NO_NUMBERS = "Not evaluated yet: see how well FSRS predicts this preset's reviews."
NO_AUC = "n/a"  # one outcome only: AUC is not defined
NUMBERS = "Last evaluated {date}: log loss {log_loss} · RMSE (bins) {rmse} · AUC {auc} · {reviews} reviews."
PLAN_NOTHING = "Last diagnosis {date}: nothing to change."
PLAN_ONE = "Last diagnosis {date}: 1 step ({actions})."
PLAN_MANY = "Last diagnosis {date}: {steps} steps ({actions})."
CHANGED = "This preset changed since its last diagnosis ({date}): Optimize or desired retention."
ACTIONS = {
    "answer-buttons": "answer buttons",
    "split-preset": "split the preset",
    "ignore-before": "ignore old reviews",
    "optimize": "optimize",
    "desired-retention": "desired retention",
    "review-cards": "cards to look at",
}
