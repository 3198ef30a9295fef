"""Training a playground network step by step, and reading it cheaply between steps: `Stepper` runs
the set-up part of the program `generate_code` writes, so the panel trains exactly the code it
shows; between steps `predict` evaluates the network with plain floats (no graph, nothing to
backpropagate) and `Stepper.layers` hands over the weights as numbers for the decision-boundary
picture.

Example:
    >>> from scratchgrad.playground.settings import Settings
    >>> stepper = Stepper(Settings(dataset="xor", hidden=(4,), lr=0.1))
    >>> stepper.steps, [record.step for record in stepper.advance(3)], stepper.steps
    (0, [0, 1, 2], 3)
"""

from __future__ import annotations

import math
import operator
import time
from collections.abc import Callable, Sequence
from typing import Any

from scratchgrad.fused import ACTIVATIONS
from scratchgrad.losses import accuracy, predicted_class
from scratchgrad.nn import MLP
from scratchgrad.playground.program import setup_code
from scratchgrad.playground.settings import DRAWN_PLANE, Settings
from scratchgrad.train import StepRecord, Trainer

__all__ = ["PLANE_MARGIN", "Stepper", "class_index", "predict", "predict_all"]

PLANE_MARGIN = 0.2
"""Space left around the points in the boundary view, as a fraction of their extent."""


def activation_of(layer: Any) -> str:
    """The activation a layer applies: scratchgrad's layers name theirs in ``activation``; the
    textbook `Layer` a reader writes in the exercises has none, and every one of its neurons is tanh."""
    return getattr(layer, "activation", "tanh")


def predict(model: MLP, point: Sequence[float]) -> float | list[float]:
    """The model's output for `point`, computed with plain floats: the forward pass without a graph.

    `model` is scratchgrad's `MLP` or any with ``layers`` → ``neurons`` → ``w``, ``b`` (the
    reader's own, from the exercises).

    Each neuron computes ``act(b + Σ wᵢ·xᵢ)`` from its weights' ``.data`` in
    the same order as the graph's fused nodes, so the result equals
    ``model(point).data`` exactly, for a fraction of the cost.
    """
    return predict_all(model, [point])[0]


def predict_all(model: MLP, points: Sequence[Sequence[float]]) -> list[float | list[float]]:
    """`predict` for every point, reading the weights out of the model's Values once, not once a point.

    With the reader's engine the playground measures each step's accuracy this way, on all its
    points: per point, reading ``w.data`` again cost more than the arithmetic itself.
    """
    weights = [
        (ACTIVATIONS[activation_of(layer)], [(n.b.data, [w.data for w in n.w]) for n in layer.neurons])
        for layer in model.layers
    ]
    outputs: list[float | list[float]] = []
    for point in points:
        x = list(point)
        for activation, neurons in weights:
            x = [activation(b + sum(map(operator.mul, w, x)))[0] for b, w in neurons]
        outputs.append(x[0] if len(x) == 1 else x)
    return outputs


def class_index(output: float | Sequence[float]) -> int:
    """The class an output stands for (`predicted_class`) as an index 0 … K−1 of K classes, the one the
    page colours by: for one score, 0 for class -1 and 1 for class +1; for a row, the class itself."""
    return max(predicted_class(output), 0)


