"""More operations, primitives: a power with a number exponent, and exp."""

import math

from scratchgrad.exercises.exercise import Engine, Exercise, Fail
from scratchgrad.exercises.oracle import Builder, close, graph_failure
from scratchgrad.exercises.shares import RULES, require_adds
from scratchgrad.writing.numbers import written

EXERCISE = Exercise.load(__name__)


def _graph(x: float, operation) -> Builder:
    """x, then what `operation` makes of it: out, or its named nodes with out last."""

    def build(V: type) -> dict:  # noqa: N803
        nodes = {"x": V(x)}
        made = operation(nodes["x"])
        nodes.update(made if isinstance(made, dict) else {"out": made})
        return nodes

    return build


def _require(engine: Engine, text: str, x: float, operation, value: float, slope: float, why: str) -> str:
    build = _graph(x, operation)
    nodes = build(engine.Value)
    a, out = nodes["x"], list(nodes.values())[-1]
    out.backward()
    data = getattr(out, "data", out)
    if not close(data, value):
        raise Fail(f"{text} at x = {written(x)} should be {written(value)}; yours is {written(data)}")
    if not close(a.grad, slope):
        raise graph_failure(
            f"d({text})/dx at x = {written(x)} should be {written(slope)} ({why}); your backward gave "
            f"{written(a.grad)}",
            nodes,
            build,
        )
    return f"{written(value)}, slope {written(slope)}"


@EXERCISE.check("x ** 3")
def _cube(engine: Engine) -> str:
    return _require(engine, "x**3", 1.5, lambda a: a**3, 3.375, 6.75, "= 3·x²")


@EXERCISE.check("x ** 2 and x ** 3 at 0, at −2 and at 1000")
def _zero_negative_large(engine: Engine) -> str:
    for x in (0.0, -2.0, 1000.0):
        _require(engine, "x**2", x, lambda a: a**2, x**2, 2 * x, "= 2·x")
        _require(engine, "x**3", x, lambda a: a**3, x**3, 3 * x**2, "= 3·x²")
    return "right at 0, −2 and 1000"


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
    return _require(engine, "exp(x)**2·x", x, _exp_squared_times, value, slope, "= e²ˣ(2x + 1)")


def _exp_squared_times(x: object) -> dict:
    e = x.exp()
    e2 = e**2
    return {"e": e, "e2": e2, "out": e2 * x}


def _three_uses(x: object) -> dict:
    """x² + eˣ·x³: x feeds three nodes."""
    nodes = {"x2": x**2, "ex": x.exp(), "x3": x**3}
    nodes["ex3"] = nodes["ex"] * nodes["x3"]
    nodes["out"] = nodes["x2"] + nodes["ex3"]
    return nodes


@EXERCISE.check("** and exp add their share (+=, not =)")
def _shares(engine: Engine) -> str:
    for rule in RULES:
        if rule.name in ("**", "exp"):
            require_adds(engine, rule)
    build = _graph(0.7, _three_uses)
    nodes = build(engine.Value)
    x, out = nodes["x"], nodes["out"]
    out.backward()
    want = 2 * 0.7 + math.exp(0.7) * 0.7**3 + math.exp(0.7) * 3 * 0.7**2
    if not close(x.grad, want):
        raise graph_failure(
            f"d(x² + eˣ·x³)/dx at x = 0.7 should be {written(want)} (x feeds three nodes); your backward "
            f"gave "
            f"{written(x.grad)}",
            nodes,
            build,
        )
    return "each adds to the child's grad; x² + eˣ·x³ right with x used three times"


@EXERCISE.check("x ** k and exp(x) at random x and k")
def _random_points(engine: Engine) -> str:
    rng = engine.rng
    for _ in range(5):
        x = round(rng.uniform(0.2, 3), 3)
        k = rng.choice((2, 3, 4, -1, -2, 0.5, 1.5, round(rng.uniform(-2, 3), 2)))
        _require(engine, f"x**{k!r}", x, lambda a, k=k: a**k, x**k, k * x ** (k - 1), f"= {k!r}·x^{k - 1!r}")
        _require(engine, "exp(x)", -x, lambda a: a.exp(), math.exp(-x), math.exp(-x), "= exp(x)")
    return "right at five random points"
