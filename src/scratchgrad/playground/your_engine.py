"""The capstone: with ``engine=yours`` a panel trains with the engine the reader built, not with
scratchgrad: `load_your_engine` loads the reader's passing code of every piece the training loop
builds on (their `Value` and its backward, the operators, ``Neuron``, ``Layer``, ``MLP`` and
``train``) into one module, `YOUR_MODULE`, as the file "Export my work" saves would build it, and
the panel calls their ``train(model, xs, ys, 1, lr)`` once per step; a piece not passed yet is
not replaced by ours (that would be our engine), so it refuses with `EngineNotReadyError`, naming
every missing piece and its chapter.

Example:
    >>> from scratchgrad.exercises import EXERCISES
    >>> passed = {exercise.id: exercise.solution for exercise in ENGINE_PIECES}
    >>> engine = load_your_engine(passed)
    >>> sorted(name for name in ("MLP", "train", "Value") if hasattr(engine, name))
    ['MLP', 'Value', 'train']
    >>> load_your_engine({})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    scratchgrad.playground.your_engine.EngineNotReadyError: “yours” trains only with your own code, ...
"""

from __future__ import annotations

import gc
import json
import statistics
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from types import ModuleType
from typing import Any

from scratchgrad._checks import is_number
from scratchgrad.exercises.registry import by_id
from scratchgrad.exercises.runner import earlier_pieces
from scratchgrad.exercises.sandbox import reader_filename
from scratchgrad.losses import accuracy, mse
from scratchgrad.nn import MLP
from scratchgrad.optim import SGD
from scratchgrad.playground.program import YOUR_MODULE
from scratchgrad.playground.stepper import predict_all
from scratchgrad.train import Batches, History, StepRecord, Trainer

__all__ = [
    "ENGINE_PIECES",
    "YOUR_MODULE",
    "EngineNotReadyError",
    "EnginePace",
    "YourTrainer",
    "collector_paused",
    "install_your_engine",
    "load_your_engine",
    "your_engine_installed",
]

CAPSTONE = by_id("training")
ENGINE_PIECES = (*earlier_pieces(CAPSTONE), CAPSTONE)
"""The exercises whose passing code makes up the reader's engine, in the order of the story."""


class EngineNotReadyError(ValueError):
    """The reader's engine cannot train yet; the message names the pieces that are missing or broken."""


def load_your_engine(passed: Mapping[str, str]) -> ModuleType:
    """The reader's engine as a module, from `passed` (exercise id → the code that passed its checks).

    Raises:
        EngineNotReadyError: a piece of `ENGINE_PIECES` is not in `passed`, or its code raised when
            loaded; the message names each such piece, its title and its chapter.
    """
    missing = [piece for piece in ENGINE_PIECES if not isinstance(passed.get(piece.id), str)]
    if missing:
        names = "; ".join(f"“{piece.title}” (chapter {piece.chapter})" for piece in missing)
        raise EngineNotReadyError(
            f"“yours” trains only with your own code, and {len(missing)} of its {len(ENGINE_PIECES)} "
            + (
                "pieces have not passed their checks yet: "
                if len(missing) > 1
                else "pieces has not passed its checks yet: "
            )
            + f"{names}. Pass {'them' if len(missing) > 1 else 'it'} in the chapter's Your turn, "
            "or pick the engine scratchgrad."
        )
    module = ModuleType(YOUR_MODULE, "The reader's engine, built from their passing exercise code.")
    for piece in ENGINE_PIECES:
        try:
            exec(
                compile(passed[piece.id], reader_filename(piece.id), "exec", dont_inherit=True),
                module.__dict__,
            )
        except Exception as error:
            raise EngineNotReadyError(
                f"Your code for “{piece.title}” (chapter {piece.chapter}) raised "
                f"{type(error).__name__}: {error} when loaded; check it again in its chapter."
            ) from error
    return module


def install_your_engine(work_json: str) -> None:
    """Make ``import my_scratchgrad_engine`` give the reader's engine from now on, in this Python.

    `work_json` is `load_your_engine`'s `passed` as JSON. The page runs this before the
    playground's program ("Run it here"), as a terminal finds the exported file next to it.
    """
    sys.modules[YOUR_MODULE] = load_your_engine(json.loads(work_json))


@contextmanager
def your_engine_installed(engine: ModuleType) -> Iterator[None]:
    """While inside, ``import my_scratchgrad_engine`` gives `engine` (the program imports it by name)."""
    before = sys.modules.get(YOUR_MODULE)
    sys.modules[YOUR_MODULE] = engine
    try:
        yield
    finally:
        if before is None:
            del sys.modules[YOUR_MODULE]
        else:
            sys.modules[YOUR_MODULE] = before


