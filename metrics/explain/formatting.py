"""How numbers are written for people: one unit and one precision each, for the dialog, the report and the CLI.

RMSE (bins) in percentage points (as Anki shows it), log loss with 4 decimals, AUC with 3,
retention in percent with 1, counts with thousands separators. The CLI's --json keeps raw fractions.
No numpy here: the dialog formats on the main thread.

Numbers follow the language in use (lang.py): its decimal mark and thousands separator, its percent sign's
place (a message of the catalog), and, in a right-to-left language, each number, percentage (its sign on the
same side alone as in a range) and range isolated left to right, so that "1.4%–33.3%" never reads reversed;
a unit in words ("pp") stays outside, where the language puts it.
"""

from __future__ import annotations

import re

from . import lang
from .lang import N_

NA = N_("n/a")
PERCENT = N_("{number}%")  # the place of the percent sign ("{number} %" in German and French)
POINTS = N_("{number} pp")  # percentage points
LTR_ISOLATE, RTL_ISOLATE, FIRST_STRONG_ISOLATE, POP_ISOLATE = "\u2066", "\u2067", "\u2068", "\u2069"


FOUR_DIGITS = re.compile(r"(?<![\d,.])(\d),(\d{3})(?![\d,])")  # a four-digit whole number, grouped


def local(english: str) -> str:
    """Return a number written the English way ("12,345.6") with the language's marks, isolated left to
    right in a right-to-left language."""
    return ltr(_plain(english))


def ltr(text: str) -> str:
    """Return text kept left to right inside a right-to-left language (a number, a range); else as it is."""
    return LTR_ISOLATE + text + POP_ISOLATE if lang.current().right_to_left else text


def name(text: str) -> str:
    """Return a name from the learner (a deck, a preset, a search) isolated, so that it keeps its own direction
    inside a sentence of the other direction; as it is when neither is right to left."""
    if lang.current().right_to_left or any("\u0590" <= c <= "\u08ff" for c in text):
        return _isolate_of(text) + text + POP_ISOLATE
    return text


def _isolate_of(text: str) -> str:
    """Return the isolate of a name's own direction, from its first strong letter (a first-strong isolate, decided
    here: Qt's rich text let the closing bracket of "Medicine (FSRS-4.5)" jump to the front under FSI)."""
    for c in text:
        if "\u0590" <= c <= "\u08ff" or "\ufb1d" <= c <= "\ufdff" or "\ufe70" <= c <= "\ufeff":
            return RTL_ISOLATE
        if c.isalpha():
            return LTR_ISOLATE
    return FIRST_STRONG_ISOLATE


def date(iso: str) -> str:
    """Return a day given as "2026-11-25" in the language's order ("25.11.2026"); anything else as it is."""
    parts = iso.split("-") if isinstance(iso, str) else []
    if len(parts) != 3 or not all(p.isdigit() for p in parts):
        return iso
    year, month, day = parts
    fields = {"yyyy": year, "yy": year[-2:], "MM": month, "M": str(int(month)), "dd": day, "d": str(int(day))}
    out = re.sub("yyyy|yy|MM|M|dd|d", lambda m: fields[m.group(0)], lang.current().numbers.dates)
    return ltr(out.translate(str.maketrans("0123456789", lang.current().numbers.digits)))


def sentences(parts: list[str]) -> str:
    """Return whole sentences one after the other: a space between them, none after a full-width stop (。！？)."""
    out = ""
    for part in parts:
        out += part if not out or out.endswith(("。", "！", "？", "\n")) else " " + part
    return out


def month(iso: str) -> str:
    """Return a calendar month given as "2025-02" in the language's order and digits ("02.2025", "2025/02", "2/25"):
    the language's date pattern without its day (and the separator beside it); anything else as it is."""
    parts = iso.split("-") if isinstance(iso, str) else []
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        return iso
    pieces = re.findall(r"y+|M+|d+|[^yMd]+", lang.current().numbers.dates)
    if any(p.startswith("d") for p in pieces):
        at = next(i for i, p in enumerate(pieces) if p.startswith("d"))
        unit = at + 1 < len(pieces) and any(c.isalpha() for c in pieces[at + 1])  # "d日": the day's own unit
        gone = {at, at + 1} if at == 0 or unit else {at - 1, at}  # the day and one separator beside it
        pieces = [p for i, p in enumerate(pieces) if i not in gone]
    pattern = "".join(pieces).strip() or "yyyy-MM"
    year, number = parts
    fields = {"yyyy": year, "yy": year[-2:], "MM": number, "M": str(int(number))}
    out = re.sub("yyyy|yy|MM|M", lambda m: fields[m.group(0)], pattern)
    return ltr(out.translate(str.maketrans("0123456789", lang.current().numbers.digits)))


SEPARATOR = N_(", ")  # between the items of a list ("、" in Japanese and Chinese, "، " in Arabic)


STRONG_SEPARATOR = N_("; ")  # between items that hold commas themselves ("；" in Chinese, "؛ " in Arabic)


def listed(items: list[str], strong: bool = False) -> str:
    """Return items as a list in the language in use ("a, b, c"; `strong`: "a; b; c", for items with commas)."""
    return lang._(STRONG_SEPARATOR if strong else SEPARATOR).join(items)


def na() -> str:
    """Return "n/a" in the language in use."""
    return lang._(NA)


def count(n: int | None) -> str:
    """Return a count with thousands separators ("12,345")."""
    return na() if n is None else local(f"{int(n):,}")


def log_loss(x: float | None) -> str:
    """Return a log loss with 4 decimals ("0.3412")."""
    return na() if x is None or x != x else local(f"{x:.4f}")


def auc(x: float | None) -> str:
    """Return an AUC with 3 decimals ("0.712")."""
    return na() if x is None or x != x else local(f"{x:.3f}")


def rmse(x: float | None) -> str:
    """Return an RMSE (bins), given as a fraction, in percentage points ("3.21 pp")."""
    return na() if x is None or x != x else lang.text(POINTS, number=local(f"{x * 100:.2f}"))


def points(x: float | None, signed: bool = False) -> str:
    """Return a difference of two recall rates (fractions) in percentage points ("+6.0 pp")."""
    if x is None or x != x:  # None or NaN
        return na()
    return lang.text(POINTS, number=local(f"{x * 100:+.1f}" if signed else f"{x * 100:.1f}"))


def percent(x: float | None, digits: int = 1) -> str:
    """Return a rate (a fraction) in percent ("91.2%")."""
    return na() if x is None or x != x else ltr(lang.text(PERCENT, number=_plain(f"{x * 100:.{digits}f}")))


def interval(low: float | None, high: float | None, fmt: str = "log_loss") -> str:
    """Return a 95% interval written with the formatter named `fmt` ("0.3401–0.3423")."""
    writer = {"log_loss": log_loss, "auc": auc, "rmse": rmse, "percent": percent, "points": points}[fmt]
    return ltr(f"{writer(low)}–{writer(high)}")


def _plain(english: str) -> str:
    """Return a number with the language's marks and digits, not isolated (it goes inside a message)."""
    marks = lang.current().numbers
    if (marks.decimal, marks.group, marks.digits, marks.group_four) == (".", ",", "0123456789", True):
        return english
    if not marks.group_four:  # "8,719" → "8719", never "18,719" or "1,234,567"
        english = FOUR_DIGITS.sub(r"\1\2", english)
    swapped = english.replace(",", "\0").replace(".", marks.decimal).replace("\0", marks.group)
    return swapped.translate(str.maketrans("0123456789", marks.digits))
