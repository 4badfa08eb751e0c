"""The learner's language (metrics/explain/lang.py, scripts/catalogs.py): catalogs complete and consistent,
plural rules as CLDR defines them, numbers, dates and directions by language, the pseudo-language."""

from __future__ import annotations

import gettext
import importlib.util
import io
import sys
from pathlib import Path

import pytest

from fsrs_calibration.metrics.explain import formatting as fmt
from fsrs_calibration.metrics.explain import lang

pytestmark = pytest.mark.anki_free  # no part of Anki: make test-oldest leaves it out

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("catalogs", ROOT / "scripts" / "catalogs.py")
assert _spec and _spec.loader
catalogs = importlib.util.module_from_spec(_spec)
sys.modules["catalogs"] = catalogs
_spec.loader.exec_module(catalogs)


@pytest.fixture(autouse=True)
def english_after():
    yield
    lang.use(None)


def test_the_template_holds_every_marked_message():
    """scripts/catalogs.py extract was run after the last change of a message (else translators miss it)."""
    marked = {(m.msgid, m.plural) for m in catalogs.extract().values()}
    kept = {(m.msgid, m.plural) for m in catalogs.read_po(catalogs.TEMPLATE)[1]}
    assert marked - kept == set(), "run: python scripts/catalogs.py extract && python scripts/catalogs.py update"
    assert kept - marked == set(), "run: python scripts/catalogs.py extract && python scripts/catalogs.py update"


@pytest.mark.parametrize("language", sorted(catalogs.PLURALS))
def test_every_shipped_language_is_complete(language):
    """Every message translated, with the English fields and the language's number of plural forms."""
    template = {m.msgid: m for m in catalogs.read_po(catalogs.TEMPLATE)[1]}
    assert catalogs.problems(language, template) == []


# CLDR's cardinal plural categories for integers, written out by hand: (n, index of the form gettext must pick).
CLDR = {
    "ja": [(0, 0), (1, 0), (2, 0), (101, 0)],
    "de": [(0, 1), (1, 0), (2, 1), (21, 1)],
    "fr": [(0, 0), (1, 0), (2, 1), (1000, 1)],
    "pt_BR": [(0, 0), (1, 0), (2, 1)],
    "ru": [(1, 0), (2, 1), (4, 1), (5, 2), (11, 2), (12, 2), (21, 0), (22, 1), (25, 2), (111, 2), (101, 0)],
    "uk": [(1, 0), (3, 1), (5, 2), (11, 2), (21, 0), (24, 1)],
    "pl": [(1, 0), (2, 1), (4, 1), (5, 2), (12, 2), (21, 2), (22, 1), (112, 2)],
    "he": [(1, 0), (2, 1), (3, 2), (10, 2), (20, 2)],
    "ar": [(0, 0), (1, 1), (2, 2), (3, 3), (10, 3), (11, 4), (99, 4), (100, 5), (102, 5), (103, 3), (111, 4)],
}


@pytest.mark.parametrize("language", sorted(CLDR))
def test_plural_rules_follow_cldr(language):
    rule = gettext.c2py(catalogs.PLURALS[language].split("plural=")[1].rstrip(";"))
    assert [(n, rule(n)) for n, _ in CLDR[language]] == CLDR[language]
    assert catalogs.nplurals(catalogs.header_for(language)) == 1 + max(i for _, i in CLDR[language])


def test_a_compiled_catalog_is_read_by_pythons_gettext():
    header = catalogs.header_for("ru")
    table = {"": header, "Deck": "Колода", "{n} review\0{n} reviews": "{n} повторение\0{n} повторения\0{n} повторений"}
    read = gettext.GNUTranslations(io.BytesIO(catalogs.mo_bytes(table)))
    assert read.gettext("Deck") == "Колода"
    assert [read.ngettext("{n} review", "{n} reviews", n) for n in (1, 3, 5)] == [
        "{n} повторение",
        "{n} повторения",
        "{n} повторений",
    ]
    assert read.gettext("Not there") == "Not there"


def test_po_files_round_trip(tmp_path, monkeypatch):
    monkeypatch.setattr(catalogs, "LOCALE", tmp_path)
    entries = [
        catalogs.Message('Say "{x}"\n', "", ["a.py:1"], ["Sag „{x}“\n"]),
        catalogs.Message("{n} step", "{n} steps", ["b.py:2"], ["{n} Schritt", "{n} Schritte"]),
    ]
    catalogs.write_po(tmp_path / "de.po", catalogs.header_for("de"), entries)
    header, back = catalogs.read_po(tmp_path / "de.po")
    assert header == catalogs.header_for("de")
    assert [(m.msgid, m.plural, m.strings) for m in back] == [(m.msgid, m.plural, m.strings) for m in entries]
    mo = catalogs.compile_po(tmp_path / "de.po")
    with open(mo, "rb") as file:
        read = gettext.GNUTranslations(file)
    assert read.gettext('Say "{x}"\n') == "Sag „{x}“\n" and read.ngettext("{n} step", "{n} steps", 2) == "{n} Schritte"


