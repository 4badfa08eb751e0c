"""The words of the diagnosis ("What to do"): every finding's sentence, action and reason, as templates.

The finding modules (metrics/jobs/diagnose/) compute the numbers and fill these templates with them,
formatted by `formatting`; nothing here computes. A template's fields are `str.format` fields.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import formatting as fmt


@dataclass(frozen=True)
class Words:
    """What a finding says: a plain sentence, what to do ("" when nothing) and why we think so."""

    summary: str
    action: str = ""
    why: str = ""

    def fill(self, **values: object) -> Words:
        """Return the words with the fields filled in (each of the three texts may use any of them)."""
        return Words(self.summary.format(**values), self.action.format(**values), self.why.format(**values))


VERDICT_LABELS = {
    "problem": "Problem",
    "suggestion": "Suggestion",
    "ok": "OK",
    "not-enough-data": "Not enough data",
}
FINDING_TITLES = {
    "data": "Your data",
    "anki-health-check": "Anki's health check",
    "parameters": "Parameters",
    "hard-misuse": "The Hard button",
    "again-misuse": "The Again button",
    "retention": "Retention",
    "desired-retention": "Which desired retention to trust",
    "ignore-before": "Old reviews that mislead",
    "decks": "Decks",
    "cards": "Cards FSRS keeps getting wrong",
    "benchmark-standing": "Among the FSRS benchmark's learners",
    "since-last": "Since the last diagnosis",
}
OPTIMIZE = "Deck Options → (this preset) → FSRS → Optimize."
REOPTIMIZE = "Then optimize (Deck Options → FSRS → Optimize)."
COLLECTION = "collection"


def preset_scope(name: str) -> str:
    """Return the scope of a preset's findings ('preset "Japanese"')."""
    return f'preset "{name}"'


def deck_scope(name: str) -> str:
    """Return the scope of a deck's findings ('deck "Japanese::Kanji"')."""
    return f'deck "{name}"'


def unnamed_preset(preset_id: int) -> str:
    """Return the name of a preset the collection does not hold (a deck's options were deleted)."""
    return f"preset {preset_id}"


# Progress, as the dialog and the command line show it.
REPLAYING = "Replaying FSRS with your presets"
TRAINING_PRESET = "Training FSRS on earlier reviews of preset {name}"
TRAINING_DECK = "Training FSRS on deck {name} alone"
WAITING_FOR_HEALTH_CHECK = "Waiting for Anki's health check"

TOO_FEW = Words(
    "Too few reviews to judge this ({reviews}; at least {needed} are needed).",
    "Keep reviewing; ask again later.",
    "With fewer reviews the intervals are too wide for a verdict either way.",
)

DATA_TOO_FEW = Words(
    "Only {reviews} reviews can be scored here: too few for any verdict (at least {needed} are needed).",
    "Keep reviewing (or widen the scope) and ask again later.",
    "FSRS is scored on reviews on a later day than the card's previous review; with few of them every interval "
    "below is too wide to tell a real problem from chance.",
)
DATA_OK = Words(
    "{reviews} scored reviews on {cards} cards: enough for the checks below.",
    "",
    "Every verdict below rests on these reviews.",
)

RETENTION_NUMBERS = (
    "you recalled {measured} of {reviews} reviews (95% interval {interval}); your desired retention is {desired}"
)
RETENTION_OK = Words(
    "Retention is on target: {numbers}.",
    "",
    "FSRS schedules each review for your desired retention; measured recall matches it.",
)
RETENTION_BELOW_FSRS_OFF = Words(
    "Retention is below target, and below what FSRS predicted ({predicted}): {numbers}.",
    OPTIMIZE,
    "FSRS predicted more recall than you had (measured minus predicted {gap}, 95% interval {low} to {high}): its "
    "parameters overrate your memory, so the intervals are too long for you.",
)
RETENTION_BELOW_LATE = Words(
    "Retention is below target because {late} of these reviews came later than planned: {numbers}.",
    "Do reviews when they are due (overdue cards first); new parameters would not change this.",
    "FSRS predicted this recall for when you actually reviewed ({predicted}): the intervals were right, the "
    "reviews came at 1.5× their interval or later.",
)
RETENTION_BELOW_FLOOR = Words(
    "Retention is below target, as FSRS predicted ({predicted}), and it cannot schedule sooner: {numbers}.",
    "See the Again check of this preset.",
    "FSRS would need intervals under a day before most of these reviews; see the Again check.",
)
RETENTION_BELOW_AS_PREDICTED = Words(
    "Retention is below target, as FSRS predicted for when you reviewed ({predicted}): {numbers}.",
    "",
    "The predictions are right (measured minus predicted {gap}, 95% interval {low} to {high}) and the reviews came "
    "on time: these reviews were scheduled for another desired retention (after a change of it, or of "
    "parameters), and recall will follow as new intervals come due.",
)
RETENTION_ABOVE = Words(
    "Retention is above target: {numbers}.",
    "Nothing is wrong; if reviews feel too frequent you may lower desired retention (Deck Options → FSRS → "
    "Desired retention).",
    "FSRS predicted {predicted} for these reviews (measured minus predicted {gap}, 95% interval {low} to {high}).",
)

