"""Checking against PyTorch, without PyTorch: central differences as the independent witness."""

import math

from scratchgrad.exercises.exercise import Engine, Exercise, Fail
from scratchgrad.writing.numbers import written

EXERCISE = Exercise.load(__name__)


def _unchanged(xs: list, call, what: str) -> object:
    """`call(xs)`, failing when it changed the caller's list `xs`."""
    given = list(xs)
    result = call(xs)
    if xs != given:
        raise Fail(f"{what} changed the list xs it was given, from {given} to {xs}: nudge a copy, list(xs)")
    return result


def _gradient_list(engine: Engine, f, xs, h=None) -> list:
    got = _unchanged(
        xs,
        lambda xs: engine.numerical_gradient(f, xs) if h is None else engine.numerical_gradient(f, xs, h),
        "numerical_gradient",
    )
    try:
        return [float(g) for g in got]
    except TypeError:
        raise Fail(
            f"numerical_gradient should return a list of numbers, one per input; yours returned {got!r}"
        ) from None


@EXERCISE.check("numerical_gradient of a·b + exp(b)")
def _two_inputs(engine: Engine) -> str:
    got = _gradient_list(engine, lambda a, b: a * b + b.exp(), [2.0, 0.5])
    want = [0.5, 2.0 + math.exp(0.5)]
    if len(got) != 2 or any(abs(g - w) > 1e-5 for g, w in zip(got, want, strict=False)):
        shown, wanted = [written(g) for g in got], [written(w) for w in want]
        raise Fail(f"at a = 2, b = 0.5 the slopes should be {wanted}; yours are {shown}")
    got = _gradient_list(engine, lambda a, b, c: a * b - c * c, [-1.5, 0.0, -2.0])  # negative, zero
    if len(got) != 3 or any(abs(g - w) > 1e-5 for g, w in zip(got, [0.0, -1.5, 4.0], strict=False)):
        raise Fail(
            f"at a = -1.5, b = 0, c = -2, the slopes of a·b − c² should be [0.0, -1.5, 4.0]; yours are "
            f"{[written(g) for g in got]}"
        )
    return "[0.5, 3.648721], and [0.0, -1.5, 4.0] at negative and zero inputs"


@EXERCISE.check("numerical_gradient nudges both ways")
def _central(engine: Engine) -> str:
    # h² = 1e-4 is 10 times the tolerance: a function that ignores h, or nudges one way, is off by more
    got = _gradient_list(engine, lambda x: x**3, [10.0], 1e-2)
    want = 300.0001  # (f(x+h) − f(x−h)) / 2h = 3x² + h² for x³
    if len(got) != 1 or abs(got[0] - want) > 1e-5:
        hint = " — with h = 0.01 nudging both ways is off by h² = 0.0001: use the h it is given"
        if not (len(got) == 1 and abs(got[0] - 300.0) < 1e-5):
            hint = " — nudge both ways: (f(x + h) − f(x − h)) / 2h"
        raise Fail(
            f"with h = 0.01, the slope of x³ at 10 should be {written(want)} (nudging both ways); yours is "
            f"{written(got[0] if got else None)}{hint}"
        )
    return f"{written(got[0])}: off by h², not by h"


def _require_verdict(verdict: object, want: bool, situation: str, hint: str = "") -> None:
    bool_like = type(verdict).__name__ in ("bool", "bool_")  # True/False, or numpy's np.True_/np.False_
    if not bool_like or bool(verdict) is not want:
        raise Fail(f"{situation} gradients_agree should say {want}; it said {verdict!r}{hint}")


@EXERCISE.check("gradients_agree says yes to a correct engine")
def _agrees(engine: Engine) -> str:
    def neuron(x1, w1, x2, w2, b):
        return (x1 * w1 + x2 * w2 + b).tanh()

    xs = [2.0, -3.0, 0.0, 1.0, 0.88]
    verdict = _unchanged(xs, lambda xs: engine.gradients_agree(neuron, xs), "gradients_agree")
    _require_verdict(verdict, True, "for the neuron, your Value's backward() is right, so")
    return "True for the neuron"


