"""Backprop by hand: every gradient of L = (a·b + c)·f, one chain-rule step per line."""

import inspect
import re
from functools import partial

from scratchgrad.exercises.exercise import Engine, Exercise, Fail
from scratchgrad.exercises.expressions import chapter_expression
from scratchgrad.exercises.oracle import expected, gradient_mismatch
from scratchgrad.exercises.shares import line_in
from scratchgrad.writing.numbers import written

EXERCISE = Exercise.load(__name__)

OTHER_POINT = {"a": 1.5, "b": 4.0, "c": -0.5, "f": 3.0}


ORDER = ("a", "b", "c", "f", "e", "d", "L")  # the order backprop_by_hand takes the nodes in


def _by_hand(engine: Engine, point: dict) -> str | None:
    build = partial(chapter_expression, **point)
    nodes = build(engine.Value)
    engine.backprop_by_hand(*(nodes[name] for name in ORDER))
    problem = gradient_mismatch(build, nodes)
    wrong = re.match(r"dL/d(\w+) should", problem or "")
    if wrong is None:
        return problem
    return problem + _line_setting(engine.backprop_by_hand, ORDER.index(wrong.group(1)))


def _line_setting(function: object, position: int) -> str:
    """Where the reader's `function` sets the grad of its parameter at `position`: " (your line …)", or ""."""
    try:
        parameter = list(inspect.signature(function).parameters)[position]
    except (TypeError, ValueError, IndexError):  # no signature to read, or fewer parameters
        return ""
    return line_in(function, f"{parameter}.grad =") or line_in(function, f"{parameter}.grad")


@EXERCISE.check("a = 2, b = −3, c = 10, f = −2 (the chapter's numbers)")
def _chapter_numbers(engine: Engine) -> str:
    problem = _by_hand(engine, {})
    if problem:
        raise Fail(problem)
    return "dL/da = 6.0, dL/db = -4.0, dL/dc = -2.0, dL/df = 4.0"


@EXERCISE.check("other numbers: a = 1.5, b = 4, c = −0.5, f = 3")
def _other_numbers(engine: Engine) -> str:
    problem = _by_hand(engine, OTHER_POINT)
    if problem:
        truth = expected(chapter_expression)
        typed = " (that is the chapter's number: compute it from .data and the gradient above)"
        hint = typed if any(f"is {truth[n][1]!r}" in problem for n in truth) else ""
        raise Fail(f"with a = 1.5, b = 4.0, c = -0.5, f = 3.0: {problem}{hint}")
    return "every gradient right here too: they come from .data, not typed numbers"


@EXERCISE.check("random numbers")
def _random_numbers(engine: Engine) -> str:
    point = {name: round(engine.rng.uniform(-5, 5), 2) for name in ("a", "b", "c", "f")}
    problem = _by_hand(engine, point)
    if problem:
        shown = ", ".join(f"{name} = {written(x)}" for name, x in point.items())
        raise Fail(f"with {shown}: {problem}")
    return "every gradient right at " + ", ".join(f"{name} = {written(x)}" for name, x in point.items())
