"""The learner's language: every sentence the add-on shows goes through here (Python's own gettext).

Messages are English source strings with named `str.format` fields, kept whole (translators reorder the
fields). They are marked where they are written and translated where they are used:

    TITLE = N_("Which desired retention to trust")     # marked: the catalog has it
    label.setText(_(TITLE))                            # translated now, in the language in use
    text(N_("{reviews} reviews since {date}"), reviews=..., date=...)   # translated, then filled
    n_("{count} step", "{count} steps", n).format(count=...)           # by the language's plural rule

Catalogs are `locale/<language>.po` beside this file, compiled to `locale/<language>/LC_MESSAGES/
fsrs_calibration.mo` when the add-on is built (scripts/catalogs.py). The language in use is one for the
process: the dialog sets Anki's (ui/language.py), the command line its environment's (`environment()`), and
`--json` always English. Anki's own words for the settings a sentence sends the learner to (Deck Options,
Optimize, desired retention …) are named fields (`TERMS`) that the dialog fills from Anki's translations
in any language but English (whose sentences keep their own case), so that the learner finds the same word
in Anki; elsewhere the catalog's own translation is used.

No numpy and no Qt here: the engine's workers translate while they fill their sentences.
"""

from __future__ import annotations

import gettext
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

DOMAIN = "fsrs_calibration"
FOLDER = Path(__file__).with_name("locale")
ENGLISH = "en"
PSEUDO = "x-pseudo"  # every message wrapped in ⟦ ⟧ and lengthened by a third: finds text that escaped
RIGHT_TO_LEFT = frozenset({"ar", "he", "fa", "ur", "ug", "yi"})
OPEN, CLOSE = "⟦", "⟧"


def N_(message: str) -> str:  # noqa: N802 — gettext's name for "mark, translate later"
    """Mark a message for the catalog; it is translated where it is used."""
    return message


def Nn_(singular: str, plural: str) -> tuple[str, str]:  # noqa: N802 — as N_, for a message with plural forms
    """Mark a message with plural forms for the catalog; `n_(*pair, n)` translates it where it is used."""
    return singular, plural


TERMS = {  # Anki's own words, as fields of our sentences; the dialog puts Anki's translation in
    "deck_options": N_("Deck Options"),
    "optimize": N_("Optimize"),
    "desired_retention": N_("desired retention"),
    "browse": N_("Browse"),
    "ignore_before": N_("Ignore cards reviewed before"),
    "health_check": N_("Check health when optimizing"),
    "clone_preset": N_("Clone Preset"),
}


@dataclass(frozen=True)
class Numbers:
    """How the language writes numbers: its decimal mark, thousands separator and digits (from Qt's locale in
    the dialog, the C library's in the command line)."""

    decimal: str = "."
    group: str = ","
    digits: str = "0123456789"  # Arabic's locale writes ٠١٢٣٤٥٦٧٨٩
    dates: str = "yyyy-MM-dd"  # the order of a date, as Qt's patterns write it ("dd.MM.yyyy")
    group_four: bool = True  # whether a four-digit number is grouped ("8.719"; Spanish, Polish, Italian: "8719")


@dataclass
class Language:
    """The language in use: its code, catalog, number marks, Anki's words for TERMS, and its direction."""

    code: str = ENGLISH
    catalog: gettext.NullTranslations = field(default_factory=gettext.NullTranslations)
    numbers: Numbers = field(default_factory=Numbers)
    terms: dict[str, str] = field(default_factory=dict)

    @property
    def right_to_left(self) -> bool:
        """Return whether the language is written right to left."""
        return base(self.code) in RIGHT_TO_LEFT


_now = Language()


def base(code: str) -> str:
    """Return the language of a code without its region ("pt" of "pt_BR")."""
    return code.replace("-", "_").split("_")[0].split(".")[0].split("@")[0].lower()


def current() -> Language:
    """Return the language in use."""
    return _now


def use(code: str | None, numbers: Numbers | None = None, terms: dict[str, str] | None = None) -> Language:
    """Use the catalog of `code` (Anki's "ja_JP", a POSIX "de_DE.UTF-8", PSEUDO; None or unknown: English)
    from now on, with these number marks and Anki's words for TERMS. Return it."""
    global _now
    code = code or ENGLISH
    _now = Language(code, catalog_for(code), numbers or Numbers(), dict(terms or {}))
    return _now


