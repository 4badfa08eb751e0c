"""Finding "anki-health-check": Anki's own health check per preset, as Anki says it, and where our findings
disagree. The checks (each a training inside Anki) run in a thread from the diagnosis's start, beside its
own work, within the same memory gate."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from ...errors import Cancelled
from ...explain import findings as words
from ...explain.lang import _
from ...kinds import FindingId, Scope
from ...models.items import REQUEST_BYTES_PER_ENTRY, history_entries
from ...read.anki_backend import HealthCheck, HealthChecker
from ...read.collection import CollectionData
from ...reviews.presets import card_presets
from .. import gate as memory
from ..gate import MemoryGate, training_cost
from .context import Job
from .evidence import Evidence
from .finding import Finding, Verdict


@dataclass(frozen=True)
class HealthEvidence(Evidence):
    """Anki's own verdict (None: it ran no check), the training items its optimizer saw, and the search it ran on."""

    passed: bool | None
    fsrs_items: int
    search: str


class HealthRuns:
    """Anki's health check of every preset with reviews, running in a thread of its own (none without a checker)."""

    def __init__(self, check: HealthChecker | None, data: CollectionData, job: Job) -> None:
        self._pool = ThreadPoolExecutor(max_workers=2)
        self._runs: dict[str, Future[HealthCheck | None]] = {}
        if check is not None:
            for name, cost in health_check_plan(data):
                self._runs[name] = self._pool.submit(_unless_stopped, check, name, job.should_stop, job.gate, cost)

    def results(self, in_scope: set[str], job: Job) -> dict[str, HealthCheck]:
        """Wait for the checks; return those that ran, of the presets in `in_scope` (those with scored reviews)."""
        if self._runs:
            job.note(_(words.WAITING_FOR_HEALTH_CHECK))
        out = {}
        for name, run in self._runs.items():
            result = run.result()
            if result is not None and name in in_scope:
                out[name] = result
        return out

    def close(self) -> None:
        """Cancel the checks not started yet and wait for the running one."""
        self._pool.shutdown(wait=True, cancel_futures=True)


def _unless_stopped(
    check: HealthChecker, name: str, should_stop: Callable[[], bool] | None, gate: MemoryGate, cost: int
) -> HealthCheck | None:
    """Return Anki's health check of a preset (once its memory fits the gate), or None when the diagnosis
    was cancelled before it started."""
    try:
        with gate.hold(cost, should_stop):
            if should_stop is not None and should_stop():
                return None
            return check(name)
    except Cancelled:
        return None


def health_check_plan(data: CollectionData) -> list[tuple[str, int]]:
    """Return [(preset name, estimated memory of Anki's health check of it)] for presets with reviews, most first."""
    card_preset = card_presets(data)
    plan = []
    for pid, entries in _history_entries(data, card_preset):
        name = data.presets[pid].name if pid in data.presets else words.unnamed_preset(pid)
        plan.append((name, training_cost(REQUEST_BYTES_PER_ENTRY * entries)))
    return plan


def health_checks_first(plan: list[tuple[str, int]], gate: MemoryGate | None = None) -> bool:
    """Return True when Anki's health checks (of this plan) together need more than half the memory gate's
    budget: then the command line runs them first, one at a time, with the collection's arrays put aside
    (at 5M reviews the diagnosis otherwise peaks near 1.5 GiB, with them beside its own replay)."""
    return memory.one_at_a_time([cost for _name, cost in plan], gate)


def _history_entries(data: CollectionData, card_preset: np.ndarray) -> list[tuple[int, int]]:
    """Return [(preset, review entries its training items can hold)], presets with reviews, most first."""
    ids, group = np.unique(card_preset, return_inverse=True)
    group = group.reshape(-1)
    per_card = history_entries(data.revlog.card, card_preset.size)
    entries = np.bincount(group, weights=per_card, minlength=ids.size)
    per_card = np.bincount(data.revlog.card, minlength=card_preset.size)
    reviews = np.bincount(group, weights=per_card, minlength=ids.size)
    order = np.argsort(-reviews, kind="stable")
    return [(int(ids[i]), int(entries[i])) for i in order.tolist() if reviews[i] > 0]


def findings(health: dict[str, HealthCheck], found: list[Finding], ids: dict[str, int]) -> list[Finding]:
    """Return Anki's health check of each preset (named; `ids`: each name's preset id) as a finding, saying where
    our `found` problems disagree."""
    out = []
    for name, result in health.items():
        scope = Scope.preset(name, ids.get(name, 0))
        evidence = HealthEvidence(result.passed, result.fsrs_items, result.search)
        if result.passed is None:
            said = words.HEALTH_NOT_RUN.fill()
            out.append(Finding.of(FindingId.ANKI_HEALTH_CHECK, Verdict.NOT_ENOUGH_DATA, scope, said, evidence))
        elif result.passed:
            ours = [f.id for f in found if f.scope == scope and f.verdict is Verdict.PROBLEM]
            said = words.HEALTH_PASSED_DISAGREE.fill(ids="; ".join(ours)) if ours else words.HEALTH_PASSED.fill()
            out.append(Finding.of(FindingId.ANKI_HEALTH_CHECK, Verdict.OK, scope, said, evidence))
        else:
            said = words.HEALTH_FAILED.fill()
            affected = result.fsrs_items or 0
            out.append(
                Finding.of(FindingId.ANKI_HEALTH_CHECK, Verdict.PROBLEM, scope, said, evidence, affected=affected)
            )
    return out
