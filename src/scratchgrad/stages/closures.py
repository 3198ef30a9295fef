"""Stage 3, from "The += bug" on: micrograd's design, where each operation gives its result ``out``
a ``_backward`` closure that, once ``out.grad`` is known, applies the chain rule for one node: each
child's ``grad`` grows (``+=``) by (local derivative) × ``out.grad``, so a Value used twice
collects a share from each use. `Value.backward` seeds ``grad = 1`` and calls the closures from
the output back to the inputs, in the reverse of a topological order (`topological_order_recursive`),
so a node's gradient is complete before it is passed on. Besides ``+``, ``*`` and ``tanh`` it has
the primitives of "More operations" (``**`` with a plain-number exponent, ``exp``, ``log``,
``sigmoid``, ``relu``); ``-``, negation and ``/`` are built from them and need no rule of their
own, and plain numbers on either side become input Values. What the final engine does differently
(no recursion, no reference cycles, a second ``backward`` that starts afresh): ARCHITECTURE.md,
"The engine's design".
"""

from __future__ import annotations

import math

from scratchgrad.stages import graph_only

__all__ = ["Value", "topological_order_recursive"]

Number = int | float


# --8<-- [start:value]
# --8<-- [start:init]
class Value(graph_only.Value):
    """A Value with a gradient and a closure that passes the gradient to its children."""

    def __init__(self, data: float, label: str = "", _children: tuple = (), _op: str = "") -> None:
        super().__init__(data, label, _children, _op)
        self.grad = 0.0
        self._backward = lambda: None  # an input has no children to pass its gradient to

    def __repr__(self) -> str:
        return f"Value(data={self.data}, grad={self.grad})"

    # --8<-- [end:init]

    # --8<-- [start:add]
    def __add__(self, other: Value | Number) -> Value:
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, "", (self, other), "+")

        def _backward() -> None:  # d(out)/d(self) = 1, d(out)/d(other) = 1
            self.grad += 1.0 * out.grad
            other.grad += 1.0 * out.grad

        out._backward = _backward
        return out

    # --8<-- [end:add]

    # --8<-- [start:mul]
    def __mul__(self, other: Value | Number) -> Value:
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, "", (self, other), "*")

        def _backward() -> None:  # d(out)/d(self) = other, d(out)/d(other) = self
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    # --8<-- [end:mul]

    # --8<-- [start:pow]
    def __pow__(self, k: Number) -> Value:
        if not isinstance(k, int | float):
            raise TypeError(f"this Value takes a plain-number exponent, got {type(k).__name__}")
        out = Value(self.data**k, "", (self,), f"**{k}")

        def _backward() -> None:  # d(out)/d(self) = k * self**(k-1)
            self.grad += k * self.data ** (k - 1) * out.grad

        out._backward = _backward
        return out

    # --8<-- [end:pow]

    # --8<-- [start:exp]
    def exp(self) -> Value:
        out = Value(math.exp(self.data), "", (self,), "exp")

        def _backward() -> None:  # d(out)/d(self) = exp(self), which is out itself
            self.grad += out.data * out.grad

        out._backward = _backward
        return out

    # --8<-- [end:exp]

    # --8<-- [start:log]
    def log(self) -> Value:
        out = Value(math.log(self.data), "", (self,), "log")

        def _backward() -> None:  # d(out)/d(self) = 1 / self
            self.grad += (1 / self.data) * out.grad

        out._backward = _backward
        return out

    # --8<-- [end:log]

    # --8<-- [start:sigmoid]
    def sigmoid(self) -> Value:
        s = 1 / (1 + math.exp(-self.data))
        out = Value(s, "", (self,), "sigmoid")

        def _backward() -> None:  # d(out)/d(self) = s * (1 - s)
            self.grad += s * (1 - s) * out.grad

        out._backward = _backward
        return out

    # --8<-- [end:sigmoid]

    # --8<-- [start:relu]
    def relu(self) -> Value:
        out = Value(max(0.0, self.data), "", (self,), "relu")

        def _backward() -> None:  # d(out)/d(self) = 1 where self > 0, else 0
            self.grad += (1.0 if self.data > 0 else 0.0) * out.grad

        out._backward = _backward
        return out

    # --8<-- [end:relu]

    # --8<-- [start:tanh]
    def tanh(self) -> Value:
        t = math.tanh(self.data)
        out = Value(t, "", (self,), "tanh")

        def _backward() -> None:  # d(out)/d(self) = 1 - tanh(self)**2
            self.grad += (1 - t**2) * out.grad

        out._backward = _backward
        return out

    # --8<-- [end:tanh]

    # --8<-- [start:composed]
    def __neg__(self) -> Value:  # -self
        return self * -1

    def __sub__(self, other: Value | Number) -> Value:  # self - other
        return self + (-other)

    def __truediv__(self, other: Value | Number) -> Value:  # self / other
        return self * other**-1

    def __radd__(self, other: Number) -> Value:  # other + self
        return self + other

    def __rmul__(self, other: Number) -> Value:  # other * self
        return self * other

    def __rsub__(self, other: Number) -> Value:  # other - self
        return other + (-self)

    def __rtruediv__(self, other: Number) -> Value:  # other / self
        return other * self**-1

    # --8<-- [end:composed]

    # --8<-- [start:backward]
    def backward(self) -> None:
        self.grad = 1.0  # d(self)/d(self)
        for node in reversed(topological_order_recursive(self)):
            node._backward()

    # --8<-- [end:backward]


# --8<-- [end:value]


# --8<-- [start:topological_order_recursive]
def topological_order_recursive(root: Value) -> list[Value]:
    """Every Value `root` depends on, each listed after the Values it was made from."""
    order: list[Value] = []
    visited: set[Value] = set()

    def visit(node: Value) -> None:
        if node not in visited:
            visited.add(node)
            for child in node._prev:
                visit(child)
            order.append(node)  # only once all of its children are in the list

    visit(root)
    return order


# --8<-- [end:topological_order_recursive]
