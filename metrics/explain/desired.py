"""The sentences of the finding "desired-retention": the range of desired retentions FSRS can be trusted at."""

from __future__ import annotations

from .findings import Words

OFF_AT = "{retention} ({gap} measured minus predicted, 95% interval {low} to {high}, {reviews} reviews)"
HERE = "{gap} measured minus predicted (95% interval {low} to {high}, {reviews} reviews)"
_WHY = (
    "Your reviews whose prediction was near each candidate retention (late and early reviews put many there): "
    "measured minus predicted recall, with 95% intervals taken together over the {count} candidates. Anki's "
    "desired-retention simulator assumes FSRS is calibrated at the retention you choose."
)
CALIBRATED = Words(
    "FSRS is calibrated at every desired retention your reviews can test, {tested}.",
    "",
    _WHY,
)
_OFF_WHY = _WHY + " A candidate is off when its interval excludes zero and the gap is at least 3 percentage points."
TRUSTED_HERE = Words(
    "FSRS is calibrated at your desired retention ({desired}); it can be trusted {trusted}.",
    "",
    _OFF_WHY + " Off elsewhere: {off}.",
)
OFF_HERE = Words(
    "FSRS is off at your desired retention ({desired}): {here}; it would not give the recall it promises.",
    "Optimize (Deck Options → FSRS → Optimize), then check desired retention again.",
    _OFF_WHY + " Off: {off}.",
)
TRUSTED = "from {low} to {high}"
TRUSTED_ONE = "at {low} only"
CANNOT_TELL_HERE = Words(
    "Too few of your reviews were predicted near your desired retention ({desired}) to tell whether FSRS is "
    "calibrated there.",
    "",
    _WHY,
)
TOO_FEW = Words(
    "Too few reviews near any candidate desired retention to tell ({reviews} reviews; a candidate needs {needed}).",
)

# The chart of the plan's desired-retention step (ui/views/retention_chart.py).
CHART_AXIS = "desired retention (measured minus predicted recall near it)"
CHART_YOURS = "yours: {value}"
CHART_CALIBRATED = "calibrated"
CHART_OFF = "off"
CHART_TIP = (
    "Each dot: your reviews predicted near that desired retention, measured minus predicted recall, with its 95% "
    "interval (bar). Shaded: where FSRS can be trusted. Dashed: your desired retention."
)
