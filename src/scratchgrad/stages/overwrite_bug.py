"""Stage 3, "The += bug": backward closures that assign with ``=`` instead of adding with ``+=``.

This Value is `scratchgrad.stages.closures.Value` with ``+`` and ``*``
rewritten the wrong way: their closures *set* a child's gradient instead of
adding to it. Nothing looks wrong while every Value is used once. But a Value
used twice, as in ``b = a + a``, must collect a gradient along each use
(the multivariate chain rule: contributions over all paths add up), and
here the second contribution overwrites the first: ``a.grad`` ends at 1
instead of 2.

Only ``+`` and ``*`` are rewritten (negation, ``-`` and ``/``, built from
them, inherit the bug); ``tanh``, ``exp`` and ``**`` are inherited unchanged
and return correct `closures.Value` results.
"""

from __future__ import annotations

from scratchgrad.stages import closures

__all__ = ["Value"]

Number = int | float


# --8<-- [start:value]
class Value(closures.Value):
    """A closures.Value whose ``+`` and ``*`` overwrite gradients instead of accumulating them."""

    # --8<-- [start:add]
    def __add__(self, other: closures.Value | Number) -> Value:
        other = other if isinstance(other, closures.Value) else Value(other)
        out = Value(self.data + other.data, "", (self, other), "+")

        def _backward() -> None:
            self.grad = 1.0 * out.grad  # the bug: = where += belongs
            other.grad = 1.0 * out.grad

        out._backward = _backward
        return out

    # --8<-- [end:add]

    # --8<-- [start:mul]
    def __mul__(self, other: closures.Value | Number) -> Value:
        other = other if isinstance(other, closures.Value) else Value(other)
        out = Value(self.data * other.data, "", (self, other), "*")

        def _backward() -> None:
            self.grad = other.data * out.grad  # the bug again
            other.grad = self.data * out.grad

        out._backward = _backward
        return out

    # --8<-- [end:mul]


# --8<-- [end:value]
