"""The words of the button checks (hard-misuse, again-misuse): what is found, that the data cannot tell and how
large a misuse it would have shown, or that the answers look honest with the power to see it."""

from __future__ import annotations

from . import formatting as fmt
from .findings import Words
from .lang import N_

# The numbers of a finding, one clause that several of its sentences hold as {numbers} (filled with text()).
HARD_NUMBERS = N_(
    "after Hard you recalled {hard_measured} where FSRS predicted {hard_predicted} ({hard_reviews} reviews); "
    "after Good {good_measured} against {good_predicted} ({good_reviews} reviews)"
)
HARD_PROBLEM = Words(
    "Cards you answered Hard are forgotten more often than FSRS expects: recall after Hard is {lower} lower than "
    "after Good, relative to FSRS's prediction (95% interval {low} to {high}).",
    "When you have forgotten a card, press Again, even if it felt close; Hard means you remembered it with "
    "effort. Then optimize ({deck_options} → FSRS → {optimize}).",
    "Hard tells FSRS the card was remembered, so it schedules it further out; {numbers}. That is the pattern of "
    "forgotten cards answered Hard.",
)
HARD_OK = Words(
    "Your Hard answers look honest: had {share} of them been given to forgotten cards, recall after Hard would "
    "have been {effect} lower, and it is not (95% interval {low} to {high}).",
    "",
    "{numbers}. The check compares recall after Hard with recall after Good, each against FSRS's prediction; a "
    "drop of {effect} after Hard lies outside the interval of the difference.",
)
HARD_OK_UNKNOWN = Words(
    "Your Hard answers look honest: had an unknown share of them been given to forgotten cards, recall after Hard "
    "would have been {effect} lower, and it is not (95% interval {low} to {high}).",
    "",
    "{numbers}. The check compares recall after Hard with recall after Good, each against FSRS's prediction; a "
    "drop of {effect} after Hard lies outside the interval of the difference.",
)
HARD_OK_ALL = Words(
    "Your Hard answers look honest: had all of them been given to forgotten cards, recall after Hard would "
    "have been {effect} lower, and it is not (95% interval {low} to {high}).",
    "",
    "{numbers}. The check compares recall after Hard with recall after Good, each against FSRS's prediction; a "
    "drop of {effect} after Hard lies outside the interval of the difference.",
)
HARD_CANNOT_TELL = Words(
    "The data cannot tell yet whether Hard is pressed on forgotten cards: with {reviews} reviews after Hard, only "
    "a misuse of about {share} of Hard answers or more would show.",
    "Keep answering Again whenever you have forgotten; ask again after more reviews.",
    "{numbers}. The difference, {diff} (95% interval {low} to {high}), is within chance, but the interval still "
    "allows a drop of {effect} after Hard; parameters optimized on reviews with a misuse absorb part of it, so a "
    "small gap is not proof of honest answers.",
)
HARD_CANNOT_TELL_UNKNOWN = Words(
    "The data cannot tell yet whether Hard is pressed on forgotten cards: with {reviews} reviews after Hard, only "
    "a misuse of an unknown share of Hard answers would show.",
    "Keep answering Again whenever you have forgotten; ask again after more reviews.",
    "{numbers}. The difference, {diff} (95% interval {low} to {high}), is within chance, but the interval still "
    "allows a drop of {effect} after Hard; parameters optimized on reviews with a misuse absorb part of it, so a "
    "small gap is not proof of honest answers.",
)
HARD_CANNOT_TELL_ALL = Words(
    "The data cannot tell yet whether Hard is pressed on forgotten cards: with {reviews} reviews after Hard, only "
    "a misuse of all Hard answers would show.",
    "Keep answering Again whenever you have forgotten; ask again after more reviews.",
    "{numbers}. The difference, {diff} (95% interval {low} to {high}), is within chance, but the interval still "
    "allows a drop of {effect} after Hard; parameters optimized on reviews with a misuse absorb part of it, so a "
    "small gap is not proof of honest answers.",
)

HARD_ABSORBED = Words(
    "The data cannot show whether Hard is pressed on forgotten cards: this preset's parameters were trained on "
    "these answers, and what they learn from a misuse no longer shows as a gap.",
    "Check it yourself for a week: before pressing Hard, ask whether you recalled the answer; if you did not, "
    "press Again.",
    "{numbers}. The difference, {diff} (95% interval {low} to {high}), is within chance; in simulated learners "
    "whose parameters were optimized on their own answers, a misuse left no gap the check could rely on.",
)

