"""Stage 5, "Neurons, layers and MLPs" and "Training a network": a neuron is ``tanh(b + Σ wᵢ·xᵢ)``,
nothing but operations the closure-stage Value already has, so a network needs no new backward
rule; a layer is several neurons reading the same inputs, and a multi-layer perceptron feeds each
layer's outputs to the next. Weights start uniform in [-1, 1] and biases at 0, drawn from `rng`
in the order `scratchgrad.nn` draws them, so the same seed gives the package the same network;
`train` is the chapter's loop as one function: forward, zero the gradients, backward, step.
"""

from __future__ import annotations

import random

from scratchgrad.stages.closures import Value

__all__ = ["MLP", "Layer", "Neuron", "train"]


# --8<-- [start:network]
# --8<-- [start:neuron]
class Neuron:
    """tanh(b + Σ wᵢ·xᵢ), with weights drawn from U(-1, 1) and b = 0."""

    def __init__(self, nin: int, rng: random.Random) -> None:
        self.w = [Value(rng.uniform(-1, 1)) for _ in range(nin)]
        self.b = Value(0.0)

    def __call__(self, x: list) -> Value:
        z = self.b
        for wi, xi in zip(self.w, x, strict=True):
            z = z + wi * xi
        return z.tanh()

    def parameters(self) -> list[Value]:
        return [*self.w, self.b]


# --8<-- [end:neuron]


# --8<-- [start:layer]
class Layer:
    """`nout` neurons that all read the same inputs; a layer of one neuron gives that Value."""

    def __init__(self, nin: int, nout: int, rng: random.Random) -> None:
        self.neurons = [Neuron(nin, rng) for _ in range(nout)]

    def __call__(self, x: list) -> Value | list[Value]:
        outs = [neuron(x) for neuron in self.neurons]
        return outs[0] if len(outs) == 1 else outs

    def parameters(self) -> list[Value]:
        return [p for neuron in self.neurons for p in neuron.parameters()]


# --8<-- [end:layer]


# --8<-- [start:mlp]
class MLP:
    """Layers in a row: ``MLP(3, [4, 4, 1], rng=0)`` maps 3 inputs through 4, 4, then 1 neuron.

    ``rng`` seeds the one generator that draws every weight, as ``rng=`` does in `scratchgrad.nn`.
    """

    def __init__(self, nin: int, nouts: list[int], rng: int = 0) -> None:
        generator = random.Random(rng)
        sizes = [nin, *nouts]
        self.layers = [Layer(sizes[i], sizes[i + 1], generator) for i in range(len(nouts))]

    def __call__(self, x: list) -> Value | list[Value]:
        for layer in self.layers:
            x = layer(x)
        return x

    def parameters(self) -> list[Value]:
        return [p for layer in self.layers for p in layer.parameters()]


# --8<-- [end:mlp]
# --8<-- [end:network]


# --8<-- [start:train]
def train(model: MLP, xs: list, ys: list, steps: int, learning_rate: float) -> list[float]:
    """Gradient descent on the mean squared error; returns the loss of every step."""
    losses = []
    for _ in range(steps):
        predictions = [model(x) for x in xs]  # 1. forward
        loss = sum((p - y) ** 2 for p, y in zip(predictions, ys, strict=True)) / len(xs)
        for param in model.parameters():  # 2. zero the gradients
            param.grad = 0.0
        loss.backward()  # 3. backward
        for param in model.parameters():  # 4. update
            param.data -= learning_rate * param.grad
        losses.append(loss.data)
    return losses


# --8<-- [end:train]
