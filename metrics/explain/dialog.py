"""The dialog's own sentences about itself: out-of-date results, settings it could not use, the add-on's files,
scopes that no longer exist. Whole sentences with named fields (translators reorder them); nothing here computes.

Marked only (lang.N_): translated where they are filled or shown (lang.text, lang._), except the out-of-date lines,
which `stale` and `answered` return translated. {deck_options} is Anki's own word (lang.TERMS): fill with text().
"""

from __future__ import annotations

from . import formatting as fmt
from .lang import N_, _, n_, text

# -- results that no longer match what is selected (the lines above the tabs), for each kind of result --------
# One whole sentence per kind of result (evaluation, comparison, diagnosis); {button} is the label of the
# button that makes that result again (STALE_BUTTON, translated as the button is).
STALE_OTHER_SCOPE = {
    "evaluation": N_("Out of date — these results are for {scope}; press {button} for the scope chosen above."),
    "comparison": N_(
        "Out of date — the models' comparison are for {scope}; press {button} for the scope chosen above."
    ),
    "diagnosis": N_(
        "Out of date — the findings in What to do are for {scope}; press {button} for the scope chosen above."
    ),
}
STALE_OTHER_OPTIONS = {
    "evaluation": N_("Out of date — these results were made with other options; press {button}."),
    "comparison": N_("Out of date — the models' comparison were made with other options; press {button}."),
    "diagnosis": N_("Out of date — the findings in What to do were made with other options; press {button}."),
}
STALE_CHANGED = {
    "evaluation": N_(
        "Out of date — the collection changed since these results were made (cards, decks or presets); press {button}."
    ),
    "comparison": N_(
        "Out of date — the collection changed since the models' comparison were made (cards, decks or presets); "
        "press {button}."
    ),
    "diagnosis": N_(
        "Out of date — the collection changed since the findings in What to do were made (cards, decks or "
        "presets); press {button}."
    ),
}
STALE_BUTTON = {
    "evaluation": N_("Evaluate"),
    "comparison": N_("Compare models"),
    "diagnosis": N_("Find out what to do"),
}

# -- scopes ----------------------------------------------------------------------------------------------------
DECK_GONE = N_('There is no deck "{name}" any more (renamed or deleted?): choose a deck.')
PRESET_GONE = N_('There is no preset "{name}" any more (renamed or deleted?): choose a preset.')
CHOOSE_DECK = N_("Choose a deck first.")
CHOOSE_PRESET = N_("Choose a preset first.")
TYPE_SEARCH = N_("Type an Anki search first.")
SELECTED_CARDS = N_("the {count} cards selected in the Browser")
SELECTED_CARDS_SCOPE = N_("{count} cards selected in the Browser")
CHOOSE_CARDS = N_("Select cards in Anki's Browser, then its Cards menu: Evaluate FSRS on the selected cards.")
COLLECTION_CLOSED = N_("The collection was closed while this ran; open the dialog again.")

# -- settings (config.json, edited in Anki's add-on config editor) ---------------------------------------------
SETTINGS_NOT_OBJECT = N_("The add-on's settings are not a JSON object; using the defaults.")
SETTING_UNKNOWN = N_('Setting "{key}" is not one of this add-on\'s settings; it is ignored.')
SETTING_NOT_ONE_OF = N_('Setting "{key}" is {value}, which is not one of {allowed}; using "{default}".')
SETTING_NOT_FLAG = N_('Setting "{key}" is {value}, which is not true or false; using {default}.')
SETTING_NOT_TEXT = N_('Setting "{key}" is {value}, which is not a text; using "{default}".')
SETTING_NO_SCOPE = N_(
    'Setting "scope_value" is {value}, which is not a deck name, preset name or search; the whole collection is '
    "evaluated."
)

# -- the add-on's own files ------------------------------------------------------------------------------------
HISTORY_UNREADABLE = N_(
    "Past diagnoses are not compared, and this one is not kept: the add-on's file of them cannot be read ({why}). "
    "Move it away to start a new one: {path}"
)
HISTORY_UNWRITABLE = N_("This diagnosis could not be added to the history of diagnoses: {reason}")
KEPT_UNREADABLE = N_(
    "{deck_options} cannot show this add-on's numbers: its file of them cannot be read ({why}). Move it away to "
    "start a new one: {path}"
)
KEPT_UNWRITABLE = N_(
    "{deck_options} will not show these numbers: the add-on's file of them could not be written ({reason})."
)
HISTORY_NO_FOLDER = N_("Past diagnoses cannot be kept: the add-on's folder for them cannot be made ({reason}).")


def stale(template: dict[str, str], kind: str, **values: object) -> str:
    """Return an out-of-date line (STALE_OTHER_SCOPE, STALE_OTHER_OPTIONS, STALE_CHANGED) for the result of `kind`
    (evaluation, comparison, diagnosis), in the language in use."""
    return text(template[kind], button=_(STALE_BUTTON[kind]), **values)


def answered(kind: str, count: int) -> str:
    """Return the out-of-date line for `count` reviews answered since the result of `kind`, in the language in
    use (its plural rule)."""
    if kind == "evaluation":
        line = n_(
            "Out of date — {count} review was answered since these results were made; press {button}.",
            "Out of date — {count} reviews were answered since these results were made; press {button}.",
            count,
        )
    elif kind == "comparison":
        line = n_(
            "Out of date — {count} review was answered since the models' comparison were made; press {button}.",
            "Out of date — {count} reviews were answered since the models' comparison were made; press {button}.",
            count,
        )
    else:
        line = n_(
            "Out of date — {count} review was answered since the findings in What to do were made; press {button}.",
            "Out of date — {count} reviews were answered since the findings in What to do were made; press {button}.",
            count,
        )
    return line.format(count=fmt.count(count), button=_(STALE_BUTTON[kind]))
