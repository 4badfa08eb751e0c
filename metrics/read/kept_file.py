"""The add-on's file of what it keeps per preset (metrics/jobs/kept.py), read as untrusted input: a file it
did not write, damaged, or too large is one clear message, and nothing of it is used."""

from __future__ import annotations

import math
from typing import Final, TypedDict

from ..errors import EvaluationError
from ..explain import formatting as fmt
from ..explain.lang import _, text
from .dataset import printable
from .own_json import read_own_json

MAX_BYTES = 1024 * 1024  # some thousand presets; the add-on keeps one entry per preset
VERSION = 1
NUMBERS: Final = ("reviews", "log_loss", "rmse_bins", "auc", "steps", "desired_retention", "diagnosed_retention")
TEXTS: Final = ("evaluated", "diagnosed")
LISTS: Final = ("params", "diagnosed_params")


class KeptEntry(TypedDict, total=False):
    """One preset's entry as read (metrics/jobs/kept.py writes it): only the well-formed parts, each optional."""

    reviews: float
    log_loss: float
    rmse_bins: float
    auc: float
    steps: float
    desired_retention: float
    diagnosed_retention: float
    evaluated: str  # the day, YYYY-MM-DD
    diagnosed: str
    params: list[float]
    diagnosed_params: list[float]
    actions: list[str]
    scope: list[str]  # [kind, value]


class KeptUnreadable(EvaluationError):
    """The file cannot be read (`why`); it is left as it is."""

    def __init__(self, path: str, why: str) -> None:
        super().__init__(
            text(
                "{path}: cannot read what the add-on keeps of each preset ({reason}).",
                path=fmt.name(printable(path, 200)),
                reason=why,
            )
        )
        self.path, self.why = printable(path, 200), why


def read_kept(path: str) -> dict[str, KeptEntry]:
    """Return the entries kept per preset name ({} when there is no such file yet); entries and values that
    are not what the add-on writes are left out."""
    doc = read_own_json(path, MAX_BYTES, lambda why: KeptUnreadable(path, why))
    if doc is None:
        return {}
    if not isinstance(doc, dict) or doc.get("version") != VERSION or not isinstance(doc.get("presets"), dict):
        raise KeptUnreadable(path, _("not a file this add-on wrote"))
    return {str(k)[:500]: _entry(v) for k, v in doc["presets"].items() if isinstance(v, dict)}


def _entry(d: dict[object, object]) -> KeptEntry:
    """Return the well-formed parts of one preset's entry."""
    out: KeptEntry = {}
    for key in NUMBERS:
        v = d.get(key)
        if isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v):
            out[key] = v
    for day in TEXTS:
        said = d.get(day)
        if isinstance(said, str) and len(said) <= 10:
            out[day] = said
    for values in LISTS:
        params = d.get(values)
        if isinstance(params, list) and len(params) <= 64 and all(_finite(v) for v in params):
            out[values] = [float(v) for v in params]
    actions = d.get("actions")
    if isinstance(actions, list) and len(actions) <= 16 and all(isinstance(a, str) for a in actions):
        out["actions"] = [a[:40] for a in actions]
    scope = d.get("scope")
    if isinstance(scope, list) and len(scope) == 2 and all(isinstance(s, str) and len(s) <= 2000 for s in scope):
        out["scope"] = scope
    return out


def _finite(v: object) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
