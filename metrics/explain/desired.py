"""The sentences of the finding "desired-retention": the range of desired retentions FSRS can be trusted at."""

from __future__ import annotations

from .findings import Words
from .lang import N_

# One candidate off (OFF_AT, the items of {off}, joined by "; "), and the candidate at the preset's own ({here}).
OFF_AT = N_("{retention} ({gap} measured minus predicted, 95% interval {low} to {high}, {reviews} reviews)")
HERE = N_("{gap} measured minus predicted (95% interval {low} to {high}, {reviews} reviews)")
_WHY = N_(
    "Your reviews whose prediction was near each candidate retention (late and early reviews put many there): "
    "measured minus predicted recall, with 95% intervals taken together over the {count} candidates. Anki's "
    "desired-retention simulator assumes FSRS is calibrated at the retention you choose."
)
CALIBRATED = Words(
    "FSRS is calibrated at every {desired_retention} your reviews can test, from {low} to {high}.",
    "",
    _WHY,
)
CALIBRATED_ONE = Words(
    "FSRS is calibrated at every {desired_retention} your reviews can test, at {low}.",
    "",
    _WHY,
)
TRUSTED_HERE = Words(
    "FSRS is calibrated at your {desired_retention} ({desired}); it can be trusted from {low} to {high}.",
    "",
    "Your reviews whose prediction was near each candidate retention (late and early reviews put many there): "
    "measured minus predicted recall, with 95% intervals taken together over the {count} candidates. Anki's "
    "desired-retention simulator assumes FSRS is calibrated at the retention you choose. A candidate is off when "
    "its interval excludes zero and the gap is at least 3 percentage points. Off elsewhere: {off}.",
)
TRUSTED_HERE_ONE = Words(
    "FSRS is calibrated at your {desired_retention} ({desired}); it can be trusted at {low} only.",
    "",
    "Your reviews whose prediction was near each candidate retention (late and early reviews put many there): "
    "measured minus predicted recall, with 95% intervals taken together over the {count} candidates. Anki's "
    "desired-retention simulator assumes FSRS is calibrated at the retention you choose. A candidate is off when "
    "its interval excludes zero and the gap is at least 3 percentage points. Off elsewhere: {off}.",
)
OFF_HERE = Words(
    "FSRS is off at your {desired_retention} ({desired}): {here}; it would not give the recall it promises.",
    "Optimize ({deck_options} → FSRS → {optimize}), then check {desired_retention} again.",
    "Your reviews whose prediction was near each candidate retention (late and early reviews put many there): "
    "measured minus predicted recall, with 95% intervals taken together over the {count} candidates. Anki's "
    "desired-retention simulator assumes FSRS is calibrated at the retention you choose. A candidate is off when "
    "its interval excludes zero and the gap is at least 3 percentage points. Off: {off}.",
)
CANNOT_TELL_HERE = Words(
    "Too few of your reviews were predicted near your {desired_retention} ({desired}) to tell whether FSRS is "
    "calibrated there.",
    "",
    _WHY,
)
TOO_FEW = Words(
    "Too few reviews near any candidate {desired_retention} to tell ({reviews} reviews; a candidate needs {needed}).",
)

# The chart of the plan's desired-retention step (ui/views/retention_chart.py), translated where drawn.
CHART_AXIS = N_("desired retention (measured minus predicted recall near it)")
CHART_YOURS = N_("yours: {value}")
CHART_CALIBRATED = N_("calibrated")
CHART_OFF = N_("off")
CHART_TIP = N_(
    "Each dot: your reviews predicted near that desired retention, measured minus predicted recall, with its 95% "
    "interval (bar). Shaded: where FSRS can be trusted. Dashed: your desired retention."
)
