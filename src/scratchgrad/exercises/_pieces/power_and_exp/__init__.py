"""More operations, primitives: a power with a number exponent, and exp."""

import math

from scratchgrad.exercises.exercise import Engine, Exercise, Fail, num
from scratchgrad.exercises.oracle import close, graph_failure

EXERCISE = Exercise.load(__name__)


def _require(engine: Engine, text: str, x: float, operation, value: float, slope: float, why: str) -> str:
    a = engine.Value(x)
    out = operation(a)
    out.backward()
    data = getattr(out, "data", out)
    if not close(data, value):
        raise Fail(f"{text} at x = {num(x)} should be {num(value)}; yours is {num(data)}")
    if not close(a.grad, slope):
        raise graph_failure(
            f"d({text})/dx at x = {num(x)} should be {num(slope)} ({why}); your backward gave {num(a.grad)}",
            {"x": a, "out": out},
        )
    return f"{num(value)}, slope {num(slope)}"


@EXERCISE.check("x ** 3")
def _cube(engine: Engine) -> str:
    return _require(engine, "x**3", 1.5, lambda a: a**3, 3.375, 6.75, "= 3·x²")


@EXERCISE.check("x ** -1 and x ** 0.5")
def _other_powers(engine: Engine) -> str:
    _require(engine, "x**-1", 4.0, lambda a: a**-1, 0.25, -0.0625, "= −1·x⁻²")
    return _require(engine, "x**0.5", 4.0, lambda a: a**0.5, 2.0, 0.25, "= 0.5·x^−0.5")


@EXERCISE.check("exp(x)")
def _exp(engine: Engine) -> str:
    return _require(engine, "exp(x)", 0.5, lambda a: a.exp(), math.exp(0.5), math.exp(0.5), "= exp(x)")


@EXERCISE.check("exp(x) ** 2 · x: the rules combine")
def _combined(engine: Engine) -> str:
    x = 0.3
    value = math.exp(x) ** 2 * x
    slope = math.exp(2 * x) * (2 * x + 1)
    return _require(engine, "exp(x)**2·x", x, lambda a: a.exp() ** 2 * a, value, slope, "= e²ˣ(2x + 1)")
