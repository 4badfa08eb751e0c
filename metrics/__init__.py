"""The engine's public API, one list (as fsrs-rs's src/lib.rs): what the dialog, the command line and
other add-ons use. The folders follow the data: read → reviews → models → score → jobs → explain, plus
export (docs/architecture.md). Names load on first use, so that importing the add-on inside Anki loads
no numpy until an evaluation starts.
"""

from __future__ import annotations

import importlib
from typing import Any

# name → the module (relative to this package) that defines it
_PUBLIC: dict[str, str] = {
    # read: the only code that touches a collection object or an input file
    "CollectionData": ".read.collection",
    "read_collection": ".read.collection",
    "scope_search": ".read.scope",
    "copy_collection": ".read.collection_file",
    "is_damage": ".read.collection_file",
    "damage_text": ".read.collection_file",
    "anki_trainer": ".read.anki_backend",
    "anki_health_check": ".read.anki_backend",
    "HealthCheck": ".read.anki_backend",
    "read_tables": ".read.dataset",
    # models
    "MODELS": ".kinds",
    "parse_params_text": ".models.ranges",
    # jobs: evaluate, compare, diagnose, with one Job (cancel + progress)
    "Options": ".jobs.options",
    "Job": ".jobs.job",
    "Evaluation": ".jobs.evaluate",
    "evaluate": ".jobs.evaluate",
    "evaluate_tables": ".jobs.evaluate",
    "CompareInput": ".jobs.compare",
    "Comparison": ".jobs.compare",
    "plan_compare": ".jobs.plan",
    "Diagnosis": ".jobs.diagnose",
    "diagnose": ".jobs.diagnose",
    # report: the results said as text
    "format_report": ".report.text",
    "format_comparison": ".report.text",
    "format_diagnosis": ".report.text",
    "comparison_advice": ".report.advice",
    # export: the benchmark's dataset format, written all-or-nothing
    "build_tables": ".export.dataset",
    "write_zip": ".export.dataset",
    "write_parquet_folder": ".export.dataset",
    # errors every caller may catch
    "EvaluationError": ".errors",
    "Cancelled": ".errors",
}

__all__ = sorted(_PUBLIC)


def __getattr__(name: str) -> Any:
    """Load a public name from its module on first use."""
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
