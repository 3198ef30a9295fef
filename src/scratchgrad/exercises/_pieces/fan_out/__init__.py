"""A value used twice, by hand: the gradient of a in L = (a·b)·(a + c) is the sum of two shares."""

from scratchgrad._checks import is_number
from scratchgrad.exercises.exercise import Engine, Exercise, Fail
from scratchgrad.writing.numbers import written

EXERCISE = Exercise.load(__name__)


def _loss(a: float, b: float, c: float) -> float:
    return (a * b) * (a + c)


def _nudged(a: float, b: float, c: float, h: float = 1e-6) -> float:
    return (_loss(a + h, b, c) - _loss(a - h, b, c)) / (2 * h)


def _close(got: object, expected: float) -> bool:
    return is_number(got) and abs(got - expected) <= 1e-4 * max(1.0, abs(expected))


def _diagnosis(got: object, a: float, b: float, c: float) -> str:
    """What a wrong answer looks like it did, when it matches a known mistake."""
    through_u, through_v = b * (a + c), a * b
    if _close(got, through_u):
        return " — that is only the share through u; a also reaches L through v"
    if _close(got, through_v):
        return " — that is only the share through v; a also reaches L through u"
    if _close(got, through_u * through_v):
        return " — the two shares multiplied; each share is already a whole path to L: add them"
    return ""


def _at(engine: Engine, a: float, b: float, c: float) -> str:
    got, expected = engine.gradient_of_a(a, b, c), _nudged(a, b, c)
    if _close(got, expected):
        return f"dL/da = {written(got)}, as nudging a measures ({written(expected)})"
    shown = f"a = {written(a)}, b = {written(b)}, c = {written(c)}"
    raise Fail(
        f"with {shown}, nudging a gives dL/da ≈ {written(expected)}; you got {written(got)}"
        f"{_diagnosis(got, a, b, c)}"
    )


@EXERCISE.check("a = 2, b = −3, c = 10")
def _chapter_numbers(engine: Engine) -> str:
    return _at(engine, 2.0, -3.0, 10.0)


@EXERCISE.check("random numbers")
def _random_numbers(engine: Engine) -> str:
    for _ in range(3):
        a, b, c = (round(engine.rng.uniform(-5, 5), 2) for _ in range(3))
        _at(engine, a, b, c)
    return "right at three random points: the two shares, added"
