"""Stage 4, "More operations": new functions from old operations, with no new backward rule,
because backpropagation only needs each *primitive* operation to know its local derivative; a
function written with ``+ - * / **`` and ``exp`` gets its gradient from the chain rule running
through its pieces, on any Value that has them (`scratchgrad.stages.closures.Value` or
`scratchgrad.Value`). The check: ``tanh_from_exp(x)`` gives the value and the gradient of
``x.tanh()``, whose derivative ``1 - tanh(x)**2`` was worked out by hand (it overflows where
``exp(2x)`` does, so ``tanh()`` stays the op to use).
"""

from __future__ import annotations

from typing import Any

__all__ = ["sigmoid_from_exp", "tanh_from_exp"]


# --8<-- [start:tanh_from_exp]
def tanh_from_exp(x: Any) -> Any:
    """tanh x = (exp(2x) - 1) / (exp(2x) + 1), from exp, -, + and /."""
    e = (2 * x).exp()
    return (e - 1) / (e + 1)


# --8<-- [end:tanh_from_exp]


# --8<-- [start:sigmoid_from_exp]
def sigmoid_from_exp(x: Any) -> Any:
    """σ(x) = 1 / (1 + exp(-x)), from exp, negation, + and /."""
    return 1 / (1 + (-x).exp())


# --8<-- [end:sigmoid_from_exp]
