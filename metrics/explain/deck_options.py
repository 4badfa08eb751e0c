"""The words of the add-on's section in Anki's Deck Options (ui/deck_options.py)."""

from __future__ import annotations

from . import formatting as fmt
from .lang import N_, _, n_, text
from .plan import ACTION_WORDS

TITLE = N_("FSRS Calibration")
OPEN = N_("Evaluate this preset…")
CHECK = N_("Check whether it helped…")
NO_NUMBERS = N_("Not evaluated yet: see how well FSRS predicts this preset's reviews.")
NO_AUC = N_("n/a")  # one outcome only: AUC is not defined
NUMBERS = N_("Last evaluated {date}: log loss {log_loss} · RMSE (bins) {rmse} · AUC {auc} · {reviews} reviews.")
PLAN_NOTHING = N_("Last diagnosis {date}: nothing to change.")
PLAN_ONE = N_("Last diagnosis {date}: 1 step ({actions}).")  # plan_line says both by the language's plural rule
PLAN_MANY = N_("Last diagnosis {date}: {steps} steps ({actions}).")
CHANGED = N_("This preset changed since its last diagnosis ({date}): {optimize} or {desired_retention}.")


RETIRED = {"desired-retention": N_("desired retention")}  # a step of diagnoses kept from earlier versions


def plan_line(date: str, steps: int, actions: list[str]) -> str:
    """Return the line of a preset's last diagnosis on `date`: nothing to change, or its `steps` steps with
    their actions (as the add-on's file keeps them: Action values), in the language in use."""
    if steps == 0:
        return text(PLAN_NOTHING, date=date)
    known = {str(a): words.listed for a, words in ACTION_WORDS.items()} | RETIRED
    named = fmt.listed([_(known[a]) if a in known else a for a in actions])
    plural = n_(
        "Last diagnosis {date}: {steps} step ({actions}).", "Last diagnosis {date}: {steps} steps ({actions}).", steps
    )
    return plural.format(date=date, steps=fmt.count(steps), actions=named)
