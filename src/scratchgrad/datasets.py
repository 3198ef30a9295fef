"""Small data sets to train on, from four hand-picked points to a three-armed spiral.

Each function returns ``(xs, ys)``: `xs` a list of points (lists of floats),
`ys` their targets — ``+1.0`` or ``-1.0`` for the two-class sets, the class
number ``0 … K−1`` of K classes for the spiral. The random ones take a `seed` and draw from
their own `random.Random(seed)`: the same seed always gives the same points,
and no global random state is touched. Pure Python, so they run in Pyodide too.

Example:
    >>> xs, ys = moons(n=6, noise=0.0, seed=1)
    >>> len(xs), sorted(ys)
    (6, [-1.0, -1.0, -1.0, 1.0, 1.0, 1.0])
"""

from __future__ import annotations

import math
import random
from typing import Any

from scratchgrad._checks import generator, is_number, non_negative, whole_number

__all__ = ["circles", "four_points", "moons", "spiral", "split", "xor"]

Points = list[list[float]]


def four_points() -> tuple[Points, list[float]]:
    """Four points in 3-D with targets 1, -1, -1, 1: the first network's whole world.

    Example:
        >>> four_points()[1]
        [1.0, -1.0, -1.0, 1.0]
    """
    xs = [[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0]]
    return xs, [1.0, -1.0, -1.0, 1.0]


def xor() -> tuple[Points, list[float]]:
    """The four corners of the unit square; +1 where exactly one coordinate is 1.

    No straight line separates the +1 corners from the -1 corners, so a
    single neuron cannot learn XOR — a hidden layer can.
    """
    xs = [[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]]
    return xs, [-1.0, 1.0, 1.0, -1.0]


def moons(n: int = 100, noise: float = 0.1, seed: int = 0) -> tuple[Points, list[float]]:
    """Two interleaving half circles: label -1 on the upper moon, +1 on the lower one.

    The upper moon is (cos t, sin t) and the lower (1 - cos t, 0.5 - sin t) for
    t evenly spaced over [0, π]; each coordinate then gets Gaussian noise of
    standard deviation `noise`. The points come shuffled. With an odd `n`
    the lower moon has the extra point.
    """
    whole_number(n, "moons", "n", minimum=2)
    non_negative(noise, "moons", "noise", "a standard deviation")
    rng = generator(seed, "moons")
    upper = [[math.cos(t), math.sin(t)] for t in _evenly_spaced(0.0, math.pi, n // 2)]
    lower = [[1.0 - math.cos(t), 0.5 - math.sin(t)] for t in _evenly_spaced(0.0, math.pi, n - n // 2)]
    return _noisy_shuffled(upper, lower, noise, rng)


def circles(
    n: int = 100, noise: float = 0.05, factor: float = 0.5, seed: int = 0
) -> tuple[Points, list[float]]:
    """A circle of radius 1 (label -1) around a circle of radius `factor` (label +1).

    Each circle's points are evenly spaced in angle, then get Gaussian noise of
    standard deviation `noise`; the points come shuffled. With an odd `n` the
    inner circle has the extra point.
    """
    whole_number(n, "circles", "n", minimum=2)
    non_negative(noise, "circles", "noise", "a standard deviation")
    if not 0 < factor < 1:
        raise ValueError(f"circles needs 0 < factor < 1 (inner radius / outer radius), got factor={factor!r}")
    rng = generator(seed, "circles")

    def ring(count: int, radius: float) -> Points:
        angles = _evenly_spaced(0.0, math.tau, count, include_stop=False)  # 2π would repeat angle 0
        return [[radius * math.cos(t), radius * math.sin(t)] for t in angles]

    return _noisy_shuffled(ring(n // 2, 1.0), ring(n - n // 2, factor), noise, rng)


def spiral(
    n_per_class: int = 50, classes: int = 3, noise: float = 0.2, seed: int = 0
) -> tuple[Points, list[int]]:
    """`classes` spiral arms around the origin, one class per arm (labels 0 … classes-1).

    Arm j has points at radius r from 0 to 1 and angle 4j + 4r, plus Gaussian
    noise of standard deviation `noise` on the angle; the point is
    (r sin angle, r cos angle). The points come shuffled. A linear model gets
    about 1/classes of them right; an MLP with softmax cross-entropy learns them.
    """
    whole_number(n_per_class, "spiral", "n_per_class")
    whole_number(classes, "spiral", "classes", minimum=2)
    non_negative(noise, "spiral", "noise", "a standard deviation")
    rng = generator(seed, "spiral")
    examples = []
    for label in range(classes):
        for r in _evenly_spaced(0.0, 1.0, n_per_class):
            angle = 4.0 * (label + r) + rng.gauss(0.0, noise)
            examples.append(([r * math.sin(angle), r * math.cos(angle)], label))
    rng.shuffle(examples)
    return [x for x, _ in examples], [y for _, y in examples]


def split(
    xs: Points, ys: list[Any], test_fraction: float, seed: int = 0
) -> tuple[tuple[Points, list[Any]], tuple[Points, list[Any]]]:
    """``(train_xs, train_ys), (test_xs, test_ys)``: `test_fraction` of the examples held out to test.

    A model is judged on points it never trained on: its loss there shows whether it learned the
    pattern or only the training points. The held-out examples are drawn with
    ``random.Random(seed)`` (the same seed, the same split), ``round(test_fraction · N)`` of the
    N examples, keeping at least one on each side; each side keeps the examples' order.

    Example:
        >>> (train_xs, train_ys), (test_xs, test_ys) = split(*moons(n=10, seed=1), test_fraction=0.3)
        >>> len(train_xs), len(test_xs)
        (7, 3)
    """
    if len(xs) != len(ys):
        raise ValueError(f"split needs one target per point, got {len(xs)} points and {len(ys)} targets")
    if len(xs) < 2:
        raise ValueError(f"split needs at least 2 examples (one to train, one to test), got {len(xs)}")
    if not (is_number(test_fraction) and 0 < test_fraction < 1):
        raise ValueError(f"split needs 0 < test_fraction < 1, got test_fraction={test_fraction!r}")
    count = min(max(round(test_fraction * len(xs)), 1), len(xs) - 1)
    held_out = set(random.Random(seed).sample(range(len(xs)), count))
    train = [i for i in range(len(xs)) if i not in held_out]
    test = sorted(held_out)
    return ([xs[i] for i in train], [ys[i] for i in train]), ([xs[i] for i in test], [ys[i] for i in test])


def _evenly_spaced(start: float, stop: float, count: int, include_stop: bool = True) -> list[float]:
    """`count` evenly spaced numbers from `start` to `stop` (just `start` when count is 1)."""
    gaps = count - 1 if include_stop else count
    step = (stop - start) / gaps if gaps else 0.0
    return [start + i * step for i in range(count)]


def _noisy_shuffled(
    negatives: Points, positives: Points, noise: float, rng: random.Random
) -> tuple[Points, list[float]]:
    """The points of both classes with Gaussian noise added, labelled -1 / +1 and shuffled."""
    examples = [(point, -1.0) for point in negatives] + [(point, 1.0) for point in positives]
    examples = [([c + rng.gauss(0.0, noise) for c in point], label) for point, label in examples]
    rng.shuffle(examples)
    return [x for x, _ in examples], [y for _, y in examples]
