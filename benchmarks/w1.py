"""Workload W1, micrograd's demo, written once for each engine and timed side by side.

W1 is `scratchgrad.playground.micrograd_demo`: 100 two-moons points (noise 0.1), a 2-16-16-1 ReLU
network with a linear output, loss = mean(relu(1 − y·score)) + 1e-4·Σθ², full-batch SGD
with lr = 1.0 − 0.9·t/100 at step t. Both engines take the data, sizes, penalty and schedule from there.

The micrograd side is the loop of micrograd's demo notebook as it stands (inputs wrapped
in Values, ``sum`` of Values). scratchgrad runs it twice: the same computation written with
scratchgrad's own API (fused neurons, `losses.hinge`, `optim.SGD`), and micrograd's notebook
itself with only its imports changed (``scratchgrad_notebook``). Both engines start
from the same weights: each MLP draws ``random.uniform(-1, 1)`` per weight, in the same
order, from Python's global generator seeded identically, so the two loss trajectories
must agree (to rounding) — the benchmark checks that before it reports any speed.

This module is pure Python: it runs unchanged in CPython and inside Pyodide.
"""

from __future__ import annotations

import gc
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from scratchgrad.engine import Value, _order_for_backward
from scratchgrad.playground import micrograd_demo

STEPS = 20
WEIGHT_SEED = 1337  # seeds Python's global `random` before either MLP draws its weights
TRAJECTORY_TOLERANCE = 1e-9  # largest relative difference allowed between the two loss curves


cpu_clock: Callable[[], float] = time.process_time
"""Seconds of CPU time this process has used. Inside Pyodide `time.process_time` runs like a
wall clock, so pyodide_w1.mjs puts Node's ``process.cpuUsage()`` here instead."""


class Training:
    """One engine's W1: `loss()` builds the loss graph, `learn(loss)` backpropagates and updates."""

    def loss(self) -> Any:
        raise NotImplementedError

    def learn(self, loss: Any) -> None:
        raise NotImplementedError

    def step(self) -> float:
        """One training step; returns the loss before the update."""
        loss = self.loss()
        self.learn(loss)
        return loss.data


class ScratchgradTraining(Training):
    """A fresh scratchgrad model (weights from the global `random`), trained as scratchgrad teaches."""

    def __init__(self, xs: list[list[float]], ys: list[float]) -> None:
        self.xs, self.ys = xs, ys
        self.model = micrograd_demo.network()
        self.optimizer = micrograd_demo.optimizer(self.model)
        self.loss_function = micrograd_demo.loss_function(self.model)

    def loss(self) -> Value:
        return self.loss_function([self.model(x) for x in self.xs], self.ys)

    def learn(self, loss: Value) -> None:
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()


class NotebookTraining(Training):
    """W1 as micrograd's demo notebook writes it: inputs wrapped in Values, ``sum`` of Values, update by hand.

    `engine` and `nn` are the two modules the notebook imports; `mlp_options`, what its
    ``MLP(2, [16, 16, 1])`` call needs besides the sizes.
    """

    def __init__(
        self, xs: list[list[float]], ys: list[float], engine: Any, nn: Any, **mlp_options: Any
    ) -> None:
        self.xs, self.ys = xs, ys
        self.engine = engine
        self.model = nn.MLP(2, [*micrograd_demo.HIDDEN, 1], **mlp_options)
        self.k = 0

    def loss(self) -> Any:
        inputs = [list(map(self.engine.Value, x)) for x in self.xs]
        scores = list(map(self.model, inputs))
        losses = [(1 + -y * score).relu() for y, score in zip(self.ys, scores, strict=True)]
        data_loss = sum(losses) * (1.0 / len(losses))
        reg_loss = micrograd_demo.L2 * sum(p * p for p in self.model.parameters())
        return data_loss + reg_loss

    def learn(self, loss: Any) -> None:
        self.model.zero_grad()
        loss.backward()
        lr = micrograd_demo.learning_rate(self.k)
        for p in self.model.parameters():
            p.data -= lr * p.grad
        self.k += 1


class MicrogradTraining(NotebookTraining):
    """A fresh micrograd model (weights from the global `random`), trained as in micrograd's demo."""

    def __init__(self, xs: list[list[float]], ys: list[float]) -> None:
        from micrograd import engine, nn  # imported here: only the bench environment has micrograd

        super().__init__(xs, ys, engine, nn)


class ScratchgradNotebookTraining(NotebookTraining):
    """micrograd's notebook with its imports changed to scratchgrad's, and nothing else.

    Only the MLP call names what micrograd's ``MLP(2, [16, 16, 1])`` means: ReLU hidden
    layers and a linear output (scratchgrad's default activation is tanh).
    """

    def __init__(self, xs: list[list[float]], ys: list[float]) -> None:
        from scratchgrad import engine, nn

        super().__init__(xs, ys, engine, nn, activation=micrograd_demo.ACTIVATION, output_activation="linear")


ENGINES: dict[str, type[Training]] = {
    "micrograd": MicrogradTraining,
    "scratchgrad": ScratchgradTraining,
    "scratchgrad_notebook": ScratchgradNotebookTraining,
}
"""Every way W1 is timed: micrograd's notebook; scratchgrad's API; the notebook on scratchgrad."""
BASELINE = "micrograd"


def fresh(engine: str) -> Training:
    """`engine`'s W1 training from the seeded initial weights."""
    xs, ys = micrograd_demo.data()
    random.seed(WEIGHT_SEED)
    return ENGINES[engine](xs, ys)


