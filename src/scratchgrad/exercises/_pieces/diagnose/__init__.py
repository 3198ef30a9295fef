"""Diagnose three training runs that go wrong from their losses, and fix each one's mistake.

The runs are those of the stub: one never zeroes its gradients, one starts from weights so large
that every tanh is saturated, one steps with too large a rate. A run is fixed when, from the
model's own weights, it gives the losses of a sound loop at its own learning rate, and from the
two fixed starts they end below half the first, never rising above it: a smaller rate fixes one
of the three, not the others. The random starts test the loop only: from an unlucky random start a
sound loop at a good rate may fall slowly, and a right answer must never fail by chance.
"""

import random
from collections.abc import Callable

from scratchgrad._checks import is_number
from scratchgrad.exercises.exercise import Engine, Exercise, Fail
from scratchgrad.exercises.oracle import close
from scratchgrad.writing.numbers import written

EXERCISE = Exercise.load(__name__)

XS = ([2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0])
YS = (1.0, -1.0, -1.0, 1.0)
STEPS = 20
STARTS = 1
"""Random starting weights each run is tried from: its losses must be a sound loop's."""
FALLING_FROM = (1440, 1517)
"""Seeds of the fixed starting weights from which a sound loop's loss must fall: from each, a sound
loop at any rate from 0.02 to 1.2 ends below half its first loss in STEPS steps, never above it,
with weights before or after the bias in each neuron; at 1.5 or 3 it rises above it."""


def _sound(model, xs, ys, steps: int, rate: float) -> list[float]:
    """The chapter's loop: forward, zero the gradients, backward, step against them."""
    losses = []
    for _ in range(steps):
        loss = sum((model(x) - y) ** 2 for x, y in zip(xs, ys, strict=True)) / len(xs)
        for p in model.parameters():
            p.grad = 0.0
        loss.backward()
        for p in model.parameters():
            p.data -= rate * p.grad
        losses.append(loss.data)
    return losses


def _from(model, weights: list[float], run: Callable[[object], list[float]]) -> list[float]:
    for p, w in zip(model.parameters(), weights, strict=True):
        p.data, p.grad = w, 0.0
    return list(run(model))


def _shown(losses: list[float]) -> str:
    picked = losses[:4] + (["…", losses[-1]] if len(losses) > 4 else [])
    return " → ".join(item if isinstance(item, str) else f"{item:.4f}" for item in picked)


def _rate_of(engine: Engine, name: str) -> float:
    run = getattr(engine, name)
    defaults = getattr(run, "__defaults__", None) or ()
    if not defaults or not is_number(defaults[-1]):
        raise Fail(
            f"keep {name}'s signature: {name}(model, xs, ys, steps, learning_rate=…), a number for the rate"
        )
    return float(defaults[-1])


def _starts(engine: Engine, count: int) -> list[tuple[list[float], bool]]:
    """Starting weights, each with whether its loss must fall: the fixed ones, then random ones."""
    fixed = [random.Random(seed) for seed in FALLING_FROM]
    return [([round(r.uniform(-1, 1), 3) for _ in range(count)], True) for r in fixed] + [
        ([round(engine.rng.uniform(-1, 1), 3) for _ in range(count)], False) for _ in range(STARTS)
    ]


def _fixed(engine: Engine, name: str) -> str:
    run, rate = getattr(engine, name), _rate_of(engine, name)
    model = engine.MLP(3, [4, 4, 1])
    for weights, must_fall in _starts(engine, len(model.parameters())):
        xs, ys = [list(x) for x in XS], list(YS)
        yours = _from(model, weights, lambda m, xs=xs, ys=ys: run(m, xs, ys, STEPS))
        right = _from(model, weights, lambda m: _sound(m, [list(x) for x in XS], list(YS), STEPS, rate))
        if len(yours) != STEPS or not all(is_number(loss) for loss in yours):
            raise Fail(
                f"{name}(model, xs, ys, {STEPS}) should return {STEPS} losses (numbers); "
                f"yours: {yours!r:.120}"
            )
        if not close(yours[0], right[0], 1e-9):
            raise Fail(
                f"{name}: the first loss, before any step, should be the model's as it was given, "
                f"{written(right[0])}; yours is {written(yours[0])} — what does the run do to the model "
                "before its first forward pass?"
            )
        wrong = next(
            (i for i, (a, b) in enumerate(zip(yours, right, strict=True)) if not close(a, b, 1e-9)), None
        )
        if wrong is not None:
            raise Fail(
                f"{name}, at its learning rate {rate:g}: from step {wrong} its losses leave those of a sound "
                f"loop at that rate ({written(right[wrong])} expected, {written(yours[wrong])} yours). Its "
                f"losses: {_shown(yours)}; a sound loop's: {_shown(right)}"
            )
        above = next((i for i in range(1, STEPS) if yours[i] > yours[0]), None)
        if must_fall and (above is not None or not yours[-1] < yours[0] / 2):
            where = f"at step {above} it rises above" if above is not None else "it ends above half of"
            raise Fail(
                f"{name}'s loop is sound, but its loss should fall from where it started, to below half of "
                f"it in {STEPS} steps; {where} its first loss: {_shown(yours)} (learning rate {rate:g})"
            )
    return (
        f"from {len(FALLING_FROM)} fixed starts, falling, and {STARTS} from random weights, the losses "
        f"of a sound loop at rate {rate:g}"
    )


@EXERCISE.check("run_a, from random starting weights")
def _run_a(engine: Engine) -> str:
    return _fixed(engine, "run_a")


@EXERCISE.check("run_b, from random starting weights")
def _run_b(engine: Engine) -> str:
    return _fixed(engine, "run_b")


@EXERCISE.check("run_c, from random starting weights")
def _run_c(engine: Engine) -> str:
    return _fixed(engine, "run_c")
