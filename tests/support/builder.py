"""Build real Anki collections with exact revlog histories (used by tests, the sample and the benchmark).

Notes, decks, presets and filtered decks go through the `anki` package's API; revlog rows
are written with exact millisecond timestamps relative to the collection's day cutoff.
"""

from __future__ import annotations

import json
import os
import random
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from anki.collection import AddNoteRequest, Collection

DAY = 86_400
# revlog.type
LEARN, REVIEW, RELEARN, FILTERED, MANUAL, RESCHEDULED = range(6)


def floats(text: str) -> list[float]:
    """Return the numbers written in `text`, separated by spaces (parameter lists kept on few lines)."""
    return [float(x) for x in text.split()]


DEFAULTS6 = floats(
    "0.212 1.2931 2.3065 8.2956 6.4133 0.8334 3.0194 0.001 1.8722 0.1666 0.796 1.4835 0.0614 0.2629 "
    "1.6483 0.6014 1.8729 0.5425 0.0912 0.0658 0.1542"
)
# Median FSRS-4.5-era weights (benchmark README, "FSRS rs") and an FSRS-5 set.
WEIGHTS17 = floats(
    "0.3824 0.9 2.1198 10.973 4.9515 1.0301 0.9165 0.0297 1.5906 0.1575 1.0132 2.228 0.064 0.3429 1.3407 0.2419 2.8759"
)
PARAMS19 = floats(
    "0.40255 1.18385 3.173 15.69105 7.1949 0.5345 1.4604 0.0046 1.54575 0.1192 1.01925 1.9395 0.11 "
    "0.29605 2.2698 0.2315 2.9898 0.51655 0.6621"
)


@dataclass
class Entry:
    """One revlog row to write: seconds before the day cutoff, and the row's columns."""

    secs_before_cutoff: int
    ease: int
    type: int
    factor: int = 2500
    ivl: int = 1
    last_ivl: int = 0
    taken_ms: int = 8000


