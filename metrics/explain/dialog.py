"""The dialog's own sentences about itself: out-of-date results, settings it could not use, the add-on's files,
scopes that no longer exist. Whole sentences with named fields (translators reorder them); nothing here computes.
"""

from __future__ import annotations

# -- results that no longer match what is selected (the lines above the tabs), for each kind of result --------
STALE_OTHER_SCOPE = "Out of date — {what} are for {scope}; press {button} for the scope chosen above."
STALE_OTHER_OPTIONS = "Out of date — {what} were made with other options; press {button}."
STALE_ANSWERED_ONE = "Out of date — 1 review was answered since {what} were made; press {button}."
STALE_ANSWERED_MANY = "Out of date — {count} reviews were answered since {what} were made; press {button}."
STALE_CHANGED = "Out of date — the collection changed since {what} were made (cards, decks or presets); press {button}."
STALE_WHAT = {
    "evaluation": "these results",
    "comparison": "the models' comparison",
    "diagnosis": "the findings in What to do",
}
STALE_BUTTON = {"evaluation": "Evaluate", "comparison": "Compare models", "diagnosis": "Find out what to do"}

# -- scopes ----------------------------------------------------------------------------------------------------
DECK_GONE = 'There is no deck "{name}" any more (renamed or deleted?): choose a deck.'
PRESET_GONE = 'There is no preset "{name}" any more (renamed or deleted?): choose a preset.'
CHOOSE_DECK = "Choose a deck first."
CHOOSE_PRESET = "Choose a preset first."
TYPE_SEARCH = "Type an Anki search first."
SELECTED_CARDS = "the {count} cards selected in the Browser"
SELECTED_CARDS_SCOPE = "{count} cards selected in the Browser"
CHOOSE_CARDS = "Select cards in Anki's Browser, then its Cards menu: Evaluate FSRS on the selected cards."
COLLECTION_CLOSED = "The collection was closed while this ran; open the dialog again."

# -- settings (config.json, edited in Anki's add-on config editor) ---------------------------------------------
SETTINGS_NOT_OBJECT = "The add-on's settings are not a JSON object; using the defaults."
SETTING_UNKNOWN = 'Setting "{key}" is not one of this add-on\'s settings; it is ignored.'
SETTING_NOT_ONE_OF = 'Setting "{key}" is {value}, which is not one of {allowed}; using "{default}".'
SETTING_NOT_FLAG = 'Setting "{key}" is {value}, which is not true or false; using {default}.'
SETTING_NOT_TEXT = 'Setting "{key}" is {value}, which is not a text; using "{default}".'
SETTING_NO_SCOPE = (
    'Setting "scope_value" is {value}, which is not a deck name, preset name or search; the whole collection is '
    "evaluated."
)

# -- the add-on's own files ------------------------------------------------------------------------------------
HISTORY_UNREADABLE = (
    "Past diagnoses are not compared, and this one is not kept: the add-on's file of them cannot be read ({why}). "
    "Move it away to start a new one: {path}"
)
HISTORY_UNWRITABLE = "This diagnosis could not be added to the history of diagnoses: {reason}"
KEPT_UNREADABLE = (
    "Deck Options cannot show this add-on's numbers: its file of them cannot be read ({why}). Move it away to "
    "start a new one: {path}"
)
KEPT_UNWRITABLE = "Deck Options will not show these numbers: the add-on's file of them could not be written ({reason})."
HISTORY_NO_FOLDER = "Past diagnoses cannot be kept: the add-on's folder for them cannot be made ({reason})."


def stale(template: str, kind: str, **values: object) -> str:
    """Return an out-of-date line for the result of `kind` (evaluation, comparison, diagnosis)."""
    return template.format(what=STALE_WHAT[kind], button=STALE_BUTTON[kind], **values)


def answered(kind: str, count: int) -> str:
    """Return the out-of-date line for `count` reviews answered since the result of `kind`."""
    if count == 1:
        return stale(STALE_ANSWERED_ONE, kind)
    return stale(STALE_ANSWERED_MANY, kind, count=f"{count:,}")
