"""Derivatives by nudging: the slope of a function of one number, measured."""

import math

from scratchgrad._checks import is_number
from scratchgrad.exercises.exercise import Engine, Exercise, Fail
from scratchgrad.writing.numbers import written

EXERCISE = Exercise.load(__name__)


def _slope_of(engine: Engine, f, x: float, h: float | None = None) -> object:
    return engine.slope(f, x) if h is None else engine.slope(f, x, h)


@EXERCISE.check("slope of 3x² − 4x + 5 at x = 3")
def _chapter_function(engine: Engine) -> str:
    got = _slope_of(engine, lambda x: 3 * x**2 - 4 * x + 5, 3.0)
    expected = 14.0
    if is_number(got) and abs(got - expected) < 1e-3:
        return f"about {written(expected)}: {written(got)}"
    hint = ""
    line = _slope_of(engine, lambda t: t, 3.0, 0.5)  # f(t) = t: the rise over the run is exactly 1
    if is_number(line) and abs(line * 0.5 - 3.0) < 1e-9:  # rise 3 = f(x + h) − f(h), not 0.5
        hint = (
            " — for f(t) = t at x = 3 with h = 0.5 your rise is 3, f(3.5) − f(0.5): subtract f(x), not f(h)"
        )
    elif is_number(got) and got == 0 and _slope_of(engine, lambda x: 3 * x**2 - 4 * x + 5, 3.0, 0.5) != 0:
        hint = " — is h so small that x + h == x? Then f(x + h) − f(x) is exactly 0"
    elif is_number(got) and 0 < abs(got) < 1e-2:
        hint = " — did you divide the rise by h?"
    elif is_number(got) and abs(got + expected) < 1e-3:
        hint = " — the sign is flipped: f(x + h) − f(x), not the other way round"
    raise Fail(
        f"the slope should be about {written(expected)} (6x − 4 at x = 3); you got {written(got)}{hint}"
    )


@EXERCISE.check("slope of other functions")
def _other_functions(engine: Engine) -> str:
    cases = (
        ("sin x at 0.5", math.sin, 0.5, math.cos(0.5)),
        ("x³ at −2", lambda x: x**3, -2.0, 12.0),
        ("eˣ at 1", math.exp, 1.0, math.e),
        ("cos x at 1", math.cos, 1.0, -math.sin(1.0)),  # falling: a flipped sign shows
        ("x² − 2x at 0", lambda x: x * x - 2 * x, 0.0, -2.0),
        ("x² at 1000", lambda x: x * x, 1000.0, 2000.0),
    )
    for name, f, x, expected in cases:
        got = _slope_of(engine, f, x)
        if not is_number(got) or abs(got - expected) > 1e-3 * max(1.0, abs(expected)):
            raise Fail(f"the slope of {name} should be about {written(expected)}; you got {written(got)}")
    return "sin, x³, eˣ, cos, x² − 2x at 0 and x² at 1000 all within 0.001 of their exact slopes"


def _quotients(f, x: float, h: float) -> dict[str, float]:
    """Every rise over a run of exactly h around x (and the both-ways nudge, whose run is 2h)."""
    return {
        "forward": (f(x + h) - f(x)) / h,
        "backward": (f(x) - f(x - h)) / h,
        "half steps": (f(x + h / 2) - f(x - h / 2)) / h,
        "central": (f(x + h) - f(x - h)) / (2 * h),
    }


USES_H_CASES = (("x³ at 1", lambda x: x**3, 1.0), ("x² at −2", lambda x: x * x, -2.0))


@EXERCISE.check("uses the h it is given")
def _uses_h(engine: Engine) -> str:
    misses = []  # (name, h, got, its quotients) for every slope that is no rise over a run of h
    for name, f, x in USES_H_CASES:
        for h in (0.5, 0.25):
            got, quotients = _slope_of(engine, f, x, h), _quotients(f, x, h)
            if not any(is_number(got) and abs(got - q) < 1e-9 for q in quotients.values()):
                misses.append((name, h, got, quotients))
    if not misses:
        return "with h = 0.5 and h = 0.25, each slope is a rise over a run of h"
    if len(misses) == 2 * len(USES_H_CASES) and all(
        is_number(got) and abs(got - 2 * q["central"]) < 1e-9 for _, _, got, q in misses
    ):  # every one of four cases, not one number that happens to match
        raise Fail(
            "every slope you gave is twice the central difference: nudging both ways, the run "
            "from x − h to x + h is 2h — divide by 2 * h"
        )
    name, h, got, quotients = misses[0]
    f, x = next((f, x) for case, f, x in USES_H_CASES if case == name)
    default = _slope_of(engine, f, x)  # the same answer as without h: then h was ignored
    ignored = is_number(got) and is_number(default) and abs(got - default) < 1e-9
    raise Fail(
        f"with h = {written(h)}, nudging {name} gives (f(x + h) − f(x)) / h = "
        f"{written(quotients['forward'])}; you got {written(got)}"
        + (" — the same as with the default h: does slope use the h it is given?" if ignored else "")
    )


@EXERCISE.check("slope of a random cubic at a random x")
def _random_cubic(engine: Engine) -> str:
    rng = engine.rng
    for _ in range(3):
        c = [round(rng.uniform(-3, 3), 2) for _ in range(4)]
        x = round(rng.uniform(-2, 2), 3)
        exact = 3 * c[0] * x**2 + 2 * c[1] * x + c[2]
        got = _slope_of(engine, lambda t, c=c: c[0] * t**3 + c[1] * t**2 + c[2] * t + c[3], x)
        if not is_number(got) or abs(got - exact) > 1e-3 * max(1.0, abs(exact)):
            cubic = f"{c[0]}x³ + {c[1]}x² + {c[2]}x + {c[3]}"
            raise Fail(
                f"the slope of {cubic} at x = {written(x)} should be about {written(exact)}; you got "
                f"{written(got)}"
            )
    return "within 0.001 of the exact slope of three random cubics"
