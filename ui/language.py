"""The dialog speaks Anki's language: the catalog of Anki's interface language, the numbers of its locale (Qt's
QLocale, so no locale data is shipped), and Anki's own words for the settings our sentences name (Deck Options,
Optimize, desired retention …: aqt's `tr`, the learner's Anki finds the same word; an Anki without one of these
ids keeps the catalog's word). Set when the add-on starts and again each time the dialog opens (the learner may
have changed the language in Preferences meanwhile)."""

from __future__ import annotations

import os
from collections.abc import Callable

from aqt.qt import QLocale

from ..metrics.explain import lang

# Our TERMS key → the id of Anki's translation of the same word (aqt.utils.tr).
ANKI_IDS = {
    "deck_options": "deck_config_title",
    "optimize": "deck_config_optimize_button",
    "desired_retention": "deck_config_desired_retention",
    "browse": "qt_misc_browse",
    "ignore_before": "deck_config_ignore_before",
    "health_check": "deck_config_health_check",
    "clone_preset": "deck_config_clone_group",
}


def anki_language() -> str:
    """Return Anki's interface language ("ja_JP"); English when Anki has none set."""
    try:
        from anki.lang import current_lang
    except ImportError:  # pragma: no cover — Anki always has it
        return lang.ENGLISH
    return str(current_lang or lang.ENGLISH)


def numbers(code: str) -> lang.Numbers:
    """Return the marks of the locale of a language code, as Qt writes them (dates with four-digit years;
    English keeps the ISO days its sentences always had)."""
    locale = QLocale(anki_language() if code == lang.PSEUDO else code)
    zero = locale.zeroDigit() or "0"
    digits = "".join(chr(ord(zero[0]) + i) for i in range(10))
    pattern = locale.dateFormat(QLocale.FormatType.ShortFormat).replace("\u200f", "")
    dates = pattern.replace("yyyy", "yy").replace("yy", "yyyy") if lang.base(code) != lang.ENGLISH else "yyyy-MM-dd"
    group = locale.groupSeparator() or ""
    four = bool(group) and group in locale.toString(8719)  # CLDR's minimum grouping: es, pl, it write "8719"
    return lang.Numbers(locale.decimalPoint() or ".", group, digits, dates, four)


def anki_terms(code: str, tr: object | None = None) -> dict[str, str]:
    """Return Anki's words for our TERMS in its language (none in English: our sentences keep their case)."""
    if lang.base(code) == lang.ENGLISH:
        return {}
    if tr is None:
        from aqt.utils import tr
    out = {}
    for key, anki_id in ANKI_IDS.items():
        word: Callable[[], str] | None = getattr(tr, anki_id, None)
        try:
            said = word() if word is not None else ""
        except Exception:  # noqa: BLE001 — an Anki whose id takes other arguments: keep ours
            said = ""
        if said:
            out[key] = said
    return out


OVERRIDE = "FSRS_CALIBRATION_LANGUAGE"  # a translator's check: this language (or x-pseudo) whatever Anki's is


def apply(code: str | None = None) -> lang.Language:
    """Use Anki's language (or `code`, or the environment's FSRS_CALIBRATION_LANGUAGE) for everything the add-on
    says from now on; return it."""
    code = code or os.environ.get(OVERRIDE) or anki_language()
    return lang.use(code, numbers(code), anki_terms(code))
