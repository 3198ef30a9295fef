"""Training: the loop of forward pass, backward pass and update, one step at a time.

`Trainer` takes one step per call to `.step()`, so a page can draw the
decision boundary between steps; `fit` runs it for a number of steps and
returns the `History` of loss and accuracy.

Example:
    >>> from scratchgrad.datasets import four_points
    >>> from scratchgrad.losses import mse
    >>> from scratchgrad.nn import MLP
    >>> from scratchgrad.optim import SGD
    >>> xs, ys = four_points()
    >>> model = MLP(3, [4, 4, 1], rng=0)
    >>> history = fit(model, xs, ys, mse, SGD(model.parameters(), lr=0.2), steps=50)
    >>> history.loss[-1] < history.loss[0]
    True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from scratchgrad._checks import is_whole_number, whole_number
from scratchgrad.engine import Value
from scratchgrad.losses import accuracy
from scratchgrad.optim import Optimizer

__all__ = ["Batches", "History", "StepRecord", "Trainer", "fit"]

Model = Callable[[Sequence[float]], Any]
Loss = Callable[[list[Any], list[Any]], Value]


@dataclass(frozen=True)
class StepRecord:
    """What one training step saw: the loss and accuracy of its batch *before* its update."""

    step: int
    loss: float
    accuracy: float


@dataclass
class History:
    """Loss and accuracy of every step, in order: ``history.loss[t]`` is step t's loss."""

    loss: list[float] = field(default_factory=list)
    accuracy: list[float] = field(default_factory=list)

    def append(self, record: StepRecord) -> None:
        self.loss.append(record.loss)
        self.accuracy.append(record.accuracy)

    def __len__(self) -> int:
        return len(self.loss)


class Batches:
    """Which examples each training step takes: all of them, or `size` at a time from a shuffled order.

    With a `size`, the examples are shuffled anew at the start of each epoch (a pass over all of
    them) by a `random.Random(seed)` of its own, and the last batch of an epoch takes what is left.
    The same `count`, `size` and `seed` always give the same batches, whoever trains on them.

    Raises:
        ValueError: `size` is neither None nor a whole number from 1 to `count`; the message
            names `owner`, the trainer it was given to.

    Example:
        >>> batches = Batches(5, size=2, seed=0)
        >>> [batches.next() for _ in range(3)]  # one epoch: two batches of 2, then the 1 left
        [[2, 1], [0, 4], [3]]
        >>> Batches(3).next()  # no size: every example, every step
        [0, 1, 2]
    """

    def __init__(self, count: int, size: int | None = None, seed: int = 0, owner: str = "Batches") -> None:
        if size is not None and not (is_whole_number(size) and 1 <= size <= count):
            raise ValueError(
                f"{owner} needs batch_size None or 1 … {count} (the number of examples), got {size!r}"
            )
        self.count, self.size = count, size
        self._rng = random.Random(seed)
        self._epoch_left: list[int] = []

    def next(self) -> list[int]:
        """The indices of the next batch: all of them, or the next slice of this epoch's shuffle."""
        if self.size is None:
            return list(range(self.count))
        if not self._epoch_left:
            self._epoch_left = list(range(self.count))
            self._rng.shuffle(self._epoch_left)
        batch, self._epoch_left = self._epoch_left[: self.size], self._epoch_left[self.size :]
        return batch


class Trainer:
    """Trains `model` on ``(xs, ys)``, one `step()` at a time.

    Each step takes a batch of examples, runs the model on each, computes
    ``loss(scores, targets)``, zeroes the old gradients, backpropagates and
    lets the optimizer move the parameters.

    Args:
        model: called on one example, returns a score (a Value) or a row of
            scores (a list of Values, one per class).
        xs: the examples, one list of input numbers each.
        ys: their targets, one per example.
        loss: ``loss(scores, targets) -> Value``, e.g. `scratchgrad.losses.mse`
            or ``lambda s, y: hinge(s, y, l2=1e-4, parameters=model.parameters())``.
        optimizer: an `Optimizer` over the model's parameters.
        batch_size: None trains on every example at each step (full batch).
            A number k trains on k examples per step, going through the data in
            an order shuffled anew each epoch; the last batch of an epoch may
            be smaller.
        seed: seeds the shuffling (`Batches`, with a `random.Random` of its own).
    """

    def __init__(
        self,
        model: Model,
        xs: Sequence[Sequence[float]],
        ys: Sequence[Any],
        loss: Loss,
        optimizer: Optimizer,
        batch_size: int | None = None,
        seed: int = 0,
    ) -> None:
        for name, given in (("model", model), ("loss", loss)):
            if not callable(given):
                raise TypeError(f"Trainer needs {name} to be callable, got {type(given).__name__} {given!r}")
        if len(xs) != len(ys):
            raise ValueError(f"Trainer got {len(xs)} examples but {len(ys)} targets")
        if not xs:
            raise ValueError("Trainer needs at least one example, got none")
        self.batches = Batches(len(xs), batch_size, seed, owner="Trainer")
        self.model, self.xs, self.ys = model, list(xs), list(ys)
        self.loss, self.optimizer, self.batch_size = loss, optimizer, batch_size
        self.history = History()

    # --8<-- [start:trainer_step]
    def step(self) -> StepRecord:
        """One forward pass, backward pass and update; returns what the step saw."""
        batch = self.batches.next()
        targets = [self.ys[i] for i in batch]
        scores = [self.model(self.xs[i]) for i in batch]
        loss = self.loss(scores, targets)
        if not isinstance(loss, Value):
            raise TypeError(
                f"Trainer needs loss(scores, targets) to return a Value, got {type(loss).__name__}"
            )
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        record = StepRecord(len(self.history), loss.data, accuracy(scores, targets))
        self.history.append(record)
        return record

    # --8<-- [end:trainer_step]


def fit(
    model: Model,
    xs: Sequence[Sequence[float]],
    ys: Sequence[Any],
    loss: Loss,
    optimizer: Optimizer,
    steps: int,
    callback: Callable[[StepRecord], object] | None = None,
    batch_size: int | None = None,
    seed: int = 0,
) -> History:
    """Train for `steps` steps (see `Trainer`); call ``callback(record)`` after each.

    Returns the `History` of the loss and accuracy of every step.
    """
    whole_number(steps, "fit", "steps")
    trainer = Trainer(model, xs, ys, loss, optimizer, batch_size=batch_size, seed=seed)
    for _ in range(steps):
        record = trainer.step()
        if callback is not None:
            callback(record)
    return trainer.history
