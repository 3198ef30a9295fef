"""The gradient checker: central differences, the report, and catching a wrong derivative."""

import doctest
import math

import pytest
from hypothesis import given

from scratchgrad import Value, gradcheck
from scratchgrad.gradcheck import GradientCheckError, check_gradients, numerical_gradients, relative_error
from strategies import gradient_examples, reals


def wrong_square(a):
    """a², with the derivative 3a where 2a is right: the kind of bug a checker must catch."""
    return Value(a.data**2, "", (a,), (3 * a.data,), "bad²")


@gradient_examples
@given(reals(-3, 3))
def test_central_difference_of_a_cubic_matches_its_derivative(x):
    (slope,) = numerical_gradients(lambda a: a**3 - 2 * a, [x])
    assert slope == pytest.approx(3 * x * x - 2, abs=1e-7)


def test_gradients_come_back_shaped_like_the_inputs():
    grads = numerical_gradients(lambda w, b: w[0] * 2 + w[1] * 3 + b, [[1.0, 1.0], 0.5])
    assert grads[0] == pytest.approx([2.0, 3.0])
    assert isinstance(grads[1], float)
    assert grads[1] == pytest.approx(1.0)


def test_report_gives_worst_error_per_input_and_passes_correct_gradients():
    report = check_gradients(lambda w, x: (w[0] * x + w[1]).tanh(), [[0.5, -1.0], 2.0])
    assert report.passed
    assert len(report.worst_errors) == 2
    assert max(report.worst_errors) < 1e-8
    assert report.inputs[0].backprop == pytest.approx((2.0, 1.0))


def test_wrong_derivative_raises_with_the_report_as_message():
    with pytest.raises(GradientCheckError, match=r"input 0: worst relative error 0\.333 TOO FAR"):
        check_gradients(wrong_square, [3.0])


def test_wrong_derivative_flagged_without_raising_when_not_strict():
    report = check_gradients(lambda a, b: wrong_square(a) + b, [3.0, 1.0], strict=False)
    assert not report.passed
    assert report.worst_errors[0] == pytest.approx(1 / 3)
    assert report.worst_errors[1] < 1e-8
    assert "FAILED" in str(report)


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        (1.0, 1.0, 0.0),
        (100.0, 101.0, 1 / 101),  # relative for large numbers
        (1e-12, 2e-12, 1e-12),  # absolute near zero
        (math.inf, math.inf, 0.0),
        (math.inf, 1.0, math.inf),
        (math.nan, 1.0, math.inf),
    ],
)
def test_relative_error(a, b, expected):
    assert relative_error(a, b) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: numerical_gradients(lambda a: a, [1.0], h=0), ValueError, "step h > 0, got h=0"),
        (lambda: check_gradients(lambda a: a, [1.0], tolerance=-1), ValueError, "tolerance > 0"),
        (lambda: check_gradients(lambda a: a, []), ValueError, "non-empty list of inputs"),
        (lambda: check_gradients(lambda a: a, 2.0), ValueError, "non-empty list of inputs"),
        (lambda: check_gradients(lambda a: a, ["x"]), TypeError, "input 0 must hold numbers, got str"),
        (lambda: check_gradients(lambda a: [a], [1.0]), TypeError, "f must return one Value, got list"),
    ],
)
def test_bad_arguments_raise_errors_naming_the_problem(call, error, words):
    with pytest.raises(error, match=words.replace("(", r"\(")):
        call()


def test_docstring_examples_hold():
    assert doctest.testmod(gradcheck).failed == 0
