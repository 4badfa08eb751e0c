"""The learner's headline, above the dialog's tabs: how well FSRS knows this learner's memory, in plain words with
its one number and the reviews behind it, and whether anything below needs doing — agreeing with the plan. The
statistics behind it (log loss, RMSE (bins), AUC, bins, weights, the same-day rule, the parameters' sources) are on
the Calibration and Report tabs."""

from __future__ import annotations

from . import formatting as fmt
from .lang import N_, _, n_, text

FRAME = N_("<b>{scope}</b>: {sentence}")  # the add-on's markup; the values are escaped
OFF_BY = N_("{number} percentage points")
HOW_WELL = N_("FSRS predicts your recall to within about {off} on average ({reviews} reviews)")
HOW_WELL_RANKED = N_(
    "FSRS predicts your recall to within about {off} on average ({reviews} reviews), better than it does for "
    "{beats} of the FSRS benchmark's learners with as many reviews"
)
WAITING = N_("{how_well}. Finding out what to do…")
ASK = N_("{how_well}. Press “Find out what to do” for the steps.")
NOTHING = N_("Nothing to change. {how_well}.")


def how_well(rmse: float, reviews: int, beats: float | None = None) -> str:
    """Return the plain-words part: FSRS's typical miss (RMSE (bins)) and the reviews it rests on, with where it falls
    among the FSRS benchmark's learners (`beats`: the percentage its out-of-sample RMSE (bins) beats) when known."""
    off = text(OFF_BY, number=fmt.local(f"{rmse * 100:.1f}"))
    if beats is None:
        return text(HOW_WELL, off=off, reviews=fmt.count(reviews))
    return text(HOW_WELL_RANKED, off=off, reviews=fmt.count(reviews), beats=fmt.percent(beats / 100, 0))


def before_diagnosis(rmse: float, reviews: int, diagnosing: bool) -> str:
    """Return the headline of an evaluation whose diagnosis runs now (or waits for its button)."""
    return text(WAITING if diagnosing else ASK, how_well=how_well(rmse, reviews))


def after_diagnosis(
    rmse: float,
    reviews: int,
    steps: int,
    notes: int,
    too_few: str = "",
    beats: float | None = None,
    later: bool = True,
) -> str:
    """Return the headline of a diagnosis: its steps to do (in order; `later`: some of them in a month, each saying
    when), or nothing to change (but its `notes`, counted), or `too_few` (the diagnosis's own line when its reviews
    are too few for any verdict); `beats` as how_well's."""
    if too_few:
        return too_few
    said = how_well(rmse, reviews, beats)
    if steps > 1 and not later:
        do = n_(
            "Do the {steps} step below, in order, to make FSRS fit you better. {how_well}.",
            "Do the {steps} steps below, in order, to make FSRS fit you better. {how_well}.",
            steps,
        )
        return do.format(how_well=said, steps=fmt.count(steps))
    if steps:
        do = n_(
            "Do the step below to make FSRS fit you better. {how_well}.",
            "Do the {steps} steps below, each when it says, to make FSRS fit you better. {how_well}.",
            steps,
        )
        return do.format(how_well=said, steps=fmt.count(steps))
    if notes:
        read = n_(
            "Nothing to change in Anki's settings; read the note below. {how_well}.",
            "Nothing to change in Anki's settings; read the notes below. {how_well}.",
            notes,
        )
        return read.format(how_well=said)
    return text(NOTHING, how_well=said)


def scope_frame() -> str:
    """Return the frame that puts the scope before the sentence (translated)."""
    return _(FRAME)
