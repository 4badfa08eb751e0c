"""Each finding that asks for action gets its actions: Anki's own screens with the right preset, deck or cards.

Deck Options of a deck using the finding's preset (the one with the most scored reviews), or of the finding's
deck; the Browser on exactly the cards behind the finding (`did:` a home deck, its cards in filtered decks
included, or a `cid:` list); an evaluation of a deck in the dialog. Anki accepts the searches as they are.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ...kinds import AnkiAction, Browse, DeckOptions, Evaluate, ScopeKind
from .context import Context
from .decks import DecksEvidence
from .finding import Finding


def attach(ctx: Context, findings: list[Finding]) -> list[Finding]:
    """Return the findings, those that ask for action with their actions (ones already given are kept)."""
    return [f if f.actions or not f.verdict.acting else replace(f, actions=_actions(ctx, f)) for f in findings]


def _actions(ctx: Context, finding: Finding) -> list[AnkiAction]:
    scope = finding.scope
    if scope.kind is ScopeKind.PRESET:
        return [deck_options(ctx, scope.name)]
    if scope.kind is ScopeKind.DECK:
        if scope.id not in ctx.data.deck_names:
            return []
        preset = ctx.preset_name(ctx.data.deck_preset.get(scope.id, 0))
        return [DeckOptions(preset, scope.id, scope.name), Evaluate.deck(scope.id, scope.name)]
    if isinstance(finding.evidence, DecksEvidence):  # the decks off beyond chance: each in the Browser, evaluated
        out: list[AnkiAction] = []
        for d in finding.evidence.decks_off:
            out += [Browse.deck(d.deck_id, d.deck), Evaluate.deck(d.deck_id, d.deck)]
        return out
    return []


def keeping(ctx: Context, preset: str, leaving: frozenset[int] = frozenset()) -> list[int]:
    """Return the decks with scored reviews that keep a preset once the decks `leaving` it are split off, the one with
    the most reviews first."""
    s = ctx.scored
    pid = _preset_id(ctx, preset)
    decks = s.deck[s.preset == pid] if pid is not None else np.zeros(0, dtype=np.int64)
    left = np.fromiter(leaving, dtype=np.int64, count=len(leaving))
    values, counts = np.unique(decks[~np.isin(decks, left)], return_counts=True)
    return [int(values[i]) for i in np.argsort(-counts, kind="stable")]


def deck_options(ctx: Context, preset: str, leaving: frozenset[int] = frozenset()) -> DeckOptions:
    """Return the Deck Options of a preset: of a deck using it, the one with the most scored reviews — not one of the
    decks `leaving` it (split off by an earlier step: their Deck Options would show their new preset) unless all are."""
    decks = keeping(ctx, preset, leaving) or keeping(ctx, preset)
    if decks:
        did = decks[0]
    else:
        pid = _preset_id(ctx, preset)
        did = next((d for d, p in ctx.data.deck_preset.items() if p == pid), 1)
    return DeckOptions(preset, did)


def _preset_id(ctx: Context, preset: str) -> int | None:
    return next((p for p, info in ctx.data.presets.items() if info.name == preset), None)