class Builder:
    """A collection under construction; `col` is a real anki Collection."""

    def __init__(self, path: str, seed: int = 0) -> None:
        self.col = Collection(path)
        self.rng = random.Random(seed)
        self.cutoff = int(self.col.sched.day_cutoff)
        self._used_ids: set[int] = set(self.col.db.list("select id from revlog"))
        self._notetype = self.col.models.by_name("Basic")

    # -- structure ---------------------------------------------------------------------
    def preset(
        self, name: str, key: str | None = None, params: Sequence[float] | None = None, ignore_before: str = ""
    ) -> int:
        """Return the id of a new preset with parameters under `key` (fsrsParams6/5, fsrsWeights)."""
        conf = self.col.decks.add_config_returning_id(name)
        c = self.col.decks.get_config(conf)
        assert c is not None
        for k in ("fsrsParams6", "fsrsParams5", "fsrsWeights"):
            c[k] = []
        if key is not None and params is not None:
            c[key] = list(params)
        c["ignoreRevlogsBeforeDate"] = ignore_before
        self.col.decks.update_config(c)
        return conf

    def deck(self, name: str, preset: int | None = None) -> int:
        """Return the id of a (new) normal deck, assigned to `preset` when given."""
        did = int(self.col.decks.id(name, create=True))
        if preset is not None:
            d = self.col.decks.get(did)
            d["conf"] = preset
            self.col.decks.save(d)
        return did

    def cards(self, deck_id: int, n: int, marker: str = "") -> list[int]:
        """Return the ids of n new cards (one Basic note each) added to the deck."""
        requests = []
        for i in range(n):
            note = self.col.new_note(self._notetype)
            note["Front"] = f"{marker}front {deck_id} {i} {self.rng.random()}"
            note["Back"] = f"{marker}back {i}"
            requests.append(AddNoteRequest(note=note, deck_id=deck_id))
        self.col.add_notes(requests)
        nids = [r.note.id for r in requests]
        ids: list[int] = []
        for start in range(0, len(nids), 5000):
            chunk = ",".join(str(x) for x in nids[start : start + 5000])
            ids += self.col.db.list(f"select id from cards where nid in ({chunk}) order by nid")
        return ids

    def make_review_cards(self, card_ids: Iterable[int], ivl: int = 10) -> None:
        """Put cards in the review queue (as their history says), so scheduler actions log as for reviews."""
        ids = ",".join(str(c) for c in card_ids)
        today = self.col.sched.today
        self.col.db.execute(
            f"update cards set type=2, queue=2, ivl=?, due=?, factor=2500, reps=5 where id in ({ids})",
            ivl,
            today + 1,
        )

    # -- revlog ------------------------------------------------------------------------
    def _unique_id(self, ms: int) -> int:
        while ms in self._used_ids:
            ms += 1
        self._used_ids.add(ms)
        return ms

    def write(self, cid: int, entries: Iterable[Entry]) -> None:
        """Write revlog rows for a card with exact timestamps."""
        self.write_many([(cid, e) for e in entries])

    def write_many(self, rows: Iterable[tuple[int, Entry]]) -> None:
        """Write many (card id, entry) revlog rows in one statement."""
        payload = []
        for cid, e in rows:
            rid = self._unique_id((self.cutoff - e.secs_before_cutoff) * 1000 + self.rng.randrange(1000))
            payload.append([rid, cid, e.ease, e.ivl, e.last_ivl, e.factor, e.taken_ms, e.type])
        for start in range(0, len(payload), 200_000):
            self.col.db.execute(
                "insert into revlog (id, cid, usn, ease, ivl, lastIvl, factor, time, type) "
                "select j.value->>0, j.value->>1, 0, j.value->>2, j.value->>3, j.value->>4, "
                "j.value->>5, j.value->>6, j.value->>7 from json_each(?) j",
                json.dumps(payload[start : start + 200_000]),
            )

    def at(self, days_ago: int, within: int | None = None) -> int:
        """Return seconds-before-cutoff for a moment `days_ago` days before today's rollover."""
        within = self.rng.randrange(600, DAY - 600) if within is None else within
        return max(1, days_ago) * DAY + within  # never today: Anki's own rows today must come last

    def history(
        self,
        start_days_ago: int,
        same_day: bool = True,
        max_reviews: int = 30,
        p_again: float = 0.12,
        p_hard: float = 0.1,
        p_easy: float = 0.08,
    ) -> list[Entry]:
        """Return a plausible random history: learning steps, reviews, lapses with relearning steps."""
        rng = self.rng
        out: list[Entry] = []
        day = start_days_ago
        sec = rng.randrange(DAY // 2, DAY - 3600)  # seconds before the end of that day
        steps = rng.choice([1, 2, 2, 3]) if same_day else 1
        for i in range(steps):
            ease = rng.choice([1, 3, 3, 2]) if i < steps - 1 else rng.choice([3, 3, 3, 4, 2])
            out.append(Entry(day * DAY + sec - i * 600, ease, LEARN, factor=0, ivl=-600))
        ivl = rng.choice([1, 1, 2, 3])
        last = 0
        # A hidden "true" memory: recall gets less likely as the gap outgrows it, so predictions matter.
        true_s = rng.uniform(0.5, 3.0) * (0.1 / max(p_again, 0.01))
        for _ in range(rng.randrange(1, max_reviews)):
            gap = max(1, int(ivl * rng.uniform(0.6, 1.6)))
            if day - gap < 1:
                break
            day -= gap
            sec = rng.randrange(1800, DAY - 1800)
            recall = (1 + 19 / 81 * gap / true_s) ** -0.5
            if rng.random() > recall:
                ease = 1
            else:
                u = rng.random()
                ease = 2 if u < p_hard else 4 if u > 1 - p_easy else 3
            out.append(Entry(day * DAY + sec, ease, REVIEW, ivl=ivl, last_ivl=last))
            last = ivl
            if ease == 1:
                true_s = max(0.5, true_s * rng.uniform(0.2, 0.5))
                ivl = max(1, int(ivl * 0.3))
                if same_day:
                    for k in range(rng.choice([1, 1, 2])):
                        if sec - (k + 1) * 300 > 0:
                            out.append(
                                Entry(day * DAY + sec - (k + 1) * 300, rng.choice([3, 3, 1, 2]), RELEARN, ivl=-600)
                            )
            else:
                true_s *= rng.uniform(1.5, 3.5) * (0.9 if ease == 2 else 1.3 if ease == 4 else 1.0)
                ivl = max(ivl + 1, int(ivl * {2: 1.2, 3: 2.5, 4: 3.5}[ease]))
            if same_day and rng.random() < 0.05 and sec > 4000:  # an extra same-day look
                out.append(Entry(day * DAY + sec - 3000, rng.choice([3, 3, 2, 1, 4]), REVIEW, ivl=ivl))
        return out

    def close(self) -> None:
        """Close the collection (without downgrading)."""
        self.col.close(downgrade=False)


ODD_KINDS = (
    "reset",
    "set_due",
    "cram",
    "filtered_resched",
    "no_learning",
    "rescheduled",
    "relearn_after_reset",
    "reset_last",
)


def _mixed_presets_and_decks(b: Builder) -> tuple[dict[str, int], dict[str, int]]:
    """Make the mixed collection's presets (21, 19, 17, no parameters, an ignore-before date) and decks."""
    p6 = [round(v * b.rng.uniform(0.8, 1.25), 4) for v in DEFAULTS6]
    p6[20] = 0.3
    presets = {
        "P6": b.preset("P6", "fsrsParams6", p6),
        "P5": b.preset("P5", "fsrsParams5", PARAMS19),
        "P45": b.preset("P45", "fsrsWeights", WEIGHTS17),
        "Empty": b.preset("Empty"),
        "Ignore": b.preset("Ignore", "fsrsParams6", DEFAULTS6, ignore_before=""),
    }
    decks = {
        "Six": b.deck("Six", presets["P6"]),
        "Six::Sub": b.deck("Six::Sub", presets["P6"]),
        "Five": b.deck("Five", presets["P5"]),
        "FourFive": b.deck("FourFive", presets["P45"]),
        "Empty": b.deck("Empty", presets["Empty"]),
        "Ignore": b.deck("Ignore", presets["Ignore"]),
        "Default": 1,
    }
    return presets, decks


def _odd_history(b: Builder, kind: str, h: list[Entry]) -> list[Entry]:
    """Return history `h` with an odd ending of `kind` (one of ODD_KINDS)."""
    mid = h[-1].secs_before_cutoff // DAY
    if kind == "no_learning":  # imported/truncated history: dropped by Anki
        return [e for e in h if e.type != LEARN]
    at = b.at
    endings = {
        # old history, a Reset, then a new learning run
        "reset": lambda: [Entry(at(mid - 3), 0, MANUAL, factor=0, ivl=0)] + b.history(mid - 5, max_reviews=6),
        "set_due": lambda: [Entry(at(mid - 2), 0, MANUAL, factor=2500, ivl=20), Entry(at(mid - 25), 3, REVIEW)],
        "cram": lambda: [
            Entry(at(mid - 2), 3, FILTERED, factor=0),
            Entry(at(mid - 4), 1, FILTERED, factor=0),
            Entry(at(mid - 30), 3, REVIEW),
        ],
        "filtered_resched": lambda: [
            Entry(at(mid - 3), 3, FILTERED, factor=2500),
            Entry(at(mid - 20), 1, FILTERED, factor=2300),
            Entry(at(mid - 40), 3, REVIEW),
        ],
        "rescheduled": lambda: [Entry(at(mid - 2), 0, RESCHEDULED, factor=2500), Entry(at(mid - 15), 4, REVIEW)],
        # learning, review, learning again without a Reset row (old Anki)
        "relearn_after_reset": lambda: b.history(mid - 3, max_reviews=5),
        # reset after the history, never studied again: dropped
        "reset_last": lambda: [Entry(at(mid - 2), 0, MANUAL, factor=0, ivl=0)],
    }
    return h + endings[kind]()


def _answer_in_filtered_decks(b: Builder, cards: dict[str, list[int]]) -> dict[str, int]:
    """Make the Cram, Resched and Sitting filtered decks, answering the first two's cards; return their ids."""
    col = b.col

    def filtered(name: str, cids: list[int], reschedule: bool) -> int:
        deck = col.sched.get_or_create_filtered_deck(deck_id=0)
        deck.name = name
        deck.config.reschedule = reschedule
        deck.config.search_terms[0].search = " or ".join(f"cid:{c}" for c in cids)
        deck.config.search_terms[0].limit = 100
        return int(col.sched.add_or_update_filtered_deck(deck).id)

    cids_cram = cards["Six::Sub"][:5]
    cids_resched = cards["Five"][30:35]
    made = {"Cram": filtered("Cram", cids_cram, False), "Resched": filtered("Resched", cids_resched, True)}
    for cid in cids_cram + cids_resched:
        card = col.get_card(cid)
        card.start_timer()
        states = col._backend.get_scheduling_states(card.id)
        rating = b.rng.choice([0, 2, 2, 3])  # CardAnswer: 0 Again .. 3 Easy
        col.sched.answer_card(col.sched.build_answer(card=card, states=states, rating=rating))
    made["Sitting"] = filtered("Sitting", cards["Empty"][:5] + cards["Six"][40:44], True)
    return made


def build_mixed(path: str, seed: int = 0, cards_per_deck: int = 60) -> dict[str, object]:
    """Build the engine's main test collection; return names and ids of what it holds.

    Presets with 21, 19, 17 and no parameters (plus one with an ignore-before date), decks and
    subdecks, same-day repeats, lapses and relearning, Reset/Forget, Set Due Date, cram and
    rescheduling filtered-deck reviews, cards sitting in a filtered deck, suspended and deleted cards.
    """
    import datetime as dt

    b = Builder(path, seed)
    rng = b.rng
    presets, decks = _mixed_presets_and_decks(b)
    cards: dict[str, list[int]] = {}
    rows: list[tuple[int, Entry]] = []
    for name, did in decks.items():
        cards[name] = b.cards(did, cards_per_deck, marker=name)
        for cid in cards[name]:
            rows += [(cid, e) for e in b.history(rng.randrange(40, 900))]
    # The Ignore preset drops cards whose learning run starts before a date ~200 days ago.
    c = b.col.decks.get_config(presets["Ignore"])
    c["ignoreRevlogsBeforeDate"] = dt.datetime.fromtimestamp(b.cutoff - 200 * DAY, tz=dt.UTC).strftime("%Y-%m-%d")
    b.col.decks.update_config(c)

    odd = cards["Six"][:12] + cards["Five"][:6] + cards["FourFive"][:6]
    special: dict[str, list[int]] = {k: [] for k in ODD_KINDS}
    for i, cid in enumerate(odd):
        kind = ODD_KINDS[i % len(ODD_KINDS)]
        special[kind].append(cid)
        h = b.history(rng.randrange(300, 700), max_reviews=8)
        rows += [(cid, e) for e in _odd_history(b, kind, h)]
    b.write_many(rows)
    b.make_review_cards([c for v in cards.values() for c in v])

    # Real scheduler actions today: Forget, Set Due Date, answers in filtered decks.
    col = b.col
    col.sched.schedule_cards_as_new(cards["Five"][10:13])
    col.sched.set_due_date(cards["Five"][13:16], "3")
    col.sched.suspend_cards(cards["Six"][20:26])
    col.remove_notes(list({col.get_card(c).nid for c in cards["FourFive"][20:25]}))
    made = _answer_in_filtered_decks(b, cards)
    return {"presets": presets, "decks": decks, "cards": cards, "special": special, "filtered": made, "builder": b}


def build_large(path: str, reviews: int, seed: int = 11) -> None:
    """Write a collection with at least `reviews` revlog rows in twenty decks ("Deck i::Sub j") and four presets
    (FSRS-6, FSRS-5, FSRS-4.5 parameters, and Anki's default preset): the benchmarks' collections."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".part"
    for p in (tmp, path):
        if os.path.exists(p):
            os.remove(p)
    b = Builder(tmp, seed)
    presets = [
        b.preset("Six", "fsrsParams6", [round(v * b.rng.uniform(0.85, 1.2), 4) for v in DEFAULTS6]),
        b.preset("Five", "fsrsParams5", PARAMS19),
        b.preset("FourFive", "fsrsWeights", WEIGHTS17),
        None,
    ]
    decks = [b.deck(f"Deck {i}::Sub {j}", presets[(i + j) % 4]) for i in range(5) for j in range(4)]
    written = 0
    while written < reviews:
        rows = []
        for did in decks:
            for cid in b.cards(did, 100):
                rows += [(cid, e) for e in b.history(b.rng.randrange(30, 1500), max_reviews=45)]
        b.write_many(rows)
        written += len(rows)
        print(f"  {written:,} revlog rows", file=sys.stderr)
    b.col.set_config("fsrs", True)
    b.close()
    os.replace(tmp, path)
