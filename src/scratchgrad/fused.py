"""Fused nodes: one graph node for a computation that would otherwise take many.

The chain rule does not care how big a node is. A neuron written with the
basic operations, ``(sum(w * x for ...) + b).tanh()``, makes two nodes per
input plus one; written as one node whose local derivatives are computed
directly, it carries exactly the same gradients. Fewer nodes means less to
build, sort, walk and free: this is what makes scratchgrad's networks fast.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence

from scratchgrad.engine import NonFiniteLocalGrads, Number, Value, _marked_non_finite, _operand, sigmoid

__all__ = [
    "ACTIVATIONS",
    "activated_sum",
    "activated_sums",
    "activation_function",
    "neuron_nodes",
    "sum_of_squares",
    "total",
]


# --8<-- [start:tanh]
def _tanh(z: float) -> tuple[float, float]:
    t = math.tanh(z)
    return t, 1.0 - t * t


# --8<-- [end:tanh]


def _relu(z: float) -> tuple[float, float]:
    if z > 0 or z != z:  # NaN stays NaN, with slope 1, as `Value.relu` and PyTorch
        return z, 1.0
    return (0.0 if z < 0 else z), 0.0


def _sigmoid(z: float) -> tuple[float, float]:
    s = sigmoid(z)
    return s, s * (1.0 - s)


def _linear(z: float) -> tuple[float, float]:
    return z, 1.0


ACTIVATIONS: dict[str, Callable[[float], tuple[float, float]]] = {
    "tanh": _tanh,
    "relu": _relu,
    "sigmoid": _sigmoid,
    "linear": _linear,
}
"""Activation name → function returning (activation(z), its derivative at z)."""

_OP_LABELS = {name: f"{name}(Σw·x+b)" for name in ACTIVATIONS}


# --8<-- [start:activated_sum]
def activated_sum(
    weights: Sequence[Value],
    inputs: Sequence[Value | Number],
    bias: Value,
    activation: str = "linear",
) -> Value:
    """act(z) with z = b + Σ wᵢ·xᵢ, as one node: a neuron's output.

    By the chain rule through z: d/dwᵢ = act'(z)·xᵢ, d/dxᵢ = act'(z)·wᵢ and
    d/db = act'(z). Inputs that are plain numbers (the data) get no edge:
    nothing needs their gradient.

    Example:
        >>> w, b = [Value(2.0), Value(-1.0)], Value(0.5)
        >>> activated_sum(w, [1.0, 3.0], b, "relu").data  # relu(0.5 + 2 - 3)
        0.0
    """
    return activated_sums([weights], [bias], inputs, activation)[0]


# --8<-- [end:activated_sum]


def activated_sums(
    weight_rows: Sequence[Sequence[Value]],
    biases: Sequence[Value],
    inputs: Sequence[Value | Number],
    activation: str = "linear",
) -> list[Value]:
    """`activated_sum` for every neuron j of a layer, reading the inputs once."""
    activation_function(activation)
    for weights in weight_rows:
        if len(weights) != len(inputs):
            raise ValueError(f"activated_sum: {len(weights)} weights but {len(inputs)} inputs")
    return neuron_nodes(weight_rows, biases, inputs, activation)


def activation_function(name: str) -> Callable[[float], tuple[float, float]]:
    """The activation called `name` (see `ACTIVATIONS`), or a ValueError that lists the names."""
    act = ACTIVATIONS.get(name) if isinstance(name, str) else None
    if act is None:
        raise ValueError(f"unknown activation {name!r}; choose from {', '.join(ACTIVATIONS)}")
    return act


def neuron_nodes(
    weight_rows: Sequence[Sequence[Value]],
    biases: Sequence[Value],
    inputs: Sequence[Value | Number],
    activation: str,
) -> list[Value]:
    """`activated_sums` without its check of the lengths: every row must have one weight per input.

    `scratchgrad.nn` checks the inputs once, where they enter a network, and
    calls this for every layer.
    """
    act, op = activation_function(activation), _OP_LABELS[activation]
    kinds = set(map(type, inputs))
    if kinds == {Value}:  # a hidden layer: every input is a Value
        x_data = [x.data for x in inputs]
        value_inputs = tuple(inputs)
    elif kinds <= {float, int}:  # the first layer: every input is a number
        x_data = list(inputs)
        value_inputs = ()
    else:
        x_data = [x.data if isinstance(x, Value) else _operand(x, "activated_sum") for x in inputs]
        value_inputs = tuple(x for x in inputs if isinstance(x, Value))
    return [
        _neuron_node(weights, bias, x_data, inputs, value_inputs, act, op)
        for weights, bias in zip(weight_rows, biases, strict=True)
    ]


# --8<-- [start:neuron_node]
def _neuron_node(
    weights: Sequence[Value],
    bias: Value,
    x_data: list[float],
    inputs: Sequence[Value | Number],
    value_inputs: tuple[Value, ...],
    activation: Callable[[float], tuple[float, float]],
    op: str,
) -> Value:
    """One neuron as one node: act(z) with z = b + Σ wᵢ·xᵢ, and all of its local derivatives.

    Args:
        weights: the neuron's weights w₁ … wₙ.
        bias: its bias b.
        x_data: the numbers x₁ … xₙ of its inputs, one per weight.
        inputs: the inputs themselves, plain numbers or Values, in the same order.
        value_inputs: the inputs that are Values: only they get an edge.
        activation: z ↦ (act(z), act'(z)), e.g. ``ACTIVATIONS["tanh"]``.
        op: the node's op text, e.g. ``"tanh(Σw·x+b)"``.

    The children are the weights, the Value inputs and the bias, in this
    order; their local derivatives are act'(z)·xᵢ, act'(z)·wᵢ and act'(z).
    """
    w_data = [w.data for w in weights]
    z = bias.data + sum(map(operator.mul, w_data, x_data))
    out, slope = activation(z)
    children = (*weights, *value_inputs, bias)
    if slope == 0.0:  # a ReLU that is off: every local derivative is 0
        local_grads = (0.0,) * len(children)
    else:
        if not value_inputs:  # the first layer: the data gets no edge, only the weights and the bias
            d_dz = (*x_data, 1.0)
        elif len(value_inputs) == len(x_data):
            d_dz = (*x_data, *w_data, 1.0)
        else:  # only Values get edges: keep the weights of the Value inputs
            d_dz = (*x_data, *(w for x, w in zip(inputs, w_data, strict=True) if isinstance(x, Value)), 1.0)
        local_grads = d_dz if slope == 1.0 else tuple([slope * d for d in d_dz])
    # Every wᵢ·xᵢ is finite when z is, so every wᵢ and xᵢ is: the local derivatives are finite
    # while |act'(z)| <= 1, and Value() need not add them all up to find out (see its __init__).
    if not (z - z == 0.0 and -1.0 <= slope <= 1.0):
        local_grads = NonFiniteLocalGrads(local_grads)
        op = _marked_non_finite(op)
    node = Value(out, "", (), (), op)
    node._children, node._local_grads = children, local_grads
    return node


# --8<-- [end:neuron_node]


def total(values: Sequence[Value]) -> Value:
    """Σ vᵢ as one node.  d/dvᵢ = 1."""
    values = _values(values, "total")
    return Value(math.fsum(v.data for v in values), "", tuple(values), (1.0,) * len(values), "Σ")


def sum_of_squares(values: Sequence[Value]) -> Value:
    """Σ vᵢ² as one node (the L2 penalty of a model's parameters).  d/dvᵢ = 2vᵢ."""
    values = _values(values, "sum_of_squares")
    data = [v.data for v in values]
    return Value(sum([x * x for x in data]), "", tuple(values), tuple([2.0 * x for x in data]), "Σx²")


def _values(values: Sequence[Value], op: str) -> list[Value]:
    values = list(values)
    if not values:
        raise ValueError(f"{op}: needs at least one Value, got none")
    for v in values:
        if not isinstance(v, Value):
            raise TypeError(f"{op}: every item must be a Value, got {type(v).__name__} {v!r}")
    return values
