"""Gradient descent in one dimension: step x against the slope, lr times it, and repeat."""

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


@EXERCISE.check("one step on (x − 3)² from x = 0")
def _one_step(engine: Engine) -> str:
    slope_there = -6.0  # 2·(0 − 3)
    cases = {0.01: 0.06, 0.1: 0.6}  # lr: x after one step, 0 − lr · (−6)
    for lr, expected in cases.items():
        got = engine.descend(_bowl(1.0, 3.0, 0.0), 0.0, lr, 1)
        if _close(got, expected):
            continue
        hint = ""
        if _close(got, -expected):
            hint = " — that step went uphill: subtract lr · slope, do not add it"
        elif _close(got, -slope_there):
            hint = " — that is a step of the whole slope: multiply it by lr"
        elif _close(got, 0.0):
            hint = " — x did not move: does the loop change x?"
        raise Fail(
            f"with lr = {written(lr)}, one step from x = 0 (slope {written(slope_there)}) should reach "
            f"x = {written(expected)}; you got {written(got)}{_step_line(engine)}{hint}"
        )
    got = engine.descend(_bowl(1.0, 3.0, 0.0), 5.0, 0.1, 1)  # slope +4: downhill is to the left
    if not _close(got, 4.6):
        hint = " — that step went uphill: subtract lr · slope, do not add it" if _close(got, 5.4) else ""
        raise Fail(
            f"with lr = 0.1, one step from x = 5 (slope 4.0) should reach x = 4.6; you got {written(got)}"
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
