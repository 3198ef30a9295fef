"""Stage 1b, "Backprop by hand": the stage-1 Value (`scratchgrad.stages.graph_only`) with one more
number beside ``data``, ``grad`` (the derivative of the final output with respect to this node),
which starts at 0 and is filled in by hand, one chain-rule line per node, plus ``tanh`` for a
neuron; ``+`` and ``*`` are written again only so that their results have a ``grad``. No
operation has a backward rule yet (`scratchgrad.stages.closures` gives each one);
`backprop_by_hand` is the chapter's walk as one function, the form its exercise asks for.
"""

from __future__ import annotations

import math

from scratchgrad.stages import graph_only

__all__ = ["Value", "backprop_by_hand"]


# --8<-- [start:value]
# --8<-- [start:init]
class Value(graph_only.Value):
    """A stage-1 Value plus ``grad``: the derivative of the output with respect to this node."""

    def __init__(self, data: float, label: str = "", _children: tuple = (), _op: str = "") -> None:
        super().__init__(data, label, _children, _op)
        self.grad = 0.0  # 0 until we work it out

    # --8<-- [end:init]

    def __add__(self, other: Value) -> Value:
        return Value(self.data + other.data, "", (self, other), "+")

    def __mul__(self, other: Value) -> Value:
        return Value(self.data * other.data, "", (self, other), "*")

    # --8<-- [start:tanh]
    def tanh(self) -> Value:
        return Value(math.tanh(self.data), "", (self,), "tanh")

    # --8<-- [end:tanh]


# --8<-- [end:value]


# --8<-- [start:backprop_by_hand]
def backprop_by_hand(a: Value, b: Value, c: Value, f: Value, e: Value, d: Value, L: Value) -> None:
    """Fill every .grad of e = a*b, d = e + c, L = d*f, from L back to the inputs."""
    L.grad = 1.0  # dL/dL
    d.grad = f.data * L.grad  # L = d * f: the local derivative for d is f
    f.grad = d.data * L.grad  # and for f it is d
    e.grad = 1.0 * d.grad  # d = e + c: a sum passes the gradient on unchanged
    c.grad = 1.0 * d.grad
    a.grad = b.data * e.grad  # e = a * b
    b.grad = a.data * e.grad


# --8<-- [end:backprop_by_hand]
