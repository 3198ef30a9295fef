"""Learner solutions beyond the declared variants (adversaries.py): right ones pass, wrong ones fail
with words a learner can act on — in CPython here, and inside Pyodide by tests/pyodide."""

from __future__ import annotations

from collections import Counter

import pytest
from adversaries import CASES

from scratchgrad.exercises import EXERCISES, check


@pytest.mark.parametrize("case", CASES, ids=[f"{case.exercise}-{case.name}" for case in CASES])
def test_a_learners_solution_gets_its_verdict_and_words(case):
    report = check(case.exercise, case.source, case.earlier)
    assert [piece.source for piece in report.pieces if piece.exercise in case.earlier] == [
        "yours" for _ in case.earlier
    ], report.text()
    assert report.passed is case.passes, report.text()
    assert case.words in report.text(), report.text()
    assert "the checker" not in report.text()
    assert "reference solution of" not in report.text()


def test_every_exercise_has_two_more_right_and_six_more_wrong_solutions():
    right = Counter(case.exercise for case in CASES if case.passes)
    wrong = Counter(case.exercise for case in CASES if not case.passes)
    assert {exercise.id: (right[exercise.id] >= 2, wrong[exercise.id] >= 6) for exercise in EXERCISES} == {
        exercise.id: (True, True) for exercise in EXERCISES
    }
    assert len({(case.exercise, case.name) for case in CASES}) == len(CASES)