PARAMETERS_OPTIMIZED = Words(
    "This preset has optimized parameters ({values} values, {key}).",
    "",
    "Whether re-optimizing would help is judged out of sample in the comparison (Compare models).",
)
PARAMETERS_DEFAULT = Words(
    "This preset still uses FSRS's default parameters, with {reviews} reviews to learn yours from.",
    OPTIMIZE,
    "Parameters optimized on your own reviews predict your memory better than the defaults for almost every "
    "learner with this many reviews (the FSRS benchmark: FSRS-6 log loss 0.346 with optimized parameters against "
    "0.366 with the defaults).",
)

GAIN = "difference {gain:+.4f}, 95% interval {low:+.4f} to {high:+.4f}, bootstrap by card"
PARAMETERS_OOS_NUMBERS = (
    "log loss {trained} with parameters trained only on earlier reviews against {current} with the current ones, "
    "on the same {reviews} later reviews of {cards} cards ({gain})"
)
PARAMETERS_OOS_HELPS = Words(
    "Re-optimizing this preset's parameters should help: parameters trained on your earlier reviews predict the "
    "later ones better than the current parameters ({numbers}).",
    OPTIMIZE,
    "The test is out of sample: the trained parameters never saw the reviews they are scored on, and the gain's "
    "interval lies above zero.",
)
PARAMETERS_OOS_OK = Words(
    "Re-optimizing would not measurably help: {numbers}.",
    "",
    "Parameters trained only on earlier reviews do not beat the current ones beyond chance (the gain's 95% "
    "interval reaches zero or below).",
)

DECK_OFF = '"{deck}" ({gap}, 95% interval {low} to {high}, {reviews} reviews)'
DECKS_OK = Words(
    "In every deck with at least {min_group} reviews ({judged}), FSRS's predictions match your recall within "
    "chance (or within 3 percentage points).",
    "",
    "Each deck's measured minus predicted recall has a 95% interval that includes zero.",
)
DECKS_OFF = Words(
    "FSRS is off beyond chance in {decks}, measured minus predicted recall: {names}.",
    "Optimize these decks' presets; where such a deck shares its preset with other decks, its own finding below "
    "says whether a preset of its own would help.",
    "In these decks the 95% interval of measured minus predicted recall excludes zero and the gap is 3 "
    "percentage points or more; one preset's parameters may not fit them.",
)

OWN_PRESET_NUMBERS = (
    "log loss {trained} against {current} with its preset's trained the same way, on {reviews} later reviews ({gain})"
)
OWN_PRESET_HELPS = Words(
    "This deck would do better with a preset of its own: parameters trained on it alone predict its later reviews "
    "better ({numbers}).",
    "Deck Options → Add preset (for this deck only) → FSRS → Optimize.",
    "Both sets of parameters were trained by Anki's optimizer on the reviews before the same day, the shared "
    "preset's on all its decks, this deck's on its own; on this deck's reviews after that day its own beat the "
    "shared ones beyond chance.",
)
OWN_PRESET_OK = Words(
    "A preset of its own would not help this deck measurably ({numbers}).",
    "",
    "Both sets of parameters were trained by Anki's optimizer on the reviews before the same day, the shared "
    "preset's on all its decks, this deck's on its own; on this deck's later reviews its own do not beat the "
    "shared ones beyond chance.",
)

STANDING_WHY = (
    "Out of sample, as the benchmark scores its learners (it averages five time-series folds; here one split, as "
    "fair: the folds train on half the reviews on average): for each preset, FSRS trained only on the first half "
    "of its reviews predicts the second half. {source}"
)

HEALTH_NOT_RUN = Words("Anki ran no health check here (too few reviews to optimize).")
HEALTH_PASSED = Words("Anki's health check passed.", "", "Anki's check (run while optimizing) found nothing unusual.")
HEALTH_DISAGREE = (
    " Our checks disagree: {ids}. Anki's check looks at the optimizer's overall fit only, not at how each answer "
    "button is used."
)
HEALTH_FAILED = Words(
    "Anki's health check failed: the optimizer could not fit your reviews well.",
    "Check how you use the answer buttons (Again when forgotten), then optimize again.",
    "Anki's own words after Optimize: the health check found the parameters fit this preset's reviews poorly.",
)


def too_few(reviews: int, needed: int) -> Words:
    """Return the words of a not-enough-data finding."""
    return TOO_FEW.fill(reviews=fmt.count(reviews), needed=fmt.count(needed))


CARDS_OK = Words(
    "No card is forgotten more often than chance allows: {tested} cards with at least {min_reviews} reviews "
    "were tested ({reviews} reviews).",
    "",
    "Each card's lapses were compared with what FSRS predicted for it; with this many cards some are always "
    "unlucky, and none stood out beyond that (Benjamini–Hochberg, 5% false discoveries).",
)
CARDS_OFF = Words(
    "{cards} forgotten far more often than FSRS predicts: {lapses} lapses where {expected} were expected, on "
    "{reviews} reviews ({tested} cards tested).",
    "Show them in the Browser, then reformulate them, split them into smaller cards, add context that tells them "
    "apart from similar cards — or suspend them (Browser → Cards → Toggle Suspend).",
    "Each listed card lapsed more often than FSRS predicts for it (matched to its preset's overall lapse rate), "
    "beyond chance after testing {tested} cards (Benjamini–Hochberg, 5% false discoveries). No card is listed "
    "only for being the worst.",
)


def cards(n: int) -> str:
    """Return "1 card is" / "6 cards are"."""
    return "1 card is" if n == 1 else f"{fmt.count(n)} cards are"