def test_a_catalog_with_other_fields_or_forms_is_refused():
    t = catalogs.Message("{reviews} reviews of {deck}")
    assert catalogs.entry_problems(catalogs.Message(t.msgid, strings=["{reviews} Wdh. von {Deck}"]), t, 2)
    assert not catalogs.entry_problems(catalogs.Message(t.msgid, strings=["{deck}: {reviews} Wdh."]), t, 2)
    p = catalogs.Message("{n} step", "{n} steps")
    assert catalogs.entry_problems(catalogs.Message(p.msgid, p.plural, strings=["a {n}", "b {n}"]), p, 3)
    assert catalogs.entry_problems(catalogs.Message(p.msgid, p.plural, strings=["", "", ""]), p, 3)


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("ja_JP", ["ja_JP", "ja"]),
        ("de_DE.UTF-8", ["de_DE", "de"]),
        ("pt_BR", ["pt_BR", "pt"]),
        ("zh_TW", ["zh_TW"]),
        ("zh_HK", ["zh_TW"]),
        ("zh", ["zh_CN"]),
        ("zh-Hans", ["zh_CN"]),
        ("he", ["he"]),
    ],
)
def test_which_catalog_a_language_code_reads(code, expected):
    assert lang.candidates(code) == expected


def test_the_environment_is_read_as_gettext_reads_it(monkeypatch):
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    assert lang.environment() is None
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    assert lang.environment() == "fr_FR.UTF-8"
    monkeypatch.setenv("LC_MESSAGES", "pl_PL.UTF-8")
    assert lang.environment() == "pl_PL.UTF-8"
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    assert lang.environment() == "en"
    monkeypatch.setenv("LANGUAGE", "ja:en")
    assert lang.environment() == "ja"


def test_numbers_follow_the_language():
    assert (fmt.count(12345), fmt.log_loss(0.46281), fmt.percent(0.4567)) == ("12,345", "0.4628", "45.7%")
    lang.use("de_DE", lang.Numbers(",", ".", dates="dd.MM.yyyy"))
    assert (fmt.count(12345), fmt.log_loss(0.46281), fmt.date("2026-01-05")) == ("12.345", "0,4628", "05.01.2026")
    lang.use("ar_SA", lang.Numbers("٫", "٬", "٠١٢٣٤٥٦٧٨٩"))
    assert fmt.count(1234) == "\u2066١٬٢٣٤\u2069"


def test_a_range_and_a_name_keep_their_direction_in_right_to_left():
    lang.use("ar_SA")
    low, high = fmt.percent(0.014), fmt.percent(0.333)
    assert fmt.interval(0.014, 0.333, "percent") == "\u2066" + low + "–" + high + "\u2069"  # never "33.3%–1.4%"
    assert low.startswith("\u2066") and low.endswith("\u2069")  # the sign on one side, alone or in a range
    assert fmt.name("Kanji") == "\u2066Kanji\u2069"  # its own direction, decided from its first letter
    assert fmt.name("Medicine (FSRS-4.5)") == "\u2066Medicine (FSRS-4.5)\u2069"
    assert fmt.name("(עברית) x") == "\u2067(עברית) x\u2069" and fmt.name("12") == "\u206812\u2069"
    lang.use("en")
    assert fmt.name("Kanji") == "Kanji" and fmt.name("עברית") == "\u2067עברית\u2069"


def test_the_pseudo_language_wraps_lengthens_and_keeps_fields():
    lang.use(lang.PSEUDO)
    said = lang.text("{reviews} reviews of deck {deck}", reviews="12", deck="Kanji")
    assert said.startswith(lang.OPEN) and said.endswith(lang.CLOSE)
    assert "12" in said and "Kanji" in said and "reviews" not in said  # letters accented, fields filled
    assert len(said) >= len("12 reviews of deck Kanji") * 4 // 3


def test_anki_words_fill_the_terms_and_english_keeps_its_own():
    assert lang.text("Open {deck_options}, then {optimize}.") == "Open Deck Options, then Optimize."
    lang.use("de_DE", terms={"deck_options": "Stapelprofile", "optimize": "Dieses Stapelprofil optimieren"})
    assert lang.text("Open {deck_options}, then {optimize}.").count("Stapelprofil") == 2


def test_report_labels_line_up_however_wide_the_language_writes_them():
    from fsrs_calibration.metrics.report.text import columns, width

    english = ["Reviews scored: 12", "Log loss:       0.3412", "AUC:            0.700"]
    assert columns(english) == english  # the English report is unchanged
    japanese = columns(["評価対象の復習：12 件", "log loss:       0.3412", "保持率:   88.5%"])
    starts = [width(line) - width(line.split("：")[-1].split(": ")[-1].lstrip()) for line in japanese]
    assert len(set(starts)) == 1, japanese  # the values start in one column (wide letters count two)
    assert columns(["at 12:30 it ran"]) == ["at 12:30 it ran"]  # a colon inside a value is not a label


def test_a_month_label_keeps_the_language_date_marks_in_the_chart():
    # a second reader (ru, uk): the Over time chart read "02,2025": the month, already written the language's way,
    # went through the number formatter, which turned its dot into the decimal comma
    from fsrs_calibration.metrics.explain.where import bin_label

    lang.use("ru_RU", lang.Numbers(",", "\u00a0", dates="dd.MM.yyyy"))
    shown = fmt.month("2025-02")
    assert shown == "02.2025"
    assert bin_label("month", shown, shown) == "02.2025"
    assert bin_label("interval", 3, 4) == "3–4"


def test_a_four_digit_number_is_grouped_only_where_the_language_does():
    # a second reader (es): "8.719 repasos" — Spanish, Polish and Italian write 8719 (CLDR's minimum grouping, as
    # Qt's locale does) but 18.719
    lang.use("es_ES", lang.Numbers(",", ".", dates="dd/MM/yyyy", group_four=False))
    assert (fmt.count(8719), fmt.count(18719), fmt.count(1234567)) == ("8719", "18.719", "1.234.567")
    assert fmt.local("8,719.5") == "8719,5" and fmt.local("0.9021") == "0,9021"
    lang.use("de_DE", lang.Numbers(",", ".", dates="dd.MM.yyyy"))
    assert fmt.count(8719) == "8.719"
