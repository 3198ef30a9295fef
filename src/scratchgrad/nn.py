"""Neurons, layers and multi-layer perceptrons built on `Value`.

A neuron computes ``activation(b + Σ wᵢ·xᵢ)``; a layer is a list of neurons
that read the same inputs; an MLP feeds each layer's outputs to the next.
Every weight and bias is a `Value`, so ``loss.backward()`` reaches them all.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from scratchgrad._checks import generator, whole_number
from scratchgrad.engine import Number, Value
from scratchgrad.fused import activation_function, neuron_nodes

__all__ = ["MLP", "Layer", "Module", "Neuron"]

Inputs = Sequence[Value | Number]


# --8<-- [start:module]
class Module:
    """Anything with parameters: the interface optimizers and training use."""

    def parameters(self) -> list[Value]:
        """Every trainable Value of this module, in a fixed order."""
        return []

    def zero_grad(self) -> None:
        """Set every parameter's gradient to 0 before the next backward pass.

        Gradients accumulate, so without this a second ``backward()`` adds its
        gradients to the first step's.
        """
        for p in self.parameters():
            p.grad = 0.0


# --8<-- [end:module]


# --8<-- [start:neuron]
class Neuron(Module):
    """``activation(b + Σ wᵢ·xᵢ)`` with weights drawn from U(-1, 1) and b = 0.

    Args:
        nin: number of inputs.
        activation: ``"tanh"``, ``"relu"``, ``"sigmoid"`` or ``"linear"``.
        nonlin: micrograd's spelling, also accepted: True is ``"relu"``, False ``"linear"``.
        rng: where the initial weights come from: a `random.Random`, an int
            seed, or None for Python's global `random` (seed it for repeatable runs).
    """

    def __init__(
        self,
        nin: int,
        activation: str = "tanh",
        *,
        nonlin: bool | None = None,
        rng: random.Random | int | None = None,
    ) -> None:
        whole_number(nin, "Neuron", "nin")
        self.activation, source = _options(activation, nonlin, rng, "Neuron")
        source = source or random  # None: the global generator
        self.w = [Value(source.uniform(-1, 1)) for _ in range(nin)]
        self.b = Value(0.0)

    def __call__(self, x: Inputs) -> Value:
        _check_inputs(x, len(self.w), "Neuron")
        return neuron_nodes([self.w], [self.b], x, self.activation)[0]

    def parameters(self) -> list[Value]:
        return [*self.w, self.b]

    def __repr__(self) -> str:
        return f"Neuron({len(self.w)}, activation={self.activation!r})"


# --8<-- [end:neuron]


# --8<-- [start:layer]
class Layer(Module):
    """`nout` neurons that all read the same `nin` inputs; returns a list of `nout` Values."""

    def __init__(
        self,
        nin: int,
        nout: int,
        activation: str = "tanh",
        *,
        nonlin: bool | None = None,
        rng: random.Random | int | None = None,
    ) -> None:
        self.activation, rng = _options(activation, nonlin, rng, "Layer")
        whole_number(nout, "Layer", "nout")
        self.neurons = [Neuron(nin, self.activation, rng=rng) for _ in range(nout)]

    def __call__(self, x: Inputs) -> list[Value]:
        _check_inputs(x, len(self.neurons[0].w), "Layer")
        return self._outputs(x)

    def _outputs(self, x: Inputs) -> list[Value]:
        """The outputs for inputs already checked (an MLP checks them once, at its first layer)."""
        weights = [n.w for n in self.neurons]
        biases = [n.b for n in self.neurons]
        return neuron_nodes(weights, biases, x, self.activation)

    def parameters(self) -> list[Value]:
        return [p for n in self.neurons for p in n.parameters()]

    def __repr__(self) -> str:
        return f"Layer({len(self.neurons[0].w)}, {len(self.neurons)}, activation={self.activation!r})"


# --8<-- [end:layer]


# --8<-- [start:mlp]
class MLP(Module):
    """A multi-layer perceptron: ``MLP(3, [4, 4, 1])`` maps 3 inputs through 4, 4, then 1 neuron.

    Args:
        nin: number of inputs.
        nouts: neurons per layer, the last entry being the number of outputs.
        activation: activation of the hidden layers.
        output_activation: activation of the last layer; None means the same
            as `activation` (an all-tanh net). Use ``"linear"`` for raw scores.
        rng: a `random.Random`, an int seed, or None for the global `random`.

    A network with one output returns a single `Value`; otherwise a list.

    Example:
        >>> model = MLP(3, [4, 4, 1], rng=0)
        >>> len(model.parameters())  # (3+1)·4 + (4+1)·4 + (4+1)·1
        41
    """

    def __init__(
        self,
        nin: int,
        nouts: Sequence[int],
        activation: str = "tanh",
        output_activation: str | None = None,
        *,
        rng: random.Random | int | None = None,
    ) -> None:
        whole_number(nin, "MLP", "nin")
        if isinstance(nouts, int) or not nouts:
            raise ValueError(f"MLP needs a non-empty list of layer sizes, got nouts={nouts!r}")
        activation, rng = _options(activation, None, rng, "MLP")
        output_activation = activation if output_activation is None else output_activation
        sizes = [nin, *nouts]
        activations = [activation] * (len(nouts) - 1) + [output_activation]
        self.layers = [Layer(sizes[i], sizes[i + 1], activations[i], rng=rng) for i in range(len(nouts))]

    def __call__(self, x: Inputs) -> Value | list[Value]:
        _check_inputs(x, len(self.layers[0].neurons[0].w), "MLP")
        for layer in self.layers:
            x = layer._outputs(x)
        return x[0] if len(x) == 1 else x

    def parameters(self) -> list[Value]:
        return [p for layer in self.layers for p in layer.parameters()]

    def __repr__(self) -> str:
        return f"MLP({self.layers})"


# --8<-- [end:mlp]


_NONLIN = {True: "relu", False: "linear"}
"""micrograd's ``nonlin`` flag as the activation it stands for."""


def _options(
    activation: str, nonlin: bool | None, rng: random.Random | int | None, owner: str
) -> tuple[str, random.Random | None]:
    """The activation's name and the generator of the initial weights, each checked for `owner`."""
    return _activation(activation, nonlin, owner), generator(rng, owner, "rng", shared=True)


def _activation(activation: str, nonlin: bool | None, owner: str) -> str:
    """The activation's name: `activation`, or micrograd's `nonlin` (True: relu, False: linear)."""
    if isinstance(activation, bool):  # micrograd's Neuron(nin, nonlin) called with nonlin in second place
        raise TypeError(
            f"{owner} takes the activation by name: for micrograd's nonlin={activation} write "
            f"activation={_NONLIN[activation]!r} (or nonlin={activation} as a keyword)"
        )
    if nonlin is not None:
        if not isinstance(nonlin, bool) or activation != "tanh":
            raise TypeError(
                f"{owner} got nonlin={nonlin!r} and activation={activation!r}: give one of them, "
                "e.g. activation='relu' (micrograd's nonlin=True) or 'linear' (nonlin=False)"
            )
        activation = _NONLIN[nonlin]
    activation_function(activation)
    return activation


def _check_inputs(x: Inputs, expected: int, owner: str) -> None:
    """One check per forward pass, where the inputs enter: a list of `expected` inputs."""
    if isinstance(x, (Value, int, float)) or not hasattr(x, "__len__"):
        raise TypeError(f"{owner} expects a list of {expected} inputs, got {type(x).__name__} {x!r}")
    if len(x) != expected:
        raise ValueError(f"{owner} expects {expected} inputs, got {len(x)}")
