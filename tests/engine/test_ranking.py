"""The findings ranked as a learner should read them (issue 20): the data first, then problems, then
suggestions by how many reviews they concern, then not-enough-data, then what is fine; counts in words."""

from __future__ import annotations

from support.learners import build

from fsrs_calibration.metrics.explain import counts
from fsrs_calibration.metrics.jobs.diagnose import Verdict, diagnose
from fsrs_calibration.metrics.read.collection import read_collection


def _diagnosis(path: str):
    from anki.collection import Collection

    col = Collection(path)
    try:
        return diagnose(read_collection(col, None))
    finally:
        col.close(downgrade=False)


def test_problems_then_suggestions_by_reviews_affected(tmp_path):
    # Hard pressed on most forgotten cards, Again on some recalled ones, and a preset never optimized:
    # several problems and suggestions at once.
    path = build(str(tmp_path / "c.anki2"), 3, preset=False, hard_share=0.7, again_share=0.2)
    dg = _diagnosis(path)
    found = dg.findings
    assert found[0].id == "data"
    ranks = [f.verdict.rank for f in found[1:]]
    assert ranks == sorted(ranks), [(f.id, f.verdict) for f in found]
    acting = [f for f in found if f.verdict in (Verdict.PROBLEM, Verdict.SUGGESTION)]
    assert len(acting) >= 2, [(f.id, f.verdict) for f in found]
    for verdict in (Verdict.PROBLEM, Verdict.SUGGESTION):
        affected = [f.reviews_affected for f in found if f.verdict is verdict]
        assert affected == sorted(affected, reverse=True) and all(n > 0 for n in affected)
    for f in found:
        if f.verdict not in (Verdict.PROBLEM, Verdict.SUGGESTION):
            assert f.reviews_affected == 0, f
        elif f.id == "hard-misuse":
            assert f.reviews_affected == f.evidence.to_dict()["after_hard"]["reviews"]
        elif f.id == "again-misuse":
            assert f.reviews_affected == f.evidence.to_dict()["after_again"]["reviews"]
        elif f.id in ("retention", "parameters"):
            assert f.reviews_affected == f.evidence.to_dict()["reviews"]
        assert f.reviews_affected <= dg.reviews
    assert sum(dg.count(v) for v in Verdict) == len(found)


def test_counts_in_words_with_plurals():
    assert counts.checks_behind(1) == "The 1 check behind the steps and notes"
    assert counts.checks_behind(6) == "The 6 checks behind the steps and notes"
    assert counts.checks_passed(1) == "1 check passed"
    assert counts.checks_passed(7) == "7 checks passed"
    assert counts.checks_passed(1200) == "1,200 checks passed"
    assert counts.not_enough_data(1) == "1 check without enough data"
    assert counts.not_enough_data(3) == "3 checks without enough data"
