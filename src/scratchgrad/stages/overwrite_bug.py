"""Stage 2a, "Local gradients and the chain rule"; stage 3, "The += bug": rules that assign with ``=``.

The chain rule at one node, written as the chapter first writes it: each child's gradient
*is* (local derivative) × ``out.grad`` — ``self.grad = ...``. That is right while every Value
has one consumer, as every graph of the chain-rule chapter does, and it is how a reader's first
rules come out. "The += bug" then uses a Value twice, as in ``b = a + a``: it must collect a
gradient along each use (the multivariate chain rule: contributions over all paths add up), and
here the second contribution overwrites the first: ``a.grad`` ends at 1 instead of 2.
`scratchgrad.stages.closures` is the fix, ``+=`` in every rule.

This is the stage "Local gradients and the chain rule" and "Automating backward" run, their rules
as the reader writes them there. Its Value is `scratchgrad.stages.closures.Value` (its
``backward``, ``**``, ``exp``, …) with the rules of ``+``, ``*`` and ``tanh`` written with ``=``,
and its `topological_order_recursive` is the closure stage's; negation, ``-`` and ``/``, built from them,
inherit the bug. A plain number is wrapped; any stage's Value is used as it is, so this stage's
Values and the closure stage's mix (``**`` returns a closure-stage Value).
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
