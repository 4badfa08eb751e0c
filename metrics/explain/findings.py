"""The words of the diagnosis ("What to do"): every finding's sentence, action and reason, as templates.

The finding modules (metrics/jobs/diagnose/) compute the numbers and fill these templates with them,
formatted by `formatting`; nothing here computes. A template's fields are `str.format` fields.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..kinds import FindingId, Scope, ScopeKind, Verdict
from . import formatting as fmt
from .lang import N_, _, n_, text


@dataclass(frozen=True)
class Words:
    """What a finding says: a plain sentence, what to do ("" when nothing) and why we think so."""

    summary: str
    action: str = ""
    why: str = ""

    def fill(self, **values: object) -> Words:
        """Return the words translated into the language in use, with the fields filled in (each of the three
        texts may use any of them, and Anki's words: lang.TERMS)."""
        return Words(text(self.summary, **values), text(self.action, **values), text(self.why, **values))


VERDICT_LABELS = {  # translated where shown
    Verdict.PROBLEM: N_("Problem"),
    Verdict.SUGGESTION: N_("Suggestion"),
    Verdict.OK: N_("OK"),
    Verdict.NOT_ENOUGH_DATA: N_("Not enough data"),
}
FINDING_TITLES = {  # translated where shown
    FindingId.DATA: N_("Your data"),
    FindingId.ANKI_HEALTH_CHECK: N_("Anki's health check"),
    FindingId.PARAMETERS: N_("Parameters"),
    FindingId.HARD_MISUSE: N_("The Hard button"),
    FindingId.AGAIN_MISUSE: N_("The Again button"),
    FindingId.RETENTION: N_("Retention"),
    FindingId.DESIRED_RETENTION: N_("Which desired retention to trust"),
    FindingId.IGNORE_BEFORE: N_("Old reviews that mislead"),
    FindingId.DECKS: N_("Decks"),
    FindingId.CARDS: N_("Cards FSRS keeps getting wrong"),
    FindingId.BENCHMARK_STANDING: N_("Among the FSRS benchmark's learners"),
    FindingId.SINCE_LAST: N_("Since the last diagnosis"),
}
OPTIMIZE = N_("{deck_options} → (this preset) → FSRS → {optimize}.")  # an action (Words.fill fills Anki's words)
COLLECTION = N_("collection")  # the scope of the findings on the whole scope, where shown


def shown_scope(scope: Scope) -> str:
    """Return a finding's scope in the language in use, its name isolated."""
    if scope.kind is ScopeKind.PRESET:
        return text('preset "{preset}"', preset=fmt.name(scope.name))
    if scope.kind is ScopeKind.DECK:
        return text('deck "{deck}"', deck=fmt.name(scope.name))
    return _(COLLECTION)


def unnamed_preset(preset_id: int) -> str:
    """Return the name of a preset the collection does not hold (a deck's options were deleted)."""
    return text("preset {number}", number=preset_id)


# Progress, as the dialog and the command line show it (translated where the diagnosis says it).
REPLAYING = N_("Replaying FSRS with your presets")
TRAINING_PRESET = N_("Training FSRS on earlier reviews of preset {name}")
TRAINING_DECK = N_("Training FSRS on deck {name} alone")
WAITING_FOR_HEALTH_CHECK = N_("Waiting for Anki's health check")

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

# The numbers of a finding, one clause that several of its sentences hold as {numbers} (filled with text()).
RETENTION_NUMBERS = N_(
    "you recalled {measured} of {reviews} reviews (95% interval {interval}); your {desired_retention} is {desired}"
)
RETENTION_OK = Words(
    "Retention is on target: {numbers}.",
    "",
    "FSRS schedules each review for your {desired_retention}; measured recall matches it.",
)
RETENTION_BELOW_FSRS_OFF = Words(
    "Retention is below target, and below what FSRS predicted ({predicted}): {numbers}.",
    OPTIMIZE,
    "FSRS predicted more recall than you had (measured minus predicted {gap}, 95% interval {low} to {high}): its "
    "parameters overrate your memory, so the intervals are too long for you.",
)
RETENTION_BELOW_FSRS_OFF_KEPT = Words(
    "Retention is below target, and below what FSRS predicted ({predicted}): {numbers}. Re-optimizing would not "
    "close this gap.",
    "",
    "FSRS predicted more recall than you had (measured minus predicted {gap}, 95% interval {low} to {high}), but "
    "parameters trained on your earlier reviews did not predict your later ones better (see Parameters): no "
    "setting of Anki closes this gap, and your intervals run a little long for you.",
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
    "on time: these reviews were scheduled for another {desired_retention} (after a change of it, or of "
    "parameters), and recall will follow as new intervals come due.",
)
RETENTION_ABOVE = Words(
    "Retention is above target: {numbers}.",
    "Nothing is wrong; if reviews feel too frequent you may lower {desired_retention} ({deck_options} → FSRS → "
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

GAIN = N_("difference {gain}, 95% interval {low} to {high}, bootstrap by card")  # log-loss gains, signed
PARAMETERS_OOS_NUMBERS = N_(
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

DECK_OFF = N_('"{deck}" ({gap}, 95% interval {low} to {high}, {reviews} reviews)')  # one of DECKS_OFF's {names}
DECKS_OK = Words(
    "In every deck with at least {min_group} reviews ({judged}), FSRS's predictions match your recall within "
    "chance (or within 3 percentage points).",
    "",
    "Each deck's measured minus predicted recall has a 95% interval that includes zero.",
)
DECKS_OFF = Words(
    "",  # the summary has a form per number of decks: decks_off
    "Optimize these decks' presets; where such a deck shares its preset with other decks, its own finding below "
    "says whether a preset of its own would help.",
    "In these decks the 95% interval of measured minus predicted recall excludes zero and the gap is 3 "
    "percentage points or more; one preset's parameters may not fit them.",
)

OWN_PRESET_NUMBERS = N_(
    "log loss {trained} against {current} with its preset's trained the same way, on {reviews} later reviews ({gain})"
)
OWN_PRESET_HELPS = Words(
    "This deck would do better with a preset of its own: parameters trained on it alone predict its later reviews "
    "better ({numbers}).",
    "{deck_options} → Add preset (for this deck only) → FSRS → {optimize}.",
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

STANDING_WHY = N_(
    "Out of sample, as the benchmark scores its learners (it averages five time-series folds; here one split, as "
    "fair: the folds train on half the reviews on average): for each preset, FSRS trained only on the first half "
    "of its reviews predicts the second half. {source}"
)

HEALTH_NOT_RUN = Words("Anki ran no health check here (too few reviews to optimize).")
HEALTH_PASSED = Words("Anki's health check passed.", "", "Anki's check (run while optimizing) found nothing unusual.")
HEALTH_PASSED_DISAGREE = Words(
    "Anki's health check passed.",
    "",
    "Anki's check (run while optimizing) found nothing unusual. Our checks disagree: {ids}. Anki's check looks at "
    "the optimizer's overall fit only, not at how each answer button is used.",
)
HEALTH_FAILED = Words(
    "Anki's health check failed: the optimizer could not fit your reviews well.",
    "Check how you use the answer buttons (Again when forgotten), then optimize again.",
    "Anki's own words after {optimize}: the health check found the parameters fit this preset's reviews poorly.",
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
    "",  # the summary has a form per number of cards: cards_off
    "Show them in the Browser, then reformulate them, split them into smaller cards, add context that tells them "
    "apart from similar cards — or suspend them (Browser → Cards → Toggle Suspend).",
    "Each listed card lapsed more often than FSRS predicts for it (matched to its preset's overall lapse rate), "
    "beyond chance after testing {tested} cards (Benjamini–Hochberg, 5% false discoveries). No card is listed "
    "only for being the worst.",
)


def cards_off(n: int, **values: object) -> Words:
    """Return the words of the cards finding that lists `n` cards (values: lapses, expected, reviews, tested)."""
    said = CARDS_OFF.fill(**values)
    summary = n_(
        "{cards} card is forgotten far more often than FSRS predicts: {lapses} lapses where {expected} were "
        "expected, on {reviews} reviews ({tested} cards tested).",
        "{cards} cards are forgotten far more often than FSRS predicts: {lapses} lapses where {expected} were "
        "expected, on {reviews} reviews ({tested} cards tested).",
        n,
    )
    return Words(summary.format(cards=fmt.count(n), **values), said.action, said.why)


def decks_off(n: int, names: str) -> Words:
    """Return the words of the decks finding that finds `n` decks off, the largest gaps `names` (DECK_OFF each)."""
    said = DECKS_OFF.fill()
    summary = n_(
        "FSRS is off beyond chance in {decks} deck, measured minus predicted recall: {names}.",
        "FSRS is off beyond chance in {decks} decks, measured minus predicted recall: {names}.",
        n,
    )
    return Words(summary.format(decks=fmt.count(n), names=names), said.action, said.why)
