"""Your turn: the exercises in which the reader builds the engine, and the checks that grade them,
for the browser's worker and the terminal alike (``python -m scratchgrad.exercises``): `check`
runs the reader's code for one exercise on top of the earlier pieces it builds on (theirs when
given, else the reference solutions) and then the hidden checks, giving a `Report` whose
``to_json()`` the page renders; `check_all` checks every exercise the reader wrote, each on their
own earlier pieces that passed; `describe` lists every exercise for the page build, in the order
of the story; `export` and `parse` turn the reader's work into one .py file and back.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from scratchgrad.exercises.registry import EXERCISES, UnknownExerciseError, by_id
from scratchgrad.exercises.report import Report
from scratchgrad.exercises.runner import DEFAULT_TIME_LIMIT, MissingTool, check, earlier_pieces, new_seed
from scratchgrad.exercises.workfile import WorkFileError, export, parse

__all__ = [
    "DEFAULT_TIME_LIMIT",
    "EXERCISES",
    "MissingTool",
    "Report",
    "UnknownExerciseError",
    "WorkFileError",
    "by_id",
    "check",
    "check_all",
    "describe",
    "export",
    "parse",
]


def check_all(
    pieces: Mapping[str, str],
    *,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    on_report: Callable[[Report], None] | None = None,
    seed: int | None = None,
) -> dict[str, Report]:
    """Check every piece the reader wrote, in the order of the story.

    Each exercise is checked on top of the reader's earlier pieces that passed; an earlier piece
    that failed (or was never written) is replaced by its reference solution. An exercise whose
    checks need a module this Python lacks (torch, in the browser: `Exercise.needs`) gets no
    report: nothing here can say whether it passes. `on_report`, when
    given, is called with each report as it is made. One `seed` (`new_seed()` when None) picks the
    random cases of every piece.
    """
    if seed is None:
        seed = new_seed()
    passing: dict[str, str] = {}
    reports = {}
    for exercise in EXERCISES:
        if exercise.id in pieces and not exercise.missing_tools():
            report = check(exercise.id, pieces[exercise.id], passing, time_limit=time_limit, seed=seed)
            reports[exercise.id] = report
            if on_report is not None:
                on_report(report)
            if report.passed:
                passing[exercise.id] = pieces[exercise.id]
    return reports


def describe() -> list[dict]:
    """Every exercise for the page build, in the order of the story (JSON-ready)."""
    return [
        {
            "id": exercise.id,
            "chapter": exercise.chapter,
            "title": exercise.title,
            "task": exercise.task,
            "provides": list(exercise.provides),
            "requires": list(exercise.requires),
            "builds_on": [piece.id for piece in earlier_pieces(exercise)],
            "stub": exercise.stub,
            "solution": exercise.solution,
            "hints": list(exercise.hints),
            "checks": [hidden.title for hidden in exercise.checks],
            "needs": list(exercise.needs),
            "command_line_only": exercise.on_the_command_line_only,
        }
        for exercise in EXERCISES
    ]
