"""Stage 1, "The Value object": a number that remembers how it was computed, where a plain float
forgets that ``d = a * b + c`` came from ``a``, ``b`` and ``c``. Each ``+`` or ``*`` returns a new
Value holding ``data`` (the number), ``_prev`` (the set of Values it was computed from, empty for
an input), ``_op`` (the operation that made it) and ``label`` (a name for drawings), so following
``_prev`` from a result back to the inputs walks the whole computation graph. Both operands must
be Values here; gradients come with `scratchgrad.stages.closures`.
"""

from __future__ import annotations

__all__ = ["Value"]


# --8<-- [start:value]
# --8<-- [start:init]
class Value:
    """A number plus the record of the operation and the Values that produced it."""

    def __init__(self, data: float, label: str = "", _children: tuple = (), _op: str = "") -> None:
        self.data = data
        self.label = label
        self._prev = set(_children)
        self._op = _op

    def __repr__(self) -> str:
        return f"Value(data={self.data})"

    # --8<-- [end:init]

    # --8<-- [start:add]
    def __add__(self, other: Value) -> Value:
        return Value(self.data + other.data, "", (self, other), "+")

    # --8<-- [end:add]

    # --8<-- [start:mul]
    def __mul__(self, other: Value) -> Value:
        return Value(self.data * other.data, "", (self, other), "*")

    # --8<-- [end:mul]


# --8<-- [end:value]
