"""The chapters' expressions, as builders: give a Value class, get the named nodes.

Every builder returns its nodes inputs first and output last, with every intermediate node
named, so reversing the dict is a valid backward order. Checks build each expression twice —
with the reader's Value and with the package's (`oracle.expected`) — and compare node by node.
"""

from __future__ import annotations

__all__ = [
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