def _square_with_rule(engine: Engine, factor: float):
    """x² as one node of the reader's Value, whose backward rule gives `factor` · 2x (1 is right)."""
    V = engine.Value  # noqa: N806

    def square(x):
        out = V(x.data**2, "", (x,), "sq")

        def _backward():
            x.grad += factor * 2 * x.data * out.grad

        out._backward = _backward
        return out

    return square


@EXERCISE.check("gradients_agree catches a wrong backward rule")
def _catches(engine: Engine) -> str:
    square_with_a_bug = _square_with_rule(engine, 0.5)  # gives x, where the rule is 2x
    verdict = engine.gradients_agree(square_with_a_bug, [1.5])
    _require_verdict(verdict, False, "for a node whose rule gives d(x²)/dx = x instead of 2x,")
    return "False for a rule that gives x instead of 2x"


@EXERCISE.check("gradients_agree on big and on zero gradients")
def _scales(engine: Engine) -> str:
    _require_verdict(
        engine.gradients_agree(lambda x: x**4, [300.0]),
        True,
        "for x⁴ at 300 the gradient is 1.08e+08, and nudging matches it to 9 digits;",
        " — compare the difference relative to their size, not as an absolute number",
    )
    verdict = engine.gradients_agree(lambda x: x * x, [0.0])
    _require_verdict(verdict, True, "for x·x at 0 both gradients are 0;")
    # Near zero the difference is measured against 1: at x = 0.25 (gradient 0.5) a rule off by
    # 1.5e-6 is off by more than 1e-6, one off by 0.5e-6 is not, whatever floor a bug puts there.
    for factor, want in ((1 + 3e-6, False), (1 + 1e-6, True)):
        verdict = engine.gradients_agree(_square_with_rule(engine, factor), [0.25])
        _require_verdict(
            verdict,
            want,
            f"for x·x at 0.25 (gradient 0.5) with a rule off by {written(0.5 * (factor - 1))},",
            " — near zero, divide the difference by max(|a|, |b|, 1): by 1 here, so the difference"
            " itself counts",
        )
    return "True for x⁴ at 300 (gradient 1.08e+08) and for x·x at 0; near 0, differences count against 1"


@EXERCISE.check("gradients_agree uses the tolerance it is given")
def _tolerance(engine: Engine) -> str:
    square_off_by_a_little = _square_with_rule(engine, 1 + 1e-4)  # 1e-4 too much, relatively
    for tolerance, want in ((1e-3, True), (1e-5, False)):
        verdict = engine.gradients_agree(square_off_by_a_little, [1.5], tolerance)
        _require_verdict(
            verdict,
            want,
            f"for a rule 0.01 % off, with tolerance={tolerance:g},",
            " — compare with the tolerance argument, not a number of your own",
        )
    return "True at tolerance 1e-3 and False at 1e-5 for a rule 0.01 % off"


@EXERCISE.check("gradients_agree looks at every input")
def _every_input(engine: Engine) -> str:
    rng = engine.rng
    square_with_a_bug = _square_with_rule(engine, 0.5)
    count = rng.randint(2, 4)
    wrong = rng.randrange(1, count)  # never the first: a comparison of xs[0] alone must fail
    xs = [round(rng.uniform(0.5, 2.5), 2) for _ in range(count)]

    def f(*values):
        return sum((square_with_a_bug(v) if i == wrong else v * v for i, v in enumerate(values)), 0)

    verdict = engine.gradients_agree(f, xs)
    _require_verdict(
        verdict,
        False,
        f"for a sum of squares of xs = {xs}, where only input {wrong}'s node has a wrong rule (x for 2x),",
        " — compare every input's gradient, not only the first",
    )
    return f"False when only input {wrong} of {count} is wrong"
