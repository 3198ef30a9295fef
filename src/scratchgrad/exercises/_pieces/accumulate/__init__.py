"""The += bug: a Value used twice must collect a share of gradient from each use."""

import math
from collections.abc import Callable

from scratchgrad.exercises.exercise import Engine, Exercise, Fail
from scratchgrad.exercises.expressions import RandomGraph, diamond, long_and_short, two_neurons
from scratchgrad.exercises.oracle import Builder, close, graph_failure, require_gradients
from scratchgrad.exercises.shares import require_adds, rules_of
from scratchgrad.writing.numbers import written

EXERCISE = Exercise.load(__name__)


@EXERCISE.check("every rule you have written adds its share (+=, not =)")
def _every_rule(engine: Engine) -> str:
    rules = rules_of(engine.Value)
    if not rules:
        raise Fail("your Value has no + or * to check: re-open the Value of the earlier exercises")
    problems = []
    for rule in rules:  # every rule, not only the first that loses a share: the reader fixes them all
        try:
            require_adds(engine, rule)
        except Fail as problem:
            problems.append(str(problem))
    if len(problems) == 1:
        raise Fail(problems[0])
    if problems:
        listed = "; ".join(f"({number}) {problem}" for number, problem in enumerate(problems, 1))
        raise Fail(f"{len(problems)} of your {len(rules)} rules lose a share: {listed}")
    return "each of " + ", ".join(rule.name for rule in rules) + " adds to the child's grad"


def _shares(engine: Engine, text: str, build: Builder, expected: float, why: str) -> str:
    nodes = build(engine.Value)
    a, out = nodes["a"], nodes["out"]
    out.backward()
    if not close(a.grad, expected):
        raise graph_failure(
            f"{text} should give a.grad = {written(expected)} ({why}); you got {written(a.grad)}",
            nodes,
            build,
        )
    return f"a.grad = {written(expected)}"


def _used_twice_graph(*steps: tuple[str, Callable]) -> Builder:
    """a = 3, b = −2, then each step's node made from the ones before it; the last one is out."""

    def build(V: type) -> dict:  # noqa: N803
        nodes = {"a": V(3.0), "b": V(-2.0)}
        for name, make in steps:
            nodes[name] = make(nodes)
        return nodes

    return build


@EXERCISE.check("a + a, a * a, a·b + a, tanh(a) + a: both shares")
def _used_twice(engine: Engine) -> str:
    _shares(
        engine, "a + a", _used_twice_graph(("out", lambda n: n["a"] + n["a"])), 2.0, "= 2, since a + a = 2a"
    )
    _shares(engine, "a * a with a = 3", _used_twice_graph(("out", lambda n: n["a"] * n["a"])), 6.0, "= 2a")
    ab_plus_a = _used_twice_graph(("ab", lambda n: n["a"] * n["b"]), ("out", lambda n: n["ab"] + n["a"]))
    _shares(engine, "a·b + a with b = -2", ab_plus_a, -1.0, "= b + 1")
    a_1_a = _used_twice_graph(("a1", lambda n: n["a"] + 1), ("out", lambda n: n["a1"] + n["a"]))
    _shares(engine, "a + 1 + a", a_1_a, 2.0, "a plain number on the right, then a again")
    tanh_a = _used_twice_graph(("t", lambda n: n["a"].tanh()), ("out", lambda n: n["t"] + n["a"]))
    return _shares(engine, "tanh(a) + a", tanh_a, 2 - math.tanh(3.0) ** 2, "= 1 − tanh(3)² + 1")


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
