"""Stages 2a and 3, "Local gradients and the chain rule" to "The += bug": the rules as the reader
first writes them, each child's gradient *set* (``self.grad = ...``) to (local derivative) ×
``out.grad``, which is right while every Value has one consumer and wrong once a Value is used
twice, as in ``b = a + a``, where the second share overwrites the first and ``a.grad`` ends at 1
instead of 2 (contributions over all paths must add up: `scratchgrad.stages.closures` is the fix).
Its Value is the closure stage's with ``+``, ``*`` and ``tanh`` written with ``=``; ``-``, negation
and ``/``, built from them, inherit the bug, and its Values mix with the closure stage's.
"""

from __future__ import annotations

import math

from scratchgrad.stages import closures
from scratchgrad.stages.closures import topological_order_recursive

__all__ = ["Value", "topological_order_recursive"]

Number = int | float


# --8<-- [start:value]
class Value(closures.Value):
    """A closures.Value whose ``+``, ``*`` and ``tanh`` set gradients (``=``) instead of adding them."""

    # --8<-- [start:add]
    def __add__(self, other: Value | Number) -> Value:
        other = Value(other) if isinstance(other, int | float) else other
        out = Value(self.data + other.data, "", (self, other), "+")

        def _backward() -> None:  # d(out)/d(self) = 1, d(out)/d(other) = 1
            self.grad = 1.0 * out.grad
            other.grad = 1.0 * out.grad

        out._backward = _backward
        return out

    # --8<-- [end:add]

    # --8<-- [start:mul]
    def __mul__(self, other: Value | Number) -> Value:
        other = Value(other) if isinstance(other, int | float) else other
        out = Value(self.data * other.data, "", (self, other), "*")

        def _backward() -> None:  # d(out)/d(self) = other, d(out)/d(other) = self
            self.grad = other.data * out.grad
            other.grad = self.data * out.grad

        out._backward = _backward
        return out

    # --8<-- [end:mul]

    # --8<-- [start:tanh]
    def tanh(self) -> Value:
        t = math.tanh(self.data)
        out = Value(t, "", (self,), "tanh")

        def _backward() -> None:  # d(out)/d(self) = 1 - tanh(self)**2
            self.grad = (1 - t**2) * out.grad

        out._backward = _backward
        return out

    # --8<-- [end:tanh]


# --8<-- [end:value]
