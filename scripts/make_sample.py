"""Build the bundled sample collection (deterministic) that `make run` evaluates."""

from __future__ import annotations

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))

from support.builder import DEFAULTS6, WEIGHTS17, Builder  # noqa: E402


def build_sample(path: str, seed: int = 2024) -> None:
    """Write a sample collection: three presets, four decks, about 13,000 reviews (8,700 scored)."""
    if os.path.exists(path):
        os.remove(path)
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    b = Builder(path, seed)
    optimized = [round(v * b.rng.uniform(0.85, 1.2), 4) for v in DEFAULTS6]
    lang = b.preset("Languages", "fsrsParams6", optimized)
    old = b.preset("Medicine (FSRS-4.5)", "fsrsWeights", WEIGHTS17)
    rows = []
    plan = [
        ("Languages::Spanish", lang, 400, 0.10),
        ("Languages::Japanese::Kanji", lang, 350, 0.18),
        ("Medicine", old, 300, 0.14),
        ("Geography", None, 250, 0.08),
    ]
    for name, preset, n, p_again in plan:
        did = b.deck(name, preset)
        for cid in b.cards(did, n, marker="sample "):
            rows += [(cid, e) for e in b.history(b.rng.randrange(20, 700), p_again=p_again)]
    b.write_many(rows)
    b.col.set_config("fsrs", True)
    b.close()


if __name__ == "__main__":
    build_sample(sys.argv[1] if len(sys.argv) > 1 else "build/sample/collection.anki2")