class YourTrainer:
    """Steps the reader's `MLP` with the reader's `train`, keeping the records `Trainer` keeps.

    Each `step` calls ``train(model, batch_xs, batch_ys, 1, lr)`` once: one step of mean squared
    error on the step's batch, in the reader's code from forward pass to update. The batches are
    the ones the book's `Trainer` takes with the same `batch_size` and `seed` (`Batches`): every
    example by default. The accuracy of the step is measured on its batch, on the model as the
    step found it, with plain floats (no graph).

    Args:
        model: the reader's `MLP` (``layers`` → ``neurons`` → ``w`` and ``b``, as the exercise asks).
        train: the reader's ``train(model, xs, ys, steps, learning_rate) -> list of losses``.
        xs: the examples.
        ys: their targets, ±1.
        lr: the learning rate.
        batch_size: examples per step; None for every example at every step.
        seed: seeds the batches' shuffling.
    """

    def __init__(
        self,
        model: Any,
        train: Any,
        xs: Sequence[Sequence[float]],
        ys: Sequence[float],
        lr: float,
        batch_size: int | None = None,
        seed: int = 0,
    ):
        self.model, self.train, self.lr = model, train, lr
        self.xs, self.ys = [list(x) for x in xs], list(ys)
        self.batches = Batches(len(self.xs), batch_size, seed, owner="YourTrainer")
        self.history = History()
        self.step_seconds: list[float] = []
        """How long each step's call of the reader's ``train`` took, its garbage collected included."""

    def loss(self, scores: Sequence[Any], targets: Sequence[float]) -> Any:
        """The mean squared error of `scores` (the reader's Values), as the reader's Value."""
        return sum((score - target) ** 2 for score, target in zip(scores, targets, strict=True)) / len(
            targets
        )

    def step(self) -> StepRecord:
        """One call of the reader's ``train`` for one step; returns what the step saw."""
        batch = self.batches.next()
        xs, ys = [self.xs[i] for i in batch], [self.ys[i] for i in batch]
        right = accuracy(predict_all(self.model, xs), ys)
        start = time.perf_counter()
        with collector_paused():
            losses = self.train(self.model, xs, ys, 1, self.lr)
        self.step_seconds.append(time.perf_counter() - start)
        if not isinstance(losses, list) or len(losses) != 1 or not is_number(losses[0]):
            raise TypeError(
                "your train(model, xs, ys, 1, learning_rate) should return a list of one loss (a number), "
                f"got {losses!r:.80}"
            )
        record = StepRecord(len(self.history), float(losses[0]), right)
        self.history.append(record)
        return record


class EnginePace:
    """How fast the reader's engine trains against the book's, measured live on the same kind of step.

    The book's side is scratchgrad doing the reader's step: an `MLP` of the same sizes, tanh in
    every layer (as the reader's), on the same points in the same batches, with mean squared error
    and plain gradient descent at the same rate, on a model of its own. After its first `FIRST`
    steps it takes one only while its steps have cost less than `SHARE` of the reader's time, so
    both are measured in the same minutes, under the same load, and the reader's training keeps
    the worker to itself.

    Args:
        yours: the reader's `YourTrainer`, whose ``step_seconds`` are the reader's side.
        sizes: the layer sizes after the inputs, e.g. ``[8, 8, 1]``.
        seed: seeds the book's initial weights and, as the reader's, its batches' shuffling.
    """

    FIRST = 3
    """The book's steps taken one per frame from the start, so that one slow step is not its figure."""
    SHARE = 0.05
    """After those, the largest part of the time the book's steps may take, against the reader's."""
    RECENT = 20
    """Each side's figure is the median of its last this-many steps."""

    def __init__(self, yours: YourTrainer, sizes: Sequence[int], seed: int) -> None:
        self.yours = yours
        model = MLP(len(yours.xs[0]), list(sizes), rng=seed)
        optimizer = SGD(model.parameters(), lr=yours.lr)
        batch_size = yours.batches.size
        self.book = Trainer(model, yours.xs, yours.ys, mse, optimizer, batch_size=batch_size, seed=seed)
        self.book_seconds: list[float] = []

    def measure(self) -> None:
        """Time one book step: one of its first `FIRST`, or one that fits in `SHARE` of the reader's time."""
        spent, yours = sum(self.book_seconds), sum(self.yours.step_seconds)
        if len(self.book_seconds) < self.FIRST or spent <= self.SHARE * yours:
            start = time.perf_counter()
            self.book.step()
            self.book_seconds.append(time.perf_counter() - start)

    def summary(self) -> dict[str, float] | None:
        """``{"yours_ms": …, "book_ms": …}``: each side's median milliseconds a step; None before both ran."""
        if not self.yours.step_seconds or not self.book_seconds:
            return None
        return {
            "yours_ms": 1000 * statistics.median(self.yours.step_seconds[-self.RECENT :]),
            "book_ms": 1000 * statistics.median(self.book_seconds[-self.RECENT :]),
        }


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused while inside, then run once on what was left.

    An engine of closures (micrograd's, and the reader's from the exercises) puts every node in
    a reference cycle: ``out._backward`` refers to ``out``. While a step builds its graph, the
    collector keeps waking up to look for such cycles among every object the step has made so
    far, which is most of a step's time (`benchmarks/README.md`). Paused, it runs once, on the
    young objects only, after the step: each cycle is then looked at once, when it is garbage.
    The reader's arithmetic is untouched; only when Python looks for garbage changes.
    """
    if not gc.isenabled():  # paused by someone else, who will collect
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.collect(0)
