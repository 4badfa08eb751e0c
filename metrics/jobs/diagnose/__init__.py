"""What to do: findings about a learner's FSRS set-up, each with a verdict, its evidence and an action.

Arrays in, findings out (no Qt, no anki): Anki's own health check and optimizer come in as callables.
Every number a finding rests on carries a 95% interval and the count of reviews behind it; a finding
says `not-enough-data` rather than guess. Finding ids are fixed (others rely on them):
data, anki-health-check, parameters, hard-misuse, again-misuse, retention, desired-retention, ignore-before,
decks, cards, benchmark-standing, since-last.

One module per finding, each a `check` over the shared `Context` (the scored table of scored.py, the
collection, the job's controls and the findings so far); its words are templates in explain/findings.py.
Adding a finding: a module with `check(ctx)` (or `check(ctx, part)` for each preset) and one line in
FINDINGS. Anki's health check runs beside them in a thread (health.py) and is judged last.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ...explain import findings as words
from ...explain.lang import _
from ...explain.newer import left_out_line
from ...read.anki_backend import HealthChecker
from ...read.collection import CollectionData
from ..compare import Trainer
from ..options import Options
from . import (
    actions,
    again_misuse,
    cards,
    data,
    decks,
    desired_retention,
    hard_misuse,
    health,
    ignore_before,
    own_presets,
    parameters_defaults,
    parameters_oos,
    retention,
    since_last,
    standing,
)
from .context import Check, Job, collect_beside, each_preset, each_preset_beside, start
from .diagnosis import Diagnosis
from .finding import MIN_EFFECT, MIN_GROUP, MIN_REVIEWS, VERDICTS, Finding, Verdict, rank
from .health import health_check_plan, health_checks_first
from .out_of_sample import paired_gain
from .plan import agreeing, first_line, make_plan
from .snapshot import Snapshot
from .summary import summary

__all__ = [
    "FINDINGS",
    "MIN_EFFECT",
    "MIN_GROUP",
    "MIN_REVIEWS",
    "VERDICTS",
    "Diagnosis",
    "Finding",
    "Verdict",
    "diagnose",
    "health_check_plan",
    "health_checks_first",
    "paired_gain",
    "rank",
    "Snapshot",
]

# The findings, in the order they are made (the list is then ranked: finding.rank).
FINDINGS: tuple[Check, ...] = (
    data.check,
    each_preset_beside(ignore_before.plan),  # trains in a thread of its own, collected at the end
    each_preset(
        hard_misuse.check,
        again_misuse.check,  # after hard-misuse: a Hard problem explains a gap after Again
        parameters_oos.check,  # trains: its comparison joins the pooled ones of the standing
        parameters_defaults.check,  # the presets the out-of-sample test did not judge
        retention.check,  # after parameters: whether optimizing would close a gap is the parameters' verdict
        desired_retention.check,  # where a desired retention can be trusted
    ),
    decks.check,
    cards.check,
    own_presets.check,
    standing.check,  # after every training
    since_last.check,
    collect_beside,
)


def diagnose(
    data: CollectionData,
    health_check: HealthChecker | None = None,
    options: Options | None = None,
    should_stop: Callable[[], bool] | None = None,
    progress: Callable[[str], None] | None = None,
    trainer: Trainer | None = None,
    last: Snapshot | None = None,
) -> Diagnosis:
    """Return the findings for the scope read into `data` (each card with its preset's parameters).

    With a `trainer` (Anki's optimizer), the out-of-sample findings run too: re-optimizing each preset,
    decks' own presets, and the standing among the FSRS benchmark's learners. With `last` (the snapshot of
    the last diagnosis of this scope), whether the presets' parameters changed since, and if that helped.
    """
    job = Job(should_stop, progress)  # Anki's health checks, its trainings and our replays share its memory gate
    job.note(_(words.REPLAYING))
    # Anki's health checks (its own training) run in a thread from the start, while our checks and
    # trainings go on here (they read the collection themselves: it is not touched here meanwhile).
    checks = health.HealthRuns(health_check, data, job)
    ctx = None
    try:
        ctx = replace(start(data, options or Options(), trainer, job), last=last)
        for check in FINDINGS:
            for finding in check(ctx):
                ctx.found.append(finding)  # one at a time: a check may read the findings before it
        in_scope = {ctx.preset_name(pid) for pid in ctx.scored.presets_by_size()}
        checked = checks.results(in_scope, job)
    finally:
        if ctx is not None:
            ctx.job.end()  # the checks beside give up waiting for memory
            ctx.beside.close()
        checks.close()
    ids = {ctx.preset_name(pid): pid for pid in ctx.scored.presets_by_size()}
    found = actions.attach(ctx, ctx.found + health.findings(checked, ctx.found, ids))
    found.sort(key=rank)
    notes = [left_out_line(x.preset, x.model, x.cards) for x in data.left_out]
    plans = make_plan(ctx, found)
    found = agreeing(found, plans)
    first = first_line(plans, ctx.reviews, MIN_REVIEWS)
    return Diagnosis(found, checked, ctx.reviews, summary(ctx), notes, plans, first)