def run(engine: str, steps: int = STEPS) -> tuple[list[float], list[float], list[float]]:
    """Train W1 for `steps` steps from the seeded weights.

    Returns the loss of each step, the wall-clock seconds of each step, and the CPU
    seconds of each step. A step's time covers the forward pass, backward pass, update and
    freeing the graph (scratchgrad frees it when `step()` returns; micrograd's graph is full
    of reference cycles and waits for the cyclic garbage collector, which runs during later
    steps). CPU time leaves out the time the process waited for a core: on a machine shared
    with other work it is the steadier of the two.
    """
    training = fresh(engine)
    losses, wall, cpu = [], [], []
    for _ in range(steps):
        wall_start, cpu_start = time.perf_counter(), cpu_clock()
        losses.append(training.step())
        wall.append(time.perf_counter() - wall_start)
        cpu.append(cpu_clock() - cpu_start)
    del training
    gc.collect()  # the next run starts without this run's garbage
    return losses, wall, cpu


def interleaved(repeats: int, steps: int = STEPS) -> dict[str, object]:
    """Run every engine of `ENGINES` `repeats` times, rotating which goes first, and compare them.

    Returns the median wall-clock and CPU seconds per step of each engine, each scratchgrad
    way's ratios to micrograd, and the largest relative difference between any of their loss
    trajectories and micrograd's (over every repeat).
    """
    names = list(ENGINES)
    wall: dict[str, list[float]] = {name: [] for name in names}
    cpu: dict[str, list[float]] = {name: [] for name in names}
    trajectories: dict[str, list[list[float]]] = {name: [] for name in names}
    for r in range(repeats):
        for name in names[r % len(names) :] + names[: r % len(names)]:
            losses, wall_seconds, cpu_seconds = run(name, steps)
            trajectories[name].append(losses)
            wall[name].extend(wall_seconds)
            cpu[name].extend(cpu_seconds)
    worst = max(
        abs(a - b) / abs(b)
        for name in names
        if name != BASELINE
        for mine, theirs in zip(trajectories[name], trajectories[BASELINE], strict=True)
        for a, b in zip(mine, theirs, strict=True)
    )
    medians = {name: statistics.median(seconds) for name, seconds in wall.items()}
    cpu_medians = {name: statistics.median(seconds) for name, seconds in cpu.items()}
    ours = [name for name in names if name != BASELINE]
    return {
        "repeats": repeats,
        "steps": steps,
        "median_step_seconds": medians,
        "ratios": {name: medians[BASELINE] / medians[name] for name in ours},
        "median_step_cpu_seconds": cpu_medians,
        "cpu_ratios": {name: cpu_medians[BASELINE] / cpu_medians[name] for name in ours},
        "losses": {name: runs[0] for name, runs in trajectories.items()},
        "worst_relative_loss_difference": worst,
        "trajectories_agree": worst <= TRAJECTORY_TOLERANCE,
    }


def median_step_cpu_without_gc(engine: str, steps: int = 5) -> float:
    """Median CPU seconds per step with the cyclic garbage collector paused during each step.

    The garbage is collected between steps, outside the timed region; the difference with
    `interleaved`'s CPU median is what the collector costs that engine (micrograd's graph is
    one big web of reference cycles; scratchgrad's has none).
    """
    training = fresh(engine)
    seconds = []
    for _ in range(steps):
        gc.disable()
        start = cpu_clock()
        training.step()
        seconds.append(cpu_clock() - start)
        gc.enable()
        gc.collect()
    return statistics.median(seconds)


def node_counts() -> dict[str, int]:
    """How many Values the loss graph of one W1 step holds, in each engine (inputs included)."""
    return {name: len(graph_nodes(fresh(name).loss())) for name in ENGINES}


def graph_nodes(root: object) -> list[object]:
    """Every node `root` depends on, walked iteratively (micrograd's own sort recurses)."""
    nodes, stack, seen = [], [root], {id(root)}
    while stack:
        node = stack.pop()
        nodes.append(node)
        children = node.children if isinstance(node, Value) else node._prev
        for child in children:
            if id(child) not in seen:
                seen.add(id(child))
                stack.append(child)
    return nodes


def scratchgrad_phases(repeats: int = 10) -> dict[str, float]:
    """Where a scratchgrad W1 step spends its time: median CPU seconds of each phase.

    forward = model and loss; sort = what `loss.backward()` sorts (``_order_for_backward(loss,
    prune=True)``: the graph, less what lies below ReLUs that are off); backward =
    `loss.backward()`, which sorts again (backward − sort is the chain-rule walk); update =
    `optimizer.step()`; free = dropping the graph.
    """
    training = fresh("scratchgrad")
    phases: dict[str, list[float]] = {name: [] for name in ("forward", "sort", "backward", "update", "free")}
    for _ in range(repeats):
        t0 = cpu_clock()
        loss = training.loss()
        t1 = cpu_clock()
        _order_for_backward(loss, prune=True)
        t2 = cpu_clock()
        training.optimizer.zero_grad()
        loss.backward()
        t3 = cpu_clock()
        training.optimizer.step()
        t4 = cpu_clock()
        del loss
        t5 = cpu_clock()
        for name, seconds in zip(phases, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4), strict=True):
            phases[name].append(seconds)
    return {name: statistics.median(seconds) for name, seconds in phases.items()}
