"""A test of an exercise whose checks need a tool outside scratchgrad (torch-port needs torch) runs
where that tool is: a test parametrized by such an exercise, its id or a learner's case of it follows
the missing-tool rule (tests/missing_tools.py): a failure under CI=true, a skip elsewhere, and
inside Pyodide, which has no torch, a plain skip."""

from __future__ import annotations

import pytest

from missing_tools import import_or_missing
from scratchgrad.exercises.registry import EXERCISES

_NEEDS = {exercise.id: exercise.needs for exercise in EXERCISES}


def _exercise_of(value: object) -> str | None:
    """The exercise id a test parameter stands for: an Exercise, a learner's Case, or an id."""
    for name in ("id", "exercise"):
        found = getattr(value, name, None)
        if isinstance(found, str):
            return found
    return value if isinstance(value, str) else None


@pytest.fixture(autouse=True)
def _the_exercises_tools(request):
    params = getattr(getattr(request.node, "callspec", None), "params", {})
    for value in params.values():
        for module in _NEEDS.get(_exercise_of(value), ()):
            import_or_missing(module)
