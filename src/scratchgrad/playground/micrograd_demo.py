"""micrograd's demo, defined once for the benchmarks (workload W1, ``benchmarks/w1.py``, timed
against micrograd itself), the tests (trained and compared with PyTorch) and the Playground's
``micrograd_demo`` preset: 100 points of the two moons, a 2-16-16-1 network of ReLU neurons with a
linear output, the hinge loss plus an L2 penalty of 1e-4·Σθ², and plain SGD whose learning rate
falls in a straight line from 1.0 by 0.9 over 100 steps.

Example:
    >>> from scratchgrad.train import fit
    >>> xs, ys = data()
    >>> net = network(rng=1)
    >>> len(xs), len(net.parameters())
    (100, 337)
    >>> [round(learning_rate(t), 3) for t in (0, 1, 99, 200)]
    [1.0, 0.991, 0.109, 0.0]
    >>> history = fit(net, xs, ys, loss_function(net), optimizer(net), steps=2)
    >>> history.loss[1] < history.loss[0]
    True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from scratchgrad.datasets import moons
from scratchgrad.engine import Value
from scratchgrad.losses import hinge
from scratchgrad.nn import MLP
from scratchgrad.optim import SGD

__all__ = [
    "ACTIVATION",
    "DATA_SEED",
    "DECAY",
    "HIDDEN",
    "L2",
    "LEARNING_RATE",
    "NOISE",
    "POINTS",
    "STEPS",
    "data",
    "learning_rate",
    "loss_function",
    "network",
    "optimizer",
]

POINTS = 100
NOISE = 0.1
DATA_SEED = 0
HIDDEN = (16, 16)
ACTIVATION = "relu"  # of the hidden layers; the output is linear: a raw score
L2 = 1e-4
LEARNING_RATE = 1.0  # of step 0
DECAY = 0.009  # the rate falls by this fraction of LEARNING_RATE per step: 0.9 over 100 steps
STEPS = 100  # how long micrograd's demo trains


def data() -> tuple[list[list[float]], list[float]]:
    """The 100 two-moons points (noise 0.1, seed 0) and their ±1 labels."""
    return moons(n=POINTS, noise=NOISE, seed=DATA_SEED)


def network(rng: random.Random | int | None = None) -> MLP:
    """A fresh 2-16-16-1 network: ReLU hidden layers, a linear output; `rng` as for `MLP`."""
    return MLP(2, [*HIDDEN, 1], activation=ACTIVATION, output_activation="linear", rng=rng)


def learning_rate(t: int) -> float:
    """The rate of step t: 1.0 − 0.009·t, as micrograd's ``1.0 - 0.9*k/100`` (its k is our t), and 0
    from step 112 on.

    micrograd stops at step 99 (rate 0.109); the hold at 0 lets the Playground train on
    without a negative rate.
    """
    return max(LEARNING_RATE * (1 - DECAY * t), 0.0)


def loss_function(model: MLP) -> Callable[[Sequence[Value], Sequence[float]], Value]:
    """``loss(scores, targets)``: the mean hinge loss plus L2·Σθ² over `model`'s parameters."""
    parameters = model.parameters()

    def hinge_with_penalty(scores: Sequence[Value], targets: Sequence[float]) -> Value:
        return hinge(scores, targets, l2=L2, parameters=parameters)

    return hinge_with_penalty


def optimizer(model: MLP) -> SGD:
    """Plain SGD over `model`'s parameters with the `learning_rate` schedule."""
    return SGD(model.parameters(), lr=LEARNING_RATE, schedule=learning_rate)
