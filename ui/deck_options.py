"""A section of Anki's Deck Options, where learners look for the Evaluate button Anki 25.07 hid: for the preset
the page shows (it follows the preset selector), the key numbers the add-on kept of its last evaluation and
diagnosis, a button that opens the dialog on that preset, and — when the preset changed since its last
diagnosis — the check of whether that helped.

Through Anki's add-on API for the page ($deckOptions.addHtmlAddon): the section reads nothing slowly (the
numbers come from the add-on's file, metrics/read/kept_file.py) and never touches what Deck Options saves.
Every text is set as text (textContent), never as HTML: preset names come from the learner.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from ..metrics.explain import deck_options as words
from ..metrics.explain import formatting as fmt
from ..metrics.explain.lang import _, text

if TYPE_CHECKING:
    from ..metrics.read.kept_file import KeptEntry

MESSAGE = "fsrs_calibration:"  # the section's messages to Python: "fsrs_calibration:open:" + JSON

_SCRIPT = """
(function () {
  const DATA = %(data)s;
  const WORDS = %(words)s;
  const HTML = %(html)s;
  function presetName() {
    const shown = document.querySelector(".button-bar .label");
    const text = shown ? shown.textContent.trim() : "";
    let best = null;
    for (const name of Object.keys(DATA)) {
      if ((text === name || text.startsWith(name + " (")) && (best === null || name.length > best.length)) {
        best = name;
      }
    }
    return best === null ? WORDS.fallback : best;
  }
  function render() {
    const root = document.getElementById("fsrs-calibration");
    if (!root) { return; }
    const name = presetName();
    const entry = DATA[name] || {};
    root.dataset.preset = name;
    for (const key of ["numbers", "plan", "changed"]) {
      const line = root.querySelector("[data-line=" + key + "]");
      line.textContent = entry[key] || "";
      line.style.display = entry[key] ? "" : "none";
    }
    root.querySelector("[data-button=check]").style.display = entry.changed ? "" : "none";
  }
  function send(kind) {
    const name = document.getElementById("fsrs-calibration").dataset.preset;
    pycmd("%(message)s" + kind + ":" + JSON.stringify(name));
  }
  $deckOptions.then((options) => {
    options.addHtmlAddon(HTML, () => {
      const root = document.getElementById("fsrs-calibration");
      root.querySelector("[data-title]").textContent = WORDS.title;
      root.querySelector("[data-button=open]").textContent = WORDS.open;
      root.querySelector("[data-button=check]").textContent = WORDS.check;
      root.querySelector("[data-button=open]").addEventListener("click", () => send("open"));
      root.querySelector("[data-button=check]").addEventListener("click", () => send("check"));
      render();
      options.auxData().subscribe(() => setTimeout(render, 0));  // the preset selector changed it
      document.addEventListener("click", () => setTimeout(render, 50));
    });
  });
})();
"""

_HTML = """<div id="fsrs-calibration" style="margin: 0.5em 0; padding: 0.6em 0.8em;
 border: 1px solid rgba(128, 128, 128, 0.45); border-radius: 5px">
<div data-title style="font-weight: bold; font-size: 1.1em; margin-bottom: 0.3em"></div>
<div data-line="numbers"></div><div data-line="plan"></div><div data-line="changed" style="font-style: italic"></div>
<div style="margin-top: 0.4em"><button data-button="open" class="btn btn-secondary"></button>
<button data-button="check" class="btn btn-secondary" style="margin-left: 0.5em"></button></div></div>"""


def section_script(data: dict[str, dict[str, str]], fallback: str) -> str:
    """Return the JavaScript that adds the section: `data` holds, per preset name, its lines (numbers, plan,
    changed); `fallback`, the preset shown when the page's selector cannot be read (the deck's own). The words
    are translated now, as the page loads."""
    texts = {"title": _(words.TITLE), "open": _(words.OPEN), "check": _(words.CHECK), "fallback": fallback}
    return _SCRIPT % {
        "data": _js(data),
        "words": _js(texts),
        "html": json.dumps(_HTML),
        "message": MESSAGE,
    }


def _js(value: object) -> str:
    """Return `value` as a JavaScript literal in which no learner's text can read as markup."""
    return json.dumps(value).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def preset_lines(kept: Mapping[str, KeptEntry], configs: Iterable[Mapping[str, object]]) -> dict[str, dict[str, str]]:
    """Return, per preset, the section's lines: its kept numbers (or that there are none yet), its last plan,
    and whether it changed since its last diagnosis."""
    from ..metrics.jobs.kept import changed_since
    from ..metrics.models.params import preset_raw_params

    out = {}
    for conf in configs:
        name = str(conf.get("name", ""))
        entry = kept.get(name, {})
        lines = {"numbers": _numbers(entry), "plan": _plan(entry), "changed": ""}
        _key, params = preset_raw_params(conf)
        dr = conf.get("desiredRetention")
        if entry.get("diagnosed") and changed_since(entry, params, dr):
            lines["changed"] = text(words.CHANGED, date=fmt.date(entry["diagnosed"]))
        out[name] = lines
    return out


def _numbers(entry: KeptEntry) -> str:
    if "log_loss" not in entry:
        return _(words.NO_NUMBERS)
    auc = fmt.auc(entry["auc"]) if isinstance(entry.get("auc"), float) else _(words.NO_AUC)
    return text(
        words.NUMBERS,
        date=fmt.date(entry.get("evaluated", "?")),
        log_loss=fmt.log_loss(entry["log_loss"]),
        rmse=fmt.rmse(entry.get("rmse_bins", float("nan"))),
        auc=auc,
        reviews=fmt.count(int(entry.get("reviews", 0))),
    )


def _plan(entry: KeptEntry) -> str:
    if "steps" not in entry:
        return ""
    return words.plan_line(fmt.date(entry.get("diagnosed", "?")), int(entry["steps"]), list(entry.get("actions", [])))
