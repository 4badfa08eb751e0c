"""The add-on's settings (config.json, documented in config.md), checked against their documented types and
values: Anki's config editor accepts any JSON, so a learner can save `"auto_diagnose": "no"` or
`"scope_value": 42`. A bad value is replaced by its default, and one line says so; the dialog shows the lines.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from ..metrics.explain import dialog as words
from ..metrics.explain.lang import _, text

MAX_TEXT = 2000  # a deck name, preset name or search longer than this is not one a learner typed


@dataclass(frozen=True)
class Choice:
    """A setting that takes one of fixed strings."""

    allowed: tuple[str, ...]

    @property
    def default(self) -> str:
        return self.allowed[0]

    def check(self, key: str, value: object) -> tuple[str, str]:
        if isinstance(value, str) and value in self.allowed:
            return value, ""
        allowed = ", ".join(f'"{a}"' for a in self.allowed)
        return self.default, text(
            words.SETTING_NOT_ONE_OF, key=key, value=_shown(value), allowed=allowed, default=self.default
        )


@dataclass(frozen=True)
class Flag:
    """A setting that is true or false (JSON booleans only: "no" is a text, not false)."""

    default: bool

    def check(self, key: str, value: object) -> tuple[bool, str]:
        if isinstance(value, bool):
            return value, ""
        return self.default, text(
            words.SETTING_NOT_FLAG, key=key, value=_shown(value), default=json.dumps(self.default)
        )


@dataclass(frozen=True)
class Text:
    """A setting that is a text (a deck name, preset name or search)."""

    default: str = ""

    def check(self, key: str, value: object) -> tuple[str, str]:
        if isinstance(value, str) and len(value) <= MAX_TEXT and "\x00" not in value:
            return value, ""
        return self.default, text(words.SETTING_NOT_TEXT, key=key, value=_shown(value), default=self.default)


# The documented settings (config.md) with their defaults first (config.json holds the same defaults).
SETTINGS: dict[str, Choice | Flag | Text] = {
    "params": Choice(("preset", "default")),
    "weighting": Choice(("uniform", "recency")),
    "binning": Choice(("benchmark", "wiki")),
    "same_day": Choice(("auto", "keep", "drop")),
    "scope": Choice(("collection", "deck", "preset", "search")),
    "scope_value": Text(),
    "auto_diagnose": Flag(True),
}


def defaults() -> dict[str, str | bool]:
    """Return every setting at its default."""
    return {key: kind.default for key, kind in SETTINGS.items()}


def checked(config: object) -> tuple[dict[str, str | bool], list[str]]:
    """Return (the settings with every bad or missing value at its default, one line per bad value)."""
    if config is None:
        return defaults(), []
    if not isinstance(config, dict):
        return defaults(), [_(words.SETTINGS_NOT_OBJECT)]
    out, problems = defaults(), []
    for key, value in config.items():
        kind = SETTINGS.get(key)
        if kind is None:
            if not str(key).startswith("_"):
                problems.append(text(words.SETTING_UNKNOWN, key=_cut(str(key))))
            continue
        out[key], problem = kind.check(key, value)
        if problem and key == "scope_value":  # no deck, preset or search to evaluate: the whole collection
            problem = text(words.SETTING_NO_SCOPE, value=_shown(value))
        if problem:
            problems.append(problem)
    if "scope_value" in config and out["scope_value"] != config["scope_value"]:
        out["scope"] = "collection"
    return out, problems


def _shown(value: object) -> str:
    """Return `value` as JSON, cut short (a setting's bad value, quoted in a message)."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return _cut(text)


def _cut(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
