"""The += bug: a Value used twice must collect a share of gradient from each use."""

from scratchgrad.exercises.exercise import Engine, Exercise, num
from scratchgrad.exercises.expressions import diamond, two_neurons
from scratchgrad.exercises.oracle import close, graph_failure, require_gradients

EXERCISE = Exercise.load(__name__)


def _shares(engine: Engine, text: str, expression, expected: float, why: str) -> str:
    a, b = engine.Value(3.0), engine.Value(-2.0)
    out = expression(a, b)
    out.backward()
    if not close(a.grad, expected):
        raise graph_failure(
            f"{text} should give a.grad = {num(expected)} ({why}); you got {num(a.grad)}"
            " — does `_backward` assign with `=`? Each use adds a share: +=",
            {"a": a, "b": b, "out": out},
        )
    return f"a.grad = {num(expected)}"


@EXERCISE.check("a + a: both shares")
def _add_twice(engine: Engine) -> str:
    return _shares(engine, "a + a", lambda a, b: a + a, 2.0, "= 2, since a + a = 2a")


@EXERCISE.check("a * a: both shares")
def _mul_twice(engine: Engine) -> str:
    return _shares(engine, "a * a with a = 3", lambda a, b: a * a, 6.0, "= 2a")


@EXERCISE.check("a·b + a: one share from each operation")
def _mixed(engine: Engine) -> str:
    return _shares(engine, "a·b + a with b = -2", lambda a, b: a * b + a, -1.0, "= b + 1")


@EXERCISE.check("L = (a·b + c)·(a·b): e = a·b used twice")
def _diamond(engine: Engine) -> str:
    return require_gradients(diamond, engine.Value, lambda nodes: nodes["L"].backward(), "L = d·e")


@EXERCISE.check("y = tanh(w1·x) + tanh(w2·x): x feeds two neurons")
def _two_neurons(engine: Engine) -> str:
    return require_gradients(two_neurons, engine.Value, lambda nodes: nodes["y"].backward(), "y")