def catalog_for(code: str) -> gettext.NullTranslations:
    """Return the catalog for a language code: its region's ("zh_TW", "pt_BR"), else its language's, else none
    (English). Simplified Chinese is "zh_CN"; a bare "zh" is too."""
    if code == PSEUDO:
        return Pseudo()
    found = gettext.find(DOMAIN, str(FOLDER), languages=candidates(code))
    if found is None:
        return gettext.NullTranslations()
    with open(found, "rb") as file:
        return gettext.GNUTranslations(file)


def candidates(code: str) -> list[str]:
    """Return the catalog names to try for a code, most specific first."""
    clean = code.split(".")[0].split("@")[0].replace("-", "_")
    parts = clean.split("_")
    lang = parts[0].lower()
    region = parts[1].upper() if len(parts) > 1 else ""
    if lang == "zh":
        return ["zh_TW" if region in ("TW", "HK", "MO") or "Hant" in clean else "zh_CN"]
    return [f"{lang}_{region}", lang] if region else [lang]


def environment() -> str | None:
    """Return the language the environment asks for, as any gettext program reads it: the first of
    LANGUAGE (a list), LC_ALL, LC_MESSAGES, LANG that is set ("C" and "POSIX" are English)."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name, "")
        if value:
            first = value.split(":")[0]
            return ENGLISH if first in ("C", "POSIX") or first.startswith("C.") else first
    return None


def environment_numbers() -> Numbers:
    """Return the number marks of the environment's locale (LC_NUMERIC, as the C library has it installed);
    English marks when it has none."""
    import locale

    try:
        saved = locale.setlocale(locale.LC_NUMERIC)
        locale.setlocale(locale.LC_NUMERIC, "")
        conv = locale.localeconv()
        locale.setlocale(locale.LC_NUMERIC, saved)
    except (locale.Error, ValueError):
        return Numbers()
    decimal, group = str(conv.get("decimal_point") or "."), str(conv.get("thousands_sep") or "")
    return Numbers(decimal, group if group != decimal else "")


def for_command_line(argv: list[str]) -> Language:
    """Use the environment's language for a command line run; English for `--json` (which never changes)."""
    if "--json" in argv:
        return use(ENGLISH)
    code = environment()
    return use(code, environment_numbers() if code and base(code) != ENGLISH else None)


def _(message: str) -> str:
    """Return a message in the language in use ("" stays "": it is not the catalog's header)."""
    return _now.catalog.gettext(message) if message else message


def n_(singular: str, plural: str, n: int) -> str:
    """Return the form of a message for the number n, by the language's plural rule (one form in Japanese,
    three in Russian and Polish, six in Arabic)."""
    return _now.catalog.ngettext(singular, plural, int(n))


def term(key: str) -> str:
    """Return Anki's word for a TERMS key: Anki's translation when the dialog gave one, else ours."""
    return _now.terms.get(key) or _(TERMS[key])


# A full stop after a word that ends with one already (an abbreviation filled in: "3,2 p.p." + "." = "p.p..").
_ONE_STOP = re.compile(r"(?<=[^\W\d_]\.)\.(?!\.)")


def text(template: str, **values: object) -> str:
    """Return a message translated, then filled with `values` and Anki's words for any TERMS field."""
    translated = _(template)
    if "{" not in translated or not values and not any("{" + key + "}" in translated for key in TERMS):
        return translated
    terms = {key: term(key) for key in TERMS if "{" + key + "}" in translated}
    return _ONE_STOP.sub("", translated.format(**terms, **values))


class Pseudo(gettext.NullTranslations):
    """A pseudo-language: each message wrapped in ⟦ ⟧, its letters accented and its length grown by a third,
    its fields kept. Text without the wrapper on screen escaped the catalog; a control too small clips it."""

    def gettext(self, message: str) -> str:
        return pseudo(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return pseudo(msgid1 if n == 1 else msgid2)


_ACCENTED = str.maketrans("aceinouyACEINOUY", "àçéîñöüýÀÇÉÎÑÖÜÝ")


def pseudo(message: str) -> str:
    """Return the pseudo-language's form of a message (fields such as {count} kept as they are)."""
    out, depth = [], 0
    for char in message:
        depth += char == "{"
        out.append(char if depth else char.translate(_ACCENTED))
        depth -= char == "}" and depth > 0
    letters = sum(c.isalpha() for c in message)
    return OPEN + "".join(out) + "~" * max(1, letters // 3) + CLOSE
