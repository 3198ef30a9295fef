"""The += bug: a Value used twice must collect a share of gradient from each use."""

import math

from scratchgrad.exercises.exercise import Engine, Exercise, Fail
from scratchgrad.exercises.expressions import RandomGraph, diamond, long_and_short, two_neurons
from scratchgrad.exercises.oracle import close, graph_failure, require_gradients
from scratchgrad.exercises.shares import require_adds, rules_of
from scratchgrad.page.numbers import written

EXERCISE = Exercise.load(__name__)


@EXERCISE.check("every rule you have written adds its share (+=, not =)")
def _every_rule(engine: Engine) -> str:
    rules = rules_of(engine.Value)
    if not rules:
        raise Fail("your Value has no + or * to check: re-open the Value of the earlier exercises")
    for rule in rules:
        require_adds(engine, rule)
    return "each of " + ", ".join(rule.name for rule in rules) + " adds to the child's grad"


def _shares(engine: Engine, text: str, expression, expected: float, why: str) -> str:
    a, b = engine.Value(3.0), engine.Value(-2.0)
    out = expression(a, b)
    out.backward()
    if not close(a.grad, expected):
        raise graph_failure(
            f"{text} should give a.grad = {written(expected)} ({why}); you got {written(a.grad)}"
            " — does a `_backward` assign with `=`? Each use adds a share: +=",
            {"a": a, "b": b, "out": out},
        )
    return f"a.grad = {written(expected)}"


@EXERCISE.check("a + a, a * a, a·b + a, tanh(a) + a: both shares")
def _used_twice(engine: Engine) -> str:
    _shares(engine, "a + a", lambda a, b: a + a, 2.0, "= 2, since a + a = 2a")
    _shares(engine, "a * a with a = 3", lambda a, b: a * a, 6.0, "= 2a")
    _shares(engine, "a·b + a with b = -2", lambda a, b: a * b + a, -1.0, "= b + 1")
    _shares(engine, "a + 1 + a", lambda a, b: a + 1 + a, 2.0, "a plain number on the right, then a again")
    return _shares(
        engine, "tanh(a) + a", lambda a, b: a.tanh() + a, 2 - math.tanh(3.0) ** 2, "= 1 − tanh(3)² + 1"
    )


@EXERCISE.check("L = (a·b + c)·(a·b): e = a·b used twice")
def _diamond(engine: Engine) -> str:
    return require_gradients(diamond, engine.Value, lambda nodes: nodes["L"].backward(), "L = d·e")


@EXERCISE.check("y = tanh(w1·x) + tanh(w2·x): x feeds two neurons")
def _two_neurons(engine: Engine) -> str:
    return require_gradients(two_neurons, engine.Value, lambda nodes: nodes["y"].backward(), "y")


@EXERCISE.check("y = (u + w)·w + u, u = x·w: u reached by paths of different lengths")
def _long_and_short(engine: Engine) -> str:
    return require_gradients(long_and_short, engine.Value, lambda nodes: nodes["y"].backward(), "y")


@EXERCISE.check("three random graphs with +, · and tanh, nodes used twice")
def _random_graphs(engine: Engine) -> str:
    for _ in range(3):
        graph = RandomGraph.draw(engine.rng, steps=engine.rng.randint(5, 9), ops=("+", "*", "tanh"))
        what = f"in the graph {graph}, y"
        require_gradients(graph, engine.Value, lambda nodes: nodes["y"].backward(), what)
    return "every gradient right"
