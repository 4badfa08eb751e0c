"""The sentences of the finding "desired-retention": the range of desired retentions FSRS can be trusted at."""

from __future__ import annotations

from .findings import Words

OFF_AT = "{retention} ({gap} measured minus predicted, 95% interval {low} to {high}, {reviews} reviews)"
_WHY = (
    "Your reviews whose prediction was near each candidate retention (late and early reviews put many there): "
    "measured minus predicted recall, with 95% intervals taken together over the {count} candidates. Anki's "
    "desired-retention simulator assumes FSRS is calibrated at the retention you choose."
)
CALIBRATED = Words(
    "FSRS is calibrated at every desired retention your reviews can test: {tested}.",
    "",
    _WHY,
)
OFF = Words(
    "FSRS is off near {off}: a desired retention there would not give the recall it promises. {trusted}",
    "Keep desired retention in the trusted range (Deck Options → FSRS → Desired retention), or re-optimize "
    "(Optimize) and look again.",
    _WHY + " A candidate is off when its interval excludes zero and the gap is at least 3 percentage points.",
)
TRUSTED = "It is calibrated from {low} to {high}."
NOT_TRUSTED = "It is not calibrated at your desired retention either."
TOO_FEW = Words(
    "Too few reviews near any candidate desired retention to tell ({reviews} reviews; a candidate needs {needed}).",
)
