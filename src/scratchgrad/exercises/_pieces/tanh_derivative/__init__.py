"""The derivative of tanh, worked out before it becomes a backward rule."""

import math

from scratchgrad._checks import is_number
from scratchgrad.exercises.exercise import Engine, Exercise, Fail
from scratchgrad.writing.numbers import written

EXERCISE = Exercise.load(__name__)

POINTS = (0.0, 0.5, -1.2, 0.8813735870195432, 3.0, 1e-4, -20.0)


def _central(x: float, h: float = 1e-6) -> float:
    return (math.tanh(x + h) - math.tanh(x - h)) / (2 * h)


@EXERCISE.check("tanh'(x) against nudging at five points")
def _against_nudging(engine: Engine) -> str:
    for x in POINTS:
        got, want = engine.tanh_derivative(x), _central(x)
        if not is_number(got) or abs(got - want) > 1e-6:
            hint = ""
            if is_number(got) and abs(got - (1 - x * x)) < 1e-9:
                hint = " — you squared x; the rule squares tanh(x)"
            elif is_number(got) and abs(got - (1 - math.tanh(x))) < 1e-9:
                hint = " — did you forget to square tanh(x)?"
            raise Fail(
                f"tanh'({written(x)}) should be {written(want)} (by nudging); yours gives "
                f"{written(got)}{hint}"
            )
    return "agrees with nudging at " + ", ".join(written(x) for x in POINTS)


@EXERCISE.check("tanh' is 1 at 0 and ½ where tanh is 1/√2")
def _special_points(engine: Engine) -> str:
    for x, want in ((0.0, 1.0), (0.8813735870195432, 0.5)):
        got = engine.tanh_derivative(x)
        if not is_number(got) or abs(got - want) > 1e-9:
            raise Fail(f"tanh'({written(x)}) should be {want!r}; yours gives {got!r}")
    return "1.0 at 0, 0.5 at 0.8814"


@EXERCISE.check("tanh'(x) far out: 0.0 at x = ±400, no overflow")
def _far_out(engine: Engine) -> str:
    # The task asks for tanh'(x) through tanh(x), which never overflows; through exp(x) or cosh(x) it
    # overflows from |x| ≈ 355 on, where the answer is a plain 0.0.
    for x in (400.0, -400.0):
        try:
            got = engine.tanh_derivative(x)
        except OverflowError:
            raise Fail(
                f"tanh'({written(x)}) raised OverflowError; it is 0.0 as a float — write it with tanh(x), "
                "which never overflows: 1 − tanh(x)²"
            ) from None
        if not is_number(got) or abs(got) > 1e-12:
            raise Fail(f"tanh'({written(x)}) should be 0.0; yours gives {written(got)}")
    return "0.0 at 400 and at −400"


@EXERCISE.check("tanh'(x) at five random points")
def _random_points(engine: Engine) -> str:
    points = [round(engine.rng.uniform(-4, 4), 4) for _ in range(5)]
    for x in points:
        got, want = engine.tanh_derivative(x), 1 - math.tanh(x) ** 2
        if not is_number(got) or abs(got - want) > 1e-6:
            raise Fail(f"tanh'({written(x)}) should be {written(want)}; yours gives {written(got)}")
    return "right at " + ", ".join(written(x) for x in points)
