"""Text on screen, one rule for the whole dialog: names, searches, paths and errors are text, never HTML.

Qt renders any label or tooltip whose text merely looks like HTML as HTML (Qt::AutoText), so a deck named
`<b>x</b>` would show bold and `<img src=x> deck` a broken image. Here every label is plain text unless it
is made rich on purpose with `set_rich`, whose values are escaped; every tooltip is escaped. The other
modules make labels and tooltips only through these functions (tests/ui/test_text_rule.py checks this).
"""

from __future__ import annotations

import html
from typing import Any

from aqt.qt import QLabel, QSizePolicy, Qt

TOOLTIP_WIDTH = 420  # px: long tooltips wrap here instead of running across the screen


def label(text: str = "", wrap: bool = True, selectable: bool = False, squeeze: bool = False) -> QLabel:
    """Return a plain-text label (`squeeze`: it may get narrower than its text, which then wraps)."""
    out = QLabel()
    out.setTextFormat(Qt.TextFormat.PlainText)
    out.setText(text)
    out.setWordWrap(wrap)
    if selectable:
        out.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    if squeeze:
        out.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
    return out


def set_plain(target: QLabel, text: str) -> None:
    """Show `text` in `target` as it is (a name with angle brackets shows its brackets)."""
    target.setTextFormat(Qt.TextFormat.PlainText)
    target.setText(text)


def rich(template: str, **values: Any) -> str:
    """Return `template` (the add-on's own markup) with each {name} replaced by its value, escaped."""
    return template.format(**{k: html.escape(str(v), quote=False) for k, v in values.items()})


def set_rich(target: QLabel, template: str, **values: Any) -> None:
    """Show the add-on's own markup in `target`, every value escaped (see `rich`)."""
    target.setTextFormat(Qt.TextFormat.RichText)
    target.setText(rich(template, **values))


def set_markup(target: QLabel, markup: str) -> None:
    """Show markup built with `rich` (or escaped by the caller) in `target`."""
    target.setTextFormat(Qt.TextFormat.RichText)
    target.setText(markup)


def tooltip(text: str) -> str:
    """Return `text` as a tooltip: escaped, wrapping at about TOOLTIP_WIDTH pixels when long."""
    paragraphs = "".join(f"<p>{html.escape(p, quote=False)}</p>" for p in text.split("\n\n"))
    if len(text) <= 60:
        return f"<qt>{html.escape(text, quote=False)}</qt>"
    return f"<table width={TOOLTIP_WIDTH}><tr><td>{paragraphs}</td></tr></table>"
