"""Text on screen, one rule for the whole dialog: names, searches, paths and errors are text, never HTML.

Qt renders any label or tooltip whose text merely looks like HTML as HTML (Qt::AutoText), so a deck named
`<b>x</b>` would show bold and `<img src=x> deck` a broken image. Here every label is plain text unless it
is made rich on purpose with `set_rich`, whose values are escaped; every tooltip is escaped. The other
modules make labels and tooltips only through these functions (tests/ui/test_text_rule.py checks this).
"""

from __future__ import annotations

import html
import re

from aqt.qt import QLabel, QSizePolicy, Qt

from ..metrics.explain.lang import current

TOOLTIP_WIDTH = 420  # px: long tooltips wrap here instead of running across the screen
RLM = "\u200f"  # right-to-left mark: a paragraph that starts with a Latin word ("FSRS …") still runs right to left
_RICH_BREAKS = re.compile(r"(<br\s*/?>|<p[^>]*>|<div[^>]*>|<li[^>]*>)", re.IGNORECASE)


def directed(text: str, rich: bool = False) -> str:
    """Return `text` with each paragraph taking the dialog's direction: in a right-to-left language every paragraph
    (each line of plain text, each <br>, <p>, <div> or <li> of markup) starts with a right-to-left mark, whatever its
    first word; unchanged otherwise."""
    if not text or not current().right_to_left:
        return text
    if rich:
        return RLM + _RICH_BREAKS.sub(lambda m: m.group(0) + RLM, text)
    return "\n".join(RLM + line for line in text.split("\n"))


def label(text: str = "", wrap: bool = True, selectable: bool = False, squeeze: bool = False) -> QLabel:
    """Return a plain-text label (`squeeze`: it may get narrower than its text, which then wraps)."""
    out = QLabel()
    out.setTextFormat(Qt.TextFormat.PlainText)
    out.setText(directed(text))
    out.setWordWrap(wrap)
    if selectable:
        out.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    if squeeze:
        out.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
    return out


def set_plain(target: QLabel, text: str) -> None:
    """Show `text` in `target` as it is (a name with angle brackets shows its brackets)."""
    target.setTextFormat(Qt.TextFormat.PlainText)
    target.setText(directed(text))


def rich(template: str, **values: object) -> str:
    """Return `template` (the add-on's own markup) with each {name} replaced by its value, escaped."""
    return template.format(**{k: html.escape(str(v), quote=False) for k, v in values.items()})


def set_rich(target: QLabel, template: str, **values: object) -> None:
    """Show the add-on's own markup in `target`, every value escaped (see `rich`)."""
    target.setTextFormat(Qt.TextFormat.RichText)
    target.setText(directed(rich(template, **values), rich=True))


def set_markup(target: QLabel, markup: str) -> None:
    """Show markup built with `rich` (or escaped by the caller) in `target`."""
    target.setTextFormat(Qt.TextFormat.RichText)
    target.setText(directed(markup, rich=True))


def tooltip(text: str) -> str:
    """Return `text` as a tooltip: escaped, wrapping at about TOOLTIP_WIDTH pixels when long."""
    text = directed(text)
    paragraphs = "".join(f"<p>{html.escape(p, quote=False)}</p>" for p in text.split("\n\n"))
    if len(text) <= 60:
        return f"<qt>{html.escape(text, quote=False)}</qt>"
    return f"<table width={TOOLTIP_WIDTH}><tr><td>{paragraphs}</td></tr></table>"
