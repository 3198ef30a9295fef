"""Wrong pieces that passed the checks before the item-5 audit of issue 45, and fail them now."""

from __future__ import annotations

import pytest

from scratchgrad.exercises import check
from scratchgrad.exercises.registry import by_id

TANH_BY_EXP = """import math


def tanh_derivative(x):
    return 4 / (math.exp(x) + math.exp(-x)) ** 2
"""


def test_a_tanh_derivative_that_overflows_far_out_fails():
    report = check("tanh-derivative", TANH_BY_EXP, seed=1)
    [line] = [line for line in report.checks if not line.passed]
    assert line.message.startswith("tanh'(400.0) raised OverflowError; it is 0.0 as a float"), report.text()


def test_a_numerical_gradient_that_ignores_its_h_fails():
    source = (
        by_id("gradient-check")
        .solution.replace("up[i] += h", "up[i] += 1e-6")
        .replace("down[i] -= h", "down[i] -= 1e-6")
        .replace("/ (2 * h)", "/ (2 * 1e-6)")
    )
    report = check("gradient-check", source, seed=1)
    [line] = [line for line in report.checks if not line.passed]
    assert line.title == "numerical_gradient nudges both ways"
    assert line.message.endswith("nudging both ways is off by h² = 0.0001: use the h it is given"), (
        line.message
    )


@pytest.mark.parametrize(
    ("exercise", "old", "new", "title"),
    [
        # a slope with the sign of its rise lost: only a falling function shows it
        (
            "slope",
            "return rise / h",
            "return abs(rise) / h if x > 0 else rise / h",
            "slope of other functions",
        ),
        # a step that only ever moves right: only a slope that is positive shows it
        ("descent", None, None, "one step on (x − 3)² from x = 0"),
    ],
)
def test_a_sign_only_a_falling_case_shows_fails_on_the_fixed_cases(exercise, old, new, title):
    solution = by_id(exercise).solution
    if old is None:  # descent: x += lr·|slope|
        source = solution.replace("x = x - lr * slope(f, x)", "x = x + lr * abs(slope(f, x))")
        assert source != solution, solution
    else:
        source = solution.replace(old, new)
        assert source != solution
    for seed in range(5):  # whatever the random cases
        report = check(exercise, source, seed=seed)
        assert not next(line for line in report.checks if line.title == title).passed, report.text()


def test_a_neuron_whose_bias_starts_at_zero_passes():
    # The task draws the weights at random; of the bias it says only that there is one (0 is common).
    source = by_id("mlp").solution.replace("self.b = Value(random.uniform(-1, 1))", "self.b = Value(0.0)")
    assert source != by_id("mlp").solution
    report = check("mlp", source, seed=1)
    assert report.passed, report.text()
