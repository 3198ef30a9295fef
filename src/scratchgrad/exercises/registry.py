"""The exercises, in the order of the story (each one a folder of `scratchgrad.exercises._pieces`)."""

from __future__ import annotations

from scratchgrad.exercises._pieces import (
    accumulate,
    backprop_by_hand,
    backward,
    composed_ops,
    descent,
    diagnose,
    fan_out,
    gradient_check,
    local_derivatives,
    mlp,
    power_and_exp,
    slope,
    softmax_cross_entropy,
    tanh_derivative,
    topological_order,
    torch_port,
    trace,
    training,
    value_graph,
)
from scratchgrad.exercises.exercise import Exercise

__all__ = ["COMMAND_LINE_ONLY", "ENGINE_PIECES", "EXERCISES", "UnknownExerciseError", "by_id"]

EXERCISES: tuple[Exercise, ...] = tuple(
    module.EXERCISE
    for module in (
        slope,
        descent,
        trace,
        value_graph,
        backprop_by_hand,
        tanh_derivative,
        local_derivatives,
        topological_order,
        backward,
        fan_out,
        accumulate,
        power_and_exp,
        composed_ops,
        gradient_check,
        mlp,
        training,
        diagnose,
        softmax_cross_entropy,
        torch_port,
    )
)
ENGINE_PIECES: tuple[Exercise, ...] = tuple(e for e in EXERCISES if not e.on_the_command_line_only)
"""What "your engine: k of N pieces" counts, on the home page and in the command line's ``list``
alike: every exercise the page can check. The others (`COMMAND_LINE_ONLY`, whose checks need torch)
are counted apart, where they can be checked: the page never calls one passed."""
COMMAND_LINE_ONLY: tuple[Exercise, ...] = tuple(e for e in EXERCISES if e.on_the_command_line_only)
_BY_ID = {exercise.id: exercise for exercise in EXERCISES}


class UnknownExerciseError(KeyError):
    """An exercise id that is not in the registry; the message lists the ones that are."""

    def __str__(self) -> str:
        return f"no exercise {self.args[0]!r}; the exercises are: {', '.join(_BY_ID)}"


def by_id(exercise_id: str) -> Exercise:
    """The exercise with this id, or `UnknownExerciseError` naming the valid ids."""
    try:
        return _BY_ID[exercise_id]
    except (KeyError, TypeError):
        raise UnknownExerciseError(exercise_id) from None
