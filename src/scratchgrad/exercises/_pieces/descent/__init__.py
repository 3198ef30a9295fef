"""Gradient descent in one dimension: step x against the slope, lr times it, and repeat."""

import math

from scratchgrad._checks import is_number
from scratchgrad.exercises.exercise import Engine, Exercise, Fail
from scratchgrad.exercises.shares import line_in
from scratchgrad.writing.numbers import written

EXERCISE = Exercise.load(__name__)


def _bowl(a: float, m: float, k: float):
    """The parabola a·(x − m)² + k: lowest at x = m, slope 2a·(x − m)."""
    return lambda x: a * (x - m) ** 2 + k


def _step_line(engine: Engine) -> str:
    """The reader's line in descend that moves x: " (your line N: `…`)", or ""."""
    return next(
        (found for needle in ("x -=", "x +=", "x = ") if (found := line_in(engine.descend, needle))), ""
    )


def _close(got: object, expected: float, tolerance: float = 1e-3) -> bool:
    return is_number(got) and abs(got - expected) <= tolerance * max(1.0, abs(expected))


ONE_STEP = {0.01: 0.06, 0.1: 0.6}
"""lr: where one step from x = 0 down (x − 3)² ends, 0 − lr · (−6)."""


def _same(got: object, expected: float) -> bool:
    """`got` is `expected` to 3 digits of its own, however small: the evidence a hint needs (`_close`,
    the pass mark, lets 0.0006 pass for 0); 3 digits leave room for the error of a measured slope."""
    return is_number(got) and math.isclose(got, expected, rel_tol=1e-3, abs_tol=1e-12)


def _after(steps: int, lr: float) -> float:
    """Where `steps` right steps from x = 0 down (x − 3)² end: each shrinks the distance to 3 by 1 − 2·lr."""
    return 3.0 - 3.0 * (1 - 2 * lr) ** steps


def _one_step_hint(engine: Engine, lr: float, got: dict[float, object], from_five: object) -> str:
    """What the runs from x = 0 (at each lr) and from x = 5 show together; "" when they show nothing."""
    bowl = _bowl(1.0, 3.0, 0.0)
    if got[lr] == 0.0:  # exactly where it started: run the loop longer to see whether it ever moves
        try:
            longer = {steps: engine.descend(bowl, 0.0, lr, steps) for steps in (2, 3)}
        except Exception:  # the reader's descend fails on more steps: no evidence, and no hint
            return ""
        if all(_same(x, _after(steps - 1, lr)) for steps, x in longer.items()):
            return " — x did not move, and with steps = 2 it moved one step: your loop runs one step too few"
        if all(x == 0.0 for x in longer.values()):
            return " — x did not move, not in 2 or 3 steps either: does the loop change x?"
        return ""
    if _same(got[lr], -ONE_STEP[lr]):
        if _same(from_five, 5.4):
            return " — that step went uphill, and from x = 5 too: subtract lr · slope, do not add it"
        if _same(from_five, 4.6):
            return (
                " — that step went uphill (left, where the slope is negative), though from x = 5 yours "
                "went downhill: does your step keep the slope's sign?"
            )
        return " — that step went uphill"
    if all(_same(x, 6.0) for x in got.values()):  # 0 − (−6): the slope itself, not lr times it
        return " — that is a step of the whole slope at every lr: multiply it by lr"
    if all(_same(x, step * rate) for (rate, step), x in zip(ONE_STEP.items(), got.values(), strict=True)):
        return " — the step is lr² times the slope at both lr = 0.01 and lr = 0.1: multiply by lr once"
    return ""


@EXERCISE.check("one step on (x − 3)² from x = 0")
def _one_step(engine: Engine) -> str:
    slope_there = -6.0  # 2·(0 − 3)
    got = {lr: engine.descend(_bowl(1.0, 3.0, 0.0), 0.0, lr, 1) for lr in ONE_STEP}
    from_five = engine.descend(_bowl(1.0, 3.0, 0.0), 5.0, 0.1, 1)  # slope +4: downhill is to the left
    for lr, expected in ONE_STEP.items():
        if not _close(got[lr], expected):
            raise Fail(
                f"with lr = {written(lr)}, one step from x = 0 (slope {written(slope_there)}) should reach "
                f"x = {written(expected)}; you got {written(got[lr])}{_step_line(engine)}"
                + _one_step_hint(engine, lr, got, from_five)
            )
    if not _close(from_five, 4.6):
        hint = ""
        if _same(
            from_five, 5.4
        ):  # from x = 0 it went downhill, to the right: it steps right whatever the slope
            hint = (
                " — that step went uphill (right, where the slope is positive), though from x = 0 yours went "
                "downhill: does your step keep the slope's sign?"
            )
        raise Fail(
            "with lr = 0.1, one step from x = 5 (slope 4.0) should reach x = 4.6; you got "
            + written(from_five)
            + _step_line(engine)
            + hint
        )
    return "with lr = 0.01 and lr = 0.1, one step moves x by lr times the slope, downhill, left or right"


@EXERCISE.check("100 steps down (x − 3)² + 1 from x = 0, lr = 0.1")
def _to_the_bottom(engine: Engine) -> str:
    got = engine.descend(_bowl(1.0, 3.0, 1.0), 0.0, 0.1, 100)
    if _close(got, 3.0):
        return f"x = {written(got)}: the bottom, 3"
    hint = " — x ran off: is each step against the slope?" if is_number(got) and abs(got) > 10 else ""
    raise Fail(
        f"100 steps should reach the bottom, x = 3; you got x = {written(got)}{_step_line(engine)}{hint}"
    )


@EXERCISE.check("random bowls from random starts")
def _random_bowls(engine: Engine) -> str:
    rng = engine.rng
    for _ in range(3):
        a, m, k = round(rng.uniform(0.5, 2.0), 2), round(rng.uniform(-3, 3), 2), round(rng.uniform(-2, 2), 2)
        start, steps = round(rng.uniform(-5, 5), 2), rng.randint(2, 4)
        expected = m + (start - m) * (1 - 2 * a * 0.1) ** steps  # each step shrinks the distance
        got = engine.descend(_bowl(a, m, k), start, 0.1, steps)
        if not _close(got, expected):
            bowl = f"{a}·(x {'−' if m >= 0 else '+'} {abs(m)})² {'+' if k >= 0 else '−'} {abs(k)}"
            raise Fail(
                f"{steps} steps with lr = 0.1 down {bowl} from x = {written(start)} should reach "
                f"x ≈ {written(expected)}; you got {written(got)}{_step_line(engine)} — does each of the "
                "`steps` steps go against the slope, by lr times it?"
            )
    return "three random bowls: every walk lands where that many steps should"