class Stepper:
    """Trains the network of `settings`, one step (or one time slice) at a time.

    Attributes:
        settings: what is trained.
        model: the `MLP` being trained.
        trainer: the `Trainer` that steps it (its ``history`` holds every step's record), or with
            ``engine=yours`` a `YourTrainer` stepping the reader's own engine.
        xs: the network's inputs for the training points (their features).
        ys: their targets.
        points: the training points themselves, where they sit on the plane.
        test_xs, test_ys, test_points: the same for the points held out to test on (empty lists
            when none are).
        tested: per step, the (loss, accuracy) on the held-out points with the weights that step
            started from (so they pair with the step's own loss); empty when none are held out.
        initial: (loss, accuracy) of the untrained network on all the training points.
        note: None while training can go on; a sentence saying what went wrong once
            the loss stopped being a finite number (the stepper then refuses to step).

    Raises:
        SettingsError: the settings have problems (see `Settings.problems`).
    """

    def __init__(self, settings: Settings) -> None:
        namespace: dict[str, Any] = {"__name__": "playground"}
        exec(compile(setup_code(settings), "<playground>", "exec"), namespace)
        self.settings = settings
        self.model: MLP = namespace["model"]
        self.trainer: Trainer = namespace["trainer"]
        self.xs, self.ys = self.trainer.xs, self.trainer.ys
        self.points = namespace.get("points", self.xs)
        self.test_xs, self.test_ys = namespace.get("test_xs", []), namespace.get("test_ys", [])
        self.test_points = namespace.get("test_points", self.test_xs)
        self.tested: list[tuple[float, float]] = []
        self._held_out: tuple[float, float] | None = None  # test() of the weights as they are, once measured
        self.initial = self._measured()
        self.note: str | None = None

    def load(self, layers: list[dict[str, Any]]) -> None:
        """Give the network the weights and biases of `layers` (as `layers()` writes them, e.g. read
        from a model file), and measure the untrained numbers (`initial`) on them afresh."""
        for layer, saved in zip(self.model.layers, layers, strict=True):
            for neuron, weights, bias in zip(layer.neurons, saved["weights"], saved["biases"], strict=True):
                for w, number in zip(neuron.w, weights, strict=True):
                    w.data = float(number)
                neuron.b.data = float(bias)
        self._held_out = None
        self.initial = self._measured()

    def _measured(self) -> tuple[float, float]:
        scores = [self.model(x) for x in self.xs]
        return self.trainer.loss(scores, self.ys).data, accuracy(self.scores(), self.ys)

    @property
    def steps(self) -> int:
        """How many steps have been taken."""
        return len(self.trainer.history)

    @property
    def loss(self) -> float:
        """The loss of the last step's batch (before its update), or the initial loss before any step."""
        return self.trainer.history.loss[-1] if self.steps else self.initial[0]

    @property
    def accuracy(self) -> float:
        """The accuracy that goes with `loss`."""
        return self.trainer.history.accuracy[-1] if self.steps else self.initial[1]

    def advance(self, count: int = 1) -> list[StepRecord]:
        """Take `count` steps (fewer if training diverges); returns their records."""
        records: list[StepRecord] = []
        while len(records) < count and self._step(records):
            pass
        return records

    def advance_for(self, seconds: float, clock: Callable[[], float] = time.perf_counter) -> list[StepRecord]:
        """Take steps for about `seconds`: at least one, and no more once another would overrun.

        A step is assumed to take as long as the one before it, so a slice of
        0.07 s with steps of 0.05 s takes one step, not two (0.1 s). The
        browser's worker trains in such slices and reports after each, so the
        page redraws often and a Pause click is read between slices.
        Returns the records of the steps taken.
        """
        start = last = clock()
        records: list[StepRecord] = []
        while self._step(records):
            now = clock()
            if now - start + (now - last) > seconds:
                break
            last = now
        return records

    def test(self) -> tuple[float, float] | None:
        """(loss, accuracy) of the network as it is now on the held-out points; None if none are.

        The loss is the trainer's own (`Trainer.loss`, penalty included), of the scores
        `predict_all` computes, each made a Value of the model's own engine: equal to the program's
        ``trainer.loss([model(x) for x in test_xs], test_ys)`` without a graph of the network.
        Measured once per set of weights: a panel's frame asks for the figures the next step
        records as the ones it started from, and they are the same numbers."""
        if not self.test_xs:
            return None
        if self._held_out is None:
            self._held_out = self._measure_held_out()
        return self._held_out

    def _measure_held_out(self) -> tuple[float, float]:
        scores = predict_all(self.model, self.test_xs)
        value = type(self.model.layers[-1].neurons[0].b)  # the engine's Value: the book's, or the reader's
        values = [[value(s) for s in score] if isinstance(score, list) else value(score) for score in scores]
        return self.trainer.loss(values, self.test_ys).data, accuracy(scores, self.test_ys)

    def _step(self, records: list[StepRecord]) -> bool:
        """One step, appended to `records`; False when training cannot (or can no longer) go on."""
        if self.note is not None:
            return False
        tested = self.test()
        self._held_out = None  # the step changes the weights, even one that fails half-way
        try:
            record = self.trainer.step()
        except ArithmeticError as error:  # a sum of numbers too large for a float
            self.note = self._diverged(f"the numbers grew too large for a float ({error})", self.steps + 1)
            return False
        records.append(record)
        if tested is not None:
            self.tested.append(tested)
        if not math.isfinite(record.loss):
            self.note = self._diverged(f"the loss became {record.loss}", record.step + 1)
            return False
        return True

    def _diverged(self, what: str, step: int) -> str:
        return (
            f"Training diverged at step {step}: {what}. Each step overshot the minimum by more than the "
            f"last, so the weights blew up. Lower the learning rate (now {self.settings.lr}) and press Reset."
        )

    def layers(self) -> list[dict[str, Any]]:
        """The network's current weights as plain numbers, layer by layer (JSON-ready).

        Each layer is ``{"activation": name, "weights": [[w, …] per neuron], "biases": [b, …]}``.
        """
        return [
            {
                "activation": activation_of(layer),
                "weights": [[w.data for w in neuron.w] for neuron in layer.neurons],
                "biases": [neuron.b.data for neuron in layer.neurons],
            }
            for layer in self.model.layers
        ]

    def plane(self) -> tuple[float, float, float, float] | None:
        """The square of the input plane to draw, (x_min, x_max, y_min, y_max); None for 3-D points.

        It is centred on the points and reaches `PLANE_MARGIN` of their extent
        beyond them on every side; the drawn data set's is the fixed square `DRAWN_PLANE`.
        """
        if self.settings.dataset == "four_points":
            return None
        if self.settings.dataset == "drawn":
            return DRAWN_PLANE
        every = [*self.points, *self.test_points]
        first, second = [p[0] for p in every], [p[1] for p in every]
        extent = max(max(first) - min(first), max(second) - min(second), 1e-9)
        half = extent * (0.5 + PLANE_MARGIN)
        cx, cy = (max(first) + min(first)) / 2, (max(second) + min(second)) / 2
        return cx - half, cx + half, cy - half, cy + half

    def classes(self, ys: Sequence[Any] | None = None) -> list[int]:
        """Each training point's class (or each of `ys`'s) as an index 0 … K−1 (±1 targets: 0 is -1)."""
        ys = self.ys if ys is None else ys
        if self.settings.classes > 2:
            return list(ys)
        return [class_index(y) for y in ys]

    def scores(self) -> list[float | list[float]]:
        """The network's current output for every point, with plain floats (`predict_all`)."""
        return predict_all(self.model, self.xs)
