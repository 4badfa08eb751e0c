"""What every finding module is handed: the scored table, the collection, the job's controls, and the
findings so far (a finding may rest on an earlier one, as Again's on Hard's of the same preset)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field, replace

import numpy as np

from ...explain import findings as words
from ...kinds import Scope
from ...models.params import is_default
from ...read.collection import CollectionData, Preset
from ...reviews.presets import card_presets
from ..compare import Comparison, Trainer
from ..evaluate import evaluate
from ..gate import MemoryGate
from ..job import Job as BaseJob
from ..options import Options
from .beside import Beside
from .finding import MIN_REVIEWS, Finding
from .scored import ScoredReviews, columns, scored_reviews
from .snapshot import Snapshot


class Job(BaseJob):
    """The diagnosis's job: the one job object (cancel and the memory gate that its trainings, our replays and
    Anki's health checks share), its progress said in words (explain/findings.py)."""

    def __init__(
        self,
        should_stop: Callable[[], bool] | None = None,
        progress: Callable[[str], None] | None = None,
        gate: MemoryGate | None = None,
    ) -> None:
        super().__init__(should_stop, None, gate)
        self.say = progress

    def note(self, text: str) -> None:
        """Say what is being done now; raise Cancelled when the job should stop."""
        if self.say is not None:
            self.say(text)
        self.check()


@dataclass
class Context:
    """The scope's scored reviews and collection, the options, the trainer (Anki's optimizer, or None: no
    out-of-sample findings) and what the findings so far found and trained."""

    data: CollectionData
    scored: ScoredReviews
    reviews: int  # scored reviews
    cards: int  # cards with scored reviews
    options: Options
    card_preset: np.ndarray  # each card's preset id
    trainer: Trainer | None
    job: Job
    found: list[Finding] = field(default_factory=list)
    pooled: list[Comparison] = field(default_factory=list)  # each preset's out-of-sample comparison
    by_preset: dict[int, Comparison] = field(default_factory=dict)  # the same, by preset id (for its decks)
    last: Snapshot | None = None  # the last diagnosis of this scope (finding "since-last")
    beside: Beside = field(default_factory=Beside)  # checks running in a thread beside the others

    @property
    def enough(self) -> bool:
        """Return whether the scope has enough scored reviews for any verdict."""
        return self.reviews >= MIN_REVIEWS

    @property
    def trains(self) -> bool:
        """Return whether the out-of-sample findings run (Anki's optimizer given, enough reviews)."""
        return self.trainer is not None and self.enough

    def preset_name(self, preset_id: int) -> str:
        """Return a preset's name (a made-up one for a preset the collection does not hold)."""
        info = self.data.presets.get(preset_id)
        return info.name if info is not None else words.unnamed_preset(preset_id)


@dataclass(frozen=True)
class PresetPart:
    """One preset's scored reviews (`mask` over the scored table)."""

    id: int
    name: str
    info: Preset | None
    mask: np.ndarray
    reviews: int

    @property
    def scope(self) -> Scope:
        """Return the scope its findings name."""
        return Scope.preset(self.name, self.id)

    @property
    def has_params(self) -> bool:
        """Return whether the preset holds parameters of its own."""
        return self.info is not None and bool(self.info.params)

    @property
    def trained(self) -> bool:
        """Return whether the preset's parameters were (most likely) trained on these reviews: its own, not FSRS's
        defaults. A check comparing reviews against them cannot see what the training absorbed."""
        return self.has_params and not is_default(self.info.params if self.info is not None else [])


Check = Callable[[Context], Iterable[Finding]]
PresetCheck = Callable[[Context, PresetPart], list[Finding]]


def parts(ctx: Context) -> Iterator[PresetPart]:
    """Return the presets of the scope's scored reviews, largest first."""
    for pid in ctx.scored.presets_by_size():
        mask = ctx.scored.preset == pid
        yield PresetPart(pid, ctx.preset_name(pid), ctx.data.presets.get(pid), mask, int(mask.sum()))


def each_preset(*checks: PresetCheck) -> Check:
    """Return the check that runs `checks` in turn on each preset of the scope, largest first."""

    def run(ctx: Context) -> Iterator[Finding]:
        for part in parts(ctx):
            for check in checks:
                yield from check(ctx, part)

    return run


BesidePlan = Callable[[Context, PresetPart], tuple[int, Callable[[], list[Finding]]]]


def each_preset_beside(plan: BesidePlan) -> Check:
    """Return the check that starts, on each preset of the scope (largest first), the check `plan` gives with
    its estimated bytes, in the diagnosis's thread beside the others (`Context.beside`): for a check whose
    work is mostly Anki's optimizer, which trains on one core, so that its trainings fill the cores the other
    checks leave idle. A check that would hold more than a quarter of the memory gate's budget is run at the
    end instead, alone (at 5M reviews, beside the others it would add its memory to theirs). The findings are
    collected at the end (`collect_beside`). It must not report progress: the caller's progress is the main
    thread's."""

    def run(ctx: Context) -> list[Finding]:
        for part in parts(ctx):
            cost, check = plan(ctx, part)
            ctx.beside.submit(check, later=cost > ctx.job.gate.budget // 4)
        return []

    return run


def collect_beside(ctx: Context) -> list[Finding]:
    """Return the findings of the checks started beside the others, in the order they were started."""
    return ctx.beside.results()


def start(data: CollectionData, options: Options, trainer: Trainer | None, job: Job) -> Context:
    """Return the context of a diagnosis: the scope replayed with each card's preset and scored."""
    ev = evaluate(data, Options(**{**asdict(options), "params": "preset"}), job.should_stop)
    arrays = columns(ev)
    ev = replace(ev, scored=None)  # the bins, weights and features are freed here
    scored = scored_reviews(arrays, data)
    return Context(data, scored, ev.overall.reviews, ev.overall.cards, options, card_presets(data), trainer, job)
