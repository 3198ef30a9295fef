"""Neurons, layers and multi-layer perceptrons built on `Value`.

A neuron computes ``activation(b + Σ wᵢ·xᵢ)``; a layer is a list of neurons
that read the same inputs; an MLP feeds each layer's outputs to the next.
Every weight and bias is a `Value`, so ``loss.backward()`` reaches them all.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from scratchgrad.engine import Number, Value
from scratchgrad.fused import ACTIVATIONS, activated_sums

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
        rng: where the initial weights come from: a `random.Random`, an int
            seed, or None for Python's global `random` (seed it for repeatable runs).
    """

    def __init__(self, nin: int, activation: str = "tanh", *, rng: random.Random | int | None = None) -> None:
        _check_count(nin, "Neuron", "nin")
        _check_activation(activation)
        source = _generator(rng) or random  # None: the global generator behind random.uniform
        self.w = [Value(source.uniform(-1, 1)) for _ in range(nin)]
        self.b = Value(0.0)
        self.activation = activation

    def __call__(self, x: Inputs) -> Value:
        _check_inputs(x, len(self.w), "Neuron")
        return activated_sums([self.w], [self.b], x, self.activation)[0]

    def parameters(self) -> list[Value]:
        return [*self.w, self.b]

    def __repr__(self) -> str:
        return f"Neuron({len(self.w)}, activation={self.activation!r})"


# --8<-- [end:neuron]


# --8<-- [start:layer]
class Layer(Module):
    """`nout` neurons that all read the same `nin` inputs; returns a list of `nout` Values."""

    def __init__(
        self, nin: int, nout: int, activation: str = "tanh", *, rng: random.Random | int | None = None
    ) -> None:
        _check_count(nout, "Layer", "nout")
        rng = _generator(rng)
        self.neurons = [Neuron(nin, activation, rng=rng) for _ in range(nout)]
        self.activation = activation

    def __call__(self, x: Inputs) -> list[Value]:
        _check_inputs(x, len(self.neurons[0].w), "Layer")
        weights = [n.w for n in self.neurons]
        biases = [n.b for n in self.neurons]
        return activated_sums(weights, biases, x, self.activation)

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
        _check_count(nin, "MLP", "nin")
        if isinstance(nouts, int) or not nouts:
            raise ValueError(f"MLP needs a non-empty list of layer sizes, got nouts={nouts!r}")
        _check_activation(activation)
        output_activation = activation if output_activation is None else output_activation
        rng = _generator(rng)
        sizes = [nin, *nouts]
        activations = [activation] * (len(nouts) - 1) + [output_activation]
        self.layers = [Layer(sizes[i], sizes[i + 1], activations[i], rng=rng) for i in range(len(nouts))]

    def __call__(self, x: Inputs) -> Value | list[Value]:
        _check_inputs(x, len(self.layers[0].neurons[0].w), "MLP")
        for layer in self.layers:
            x = layer(x)
        return x[0] if len(x) == 1 else x

    def parameters(self) -> list[Value]:
        return [p for layer in self.layers for p in layer.parameters()]

    def __repr__(self) -> str:
        return f"MLP({self.layers})"


# --8<-- [end:mlp]


def _generator(rng: random.Random | int | None) -> random.Random | None:
    """`rng` as one Random that all neurons draw from in turn; an int becomes a seeded Random."""
    if rng is None or isinstance(rng, random.Random):
        return rng
    if isinstance(rng, int) and not isinstance(rng, bool):
        return random.Random(rng)
    raise TypeError(f"rng must be a random.Random, an int seed or None, got {type(rng).__name__} {rng!r}")


def _check_count(n: object, owner: str, name: str) -> None:
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise ValueError(f"{owner} needs {name} to be a whole number ≥ 1, got {name}={n!r}")


def _check_activation(activation: str) -> None:
    if activation not in ACTIVATIONS:
        raise ValueError(f"unknown activation {activation!r}; choose from {', '.join(ACTIVATIONS)}")


def _check_inputs(x: Inputs, expected: int, owner: str) -> None:
    if isinstance(x, (Value, int, float)) or not hasattr(x, "__len__"):
        raise TypeError(f"{owner} expects a list of {expected} inputs, got {type(x).__name__} {x!r}")
    if len(x) != expected:
        raise ValueError(f"{owner} expects {expected} inputs, got {len(x)}")
