"""The mutation tool of the checks (scratchgrad.exercises.mutants): the mutants it makes, and its list."""

from __future__ import annotations

from scratchgrad.exercises.mutants import equivalents, main, mutants
from scratchgrad.exercises.registry import EXERCISES, by_id

SOURCE = '''def f(xs, h=0.5):
    """doc"""
    total = 0
    for x in xs:
        total += x * h
    return -total
'''


def test_each_kind_of_slip_is_made_once_where_it_applies():
    keys = [mutant.key for mutant in mutants(SOURCE)]
    assert "line 5:8: += -> =" in keys
    assert "line 5:17: * -> /" in keys
    assert "line 1:12: 0.5 -> -0.5" in keys
    assert "line 6:11: drop a minus sign" in keys
    assert "line 1:0: f: return before its last line" in keys
    assert len(keys) == len(set(keys))  # a key names one mutant


def test_a_mutant_is_the_source_with_one_change():
    changed = {mutant.key: mutant.source for mutant in mutants(SOURCE)}["line 5:8: += -> ="]
    assert "total = x * h" in changed
    assert changed.count("-total") == 1


def test_every_listed_equivalent_names_a_mutant_that_is_made():
    """A stale entry (its solution changed) must be reviewed again, not kept by habit."""
    made = {exercise.id: {m.key for m in mutants(exercise.solution)} for exercise in EXERCISES}
    for exercise_id, listed in equivalents().items():
        assert set(listed) <= made[by_id(exercise_id).id], exercise_id


def test_a_survivor_not_listed_fails_the_run(monkeypatch, capsys):
    monkeypatch.setattr("scratchgrad.exercises.mutants.equivalents", lambda: {})
    assert main(["slope"]) == 1  # its one equivalent mutant is now unexplained
    assert "SURVIVED" in capsys.readouterr().out
