"""The chapters' expressions, as builders: give a Value class, get the named nodes, inputs first and
output last with every intermediate node named, so that reversing them is a valid backward order;
a check builds each expression twice, with the reader's Value and with the package's
(`scratchgrad.exercises.oracle.expected`), and compares node by node, and `RandomGraph` draws a
builder from a seeded random generator.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

__all__ = [
    "RandomGraph",
    "add_to_itself",
    "chapter_expression",
    "diamond",
    "long_and_short",
    "neuron",
    "tanh_chain",
    "two_neurons",
]


def chapter_expression(V: type, a: float = 2.0, b: float = -3.0, c: float = 10.0, f: float = -2.0) -> dict:  # noqa: N803
    """e = a·b, d = e + c, L = d·f (the chapters' running example)."""
    nodes = {"a": V(a), "b": V(b), "c": V(c), "f": V(f)}
    nodes["e"] = nodes["a"] * nodes["b"]
    nodes["d"] = nodes["e"] + nodes["c"]
    nodes["L"] = nodes["d"] * nodes["f"]
    return nodes


def neuron(V: type) -> dict:  # noqa: N803
    """o = tanh(x1·w1 + x2·w2 + b), with the bias that makes o = 1/√2."""
    n = {"x1": V(2.0), "w1": V(-3.0), "x2": V(0.0), "w2": V(1.0), "b": V(6.8813735870195432)}
    n["x1w1"] = n["x1"] * n["w1"]
    n["x2w2"] = n["x2"] * n["w2"]
    n["total"] = n["x1w1"] + n["x2w2"]
    n["n"] = n["total"] + n["b"]
    n["o"] = n["n"].tanh()
    return n


def tanh_chain(V: type) -> dict:  # noqa: N803
    """y = tanh(tanh(tanh(x·w))): every rule depends on the one above it."""
    n = {"x": V(0.5), "w": V(1.5)}
    n["xw"] = n["x"] * n["w"]
    n["t1"] = n["xw"].tanh()
    n["t2"] = n["t1"].tanh()
    n["y"] = n["t2"].tanh()
    return n


def diamond(V: type) -> dict:  # noqa: N803
    """e = a·b, d = e + c, L = d·e: e is used twice, so it collects two shares."""
    n = {"a": V(2.0), "b": V(-3.0), "c": V(10.0)}
    n["e"] = n["a"] * n["b"]
    n["d"] = n["e"] + n["c"]
    n["L"] = n["d"] * n["e"]
    return n


def two_neurons(V: type) -> dict:  # noqa: N803
    """y = tanh(w1·x) + tanh(w2·x): one input feeding two neurons."""
    n = {"x": V(0.5), "w1": V(-1.2), "w2": V(0.8)}
    n["z1"] = n["w1"] * n["x"]
    n["z2"] = n["w2"] * n["x"]
    n["h1"] = n["z1"].tanh()
    n["h2"] = n["z2"].tanh()
    n["y"] = n["h1"] + n["h2"]
    return n


def long_and_short(V: type) -> dict:  # noqa: N803
    """y = (u + w)·w + u with u = x·w: u reaches y by a short path and by a long one.

    A breadth-first walk from y meets u one step away, before t2 = u + w two steps away: it runs
    u's rule before t2's, though t2 still has a share to pass to u; reversed, a breadth-first order
    lists t2 before u, which t2 was made from.
    """
    n = {"x": V(0.5), "w": V(-1.5)}
    n["u"] = n["x"] * n["w"]
    n["t2"] = n["u"] + n["w"]
    n["t3"] = n["t2"] * n["w"]
    n["y"] = n["t3"] + n["u"]
    return n


def add_to_itself(V: type) -> dict:  # noqa: N803
    """s = a + a, y = s·a: a appears twice among the children of one node."""
    n = {"a": V(-1.5)}
    n["s"] = n["a"] + n["a"]
    n["y"] = n["s"] * n["a"]
    return n


REUSED_NODE_GRAPHS = (
    (diamond, "L = (a·b + c)·(a·b)"),
    (add_to_itself, "y = (a + a)·a"),
    (long_and_short, "y = (u + w)·w + u"),
)
"""The graphs that separate a right walk from a wrong one, each with the formula a message shows:
a node used twice, a node twice among one node's children, a node reached by paths of different
lengths."""

OPERATIONS = {
    "+": (lambda x, y: x + y, "{0} + {1}"),
    "*": (lambda x, y: x * y, "{0}·{1}"),
    "tanh": (lambda x, y: x.tanh(), "tanh({0})"),
}


@dataclass(frozen=True)
class RandomGraph:
    """A random expression, drawn from a seeded `random.Random`: a few inputs, then `steps` nodes,
    each an operation of `ops` on earlier nodes picked at random — so some node is used twice (at
    times by the same node: t + t), and reached by paths of different lengths. Every node feeds the
    output `y`. Called with a Value class, it builds the nodes, inputs first, output last."""

    inputs: tuple[tuple[str, float], ...]
    steps: tuple[tuple[str, str, str, str], ...]  # (name, operation, first, second)

    @classmethod
    def draw(cls, rng: random.Random, steps: int = 7, ops: tuple[str, ...] = ("+", "*")) -> RandomGraph:
        names = "abcd"[: rng.randint(2, 4)]
        inputs = tuple((name, round(rng.uniform(-1.5, 1.5), 2)) for name in names)
        value = dict(inputs)
        drawn: list[tuple[str, str, str, str]] = []
        available = list(names)
        for k in range(1, steps + 1):
            first, second = rng.choice(available), rng.choice(available)
            op = rng.choice(ops)
            if op == "*" and abs(value[first] * value[second]) > 4:  # keep every number moderate
                op = "+"
            if op == "tanh":
                second = first
            name = f"t{k}"
            value[name] = OPERATIONS[op][0](_Number(value[first]), _Number(value[second])).x
            drawn.append((name, op, first, second))
            available.append(name)
        used = {child for _, _, first, second in drawn for child in (first, second)}
        loose = [name for name in available[:-1] if name not in used]
        for name in loose:  # every node feeds the output
            last = drawn[-1][0]
            drawn.append((f"t{len(drawn) + 1}", "+", last, name))
        drawn[-1] = ("y", *drawn[-1][1:])
        return cls(inputs, tuple(drawn))

    def __call__(self, V: type) -> dict:  # noqa: N803
        nodes = {name: V(data) for name, data in self.inputs}
        for name, op, first, second in self.steps:
            nodes[name] = OPERATIONS[op][0](nodes[first], nodes[second])
        return nodes

    def __str__(self) -> str:
        """The graph in words: "a = 0.5, b = -1.2; t1 = a·b, t2 = t1 + a, y = tanh(t2)"."""
        inputs = ", ".join(f"{name} = {data!r}" for name, data in self.inputs)
        steps = ", ".join(f"{name} = {OPERATIONS[op][1].format(x, y)}" for name, op, x, y in self.steps)
        return f"{inputs}; {steps}"


@dataclass(frozen=True)
class _Number:
    """A plain number with the operations of `OPERATIONS`, to draw a graph's values before building it."""

    x: float

    def __add__(self, other: _Number) -> _Number:
        return _Number(self.x + other.x)

    def __mul__(self, other: _Number) -> _Number:
        return _Number(self.x * other.x)

    def tanh(self) -> _Number:
        return _Number(math.tanh(self.x))
