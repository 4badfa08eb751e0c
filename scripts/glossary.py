"""Anki's own words for the FSRS vocabulary, in each language the add-on ships: the glossary a translator of
the add-on starts from (one word for one thing, the word the learner sees in Anki).

    .venv/bin/python scripts/glossary.py [LANGUAGE ...]   # writes build/glossary/<language>.tsv

Each line: Anki's translation id, its English text, its text in the language (from the pinned Anki's own
catalogs, through anki.lang).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ANKI_CODES = {
    "ja": "ja_JP", "ko": "ko_KR", "vi": "vi_VN", "zh_CN": "zh_CN", "zh_TW": "zh_TW", "de": "de_DE", "es": "es_ES",
    "it": "it_IT", "fr": "fr_FR", "pt_BR": "pt_BR", "he": "he_IL", "ru": "ru_RU", "uk": "uk_UA", "pl": "pl_PL",
    "ar": "ar_SA",
}  # fmt: skip
WANTED = re.compile(
    r"fsrs|retention|optimi[sz]|preset|evaluat|log_loss|rmse|retrievab|stability|difficulty|health|ignore_before"
    r"|^studying_(again|hard|good|easy)$|^deck_config_title$|^qt_misc_browse$|^statistics_title$|^actions_options$"
    r"|^browsing_(cards|notes|filtered)$|^card_stats_(review_count|lapse_count|interval|deck_name|preset)$"
    r"|^statistics_reviews$|^decks_deck$|^actions_cancel$|^actions_close$|^actions_search$|^qt_misc_collection$"
    r"|learning_steps|relearning|^statistics_(true_retention|counts|intervals)"
)


def entries(tr: object) -> list[tuple[str, str]]:
    """Return (id, text) of every wanted id that takes no argument, in the language set."""
    out = []
    for name in sorted(n for n in dir(tr) if not n.startswith("_") and WANTED.search(n)):
        try:
            out.append((name, str(getattr(tr, name)())))
        except TypeError:
            continue
    return out


def main(languages: list[str]) -> None:
    import anki.lang as anki_lang

    anki_lang.set_lang("en_US")
    english = dict(entries(anki_lang.tr_legacyglobal))
    folder = ROOT / "build" / "glossary"
    folder.mkdir(parents=True, exist_ok=True)
    for language in languages or list(ANKI_CODES):
        anki_lang.set_lang(ANKI_CODES[language])
        rows = [f"{k}\t{english[k]!r}\t{v!r}" for k, v in entries(anki_lang.tr_legacyglobal) if k in english]
        (folder / f"{language}.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    anki_lang.set_lang("en_US")


if __name__ == "__main__":
    main(sys.argv[1:])