AGAIN_NUMBERS = N_("after Again you recalled {measured} where FSRS predicted {predicted} ({reviews} reviews)")
AGAIN_SUGGESTION = Words(
    "Cards you answered Again are remembered more often than FSRS expects: {more} more than after Good, relative "
    "to FSRS's prediction (95% interval {low} to {high}).",
    "Press Again only when you could not recall the answer; for a slow or shaky recall press Hard. Then optimize "
    "({deck_options} → FSRS → {optimize}).",
    "Again tells FSRS the card was forgotten, so it resets its memory; {numbers}.",
)
AGAIN_FLOOR = Words(
    "FSRS cannot reach your {desired_retention} of {desired}: before {share} of your reviews it would need an "
    "interval under a day, and you recalled {measured} of {reviews} reviews, as it predicted ({predicted}).",
    "Press Again only when you could not recall the answer; for a slow or shaky recall press Hard. Then optimize "
    "({deck_options} → FSRS → {optimize}).",
    "Recall that stays below target even at one-day intervals is what Again pressed on remembered cards does: "
    "FSRS learns that memories fade within hours, and no interval Anki can give reaches the target (material far "
    "too hard to keep does the same). Retention 95% interval {low} to {high}.",
)
AGAIN_OK = Words(
    "Nothing suggests Again is pressed on remembered cards: had {share} of your Again answers been given to "
    "remembered cards, recall after Again would have been {effect} higher, and it is not (95% interval {low} to "
    "{high}).",
    "",
    "{numbers}. Recall after Again is compared with recall after Good, each against FSRS's prediction.",
)
AGAIN_OK_UNKNOWN = Words(
    "Nothing suggests Again is pressed on remembered cards: had an unknown share of your Again answers been given to "
    "remembered cards, recall after Again would have been {effect} higher, and it is not (95% interval {low} to "
    "{high}).",
    "",
    "{numbers}. Recall after Again is compared with recall after Good, each against FSRS's prediction.",
)
AGAIN_OK_ALL = Words(
    "Nothing suggests Again is pressed on remembered cards: had all of your Again answers been given to "
    "remembered cards, recall after Again would have been {effect} higher, and it is not (95% interval {low} to "
    "{high}).",
    "",
    "{numbers}. Recall after Again is compared with recall after Good, each against FSRS's prediction.",
)
AGAIN_OK_HARD_EXPLAINS = Words(
    "Nothing suggests Again is pressed on remembered cards: {numbers}.",
    "",
    "The Hard pattern above explains a gap after Again as well.",
)
AGAIN_ABSORBED = Words(
    "The data cannot show whether Again is pressed on remembered cards: this preset's parameters were trained on "
    "these answers, and what they learn from a misuse no longer shows as a gap.",
    "Check it yourself for a week: before pressing Again, ask whether you recalled the answer; if you did, even "
    "slowly, press Hard or Good.",
    "{numbers}. The difference from recall after Good, {diff} (95% interval {low} to {high}), is within chance; in "
    "simulated learners whose parameters were optimized on their own answers, this check judged Again pressed on "
    "shaky recalls honest.",
)
AGAIN_CANNOT_TELL = Words(
    "The data cannot tell yet whether Again is pressed on remembered cards: with {reviews} reviews after Again, "
    "only a misuse of about {share} of Again answers or more would show.",
    "Keep pressing Again only when you have forgotten; ask again after more reviews.",
    "{numbers}. The difference from recall after Good, {diff} (95% interval {low} to {high}), is within chance, "
    "but the interval still allows a rise of {effect}.",
)
AGAIN_CANNOT_TELL_UNKNOWN = Words(
    "The data cannot tell yet whether Again is pressed on remembered cards: with {reviews} reviews after Again, "
    "only a misuse of an unknown share of Again answers would show.",
    "Keep pressing Again only when you have forgotten; ask again after more reviews.",
    "{numbers}. The difference from recall after Good, {diff} (95% interval {low} to {high}), is within chance, "
    "but the interval still allows a rise of {effect}.",
)
AGAIN_CANNOT_TELL_ALL = Words(
    "The data cannot tell yet whether Again is pressed on remembered cards: with {reviews} reviews after Again, "
    "only a misuse of all Again answers would show.",
    "Keep pressing Again only when you have forgotten; ask again after more reviews.",
    "{numbers}. The difference from recall after Good, {diff} (95% interval {low} to {high}), is within chance, "
    "but the interval still allows a rise of {effect}.",
)


def share(effect: float, per_answer: float) -> tuple[str, str]:
    """Return which sentence fits the share of answers that, misused, would change recall after them by `effect`
    (each misused answer changes the next prediction by `per_answer`): "unknown", "all" or "percent", with the
    share written ("25%"; "" for the first two). Each finding has a whole sentence per kind (WORDS[kind])."""
    if not per_answer or per_answer != per_answer or per_answer <= 0:
        return "unknown", ""
    value = effect / per_answer
    if value >= 1:
        return "all", ""
    return "percent", fmt.percent(max(1, round(value * 100)) / 100, 0)


def by_share(kind: str, percent: Words, unknown: Words, every: Words) -> Words:
    """Return the words of a finding for a kind of share (see `share`)."""
    return {"unknown": unknown, "all": every}.get(kind, percent)
