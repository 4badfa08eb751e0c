"""Each finding that asks for action gets its actions: Anki's own screens with the right preset, deck or cards.

{"kind": "deck-options", "preset": NAME, "deck_id": ID} opens Deck Options of a deck using that preset (the
one with the most scored reviews); {"kind": "browse", "search": S} opens the Browser on exactly the cards
behind the finding; {"kind": "evaluate", "search": S} evaluates them in the dialog. Searches are `did:` (a
home deck, its cards in filtered decks included) or `cid:` lists, which Anki accepts as they are.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from .context import Context
from .finding import Finding, Verdict

ACTING = (Verdict.PROBLEM, Verdict.SUGGESTION)


def attach(ctx: Context, findings: list[Finding]) -> list[Finding]:
    """Return the findings, those that ask for action with their actions (ones already given are kept)."""
    return [f if f.actions or f.verdict not in ACTING else replace(f, actions=_actions(ctx, f)) for f in findings]


def _actions(ctx: Context, finding: Finding) -> list[dict[str, Any]]:
    ids = {name: did for did, name in ctx.data.deck_names.items()}
    if finding.scope.startswith('preset "'):
        name = finding.scope[len('preset "') : -1]
        return [_deck_options(ctx, name)]
    if finding.scope.startswith('deck "'):
        did = ids.get(finding.scope[len('deck "') : -1])
        if did is None:
            return []
        preset = ctx.preset_name(ctx.data.deck_preset.get(did, 0))
        return [{"kind": "deck-options", "preset": preset, "deck_id": did}, _evaluate(did)]
    if finding.id == "decks":
        out: list[dict[str, Any]] = []
        for deck in finding.evidence.get("decks_off", []):
            did = ids.get(deck["deck"])
            if did is not None:
                out += [{"kind": "browse", "search": f"did:{did}"}, _evaluate(did)]
        return out
    return []


def _evaluate(did: int) -> dict[str, Any]:
    return {"kind": "evaluate", "search": f"did:{did}"}


def _deck_options(ctx: Context, preset: str) -> dict[str, Any]:
    """Return the deck-options action of a preset: a deck using it, the one with the most scored reviews."""
    pid = next((p for p, info in ctx.data.presets.items() if info.name == preset), None)
    s = ctx.scored
    decks = s.deck[s.preset == pid] if pid is not None else np.zeros(0, dtype=np.int64)
    if decks.size:
        values, counts = np.unique(decks, return_counts=True)
        did = int(values[np.argmax(counts)])
    else:
        did = next((d for d, p in ctx.data.deck_preset.items() if p == pid), 1)
    return {"kind": "deck-options", "preset": preset, "deck_id": did}
